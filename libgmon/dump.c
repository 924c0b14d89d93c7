/* dump.c - profiles of programs that never exit, or not normally.

   LIBGMON_INTERVAL=N writes a numbered snapshot every N seconds and
   LIBGMON_DUMP_SIGNAL=SIG one whenever SIG arrives (names and records
   in gmon_out.h); LIBGMON_START=paused and LIBGMON_TOGGLE_SIGNAL=SIG
   switch collection off and on; SIGSEGV, SIGBUS, SIGABRT, SIGTERM and
   _exit write the last profile.

   The dump and toggle handlers write nothing.  Their signal may arrive
   while the thread it lands on holds libgmon's lock (a thread starting,
   a snapshot being read) or is inside malloc: a handler could neither
   take the lock there nor wait for it.  So they set a bit in a futex
   word and wake a writer thread of libgmon's own, which takes the lock
   as any thread does, writes, and sleeps until the next request or the
   next interval (no timer signal: the program's system calls are never
   interrupted for a snapshot).  The writer blocks every signal, runs no
   instrumented code and has no sampling timer, so it is never in the
   profile.  The toggle handler switches gm_on itself, one atomic
   operation, so that calls stop or start being counted before the
   signal's sender goes on (raise); the timers follow when the writer
   has armed or disarmed them.

   The crash handlers cannot hand over: the process dies when they
   return.  They write the last profile themselves, as libgmon_dump
   would from a handler (raw system calls into fresh mappings, no locks
   of libc); a thread that was inside libgmon itself writes nothing
   (gm_final).  Then they restore the default action and send the
   signal again to their thread, delivered when the handler returns, so
   the program dies of it with the same status and core as it would
   without libgmon.  They are installed only over SIG_DFL, at start: a
   disposition the program inherited or set up before is kept, and one
   it sets later replaces ours as it would replace the default.

   _exit and _Exit are interposed: in libgmon.so (linked or preloaded)
   for the program and every library that calls them; from libgmon.a
   for the program's own calls, as weak definitions (a static program
   whose libc brings its own keeps libc's).  libc's internal calls
   (exit, abort, a failed exec in posix_spawn's child) do not come
   here.  */

#define _GNU_SOURCE
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>

#include "internal.h"

#define GM_NS 1000000000LL

/* The writer's requests, bits of a futex word.  */
#define GM_REQ_DUMP 1u
#define GM_REQ_TIMERS 2u

static struct
{
  int dump_sig;                 /* 0: none */
  int toggle_sig;               /* 0: none */
  long long interval_ns;        /* 0: none */
  int crash;                    /* crash dumps (LIBGMON_CRASH_DUMP) */
} gm_dcfg;

static unsigned gm_req;
/* Profiles being written (gm_writing_begin).  */
static unsigned gm_writes;

/* ---- futexes ----------------------------------------------------------- */

static void
gm_wake (unsigned *word, int n)
{
  (void) gm_syscall (SYS_futex, (long) word, FUTEX_WAKE_PRIVATE, n, 0, 0,
                     0);
}

/* Sleep while *word is val, until CLOCK_REALTIME deadline_ns (< 0:
   none); a wake-up or signal may end it early.  */
static void
gm_sleep (unsigned *word, unsigned val, long long deadline_ns)
{
  struct
  {
    long sec, nsec;
  } ts = { (long) (deadline_ns / GM_NS), (long) (deadline_ns % GM_NS) };
  (void) gm_syscall (SYS_futex, (long) word,
                     FUTEX_WAIT_BITSET_PRIVATE | FUTEX_CLOCK_REALTIME,
                     (long) val, deadline_ns < 0 ? 0 : (long) &ts, 0,
                     (long) FUTEX_BITSET_MATCH_ANY);
}

long long
gm_realtime_ns (void)
{
  struct
  {
    long sec, nsec;
  } ts = { 0, 0 };
  (void) gm_syscall (SYS_clock_gettime, CLOCK_REALTIME, (long) &ts, 0, 0, 0,
                     0);
  return (long long) ts.sec * GM_NS + ts.nsec;
}

void
gm_writing_begin (void)
{
  __atomic_fetch_add (&gm_writes, 1, __ATOMIC_SEQ_CST);
}

