/* test_msort.c - msort_ptrs against an independent top-down merge sort
   (spec Appendix A: split at n/2, merge taking from the left run while
   cmp (left, right) <= 0).  Consistent comparators only show stability;
   the inconsistent ones, like several of GNU gprof's, show that the
   exact algorithm is the one implemented.  */

#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "support/msort.h"
#include "unit.h"

typedef struct Elem
{
  int key;
  int seq;                /* position before sorting */
  bool special;
} Elem;

/* The comparisons a sort makes, in order, folded into a hash: two runs
   of the same algorithm make the same sequence.  */
typedef struct Trace
{
  msort_cmp cmp;
  uint64_t hash;
  unsigned long calls;
} Trace;

static int
traced (const void *a, const void *b, void *ctx)
{
  Trace *t = ctx;
  const Elem *l = a, *r = b;

  t->calls++;
  t->hash = (t->hash ^ (uint64_t) (l->seq * 7919 + r->seq)) * 0x100000001b3ULL;
  return t->cmp (a, b, NULL);
}

/* ---- the reference ------------------------------------------------------ */

static void
ref_sort_rec (void **v, size_t n, void **scratch, msort_cmp cmp, void *ctx)
{
  size_t half = n / 2, i = 0, j = half, k = 0;

  if (n <= 1)
    return;
  ref_sort_rec (v, half, scratch, cmp, ctx);
  ref_sort_rec (v + half, n - half, scratch, cmp, ctx);
  while (i < half && j < n)
    scratch[k++] = cmp (v[i], v[j], ctx) <= 0 ? v[i++] : v[j++];
  while (i < half)
    scratch[k++] = v[i++];
  while (j < n)
    scratch[k++] = v[j++];
  memcpy (v, scratch, n * sizeof *v);
}

static void
ref_sort (void **v, size_t n, msort_cmp cmp, void *ctx)
{
  void **scratch = malloc ((n ? n : 1) * sizeof *scratch);

  ref_sort_rec (v, n, scratch, cmp, ctx);
  free (scratch);
}

/* A bottom-up merge sort: stable too, but it splits differently.  Only
   used to show that the inconsistent comparators tell the two apart.  */
static void
bottom_up_sort (void **v, size_t n, msort_cmp cmp)
{
  void **scratch = malloc ((n ? n : 1) * sizeof *scratch);

  for (size_t width = 1; width < n; width *= 2)
    for (size_t lo = 0; lo + width < n; lo += 2 * width)
      {
        size_t mid = lo + width, hi = lo + 2 * width < n ? lo + 2 * width : n;
        size_t i = lo, j = mid, k = 0;

        while (i < mid && j < hi)
          scratch[k++] = cmp (v[i], v[j], NULL) <= 0 ? v[i++] : v[j++];
        while (i < mid)
          scratch[k++] = v[i++];
        while (j < hi)
          scratch[k++] = v[j++];
        memcpy (v + lo, scratch, k * sizeof *v);
      }
  free (scratch);
}

/* ---- comparators -------------------------------------------------------- */

static int
cmp_key (const void *a, const void *b, void *ctx)
{
  const Elem *l = a, *r = b;

  return (l->key > r->key) - (l->key < r->key);
}

/* Two special elements each claim to come first, whichever is asked.  */
static int
cmp_special (const void *a, const void *b, void *ctx)
{
  const Elem *l = a, *r = b;

  if (l->special && r->special)
    return -1;
  return cmp_key (a, b, ctx);
}

/* Like GNU's cmp_bb: keys count only when both elements have one (here:
   are special), else the original position decides.  Not transitive.  */
static int
cmp_partial (const void *a, const void *b, void *ctx)
{
  const Elem *l = a, *r = b;

  if (l->special && r->special && l->key != r->key)
    return l->key < r->key ? -1 : 1;
  return (l->seq > r->seq) - (l->seq < r->seq);
}

