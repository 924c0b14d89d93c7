/* msort.c - glibc 2.36's qsort algorithm on arrays of pointers, and a
   radix sort for numeric keys.  */

#include "config.h"
#include "msort.h"

#include <stdlib.h>
#include <string.h>
#include "support/alloc.h"
#include "pipeline/tasks.h"

/* Merge the sorted runs V[0 .. N1 - 1] and V[N1 .. N - 1] through TMP.  */
static void
merge_runs (void **v, size_t n1, size_t n, void **tmp, msort_cmp cmp, void *ctx)
{
  size_t n2 = n - n1;
  void **b1 = v, **b2 = v + n1, **out = tmp;

  while (n1 > 0 && n2 > 0)
    {
      if (cmp (*b1, *b2, ctx) <= 0)
        {
          *out++ = *b1++;
          n1--;
        }
      else
        {
          *out++ = *b2++;
          n2--;
        }
    }
  /* What is left of the right run is already in place.  */
  if (n1 > 0)
    memcpy (out, b1, n1 * sizeof *b1);
  memcpy (v, tmp, (n - n2) * sizeof *v);
}

/* Recursion depth is log2(n), so plain recursion is fine here.  */
static void
msort_rec (void **v, size_t n, void **tmp, msort_cmp cmp, void *ctx)
{
  if (n <= 1)
    return;
  msort_rec (v, n / 2, tmp, cmp, ctx);
  msort_rec (v + n / 2, n - n / 2, tmp, cmp, ctx);
  merge_runs (v, n / 2, n, tmp, cmp, ctx);
}

/* ---- the same sort on several threads ----------------------------------- */

/* Below this, a thread costs more than it saves.  */
enum { PARALLEL_MIN = 1 << 15 };
/* The size from which a sort for later is worth a thread of its own.  */
enum { BACKGROUND_MIN = 1 << 13 };

typedef struct Part
{
  void **v, **tmp;        /* TMP: N scratch slots of this part's own */
  size_t n;
  msort_cmp cmp;
  void *ctx;
  unsigned nthreads;
} Part;

static void sort_part (Part *p);

static void
sort_part_task (void *arg)
{
  sort_part (arg);
}

/* The halves msort_rec would sort one after the other are sorted at
   once, each with its own half of the scratch space: the same
   comparisons on the same runs, so the same result.  */
static void
sort_part (Part *p)
{
  size_t n1 = p->n / 2;
  Part left = { p->v, p->tmp, n1, p->cmp, p->ctx, p->nthreads / 2 };
  Part right = { p->v + n1, p->tmp + n1, p->n - n1, p->cmp, p->ctx,
                 p->nthreads - p->nthreads / 2 };
  GpTask task;

  if (p->nthreads < 2 || p->n < PARALLEL_MIN)
    {
      msort_rec (p->v, p->n, p->tmp, p->cmp, p->ctx);
      return;
    }
  gp_task_start (&task, sort_part_task, &left);
  sort_part (&right);
  gp_task_wait (&task);
  merge_runs (p->v, n1, p->n, p->tmp, p->cmp, p->ctx);
}

void
msort_ptrs_parallel (void **v, size_t n, msort_cmp cmp, void *ctx)
{
  Part all = { v, NULL, n, cmp, ctx, 1 };

  /* Asked only for big arrays: sort_stable_ptrs comes here for every
     list of callers longer than 16.  */
  if (n < PARALLEL_MIN || (all.nthreads = gp_threads ()) < 2)
    {
      msort_ptrs (v, n, cmp, ctx);
      return;
    }
  all.tmp = gp_reallocarray (NULL, n, sizeof *all.tmp);
  sort_part (&all);
  free (all.tmp);
}

void
sort_stable_ptrs (void **v, size_t n, msort_cmp cmp, void *ctx)
{
  if (n > 16)
    {
      msort_ptrs_parallel (v, n, cmp, ctx);
      return;
    }
  for (size_t i = 1; i < n; i++)
    {
      void *x = v[i];
      size_t j = i;

      for (; j > 0 && cmp (v[j - 1], x, ctx) > 0; j--)
        v[j] = v[j - 1];
      v[j] = x;
    }
}

void
msort_ptrs (void **v, size_t n, msort_cmp cmp, void *ctx)
{
  void *small[64], **tmp = small;

  if (n <= 1)
    return;
  /* The call graph sorts every function's callers and callees, mostly
     a handful each: no allocation for those.  */
  if (n > sizeof small / sizeof *small)
    tmp = gp_reallocarray (NULL, n, sizeof *tmp);
  msort_rec (v, n, tmp, cmp, ctx);
  if (tmp != small)
    free (tmp);
}