void
gm_writing_end (void)
{
  if (__atomic_sub_fetch (&gm_writes, 1, __ATOMIC_SEQ_CST) == 0)
    gm_wake (&gm_writes, 64);
}

void
gm_writing_wait (void)
{
  unsigned n;
  while ((n = __atomic_load_n (&gm_writes, __ATOMIC_SEQ_CST)) != 0)
    gm_sleep (&gm_writes, n, -1);
}

/* ---- configuration ------------------------------------------------------ */

/* Signals that a fault raises (and SIGABRT, which the crash dump
   takes): as a dump or toggle signal, a real fault would return to the
   faulting instruction for ever.  */
static int
gm_fault_signal (int sig)
{
  return sig == SIGSEGV || sig == SIGBUS || sig == SIGILL || sig == SIGFPE
         || sig == SIGTRAP || sig == SIGSYS || sig == SIGABRT;
}

/* A signal by name ("USR2", "SIGUSR2", "RTMIN+3", "RTMAX-1") or number,
   if a dump or toggle signal may be it; -1 if not.  */
static int
gm_parse_any_signal (const char *s)
{
  int sig = -1;
  if (strncmp (s, "SIG", 3) == 0)
    s += 3;
  if (strncmp (s, "RTMIN", 5) == 0 || strncmp (s, "RTMAX", 5) == 0)
    {
      long n = s[5] == '\0' ? 0
               : s[5] == (s[4] == 'N' ? '+' : '-') ? gm_parse_uint (s + 6, 64)
                                                   : -1;
      sig = n < 0 ? -1 : s[4] == 'N' ? SIGRTMIN + (int) n : SIGRTMAX - (int) n;
    }
  else if (*s >= '0' && *s <= '9')
    sig = (int) gm_parse_uint (s, 64);
  else
    for (int i = 1; i < SIGRTMIN; i++)
      {
        const char *abbrev = sigabbrev_np (i);
        if (abbrev != NULL && strcmp (s, abbrev) == 0)
          sig = i;
      }
  if (sig < 1 || (sig < SIGRTMIN && sigabbrev_np (sig) == NULL)
      || sig > SIGRTMAX || sig == SIGKILL || sig == SIGSTOP
      || gm_fault_signal (sig)
      || (gm_config_sampling () && sig == gm_config_signo ()))
    return -1;
  return sig;
}

static int
gm_signal_var (const char *var, int other)
{
  const char *v = secure_getenv (var);
  if (v == NULL)
    return 0;
  int sig = gm_parse_any_signal (v);
  if (sig > 0 && sig != other)
    return sig;
  gm_say ("ignoring ", var, "=", v,
          sig > 0 ? " (the other of LIBGMON_DUMP_SIGNAL and"
                    " LIBGMON_TOGGLE_SIGNAL has it)"
                  : " (use a signal name or number, such as USR2 or"
                    " RTMIN+1; not KILL, STOP, a fault signal, ABRT or the"
                    " sampling signal)",
          NULL);
  return 0;
}

/* Seconds with up to 9 decimals ("1", "0.25"), in ns; at least 1 ms and
   at most a million seconds.  -1 if not.  */
static long long
gm_parse_seconds (const char *s)
{
  long long ns = 0;
  int digits = 0, decimals = -1;
  for (; *s != '\0'; s++)
    if (*s == '.' && decimals < 0)
      decimals = 0;
    else if (*s >= '0' && *s <= '9' && decimals < 9 && ns < 1000000 * GM_NS)
      {
        ns = ns * 10 + (*s - '0');
        digits++;
        if (decimals >= 0)
          decimals++;
      }
    else
      return -1;
  if (digits == 0)
    return -1;
  for (int d = decimals < 0 ? 0 : decimals; d < 9; d++)
    ns *= 10;
  return ns >= GM_NS / 1000 && ns <= 1000000 * GM_NS ? ns : -1;
}

