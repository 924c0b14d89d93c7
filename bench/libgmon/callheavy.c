/* callheavy.c - the benchmark's workload: a loop that does nothing but
   instrumented calls (loop -> mid -> 2 x leaf, three calls per
   iteration), run by one or more threads.

   usage: callheavy THREADS ITERATIONS_PER_THREAD

   The functions are kept out of line and apart from each other so that
   the compiler cannot fold the calls away.  */

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static long iterations;

__attribute__ ((noinline)) long
leaf (long x)
{
  __asm__ volatile ("");
  return x ^ (x >> 3);
}

__attribute__ ((noinline)) long
mid (long x)
{
  __asm__ volatile ("");
  return leaf (x) + leaf (x + 1);
}

static void *
worker (void *arg)
{
  long sum = 0;
  for (long i = 0; i < iterations; i++)
    sum += mid (i);
  *(long *) arg = sum;
  return NULL;
}

int
main (int argc, char **argv)
{
  if (argc != 3)
    {
      fprintf (stderr, "usage: %s THREADS ITERATIONS\n", argv[0]);
      return 2;
    }
  int threads = atoi (argv[1]);
  iterations = atol (argv[2]);
  if (threads < 1 || threads > 64 || iterations < 1)
    {
      fprintf (stderr, "%s: bad arguments\n", argv[0]);
      return 2;
    }
  pthread_t tid[64];
  long sums[64];
  for (int i = 0; i < threads; i++)
    if (pthread_create (&tid[i], NULL, worker, &sums[i]) != 0)
      {
        fprintf (stderr, "%s: cannot create a thread\n", argv[0]);
        return 1;
      }
  long total = 0;
  for (int i = 0; i < threads; i++)
    {
      pthread_join (tid[i], NULL);
      total += sums[i];
    }
  /* Printing the sum keeps the work observable.  */
  printf ("%ld\n", total);
  return 0;
}
