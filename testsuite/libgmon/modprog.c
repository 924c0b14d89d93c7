/* modprog.c - the program of the whole-process test: calls libA
   (modlib.c), which loads the plugin (modplug.c), unloads it and loads
   it again at another base, unloads it and loads a copy of it under
   another name (PLUGIN2: another module), normally where the plugin
   was; spends most of its time in libm (and in libz, built with
   -DMOD_ZLIB); prints the arcs it counted itself, the three loads'
   bases and the calls of plug_entry in each.

   usage: modprog PLUGIN CALLS MATH PLUGIN2 [segv]
   segv: die of SIGSEGV at the end (libgmon writes the profile then).  */

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#ifdef MOD_ZLIB
# include <zlib.h>
#endif

#include "modtest.h"

static const char *const names[MOD_ARCS] = { MOD_ARC_NAMES };

__attribute__ ((noinline)) static long
prog_hook (long x)
{
  __asm__ volatile ("");
  return x >> 1;
}

__attribute__ ((noinline)) static long
prog_local (long x)
{
  __asm__ volatile ("");
  return x + 1;
}

__attribute__ ((noinline)) static long
prog_loop (long x)
{
  mod_count[PROG_LOOP_PROG_LOCAL]++;
  long r = prog_local (x);
  mod_count[PROG_LOOP_A_RUN]++;
  return r + a_run (x, prog_hook);
}

/* Time in libm (and libz): calls the program makes but cannot count
   (the libraries are not compiled with -pg), only sample.  */
__attribute__ ((noinline)) static double
prog_math (long n)
{
  volatile double sum = 0;
  for (long i = 0; i < n; i++)
    sum += exp (sin ((double) i) * 0.5) + pow (1.0 + i % 7, 0.37);
#ifdef MOD_ZLIB
  /* Checksums: their loops are in functions libz exports, so that a
     profile without libz's debug symbols still names them (compress's
     work is in functions it does not export).  */
  static unsigned char in[65536];
  for (size_t i = 0; i < sizeof in; i++)
    in[i] = (unsigned char) (i * 7 ^ i >> 5);
  for (long i = 0; i < n / 2000; i++)
    sum += (double) (crc32 (0, in, sizeof in) ^ adler32 (1, in, sizeof in));
#endif
  return sum;
}

/* One load of the plugin (path), calls of prog_loop, and the unload;
   returns the calls of plug_entry.  The copy of the plugin is normally
   loaded where the plugin was, and its calls have the plugin's
   addresses: only the module epoch tells them apart, if every call
   between the unload and the copy's is one libgmon has seen in the
   epoch before (a new call would make the thread convert its keys
   anyway).  So one call site for every load (a function, called from
   a loop the compiler cannot unroll), and libA's a_mark right after
   each unload.  */
__attribute__ ((noinline)) static long
one_load (const char *path, long calls, int load, unsigned long *base,
          long *sum)
{
  long before = mod_count[A_RUN_PLUG_ENTRY];
  mod_count[ONE_LOAD_A_LOAD]++;
  if (a_load (path) != 0)
    exit (1);
  mod_count[ONE_LOAD_A_BASE]++;
  *base = a_base ();
  for (long i = 0; i < calls; i++)
    {
      mod_count[ONE_LOAD_PROG_LOOP]++;
      *sum += prog_loop (i);
    }
  long entries = mod_count[A_RUN_PLUG_ENTRY] - before;
  mod_count[ONE_LOAD_A_UNLOAD]++;
  a_unload (load == 0);
  return entries;
}

static volatile int loads = 3;

int
main (int argc, char **argv)
{
  if (argc != 5 && argc != 6)
    {
      fprintf (stderr, "usage: %s PLUGIN CALLS MATH PLUGIN2 [segv]\n",
               argv[0]);
      return 2;
    }
  long calls = atol (argv[2]);
  long sum = 0;
  unsigned long bases[3];
  long entries[3];
  for (int load = 0; load < loads; load++)
    {
      mod_count[MAIN_ONE_LOAD]++;
      entries[load] = one_load (argv[load < 2 ? 1 : 4], calls * (load + 1),
                                load, &bases[load], &sum);
    }
  mod_count[MAIN_PROG_MATH]++;
  sum += (long) prog_math (atol (argv[3]));
  /* A call of libA with the plugin gone.  */
  mod_count[MAIN_PROG_LOOP]++;
  sum += prog_loop (1);
  for (int i = 0; i < MOD_ARCS; i++)
    printf ("arc %s %ld\n", names[i], mod_count[i]);
  printf ("bases %lx %lx %lx\n", bases[0], bases[1], bases[2]);
  printf ("entries %ld %ld %ld\n", entries[0], entries[1], entries[2]);
  printf ("sum %ld\n", sum);
  if (argc == 6)
    {
      fflush (stdout);
      raise (SIGSEGV);
    }
  return 0;
}