/* Rock-paper-scissors on key mod 3: a cycle, no order at all.  */
static int
cmp_cyclic (const void *a, const void *b, void *ctx)
{
  const Elem *l = a, *r = b;
  int d = ((r->key - l->key) % 3 + 3) % 3;

  return d == 0 ? 0 : d == 1 ? -1 : 1;
}

/* ---- cases -------------------------------------------------------------- */

static Elem *
random_elems (Rng *rng, size_t n, int nkeys, int special_per_mille)
{
  Elem *e = calloc (n ? n : 1, sizeof *e);

  for (size_t i = 0; i < n; i++)
    {
      e[i].key = (int) rng_below (rng, (size_t) nkeys);
      e[i].seq = (int) i;
      e[i].special = (int) rng_below (rng, 1000) < special_per_mille;
    }
  return e;
}

static void **
pointers (Elem *e, size_t n)
{
  void **v = malloc ((n ? n : 1) * sizeof *v);

  for (size_t i = 0; i < n; i++)
    v[i] = &e[i];
  return v;
}

/* Sort the same array with msort_ptrs and the reference; the results
   and the sequences of comparisons must be identical.  */
static bool
same_as_reference (Elem *e, size_t n, msort_cmp cmp)
{
  void **got = pointers (e, n), **want = pointers (e, n);
  Trace tg = { cmp, 14695981039346656037ULL, 0 };
  Trace tw = tg;
  bool same;

  msort_ptrs (got, n, traced, &tg);
  ref_sort (want, n, traced, &tw);
  same = memcmp (got, want, n * sizeof *got) == 0 && tg.hash == tw.hash
         && tg.calls == tw.calls;
  free (got);
  free (want);
  return same;
}

static bool
is_stable_by_key (Elem *e, size_t n)
{
  void **v = pointers (e, n);
  bool ok = true;

  msort_ptrs (v, n, cmp_key, NULL);
  for (size_t i = 1; i < n; i++)
    {
      const Elem *a = v[i - 1], *b = v[i];

      if (a->key > b->key || (a->key == b->key && a->seq > b->seq))
        ok = false;
    }
  free (v);
  return ok;
}

static const size_t sizes[] = { 0, 1, 2, 3, 4, 5, 7, 8, 9, 16, 31, 33, 100,
                                127, 128, 129, 1000, 4097 };
enum { NSIZES = sizeof sizes / sizeof sizes[0] };

static void
test_against_reference (Rng *rng, const char *what, msort_cmp cmp,
                        int nkeys, int special_per_mille)
{
  int bad = 0, cases = 0;

  for (int rep = 0; rep < 20; rep++)
    for (size_t s = 0; s < NSIZES; s++)
      {
        Elem *e = random_elems (rng, sizes[s], nkeys, special_per_mille);

        cases++;
        if (!same_as_reference (e, sizes[s], cmp))
          {
            if (bad++ < 3)
              printf ("# %s: differs at n=%zu (repetition %d)\n", what,
                      sizes[s], rep);
          }
        free (e);
      }
  check (bad == 0, "%s: same order and comparisons as the reference in %d "
         "random arrays", what, cases);
}

static void
test_stability (Rng *rng)
{
  int bad = 0;

  for (size_t s = 0; s < NSIZES; s++)
    {
      Elem *e = random_elems (rng, sizes[s], 5, 0);

      bad += !is_stable_by_key (e, sizes[s]);
      free (e);
    }
  check (bad == 0, "stable: equal keys keep their order");
}

static void
test_small_cases_without_compare (void)
{
  Elem e[1] = { { 1, 0, false } };
  void *v[1] = { &e[0] };
  Trace t = { cmp_key, 0, 0 };

  msort_ptrs (v, 0, traced, &t);
  msort_ptrs (v, 1, traced, &t);
  check (t.calls == 0 && v[0] == &e[0], "no comparison for 0 or 1 elements");
}

/* The exact split matters: two special elements that each claim to come
   first keep the order of the runs they are in when they meet.  */
