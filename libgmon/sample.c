/* sample.c - PC sampling of every thread.

   Each thread that runs instrumented code gets its own POSIX timer on its
   own CPU-time clock (CLOCK_THREAD_CPUTIME_ID), delivered to that thread
   (SIGEV_THREAD_ID).  glibc instead uses one process-wide ITIMER_PROF,
   whose signal lands on whichever thread happens to run, survives exec
   (killing CPU-bound exec'd programs) and is not re-armed in fork
   children.

   CPU-time timers only expire on scheduler ticks, so at a requested rate
   above the kernel's tick rate several periods elapse per signal; the
   kernel reports the missed ones in si_overrun and each signal is
   weighted by 1 + si_overrun.  The periods a thread's last signal did
   not report are added from its CPU clock when its sampling ends
   (gm_settle).  The histogram therefore holds the true CPU time in units
   of 1/hz seconds, which is what the rate written in the file promises;
   only the resolution is the tick's.  Fork children are not sampled
   (control.c says why).  Under LIBGMON_CLOCK=wall the time threads
   spend blocked is added by wall.c's sampler, through
   gm_sample_credit.  */

#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <sys/syscall.h>
#include <time.h>
#include <ucontext.h>

#include "../gmon_out.h"
#include "internal.h"

/* sigev_value of our timers, to tell their signals from anyone else's. */
#define GM_TIMER_COOKIE 0x676d6f6e

/* The kernel's struct sigevent (64 bytes) and struct itimerspec (of
   longs), used with the raw system calls.  */
union gm_ksigevent
{
  struct
  {
    union
    {
      int sival_int;
      void *sival_ptr;
    } value;
    int signo;
    int notify;
    int tid;
  } ev;
  char size[64];
};

struct gm_kitimerspec
{
  long interval_sec, interval_nsec;
  long value_sec, value_nsec;
};

#ifndef SIGEV_THREAD_ID
# define SIGEV_THREAD_ID 4
#endif

/* The rate written when nothing is sampled: gprof wants a histogram (of
   zeros here) with some rate before it prints a flat profile.  */
#define GM_UNSAMPLED_HZ 1000

struct gm_hist gm_hist;
static int gm_signo;
static struct sigaction gm_old_action;

/* libgmon's own stubs and slow path, for the "inside libgmon" count.  */
extern const char __start_gmon_text[] GM_HIDDEN;
extern const char __stop_gmon_text[] GM_HIDDEN;

static uintptr_t
gm_context_pc (const void *ctx)
{
  const ucontext_t *uc = ctx;
#if defined(__x86_64__)
  return (uintptr_t) uc->uc_mcontext.gregs[REG_RIP];
#elif defined(__i386__)
  return (uintptr_t) uc->uc_mcontext.gregs[REG_EIP];
#elif defined(__aarch64__)
  return (uintptr_t) uc->uc_mcontext.pc;
#else
# error "libgmon: no PC extraction for this architecture"
#endif
}

/* Pass signals that are not from our timers to the handler that was
   installed before us.  */
static void
gm_chain (int sig, siginfo_t *si, void *ctx)
{
  if (gm_old_action.sa_flags & SA_SIGINFO)
    gm_old_action.sa_sigaction (sig, si, ctx);
  else if (gm_old_action.sa_handler != SIG_DFL
           && gm_old_action.sa_handler != SIG_IGN)
    gm_old_action.sa_handler (sig);
}

/* Count w periods at pc for thread t (NULL: none known).  Returns
   whether they went to the program's histogram (other modules' samples
   go to theirs, modules.c).  */
static int
gm_credit (struct gm_thread *t, uintptr_t pc, unsigned long w)
{
  GM_COUNT (samples, w);
  if (pc >= (uintptr_t) __start_gmon_text && pc < (uintptr_t) __stop_gmon_text)
    GM_COUNT (samples_self, w);
  else if (pc - gm_lowpc < gm_highpc - gm_lowpc)
    {
      __atomic_fetch_add (&gm_hist.bin[(pc - gm_lowpc) >> 2], (uint32_t) w,
                          __ATOMIC_RELAXED);
      if (t != NULL)
        {
          t->weight += w;
          t->weight_sq += (unsigned long long) w * w;
        }
      GM_COUNT (samples_in, w);
      return 1;
    }
  else if (gm_modules_credit (pc, w))
    /* The stacks are the program's: they stay with gm_hist.  */
    GM_COUNT (samples_mod, w);
  return 0;
}

int
gm_sample_credit (uintptr_t pc, unsigned long w)
{
  return gm_credit (NULL, pc, w);
}

