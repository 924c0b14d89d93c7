/* test_json_numbers.c - the exports' numbers.  The writers (export.c,
   out.c) against printf: ex_json_uint as "%llu", out_int as "%lld",
   out_hex as "%llx", and ex_json_number as "%.0f" for whole numbers
   below 1e15 (minus zero included) and "%.12g" otherwise, "null" when
   not finite.  And ex_apportion (export/model.c), which shares ticks in
   proportion, against a full sort of the remainders.  */

#include "config.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "export/internal.h"
#include "support/out.h"
#include "unit.h"

static unsigned long failures, cases;

/* What was printed since out_capture_begin, against WANT.  */
static void
expect (const char *what, const char *want)
{
  size_t len;
  char *got = out_capture_end (&len);

  cases++;
  if (len == strlen (want) && (len == 0 || memcmp (got, want, len) == 0))
    {
      free (got);
      return;
    }
  if (failures++ < 10)
    check (false, "%s: \"%.*s\", printf gives \"%s\"", what, (int) len,
           got ? got : "", want);
  free (got);
}

static void
one_uint (unsigned long long v)
{
  char want[64];

  snprintf (want, sizeof want, "%llu", v);
  out_capture_begin ();
  ex_json_uint (v);
  expect ("ex_json_uint", want);
  snprintf (want, sizeof want, "%llx", v);
  out_capture_begin ();
  out_hex (v);
  expect ("out_hex", want);
  snprintf (want, sizeof want, "%lld", (long long) v);
  out_capture_begin ();
  out_int ((long long) v);
  expect ("out_int", want);
}

static void
one_number (double v)
{
  char want[64];

  if (!isfinite (v))
    strcpy (want, "null");
  else if (v == floor (v) && fabs (v) < 1e15)
    snprintf (want, sizeof want, "%.0f", v);
  else
    snprintf (want, sizeof want, "%.12g", v);
  out_capture_begin ();
  ex_json_number (v);
  expect ("ex_json_number", want);
}

/* ex_apportion against the way it was first written: all remainders
   sorted, one more tick to each in turn.  */
typedef struct RefRem
{
  double r;
  size_t i;
} RefRem;

static int
ref_cmp (const void *a, const void *b)
{
  const RefRem *l = a, *r = b;

  if (l->r != r->r)
    return l->r > r->r ? -1 : 1;
  return l->i < r->i ? -1 : l->i > r->i;
}

static void
ref_apportion (uint64_t total, const double *w, size_t n, uint64_t *part)
{
  double sum = 0;
  uint64_t given = 0;
  RefRem rem[64];
  size_t nrem = 0;

  for (size_t i = 0; i < n; i++)
    {
      part[i] = 0;
      if (w[i] > 0)
        sum += w[i];
    }
  if (sum <= 0 || total == 0)
    return;
  for (size_t i = 0; i < n; i++)
    if (w[i] > 0)
      {
        double ideal = w[i] / sum * (double) total, whole = floor (ideal);

        part[i] = (uint64_t) whole;
        given += part[i];
        rem[nrem].r = ideal - whole;
        rem[nrem++].i = i;
      }
  qsort (rem, nrem, sizeof *rem, ref_cmp);
  for (size_t j = 0; given < total; j = (j + 1) % nrem, given++)
    part[rem[j].i]++;
  for (size_t j = nrem; given > total && j-- > 0;)
    if (part[rem[j].i] > 0)
      {
        part[rem[j].i]--;
        given--;
      }
}

static void
test_apportion (Rng *rng)
{
  unsigned long bad = 0, runs = 0;

  for (int t = 0; t < 20000; t++)
    {
      size_t n = 1 + rng_below (rng, 64);
      double w[64];
      uint64_t want[64], got[64];
      uint64_t total = rng_below (rng, 4) ? rng_below (rng, 200)
                                          : rng_next (rng) >> rng_below (rng, 64);

      /* Few distinct weights, so that remainders tie; some zero.  */
      for (size_t i = 0; i < n; i++)
        w[i] = rng_below (rng, 5) == 0 ? 0.0
               : (double) (1 + rng_below (rng, rng_below (rng, 2) ? 4 : 1000000));
      ref_apportion (total, w, n, want);
      ex_apportion (total, w, n, got);
      runs++;
      if (memcmp (want, got, n * sizeof *got) != 0 && bad++ < 5)
        check (false, "ex_apportion: %llu over %zu weights differs",
               (unsigned long long) total, n);
    }
  check (bad == 0, "ex_apportion: %lu cases as a full sort shares them", runs);
}

int
main (void)
{
  static const unsigned long long edges[] = {
    0, 1, 9, 10, 99, 100, 4294967295ULL, 4294967296ULL,
    9223372036854775807ULL, 9223372036854775808ULL, 18446744073709551615ULL
  };
  static const double numbers[] = {
    0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1e15 - 1, 1e15, -1e15 + 1, 1e15 + 2,
    123456789012.0, 0.01, 1.0 / 3, 2.5e-7, 1e300, -4503599627370496.0,
    INFINITY, -INFINITY, NAN
  };
  Rng rng;

  rng_seed (&rng, getenv ("UNIT_SEED") ? strtoull (getenv ("UNIT_SEED"), NULL, 10) : 1);
  for (size_t i = 0; i < sizeof edges / sizeof *edges; i++)
    {
      one_uint (edges[i]);
      one_uint (-edges[i]);
    }
  for (int i = 0; i < 100000; i++)
    one_uint (rng_next (&rng) >> rng_below (&rng, 64));
  check (failures == 0, "integers: %lu cases as printf writes them",
         cases);

  failures = cases = 0;
  for (size_t i = 0; i < sizeof numbers / sizeof *numbers; i++)
    one_number (numbers[i]);
  for (int i = 0; i < 100000; i++)
    {
      /* Whole numbers of every size, and fractions.  */
      double whole = (double) (rng_next (&rng) >> rng_below (&rng, 64));
      double frac = (double) rng_next (&rng) / 18446744073709551616.0;

      one_number (rng_below (&rng, 2) ? whole : -whole);
      one_number (whole * frac);
      one_number (frac * 1000);
    }
  check (failures == 0, "ex_json_number: %lu cases as printf writes them",
         cases);
  test_apportion (&rng);
  return check_done ();
}
