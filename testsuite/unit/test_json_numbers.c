/* test_json_numbers.c - the exports' number writers (export.c) against
   printf: ex_json_uint as "%llu", ex_json_int as "%lld", ex_json_hex as
   "%llx", and ex_json_number as "%.0f" for whole numbers below 1e15
   (minus zero included) and "%.12g" otherwise, "null" when not finite.  */

#include "config.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "export_int.h"
#include "out.h"
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
  ex_json_hex (v);
  expect ("ex_json_hex", want);
  snprintf (want, sizeof want, "%lld", (long long) v);
  out_capture_begin ();
  ex_json_int ((long long) v);
  expect ("ex_json_int", want);
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
  return check_done ();
}