static void
gm_on_signal (int sig, siginfo_t *si, void *ctx)
{
  if (si->si_code != SI_TIMER || si->si_value.sival_int != GM_TIMER_COOKIE)
    {
      gm_chain (sig, si, ctx);
      return;
    }
  if (!__atomic_load_n (&gm_on, __ATOMIC_RELAXED))
    return;
  unsigned long w = 1 + (si->si_overrun > 0 ? (unsigned long) si->si_overrun
                                             : 0);
  uintptr_t pc = gm_context_pc (ctx);
  GM_COUNT (signals, 1);
  /* Only this thread's handler writes these (the timer is the thread's
     own); others read them.  */
  struct gm_thread *t = gm_thr;
  int in = gm_credit (t, pc, w);
  if (t != NULL)
    {
      /* The stacks hold the samples the histogram holds.  */
      if (in)
        gm_stacks_record (t, ctx, pc, w);
      else
        t->last_stack = NULL;
      __atomic_store_n (&t->last_pc, pc, __ATOMIC_RELAXED);
      __atomic_store_n (&t->samples, t->samples + w, __ATOMIC_RELAXED);
    }
}

int
gm_sample_init (unsigned hz, int signo, int wall)
{
  gm_hist.wall = wall;
  gm_hist.nbins = (gm_highpc - gm_lowpc) >> 2;
  gm_hist.bin = gm_map (gm_hist.nbins * sizeof *gm_hist.bin);
  gm_hist.hz = GM_UNSAMPLED_HZ;
  gm_hist.sampling = 0;
  if (gm_hist.bin == NULL)
    return -ENOMEM;
  if (hz == 0)
    return 0;

  struct sigaction sa;
  sa.sa_sigaction = gm_on_signal;
  sa.sa_flags = SA_SIGINFO | SA_RESTART;
  sigfillset (&sa.sa_mask);
  if (sigaction (signo, &sa, &gm_old_action) != 0)
    return -errno;
  gm_signo = signo;
  gm_hist.hz = hz;
  gm_hist.sampling = 1;
  return 0;
}

int
gm_sample_foreign_handler (void)
{
  if (gm_old_action.sa_flags & SA_SIGINFO)
    return 1;
  return gm_old_action.sa_handler != SIG_DFL
         && gm_old_action.sa_handler != SIG_IGN;
}

static long
gm_timer_arm (int timer, int on)
{
  struct gm_kitimerspec its = { 0, 0, 0, 0 };
  if (on)
    {
      unsigned long ns = 1000000000UL / gm_hist.hz;
      its.interval_sec = its.value_sec = (long) (ns / 1000000000UL);
      its.interval_nsec = its.value_nsec = (long) (ns % 1000000000UL);
    }
  return gm_syscall (SYS_timer_settime, timer, 0, (long) &its, 0, 0, 0);
}

int
gm_timer_new (int tid)
{
  if (!gm_hist.sampling)
    return -1;
  union gm_ksigevent sev;
  gm_memzero (&sev, sizeof sev);
  sev.ev.value.sival_int = GM_TIMER_COOKIE;
  sev.ev.signo = gm_signo;
  sev.ev.notify = SIGEV_THREAD_ID;
  sev.ev.tid = tid;
  int timer;
  /* CLOCK_THREAD_CPUTIME_ID is the calling thread's clock: this runs in
     the thread the timer is for.  */
  if (gm_syscall (SYS_timer_create, CLOCK_THREAD_CPUTIME_ID, (long) &sev,
                  (long) &timer, 0, 0, 0) < 0)
    {
      GM_COUNT (timer_failures, 1);
      return -1;
    }
  return timer;
}

/* CPU time of thread tid of this process in ns, or -1.  The clock id
   is the kernel's for a thread's CPU clock (what pthread_getcpuclockid
   returns); the kernel only lets a process read its own threads'.  */
long long
gm_thread_cpu_ns (int tid)
{
  struct
  {
    long sec, nsec;
  } ts;
  long clock = (long) (~(unsigned long) tid << 3) | 6;
  if (gm_syscall (SYS_clock_gettime, clock, (long) &ts, 0, 0, 0, 0) < 0)
    return -1;
  return (long long) ts.sec * 1000000000LL + ts.nsec;
}

/* t's timer was just armed: its periods count from here.  Reading the
   clock after arming can only make the count of expected periods
   smaller than the kernel's, never larger.  */
static void
gm_mark_armed (struct gm_thread *t)
{
  t->armed_samples = __atomic_load_n (&t->samples, __ATOMIC_RELAXED);
  t->armed_ns = gm_thread_cpu_ns (t->tid);
}

void
gm_timer_start (struct gm_thread *t)
{
  t->armed_ns = -1;
  if (t->timer < 0 || !__atomic_load_n (&gm_on, __ATOMIC_RELAXED))
    return;
  if (gm_timer_arm (t->timer, 1) < 0)
    GM_COUNT (timer_failures, 1);
  else
    gm_mark_armed (t);
}

void
gm_timer_delete (int timer)
{
  /* Only fails for an id that is no longer ours, which cannot happen:
     fork children forget their inherited ids.  */
  if (timer >= 0)
    (void) gm_syscall (SYS_timer_delete, timer, 0, 0, 0, 0, 0);
}

void
gm_timers_set (int on)
{
  for (struct gm_thread *t = gm_threads; t != NULL; t = t->next)
    {
      if (t->timer < 0)
        continue;
      long r = gm_timer_arm (t->timer, on);
      /* ESRCH: the thread has exited; its record waits for adoption.  */
      if (r < 0 && r != -ESRCH)
        GM_COUNT (timer_failures, 1);
      if (on && r == 0)
        gm_mark_armed (t);
      else
        t->armed_ns = -1;
    }
}

