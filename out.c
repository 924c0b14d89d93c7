/* out.c - printf-compatible output without printf.  */

#include "config.h"
#include "out.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { OUT_BUF = 1 << 16 };

static char buf[OUT_BUF];
static size_t len;

void
out_flush (void)
{
  if (len)
    fwrite (buf, 1, len, stdout);
  len = 0;
}

void
out_write (const char *s, size_t n)
{
  if (n > OUT_BUF - len)
    {
      out_flush ();
      if (n > OUT_BUF)
        {
          fwrite (s, 1, n, stdout);
          return;
        }
    }
  memcpy (buf + len, s, n);
  len += n;
}

void
out_str (const char *s)
{
  out_write (s, strlen (s));
}

void
out_char (char c)
{
  if (len == OUT_BUF)
    out_flush ();
  buf[len++] = c;
}

static int
out_vprintf (const char *fmt, va_list ap)
{
  char small[256], *big;
  va_list copy;
  int n;

  va_copy (copy, ap);
  n = vsnprintf (small, sizeof small, fmt, copy);
  va_end (copy);
  if (n < 0)
    return n;
  if ((size_t) n < sizeof small)
    {
      out_write (small, (size_t) n);
      return n;
    }
  big = malloc ((size_t) n + 1);
  if (!big)
    {
      /* Too large to format in memory: let stdio do it.  */
      out_flush ();
      return vprintf (fmt, ap);
    }
  vsnprintf (big, (size_t) n + 1, fmt, ap);
  out_write (big, (size_t) n);
  free (big);
  return n;
}

int
out_printf (const char *fmt, ...)
{
  va_list ap;
  int n;

  va_start (ap, fmt);
  n = out_vprintf (fmt, ap);
  va_end (ap);
  return n;
}

int
out_fprintf (FILE *f, const char *fmt, ...)
{
  va_list ap;
  int n;

  va_start (ap, fmt);
  n = f == stdout ? out_vprintf (fmt, ap) : vfprintf (f, fmt, ap);
  va_end (ap);
  return n;
}

void
out_spaces (int n)
{
  static const char spaces[] = "                                ";

  while (n > 0)
    {
      int k = n < (int) sizeof spaces - 1 ? n : (int) sizeof spaces - 1;

      out_write (spaces, (size_t) k);
      n -= k;
    }
}

static void
out_padded (const char *s, size_t n, int width, bool left)
{
  int pad = width > (int) n ? width - (int) n : 0;

  if (!left)
    out_spaces (pad);
  out_write (s, n);
  if (left)
    out_spaces (pad);
}

void
out_field (const char *s, int width, bool left)
{
  out_padded (s, strnlen (s, (size_t) width), width, left);
}

/* Digits of V at the end of BUF (which must hold 20 bytes); returns the
   first digit.  */
static char *
utoa (unsigned long long v, char *end)
{
  do
    {
      *--end = (char) ('0' + v % 10);
      v /= 10;
    }
  while (v);
  return end;
}

void
out_ulong (unsigned long v, int width, bool left)
{
  char digits[24], *end = digits + sizeof digits, *p = utoa (v, end);

  out_padded (p, (size_t) (end - p), width, left);
}

void
out_int (int v)
{
  char digits[24], *end = digits + sizeof digits, *p;
  unsigned long long u = v < 0 ? -(unsigned long long) v : (unsigned long long) v;

  p = utoa (u, end);
  if (v < 0)
    *--p = '-';
  out_write (p, (size_t) (end - p));
}

/* N = X * 10^PREC rounded as glibc rounds, for 0 <= X < 1e12.  The fused
   multiply-adds give the exact sign of X * scale - candidate, so ties
   and near-ties are decided on the exact value.  */
static unsigned long long
round_scaled (double x, double scale)
{
  double n = floor (x * scale), r;

  if (fma (x, scale, -n) < 0)
    n -= 1;
  else if (fma (x, scale, -(n + 1)) >= 0)
    n += 1;
  r = fma (x, scale, -(n + 0.5));
  if (r > 0 || (r == 0 && fmod (n, 2.0) == 1.0))
    n += 1;
  return (unsigned long long) n;
}

void
out_fixed (double x, int width, int prec)
{
  static const double scales[] = { 1, 10, 100, 1000 };
  char digits[64], *end = digits + sizeof digits, *p;
  unsigned long long n;
  double a = fabs (x);

  if (!isfinite (x) || a >= 1e12 || prec < 0 || prec > 3)
    {
      out_printf ("%*.*f", width, prec, x);
      return;
    }
  n = round_scaled (a, scales[prec]);
  p = end;
  for (int i = 0; i < prec; i++)
    {
      *--p = (char) ('0' + n % 10);
      n /= 10;
    }
  if (prec > 0)
    *--p = '.';
  p = utoa (n, p);
  /* glibc keeps the sign of negative values that round to zero.  */
  if (signbit (x))
    *--p = '-';
  out_padded (p, (size_t) (end - p), width, false);
}
