/* support/msort.c - glibc 2.36's qsort algorithm on arrays of pointers, and a
   radix sort for numeric keys.  */

#include "config.h"
#include "support/msort.h"

#include <stdlib.h>
#include <string.h>
#include "support/alloc.h"

/* Merge the sorted runs V[0 .. N1 - 1] and V[N1 .. N - 1] through TMP.  */
static void
msort_merge (void **v, size_t n1, size_t n, void **tmp, msort_cmp cmp, void *ctx)
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

/* Sort V through the N scratch slots at TMP.  Recursion depth is
   log2(n), so plain recursion is fine here.  */
static void
msort_with (void **v, size_t n, void **tmp, msort_cmp cmp, void *ctx)
{
  if (n <= 1)
    return;
  msort_with (v, n / 2, tmp, cmp, ctx);
  msort_with (v + n / 2, n - n / 2, tmp, cmp, ctx);
  msort_merge (v, n / 2, n, tmp, cmp, ctx);
}

void
sort_stable_ptrs (void **v, size_t n, msort_cmp cmp, void *ctx)
{
  if (n > 16)
    {
      msort_ptrs (v, n, cmp, ctx);
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
  msort_with (v, n, tmp, cmp, ctx);
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
        msort_ptrs (v + i, run, cmp, ctx);
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
