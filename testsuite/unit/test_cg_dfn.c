/* test_cg_dfn.c - topological numbering and cycles (cg_dfn.c, and the
   cycle numbering of cg_arcs.c) against a plain recursive version of GNU
   gprof's algorithm written here from the spec (§6.3, §6.4), on many
   random graphs; then graphs too deep for recursion.  */

#include "config.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "gprof.h"
#include "unit.h"

/* A call graph as a list of distinct arcs in creation order.  */
typedef struct Graph
{
  size_t n;
  size_t narcs, cap;
  size_t (*arc)[2];       /* parent, child */
} Graph;

static void
graph_add (Graph *g, size_t parent, size_t child)
{
  for (size_t a = 0; a < g->narcs; a++)
    if (g->arc[a][0] == parent && g->arc[a][1] == child)
      return;
  if (g->narcs == g->cap)
    {
      g->cap = g->cap ? 2 * g->cap : 64;
      g->arc = realloc (g->arc, g->cap * sizeof *g->arc);
    }
  g->arc[g->narcs][0] = parent;
  g->arc[g->narcs][1] = child;
  g->narcs++;
}

/* ---- the reference: GNU's cg_dfn, recursive, on plain arrays ----------- */

typedef struct Ref
{
  size_t n;
  long *child_first;      /* children of p: child_list[child_first[p] ...] */
  long *child_list;       /* most recently created first */
  long *top, *head, *next;
  long *stack, depth, counter;
  bool failed;
  /* After numbering: cycles in address order of their heads.  */
  long *cyc_num;
  long ncycles;
} Ref;

static void
ref_find_cycle (Ref *r, long c)
{
  long i, h, tail;

  for (i = r->depth; i >= 1; i--)
    {
      h = r->stack[i];
      if (c == h || (r->head[c] != c && r->head[c] == h))
        break;
    }
  if (i < 1)
    {
      r->failed = true;
      return;
    }
  if (i == r->depth)
    return;
  h = r->stack[i];
  for (tail = h; r->next[tail] >= 0; tail = r->next[tail])
    continue;
  if (r->head[h] != h)
    h = r->head[h];
  for (long k = i + 1; k <= r->depth; k++)
    {
      long s = r->stack[k];

      if (r->head[s] == s)
        {
          r->next[tail] = s;
          r->head[s] = h;
          for (tail = s; r->next[tail] >= 0; tail = r->next[tail])
            r->head[r->next[tail]] = h;
        }
      else if (r->head[s] != h)
        r->failed = true;
    }
}

static void
ref_dfn (Ref *r, long p)
{
  if (r->top[p] > 0)
    return;
  if (r->top[p] == -1)
    {
      ref_find_cycle (r, p);
      return;
    }
  r->stack[++r->depth] = p;
  r->top[p] = -1;
  for (long k = r->child_first[p]; k < r->child_first[p + 1]; k++)
    ref_dfn (r, r->child_list[k]);
  if (r->head[p] == p)
    {
      r->counter++;
      for (long m = p; m >= 0; m = r->next[m])
        r->top[m] = r->counter;
    }
  r->depth--;
}

static long *
ref_array (size_t n, long init)
{
  long *a = malloc ((n + 1) * sizeof *a);

  for (size_t i = 0; i <= n; i++)
    a[i] = init;
  return a;
}

static void
ref_number (Ref *r, const Graph *g)
{
  size_t n = g->n;
  long *fill;

  memset (r, 0, sizeof *r);
  r->n = n;
  r->child_first = ref_array (n, 0);
  r->child_list = ref_array (g->narcs, 0);
  for (size_t a = 0; a < g->narcs; a++)
    r->child_first[g->arc[a][0] + 1]++;
  for (size_t i = 0; i < n; i++)
    r->child_first[i + 1] += r->child_first[i];
  fill = ref_array (n, 0);
  for (size_t a = g->narcs; a-- > 0;)
    {
      size_t p = g->arc[a][0];

      r->child_list[r->child_first[p] + fill[p]++] = (long) g->arc[a][1];
    }
  free (fill);
  r->top = ref_array (n, 0);
  r->head = ref_array (n, 0);
  r->next = ref_array (n, -1);
  r->stack = ref_array (n + 1, 0);
  for (size_t i = 0; i < n; i++)
    r->head[i] = (long) i;
  for (size_t i = 0; i < n; i++)
    if (r->top[i] == 0)
      ref_dfn (r, (long) i);

  /* cycle_link: heads of chains, numbered in address order.  */
  r->cyc_num = ref_array (n, 0);
  for (size_t i = 0; i < n; i++)
    if (r->head[i] == (long) i && r->next[i] >= 0)
      {
        r->ncycles++;
        for (long m = (long) i; m >= 0; m = r->next[m])
          r->cyc_num[m] = r->ncycles;
      }
}

