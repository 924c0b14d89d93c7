/* manythreads.c - thread start cost and record reuse under libgmon.

   usage: manythreads start N   N threads call a() and wait on a barrier
                                 together; prints "start SECONDS", the
                                 wall time until all have started
          manythreads churn N   N threads in waves of 16, each calls a()
                                 and ends; prints "grew KIB", how much the
                                 address space grew from after the first
                                 wave to the end  */

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static pthread_barrier_t all_started;
static volatile int sink;

__attribute__ ((noinline)) void
a (void)
{
  sink++;
}

static void *
waiter (void *arg)
{
  a ();
  pthread_barrier_wait (&all_started);
  return arg;
}

static void *
ender (void *arg)
{
  a ();
  return arg;
}

static double
now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}

/* VmSize from /proc/self/status, in KiB.  */
static long
vm_size (void)
{
  char line[256];
  long kib = -1;
  FILE *f = fopen ("/proc/self/status", "r");
  if (f == NULL)
    return -1;
  while (fgets (line, sizeof line, f) != NULL)
    if (strncmp (line, "VmSize:", 7) == 0)
      kib = atol (line + 7);
  fclose (f);
  return kib;
}

/* The process's CPU seconds so far, all threads.  */
static double
cpu_now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}

static int
start (int n, pthread_attr_t *attr)
{
  pthread_t *t = calloc ((size_t) n, sizeof *t);
  if (t == NULL
      || pthread_barrier_init (&all_started, NULL, (unsigned) n + 1) != 0)
    return 1;
  double begin = now (), cpu = cpu_now ();
  for (int i = 0; i < n; i++)
    if (pthread_create (&t[i], attr, waiter, NULL) != 0)
      return 1;
  pthread_barrier_wait (&all_started);
  printf ("start %.3f %.3f\n", now () - begin, cpu_now () - cpu);
  for (int i = 0; i < n; i++)
    pthread_join (t[i], NULL);
  return 0;
}

static int
churn (int n, pthread_attr_t *attr)
{
  long first = -1;
  for (int done = 0; done < n; done += 16)
    {
      pthread_t t[16];
      for (int i = 0; i < 16; i++)
        if (pthread_create (&t[i], attr, ender, NULL) != 0)
          return 1;
      for (int i = 0; i < 16; i++)
        pthread_join (t[i], NULL);
      if (first < 0)
        first = vm_size ();
    }
  printf ("grew %ld\n", vm_size () - first);
  return 0;
}

int
main (int argc, char **argv)
{
  pthread_attr_t attr;
  int n = argc == 3 ? atoi (argv[2]) : 0;
  if (n < 1 || pthread_attr_init (&attr) != 0
      || pthread_attr_setstacksize (&attr, 256 * 1024) != 0)
    return 2;
  if (strcmp (argv[1], "start") == 0)
    return start (n, &attr);
  if (strcmp (argv[1], "churn") == 0)
    return churn (n, &attr);
  return 2;
}