int
gm_dump_config (void)
{
  const char *v;
  int paused = 0;

  gm_dcfg.crash = 1;
  gm_dcfg.dump_sig = gm_signal_var ("LIBGMON_DUMP_SIGNAL", 0);
  gm_dcfg.toggle_sig = gm_signal_var ("LIBGMON_TOGGLE_SIGNAL",
                                      gm_dcfg.dump_sig);
  if ((v = secure_getenv ("LIBGMON_INTERVAL")) != NULL)
    {
      long long ns = gm_parse_seconds (v);
      if (ns > 0)
        gm_dcfg.interval_ns = ns;
      else
        gm_say ("ignoring LIBGMON_INTERVAL=", v,
                " (use seconds from 0.001 to 1000000, such as 1 or 0.5)",
                NULL);
    }
  if ((v = secure_getenv ("LIBGMON_START")) != NULL)
    {
      if (strcmp (v, "paused") == 0)
        paused = 1;
      else if (strcmp (v, "running") != 0)
        gm_say ("ignoring LIBGMON_START=", v, " (use running or paused)",
                NULL);
    }
  if ((v = secure_getenv ("LIBGMON_CRASH_DUMP")) != NULL)
    gm_dcfg.crash = strcmp (v, "0") != 0;
  return paused;
}

int
gm_dump_records (void)
{
  return gm_dcfg.interval_ns > 0 || gm_dcfg.dump_sig > 0;
}

/* ---- the writer thread ------------------------------------------------ */

static void
gm_request (unsigned bit)
{
  __atomic_fetch_or (&gm_req, bit, __ATOMIC_SEQ_CST);
  gm_wake (&gm_req, 1);
}

/* The first multiple of the interval after now: snapshots fall on the
   same moments in every process, whole seconds for whole intervals.  */
static long long
gm_next_tick (long long now)
{
  return (now / gm_dcfg.interval_ns + 1) * gm_dcfg.interval_ns;
}

/* The writer runs until profiling stops.  An interval that a snapshot
   overran is skipped, not caught up.  */
static void *
gm_writer (void *arg)
{
  (void) arg;
  long long next = gm_dcfg.interval_ns > 0 ? gm_next_tick (gm_realtime_ns ())
                                           : -1;
  while (gm_running ())
    {
      unsigned req = __atomic_exchange_n (&gm_req, 0, __ATOMIC_SEQ_CST);
      int due = next >= 0 && gm_realtime_ns () >= next;
      if (req == 0 && !due)
        {
          gm_sleep (&gm_req, 0, next);
          continue;
        }
      if (req & GM_REQ_TIMERS)
        gm_sync_timers ();
      if (req & GM_REQ_DUMP)
        (void) gm_snapshot ("signal");
      if (due)
        {
          (void) gm_snapshot ("interval");
          next = gm_next_tick (gm_realtime_ns ());
        }
    }
  return NULL;
}

static void
gm_writer_start (void)
{
  pthread_attr_t attr;
  pthread_t t;
  sigset_t all, old;
  int r = pthread_attr_init (&attr);
  if (r == 0)
    {
      /* Small: what it writes goes in mappings of its own.  */
      (void) pthread_attr_setstacksize (&attr, 256 * 1024);
      (void) pthread_attr_setdetachstate (&attr, PTHREAD_CREATE_DETACHED);
      /* Created with every signal blocked, which it keeps: the
         program's signals go to the program's threads.  */
      sigfillset (&all);
      pthread_sigmask (SIG_SETMASK, &all, &old);
      r = pthread_create (&t, &attr, gm_writer, NULL);
      pthread_sigmask (SIG_SETMASK, &old, NULL);
      pthread_attr_destroy (&attr);
    }
  if (r != 0)
    gm_say ("no snapshots or toggling: cannot start a thread: ",
            gm_errstr (r), NULL);
}

/* ---- signal handlers -------------------------------------------------- */

static void
gm_on_dump (int sig)
{
  (void) sig;
  gm_request (GM_REQ_DUMP);
}

static void
gm_on_toggle (int sig)
{
  (void) sig;
  if (!gm_running ())
    return;
  __atomic_xor_fetch (&gm_on, 1, __ATOMIC_SEQ_CST);
  gm_request (GM_REQ_TIMERS);
}

