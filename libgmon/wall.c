/* wall.c - wall-clock sampling (LIBGMON_CLOCK=wall): the time threads
   spend blocked.

   A running thread's wall time is its CPU time, which its CPU-time
   timer samples as in the default mode (sample.c).  What those timers
   cannot see is the time a thread waits in the kernel: in read, poll,
   a mutex, nanosleep.  A signal cannot measure it either: a blocked
   nanosleep, poll, select or epoll_wait that takes a signal returns
   EINTR even with SA_RESTART, and the program's sleeps would be cut
   short.  So no thread is ever signalled for it.  Instead a sampler
   thread of libgmon's own (every signal blocked, no instrumented code,
   so never in the profile itself) wakes every period on
   CLOCK_MONOTONIC and, for every thread record, reads
   /proc/self/task/TID/syscall: "running" for a thread on a CPU or
   runnable (its time is CPU time, or preemption, counted as running),
   else the system call it is blocked in with its stack pointer.  A
   blocked thread is credited with the wall time since the last look
   minus the CPU time it used meanwhile (which its timer counted), at
   the first return address into the program above its stack pointer:
   the -pg function that called the blocking libc function.  Its call
   stack is followed from there through the frame chain as stacks.c's
   walk does.

   The thread is blocked, so its stack holds still while read, but it
   may wake at any moment: the stack is read through process_vm_readv
   on our own pid, which fails instead of faulting, and every address
   found is validated (inside the program's text, preceded by a call
   instruction, frames within the stack and above each other), so that
   garbage costs at most a misplaced sample.  */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>

#include "internal.h"

#define GM_NS 1000000000LL
/* The sampler looks at most this often: a look costs a few system
   calls per thread.  */
#define GM_WALL_MIN_PERIOD_NS 10000000LL
/* How far above the stack pointer the return into the program is
   looked for: libc's frames between them are small.  */
#define GM_WALL_SCAN 16384

/* The sampler's buffer for a stack's top (only the sampler uses it).  */
static uintptr_t gm_wall_buf[GM_WALL_SCAN / sizeof (uintptr_t)];

static long long
gm_monotonic_ns (void)
{
  struct
  {
    long sec, nsec;
  } ts = { 0, 0 };
  (void) gm_syscall (SYS_clock_gettime, CLOCK_MONOTONIC, (long) &ts, 0, 0, 0,
                     0);
  return (long long) ts.sec * GM_NS + ts.nsec;
}

/* Copy n bytes at addr of our own memory into buf, without faulting.
   Returns the bytes copied (0 on failure).  */
static size_t
gm_peek (void *buf, uintptr_t addr, size_t n)
{
  struct iovec local = { buf, n }, remote = { (void *) addr, n };
  long r = gm_syscall (SYS_process_vm_readv, gm_getpid (), (long) &local, 1,
                       (long) &remote, 1, 0);
  return r > 0 ? (size_t) r : 0;
}



/* The target of the direct call that returns to ret (a call,
   gm_return_address) into *to: 0 for an indirect call.  */
static int
gm_direct_target (uintptr_t ret, uintptr_t *to)
{
#if defined(__x86_64__) || defined(__i386__)
  const unsigned char *c = (const unsigned char *) ret;
  if (ret - gm_lowpc < 5 || c[-5] != 0xe8)
    return 0;
  int32_t rel = (int32_t) ((uint32_t) c[-4] | (uint32_t) c[-3] << 8
                           | (uint32_t) c[-2] << 16 | (uint32_t) c[-1] << 24);
  *to = ret + (uintptr_t) (intptr_t) rel;
#elif defined(__aarch64__)
  uint32_t insn = *(const uint32_t *) (ret - 4);
  if ((insn & 0xfc000000u) != 0x94000000u)
    return 0;
  int32_t imm = (int32_t) (insn << 6) >> 6;
  *to = ret - 4 + (uintptr_t) ((intptr_t) imm * 4);
#endif
  return 1;
}

