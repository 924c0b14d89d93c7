/* cg_dfn.c - depth-first numbering and cycle detection.

   This follows GNU gprof's algorithm step for step, so that the numbers,
   the cycle heads and the order of the cycle chains come out the same,
   but without its costs:
   - an explicit stack instead of C recursion;
   - cycle heads in a union-find instead of rewriting every member's head
     pointer when cycles merge;
   - the tail of each chain kept instead of walked to;
   - stack entries grouped in intervals (each interval is one cycle's
     members on the stack, which are always contiguous with the cycle's
     head lowest), so that closing a cycle visits each interval once
     instead of every stack entry above the target.  */

#include "config.h"
#include "cg_dfn.h"

#include <stdio.h>
#include <stdlib.h>
#include "util.h"

enum { DFN_NAN = 0, DFN_BUSY = -1 };

typedef struct Frame
{
  Sym *sym;
  uint32_t next;          /* next child arc to visit */
} Frame;

typedef struct Dfn
{
  Sym *base;              /* the symbol table */
  const CallGraph *cg;
  Frame *stack;           /* 1-based, as GNU's */
  size_t depth;
  size_t *pos;            /* stack position of each symbol, 0 if none */
  size_t *head;           /* union-find of cycle heads (symbol indices) */
  Sym **tail;             /* last member of each head's chain */
  size_t *interval;       /* union-find of stack positions, to the lowest */
  size_t *starts;         /* scratch for find_cycle */
  int counter;
} Dfn;

static size_t
sym_index (const Dfn *d, const Sym *s)
{
  return (size_t) (s - d->base);
}

static size_t
find_head (Dfn *d, size_t i)
{
  size_t r = i;

  while (d->head[r] != r)
    r = d->head[r];
  while (d->head[i] != r)
    {
      size_t next = d->head[i];

      d->head[i] = r;
      i = next;
    }
  return r;
}

static size_t
find_interval (Dfn *d, size_t p)
{
  size_t r = p;

  while (d->interval[r] != r)
    r = d->interval[r];
  while (d->interval[p] != r)
    {
      size_t next = d->interval[p];

      d->interval[p] = r;
      p = next;
    }
  return r;
}

static void
push (Dfn *d, Sym *s)
{
  d->depth++;
  d->stack[d->depth].sym = s;
  d->stack[d->depth].next = 0;
  d->interval[d->depth] = d->depth;
  d->pos[sym_index (d, s)] = d->depth;
  s->top_order = DFN_BUSY;
}

/* Number P, and its cycle with it if P heads one; a member of a cycle
   waits for its head.  */
static void
pop (Dfn *d)
{
  Sym *p = d->stack[d->depth].sym;
  size_t pi = sym_index (d, p);

  if (find_head (d, pi) == pi)
    {
      d->counter++;
      for (Sym *m = p; m; m = m->cyc_next)
        m->top_order = d->counter;
    }
  d->pos[pi] = 0;
  d->depth--;
}

/* C is busy: the arc just followed closes a cycle.  Merge everything on
   the stack above C (or above its cycle's head) into that cycle.  */
static void
find_cycle (Dfn *d, Sym *c)
{
  size_t ci = sym_index (d, c), top, h, n = 0;
  size_t hc = find_head (d, ci);

  top = d->pos[ci];
  if (top == 0 && hc != ci)
    top = d->pos[hc];
  if (top == 0)
    gp_die ("[find_cycle] couldn't find head of cycle\n");
  if (top == d->depth)
    return;  /* a call to itself */

  h = find_head (d, sym_index (d, d->stack[top].sym));
  /* The intervals above TOP, from the highest down.  */
  for (size_t p = d->depth; p > top;)
    {
      size_t s = find_interval (d, p);

      if (s <= top)
        break;
      d->starts[n++] = s;
      p = s - 1;
    }
  /* Glom them into H's cycle, lowest first, as GNU walks the stack.  */
  while (n > 0)
    {
      size_t s = d->starts[--n];
      size_t si = sym_index (d, d->stack[s].sym);

      if (find_head (d, si) != si)
        gp_die ("[find_cycle] glommed, but not to head\n");
      d->tail[h]->cyc_next = &d->base[si];
      d->tail[h] = d->tail[si];
      d->head[si] = h;
      d->interval[s] = find_interval (d, top);
    }
}

static void
visit (Dfn *d, Sym *root)
{
  push (d, root);
  while (d->depth > 0)
    {
      Frame *f = &d->stack[d->depth];

      if (f->next < f->sym->nchildren)
        {
          Sym *child = cg_children (d->cg, f->sym)[f->next++]->child;

          if (child->top_order > 0)
            continue;
          if (child->top_order == DFN_BUSY)
            find_cycle (d, child);
          else
            push (d, child);
        }
      else
        pop (d);
    }
}

void
cg_dfn_number (SymTab *symtab, const CallGraph *cg)
{
  size_t roots = symtab->len, n = roots + 1;  /* arcs may reach the pseudo-symbol */
  Dfn d = { 0 };

  d.base = symtab->base;
  d.cg = cg;
  d.stack = gp_reallocarray (NULL, n + 1, sizeof *d.stack);
  d.pos = gp_calloc (n, sizeof *d.pos);
  d.head = gp_reallocarray (NULL, n, sizeof *d.head);
  d.tail = gp_reallocarray (NULL, n, sizeof *d.tail);
  d.interval = gp_reallocarray (NULL, n + 1, sizeof *d.interval);
  d.starts = gp_reallocarray (NULL, n + 1, sizeof *d.starts);
  for (size_t i = 0; i < n; i++)
    {
      d.head[i] = i;
      d.tail[i] = &symtab->base[i];
    }

  for (size_t i = 0; i < roots; i++)
    if (symtab->base[i].top_order == DFN_NAN)
      visit (&d, &symtab->base[i]);

  for (size_t i = 0; i < n; i++)
    symtab->base[i].cyc_head = &symtab->base[find_head (&d, i)];

  free (d.stack);
  free (d.pos);
  free (d.head);
  free (d.tail);
  free (d.interval);
  free (d.starts);
}
