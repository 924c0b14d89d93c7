/* support/out.h - buffered, formatted output of the reports to stdout.

   A call graph of a big program prints millions of lines; printf's
   format parsing and stdio's per-call overhead would then dominate the
   run.  Reports write through these functions into one buffer, which
   goes to stdout in large pieces.  The number formatters write the same
   bytes as the printf conversions named beside them.

   The small writers are inline because they run for every field of
   every line.  Each thread has a buffer of its own, so that the
   parallel printer (pipeline/par.c) can print a long list's batches at
   once, each into memory, and send them to stdout in the list's order.
   The buffer's three ends: stdout (the usual), memory that grows
   (out_capture_begin), and a chain of chunks (out_chain_begin).  */

#ifndef GPROF_SUPPORT_OUT_H
#define GPROF_SUPPORT_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

enum { OUT_BUF = 1 << 16 };

/* Each thread has its own buffer: out_pos is its next free byte, out_end
   its end (both null until the thread first writes).  */
extern _Thread_local char *out_pos, *out_end;

/* Hand the buffer to stdout (done before anything writes to stdout
   directly, and at exit).  */
void out_flush (void);
/* Flush and close stdout: 0, or the errno of the first write or close
   that failed (a full disk, a closed pipe).  */
int out_close (void);
/* Make room for N bytes (N <= OUT_BUF).  */
static inline void
out_reserve (size_t n)
{
  if ((size_t) (out_end - out_pos) <= n)
    out_flush ();
}

void out_write_big (const char *s, size_t n);

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
/* %d (%lld); returns the number of characters written.  */
int out_int (long long v);
/* %lx (%llx); returns the number of characters written.  */
int out_hex (unsigned long long v);

/* The number conversions into a line being built in memory at P, for
   the hottest lines: each returns the end of what it wrote, and may also
   write up to OUT_FIELD_SLACK bytes past that end.  Inline, so that the
   callers' constant widths and precisions decide most tests at compile
   time; the rare cases are out_*_general.  */
enum { OUT_FIELD_SLACK = 16 };
/* out_fmt_ulong blanks 16 bytes at once.  */
_Static_assert (OUT_FIELD_SLACK >= 16, "out_fmt_ulong writes 16 bytes");

extern const char out_digit_pairs[];            /* "00" "01" ... "99" */
extern const unsigned long long out_powers_of_ten[];    /* 10^0 .. 10^16 */
/* The digits of V ending just before END; returns the first digit.  */
char *out_utoa (unsigned long long v, char *end);
char *out_fmt_ulong_general (char *p, unsigned long v, int width, bool left);
unsigned long long out_round_near_tie (double x, double scale,
                                       unsigned long long t);
char *out_fmt_fixed_general (char *p, double x, int width, int prec,
                             unsigned long long n);
void out_fixed_printf (double x, int width, int prec);

/* %Wlu, or %-Wlu when LEFT.  */
static inline char *
out_fmt_ulong (char *p, unsigned long v, int width, bool left)
{
  /* Blank a fixed 16 bytes (one store), then place the digits: no
     scratch buffer and no padding loop.  */
  if (width < 2 || width > 16 || v >= out_powers_of_ten[width])
    return out_fmt_ulong_general (p, v, width, left);
  memset (p, ' ', 16);
  /* Most counts are small.  */
  if (v < 10)
    p[left ? 0 : width - 1] = (char) ('0' + v);
  else if (v < 100)
    memcpy (p + (left ? 0 : width - 2), out_digit_pairs + 2 * v, 2);
  else if (!left)
    out_utoa (v, p + width);
  else
    {
      int len = 3;

      while (v >= out_powers_of_ten[len])
        len++;
      out_utoa (v, p + len);
    }
  return p + width;
}

/* X * SCALE (X >= 0) rounded to nearest, ties to even, on the exact
   product, as glibc rounds it; decided from the rounded product unless
   that lies within a hair of a half.  */
static inline unsigned long long
out_round_scaled (double x, double scale)
{
  double y = x * scale;
  unsigned long long t = (unsigned long long) y;  /* y >= 0: floor */
  double f = y - (double) t;

  if (f < 0.499)
    return t;
  if (f > 0.501)
    return t + 1;
  return out_round_near_tie (x, scale, t);
}

/* %W.Pf, as glibc rounds it (to nearest, ties to even, on the exact
   binary value); NULL for values left to printf (not finite, or 1e12
   and more).  */
