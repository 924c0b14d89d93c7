/* lifecycle.c - one -pg program for libgmon's life-cycle and naming
   checks; the mode argument picks a scenario, lifecycle.sh and output.sh
   check the profile.  Every scenario prints "pid N" first, so that the
   scripts know the names of per-process files.

   basic       a() x10
   chdir       a() x10, then chdir ("sub") before exiting
   fork        a() x10; fork; child: b() x20; parent: a() x10, waits
   dtor        c() x3 in a constructor, d() x7 in an atexit handler,
               e() x5 in a destructor
   moncontrol  a() x10, moncontrol (0), b() x10, moncontrol (1), a() x10
   dump        a() x10, libgmon_dump ("early.gmon"), a() x10
   reset       a() x10, libgmon_reset (), a() x5
   mcleanup    a() x10, _mcleanup (), a() x10, _exit (0)
   exec        a() x10, then exec a CPU-bound shell loop
   sigint      a() x10, then raise (SIGINT): must die of it
   spawn       50 fork children that reset every signal to SIG_DFL, burn
               20 ms of CPU time (half of them with every signal blocked,
               unblocked just before exec), close their descriptors and
               exec /bin/true; prints "spawn killed N" for the children
               killed by a signal
   threads     200 short threads one after another, each a() x10
   dumps NAME  8 threads each a() x10 and libgmon_dump (NAME) 200 times,
               all at once; prints "dump failures N"
   signals     g() (which calls h()) in a loop, and from a SIGALRM
               handler 5000 times a second; prints "calls N", the number
               of g() calls, for both counts to be checked exactly  */

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gmon.h"

/* Weak: the same program also runs linked against glibc's gmon, with
   libgmon.so preloaded, which then provides them.  */
#pragma weak libgmon_dump
#pragma weak libgmon_reset

#define NOINLINE __attribute__ ((noinline, noclone))

static volatile int sink;

NOINLINE void a (void) { sink++; }
NOINLINE void b (void) { sink++; }
NOINLINE void c (void) { sink++; }
NOINLINE void d (void) { sink++; }
NOINLINE void e (void) { sink++; }
NOINLINE void h (void) { sink++; }

/* The arc g -> h is counted by the loop and by the signal handler
   interrupting it: an increment that a handler could break would lose
   counts.  Something after the call keeps it from being a tail call.  */
NOINLINE void
g (void)
{
  h ();
  __asm__ volatile ("");
}

static volatile sig_atomic_t alarms;

static void
on_alarm (int sig)
{
  g ();
  alarms++;
}

/* Not inlined: unrolled into its caller, the last call would become a
   tail call, whose arc no mcount can see.  */
NOINLINE static void
times (void (*f) (void), int n)
{
  for (int i = 0; i < n; i++)
    f ();
}

static const char *mode = "";

__attribute__ ((constructor)) static void
ctor (void)
{
  times (c, 3);
}

static void
at_exit (void)
{
  if (strcmp (mode, "dtor") == 0)
    times (d, 7);
}

__attribute__ ((destructor)) static void
dtor (void)
{
  if (strcmp (mode, "dtor") == 0)
    times (e, 5);
}

static void *
thread_body (void *arg)
{
  times (a, 10);
  return arg;
}

static double
thread_seconds (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}

/* The usual preparation of a child for exec, after a CPU-bound stretch
   in which a profiling timer would fire.  */
static void
spawn_child (int blocked)
{
  sigset_t all, none;
  sigfillset (&all);
  sigemptyset (&none);
  if (blocked)
    sigprocmask (SIG_SETMASK, &all, NULL);
  for (int sig = 1; sig < NSIG; sig++)
    signal (sig, SIG_DFL);
  static volatile unsigned long spin;
  double start = thread_seconds ();
  while (thread_seconds () - start < 0.02)
    for (int i = 0; i < 10000; i++)
      spin += i;
  for (int fd = 3; fd < 1024; fd++)
    close (fd);
  sigprocmask (SIG_SETMASK, &none, NULL);
  execl ("/bin/true", "true", (char *) 0);
  _exit (127);
}

static int
spawn (void)
{
  int killed = 0;
  for (int i = 0; i < 50; i++)
    {
      a ();
      pid_t child = fork ();
      if (child < 0)
        return 1;
      if (child == 0)
        spawn_child (i % 2);
      int status;
      if (waitpid (child, &status, 0) != child)
        return 1;
      if (WIFSIGNALED (status))
        {
          fprintf (stderr, "child %d killed by signal %d\n", i,
                   WTERMSIG (status));
          killed++;
        }
      else if (WEXITSTATUS (status) != 0)
        return 1;
    }
  printf ("spawn killed %d\n", killed);
  return 0;
}

