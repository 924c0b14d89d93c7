/* spin.c - per-thread CPU time, measured and sampled.

   usage: spin [fork|replace|ignore|block]

   The main thread and three others each burn a different amount of CPU
   time in a function of their own (spin_main, spin_a, spin_b, spin_c),
   all at the same time, and print what they used according to
   CLOCK_THREAD_CPUTIME_ID: "spin_a 0.300".  The profile must charge each
   function with its thread's time.  With "fork", a child process burns
   0.2 s in spin_child and writes its own profile.  With "replace",
   "ignore" or "block", the program takes SIGPROF from libgmon after
   start-up (its own handler, SIG_IGN, or blocked in the main thread),
   then only the main thread burns 0.4 s.  */

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define NOINLINE __attribute__ ((noinline, noclone))

static double
thread_seconds (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}

/* Burn until this thread has used `seconds' of CPU.  Inlined, so that
   the time is spent in each spin_ function itself.  The clock is read
   every five million iterations (1.5 ms on the test machine) only:
   reading it is a system call, outside the function.  Read every 60 us,
   on a loaded virtual machine, 4% to 9% of the samples went to libc,
   where late signals carrying many periods found the thread returning
   from the call.  */
static inline __attribute__ ((always_inline)) double
burn (double seconds)
{
  static volatile unsigned long sink;
  double start = thread_seconds ();
  while (thread_seconds () - start < seconds)
    for (unsigned long i = 0; i < 5000000; i++)
      sink += i;
  return thread_seconds () - start;
}

NOINLINE double spin_main (void) { return burn (0.40); }
NOINLINE double spin_a (void) { return burn (0.30); }
NOINLINE double spin_b (void) { return burn (0.20); }
NOINLINE double spin_c (void) { return burn (0.10); }
NOINLINE double spin_child (void) { return burn (0.20); }

static double used[3];
static volatile sig_atomic_t profs;

static void
on_prof (int sig)
{
  profs++;
}

static double (*const spin[3]) (void) = { spin_a, spin_b, spin_c };

static void *
body (void *arg)
{
  int i = (int) (long) arg;
  used[i] = spin[i] ();
  return NULL;
}

int
main (int argc, char **argv)
{
  if (argc > 1 && strcmp (argv[1], "fork") == 0)
    {
      pid_t child = fork ();
      if (child == 0)
        {
          printf ("child %d\nspin_child %.3f\n", (int) getpid (),
                  spin_child ());
          return 0;
        }
      int status;
      return child < 0 || waitpid (child, &status, 0) != child || status != 0;
    }
  if (argc > 1)
    {
      struct sigaction sa;
      sigset_t prof;
      memset (&sa, 0, sizeof sa);
      sa.sa_handler = strcmp (argv[1], "replace") == 0 ? on_prof : SIG_IGN;
      sigemptyset (&prof);
      sigaddset (&prof, SIGPROF);
      if (strcmp (argv[1], "block") == 0
          ? pthread_sigmask (SIG_BLOCK, &prof, NULL) != 0
          : sigaction (SIGPROF, &sa, NULL) != 0)
        return 1;
      printf ("spin_main %.3f\n", spin_main ());
      return 0;
    }
  pthread_t t[3];
  for (long i = 0; i < 3; i++)
    if (pthread_create (&t[i], NULL, body, (void *) i) != 0)
      return 1;
  double m = spin_main ();
  for (int i = 0; i < 3; i++)
    pthread_join (t[i], NULL);
  printf ("spin_main %.3f\nspin_a %.3f\nspin_b %.3f\nspin_c %.3f\n", m,
          used[0], used[1], used[2]);
  return 0;
}