static void
ref_free (Ref *r)
{
  free (r->child_first);
  free (r->child_list);
  free (r->top);
  free (r->head);
  free (r->next);
  free (r->stack);
  free (r->cyc_num);
}

/* Deep graphs need a deep stack for the recursive reference.  */
typedef struct RefJob
{
  Ref *r;
  const Graph *g;
} RefJob;

static void *
ref_job (void *arg)
{
  RefJob *j = arg;

  ref_number (j->r, j->g);
  return NULL;
}

static void
ref_number_deep (Ref *r, const Graph *g)
{
  pthread_attr_t attr;
  pthread_t t;
  RefJob j = { r, g };

  pthread_attr_init (&attr);
  pthread_attr_setstacksize (&attr, (size_t) 1 << 30);
  if (pthread_create (&t, &attr, ref_job, &j) != 0)
    {
      perror ("pthread_create");
      exit (99);
    }
  pthread_join (t, NULL);
  pthread_attr_destroy (&attr);
}

/* ---- ours ------------------------------------------------------------- */

static int order_bad;    /* runs whose propagation order was wrong */

/* Whether the propagation's order holds every symbol once, by
   top_order and, within a number (a cycle), by address.  */
static bool
in_topological_order (const Run *run)
{
  Sym *const *v = run->cg.top_sorted;
  size_t n = run->symtab.len;

  for (size_t i = 0; i < n; i++)
    if (v[i] < run->symtab.base || v[i] >= run->symtab.base + n
        || (i > 0 && (v[i - 1]->top_order > v[i]->top_order
                      || (v[i - 1]->top_order == v[i]->top_order
                          && v[i - 1] >= v[i]))))
      return false;
  return true;
}

static Run *
ours (const Graph *g)
{
  Run *run = run_new (g->n, NULL);

  for (size_t a = 0; a < g->narcs; a++)
    run_arc (run, g->arc[a][0], g->arc[a][1], 1 + a % 3);
  cg_take_self_calls (run);
  cg_assemble (run);
  if (!in_topological_order (run))
    {
      printf ("# the symbols are not in topological order\n");
      order_bad++;
    }
  cg_propagate (run);
  cg_order (run);
  return run;
}

/* Everything the reference knows must agree: each symbol's number and
   cycle, each cycle's member chain (in order), and the cycle headers'
   call counts from outside and from inside.  Prints the first mismatch.  */
static bool
same_as_reference (Run *run, const Ref *r, const Graph *g)
{
  const Sym *base = run->symtab.base;
  const CallGraph *cg = &run->cg;

  if (r->failed)
    {
      printf ("# the reference failed to find a cycle head\n");
      return false;
    }
  if (cg->ncycles != r->ncycles)
    {
      printf ("# %d cycles, want %ld\n", cg->ncycles, r->ncycles);
      return false;
    }
  for (size_t i = 0; i < g->n; i++)
    {
      const Sym *s = &base[i];
      const Sym *want_head = r->cyc_num[i] ? &cg->cycles[r->cyc_num[i] - 1] : s;

      if (s->top_order != r->top[i] || s->cyc_num != r->cyc_num[i]
          || s->cyc_head != want_head)
        {
          printf ("# symbol %zu: top_order %d cycle %d, want %ld and %ld\n",
                  i, s->top_order, s->cyc_num, r->top[i], r->cyc_num[i]);
          return false;
        }
    }
  for (long c = 1; c <= r->ncycles; c++)
    {
      const Sym *hdr = &cg->cycles[c - 1], *m;
      unsigned long in = 0, within = 0;
      long h = 0;

      while (r->cyc_num[h] != c || r->head[h] != h)
        h++;
      m = hdr->cyc_next;
      for (long x = h; x >= 0; x = r->next[x], m = m->cyc_next)
        if (m != &base[x])
          {
            printf ("# cycle %ld: member chain differs at symbol %ld\n", c, x);
            return false;
          }
      if (m != NULL || hdr->cyc_num != c || hdr->name != NULL)
        {
          printf ("# cycle %ld: chain too long or bad header\n", c);
          return false;
        }
      for (size_t a = 0; a < g->narcs; a++)
        {
          size_t p = g->arc[a][0], ch = g->arc[a][1];

          if (r->cyc_num[ch] != c || p == ch)
            continue;
          if (r->cyc_num[p] == c)
            within += 1 + a % 3;
          else
            in += 1 + a % 3;
        }
      if (hdr->ncalls != in || hdr->self_calls != within)
        {
          printf ("# cycle %ld: calls %lu+%lu, want %lu+%lu\n", c,
                  hdr->ncalls, hdr->self_calls, in, within);
          return false;
        }
    }
  return true;
}

