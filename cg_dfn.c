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
     instead of every stack entry above the target;
   - the walk reads and writes compact arrays of indices (children,
     states, the cycle chains), not the symbols and arcs themselves, which
     on big graphs are cache misses (the children's indices come with the
     call graph's slices; the chains go to the symbols at the end); a
     symbol's states share one 16-byte record, one miss for all;
   - the chains' links in an array of their own, 4 bytes a symbol:
     numbering a cycle follows its chain one dependent load after
     another, and a big cycle's links then stay in the caches; the
     members' records are written in a second pass, asked for ahead.  */

#include "config.h"
#include "cg_dfn.h"

#include <stdio.h>
#include <stdlib.h>
#include "i18n.h"
#include "support/error.h"
#include "support/alloc.h"

enum { DFN_NAN = 0, DFN_BUSY = -1 };
#define NO_SYM DFN_END

typedef struct Frame
{
  uint32_t sym;
  uint32_t next;          /* next child to visit, an index into kid */
  uint32_t end;           /* past its last child */
} Frame;

/* What the walk keeps of a symbol, together: most steps read or write
   several of these for the same symbol, a cache miss when they lie in
   arrays of their own.  */
typedef struct Node
{
  int order;              /* top_order as it is being built */
  uint32_t pos;           /* stack position, 0 if not on the stack */
  uint32_t head;          /* union-find of cycle heads */
  uint32_t tail;          /* last member of the chain it heads */
} Node;

typedef struct Dfn
{
  Sym *base;              /* the symbol table */
  uint32_t *kid_start;    /* children of symbol i: kid[kid_start[i] ...] */
  const uint32_t *kid;
  Node *node;             /* per symbol */
  uint32_t *next;         /* the cycle chains: next member, or NO_SYM */
  Frame *stack;           /* 1-based, as GNU's */
  size_t depth;
  uint32_t *interval;     /* union-find of stack positions, to the lowest */
  uint32_t *starts;       /* scratch for find_cycle */
  DfnCycles *cycles;      /* the chains of the cycles numbered so far */
  size_t nsyms;
  int counter;
} Dfn;

static uint32_t
find_head (Dfn *d, uint32_t i)
{
  uint32_t r = i;

  while (d->node[r].head != r)
    r = d->node[r].head;
  while (d->node[i].head != r)
    {
      uint32_t next = d->node[i].head;

      d->node[i].head = r;
      i = next;
    }
  return r;
}

static uint32_t
find_interval (Dfn *d, uint32_t p)
{
  uint32_t r = p;

  while (d->interval[r] != r)
    r = d->interval[r];
  while (d->interval[p] != r)
    {
      uint32_t next = d->interval[p];

      d->interval[p] = r;
      p = next;
    }
  return r;
}

static void
push (Dfn *d, uint32_t s)
{
  uint32_t from = d->kid_start[s], end = d->kid_start[s + 1];

  d->depth++;
  d->stack[d->depth].sym = s;
  d->stack[d->depth].next = from;
  d->stack[d->depth].end = end;
  d->interval[d->depth] = (uint32_t) d->depth;
  d->node[s].pos = (uint32_t) d->depth;
  d->node[s].order = DFN_BUSY;
}

/* Number the cycle headed by P, and list its members.  */
static void
number_cycle (Dfn *d, uint32_t p)
{
  DfnCycles *c = d->cycles;

  /* Every member is in one cycle and a cycle has two at least: members
     and ends take one and a half slots a symbol at most.  */
  if (!c->member)
    c->member = gp_reallocarray (NULL, d->nsyms + d->nsyms / 2 + 1,
                                 sizeof *c->member);
  c->at[p] = (uint32_t) c->nmember;
  for (uint32_t m = p; m != NO_SYM; m = d->next[m])
    c->member[c->nmember++] = m;
  for (size_t i = c->at[p]; i < c->nmember; i++)
    d->node[c->member[i]].order = d->counter;
  c->member[c->nmember++] = DFN_END;
}

/* Number P, and its cycle with it if P heads one; a member of a cycle
   waits for its head.  */
static void
pop (Dfn *d)
{
  uint32_t p = d->stack[d->depth].sym;

  if (find_head (d, p) == p)
    {
      d->counter++;
      if (d->next[p] == NO_SYM)
        d->node[p].order = d->counter;
      else
        number_cycle (d, p);
    }
  d->node[p].pos = 0;
  d->depth--;
}

/* C is busy: the arc just followed closes a cycle.  Merge everything on
   the stack above C (or above its cycle's head) into that cycle.  */
static void
find_cycle (Dfn *d, uint32_t c)
{
  uint32_t top = d->node[c].pos, h;
  size_t n = 0;

  /* Off the stack, C is a member of a cycle whose head is on it.  */
  if (top == 0)
    {
      uint32_t hc = find_head (d, c);

      if (hc != c)
        top = d->node[hc].pos;
    }
  if (top == 0)
    gp_die (_("[find_cycle] couldn't find head of cycle\n"));
  if (top == d->depth)
    return;  /* a call to itself */

  /* The intervals above TOP, from the highest down.  Mostly there are
     none (TOP's cycle already reaches the top of the stack): then the
     cycle's head is not needed either.  */
  for (uint32_t p = (uint32_t) d->depth; p > top;)
    {
      uint32_t s = find_interval (d, p);

      if (s <= top)
        break;
      d->starts[n++] = s;
      p = s - 1;
    }
  if (n == 0)
    return;
  h = find_head (d, d->stack[top].sym);
  /* Glom them into H's cycle, lowest first, as GNU walks the stack.  */
  while (n > 0)
    {
      uint32_t s = d->starts[--n];
      uint32_t si = d->stack[s].sym;

      if (find_head (d, si) != si)
        gp_die (_("[find_cycle] glommed, but not to head\n"));
      d->next[d->node[h].tail] = si;
      d->node[h].tail = d->node[si].tail;
      d->node[si].head = h;
      d->interval[s] = find_interval (d, top);
    }
}

static void
visit (Dfn *d, uint32_t root)
{
  push (d, root);
  while (d->depth > 0)
    {
      Frame *f = &d->stack[d->depth];

      if (f->next < f->end)
        {
          uint32_t child = d->kid[f->next++];

          if (d->node[child].order > 0)
            continue;
          if (d->node[child].order == DFN_BUSY)
            find_cycle (d, child);
          else
            push (d, child);
        }
      else
        pop (d);
    }
}

/* Where each symbol's children start in the call graph's child_index,
   which lists them in list order.  */
static void
index_children (Dfn *d, size_t n, const CallGraph *cg)
{
  d->kid_start = gp_reallocarray (NULL, n + 1, sizeof *d->kid_start);
  for (size_t i = 0; i < n; i++)
    d->kid_start[i] = d->base[i].first_child;
  d->kid_start[n] = n ? d->base[n - 1].first_child + d->base[n - 1].nchildren : 0;
  d->kid = cg->child_index;
}

/* The first N symbols by top_order, ascending, equal numbers (a
   cycle's members) in address order: what GNU's stable sort by
   top_order gives, made by counting (numbers run from 1 to at most N +
   1) on the walk's compact records rather than on the symbols.  */
static Sym **
sort_by_order (const Dfn *d, size_t n)
{
  size_t limit = n + 2;
  uint32_t *start = gp_calloc (limit + 1, sizeof *start);
  Sym **out = gp_reallocarray (NULL, n ? n : 1, sizeof *out);

  for (size_t i = 0; i < n; i++)
    start[(size_t) d->node[i].order + 1]++;
  for (size_t k = 0; k < limit; k++)
    start[k + 1] += start[k];
  for (size_t i = 0; i < n; i++)
    out[start[d->node[i].order]++] = &d->base[i];
  free (start);
  return out;
}

Sym **
cg_dfn_number (SymTab *symtab, const CallGraph *cg, DfnCycles *cycles)
{
  Sym **by_order;
  size_t roots = symtab->len, n = roots + 1;  /* arcs may reach the pseudo-symbol */
  Dfn d = { 0 };

  if (n > UINT32_MAX - 1)
    gp_die (_("%s: too many symbols\n"), whoami);
  d.base = symtab->base;
  index_children (&d, n, cg);
  d.node = gp_calloc (n, sizeof *d.node);
  d.stack = gp_reallocarray (NULL, n + 1, sizeof *d.stack);
  d.next = gp_reallocarray (NULL, n, sizeof *d.next);
  d.interval = gp_reallocarray (NULL, n + 1, sizeof *d.interval);
  d.starts = gp_reallocarray (NULL, n + 1, sizeof *d.starts);
  d.cycles = cycles;
  d.nsyms = n;
  *cycles = (DfnCycles) { 0 };
  cycles->at = gp_reallocarray (NULL, n, sizeof *cycles->at);
  for (uint32_t i = 0; i < n; i++)
    {
      d.node[i].head = i;
      d.node[i].tail = i;
      d.next[i] = NO_SYM;
      d.node[i].order = symtab->base[i].top_order;
      cycles->at[i] = DFN_END;
    }

  for (uint32_t i = 0; i < roots; i++)
    if (d.node[i].order == DFN_NAN)
      visit (&d, i);

  for (uint32_t i = 0; i < n; i++)
    {
      symtab->base[i].cyc_head = &symtab->base[find_head (&d, i)];
      symtab->base[i].top_order = d.node[i].order;
      if (d.next[i] != NO_SYM)
        symtab->base[i].cyc_next = &symtab->base[d.next[i]];
    }
  /* The sort's arrays take the memory of those freed first, not fresh
     pages.  */
  free (d.kid_start);
  free (d.stack);
  free (d.next);
  free (d.interval);
  free (d.starts);
  by_order = sort_by_order (&d, roots);
  free (d.node);
  return by_order;
}
