/* twocallers.c - the program of testsuite/export/measured.sh: easy() and
   hard() call work() equally often, and hard's calls do 99 times the
   work of easy's, so 99% of work's time is under hard.  gprof's rule
   shares work's time by the calls, half to each; the call stacks that
   libgmon records show where it went.

   It runs until it has used S seconds of CPU time (its argument), then
   ending() calls finish(), which works S / 4 seconds more and exits.
   That call is ending's last instruction (the test builds with
   -fno-toplevel-reorder -falign-functions=1), so that its return
   address is the first byte of the next function, spare(), which the
   program never calls: the call graph, whose arcs GNU's rule takes from
   return addresses, has the arc spare -> finish; the stacks must name
   ending.

   The caller of each call of work() is picked at random: a fixed order
   would be sampled at the same few places by a timer that fires every so
   many calls.  Built with -fno-optimize-sibling-calls, so that no call
   is made a jump, which would hide its caller.  */

#include <stdlib.h>
#include <time.h>

static volatile long sink;

__attribute__ ((noinline)) void
work (long n)
{
  for (long i = 0; i < n; i++)
    sink += i;
}

__attribute__ ((noinline)) void
easy (void)
{
  work (2000);
}

__attribute__ ((noinline)) void
hard (void)
{
  work (198000);
}

static double
cpu_seconds (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}

__attribute__ ((noinline, noreturn)) void
finish (double seconds)
{
  double until = cpu_seconds () + seconds;

  while (cpu_seconds () < until)
    for (int i = 0; i < 10000; i++)
      sink += i;
  exit (0);
}

/* Returns when there is nothing to finish, so that its caller goes on
   after the call, and its own call of finish() is its end.  */
__attribute__ ((noinline)) void
ending (double seconds)
{
  if (seconds > 0)
    finish (seconds);
}

__attribute__ ((noinline)) void
spare (void)
{
  sink = 0;
}

int
main (int argc, char **argv)
{
  double seconds = argc > 1 ? atof (argv[1]) : 1.0;
  double until = cpu_seconds () + seconds;
  unsigned long x = 88172645463325252UL;

  while (cpu_seconds () < until)
    for (int i = 0; i < 100; i++)
      {
        /* xorshift64: the caller of each call at random.  */
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        if (x & 1)
          hard ();
        else
          easy ();
      }
  ending (seconds / 4);
  return 1;
}
