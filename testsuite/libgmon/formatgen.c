/* formatgen.c - feed libgmon's writer values wider than the file formats
   hold, for gprof to read back.

   usage: formatgen gnu|bsd FILE

   Linked with libgmon.a and built without PIE (load bias 0), it writes a
   profile of itself: one arc caller -> callee counted 5,000,000,000 times
   (more than a 32-bit count), and 200,000 samples at 1000 Hz in burn()
   (more than a 16-bit bin).  The GNU format must split both over several
   records that gprof sums; the BSD format has room for the count on
   64-bit targets and clips the bin at 65535.  It prints what the writer
   reports, for the test to compare.  */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

extern const char __executable_start[], etext[];

#define NOINLINE __attribute__ ((noinline, noclone))

NOINLINE void
callee (void)
{
  __asm__ volatile ("");
}

NOINLINE void
caller (void)
{
  callee ();
  __asm__ volatile ("");
}

NOINLINE void
burn (void)
{
  __asm__ volatile ("");
}

int
main (int argc, char **argv)
{
  if (argc != 3)
    {
      fprintf (stderr, "usage: %s gnu|bsd FILE\n", argv[0]);
      return 2;
    }
  gm_lowpc = (uintptr_t) __executable_start & ~(uintptr_t) 3;
  gm_highpc = ((uintptr_t) etext + 3) & ~(uintptr_t) 3;
  gm_exe_base = 0;

  struct gm_hist hist;
  hist.nbins = (gm_highpc - gm_lowpc) >> 2;
  hist.bin = calloc (hist.nbins, sizeof *hist.bin);
  hist.hz = 1000;
  hist.sampling = 1;
  if (hist.bin == NULL)
    return 1;
  hist.bin[((uintptr_t) burn - gm_lowpc) >> 2] = 200000;

  /* A caller address one byte into caller(): inside it, as a return
     address would be.  */
  struct gm_arc arc = { (uintptr_t) caller + 1, (uintptr_t) callee,
                        5000000000ULL };
  struct gm_arcs arcs = { &arc, 1, 0, 0 };
  struct gm_written w;
  struct gm_image img;
  int r = gm_image_build (&img,
                          strcmp (argv[1], "bsd") == 0 ? GM_FORMAT_BSD
                                                       : GM_FORMAT_GNU,
                          &arcs, &hist, &w);
  if (r == 0)
    r = gm_image_store (&img, argv[2]);
  if (r != 0)
    {
      fprintf (stderr, "%s: cannot write %s: %s\n", argv[0], argv[2],
               strerror (-r));
      return 1;
    }
  printf ("records %zu calls %llu saturated %d\n", w.arcs, w.calls,
          w.saturated);
  return 0;
}