/* Whether the function at to, in the program, sets up a frame first
   (push %rbp or %ebp, stp x29, x30, after the landing pad if any), as
   every -pg function does and mcount, the PC thunks and the PLT do
   not.  */
static int
gm_starts_frame (uintptr_t to)
{
  if (!gm_in_text (to) || to + 8 > gm_highpc)
    return 0;
#if defined(__x86_64__) || defined(__i386__)
  const unsigned char *p = (const unsigned char *) to;
  if (p[0] == 0xf3 && p[1] == 0x0f && p[2] == 0x1e
      && (p[3] == 0xfa || p[3] == 0xfb))
    p += 4;
  return p[0] == 0x55;
#elif defined(__aarch64__)
  const uint32_t *p = (const uint32_t *) to;
  /* bti c, paciasp.  */
  for (int k = 0; k < 2 && (p[0] == 0xd503245fu || p[0] == 0xd503233fu); k++)
    p++;
  return (p[0] & 0xffc07fffu) == 0xa9807bfdu;   /* stp x29, x30, [sp, #-n]! */
#endif
}

/* Whether the call that returns to ret may have called the function
   that holds pc: a direct call must go to the start of a function that
   sets up a frame, at most 1 MB below pc; an indirect one may go
   anywhere.  The stale pairs of words that earlier, deeper calls left
   in uninitialised locals pass gm_return_address, but seldom this:
   their calls went to libc through the PLT, to i386's PC thunks, to
   mcount.  */
static int
gm_may_call (uintptr_t ret, uintptr_t pc)
{
  uintptr_t to;
  if (!gm_direct_target (ret, &to))
    return 1;
  return to <= pc && pc - to < (1u << 20) && gm_starts_frame (to);
}

/* Whether the call that returns to ret (a call, gm_return_address) goes
   into a shared library: to a PLT entry (a jump through the GOT), or
   through the GOT itself (-fno-plt).  The libc function a thread
   blocks in is called so; the stale return addresses that libc's
   uninitialised locals hold (from earlier, deeper calls: mcount's
   arguments, libgmon's own calls) mostly are not.  */
static int
gm_library_call (uintptr_t ret)
{
  uintptr_t to;
#if defined(__x86_64__) || defined(__i386__)
  const unsigned char *c = (const unsigned char *) ret;
  /* call *disp32(%rip), call *disp32(%ebx).  */
  if (ret - gm_lowpc >= 6 && c[-6] == 0xff
      && (c[-5] == 0x15 || c[-5] == 0x93))
    return 1;
  if (ret - gm_lowpc < 5 || c[-5] != 0xe8)
    return 0;
  int32_t rel = (int32_t) ((uint32_t) c[-4] | (uint32_t) c[-3] << 8
                           | (uint32_t) c[-2] << 16 | (uint32_t) c[-1] << 24);
  to = ret + (uintptr_t) (intptr_t) rel;
  if (!gm_in_text (to) || to + 8 > gm_highpc)
    return 1;
  const unsigned char *p = (const unsigned char *) to;
  /* endbr64, endbr32; bnd; jmp *GOT(%rip) or *GOT(%ebx).  */
  if (p[0] == 0xf3 && p[1] == 0x0f && p[2] == 0x1e
      && (p[3] == 0xfa || p[3] == 0xfb))
    p += 4;
  if (p[0] == 0xf2)
    p++;
  return p[0] == 0xff && (p[1] == 0x25 || p[1] == 0xa3);
#elif defined(__aarch64__)
  uint32_t insn = *(const uint32_t *) (ret - 4);
  if ((insn & 0xfc000000u) != 0x94000000u)
    return 0;
  int32_t imm = (int32_t) (insn << 6) >> 6;
  to = ret - 4 + (uintptr_t) ((intptr_t) imm * 4);
  if (!gm_in_text (to) || to + 8 > gm_highpc)
    return 1;
  const uint32_t *p = (const uint32_t *) to;
  if (p[0] == 0xd503245fu)      /* bti c */
    p++;
  return (p[0] & 0x9f00001fu) == 0x90000010u;   /* adrp x16 */
#endif
}


