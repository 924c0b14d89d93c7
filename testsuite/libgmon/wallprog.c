/* wallprog.c - programs for wall.sh (LIBGMON_CLOCK=wall), built with -pg.

   wallprog three: three threads, each from its own caller: spin_caller
     computes for 1 s of CPU time, read_caller is blocked 4 s reading a
     pipe, sleep_caller sleeps 2 s in nanosleep.
   wallprog sleep SECONDS: nanosleep that long; prints "slept NS".
   wallprog eintr: one thread for each of read, write, nanosleep, poll,
     select, epoll_wait, sem_timedwait, pthread_cond_timedwait and a
     contended mutex, each blocking again and again for 1.5 s in all;
     prints "EINTR call" for every call that failed with EINTR, and
     "done".
   wallprog handlers: a SIGALRM handler of its own, driven by an
     interval timer while the thread sleeps with SIGUSR1 blocked;
     prints "alarms N" and "masked 1" if SIGUSR1 is still blocked.  */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static long long
now_ns (clockid_t clock)
{
  struct timespec ts;
  clock_gettime (clock, &ts);
  return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void
sleep_ns (long long ns)
{
  struct timespec ts = { ns / 1000000000LL, ns % 1000000000LL };
  while (nanosleep (&ts, &ts) != 0 && errno == EINTR)
    ;
}

/* ---- three ----------------------------------------------------------- */

static int pipefd[2];
static volatile unsigned long sink;

static void __attribute__ ((noinline))
spin_caller (void)
{
  long long end = now_ns (CLOCK_THREAD_CPUTIME_ID) + 1000000000LL;
  while (now_ns (CLOCK_THREAD_CPUTIME_ID) < end)
    for (int i = 0; i < 5000000; i++)
      sink += i;
}

static void __attribute__ ((noinline))
read_caller (void)
{
  char c;
  if (read (pipefd[0], &c, 1) != 1)
    perror ("read");
}

static void __attribute__ ((noinline))
sleep_caller (void)
{
  struct timespec ts = { 2, 0 };
  nanosleep (&ts, NULL);
}

static void *
three_thread (void *arg)
{
  ((void (*) (void)) arg) ();
  return NULL;
}

static int
three (void)
{
  void (*f[3]) (void) = { spin_caller, read_caller, sleep_caller };
  pthread_t t[3];
  if (pipe (pipefd) != 0)
    return 1;
  for (int i = 0; i < 3; i++)
    pthread_create (&t[i], NULL, three_thread, (void *) f[i]);
  sleep_ns (4000000000LL);
  if (write (pipefd[1], "x", 1) != 1)
    return 1;
  for (int i = 0; i < 3; i++)
    pthread_join (t[i], NULL);
  return 0;
}

/* ---- eintr ----------------------------------------------------------- */

#define EINTR_NS 1500000000LL

static long long eintr_end;
static int fill_pipe[2], drain_pipe[2];
static sem_t sem;
static pthread_mutex_t cond_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static pthread_mutex_t held = PTHREAD_MUTEX_INITIALIZER;
static int writer_done;

static int
check (const char *what, int r)
{
  if (r < 0 && errno == EINTR)
    {
      printf ("EINTR %s\n", what);
      fflush (stdout);
    }
  return r;
}

static int
running (void)
{
  return now_ns (CLOCK_MONOTONIC) < eintr_end;
}

static struct timespec
deadline (long long ns)
{
  long long t = now_ns (CLOCK_REALTIME) + ns;
  struct timespec ts = { t / 1000000000LL, t % 1000000000LL };
  return ts;
}

static void *
t_read (void *arg)
{
  (void) arg;
  char c;
  while (check ("read", (int) read (drain_pipe[0], &c, 1)) == 1 && c == 'x')
    ;
  return NULL;
}

static void *
t_write (void *arg)
{
  (void) arg;
  /* Blocks on the full pipe until the drainer below takes a byte.  */
  char buf[4096];
  memset (buf, 'y', sizeof buf);
  while (running ())
    check ("write", (int) write (fill_pipe[1], buf, sizeof buf));
  __atomic_store_n (&writer_done, 1, __ATOMIC_RELEASE);
  return NULL;
}

static void *
t_nanosleep (void *arg)
{
  (void) arg;
  while (running ())
    {
      struct timespec ts = { 0, 20000000 };
      check ("nanosleep", nanosleep (&ts, NULL));
    }
  return NULL;
}

static void *
t_poll (void *arg)
{
  (void) arg;
  while (running ())
    {
      struct pollfd p = { drain_pipe[0], 0, 0 };
      check ("poll", poll (&p, 1, 20));
    }
  return NULL;
}

static void *
t_select (void *arg)
{
  (void) arg;
  while (running ())
    {
      struct timeval tv = { 0, 20000 };
      check ("select", select (0, NULL, NULL, NULL, &tv));
    }
  return NULL;
}

static void *
t_epoll (void *arg)
{
  (void) arg;
  int ep = epoll_create1 (0);
  struct epoll_event ev;
  while (running ())
    check ("epoll_wait", epoll_wait (ep, &ev, 1, 20));
  close (ep);
  return NULL;
}

static void *
t_sem (void *arg)
{
  (void) arg;
  while (running ())
    {
      struct timespec ts = deadline (20000000);
      if (sem_timedwait (&sem, &ts) != 0 && errno == EINTR)
        check ("sem_timedwait", -1);
    }
  return NULL;
}

static void *
t_cond (void *arg)
{
  (void) arg;
  pthread_mutex_lock (&cond_lock);
  while (running ())
    {
      struct timespec ts = deadline (20000000);
      int r = pthread_cond_timedwait (&cond, &cond_lock, &ts);
      if (r == EINTR)
        {
          errno = EINTR;
          check ("pthread_cond_timedwait", -1);
        }
    }
  pthread_mutex_unlock (&cond_lock);
  return NULL;
}

static void *
t_mutex (void *arg)
{
  (void) arg;
  while (running ())
    {
      int r = pthread_mutex_lock (&held);
      if (r == EINTR)
        {
          errno = EINTR;
          check ("pthread_mutex_lock", -1);
        }
      pthread_mutex_unlock (&held);
    }
  return NULL;
}

static int
eintr (void)
{
  void *(*f[]) (void *) = { t_read, t_write, t_nanosleep, t_poll, t_select,
                            t_epoll, t_sem, t_cond, t_mutex };
  enum { N = sizeof f / sizeof f[0] };
  pthread_t t[N];
  if (pipe (fill_pipe) != 0 || pipe (drain_pipe) != 0)
    return 1;
  sem_init (&sem, 0, 0);
  char buf[65536];
  memset (buf, 'y', sizeof buf);
  /* Fill the pipe so that the writer blocks.  */
  fcntl (fill_pipe[1], F_SETFL, O_NONBLOCK);
  while (write (fill_pipe[1], buf, sizeof buf) > 0)
    ;
  fcntl (fill_pipe[1], F_SETFL, 0);
  eintr_end = now_ns (CLOCK_MONOTONIC) + EINTR_NS;
  pthread_mutex_lock (&held);
  for (int i = 0; i < N; i++)
    pthread_create (&t[i], NULL, f[i], NULL);
  /* The mutex is held in slices of 50 ms; the read and write threads
     get a byte every 50 ms.  */
  while (running ())
    {
      sleep_ns (50000000);
      pthread_mutex_unlock (&held);
      sched_yield ();
      pthread_mutex_lock (&held);
      if (write (drain_pipe[1], "x", 1) != 1
          || read (fill_pipe[0], buf, 4096) <= 0)
        return 1;
    }
  pthread_mutex_unlock (&held);
  if (write (drain_pipe[1], "q", 1) != 1)
    return 1;
  /* Drain the pipe until the writer has seen the end.  */
  fcntl (fill_pipe[0], F_SETFL, O_NONBLOCK);
  while (!__atomic_load_n (&writer_done, __ATOMIC_ACQUIRE))
    if (read (fill_pipe[0], buf, sizeof buf) <= 0)
      sleep_ns (1000000);
  for (int i = 0; i < N; i++)
    pthread_join (t[i], NULL);
  puts ("done");
  return 0;
}

/* ---- handlers -------------------------------------------------------- */

static volatile sig_atomic_t alarms;

static void
on_alarm (int sig)
{
  (void) sig;
  alarms++;
}

static int
handlers (void)
{
  struct sigaction sa;
  memset (&sa, 0, sizeof sa);
  sa.sa_handler = on_alarm;
  sigaction (SIGALRM, &sa, NULL);
  sigset_t set, cur;
  sigemptyset (&set);
  sigaddset (&set, SIGUSR1);
  pthread_sigmask (SIG_BLOCK, &set, NULL);
  struct itimerval it = { { 0, 10000 }, { 0, 10000 } };
  setitimer (ITIMER_REAL, &it, NULL);
  sleep_ns (1000000000LL);
  it.it_value.tv_usec = it.it_interval.tv_usec = 0;
  setitimer (ITIMER_REAL, &it, NULL);
  pthread_sigmask (SIG_BLOCK, NULL, &cur);
  printf ("alarms %d\nmasked %d\n", (int) alarms,
          sigismember (&cur, SIGUSR1));
  return 0;
}

int
main (int argc, char **argv)
{
  if (argc == 2 && strcmp (argv[1], "three") == 0)
    return three ();
  if (argc == 3 && strcmp (argv[1], "sleep") == 0)
    {
      long long t = now_ns (CLOCK_MONOTONIC);
      struct timespec ts = { atoi (argv[2]), 0 };
      if (nanosleep (&ts, NULL) != 0)
        perror ("nanosleep");
      printf ("slept %lld\n", now_ns (CLOCK_MONOTONIC) - t);
      return 0;
    }
  if (argc == 2 && strcmp (argv[1], "eintr") == 0)
    return eintr ();
  if (argc == 2 && strcmp (argv[1], "handlers") == 0)
    return handlers ();
  fprintf (stderr, "usage: wallprog three|sleep S|eintr|handlers\n");
  return 2;
}