static void
gm_on_crash (int sig)
{
  char name[32];
  struct sigaction dfl;
  gm_final (gm_signame (name, sizeof name, sig));
  /* Also when the program's own handler called this one as the handler
     it found before its own: the default action is what that stands
     for.  */
  gm_memzero (&dfl, sizeof dfl);
  dfl.sa_handler = SIG_DFL;
  (void) sigaction (sig, &dfl, NULL);
  (void) gm_syscall (SYS_tgkill, gm_getpid (), gm_gettid (), sig, 0, 0, 0);
}

/* Install handler for sig if the disposition is the default (or, with
   over_ignored, SIG_IGN).  Returns 0, or -EEXIST if the program has a
   disposition of its own, or -errno.  */
static int
gm_install (int sig, void (*handler) (int), int over_ignored)
{
  struct sigaction sa, old;
  if (sigaction (sig, NULL, &old) != 0)
    return -errno;
  if ((old.sa_flags & SA_SIGINFO)
      || (old.sa_handler != SIG_DFL
          && !(over_ignored && old.sa_handler == SIG_IGN)))
    return -EEXIST;
  gm_memzero (&sa, sizeof sa);
  sa.sa_handler = handler;
  /* SA_ONSTACK: a stack overflow's SIGSEGV can only be handled on a
     signal stack, if the program set one up.  */
  sa.sa_flags = SA_RESTART | SA_ONSTACK;
  sigemptyset (&sa.sa_mask);
  return sigaction (sig, &sa, NULL) == 0 ? 0 : -errno;
}

/* The dump or toggle signal (named by var), which the user asked for:
   installed over SIG_IGN too, but not over a handler.  */
static int
gm_install_asked (int sig, void (*handler) (int), const char *var)
{
  int r = gm_install (sig, handler, 1);
  if (r < 0)
    {
      char name[32];
      gm_say ("ignoring ", var, ": ", gm_signame (name, sizeof name, sig),
              r == -EEXIST ? " has a handler already" : gm_errstr (-r),
              NULL);
    }
  return r == 0;
}

void
gm_dump_start (void)
{
  static const int crash[] = { SIGSEGV, SIGBUS, SIGABRT, SIGTERM };
  if (gm_dcfg.crash)
    for (size_t i = 0; i < sizeof crash / sizeof crash[0]; i++)
      if (crash[i] != gm_dcfg.dump_sig && crash[i] != gm_dcfg.toggle_sig)
        (void) gm_install (crash[i], gm_on_crash, 0);
  int writer = 0;
  if (gm_dcfg.dump_sig > 0)
    writer |= gm_install_asked (gm_dcfg.dump_sig, gm_on_dump,
                                "LIBGMON_DUMP_SIGNAL");
  if (gm_dcfg.toggle_sig > 0)
    writer |= gm_install_asked (gm_dcfg.toggle_sig, gm_on_toggle,
                                "LIBGMON_TOGGLE_SIGNAL");
  if (writer || gm_dcfg.interval_ns > 0)
    gm_writer_start ();
}

void
gm_dump_forked (void)
{
  /* The parent's writer thread does not exist here; its requests were
     the parent's.  A fork child of a threaded program should keep to
     async-signal-safe functions, which pthread_create is not; glibc
     makes its thread and allocator state whole again in the child
     before this handler runs, and it runs only when snapshots or
     toggling were asked for.  */
  gm_req = 0;
  gm_writes = 0;
  if (gm_dcfg.dump_sig > 0 || gm_dcfg.toggle_sig > 0
      || gm_dcfg.interval_ns > 0)
    gm_writer_start ();
}

/* ---- _exit --------------------------------------------------------------- */

#pragma GCC visibility push(default)
void _exit (int status) __attribute__ ((weak, noreturn));
void _Exit (int status) __attribute__ ((weak, noreturn));
#pragma GCC visibility pop

static void __attribute__ ((noreturn))
gm_exit (int status, const char *why)
{
  if (gm_dcfg.crash)
    gm_final (why);
  for (;;)
    (void) gm_syscall (SYS_exit_group, status, 0, 0, 0, 0, 0);
}

void
_exit (int status)
{
  gm_exit (status, "_exit");
}

void
_Exit (int status)
{
  gm_exit (status, "_Exit");
}
