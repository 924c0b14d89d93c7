/* dumps.c - a program that runs for a while, for the dumps taken while it
   runs and at its end (dumps.sh).

   usage: dumps MODE [ARGS]
     server T SECONDS  T threads serve requests in rounds, one a second,
                       for SECONDS seconds, under LIBGMON_INTERVAL=1:
                       each round ends 0.3 s before a whole second (when
                       the snapshots are taken) and the next starts 0.2 s
                       after it, so every snapshot finds the threads idle.
                       It prints "start NS" (CLOCK_REALTIME, ns), then
                       after each round "round NS HANDLED":
                       the time and the requests handled so far, each one a call of handle(), which
                       calls parse() twice and respond() once.  It ends
                       0.3 s after the last round's whole second.
     signal            a() 10 times, LIBGMON_DUMP_SIGNAL (SIGUSR2) to
                       itself, waits for snapshot 1; b() 5 times, the
                       signal again, waits for snapshot 2; c() 3 times.
     toggle            a() 10 times, LIBGMON_TOGGLE_SIGNAL (SIGUSR1),
                       b() 20 times and spin() for 0.3 s of CPU time,
                       SIGUSR1 again, c() 5 times.
     fork              the child calls a() 10 times, sends itself the
                       dump signal and waits for its snapshot; prints
                       "child PID".
     segv|bus|abort|term|_exit|_Exit|own
                       a() 10 times, then dies of that signal, calls
                       _exit (3) or _Exit (3), or installs a SIGSEGV
                       handler of its own (which calls _exit (7)) and
                       faults.  It prints "survived" and exits 0 if it
                       does not die.  */

#define _GNU_SOURCE
#include <glob.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define NOINLINE __attribute__ ((noinline, noclone))
#define NS 1000000000LL

static volatile long sink;

NOINLINE void a (void) { sink++; }
NOINLINE void b (void) { sink++; }
NOINLINE void c (void) { sink++; }

static void
times (void (*f) (void), int n)
{
  for (int i = 0; i < n; i++)
    f ();
}

static long long
now_ns (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_REALTIME, &ts);
  return ts.tv_sec * NS + ts.tv_nsec;
}

static void
sleep_until (long long ns)
{
  struct timespec ts = { (time_t) (ns / NS), (long) (ns % NS) };
  while (clock_nanosleep (CLOCK_REALTIME, TIMER_ABSTIME, &ts, NULL) != 0)
    ;
}

/* ---- server ---------------------------------------------------------- */

NOINLINE void parse (void) { sink++; }
NOINLINE void respond (void) { sink++; }

NOINLINE void
handle (void)
{
  parse ();
  parse ();
  respond ();
}

enum { MAX_THREADS = 64 };

static struct
{
  long handled;
  char pad[64 - sizeof (long)];
} served[MAX_THREADS];

static pthread_barrier_t round_start, round_end;
static long long stop_at;
static int rounds_left;

static void *
worker (void *arg)
{
  long *handled = arg;
  for (;;)
    {
      pthread_barrier_wait (&round_start);
      if (rounds_left == 0)
        return NULL;
      while (now_ns () < stop_at)
        for (int i = 0; i < 64; i++)
          {
            handle ();
            ++*handled;
          }
      pthread_barrier_wait (&round_end);
    }
}

static int
server (int t, int seconds)
{
  pthread_t tid[MAX_THREADS];
  if (t < 1 || t > MAX_THREADS || seconds < 1)
    return 2;
  pthread_barrier_init (&round_start, NULL, (unsigned) t + 1);
  pthread_barrier_init (&round_end, NULL, (unsigned) t + 1);
  rounds_left = seconds;
  for (int i = 0; i < t; i++)
    if (pthread_create (&tid[i], NULL, worker, &served[i].handled) != 0)
      return 1;
  /* The whole seconds at which the snapshots fall from now on.  */
  long long start = now_ns (), second = (start / NS + 1) * NS;
  printf ("start %lld\n", start);
  for (int k = 0; k < seconds; k++, second += NS)
    {
      long long from = second - 8 * NS / 10;
      if (now_ns () < from)
        sleep_until (from);
      stop_at = second - 3 * NS / 10;
      pthread_barrier_wait (&round_start);
      pthread_barrier_wait (&round_end);
      long total = 0;
      for (int i = 0; i < t; i++)
        total += served[i].handled;
      printf ("round %lld %ld\n", now_ns (), total);
      fflush (stdout);
    }
  sleep_until (second - NS + 3 * NS / 10);
  rounds_left = 0;
  pthread_barrier_wait (&round_start);
  for (int i = 0; i < t; i++)
    pthread_join (tid[i], NULL);
  return 0;
}

