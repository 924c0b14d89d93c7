/* cg_measured.c - the call graph's times from call stacks.

   The rule (the manual has it for users): a sample of weight w whose
   stack is f0 (the innermost frame) <- f1 <- ... gives
   - each arc P -> C that the stack holds (P's frame just outside C's)
     w once, however often the arc occurs on the stack: to the arc's
     self time when f0's function is C (or in C's cycle), else to its
     children time;
   - each function and cycle on the stack w once, to its children time,
     unless f0 is in it.
   Arcs into a function (or cycle) that no stack holds have no stack
   data: they keep the proportional rule, as do the children times that
   flow through them.  Everything is counted in one pass over the
   weighted stacks, each a walk to the root: the per-sample "once" is a
   stamp per arc, symbol and cycle.  */

#include "config.h"
#include "cg_measured.h"

#include <stdlib.h>
#include <string.h>
#include "gprof.h"
#include "i18n.h"
#include "support/alloc.h"
#include "support/error.h"
#include "support/out.h"

#define NONE UINT32_MAX

/* ---- the tree of stacks ------------------------------------------------ */

static size_t
node_slot (const CallStacks *cs, uint32_t up, vma_t pc)
{
  uint64_t k = pc * 0x9e3779b97f4a7c15ULL ^ up * 0xff51afd7ed558ccdULL;

  return (size_t) (k ^ k >> 29) & (cs->hash_cap - 1);
}

static void
stacks_rehash (CallStacks *cs, size_t cap)
{
  free (cs->hash);
  cs->hash_cap = cap;
  cs->hash = gp_calloc (cap, sizeof *cs->hash);
  for (size_t i = 0; i < cs->n; i++)
    {
      size_t h = node_slot (cs, cs->up[i], cs->pc[i]);

      while (cs->hash[h])
        h = (h + 1) & (cap - 1);
      cs->hash[h] = (uint32_t) i + 1;
    }
}

uint32_t
cg_stacks_node (CallStacks *cs, uint32_t up, vma_t pc)
{
  size_t h, cap = cs->cap;

  gp_assert (up == STACK_ROOT || up < cs->n);
  if (2 * (cs->n + 1) > cs->hash_cap)
    stacks_rehash (cs, cs->hash_cap ? 2 * cs->hash_cap : 1024);
  for (h = node_slot (cs, up, pc); cs->hash[h];
       h = (h + 1) & (cs->hash_cap - 1))
    {
      uint32_t n = cs->hash[h] - 1;

      if (cs->pc[n] == pc && cs->up[n] == up)
        return n;
    }
  if (cs->n >= UINT32_MAX - 1)
    gp_die (_("%s: too many call stacks\n"), whoami);
  gp_grow (&cs->up, &cap, cs->n + 1, sizeof *cs->up);
  cap = cs->cap;
  gp_grow (&cs->pc, &cap, cs->n + 1, sizeof *cs->pc);
  cap = cs->cap;
  gp_grow (&cs->weight, &cap, cs->n + 1, sizeof *cs->weight);
  cs->cap = cap;
  cs->up[cs->n] = up;
  cs->pc[cs->n] = pc;
  cs->weight[cs->n] = 0;
  cs->hash[h] = (uint32_t) cs->n + 1;
  return (uint32_t) cs->n++;
}

void
cg_stacks_free (CallStacks *cs)
{
  free (cs->up);
  free (cs->pc);
  free (cs->weight);
  free (cs->hash);
  memset (cs, 0, sizeof *cs);
}

void
cg_stacks_symbols (const CallStacks *cs, const SymTab *st, bool at_call,
                   uint32_t *sym_of)
{
  /* First a mark on each node with a node under it.  */
  for (size_t i = 0; i < cs->n; i++)
    sym_of[i] = 0;
  for (size_t i = 0; at_call && i < cs->n; i++)
    if (cs->up[i] != STACK_ROOT)
      sym_of[cs->up[i]] = 1;
  for (size_t i = 0; i < cs->n; i++)
    {
      vma_t pc = cs->pc[i];
      const Sym *s = symtab_lookup (st, sym_of[i] && pc > 0 ? pc - 1 : pc);

      sym_of[i] = s ? (uint32_t) (s - st->base) : STACK_NO_SYM;
    }
}

