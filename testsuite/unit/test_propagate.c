/* test_propagate.c - print flags, propagation fractions and times (spec
   §6.5, §6.6) on small graphs worked out by hand, with and without the
   exclusions of -e, -E, -f and -F.  Sample times are set directly on
   the symbols, as hist_assign_samples would leave them; every number is
   a binary fraction, so the results are compared exactly.  */

#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gprof.h"
#include "support/msort.h"
#include "unit.h"

typedef struct Call
{
  size_t from, to;
  unsigned long count;
} Call;

/* What an option adds to the symspec tables (-E adds to two).  */
typedef struct Spec
{
  const char *name;
  SymTable table;
} Spec;

/* Build a run of the named functions, set their sample times, record
   the calls as profile records would, make the symspec tables and
   assemble the call graph.  */
static Run *
assemble (const char *const *names, size_t n, const double *times,
          const Call *calls, size_t ncalls, const Spec *specs, size_t nspecs)
{
  Run *run = run_new (n, names);

  for (size_t i = 0; i < n; i++)
    run->symtab.base[i].hist_time = times[i];
  for (size_t i = 0; i < ncalls; i++)
    run_arc (run, calls[i].from, calls[i].to, calls[i].count);
  run->opt.specs = calloc (nspecs + 1, sizeof *run->opt.specs);
  for (size_t i = 0; i < nspecs; i++)
    {
      run->opt.specs[i].spec = specs[i].name;
      run->opt.specs[i].table = specs[i].table;
    }
  run->opt.nspecs = nspecs;
  sym_ids_build (&run->ids, &run->opt, &run->symtab, &run->files,
                 run_text_last (run), 0);
  cg_take_self_calls (run);
  cg_assemble (run);
  cg_propagate (run);
  cg_order (run);
  return run;
}

static void
release (Run *run)
{
  sym_ids_free (&run->ids);
  free (run->opt.specs);
  run_free (run);
}

/* One symbol's expected results.  */
typedef struct Want
{
  double fract, self, child;
  bool printed;
} Want;

static bool
sym_is (const Sym *s, const Want *w)
{
  if (s->prop_fract == w->fract && s->prop_self == w->self
      && s->prop_child == w->child && s->print_flag == w->printed)
    return true;
  printf ("# %s: fract %g self %g child %g printed %d;"
          " want %g %g %g %d\n", s->name ? s->name : "<cycle>",
          s->prop_fract, s->prop_self, s->prop_child, s->print_flag,
          w->fract, w->self, w->child, w->printed);
  return false;
}

static bool
syms_are (const Run *run, const Want *want)
{
  bool ok = true;

  for (size_t i = 0; i < run->symtab.len; i++)
    ok &= sym_is (&run->symtab.base[i], &want[i]);
  return ok;
}

static const Arc *
arc (const Run *run, size_t from, size_t to)
{
  return run_find_arc (run, from, to);
}

static bool
arc_is (const Run *run, size_t from, size_t to, double time, double child)
{
  const Arc *a = arc (run, from, to);
  const ArcTime *t = a ? cg_arc_time (&run->cg, a) : NULL;

  if (t && t->self == time && t->children == child)
    return true;
  printf ("# arc %zu -> %zu: time %g child %g; want %g %g\n", from, to,
          t ? t->self : -1, t ? t->children : -1, time, child);
  return false;
}

/* ---- a tree with a shared callee --------------------------------------- */

/* main -> a (1 call), main -> b (3), a -> c (2), b -> c (6); self times
   main 1, a 2, b 4, c 8.  c's 8 splits 2 : 6 between a and b; main gets
   a's 2 + 2 and b's 4 + 6.  */
enum { MAIN, A, B, C };
static const char *const tree_names[] = { "main", "a", "b", "c" };
static const double tree_times[] = { 1, 2, 4, 8 };
static const Call tree_calls[] = {
  { MAIN, A, 1 }, { MAIN, B, 3 }, { A, C, 2 }, { B, C, 6 },
};

static Run *
tree (const Spec *specs, size_t nspecs)
{
  return assemble (tree_names, 4, tree_times, tree_calls, 4, specs, nspecs);
}

