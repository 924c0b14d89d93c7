/* cg_order.c - function and file orderings.

   The placement heuristic is GNU gprof's: chains of functions are built
   along the busiest arcs, each function having at most one neighbour on
   either side, and printed chain by chain.  */

#include "config.h"
#include "cg_order.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gprof.h"
#include "support/msort.h"
#include "support/out.h"
#include "support/alloc.h"

/* Arcs placed by order_and_dump use only the busiest 99% of the calls
   when not placing all.  */
#define MOST 0.99

typedef struct ArcList
{
  Arc **v;
  size_t n;
} ArcList;

/* A symbol's neighbours in its placement chain, and how often the
   busiest arcs call it: kept beside the symbol table, which only the
   orderings would otherwise carry them for.  */
struct PlaceLink
{
  Sym *next, *prev;
  int nuses;
};

/* The links of the symbols of BASE (the table and its pseudo-symbol).  */
typedef struct Chains
{
  Sym *base;
  struct PlaceLink *link;
} Chains;

static struct PlaceLink *
link_of (const Chains *c, const Sym *s)
{
  return &c->link[s - c->base];
}

/* The run's links, made (all unlinked) on first use: -R after -r sees
   the chains -r left, as GNU's orderings share their fields.  */
static Chains
chains_of (Run *run)
{
  if (!run->cg.place)
    run->cg.place = gp_calloc (run->symtab.len + 1, sizeof *run->cg.place);
  return (Chains) { run->symtab.base, run->cg.place };
}

static int
cmp_arc_count (const void *a, const void *b, void *ctx)
{
  const Arc *l = a, *r = b;

  if (l->count > r->count)
    return -1;
  return l->count < r->count;
}

static int
cmp_fun_nuses (const void *a, const void *b, void *ctx)
{
  int l = link_of (ctx, a)->nuses, r = link_of (ctx, b)->nuses;

  if (l > r)
    return -1;
  return l < r;
}

static void
push_arc (ArcList *list, Arc *a)
{
  list->v[list->n++] = a;
}

/* The end of S's chain in the direction it extends (next if it has one).  */
static Sym *
chain_end (const Chains *c, Sym *s)
{
  if (link_of (c, s)->next)
    while (link_of (c, s)->next)
      s = link_of (c, s)->next;
  else
    while (link_of (c, s)->prev)
      s = link_of (c, s)->prev;
  return s;
}

/* The end of S's chain nearest to S: TOWARD_NEXT_ON_TIE says which end
   wins when both are as far.  */
static Sym *
nearest_end (const Chains *c, Sym *s, bool next_if_nearer_only)
{
  Sym *next = s, *prev = s;
  size_t next_count = 0, prev_count = 0;

  while (link_of (c, next)->next)
    {
      next = link_of (c, next)->next;
      next_count++;
    }
  while (link_of (c, prev)->prev)
    {
      prev = link_of (c, prev)->prev;
      prev_count++;
    }
  if (next_if_nearer_only)
    return next_count < prev_count ? next : prev;
  return prev_count < next_count ? prev : next;
}

/* Link the functions of the arcs of A into chains and print the chains;
   arcs that cannot be used go to UNPLACED.  With ALL, every function of
   A is printed in the end; without, only the busiest 99% of A's calls
   count.  */
