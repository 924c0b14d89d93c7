/* threads.c - work done in four threads and in the main thread.  */

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static volatile unsigned long sink;
static int rounds = 2000;

__attribute__ ((noinline)) static unsigned long
crunch (int n)
{
  unsigned long s = 0;

  for (int i = 0; i < n; i++)
    s += (unsigned long) i * (unsigned long) i;
  return s;
}

__attribute__ ((noinline)) static void
thread_step (int k)
{
  sink += crunch (2000 + k);
}

static void *
worker (void *arg)
{
  int id = (int) (long) arg;

  for (int i = 0; i < rounds; i++)
    thread_step (id);
  return NULL;
}

int
main (int argc, char **argv)
{
  pthread_t t[4];

  if (argc > 1)
    rounds = atoi (argv[1]);
  for (long i = 0; i < 4; i++)
    pthread_create (&t[i], NULL, worker, (void *) i);
  for (int i = 0; i < rounds * 4; i++)
    sink += crunch (3000);
  for (int i = 0; i < 4; i++)
    pthread_join (t[i], NULL);
  printf ("%lu\n", sink % 1000);
  return 0;
}