static void
test_tree_plain (void)
{
  Run *run = tree (NULL, 0);
  static const Want want[] = {
    { 1, 1, 14, true }, { 1, 2, 2, true }, { 1, 4, 6, true }, { 1, 8, 0, true },
  };
  const Sym *b = run->symtab.base;

  check (syms_are (run, want), "tree: self and child times");
  check (arc_is (run, MAIN, A, 2, 2) && arc_is (run, MAIN, B, 4, 6)
         && arc_is (run, A, C, 2, 0) && arc_is (run, B, C, 6, 0),
         "tree: arc times split by call counts");
  check (b[MAIN].child_time == 14 && b[A].child_time == 2
         && b[B].child_time == 6 && run->cg.print_time == 15,
         "tree: child_time and print_time");
  check (run->cg.ntime_sorted == 4 && run->cg.time_sorted[0] == &b[MAIN]
         && run->cg.time_sorted[1] == &b[B] && run->cg.time_sorted[2] == &b[C]
         && run->cg.time_sorted[3] == &b[A] && b[MAIN].index == 1
         && b[A].index == 4, "tree: sorted by total time, indices follow");
  release (run);
}

/* -E c: c's time is neither printed nor propagated.  */
static void
test_tree_E (void)
{
  static const Spec specs[] = { { "c", EXCL_TIME }, { "c", EXCL_GRAPH } };
  static const Want want[] = {
    { 1, 1, 6, true }, { 1, 2, 0, true }, { 1, 4, 0, true }, { 0, 0, 0, false },
  };
  Run *run = tree (specs, 2);

  check (syms_are (run, want), "-E c: c unprinted, its time not propagated");
  check (arc_is (run, A, C, 0, 0) && arc_is (run, B, C, 0, 0)
         && arc_is (run, MAIN, B, 4, 0) && run->cg.print_time == 7,
         "-E c: arcs to c carry nothing; print_time without c");
  release (run);
}

/* -e c: c is not printed, but its time still goes up.  */
static void
test_tree_e (void)
{
  static const Spec specs[] = { { "c", EXCL_GRAPH } };
  static const Want want[] = {
    { 1, 1, 14, true }, { 1, 2, 2, true }, { 1, 4, 6, true }, { 1, 8, 0, false },
  };
  Run *run = tree (specs, 1);

  check (syms_are (run, want), "-e c: only the print flag changes");
  release (run);
}

/* -f b: only b and what it calls are printed.  */
static void
test_tree_f (void)
{
  static const Spec specs[] = { { "b", INCL_GRAPH } };
  static const Want want[] = {
    { 1, 1, 14, false }, { 1, 2, 2, false }, { 1, 4, 6, true }, { 1, 8, 0, true },
  };
  Run *run = tree (specs, 1);

  check (syms_are (run, want), "-f b: b and its callee printed, no others");
  release (run);
}

/* -F b: only time through b counts: c's share from b (3/4), b's own.  */
static void
test_tree_F (void)
{
  static const Spec specs[] = { { "b", INCL_TIME }, { "b", INCL_GRAPH } };
  static const Want want[] = {
    { 0, 0, 0, false }, { 0, 0, 0, false }, { 1, 4, 6, true },
    { 0.75, 6, 0, true },
  };
  Run *run = tree (specs, 2);

  check (syms_are (run, want), "-F b: fractions from b only");
  check (arc_is (run, B, C, 6, 0) && arc_is (run, A, C, 0, 0)
         && arc_is (run, MAIN, B, 0, 0) && run->cg.print_time == 10,
         "-F b: arcs outside b's time carry nothing");
  release (run);
}

/* -E and -f on the same symbol: INCL_GRAPH wins over EXCL_GRAPH.  */
static void
test_tree_f_and_e (void)
{
  static const Spec specs[] = { { "c", INCL_GRAPH }, { "c", EXCL_GRAPH } };
  Run *run = tree (specs, 2);
  const Sym *b = run->symtab.base;

  check (b[C].print_flag && !b[MAIN].print_flag && !b[A].print_flag
         && !b[B].print_flag, "-f c -e c: c printed, nothing else");
  release (run);
}

/* ---- a cycle ------------------------------------------------------------ */

/* main -> x (2), x -> y (4), y -> x (3), y -> z (5), x -> x (1), and two
   calls never made (main -> z, main -> w: count 0, as -c adds them).
   Self times x 2, y 4, z 10, w 1.  The cycle (x y) is called twice from
   outside and 7 times inside; x's self call is left out of both.  */