/* ---- arcs by their ends ----------------------------------------------- */

/* The call graph's hash is gone by now: arcs by (parent, child) symbol
   numbers, for the pairs of frames of the stacks.  */
typedef struct ArcMap
{
  uint32_t *slot;         /* arc + 1, 0 when empty */
  size_t mask;
} ArcMap;

static size_t
pair_slot (const ArcMap *m, size_t parent, size_t child)
{
  uint64_t k = parent * 0x9e3779b97f4a7c15ULL ^ child * 0xff51afd7ed558ccdULL;

  return (size_t) (k ^ k >> 31) & m->mask;
}

static void
arc_map_build (ArcMap *m, const CallGraph *cg, const Sym *base)
{
  size_t cap = 64;

  while (cap < 2 * cg->narcs + 2)
    cap *= 2;
  m->mask = cap - 1;
  m->slot = gp_calloc (cap, sizeof *m->slot);
  for (size_t a = 0; a < cg->narcs; a++)
    {
      size_t h = pair_slot (m, (size_t) (cg->arcs[a].parent - base),
                            (size_t) (cg->arcs[a].child - base));

      while (m->slot[h])
        h = (h + 1) & m->mask;
      m->slot[h] = (uint32_t) a + 1;
    }
}

static uint32_t
arc_map_find (const ArcMap *m, const CallGraph *cg, const Sym *base,
              uint32_t parent, uint32_t child)
{
  for (size_t h = pair_slot (m, parent, child); m->slot[h];
       h = (h + 1) & m->mask)
    {
      const Arc *a = &cg->arcs[m->slot[h] - 1];

      if (a->parent == base + parent && a->child == base + child)
        return m->slot[h] - 1;
    }
  return NONE;
}

/* ---- the pass over the stacks ------------------------------------------- */

/* What the pass counts.  Symbols are numbered as in the table; the
   cycles follow them (cycle N at nsym + N - 1): units.  */
typedef struct Tally
{
  size_t nsym;            /* the table's symbols and <indirect child> */
  uint32_t *sym_of;       /* per node: its frame's symbol, or STACK_NO_SYM */
  uint32_t *arc_of;       /* per node: the arc from its parent's, or NONE */
  double *arc_self, *arc_children;    /* per arc */
  uint32_t *arc_stamp;
  double *children;       /* per symbol and cycle */
  uint32_t *stamp;
  bool *seen;             /* on some stack */
} Tally;

static uint32_t
unit_of (const Tally *t, const Run *run, uint32_t sym)
{
  const Sym *s = &run->symtab.base[sym];

  if (s->cyc_head == s || !s->cyc_head)
    return sym;
  return (uint32_t) (t->nsym + (size_t) (s->cyc_head - run->cg.cycles));
}

static void
tally_nodes (Tally *t, const Run *run)
{
  const CallStacks *cs = &run->stacks;
  const SymTab *st = &run->symtab;
  ArcMap map;

  arc_map_build (&map, &run->cg, st->base);
  /* A stack's pairs of frames are matched with the arcs.  */
  cg_stacks_symbols (cs, st, false, t->sym_of);
  for (size_t i = 0; i < cs->n; i++)
    {
      uint32_t up = cs->up[i];

      t->arc_of[i] = NONE;
      if (up != STACK_ROOT && t->sym_of[up] != STACK_NO_SYM
          && t->sym_of[i] != STACK_NO_SYM)
        t->arc_of[i] = arc_map_find (&map, &run->cg, st->base,
                                     t->sym_of[up], t->sym_of[i]);
    }
  free (map.slot);
}