static void
test_two_specials_known (void)
{
  /* Keys 9 2* 1* 0: [9 2*] -> [2* 9] and [1* 0] -> [0 1*]; the merge
     takes 0, then 2* (before 1*, which it claims to precede), 1*, 9.  */
  Elem e[4] = { { 9, 0, false }, { 2, 1, true }, { 1, 2, true },
                { 0, 3, false } };
  static const int want[4] = { 0, 2, 1, 9 };
  void **v = pointers (e, 4);
  bool ok = true;

  msort_ptrs (v, 4, cmp_special, NULL);
  for (int i = 0; i < 4; i++)
    ok &= ((Elem *) v[i])->key == want[i];
  check (ok, "hand-computed order with two 'first' elements");
  free (v);
}

/* Guard against a vacuous test: on inconsistent comparators another
   stable merge sort must give a different order somewhere.  */
static void
test_inconsistent_is_discriminating (Rng *rng)
{
  int differ = 0;

  for (int rep = 0; rep < 50 && !differ; rep++)
    {
      Elem *e = random_elems (rng, 100, 10, 300);
      void **a = pointers (e, 100), **b = pointers (e, 100);

      ref_sort (a, 100, cmp_partial, NULL);
      bottom_up_sort (b, 100, cmp_partial);
      differ = memcmp (a, b, 100 * sizeof *a) != 0;
      free (a);
      free (b);
      free (e);
    }
  check (differ, "inconsistent comparators tell merge sorts apart");
}

/* A key and its first position, ordered by both: the reference for
   radix_sort_u64.  */
typedef struct Keyed
{
  uint64_t key;
  size_t at;
} Keyed;

static int
cmp_keyed (const void *a, const void *b)
{
  const Keyed *l = a, *r = b;

  if (l->key != r->key)
    return l->key < r->key ? -1 : 1;
  return l->at < r->at ? -1 : l->at > r->at;
}

/* radix_sort_u64 against qsort by key and then position: keys that
   differ only in high digits, in low ones, all equal, and random; with
   and without a payload; counts on both sides of the digit width's
   change at 65536 keys.  */
static void
test_radix (Rng *rng)
{
  static const uint64_t masks[] = { 0xffffffffffffffffu, 0xffff000000000000u,
                                    0x00000000000000ffu, 0x0000ffff00000000u,
                                    0 };
  static const size_t counts[] = { 0, 1, 2, 3, 4, 1000, 3000, 65535, 65536,
                                   70001 };
  enum { N = 70001 };
  uint64_t *key = malloc (N * sizeof *key);
  size_t *at = malloc (N * sizeof *at);
  Keyed *want = malloc (N * sizeof *want);

  for (size_t m = 0; m < sizeof masks / sizeof masks[0]; m++)
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++)
      {
        size_t n = counts[c];
        bool ok = true;

        for (size_t i = 0; i < n; i++)
          {
            /* A quarter zeros, so that there are ties under every mask.  */
            key[i] = rng_below (rng, 4) ? rng_next (rng) & masks[m] : 0;
            at[i] = i;
            want[i] = (Keyed) { key[i], i };
          }
        qsort (want, n, sizeof *want, cmp_keyed);
        radix_sort_u64 (key, m % 2 ? at : NULL, n);
        for (size_t i = 0; i < n && ok; i++)
          ok = key[i] == want[i].key && (m % 2 == 0 || at[i] == want[i].at);
        check (ok, "radix_sort_u64: mask %zu, %zu keys%s", m, n,
               m % 2 ? ", positions stable" : "");
      }
  free (key);
  free (at);
  free (want);
}

/* Elements with a double, a count and a name, ordered as the flat
   profile orders its rows: most time, most calls, name.  */
typedef struct Row
{
  double time;
  unsigned long calls;
  char name[8];
} Row;