static const char *dump_name;
static int dump_failures;

static void *
dump_body (void *arg)
{
  times (a, 10);
  for (int i = 0; i < 200; i++)
    if (libgmon_dump (dump_name) != 0)
      {
        perror ("libgmon_dump");
        __atomic_fetch_add (&dump_failures, 1, __ATOMIC_RELAXED);
      }
  return arg;
}

int
main (int argc, char **argv)
{
  if (argc != 2 && !(argc == 3 && strcmp (argv[1], "dumps") == 0))
    {
      fprintf (stderr, "usage: %s MODE [NAME]\n", argv[0]);
      return 2;
    }
  mode = argv[1];
  printf ("pid %d\n", (int) getpid ());
  fflush (stdout);
  atexit (at_exit);

  if (strcmp (mode, "basic") == 0 || strcmp (mode, "dtor") == 0)
    times (a, 10);
  else if (strcmp (mode, "chdir") == 0)
    {
      times (a, 10);
      if (chdir ("sub") != 0)
        return 1;
    }
  else if (strcmp (mode, "fork") == 0)
    {
      times (a, 10);
      pid_t child = fork ();
      if (child < 0)
        return 1;
      if (child == 0)
        {
          printf ("child %d\n", (int) getpid ());
          times (b, 20);
          return 0;
        }
      times (a, 10);
      int status;
      if (waitpid (child, &status, 0) != child || status != 0)
        return 1;
    }
  else if (strcmp (mode, "moncontrol") == 0)
    {
      times (a, 10);
      moncontrol (0);
      times (b, 10);
      moncontrol (1);
      times (a, 10);
    }
  else if (strcmp (mode, "dump") == 0)
    {
      times (a, 10);
      if (libgmon_dump ("early.gmon") != 0)
        {
          perror ("libgmon_dump");
          return 1;
        }
      times (a, 10);
    }
  else if (strcmp (mode, "reset") == 0)
    {
      times (a, 10);
      if (libgmon_reset () != 0)
        {
          perror ("libgmon_reset");
          return 1;
        }
      times (a, 5);
    }
  else if (strcmp (mode, "mcleanup") == 0)
    {
      times (a, 10);
      _mcleanup ();
      times (a, 10);
      _exit (0);
    }
  else if (strcmp (mode, "exec") == 0)
    {
      times (a, 10);
      /* Long enough for many timer periods of CPU time: an inherited
         ITIMER_PROF would kill it with SIGPROF.  */
      execl ("/bin/sh", "sh", "-c",
             "i=0; while [ $i -lt 300000 ]; do i=$((i + 1)); done", (char *) 0);
      perror ("execl");
      return 1;
    }
  else if (strcmp (mode, "dumps") == 0)
    {
      pthread_t t[8];
      dump_name = argv[2];
      for (int i = 0; i < 8; i++)
        if (pthread_create (&t[i], NULL, dump_body, NULL) != 0)
          return 1;
      for (int i = 0; i < 8; i++)
        pthread_join (t[i], NULL);
      printf ("dump failures %d\n", dump_failures);
    }
  else if (strcmp (mode, "spawn") == 0)
    return spawn ();
  else if (strcmp (mode, "sigint") == 0)
    {
      times (a, 10);
      raise (SIGINT);
      fprintf (stderr, "%s: survived SIGINT\n", argv[0]);
    }
  else if (strcmp (mode, "signals") == 0)
    {
      struct sigaction sa;
      memset (&sa, 0, sizeof sa);
      sa.sa_handler = on_alarm;
      sa.sa_flags = SA_RESTART;
      struct itimerval every = { { 0, 200 }, { 0, 200 } }, off;
      memset (&off, 0, sizeof off);
      if (sigaction (SIGALRM, &sa, NULL) != 0
          || setitimer (ITIMER_REAL, &every, NULL) != 0)
        return 1;
      long loops = 0;
      while (alarms < 2000)
        {
          g ();
          loops++;
        }
      if (setitimer (ITIMER_REAL, &off, NULL) != 0)
        return 1;
      printf ("calls %ld\n", loops + alarms);
    }
  else if (strcmp (mode, "threads") == 0)
    for (int i = 0; i < 200; i++)
      {
        pthread_t t;
        if (pthread_create (&t, NULL, thread_body, NULL) != 0
            || pthread_join (t, NULL) != 0)
          return 1;
      }
  else
    {
      fprintf (stderr, "%s: unknown mode %s\n", argv[0], mode);
      return 2;
    }
  return 0;
}