static bool
compare (const Graph *g, bool deep)
{
  Ref r;
  Run *run = ours (g);
  bool ok;

  if (deep)
    ref_number_deep (&r, g);
  else
    ref_number (&r, g);
  ok = same_as_reference (run, &r, g);
  ref_free (&r);
  run_free (run);
  return ok;
}

/* ---- random graphs ------------------------------------------------------ */

/* N nodes, about ARCS_PER_NODE * N arcs; a share BACK_PCT of them go
   backwards (toward lower addresses, the usual way recursion closes),
   the rest anywhere; some are self arcs.  */
static Graph
random_graph (Rng *rng, size_t n, double arcs_per_node, int back_pct)
{
  Graph g = { n, 0, 0, NULL };
  size_t m = (size_t) (arcs_per_node * n);

  for (size_t k = 0; k < m; k++)
    {
      size_t p = rng_below (rng, n), c;
      size_t roll = rng_below (rng, 100);

      if (roll < 5)
        c = p;
      else if (roll < 5 + (size_t) back_pct && p > 0)
        c = rng_below (rng, p);
      else
        c = rng_below (rng, n);
      graph_add (&g, p, c);
    }
  return g;
}

static void
test_random (Rng *rng, const char *what, int count, size_t min_n,
             size_t max_n, double arcs_per_node, int back_pct)
{
  int bad = 0, cyclic = 0;

  for (int i = 0; i < count; i++)
    {
      size_t n = min_n + rng_below (rng, max_n - min_n + 1);
      Graph g = random_graph (rng, n, arcs_per_node, back_pct);
      Ref r;

      ref_number (&r, &g);
      cyclic += r.ncycles > 0;
      ref_free (&r);
      if (!compare (&g, false) && bad++ < 3)
        printf ("# %s: graph %d (n=%zu, %zu arcs) differs\n", what, i, n,
                g.narcs);
      free (g.arc);
    }
  check (bad == 0, "%s: %d graphs (%d with cycles) as the reference",
         what, count, cyclic);
}

/* ---- hand-made graphs --------------------------------------------------- */

static Graph
graph_of (size_t n, const size_t (*arcs)[2], size_t narcs)
{
  Graph g = { n, 0, 0, NULL };

  for (size_t a = 0; a < narcs; a++)
    graph_add (&g, arcs[a][0], arcs[a][1]);
  return g;
}

/* Two cycles that a later arc merges into one, and one reached from two
   callers; the expected numbers come from working the spec's algorithm
   by hand, so they also check the reference.  */
static void
test_hand_made (void)
{
  /* 0 main calls 1 and 4; 1 <-> 2 (cycle), 2 -> 3, 3 -> 1 (merges 3);
     4 -> 5 -> 4 (second cycle); 4 -> 3 (calls into the first one).  */
  static const size_t arcs[][2] = {
    { 0, 1 }, { 0, 4 }, { 1, 2 }, { 2, 1 }, { 2, 3 }, { 3, 1 },
    { 4, 5 }, { 5, 4 }, { 4, 3 }, { 3, 3 },
  };
  Graph g = graph_of (6, arcs, sizeof arcs / sizeof arcs[0]);
  Run *run = ours (&g);
  const Sym *b = run->symtab.base;
  const CallGraph *cg = &run->cg;

  /* Children are visited newest arc first: 0 visits 4 first; 4 visits
     3, then 5.  3 -> 3 is a self call; 3 -> 1 -> 2 -> 3 gloms 1 and 2
     onto 3, which stays the head; 2 -> 1 is then inside.  (3 1 2) gets
     number 1, 5 -> 4 makes (4 5), number 2; main 3.  Cycles are numbered
     by their heads' addresses: 3's is cycle 1, 4's cycle 2.  Arc k has
     count 1 + k % 3.  */
  check (cg->ncycles == 2, "hand-made: two cycles");
  check (b[3].top_order == 1 && b[1].top_order == 1 && b[2].top_order == 1
         && b[4].top_order == 2 && b[5].top_order == 2
         && b[0].top_order == 3, "hand-made: numbers 1 (1 2 3), 2 (4 5), 3");
  check (b[3].cyc_num == 1 && b[4].cyc_num == 2
         && cg->cycles[0].cyc_next == &b[3] && b[3].cyc_next == &b[1]
         && b[1].cyc_next == &b[2] && b[2].cyc_next == NULL
         && cg->cycles[1].cyc_next == &b[4] && b[4].cyc_next == &b[5]
         && b[5].cyc_next == NULL,
         "hand-made: cycle numbers by head address, chains in stack order");
  check (cg->cycles[0].ncalls == 1 + 3 && cg->cycles[0].self_calls == 3 + 1 + 2 + 3
         && cg->cycles[1].ncalls == 2 && cg->cycles[1].self_calls == 1 + 2,
         "hand-made: calls into a cycle from outside and inside");
  check (compare (&g, false), "hand-made: the reference agrees");
  run_free (run);
  free (g.arc);
}