static void
order_and_dump (const Chains *c, Arc **a, size_t n, bool all, ArcList *unplaced)
{
  unsigned long long total = 0, running = 0;

  if (!all)
    for (size_t i = 0; i < n; i++)
      total += a[i]->count;
  for (size_t i = 0; i < n; i++)
    {
      Arc *arc = a[i];
      Sym *child = arc->child, *parent = arc->parent;
      struct PlaceLink *pl, *cl;

      running += arc->count;
      if (arc->has_been_placed)
        continue;
      if ((!all && (double) running / (double) total > MOST)
          || child->has_been_placed || parent->has_been_placed
          || (link_of (c, parent)->next && link_of (c, parent)->prev
              && link_of (c, child)->next && link_of (c, child)->prev))
        {
          push_arc (unplaced, arc);
          continue;
        }
      /* Attach the unattached one to the nearer end of the other's chain.  */
      if (!link_of (c, parent)->next && !link_of (c, parent)->prev)
        child = nearest_end (c, child, true);
      else if (!link_of (c, child)->next && !link_of (c, child)->prev)
        parent = nearest_end (c, parent, false);
      else
        {
          push_arc (unplaced, arc);
          continue;
        }
      /* Never close a chain into a ring.  */
      if (chain_end (c, parent) == child && chain_end (c, child) == parent)
        {
          push_arc (unplaced, arc);
          continue;
        }
      pl = link_of (c, parent);
      cl = link_of (c, child);
      if (pl->next)
        {
          if (!cl->next)
            {
              pl->prev = child;
              cl->next = parent;
              arc->has_been_placed = true;
            }
        }
      else if (pl->prev)
        {
          if (!cl->prev)
            {
              pl->next = child;
              cl->prev = parent;
              arc->has_been_placed = true;
            }
        }
      else if (cl->prev)
        {
          pl->prev = child;
          cl->next = parent;
          arc->has_been_placed = true;
        }
      else
        {
          pl->next = child;
          cl->prev = parent;
          arc->has_been_placed = true;
        }
    }

  /* Print the chains.  */
  for (size_t i = 0; i < n; i++)
    {
      Sym *s = a[i]->parent;

      if (a[i]->parent->has_been_placed || a[i]->child->has_been_placed)
        continue;
      if (!link_of (c, s)->next && !link_of (c, s)->prev)
        continue;  /* a rarely used arc: later */
      while (link_of (c, s)->prev)
        s = link_of (c, s)->prev;
      for (; s; s = link_of (c, s)->next)
        {
          s->has_been_placed = true;
          out_printf ("%s\n", s->name);
        }
    }
  if (all)
    for (size_t i = 0; i < n; i++)
      if (!a[i]->parent->has_been_placed && !a[i]->child->has_been_placed)
        {
          a[i]->parent->has_been_placed = true;
          out_printf ("%s\n", a[i]->parent->name);
        }
}

/* The arcs between different functions, in creation order.  */
static ArcList
call_arcs (const CallGraph *cg)
{
  ArcList l = { gp_reallocarray (NULL, cg->narcs ? cg->narcs : 1, sizeof *l.v), 0 };

  for (size_t i = 0; i < cg->narcs; i++)
    if (cg->arcs[i].parent != cg->arcs[i].child)
      l.v[l.n++] = &cg->arcs[i];
  return l;
}

/* Collect the arcs of the symbols used most by the busiest arcs (at most
   one in 80 of the used functions): GNU prints those functions first.  */
static size_t
pick_hot (Run *run, const Chains *c, Sym **by_uses, size_t used,
          ArcList *scratch)
{
  size_t last = 0;

  for (size_t i = 0; i < used / 80; i++)
    {
      Sym *s = by_uses[i];

      /* GNU meant "< 5" here.  */
      if (link_of (c, s)->nuses == 5)
        break;
      for (uint32_t k = 0; k < s->nchildren; k++)
        {
          Arc *a = cg_child (&run->cg, s, k);

          if (a->parent != a->child)
            push_arc (scratch, a);
          a->has_been_placed = true;
        }
      for (uint32_t k = 0; k < s->nparents; k++)
        {
          Arc *a = cg_parent (&run->cg, s, k);

          if (a->parent != a->child)
            push_arc (scratch, a);
          a->has_been_placed = true;
        }
      last = i;
      s->has_been_placed = true;
    }
  return last;
}