/* The stack pointer in /proc/self/task/TID/syscall's line: "running",
   or the system call's number and arguments (or -1 outside a system
   call), then sp and pc.  0 if running or unreadable.  */
static uintptr_t
gm_blocked_sp (int tid)
{
  char path[64], line[256];
  size_t len = 0;
  if (!gm_append (path, sizeof path, &len, "/proc/self/task/")
      || !gm_append_uint (path, sizeof path, &len, (unsigned) tid)
      || !gm_append (path, sizeof path, &len, "/syscall"))
    return 0;
  int fd = (int) gm_syscall (SYS_openat, AT_FDCWD, (long) path,
                             O_RDONLY | O_CLOEXEC, 0, 0, 0);
  if (fd < 0)
    return 0;
  long n = gm_syscall (SYS_read, fd, (long) line, sizeof line - 1, 0, 0, 0);
  (void) gm_syscall (SYS_close, fd, 0, 0, 0, 0, 0);
  if (n <= 0 || line[0] == 'r')
    return 0;
  /* The second-to-last field.  */
  uintptr_t field[2] = { 0, 0 };
  int k = 0;
  for (long i = 0; i < n && line[i] != '\n'; i++)
    {
      char c = line[i];
      if (c == ' ')
        {
          field[0] = field[1];
          field[1] = 0;
          k = 0;
        }
      else if (c == 'x')
        k = 1;
      else if (k)
        field[1] = field[1] << 4
                   | (uintptr_t) (c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
    }
  return field[0];
}

/* The stack of thread t blocked with stack pointer sp, into f (at
   most gm_stacks_depth frames; at least 1 for the histogram): 0 when
   no return into the program was found.  *cut when deeper.  */
static unsigned
gm_blocked_stack (const struct gm_thread *t, uintptr_t sp, uintptr_t *f,
                  unsigned depth, int *cut)
{
  const uintptr_t w = sizeof (uintptr_t);
  uintptr_t hi = t->stack_hi != 0 && sp < t->stack_hi ? t->stack_hi
                                                      : sp + GM_WALL_SCAN;
  size_t want = hi - sp < GM_WALL_SCAN ? hi - sp : GM_WALL_SCAN;
  size_t got = sp % w == 0 ? gm_peek (gm_wall_buf, sp, want) / w : 0;
  /* A call into a library first; any call if none is (a static
     program's libc is part of it).  A call of one of the program's own
     functions is no better a guess: libc's uninitialised locals hold
     stale ones (i386: those of calls main made before).  */
  size_t i = 0;
  while (i < got && !(gm_return_address (gm_code_addr (gm_wall_buf[i]))
                      && gm_library_call (gm_code_addr (gm_wall_buf[i]))))
    i++;
  if (i == got)
    for (i = 0; i < got && !gm_return_address (gm_code_addr (gm_wall_buf[i]));
         i++)
      ;
  if (i == got)
    return 0;
  unsigned n = 0;
  f[n++] = gm_code_addr (gm_wall_buf[i]);
  if (depth <= 1)
    return n;
  /* The caller's frame record: the first pair above the return
     address of a saved frame pointer above it and a return address.  */
  uintptr_t fp = 0;
  for (size_t j = i + 1; j + 1 < got; j++)
    {
      uintptr_t at = sp + j * w, up = gm_wall_buf[j];
      uintptr_t ret = gm_code_addr (gm_wall_buf[j + 1]);
      if (up % w == 0 && up > at && up <= hi - 2 * w && gm_return_address (ret)
          && gm_may_call (ret, f[0]))
        {
          fp = at;
          break;
        }
    }
  return gm_follow_records (fp, sp + (i + 1) * w, hi, gm_peek, f, n, depth,
                            cut);
}

/* Credit thread t with the periods it spent blocked since the last
   look (now, CPU time cpu), where it waits now.  */
static void
gm_wall_look (struct gm_thread *t, int tid, long long now, long long cpu,
              long long period)
{
  long long off = (now - t->wall_ns) - (cpu - t->wall_cpu_ns);
  t->wall_ns = now;
  t->wall_cpu_ns = cpu;
  uintptr_t sp = gm_blocked_sp (tid);
  if (sp == 0 || off <= 0)
    {
      /* Running, or runnable and waiting for a CPU: what was not CPU
         time is not counted.  */
      t->wall_off_ns = 0;
      return;
    }
  t->wall_off_ns += off;
  unsigned long w = (unsigned long) (t->wall_off_ns / period);
  if (w == 0)
    return;
  t->wall_off_ns %= period;

  uintptr_t f[GM_STACKS_MAX];
  int cut = 0;
  unsigned depth = gm_stacks_depth > 0 ? gm_stacks_depth : 1;
  unsigned n = gm_blocked_stack (t, sp, f, depth, &cut);
  if (n == 0 || !gm_sample_credit (f[0], w))
    return;
  t->wall_weight += w;
  t->wall_weight_sq += (unsigned long long) w * w;
  if (gm_stacks_depth > 0 && gm_stacks_add (f, n, w) != NULL && cut)
    GM_COUNT (stacks_cut, w);
}

static void *
gm_wall_sampler (void *arg)
{
  (void) arg;
  long long period = GM_NS / gm_hist.hz;
  long long tick = period > GM_WALL_MIN_PERIOD_NS ? period
                                                  : GM_WALL_MIN_PERIOD_NS;
  long long next = gm_monotonic_ns ();
  while (gm_running () && gm_hist.sampling)
    {
      next += tick;
      struct
      {
        long sec, nsec;
      } ts = { (long) (next / GM_NS), (long) (next % GM_NS) };
      while (gm_syscall (SYS_clock_nanosleep, CLOCK_MONOTONIC, TIMER_ABSTIME,
                         (long) &ts, 0, 0, 0) == -EINTR)
        ;
      /* Records are never freed nor unlinked: the list is safe to walk
         from the head read under the lock.  */
      gm_lock ();
      struct gm_thread *head = gm_threads;
      gm_unlock ();
      int on = __atomic_load_n (&gm_on, __ATOMIC_RELAXED);
      long long now = gm_monotonic_ns ();
      for (struct gm_thread *t = head; t != NULL; t = t->next)
        {
          int tid = __atomic_load_n (&t->tid, __ATOMIC_RELAXED);
          long long cpu = tid > 0 && on ? gm_thread_cpu_ns (tid) : -1;
          if (cpu < 0 || t->wall_tid != tid)
            {
              /* A new thread, one gone, or collection paused: start
                 counting afresh.  */
              t->wall_tid = cpu < 0 ? 0 : tid;
              t->wall_ns = now;
              t->wall_cpu_ns = cpu;
              t->wall_off_ns = 0;
              continue;
            }
          gm_wall_look (t, tid, now, cpu, period);
        }
      if (now > next + tick)
        next = now;
    }
  return NULL;
}

void
gm_wall_start (void)
{
  if (!gm_hist.wall || !gm_hist.sampling)
    return;
  pthread_attr_t attr;
  pthread_t th;
  sigset_t all, old;
  int r = pthread_attr_init (&attr);
  if (r == 0)
    {
      (void) pthread_attr_setstacksize (&attr, 256 * 1024);
      (void) pthread_attr_setdetachstate (&attr, PTHREAD_CREATE_DETACHED);
      /* Every signal blocked, for good: the program's signals go to the
         program's threads.  */
      sigfillset (&all);
      pthread_sigmask (SIG_SETMASK, &all, &old);
      r = pthread_create (&th, &attr, gm_wall_sampler, NULL);
      pthread_sigmask (SIG_SETMASK, &old, NULL);
      pthread_attr_destroy (&attr);
    }
  if (r != 0)
    gm_say ("no wall-clock samples of blocked threads: cannot start a"
            " thread: ", gm_errstr (r), NULL);
}