/* ---- deep graphs -------------------------------------------------------- */

static double
seconds_since (const struct timespec *t0)
{
  struct timespec t1;

  clock_gettime (CLOCK_MONOTONIC, &t1);
  return (double) (t1.tv_sec - t0->tv_sec)
         + (double) (t1.tv_nsec - t0->tv_nsec) / 1e9;
}

/* A million functions calling each other in a chain, the last calling
   the first: GNU's recursion would need a million frames.  A quadratic
   algorithm would take hours, hence the generous time limit.  */
static void
test_deep_chain (bool back_edge)
{
  enum { N = 1000000 };
  Run *run = run_new (N, NULL);
  struct timespec t0;
  double secs;
  bool ok = true;
  const Sym *b = run->symtab.base, *m;
  size_t i;

  for (i = 0; i + 1 < N; i++)
    run_arc (run, i, i + 1, 1);
  if (back_edge)
    run_arc (run, N - 1, 0, 1);
  clock_gettime (CLOCK_MONOTONIC, &t0);
  cg_take_self_calls (run);
  cg_assemble (run);
  order_bad += !in_topological_order (run);
  cg_propagate (run);
  cg_order (run);
  secs = seconds_since (&t0);

  if (back_edge)
    {
      ok = run->cg.ncycles == 1 && run->cg.cycles[0].cyc_next == &b[0];
      for (i = 0, m = &b[0]; ok && i < N; i++, m = m->cyc_next)
        ok = m == &b[i] && m->top_order == 1 && m->cyc_num == 1;
      ok = ok && m == NULL;
    }
  else
    for (i = 0; ok && i < N; i++)
      ok = b[i].top_order == (int) (N - i) && b[i].cyc_num == 0;
  check (ok && secs < 30.0, "%d-deep chain%s: %s in %.2f s", N,
         back_edge ? " closed by a back edge" : "",
         back_edge ? "one cycle, in call order" : "numbered callee first",
         secs);
  run_free (run);
}

/* A random permutation made into one big cycle, plus chords; compared
   with the reference run on a thread with a big stack.  */
static void
test_giant_cycle (Rng *rng)
{
  enum { N = 100000, CHORDS = 500 };
  Graph g = { N, 0, 0, NULL };
  size_t *perm = malloc (N * sizeof *perm);

  for (size_t i = 0; i < N; i++)
    perm[i] = i;
  for (size_t i = N - 1; i > 0; i--)
    {
      size_t j = rng_below (rng, i + 1), t = perm[i];

      perm[i] = perm[j];
      perm[j] = t;
    }
  /* graph_add's duplicate check is linear; the permutation has none.  */
  g.cap = N + CHORDS;
  g.arc = malloc (g.cap * sizeof *g.arc);
  for (size_t i = 0; i < N; i++)
    {
      g.arc[g.narcs][0] = perm[i];
      g.arc[g.narcs][1] = perm[(i + 1) % N];
      g.narcs++;
    }
  for (int c = 0; c < CHORDS; c++)
    {
      g.arc[g.narcs][0] = rng_below (rng, N);
      g.arc[g.narcs][1] = rng_below (rng, N);
      g.narcs++;
    }
  check (compare (&g, true), "giant random cycle of %d functions with %d "
         "chords as the reference", N, CHORDS);
  free (perm);
  free (g.arc);
}

int
main (void)
{
  Rng rng;

  rng_seed (&rng, unit_seed ());
  printf ("# seed %llu\n", (unsigned long long) unit_seed ());
  test_hand_made ();
  test_random (&rng, "tiny graphs", 3000, 1, 6, 1.5, 30);
  test_random (&rng, "small graphs", 2000, 5, 20, 1.5, 30);
  test_random (&rng, "sparse medium graphs", 300, 50, 400, 1.2, 20);
  test_random (&rng, "dense medium graphs", 100, 50, 300, 4.0, 40);
  test_random (&rng, "forward-heavy graphs", 200, 20, 200, 2.0, 3);
  test_deep_chain (false);
  test_deep_chain (true);
  test_giant_cycle (&rng);
  check (order_bad == 0, "every run's symbols in topological order, a "
         "cycle's by address, for the propagation");
  return check_done ();
}