enum { CMAIN, X, Y, Z, W };
static const char *const cyc_names[] = { "main", "x", "y", "z", "w" };
static const double cyc_times[] = { 0, 2, 4, 10, 1 };
static const Call cyc_calls[] = {
  { CMAIN, X, 2 }, { X, Y, 4 }, { Y, X, 3 }, { Y, Z, 5 }, { X, X, 1 },
  { CMAIN, Z, 0 }, { CMAIN, W, 0 },
};

static Run *
cyc (const Spec *specs, size_t nspecs)
{
  return assemble (cyc_names, 5, cyc_times, cyc_calls, 7, specs, nspecs);
}

static void
test_cycle_plain (void)
{
  Run *run = cyc (NULL, 0);
  static const Want want[] = {
    { 1, 0, 16, true }, { 1, 2, 0, true }, { 1, 4, 10, true },
    { 1, 10, 0, true }, { 1, 1, 0, true },
  };
  const Sym *b = run->symtab.base, *h;

  check (run->cg.ncycles == 1, "cycle: found");
  h = &run->cg.cycles[0];
  check (syms_are (run, want), "cycle: members' times");
  check (h->ncalls == 2 && h->self_calls == 7 && b[X].ncalls == 5
         && b[X].self_calls == 1, "cycle: calls from outside and inside; "
         "self calls apart");
  check (sym_is (h, &(Want) { 1, 6, 10, true }) && h->hist_time == 6
         && h->child_time == 10, "cycle: the header sums the members");
  check (arc_is (run, CMAIN, X, 6, 10) && arc_is (run, Y, Z, 10, 0)
         && arc_is (run, X, Y, 0, 0) && arc_is (run, CMAIN, Z, 0, 0)
         && arc_is (run, CMAIN, W, 0, 0),
         "cycle: the arc into it carries the whole cycle's time");
  /* main and the cycle tie at 16: the cycle goes first.  */
  check (run->cg.time_sorted[0] == h && run->cg.time_sorted[1] == &b[CMAIN]
         && run->cg.time_sorted[2] == &b[Y] && run->cg.time_sorted[3] == &b[Z]
         && run->cg.time_sorted[4] == &b[X] && run->cg.time_sorted[5] == &b[W]
         && h->index == 1, "cycle: at equal time the cycle sorts first");
  check (run->cg.print_time == 17, "cycle: print_time");
  release (run);
}

/* -E z: the cycle keeps only its members' own time.  */
static void
test_cycle_E_callee (void)
{
  static const Spec specs[] = { { "z", EXCL_TIME }, { "z", EXCL_GRAPH } };
  static const Want want[] = {
    { 1, 0, 6, true }, { 1, 2, 0, true }, { 1, 4, 0, true },
    { 0, 0, 0, false }, { 1, 1, 0, true },
  };
  Run *run = cyc (specs, 2);

  check (syms_are (run, want), "-E z below a cycle");
  check (sym_is (&run->cg.cycles[0], &(Want) { 1, 6, 0, true }),
         "-E z: the cycle header");
  release (run);
}

/* -E y, a member: y's time leaves the cycle's; z, called only by y, gets
   a fraction of 0 from it and so becomes a root of its own (fract 1).  */
static void
test_cycle_E_member (void)
{
  static const Spec specs[] = { { "y", EXCL_TIME }, { "y", EXCL_GRAPH } };
  static const Want want[] = {
    { 1, 0, 2, true }, { 1, 2, 0, true }, { 0, 0, 0, false },
    { 1, 10, 0, true }, { 1, 1, 0, true },
  };
  Run *run = cyc (specs, 2);

  check (syms_are (run, want), "-E y inside a cycle");
  check (sym_is (&run->cg.cycles[0], &(Want) { 1, 2, 0, true })
         && run->cg.cycles[0].hist_time == 2,
         "-E y: the header counts x's time only");
  check (arc_is (run, Y, Z, 0, 0) && arc_is (run, CMAIN, X, 2, 0)
         && run->cg.print_time == 13, "-E y: arcs and print_time");
  release (run);
}

/* -F x: the fraction of a cycle member comes from outside the cycle, so
   naming one member takes the whole cycle's time.  */
