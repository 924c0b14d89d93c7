/* progs.c - the programs of the --measured-time tests, one a mode, each
   built so that the share of a callee's time that each caller's calls
   take is known (testsuite/measured/measured.sh checks what the call
   stacks measure against it):

     easyhard S   easy() and hard() call work() about equally often;
                  hard's calls do 199 times the work of easy's
     recursive S  light() and heavy() call rec(), which recurses ten
                  levels; every level under heavy() works 3 times as
                  long as under light()
     mutual S     small() and big() call even(), which calls odd(),
                  which calls even() ... ten levels; big's levels work 3
                  times as long
     deep S       a chain of 100 calls, the work at its end

   Two threads run the mode, each until it has used S seconds of CPU
   time, so that a run gets as many samples under qemu as natively.
   They pick the caller of each call at random: the same order each
   time would be sampled at the same few places of it by a timer that
   fires every so many calls, and the shares measured would depend on
   where those fall.
   Calls are kept from being inlined or made tail calls (built with
   -fno-optimize-sibling-calls), which would hide arcs.  */

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static volatile long sink;

__attribute__ ((noinline)) void
spin (long n)
{
  for (long i = 0; i < n; i++)
    sink += i;
}

__attribute__ ((noinline)) void
work (long n)
{
  spin (n);
}

__attribute__ ((noinline)) void
easy (void)
{
  work (10000);
}

__attribute__ ((noinline)) void
hard (void)
{
  work (1990000);
}

__attribute__ ((noinline)) void
rec (int level, long n)
{
  spin (n);
  if (level > 0)
    rec (level - 1, n);
}

__attribute__ ((noinline)) void
light (void)
{
  rec (9, 40000);
}

__attribute__ ((noinline)) void
heavy (void)
{
  rec (9, 120000);
}

void odd (int level, long n);

__attribute__ ((noinline)) void
even (int level, long n)
{
  spin (n);
  if (level > 0)
    odd (level - 1, n);
}

__attribute__ ((noinline)) void
odd (int level, long n)
{
  spin (n);
  if (level > 0)
    even (level - 1, n);
}

__attribute__ ((noinline)) void
small (void)
{
  even (9, 40000);
}

__attribute__ ((noinline)) void
big (void)
{
  even (9, 120000);
}

__attribute__ ((noinline)) void
chain (int level)
{
  if (level > 0)
    chain (level - 1);
  else
    spin (200000);
}

static double
cpu_seconds (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}

static const char *mode;
static double seconds;

static void *
run_mode (void *arg)
{
  uint32_t r = (uint32_t) (uintptr_t) &r | 1;   /* xorshift32 */

  while (cpu_seconds () < seconds)
    {
      int first;

      r ^= r << 13;
      r ^= r >> 17;
      r ^= r << 5;
      first = r & 1;
      if (strcmp (mode, "easyhard") == 0)
        first ? easy () : hard ();
      else if (strcmp (mode, "recursive") == 0)
        first ? light () : heavy ();
      else if (strcmp (mode, "mutual") == 0)
        first ? small () : big ();
      else
        chain (100);
    }
  return arg;
}

int
main (int argc, char **argv)
{
  static const char *const modes[] = { "easyhard", "recursive", "mutual",
                                       "deep" };
  pthread_t t[2];
  int known = 0;

  mode = argc > 1 ? argv[1] : "";
  seconds = argc > 2 ? atof (argv[2]) : 1;
  for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++)
    known |= strcmp (mode, modes[i]) == 0;
  if (!known)
    return 2;
  for (int i = 0; i < 2; i++)
    if (pthread_create (&t[i], NULL, run_mode, NULL) != 0)
      return 1;
  for (int i = 0; i < 2; i++)
    pthread_join (t[i], NULL);
  return 0;
}
