/* test_out.c - the report formatters against snprintf: every number the
   reports print goes through out_fmt_fixed or out_fmt_ulong, whose fast
   ways must give printf's bytes and stay within the slack they promise
   (OUT_FIELD_SLACK bytes past the end they return).  */

#include "config.h"
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "support/out.h"
#include "unit.h"

enum { CANARY = 0x5a, ROOM = 256 };

static unsigned long failures, cases;

/* One field into a canary-filled line at offset 8; compare with WANT and
   check that nothing was written before the field or past its slack.  */
static void
check_field (const char *what, const char *want, char *(*fmt) (char *, const void *, int, int, bool),
             const void *value, int width, int prec, bool left)
{
  char line[ROOM], *end;
  size_t n = strlen (want);

  memset (line, CANARY, sizeof line);
  end = fmt (line + 8, value, width, prec, left);
  cases++;
  if (!end)
    {
      if (failures++ < 10)
        check (false, "%s: NULL for \"%s\"", what, want);
      return;
    }
  bool ok = (size_t) (end - (line + 8)) == n && memcmp (line + 8, want, n) == 0;
  for (size_t i = 0; i < 8; i++)
    ok = ok && line[i] == (char) CANARY;
  for (char *p = end + OUT_FIELD_SLACK; p < line + ROOM; p++)
    ok = ok && *p == (char) CANARY;
  if (!ok && failures++ < 10)
    check (false, "%s: want \"%s\", got \"%.*s\"", what, want,
           (int) (end - (line + 8)), line + 8);
}

static char *
fmt_fixed (char *p, const void *v, int width, int prec, bool left)
{
  return out_fmt_fixed (p, *(const double *) v, width, prec);
}

static char *
fmt_ulong (char *p, const void *v, int width, int prec, bool left)
{
  return out_fmt_ulong (p, *(const unsigned long *) v, width, left);
}

static void
try_fixed (double x, int width, int prec)
{
  char want[128], what[64];

  if (fabs (x) >= 1e12)
    return;                     /* declined: checked apart */
  snprintf (want, sizeof want, "%*.*f", width, prec, x);
  snprintf (what, sizeof what, "%%%d.%df of %.17g", width, prec, x);
  check_field (what, want, fmt_fixed, &x, width, prec, false);
}

static void
try_ulong (unsigned long v, int width, bool left)
{
  char want[128], what[64];

  snprintf (want, sizeof want, left ? "%-*lu" : "%*lu", width, v);
  snprintf (what, sizeof what, "%%%s%dlu of %lu", left ? "-" : "", width, v);
  check_field (what, want, fmt_ulong, &v, width, 0, left);
}

/* Values as the reports make them: ticks over a rate, shares of them,
   sums, exact ties of the rounding, and the edges of every width.  */
static double
some_double (Rng *r)
{
  static const double rates[] = { 100, 1000, 60, 1e6, 3 };
  double ticks = (double) rng_below (r, 2000000);

  switch (rng_below (r, 6))
    {
    case 0:
      return ticks / rates[rng_below (r, 5)];
    case 1:
      return ticks / rates[rng_below (r, 5)] * (double) rng_next (r) / 0x1p64;
    case 2:                     /* a tie: k + 1/2 at the last printed place */
      return ((double) rng_below (r, 100000) + 0.5) / (double) (1 << rng_below (r, 4));
    case 3:
      return -(ticks / 100);
    case 4:
      return ldexp ((double) (rng_next (r) >> 11), (int) rng_below (r, 80) - 60);
    default:
      return (double) rng_below (r, 1000) * pow (10, (double) rng_below (r, 14));
    }
}

int
main (void)
{
  static const double edges[] = { 0.0, -0.0, 0.004, 0.005, 0.015, 0.025, 0.995,
                                  9.995, 99.995, 999.995, 9999.995, 99999.99,
                                  1e11, 999999999999.99, 1e12, -0.001, 0.5, 1.5,
                                  2.5, 1e-300, DBL_MIN, 123456.789 };
  static const unsigned long uedges[] = { 0, 1, 9, 10, 99, 100, 9999999, 10000000,
                                          99999999, 100000000, 4294967295UL,
                                          ULONG_MAX };
  Rng r;
  const char *seed = getenv ("UNIT_SEED");

  rng_seed (&r, seed ? strtoull (seed, NULL, 10) : 1);
  for (size_t i = 0; i < sizeof edges / sizeof *edges; i++)
    for (int width = 0; width <= 20; width++)
      for (int prec = 0; prec <= 3; prec++)
        try_fixed (edges[i], width, prec);
  for (int k = 0; k < 300000; k++)
    try_fixed (some_double (&r), (int) rng_below (&r, 18), (int) rng_below (&r, 4));
  check (failures == 0, "out_fmt_fixed gives printf's bytes (%lu cases)", cases);

  failures = cases = 0;
  for (size_t i = 0; i < sizeof uedges / sizeof *uedges; i++)
    for (int width = 0; width <= 24; width++)
      {
        try_ulong (uedges[i], width, false);
        try_ulong (uedges[i], width, true);
      }
  for (int k = 0; k < 300000; k++)
    {
      unsigned long v = rng_next (&r) >> rng_below (&r, 64);

      try_ulong (v, (int) rng_below (&r, 22), rng_below (&r, 2));
    }
  check (failures == 0, "out_fmt_ulong gives printf's bytes (%lu cases)", cases);

  /* Not finite, or too big: left to printf.  */
  check (!out_fmt_fixed ((char[64]) { 0 }, INFINITY, 7, 2)
         && !out_fmt_fixed ((char[64]) { 0 }, NAN, 7, 2)
         && !out_fmt_fixed ((char[64]) { 0 }, 1e12, 7, 2),
         "out_fmt_fixed declines infinities, NaN and 1e12");
  return check_done ();
}