static int
cmp_row (const void *a, const void *b, void *ctx)
{
  const Row *l = a, *r = b;

  (void) ctx;
  if (l->time != r->time)
    return l->time > r->time ? -1 : 1;
  if (l->calls != r->calls)
    return l->calls > r->calls ? -1 : 1;
  return strcmp (l->name, r->name);
}

/* msort_ranked, by the time's rank alone and by time and calls, against
   the reference merge sort: many equal times (and 0 against -0), equal
   counts and equal names, so that runs of equal ranks are long and
   short.  */
static void
test_ranked (Rng *rng)
{
  static const size_t counts[] = { 0, 1, 2, 17, 1000, 70001 };
  static const double times[] = { 0.0, -0.0, 0.5, 2.0, -1.5, 1e300, 0.25 };
  enum { N = 70001 };
  Row *row = malloc (N * sizeof *row);
  void **got = malloc (N * sizeof *got), **want = malloc (N * sizeof *want);
  uint64_t *hi = malloc (N * sizeof *hi), *lo = malloc (N * sizeof *lo);

  for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++)
    for (int with_lo = 0; with_lo < 2; with_lo++)
      {
        size_t n = counts[c];
        bool ok;

        for (size_t i = 0; i < n; i++)
          {
            row[i].time = rng_below (rng, 3) ? times[rng_below (rng, 7)]
                                             : (double) rng_below (rng, 1000) / 8;
            row[i].calls = rng_below (rng, 4);
            snprintf (row[i].name, sizeof row[i].name, "f%u",
                      (unsigned) rng_below (rng, 50));
            got[i] = want[i] = &row[i];
            hi[i] = rank_descending (row[i].time);
            lo[i] = ~(uint64_t) row[i].calls;
          }
        ref_sort (want, n, cmp_row, NULL);
        msort_ranked (got, hi, with_lo ? lo : NULL, n, cmp_row, NULL);
        ok = memcmp (got, want, n * sizeof *got) == 0;
        check (ok, "msort_ranked: %zu rows, %s", n,
               with_lo ? "time and calls" : "time only");
      }
  free (row);
  free (got);
  free (want);
  free (hi);
  free (lo);
}

/* radix_sort_records moves whole records with their keys, stably.  */
static void
test_radix_records (Rng *rng)
{
  typedef struct Rec
  {
    uint64_t key;
    char tag[13];         /* an odd size, the record's place as text */
  } Rec;
  enum { N = 2000 };
  Rec *rec = malloc (N * sizeof *rec);
  uint64_t *key = malloc (N * sizeof *key);
  bool ok = true;

  for (size_t i = 0; i < N; i++)
    {
      rec[i].key = key[i] = rng_below (rng, 50) << 40;
      snprintf (rec[i].tag, sizeof rec[i].tag, "%zu", i);
    }
  radix_sort_records (rec, N, sizeof *rec, key);
  for (size_t i = 0; i < N && ok; i++)
    ok = rec[i].key == key[i]
         && (i == 0 || key[i - 1] < key[i]
             || (key[i - 1] == key[i]
                 && atol (rec[i - 1].tag) < atol (rec[i].tag)));
  check (ok, "radix_sort_records: records in key order, stable");
  free (rec);
  free (key);
}

int
main (void)
{
  Rng rng;

  rng_seed (&rng, unit_seed ());
  printf ("# seed %llu\n", (unsigned long long) unit_seed ());
  test_small_cases_without_compare ();
  test_stability (&rng);
  test_against_reference (&rng, "consistent keys", cmp_key, 10, 0);
  test_against_reference (&rng, "distinct keys", cmp_key, 1000000, 0);
  test_against_reference (&rng, "specials claim to come first",
                          cmp_special, 10, 100);
  test_against_reference (&rng, "keys only between specials",
                          cmp_partial, 10, 400);
  test_against_reference (&rng, "cyclic order", cmp_cyclic, 3, 0);
  test_two_specials_known ();
  test_inconsistent_is_discriminating (&rng);
  test_radix (&rng);
  test_radix_records (&rng);
  test_ranked (&rng);
  return check_done ();
}
