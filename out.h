/* out.h - buffered, formatted output of the reports to stdout.

   A call graph of a big program prints millions of lines; printf's
   format parsing and stdio's per-call overhead would then dominate the
   run.  Reports write through these functions into one buffer, which
   goes to stdout in large pieces.  The number formatters write the same
   bytes as the printf conversions named beside them.

   The small writers are inline because they run for every field of
   every line.  out_print_items prints a long list of entries on several
   threads at once, each into its own buffer, in the list's order.  */

#ifndef GPROF_OUT_H
#define GPROF_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

enum { OUT_BUF = 1 << 16 };

/* Each thread has its own buffer: out_pos is its next free byte, out_end
   its end (both null until the thread first writes).  */
extern _Thread_local char *out_pos, *out_end;

/* Hand the buffer to stdout (done before anything writes to stdout
   directly, and at exit).  */
void out_flush (void);
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

/* Print into memory: what the out_ functions write on this thread from
   out_capture_begin to out_capture_end stays in a buffer, which
   out_capture_end returns (malloc'ed, *LEN bytes; NULL if empty) instead
   of sending it to stdout.  out_captured says how many bytes so far.
   Captures do not nest.  */
void out_capture_begin (void);
size_t out_captured (void);
char *out_capture_end (size_t *len);

/* A list of items printed in order, on as many threads as help: the
   items are cut into batches of about BATCH_WEIGHT lines, the threads
   take batches in order and print each into memory, and a batch goes to
   stdout as soon as the batches before it are out.  PRINT must only
   read what other batches' PRINT may touch, and keep any cache in its
   thread's STATE.  */
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
  unsigned nthreads;      /* 0 for the default, gp_threads () */
} OutJob;

void out_print_items (const OutJob *job);

#endif