enum gm_disposition
gm_sample_disposition (void)
{
  struct sigaction cur;
  if (sigaction (gm_signo, NULL, &cur) != 0)
    return GM_DISP_OURS;
  if (cur.sa_flags & SA_SIGINFO)
    return cur.sa_sigaction == gm_on_signal ? GM_DISP_OURS : GM_DISP_REPLACED;
  return cur.sa_handler == SIG_IGN ? GM_DISP_IGNORED
         : cur.sa_handler == SIG_DFL ? GM_DISP_DEFAULT : GM_DISP_REPLACED;
}

int
gm_sample_signo (void)
{
  return gm_signo;
}

/* The kernel's signal set, as rt_sigprocmask takes it.  */
static unsigned long long
gm_sigbit (int sig)
{
  return 1ULL << (sig - 1);
}

/* Whether the sampling signal is blocked in the calling thread.  */
static int
gm_signal_blocked (void)
{
  unsigned long long old = 0;
  (void) gm_syscall (SYS_rt_sigprocmask, SIG_BLOCK, 0, (long) &old,
                     sizeof old, 0, 0);
  return (old & gm_sigbit (gm_signo)) != 0;
}

/* CPU-time timers expire only at scheduler ticks that find their thread
   running, and the signal is sent when the thread next returns to user
   mode: on a loaded machine the kernel was seen to report a thread's
   periods over 100 ms of its CPU time late.  Such a late signal carries
   the periods it stands for (si_overrun), so nothing is lost while the
   thread keeps running; but the periods not yet reported when sampling
   ends were lost, up to half of a short thread's time.  Here they are
   counted from the thread's CPU clock and credited where the thread's
   last signal found it, just as a late signal's periods are credited to
   where it finds the thread.  If the signal did not reach us because
   the program blocked or took it, they are only counted, for the
   summary.  */
static void
gm_settle (struct gm_thread *t, int blocked)
{
  long long armed = t->armed_ns;
  t->armed_ns = -1;
  if (armed < 0 || !gm_hist.sampling)
    return;
  long long now = gm_thread_cpu_ns (t->tid);
  unsigned long long period = 1000000000ULL / gm_hist.hz;
  if (now < armed)
    return;
  unsigned long expected = (unsigned long) ((unsigned long long) (now - armed)
                                            / period);
  unsigned long got = __atomic_load_n (&t->samples, __ATOMIC_RELAXED)
                      - t->armed_samples;
  if (expected <= got)
    return;
  unsigned long missing = expected - got;
  if (blocked)
    GM_COUNT (threads_blocked, 1);
  if (blocked || gm_sample_disposition () != GM_DISP_OURS)
    GM_COUNT (unsampled, missing);
  else
    {
      if (gm_credit (t, __atomic_load_n (&t->last_pc, __ATOMIC_RELAXED),
                     missing))
        gm_stacks_late (t, missing);
      GM_COUNT (samples_late, missing);
      /* Most of its time then lies where one signal found it, or
         nowhere if none did: say so, the profile of that thread is
         the kernel's guess.  */
      if (missing > got)
        GM_COUNT (threads_late, 1);
    }
}

void
gm_sample_settle (struct gm_thread *t)
{
  gm_settle (t, gm_signal_blocked ());
}

void
gm_sample_leave (struct gm_thread *t)
{
  /* Block the signal first: one still on its way would carry periods
     counted here once more.  The thread is ending; what it still runs
     (other destructors) is no longer sampled.  */
  unsigned long long set = gm_sigbit (gm_signo), old = 0;
  if (t->armed_ns < 0
      || gm_syscall (SYS_rt_sigprocmask, SIG_BLOCK, (long) &set, (long) &old,
                     sizeof set, 0, 0) < 0)
    return;
  gm_settle (t, (old & set) != 0);
}

void
gm_sample_stop_forked (void)
{
  /* The timers are not inherited and their ids are the parent's.  */
  for (struct gm_thread *t = gm_threads; t != NULL; t = t->next)
    t->timer = -1;
  gm_hist.sampling = 0;
}

void
gm_hist_reset (void)
{
  gm_modules_reset ();
  for (struct gm_thread *t = gm_threads; t != NULL; t = t->next)
    t->weight = t->weight_sq = t->wall_weight = t->wall_weight_sq = 0;
  if (gm_hist.bin == NULL)
    return;
  for (size_t i = 0; i < gm_hist.nbins; i++)
    __atomic_store_n (&gm_hist.bin[i], 0, __ATOMIC_RELAXED);
}

uint32_t
gm_sample_dispersion (void)
{
  unsigned long long w = 0, sq = 0;
  for (struct gm_thread *t = gm_threads; t != NULL; t = t->next)
    {
      w += t->weight + t->wall_weight;
      sq += t->weight_sq + t->wall_weight_sq;
    }
  if (w == 0)
    return 0;
  unsigned long long d = sq / w * GMON_DISP_ONE
                         + sq % w * GMON_DISP_ONE / w;
  return d > 0xffffffffULL ? 0xffffffffU : (uint32_t) d;
}