/* The stack of node LEAF, of weight W (stamp STAMP).  */
static void
tally_stack (Tally *t, const Run *run, size_t leaf, double w, uint32_t stamp)
{
  const CallStacks *cs = &run->stacks;
  uint32_t leaf_unit = unit_of (t, run, t->sym_of[leaf]);

  for (uint32_t j = (uint32_t) leaf; j != STACK_ROOT; j = cs->up[j])
    {
      uint32_t s = t->sym_of[j], u, a = t->arc_of[j];

      if (s == NONE)
        continue;
      u = unit_of (t, run, s);
      t->seen[s] = t->seen[u] = true;
      if (u != leaf_unit)
        {
          if (t->stamp[s] != stamp)
            t->children[s] += w;
          if (u != s && t->stamp[u] != stamp)
            t->children[u] += w;
          t->stamp[s] = t->stamp[u] = stamp;
        }
      if (a != NONE && t->arc_stamp[a] != stamp)
        {
          const Sym *child = run->cg.arcs[a].child;

          t->arc_stamp[a] = stamp;
          if (unit_of (t, run, (uint32_t) (child - run->symtab.base))
              == leaf_unit)
            t->arc_self[a] += w;
          else
            t->arc_children[a] += w;
        }
    }
}

/* ---- the call graph's times -------------------------------------------- */

static int
cmp_top_order (const void *a, const void *b)
{
  const Sym *l = *(Sym *const *) a, *r = *(Sym *const *) b;

  return (l->top_order > r->top_order) - (l->top_order < r->top_order);
}

/* An arc without stack data gets the proportional rule's share of its
   callee's time: its self time, and its children time as measured or
   shared in turn, so the callees go first (topological order; a cycle's
   members are numbered together, before any caller).  */
static void
share_by_calls (Tally *t, Run *run, double *adj)
{
  CallGraph *cg = &run->cg;
  Sym *base = run->symtab.base;
  size_t n = run->symtab.len;
  Sym **order = gp_reallocarray (NULL, n ? n : 1, sizeof *order);
  double *cyc_shared = gp_calloc ((size_t) cg->ncycles + 1,
                                  sizeof *cyc_shared);
  size_t *left = gp_calloc ((size_t) cg->ncycles + 1, sizeof *left);
  MeasuredReport *r = &run->stacks.report;

  for (size_t i = 0; i < n; i++)
    order[i] = &base[i];
  qsort (order, n, sizeof *order, cmp_top_order);
  for (int c = 0; c < cg->ncycles; c++)
    cg_members (cg, &cg->cycles[c], &left[c]);
  for (size_t k = 0; k < n; k++)
    {
      Sym *parent = order[k];
      uint32_t i = (uint32_t) (parent - base), u = unit_of (t, run, i);
      double own = t->seen[i] ? t->children[i] : 0;

      for (uint32_t j = 0; parent->prop_fract != 0 && j < parent->nchildren;
           j++)
        {
          Arc *a = cg_child (cg, parent, j);
          Sym *child = a->child->cyc_head ? a->child->cyc_head : a->child;
          uint32_t cu = unit_of (t, run, (uint32_t) (a->child - base));
          ArcTime *at;
          double frac, share;

          if (a->kind != ARC_NORMAL || t->seen[cu] || a->count == 0
              || a->child->prop_fract == 0 || child->ncalls == 0)
            continue;
          frac = (double) a->count / (double) child->ncalls;
          at = cg_arc_time (cg, a);
          at->self = child->hist_time * frac * parent->prop_fract;
          at->children = adj[cu] * frac * parent->prop_fract;
          share = (child->hist_time + adj[cu]) * frac;
          own += share;
          if (u != i)
            cyc_shared[u - t->nsym] += share;
          if (at->self + at->children > 0)
            {
              size_t m = r->nshared_into;

              r->arcs_shared++;
              if (m < sizeof r->shared_into / sizeof r->shared_into[0]
                  && (m == 0 || r->shared_into[m - 1] != a->child))
                r->shared_into[r->nshared_into++] = a->child;
            }
        }
      adj[i] = own;
      parent->prop_child = parent->prop_fract * own;
      if (u != i && --left[u - t->nsym] == 0)
        {
          Sym *cyc = &cg->cycles[u - t->nsym];

          adj[u] = (t->seen[u] ? t->children[u] : 0) + cyc_shared[u - t->nsym];
          cyc->prop_child = cyc->prop_fract * adj[u];
        }
    }
  free (left);
  free (cyc_shared);
  free (order);
}