void
cg_print_function_ordering (Run *run)
{
  SymTab *st = &run->symtab;
  CallGraph *cg = &run->cg;
  Sym **unused = gp_reallocarray (NULL, st->len + 1, sizeof *unused);
  Sym **used = gp_reallocarray (NULL, st->len + 1, sizeof *used);
  Sym **by_uses = gp_reallocarray (NULL, st->len + 1, sizeof *by_uses);
  size_t nunused = 0, nused = 0, last_hot;
  ArcList arcs = call_arcs (cg);
  /* An arc between two hot functions is collected twice, and each pass
     of order_and_dump may pass on every arc it is given.  */
  size_t cap = 3 * cg->narcs + 1;
  ArcList scratch = { gp_reallocarray (NULL, cap, sizeof (Arc *)), 0 };
  ArcList high = { gp_reallocarray (NULL, cap, sizeof (Arc *)), 0 };
  ArcList unplaced = { gp_reallocarray (NULL, cap, sizeof (Arc *)), 0 };
  ArcList rest = { gp_reallocarray (NULL, cap, sizeof (Arc *)), 0 };
  unsigned long long total = 0, running = 0;
  Chains c = chains_of (run);

  for (size_t i = 0; i < st->len; i++)
    {
      Sym *s = &st->base[i];

      if (s->ncalls == 0)
        {
          unused[nunused++] = s;
          s->has_been_placed = true;
        }
      else
        {
          used[nused++] = s;
          s->has_been_placed = false;
          *link_of (&c, s) = (struct PlaceLink) { NULL, NULL, 0 };
        }
    }

  msort_ptrs ((void **) arcs.v, arcs.n, cmp_arc_count, NULL);
  for (size_t i = 0; i < arcs.n; i++)
    {
      total += arcs.v[i]->count;
      arcs.v[i]->has_been_placed = false;
    }
  /* How often each function is called by the busiest 90% of the calls.  */
  for (size_t i = 0; i < arcs.n; i++)
    {
      running += arcs.v[i]->count;
      if ((double) running / (double) total > 0.90)
        break;
      link_of (&c, arcs.v[i]->child)->nuses++;
    }

  for (size_t i = 0; i < nused; i++)
    by_uses[i] = used[i];
  msort_ptrs ((void **) by_uses, nused, cmp_fun_nuses, &c);
  last_hot = pick_hot (run, &c, by_uses, nused, &scratch);
  for (size_t i = 0; i < scratch.n; i++)
    {
      Arc *a = scratch.v[i];

      if (a->child->has_been_placed && a->parent->has_been_placed)
        {
          push_arc (&high, a);
          /* They are placed by the chain algorithm below.  */
          a->child->has_been_placed = false;
          a->parent->has_been_placed = false;
        }
    }
  /* GNU stops one short of the last hot function here.  */
  for (size_t i = 0; i < last_hot; i++)
    if (by_uses[i]->has_been_placed)
      out_printf ("%s\n", by_uses[i]->name);

  msort_ptrs ((void **) high.v, high.n, cmp_arc_count, NULL);
  order_and_dump (&c, high.v, high.n, true, &unplaced);
  order_and_dump (&c, arcs.v, arcs.n, false, &unplaced);
  order_and_dump (&c, unplaced.v, unplaced.n, true, &rest);

  for (size_t i = 0; i < nused; i++)
    if (!used[i]->has_been_placed)
      out_printf ("%s\n", used[i]->name);
  for (size_t i = 0; i < nunused; i++)
    out_printf ("%s\n", unused[i]->name);

  free (unused);
  free (used);
  free (by_uses);
  free (arcs.v);
  free (scratch.v);
  free (high.v);
  free (unplaced.v);
  free (rest.v);
}

static int
cmp_map_file (const void *a, const void *b, void *ctx)
{
  return strcmp (((const FunctionMap *) a)->file_name,
                 ((const FunctionMap *) b)->file_name);
}

static int
cmp_str (const void *a, const void *b, void *ctx)
{
  return strcmp (a, b);
}

static bool
sorted_has (char **v, size_t n, const char *s)
{
  size_t lo = 0, hi = n;

  while (lo < hi)
    {
      size_t mid = lo + (hi - lo) / 2;
      int c = strcmp (s, v[mid]);

      if (c == 0)
        return true;
      if (c < 0)
        hi = mid;
      else
        lo = mid + 1;
    }
  return false;
}

/* -R: object files in the order their functions call each other, then
   the other files with text, then the files of the map without any.  */
void
cg_print_file_ordering (Run *run)
{
  SymTab *st = &run->symtab;
  const Core *core = run->core;
  ArcList arcs = call_arcs (&run->cg);
  ArcList unplaced = { gp_reallocarray (NULL, arcs.n + 1, sizeof (Arc *)), 0 };
  FunctionMap **by_file = gp_reallocarray (NULL, core->nmap + 1, sizeof *by_file);
  char **mapped_names = gp_reallocarray (NULL, st->len + 1, sizeof *mapped_names);
  size_t nmapped = 0;
  const char *last = NULL;
  Chains c = chains_of (run);

  for (size_t i = 0; i < arcs.n; i++)
    if (!arcs.v[i]->parent->mapped || !arcs.v[i]->child->mapped)
      arcs.v[i]->has_been_placed = true;
  order_and_dump (&c, arcs.v, arcs.n, false, &unplaced);

  for (size_t i = 0; i < st->len; i++)
    if (st->base[i].mapped)
      {
        if (!st->base[i].has_been_placed)
          out_printf ("%s\n", st->base[i].name);
        mapped_names[nmapped++] = (char *) st->base[i].name;
      }

  msort_ptrs ((void **) mapped_names, nmapped, cmp_str, NULL);
  for (size_t i = 0; i < core->nmap; i++)
    by_file[i] = &core->map[i];
  msort_ptrs ((void **) by_file, core->nmap, cmp_map_file, NULL);
  for (size_t i = 0; i < core->nmap; i++)
    {
      const char *file = by_file[i]->file_name;

      if (last && strcmp (last, file) == 0)
        continue;
      if (!sorted_has (mapped_names, nmapped, file))
        out_printf ("%s\n", file);
      last = file;
    }

  free (arcs.v);
  free (unplaced.v);
  free (by_file);
  free (mapped_names);
}