void
msort_ranked (void **v, const uint64_t *hi, const uint64_t *lo, size_t n,
              msort_cmp cmp, void *ctx)
{
  uint64_t *key = gp_reallocarray (NULL, n ? n : 1, sizeof *key);
  size_t *at = gp_reallocarray (NULL, n ? n : 1, sizeof *at);
  void **was = gp_reallocarray (NULL, n ? n : 1, sizeof *was);

  /* Least significant first, each pass stable.  */
  for (size_t i = 0; i < n; i++)
    at[i] = i;
  if (lo)
    {
      memcpy (key, lo, n * sizeof *key);
      radix_sort_u64 (key, at, n);
    }
  for (size_t i = 0; i < n; i++)
    key[i] = hi[at[i]];
  radix_sort_u64 (key, at, n);
  memcpy (was, v, n * sizeof *v);
  for (size_t i = 0; i < n; i++)
    v[i] = was[at[i]];
  for (size_t i = 0, run; i < n; i += run)
    {
      for (run = 1; i + run < n && key[i + run] == key[i]
                    && (!lo || lo[at[i + run]] == lo[at[i]]); run++)
        ;
      if (run > 1)
        msort_ptrs_parallel (v + i, run, cmp, ctx);
    }
  free (was);
  free (at);
  free (key);
}

uint64_t
rank_descending (double x)
{
  uint64_t u;

  if (x == 0.0)
    x = 0.0;
  memcpy (&u, &x, sizeof u);
  u = u >> 63 ? ~u : u | (UINT64_C (1) << 63);
  return ~u;
}

struct SortTask
{
  void **v;
  uint64_t *hi, *lo;
  size_t n;
  msort_cmp cmp;
  void *ctx;
  GpTask task;
};

static void
sort_task (void *arg)
{
  SortTask *t = arg;

  if (t->hi)
    msort_ranked (t->v, t->hi, t->lo, t->n, t->cmp, t->ctx);
  else
    msort_ptrs (t->v, t->n, t->cmp, t->ctx);
  free (t->hi);
  free (t->lo);
}

SortTask *
msort_start (void **v, uint64_t *hi, uint64_t *lo, size_t n, msort_cmp cmp,
             void *ctx)
{
  SortTask *t = gp_malloc (sizeof *t);

  t->v = v;
  t->hi = hi;
  t->lo = lo;
  t->n = n;
  t->cmp = cmp;
  t->ctx = ctx;
  if (n >= BACKGROUND_MIN)
    gp_task_start (&t->task, sort_task, t);
  else
    gp_task_defer (&t->task, sort_task, t);
  return t;
}

void **
msort_finish (SortTask *t, size_t *n)
{
  void **v = t->v;

  gp_task_wait (&t->task);
  *n = t->n;
  free (t);
  return v;
}

void
radix_sort_u64 (uint64_t *key, size_t *payload, size_t n)
{
  uint64_t varies = 0, *src = key, *dst, *tmp;
  size_t *psrc = payload, *pdst = NULL, *ptmp = NULL, *count;
  /* Digits of 16 bits take the fewest passes; below 64k keys, clearing
     and summing their 65536 counters would cost more than the keys.  */
  int bits = n < ((size_t) 1 << 16) ? 8 : 16;
  size_t radix = (size_t) 1 << bits, mask = radix - 1;

  for (size_t i = 1; i < n; i++)
    varies |= key[i] ^ key[0];
  if (varies == 0)
    return;
  dst = tmp = gp_reallocarray (NULL, n, sizeof *tmp);
  if (payload)
    pdst = ptmp = gp_reallocarray (NULL, n, sizeof *ptmp);
  count = gp_reallocarray (NULL, radix, sizeof *count);
  for (int shift = 0; shift < 64; shift += bits)
    {
      size_t sum = 0;

      if (((varies >> shift) & mask) == 0)
        continue;
      memset (count, 0, radix * sizeof *count);
      for (size_t i = 0; i < n; i++)
        count[(src[i] >> shift) & mask]++;
      for (size_t d = 0; d < radix; d++)
        {
          size_t c = count[d];

          count[d] = sum;
          sum += c;
        }
      for (size_t i = 0; i < n; i++)
        {
          size_t at = count[(src[i] >> shift) & mask]++;

          dst[at] = src[i];
          if (payload)
            pdst[at] = psrc[i];
        }
      dst = src;
      src = src == key ? tmp : key;
      pdst = psrc;
      psrc = psrc == payload ? ptmp : payload;
    }
  if (src != key)
    {
      memcpy (key, src, n * sizeof *key);
      if (payload)
        memcpy (payload, psrc, n * sizeof *payload);
    }
  free (count);
  free (tmp);
  free (ptmp);
}

void
radix_sort_records (void *base, size_t n, size_t size, uint64_t *key)
{
  size_t *at = gp_reallocarray (NULL, n ? n : 1, sizeof *at);
  char *sorted = gp_reallocarray (NULL, n ? n : 1, size);

  for (size_t i = 0; i < n; i++)
    at[i] = i;
  radix_sort_u64 (key, at, n);
  for (size_t i = 0; i < n; i++)
    memcpy (sorted + i * size, (char *) base + at[i] * size, size);
  memcpy (base, sorted, n * size);
  free (sorted);
  free (at);
}
