/* threads.c - exact call counts under threads.

   usage: threads T N
   T threads start together (a barrier maximises overlap) and each calls
   mid() N times; mid() calls leaf() twice.  The profile must show
   mid = T*N and leaf = 2*T*N exactly: glibc's gmon drops 50-90% of the
   calls here.  */

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static long n_calls;
static pthread_barrier_t start;

/* noinline plus an empty asm: the calls must really happen.  */
__attribute__ ((noinline)) long
leaf (long x)
{
  __asm__ volatile ("");
  return x + 1;
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
  pthread_barrier_wait (&start);
  for (long i = 0; i < n_calls; i++)
    sum += mid (i);
  *(long *) arg = sum;
  return NULL;
}

int
main (int argc, char **argv)
{
  if (argc != 3)
    {
      fprintf (stderr, "usage: %s THREADS CALLS\n", argv[0]);
      return 2;
    }
  int t = atoi (argv[1]);
  n_calls = atol (argv[2]);
  if (t < 1 || t > 64)
    return 2;
  pthread_t tid[64];
  long sum[64];
  pthread_barrier_init (&start, NULL, (unsigned) t);
  for (int i = 0; i < t; i++)
    if (pthread_create (&tid[i], NULL, worker, &sum[i]) != 0)
      {
        perror ("pthread_create");
        return 1;
      }
  long total = 0;
  for (int i = 0; i < t; i++)
    {
      pthread_join (tid[i], NULL);
      total += sum[i];
    }
  printf ("%ld\n", total);
  return 0;
}
