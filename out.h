/* out.h - buffered, formatted output of the reports to stdout.

   A call graph of a big program prints millions of lines; printf's
   format parsing and stdio's per-call overhead would then dominate the
   run.  Reports write through these functions into one buffer, which
   goes to stdout in large pieces.  The number formatters write the same
   bytes as the printf conversions named beside them.

   The buffer is global, like stdout itself; the small writers are inline
   because they run for every field of every line.  */

#ifndef GPROF_OUT_H
#define GPROF_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

enum { OUT_BUF = 1 << 16 };

extern char out_buf[OUT_BUF];
extern char *out_pos;           /* next free byte of out_buf */
extern unsigned long out_nflushes;  /* times out_buf was handed on */

/* Hand the buffer to stdout (done before anything writes to stdout
   directly, and at exit).  */
void out_flush (void);
/* Make room for N bytes (N <= OUT_BUF).  */
static inline void
out_reserve (size_t n)
{
  if ((size_t) (out_buf + OUT_BUF - out_pos) < n)
    out_flush ();
}

void out_write_big (const char *s, size_t n);

/* A place in the output, for a caller that keeps a copy of what it
   prints: out_since (M, &N) gives the N bytes printed since M, or NULL
   when they are no longer all in the buffer.  */
typedef struct OutMark
{
  char *pos;
  unsigned long nflushes;
} OutMark;

static inline OutMark
out_mark (void)
{
  OutMark m = { out_pos, out_nflushes };

  return m;
}

static inline const char *
out_since (OutMark m, size_t *n)
{
  if (m.nflushes != out_nflushes)
    return NULL;
  *n = (size_t) (out_pos - m.pos);
  return m.pos;
}

static inline void
out_write (const char *s, size_t n)
{
  if (n > OUT_BUF / 2)
    {
      out_write_big (s, n);
      return;
    }
  out_reserve (n);
  /* Most pieces are a few bytes: a call to memcpy costs more.  */
  if (n <= 16)
    for (size_t i = 0; i < n; i++)
      out_pos[i] = s[i];
  else
    memcpy (out_pos, s, n);
  out_pos += n;
}

static inline void
out_str (const char *s)                                /* %s */
{
  out_write (s, strlen (s));
}

static inline void
out_char (char c)
{
  out_reserve (1);
  *out_pos++ = c;
}

static inline void
out_spaces (int n)
{
  while (n > 0)
    {
      int k = n < 256 ? n : 256;

      out_reserve ((size_t) k);
      memset (out_pos, ' ', (size_t) k);
      out_pos += k;
      n -= k;
    }
}

/* %W.Ws, or %-W.Ws when LEFT: S cut to W characters and padded to W.  */
void out_field (const char *s, int width, bool left);
/* %Wlu, or %-Wlu when LEFT.  */
void out_ulong (unsigned long v, int width, bool left);
/* %d; returns the number of characters written.  */
int out_int (int v);
/* %lx; returns the number of characters written.  */
int out_hex (unsigned long v);
/* %W.Pf, as glibc rounds it (to nearest, ties to even, on the exact
   binary value).  */
void out_fixed (double x, int width, int prec);
/* The same conversions into a line being built in memory at P, for the
   hottest lines: each returns the end of what it wrote, and may also
   write up to OUT_FIELD_SLACK bytes past that end.  out_fmt_fixed returns
   NULL for values it leaves to printf (not finite, or 1e12 and more).  */
enum { OUT_FIELD_SLACK = 16 };
char *out_fmt_ulong (char *p, unsigned long v, int width, bool left);
char *out_fmt_fixed (char *p, double x, int width, int prec);

/* printf into the buffer; returns the number of bytes written.  */
int out_printf (const char *fmt, ...) __attribute__ ((format (printf, 1, 2)));
/* fprintf, through the buffer when F is stdout.  */
int out_fprintf (FILE *f, const char *fmt, ...)
  __attribute__ ((format (printf, 2, 3)));

#endif
