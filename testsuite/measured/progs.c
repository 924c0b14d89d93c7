/* progs.c - the programs of the --measured-time tests, one a mode, each
   built so that the share of a callee's time that each caller's calls
   take is known (testsuite/measured/measured.sh checks what the call
   stacks measure against it):

     easyhard N   easy() and hard() call work() equally often; hard's
                  calls do 199 times the work of easy's (99.5%)
     recursive N  light() and heavy() call rec(), which recurses ten
                  levels; every level under heavy() works 3 times as
                  long as under light() (75% : 25%)
     mutual N     small() and big() call even(), which calls odd(),
                  which calls even() ... ten levels; big's levels work 3
                  times as long (75% : 25% of the cycle)
     deep N       a chain of 100 calls, the work at its end
     threads N    easyhard in two threads at once

   N scales the running time.  Calls are kept from being inlined or made
   tail calls (-fno-optimize-sibling-calls), which would hide arcs.  */

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

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
  work (100);
}

__attribute__ ((noinline)) void
hard (void)
{
  work (19900);
}

static void
easyhard (long n)
{
  for (long i = 0; i < n; i++)
    {
      easy ();
      hard ();
    }
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
  rec (9, 400);
}

__attribute__ ((noinline)) void
heavy (void)
{
  rec (9, 1200);
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
  even (9, 400);
}

__attribute__ ((noinline)) void
big (void)
{
  even (9, 1200);
}

__attribute__ ((noinline)) void
chain (int level)
{
  if (level > 0)
    chain (level - 1);
  else
    spin (200000);
}

static void *
easyhard_thread (void *arg)
{
  easyhard (*(long *) arg);
  return NULL;
}

int
main (int argc, char **argv)
{
  long n = argc > 2 ? atol (argv[2]) : 1;
  const char *mode = argc > 1 ? argv[1] : "";

  if (strcmp (mode, "easyhard") == 0)
    easyhard (n * 20000);
  else if (strcmp (mode, "recursive") == 0)
    for (long i = 0; i < n * 20000; i++)
      {
        light ();
        heavy ();
      }
  else if (strcmp (mode, "mutual") == 0)
    for (long i = 0; i < n * 20000; i++)
      {
        small ();
        big ();
      }
  else if (strcmp (mode, "deep") == 0)
    for (long i = 0; i < n * 1000; i++)
      chain (100);
  else if (strcmp (mode, "threads") == 0)
    {
      pthread_t t[2];
      long each = n * 10000;
      for (int i = 0; i < 2; i++)
        if (pthread_create (&t[i], NULL, easyhard_thread, &each) != 0)
          return 1;
      for (int i = 0; i < 2; i++)
        pthread_join (t[i], NULL);
    }
  else
    return 2;
  return 0;
}
