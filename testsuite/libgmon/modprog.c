/* modprog.c - the program of the whole-process test: calls libA
   (modlib.c), which loads the plugin (modplug.c), unloads it and loads
   it again at another base; spends most of its time in libm (and in
   libz, built with -DMOD_ZLIB); prints the arcs it counted itself and
   the plugin's two bases.

   usage: modprog PLUGIN CALLS MATH  */

#include <math.h>
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
  static unsigned char in[65536], out[70000];
  for (size_t i = 0; i < sizeof in; i++)
    in[i] = (unsigned char) (i * 7 ^ i >> 5);
  for (long i = 0; i < n / 20000; i++)
    {
      uLongf len = sizeof out;
      if (compress (out, &len, in, sizeof in) == Z_OK)
        sum += len;
    }
#endif
  return sum;
}

int
main (int argc, char **argv)
{
  if (argc != 4)
    {
      fprintf (stderr, "usage: %s PLUGIN CALLS MATH\n", argv[0]);
      return 2;
    }
  long calls = atol (argv[2]);
  long sum = 0;
  unsigned long bases[2];
  for (int load = 0; load < 2; load++)
    {
      mod_count[MAIN_A_LOAD]++;
      if (a_load (argv[1]) != 0)
        return 1;
      mod_count[MAIN_A_BASE]++;
      bases[load] = a_base ();
      for (long i = 0; i < calls * (load + 1); i++)
        {
          mod_count[MAIN_PROG_LOOP]++;
          sum += prog_loop (i);
        }
      mod_count[MAIN_A_UNLOAD]++;
      a_unload (load == 0);
    }
  mod_count[MAIN_PROG_MATH]++;
  sum += (long) prog_math (atol (argv[3]));
  /* A call of libA with the plugin gone.  */
  mod_count[MAIN_PROG_LOOP]++;
  sum += prog_loop (1);
  for (int i = 0; i < MOD_ARCS; i++)
    printf ("arc %s %ld\n", names[i], mod_count[i]);
  printf ("bases %lx %lx\n", bases[0], bases[1]);
  printf ("sum %ld\n", sum);
  return 0;
}
