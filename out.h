/* out.h - buffered, formatted output of the reports to stdout.

   A call graph of a big program prints hundreds of thousands of lines;
   printf's format parsing and stdio's per-call overhead then dominate
   the run.  Reports write through these functions into one buffer,
   which goes to stdout in large pieces.  The number formatters write the
   same bytes as the printf conversions named beside them.  */

#ifndef GPROF_OUT_H
#define GPROF_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

void out_write (const char *s, size_t n);
void out_str (const char *s);                         /* %s */
void out_char (char c);
void out_spaces (int n);
/* %W.Ws, or %-W.Ws when LEFT: S cut to W characters and padded to W.  */
void out_field (const char *s, int width, bool left);
/* %Wlu, or %-Wlu when LEFT.  */
void out_ulong (unsigned long v, int width, bool left);
/* %d */
void out_int (int v);
/* %W.Pf, as glibc rounds it (to nearest, ties to even, on the exact
   binary value).  */
void out_fixed (double x, int width, int prec);
/* printf into the buffer; returns the number of bytes written.  */
int out_printf (const char *fmt, ...) __attribute__ ((format (printf, 1, 2)));
/* fprintf, through the buffer when F is stdout.  */
int out_fprintf (FILE *f, const char *fmt, ...)
  __attribute__ ((format (printf, 2, 3)));
/* Hand the buffer to stdout (before anything writes to stdout directly,
   and before exiting).  */
void out_flush (void);

#endif