static void
apply (Tally *t, Run *run)
{
  CallGraph *cg = &run->cg;
  double *adj = gp_calloc (t->nsym + (size_t) cg->ncycles, sizeof *adj);

  for (size_t k = 0; k < cg->narcs; k++)
    {
      Arc *a = &cg->arcs[k];

      uint32_t child = (uint32_t) (a->child - run->symtab.base);

      if (a->kind == ARC_NORMAL && t->seen[unit_of (t, run, child)])
        {
          cg->arc_time[k] = (ArcTime) { t->arc_self[k] * a->parent->prop_fract,
                                        t->arc_children[k]
                                        * a->parent->prop_fract };
          a->measured = true;
          run->stacks.report.arcs_measured++;
        }
    }
  share_by_calls (t, run, adj);
  free (adj);
}

void
cg_measured_apply (Run *run)
{
  const CallStacks *cs = &run->stacks;
  size_t nunits = run->symtab.len + 1 + (size_t) run->cg.ncycles;
  size_t narcs = run->cg.narcs ? run->cg.narcs : 1;
  Tally t;

  memset (&run->stacks.report, 0, sizeof run->stacks.report);
  /* Without stacks every time stays the proportional rule's, exactly.  */
  if (cs->files == 0)
    return;
  t.nsym = run->symtab.len + 1;
  t.sym_of = gp_reallocarray (NULL, cs->n ? cs->n : 1, sizeof *t.sym_of);
  t.arc_of = gp_reallocarray (NULL, cs->n ? cs->n : 1, sizeof *t.arc_of);
  t.arc_self = gp_calloc (narcs, sizeof *t.arc_self);
  t.arc_children = gp_calloc (narcs, sizeof *t.arc_children);
  t.arc_stamp = gp_calloc (narcs, sizeof *t.arc_stamp);
  t.children = gp_calloc (nunits, sizeof *t.children);
  t.stamp = gp_calloc (nunits, sizeof *t.stamp);
  t.seen = gp_calloc (nunits, sizeof *t.seen);

  tally_nodes (&t, run);
  for (size_t i = 0; i < cs->n; i++)
    {
      uint32_t s = t.sym_of[i];

      /* A leaf outside every symbol, or whose time -E/-N keep from
         propagating, brings its callers nothing (as in gprof's rule).  */
      if (cs->weight[i] == 0 || s == NONE
          || run->symtab.base[s].prop_fract == 0)
        continue;
      run->stacks.report.stacked += (double) cs->weight[i];
      tally_stack (&t, run, i, (double) cs->weight[i], (uint32_t) i + 1);
    }
  apply (&t, run);

  free (t.sym_of);
  free (t.arc_of);
  free (t.arc_self);
  free (t.arc_children);
  free (t.arc_stamp);
  free (t.children);
  free (t.stamp);
  free (t.seen);
}

void
cg_measured_print_header (const Run *run)
{
  const CallStacks *cs = &run->stacks;
  const MeasuredReport *r = &cs->report;

  if (cs->files == 0)
    {
      out_printf (_("measured times: none, the profile has no call stacks "
                    "(libgmon writes\n"
                    "them beside it): every time below is shared by "
                    "calls\n\n"));
      return;
    }
  out_printf (_("measured times: from the call stacks of %.0f of %.0f samples "
                "(%llu cut at %u frames)\n"),
              r->stacked, run->hist.total_time, (unsigned long long) cs->cut,
              cs->depth);
  out_printf (_("arcs measured: %zu; shared by calls for lack of stack data: "
                "%zu"), r->arcs_measured, r->arcs_shared);
  for (size_t i = 0; i < r->nshared_into; i++)
    {
      out_printf (i == 0 ? _(" (into ") : ", ");
      print_name_only (&run->names, r->shared_into[i]);
    }
  if (r->nshared_into > 0)
    out_printf (r->arcs_shared > r->nshared_into ? ", ...)" : ")");
  out_printf ("\n\n");
}
