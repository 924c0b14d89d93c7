/* threadstart.c - how long it takes to start many threads that each
   call instrumented code, all of them alive at once.

   usage: threadstart THREADS

   Every thread calls an instrumented function (under libgmon its first
   call gives it a record and a sampling timer), then waits on a barrier
   with the others.  Prints "start SECONDS": the wall time from the
   first pthread_create until every thread has reached the barrier.  */

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static pthread_barrier_t all_started;
static volatile int sink;

__attribute__ ((noinline)) void
work (void)
{
  sink++;
}

static void *
body (void *arg)
{
  work ();
  pthread_barrier_wait (&all_started);
  return arg;
}

static double
now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}

int
main (int argc, char **argv)
{
  int n = argc > 1 ? atoi (argv[1]) : 4000;
  pthread_t *t = calloc ((size_t) n, sizeof *t);
  pthread_attr_t attr;
  if (n < 1 || t == NULL || pthread_attr_init (&attr) != 0
      || pthread_attr_setstacksize (&attr, 256 * 1024) != 0
      || pthread_barrier_init (&all_started, NULL, (unsigned) n + 1) != 0)
    return 2;
  double start = now ();
  for (int i = 0; i < n; i++)
    if (pthread_create (&t[i], &attr, body, NULL) != 0)
      {
        fprintf (stderr, "threadstart: thread %d not created\n", i);
        return 1;
      }
  pthread_barrier_wait (&all_started);
  printf ("start %.3f\n", now () - start);
  for (int i = 0; i < n; i++)
    pthread_join (t[i], NULL);
  return 0;
}
