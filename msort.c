/* msort.c - glibc 2.36's qsort algorithm on arrays of pointers.  */

#include "config.h"
#include "msort.h"

#include <stdlib.h>
#include <string.h>
#include "util.h"

/* Recursion depth is log2(n), so plain recursion is fine here.  */
static void
msort_rec (void **v, size_t n, void **tmp, msort_cmp cmp, void *ctx)
{
  size_t n1, n2;
  void **b1, **b2, **out;

  if (n <= 1)
    return;
  n1 = n / 2;
  n2 = n - n1;
  b1 = v;
  b2 = v + n1;
  msort_rec (b1, n1, tmp, cmp, ctx);
  msort_rec (b2, n2, tmp, cmp, ctx);

  out = tmp;
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
  msort_rec (v, n, tmp, cmp, ctx);
  if (tmp != small)
    free (tmp);
}