static void
test_cycle_F_member (void)
{
  static const Spec specs[] = { { "x", INCL_TIME }, { "x", INCL_GRAPH } };
  static const Want want[] = {
    { 0, 0, 0, false }, { 1, 2, 0, true }, { 0, 0, 0, false },
    { 0, 0, 0, false }, { 0, 0, 0, false },
  };
  Run *run = cyc (specs, 2);

  check (syms_are (run, want), "-F x inside a cycle: only x's own time");
  release (run);
}

/* cg_tally_batch must do what cg_tally does on each record in turn: the
   same arcs, created in the same order, with the same counts; records
   outside every symbol and calls that land inside a function count as
   cg_tally counts them; batches of every size, across hash growth, big
   ones looked up on another thread while the one before is counted.  */
static void
test_tally_batch (void)
{
  enum { N = 300, RECORDS = 60000 };
  Run *one = run_new (N, NULL), *batched = run_new (N, NULL);
  static ArcRecord recs[RECORDS];
  Rng rng;
  bool same = true;

  rng_seed (&rng, unit_seed ());
  setenv ("GPROF_THREADS", "2", 1);
  for (size_t i = 0; i < N; i++)
    if (i % 7 == 3)
      one->symtab.base[i].is_func = batched->symtab.base[i].is_func = false;
  for (size_t i = 0; i < RECORDS; i++)
    {
      /* A few hot pairs, many cold ones, some addresses outside.  */
      size_t span = rng_below (&rng, 4) == 0 ? 8 : N + 20;

      recs[i].from_pc = sym_addr (0) - 0x40 + rng_below (&rng, span * 0x10);
      recs[i].self_pc = sym_addr (0) - 0x40 + rng_below (&rng, span * 0x10);
      recs[i].count = rng_below (&rng, 1000);
    }
  for (size_t i = 0; i < RECORDS; i++)
    cg_tally (one, recs[i].from_pc, recs[i].self_pc, recs[i].count);
  for (size_t i = 0; i < RECORDS;)
    {
      size_t n = 1 + rng_below (&rng, rng_below (&rng, 2) ? 100 : ARC_BATCH);

      if (n > RECORDS - i)
        n = RECORDS - i;
      memcpy (cg_tally_buffer (&batched->cg), recs + i, n * sizeof *recs);
      cg_tally_batch (batched, n);
      i += n;
    }
  same = one->cg.narcs == batched->cg.narcs;
  for (size_t k = 0; same && k < one->cg.narcs; k++)
    {
      const Arc *x = &one->cg.arcs[k], *y = &batched->cg.arcs[k];

      same = x->parent - one->symtab.base == y->parent - batched->symtab.base
             && x->child - one->symtab.base == y->child - batched->symtab.base
             && x->count == y->count;
    }
  for (size_t i = 0; same && i < N; i++)
    same = one->symtab.base[i].ncalls == batched->symtab.base[i].ncalls;
  check (same && one->cg.narcs > 1000,
         "batched arc records give cg_tally's arcs (%zu), in its order",
         one->cg.narcs);
  run_free (one);
  run_free (batched);
}

/* The call graph's order as GNU's sort gives it: one merge sort of all
   the symbols and cycle headers with its comparison, written here from
   the spec (most total first; at equal totals cycles, unnamed symbols,
   names without a leading underscore, more calls, then by name).  */
static int
cmp_gnu_total (const void *a, const void *b, void *ctx)
{
  const Sym *l = a, *r = b;
  double diff = (l->prop_self + l->prop_child) - (r->prop_self + r->prop_child);

  (void) ctx;
  if (diff < 0.0)
    return 1;
  if (diff > 0.0)
    return -1;
  if (!l->name && l->cyc_num)
    return -1;
  if (!r->name && r->cyc_num)
    return 1;
  if (!l->name)
    return -1;
  if (!r->name)
    return 1;
  if (l->name[0] != '_' && r->name[0] == '_')
    return -1;
  if (l->name[0] == '_' && r->name[0] != '_')
    return 1;
  if (l->ncalls != r->ncalls)
    return l->ncalls > r->ncalls ? -1 : 1;
  return strcmp (l->name, r->name);
}

/* Many symbols without time that share names (as -l's lines share
   their function's), equal names at different addresses, some with a
   leading underscore, calls, a few cycles and negative times (a damaged
   rate): cg_assemble's order must be that of the single merge sort.  */