static inline char *
out_fmt_fixed (char *p, double x, int width, int prec)
{
  static const double scales[] = { 1, 10, 100, 1000 };
  unsigned long long n, whole;
  unsigned frac;
  double a = __builtin_fabs (x);
  char *d;

  /* Most times in a big profile's lines print as zero: known before any
     rounding (x * 100 is then below 0.499).  As integers, the bits of
     +0.0 up to 0.00499 lie below those of 0.00499, and those of negative
     numbers (-0.0 included) and NaNs above: one comparison.  */
  static const double zero_below = 0.00499;
  uint64_t bits, limit;

  memcpy (&bits, &x, sizeof bits);
  memcpy (&limit, &zero_below, sizeof limit);
  if (prec == 2 && bits < limit && width >= 4 && width <= 16)
    {
      memset (p, ' ', 16);
      memcpy (p + width - 4, "0.00", 4);
      return p + width;
    }
  if (!(a < 1e12) || prec < 0 || prec > 3)
    return NULL;
  n = out_round_scaled (a, scales[prec]);
  /* The usual fields: positive, narrow, and wide enough.  */
  if (__builtin_signbit (x) || width > 16 || width < prec + 2
      || n >= out_powers_of_ten[width - 1])
    return out_fmt_fixed_general (p, x, width, prec, n);

  switch (prec)
    {
    case 0: whole = n; frac = 0; break;
    case 1: whole = n / 10; frac = (unsigned) (n % 10); break;
    case 2: whole = n / 100; frac = (unsigned) (n % 100); break;
    default: whole = n / 1000; frac = (unsigned) (n % 1000); break;
    }
  memset (p, ' ', 16);
  d = p + width;
  if (prec == 2)
    {
      d -= 2;
      memcpy (d, out_digit_pairs + 2 * frac, 2);
    }
  else
    for (int i = 0; i < prec; i++)
      {
        *--d = (char) ('0' + frac % 10);
        frac /= 10;
      }
  if (prec > 0)
    *--d = '.';
  /* Most times are below 100 seconds.  */
  if (whole < 10)
    d[-1] = (char) ('0' + whole);
  else if (whole < 100)
    memcpy (d - 2, out_digit_pairs + 2 * whole, 2);
  else
    out_utoa (whole, d);
  return p + width;
}

/* %W.Pf into the buffer.  */
static inline void
out_fixed (double x, int width, int prec)
{
  char *end;

  out_reserve ((size_t) (width > 0 ? width : 0) + 24);
  end = out_fmt_fixed (out_pos, x, width, prec);
  if (end)
    out_pos = end;
  else
    out_fixed_printf (x, width, prec);
}

/* printf into the buffer; returns the number of bytes written.  */
int out_printf (const char *fmt, ...) __attribute__ ((format (printf, 1, 2)));
/* fprintf, through the buffer when F is stdout.  */
int out_fprintf (FILE *f, const char *fmt, ...)
  __attribute__ ((format (printf, 2, 3)));

/* Print into memory: what the out_ functions write on this thread from
   out_capture_begin to out_capture_end stays in a buffer, which
   out_capture_end returns (malloc'ed, *LEN bytes; NULL if empty) instead
   of sending it to stdout.  out_captured says how many bytes so far.
   Captures do not nest.  */
void out_capture_begin (void);
size_t out_captured (void);
char *out_capture_end (size_t *len);

/* A list of items to print in order: the items are independent, so
   that par_print (pipeline/par.h) may print them in batches at once,
   each into memory.  PRINT must only read what other batches' PRINT
   may touch, and keep any cache in its thread's STATE.  */
typedef struct OutJob
{
  size_t n;               /* items 0 .. n - 1 */
  void *ctx;
  /* About how many lines item I prints.  */
  size_t (*weight) (void *ctx, size_t i);
  /* Print items BEGIN .. END - 1 through the out_ functions.  */
  void (*print) (void *ctx, void *state, size_t begin, size_t end);
  /* A thread's STATE for print, made and freed in that thread (may be
     null).  */
  void *(*state_new) (void *ctx);
  void (*state_free) (void *ctx, void *state);
  size_t batch_weight;    /* 0 for the default */
} OutJob;

/* JOB's items, all in turn, on this thread.  */
void out_print_job (const OutJob *job);

/* Output into memory, in chunks: from out_chain_begin to out_chain_end,
   what this thread writes goes into a chain of 64 KiB chunks, which
   out_chain_end returns with its length in *LEN.  out_write_chains
   writes N chains to stdout in order, out_chain_release gives a chain's
   chunks back for reuse, out_chunks_free frees those kept.  */
typedef struct OutChunk OutChunk;

void out_chain_begin (void);
OutChunk *out_chain_end (size_t *len);
void out_write_chains (OutChunk *const *chains, size_t n);
void out_chain_release (OutChunk *chain);
void out_chunks_free (void);

#endif