/* ---- the other modes --------------------------------------------------- */

/* Wait (10 s at most) for snapshot SEQ of this process in the current
   directory, the default name: "gmon.out.<pid>.<seq>.<time>".  */
static int
wait_snapshot (int seq)
{
  char pattern[64];
  snprintf (pattern, sizeof pattern, "gmon.out.%d.%08d.*[0-9]", (int) getpid (),
            seq);
  for (int i = 0; i < 1000; i++)
    {
      glob_t g;
      int r = glob (pattern, 0, NULL, &g);
      globfree (&g);
      if (r == 0)
        return 0;
      usleep (10000);
    }
  fprintf (stderr, "no snapshot %s\n", pattern);
  return 1;
}

NOINLINE void
spin (double seconds)
{
  struct timespec ts;
  double end;
  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  end = ts.tv_sec + ts.tv_nsec / 1e9 + seconds;
  /* Mostly in its own code, rather than in the clock's system call
     (spin.c says why that matters).  */
  do
    {
      for (int i = 0; i < 5000000; i++)
        sink++;
      clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
    }
  while (ts.tv_sec + ts.tv_nsec / 1e9 < end);
}

static void
own_handler (int sig)
{
  (void) sig;
  static const char msg[] = "own handler\n";
  if (write (1, msg, sizeof msg - 1) < 0)
    _exit (8);
  _exit (7);
}

static int
die (const char *how)
{
  times (a, 10);
  if (strcmp (how, "segv") == 0)
    *(volatile int *) 0 = 1;
  else if (strcmp (how, "bus") == 0)
    raise (SIGBUS);
  else if (strcmp (how, "abort") == 0)
    abort ();
  else if (strcmp (how, "term") == 0)
    raise (SIGTERM);
  else if (strcmp (how, "_exit") == 0)
    _exit (3);
  else if (strcmp (how, "_Exit") == 0)
    _Exit (3);
  else if (strcmp (how, "own") == 0)
    {
      struct sigaction sa;
      memset (&sa, 0, sizeof sa);
      sa.sa_handler = own_handler;
      sigaction (SIGSEGV, &sa, NULL);
      *(volatile int *) 0 = 1;
    }
  else
    return 2;
  printf ("survived\n");
  return 0;
}

int
main (int argc, char **argv)
{
  const char *mode = argc > 1 ? argv[1] : "";
  if (strcmp (mode, "server") == 0 && argc == 4)
    return server (atoi (argv[2]), atoi (argv[3]));
  if (argc != 2)
    {
      fprintf (stderr, "usage: %s MODE [ARGS]\n", argv[0]);
      return 2;
    }
  if (strcmp (mode, "signal") == 0)
    {
      times (a, 10);
      kill (getpid (), SIGUSR2);
      if (wait_snapshot (1))
        return 1;
      times (b, 5);
      kill (getpid (), SIGUSR2);
      if (wait_snapshot (2))
        return 1;
      times (c, 3);
      return 0;
    }
  if (strcmp (mode, "toggle") == 0)
    {
      times (a, 10);
      raise (SIGUSR1);
      times (b, 20);
      spin (0.3);
      raise (SIGUSR1);
      times (c, 5);
      return 0;
    }
  if (strcmp (mode, "fork") == 0)
    {
      pid_t child = fork ();
      int status;
      if (child < 0)
        return 1;
      if (child == 0)
        {
          times (a, 10);
          kill (getpid (), SIGUSR2);
          return wait_snapshot (1);
        }
      printf ("child %d\n", (int) child);
      return waitpid (child, &status, 0) == child && status == 0 ? 0 : 1;
    }
  return die (mode);
}