static void
test_time_order (uint64_t seed, bool with_nan, bool names_differ)
{
  enum { N = 3000, NAMES = 40 };
  static const char *const stems[] = { "alpha", "_beta", "gamma", "__delta",
                                       "eps", "zeta_long_name_common_prefix_a",
                                       "zeta_long_name_common_prefix_b" };
  char *pool[NAMES];
  const char **saved = malloc (N * sizeof *saved);
  Run *run = run_new (N, NULL);
  Sym *b = run->symtab.base, **expect;
  size_t nexpect;
  Rng rng;
  bool same = true;

  rng_seed (&rng, seed);
  for (size_t k = 0; k < NAMES; k++)
    {
      /* Every stem several times: equal strings, distinct copies.  */
      pool[k] = malloc (64);
      snprintf (pool[k], 64, "%s%zu", stems[k % 7], (k / 7) % 3);
    }
  for (size_t i = 0, k = 0; i < N; i++)
    {
      saved[i] = b[i].name;
      /* Neighbours mostly differ in name as functions do, or mostly
         share one as lines do.  */
      if (names_differ || rng_below (&rng, 8) == 0)
        k = rng_below (&rng, NAMES);
      b[i].name = pool[k];
      switch (rng_below (&rng, 10))
        {
        case 0:
          b[i].hist_time = (double) (1 + rng_below (&rng, 16)) / 8;
          break;
        case 1:
          b[i].hist_time = rng_below (&rng, 4) == 0 ? -0.5 : 0.25;
          break;
        case 2:
          b[i].hist_time = -0.0;
          break;
        default:
          b[i].hist_time = 0.0;
          break;
        }
      b[i].ncalls = rng_below (&rng, 3) == 0 ? rng_below (&rng, 5) : 0;
    }
  if (with_nan)
    b[rng_below (&rng, N)].hist_time = 0.0 / 0.0;
  for (int c = 0; c < 5; c++)
    {
      size_t x = rng_below (&rng, N), y = rng_below (&rng, N);

      if (x != y)
        {
          run_arc (run, x, y, 1 + rng_below (&rng, 3));
          run_arc (run, y, x, 1 + rng_below (&rng, 3));
        }
    }
  sym_ids_build (&run->ids, &run->opt, &run->symtab, &run->files,
                 run_text_last (run), 0);
  cg_assemble (run);
  cg_propagate (run);
  cg_order (run);

  nexpect = N + (size_t) run->cg.ncycles;
  expect = malloc (nexpect * sizeof *expect);
  for (size_t i = 0; i < N; i++)
    expect[i] = &b[i];
  for (int c = 0; c < run->cg.ncycles; c++)
    expect[N + (size_t) c] = &run->cg.cycles[c];
  msort_ptrs ((void **) expect, nexpect, cmp_gnu_total, NULL);
  same = run->cg.ntime_sorted == nexpect;
  for (size_t i = 0; same && i < nexpect; i++)
    same = run->cg.time_sorted[i] == expect[i]
           && expect[i]->index == (int) (i + 1);
  check (same, "time order of %d symbols and %d cycles, seed %llu%s%s", N,
         run->cg.ncycles, (unsigned long long) seed,
         with_nan ? ", one NaN time" : "",
         names_differ ? ", names mostly differ" : "");
  for (size_t i = 0; i < N; i++)
    b[i].name = saved[i];
  for (size_t k = 0; k < NAMES; k++)
    free (pool[k]);
  free (expect);
  free (saved);
  sym_ids_free (&run->ids);
  run_free (run);
}

int
main (void)
{
  test_tree_plain ();
  test_tree_E ();
  test_tree_e ();
  test_tree_f ();
  test_tree_F ();
  test_tree_f_and_e ();
  test_cycle_plain ();
  test_cycle_E_callee ();
  test_cycle_E_member ();
  test_cycle_F_member ();
  test_tally_batch ();
  for (uint64_t k = 0; k < 4; k++)
    {
      test_time_order (unit_seed () + k, false, false);
      test_time_order (unit_seed () + k, false, true);
    }
  test_time_order (unit_seed (), true, false);
  test_time_order (unit_seed (), true, true);
  return check_done ();
}
