/* control.c - start, stop, configuration, fork and exit handling.

   Life cycle:
     __monstartup      reads the environment, allocates the histogram,
                       installs the sampling handler, attaches the calling
                       thread; called by the -pg startup code (gcrt1.o),
                       by our weak __gmon_start__ when the program was
                       linked without -pg, or by the constructor of the
                       preloaded libgmon.so.
     moncontrol        stops or resumes counting and every thread's timer.
     _mcleanup         stop and write.  When the -pg startup code's atexit
                       registration calls it, the write is left to our
                       late destructor, so calls made by the program's own
                       destructors are counted too (glibc misses them).
     fork              the child starts from zero and writes under its own
                       name.
   Dumps while the program runs, and at its abnormal end, are dump.c's;
   every profile is written by gm_save here.  */

#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdarg.h>
#include <errno.h>
#include <link.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>

/* The functions declared in gmon.h are the library's interface; the
   build hides everything else (-fvisibility=hidden).  */
#pragma GCC visibility push(default)
#include "gmon.h"
#pragma GCC visibility pop
#include "../gmon_out.h"
#include "internal.h"

#define GM_PATH_MAX 4096
#define GM_GRND_NONBLOCK 1

unsigned char gm_on;
struct gm_stats gm_stats;
uintptr_t gm_lowpc, gm_highpc, gm_exe_base;

static enum
{
  GM_IDLE,                      /* not started */
  GM_RUNNING,                   /* started; counting when gm_on */
  GM_DONE                       /* final profile written */
} gm_state;

/* Set by our atexit handler, which runs before a _mcleanup that the -pg
   startup code registered earlier (atexit handlers run last-in first-out;
   see gm_init).  */
static int gm_exiting;
/* Set in fork children: they write under a name of their own.  */
static int gm_forked;
/* The process that profiles: a vfork child or a clone sharing our
   memory has another pid, and must neither write nor change our
   state.  */
static int gm_pid;
/* The run's identity and the number of the last snapshot record, for
   the records beside the profiles (gmon_out.h); guarded by gm_lock.  A
   fork child and libgmon_reset start a run of their own: their counts
   start from zero again.  */
static uint64_t gm_run_id;
static unsigned long long gm_seq;
/* Numbered snapshots written, and those that could not be.  */
static unsigned long gm_snapshots, gm_snapshot_failures;
/* Set by the fork prepare handler when it took the lock.  */
static __thread int gm_fork_locked
  __attribute__ ((tls_model ("initial-exec")));

/* The main program, from dl_iterate_phdr.  */
static struct
{
  uintptr_t text_lo, text_hi;   /* its executable segments */
  int dynamic;                  /* has an interpreter: libc is elsewhere */
} gm_exe;

/* Settings, read once from the environment at startup.  */
static struct
{
  char prefix[GM_PATH_MAX];     /* GMON_OUT_PREFIX, "" when unset */
  int has_prefix;
  char pattern[GM_PATH_MAX];    /* LIBGMON_OUT, "" when unset */
  char cwd[GM_PATH_MAX];        /* directory for relative names */
  char exe[256];                /* program name, for %e */
  enum gm_format format;
  unsigned hz;
  int signo;
  int wall;                     /* LIBGMON_CLOCK=wall */
  int no_modules;               /* LIBGMON_MODULES=0 */
  int verbose;
} gm_cfg;

/* ---- messages -------------------------------------------------------- */

void
gm_say (const char *first, ...)
{
  char line[1024];
  size_t len = 0;
  va_list ap;
  gm_append (line, sizeof line - 1, &len, "libgmon: ");
  va_start (ap, first);
  for (const char *s = first; s != NULL; s = va_arg (ap, const char *))
    gm_append (line, sizeof line - 1, &len, s);
  va_end (ap);
  line[len++] = '\n';
  (void) gm_write_all (2, line, len);
}

const char *
gm_errstr (int err)
{
  const char *s = strerrordesc_np (err);
  return s != NULL ? s : "unknown error";
}

const char *
gm_signame (char *buf, size_t cap, int sig)
{
  size_t len = 0;
  const char *abbrev = sig < SIGRTMIN ? sigabbrev_np (sig) : NULL;
  gm_append (buf, cap, &len, "SIG");
  if (abbrev != NULL)
    gm_append (buf, cap, &len, abbrev);
  else
    {
      gm_append (buf, cap, &len, "RTMIN+");
      gm_append_uint (buf, cap, &len, (unsigned) (sig - SIGRTMIN));
    }
  return buf;
}

/* ---- configuration --------------------------------------------------- */

static void
gm_copy (char *dst, size_t cap, const char *src, const char *var)
{
  size_t len = 0;
  dst[0] = '\0';
  if (!gm_append (dst, cap, &len, src))
    {
      dst[0] = '\0';
      gm_say ("ignoring ", var, ": too long", NULL);
    }
}

long
gm_parse_uint (const char *s, unsigned long max)
{
  unsigned long v = 0;
  if (*s == '\0')
    return -1;
  for (; *s != '\0'; s++)
    {
      if (*s < '0' || *s > '9')
        return -1;
      v = v * 10 + (unsigned long) (*s - '0');
      if (v > max)
        return -1;
    }
  return (long) v;
}

/* Whether sig may carry the sampling timers' signals.  Our handler takes
   over the signal and passes on only the signals that are not from our
   timers, to the handler found before us (SIG_DFL is then dropped).  So
   a signal the program relies on by default must not be used: SIGSEGV
   and the other fault signals would return to the faulting instruction
   for ever, SIGINT or SIGTERM would no longer stop the program, SIGCHLD
   or SIGWINCH would reach nobody.  Left are the signals that exist for
   timers (SIGPROF, SIGVTALRM) or for the program's own use (SIGUSR1,
   SIGUSR2, the real-time signals glibc leaves to programs).  */
static int
gm_signal_usable (int sig)
{
  return sig == SIGPROF || sig == SIGVTALRM || sig == SIGUSR1
         || sig == SIGUSR2 || (sig >= SIGRTMIN && sig <= SIGRTMAX);
}

/* "PROF", "VTALRM", "USR1", "USR2", "RTMIN+n" (each with or without
   "SIG") or a number, if gm_signal_usable accepts it; -1 if not.  */
static int
gm_parse_signal (const char *s)
{
  static const struct
  {
    const char *name;
    int sig;
  } names[] = {
    { "PROF", SIGPROF }, { "VTALRM", SIGVTALRM },
    { "USR1", SIGUSR1 }, { "USR2", SIGUSR2 }
  };
  int sig = -1;
  if (strncmp (s, "SIG", 3) == 0)
    s += 3;
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (strcmp (s, names[i].name) == 0)
      sig = names[i].sig;
  if (strncmp (s, "RTMIN", 5) == 0)
    {
      long n = s[5] == '\0' ? 0 : s[5] == '+' ? gm_parse_uint (s + 6, 64) : -1;
      sig = n < 0 ? -1 : SIGRTMIN + (int) n;
    }
  else if (sig < 0)
    sig = (int) gm_parse_uint (s, 64);
  return gm_signal_usable (sig) ? sig : -1;
}

static void
gm_config_read (void)
{
  /* secure_getenv: in setuid programs every variable is ignored.  */
  const char *v;

  gm_cfg.format = GM_FORMAT_GNU;
  gm_cfg.hz = 1000;
  gm_cfg.signo = SIGPROF;

  if ((v = secure_getenv ("GMON_OUT_PREFIX")) != NULL)
    {
      gm_copy (gm_cfg.prefix, sizeof gm_cfg.prefix, v, "GMON_OUT_PREFIX");
      gm_cfg.has_prefix = 1;
    }
  if ((v = secure_getenv ("LIBGMON_OUT")) != NULL)
    gm_copy (gm_cfg.pattern, sizeof gm_cfg.pattern, v, "LIBGMON_OUT");
  if ((v = secure_getenv ("LIBGMON_FORMAT")) != NULL)
    {
      if (strcmp (v, "bsd") == 0)
        gm_cfg.format = GM_FORMAT_BSD;
      else if (strcmp (v, "gnu") != 0)
        gm_say ("ignoring LIBGMON_FORMAT=", v, " (use gnu or bsd)", NULL);
    }
  if ((v = secure_getenv ("LIBGMON_HZ")) != NULL)
    {
      long hz = gm_parse_uint (v, 100000);
      if (hz >= 0)
        gm_cfg.hz = (unsigned) hz;
      else
        gm_say ("ignoring LIBGMON_HZ=", v, " (use 0 to 100000)", NULL);
    }
  if ((v = secure_getenv ("LIBGMON_SIGNAL")) != NULL)
    {
      int sig = gm_parse_signal (v);
      if (sig > 0)
        gm_cfg.signo = sig;
      else
        gm_say ("ignoring LIBGMON_SIGNAL=", v,
                " (use PROF, VTALRM, USR1, USR2 or RTMIN+n)", NULL);
    }
  if ((v = secure_getenv ("LIBGMON_CLOCK")) != NULL)
    {
      if (strcmp (v, "wall") == 0)
        gm_cfg.wall = 1;
      else if (strcmp (v, "cpu") != 0)
        gm_say ("ignoring LIBGMON_CLOCK=", v, " (use cpu or wall)", NULL);
    }
  if ((v = secure_getenv ("LIBGMON_STACKS")) != NULL)
    {
      long depth = gm_parse_uint (v, GM_STACKS_MAX);
      if (depth >= 0)
        gm_stacks_depth = (unsigned) depth;
      else
        gm_say ("ignoring LIBGMON_STACKS=", v, " (use 0 to 128)", NULL);
    }
  if ((v = secure_getenv ("LIBGMON_MODULES")) != NULL)
    {
      if (strcmp (v, "0") == 0)
        gm_cfg.no_modules = 1;
      else if (strcmp (v, "1") != 0)
        gm_say ("ignoring LIBGMON_MODULES=", v, " (use 0 or 1)", NULL);
    }
  if ((v = secure_getenv ("LIBGMON_VERBOSE")) != NULL)
    gm_cfg.verbose = strcmp (v, "0") != 0 && *v != '\0';

  /* Relative names are resolved against the directory the program
     started in, not the one it happens to be in at exit (glibc's
     behaviour, which loses profiles of programs that chdir).  */
  if (gm_syscall (SYS_getcwd, (long) gm_cfg.cwd, sizeof gm_cfg.cwd, 0, 0, 0,
                  0) < 0)
    gm_cfg.cwd[0] = '\0';
  gm_copy (gm_cfg.exe, sizeof gm_cfg.exe, program_invocation_short_name,
           "the program name");
}

/* A run's identity: 64 random bits (with the time, the pid and an
   address instead, should the kernel have no randomness to give yet).  */
static uint64_t
gm_new_run_id (void)
{
  uint64_t id = 0;
  if (gm_syscall (SYS_getrandom, (long) &id, sizeof id, GM_GRND_NONBLOCK, 0,
                  0, 0) != (long) sizeof id || id == 0)
    id = (uint64_t) gm_realtime_ns () * 0x9e3779b97f4a7c15ULL
         ^ (uint64_t) gm_getpid () << 32 ^ (uintptr_t) &id;
  return id;
}

/* ---- the main program ------------------------------------------------ */

#ifdef PIC
/* Whether the program's dynamic string table names one of the profiling
   entry points, i.e. whether it was compiled with -pg.  */
static int
gm_instrumented (const struct dl_phdr_info *info)
{
  static const char *const names[] = { "mcount", "_mcount", "__fentry__" };
  const ElfW (Dyn) *dyn = NULL;
  for (int i = 0; i < info->dlpi_phnum; i++)
    if (info->dlpi_phdr[i].p_type == PT_DYNAMIC)
      dyn = (const ElfW (Dyn) *) (info->dlpi_addr
                                  + info->dlpi_phdr[i].p_vaddr);
  uintptr_t strtab = 0;
  size_t size = 0;
  for (; dyn != NULL && dyn->d_tag != DT_NULL; dyn++)
    if (dyn->d_tag == DT_STRTAB)
      strtab = dyn->d_un.d_ptr;
    else if (dyn->d_tag == DT_STRSZ)
      size = dyn->d_un.d_val;
  if (strtab == 0)
    return 0;
  /* ld.so relocates these entries in place on most targets; where it
     does not, they are still offsets from the load bias.  */
  if (strtab < info->dlpi_addr)
    strtab += info->dlpi_addr;
  const char *tab = (const char *) strtab;
  for (size_t i = 0; i < size; i += strnlen (tab + i, size - i) + 1)
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
      if (strncmp (tab + i, names[k], size - i) == 0)
        return 1;
  return 0;
}
#endif

struct gm_exe_info
{
  uintptr_t base, text_lo, text_hi;
  int dynamic;
  int instrumented;             /* only known in the shared library */
};

static int
gm_exe_cb (struct dl_phdr_info *info, size_t size, void *data)
{
  struct gm_exe_info *e = data;

  e->base = info->dlpi_addr;
  e->text_lo = UINTPTR_MAX;
  e->text_hi = 0;
  for (int i = 0; i < info->dlpi_phnum; i++)
    {
      const ElfW (Phdr) *ph = &info->dlpi_phdr[i];
      uintptr_t start = info->dlpi_addr + ph->p_vaddr;
      if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X))
        {
          if (start < e->text_lo)
            e->text_lo = start;
          if (start + ph->p_memsz > e->text_hi)
            e->text_hi = start + ph->p_memsz;
        }
      else if (ph->p_type == PT_INTERP)
        e->dynamic = 1;
    }
#ifdef PIC
  e->instrumented = gm_instrumented (info);
#endif
  return 1;                     /* the main program comes first: stop */
}

static void
gm_exe_scan (struct gm_exe_info *e)
{
  e->dynamic = 0;
  e->instrumented = 0;
  e->text_lo = e->text_hi = e->base = 0;
  dl_iterate_phdr (gm_exe_cb, e);
}

/* The entry point the compilers call (mach/mcount-*.S).  */
#if defined(__aarch64__)
# define GM_ENTRY _mcount
# define GM_ENTRY_NAME "_mcount"
#else
# define GM_ENTRY mcount
# define GM_ENTRY_NAME "mcount"
#endif
extern void GM_ENTRY (void);

/* A program linked as "cc -pg -lgmon prog.c" (the library before the
   objects) gets libc's mcount and ours only for the start-up code: it
   would run, count nothing and write an empty profile.  Say so.  */
static void
gm_check_entry (void)
{
  void *entry = dlsym (RTLD_DEFAULT, GM_ENTRY_NAME);
  if (entry != NULL && entry != (void *) GM_ENTRY)
    gm_say ("the program calls another library's " GM_ENTRY_NAME
            ", so no calls will be counted (link -lgmon after the"
            " program's objects)", NULL);
}

/* ---- fork ------------------------------------------------------------ */

static void
gm_fork_prepare (void)
{
  /* fork from a signal handler that interrupted libgmon: taking the lock
     could deadlock; the child may then see a registry in mid-update,
     which only ever costs counts.  */
  if (gm_busy)
    return;
  gm_busy = 1;
  gm_lock ();
  gm_fork_locked = 1;
}

static void
gm_fork_parent (void)
{
  if (!gm_fork_locked)
    return;
  gm_fork_locked = 0;
  gm_unlock ();
  gm_busy = 0;
}

/* The child starts from zero, so the parent's and the children's call
   counts add up to the true totals (gprof -s); glibc's children inherit
   the parent's counts.

   The child is not sampled, as with glibc.  A timer armed here would
   send its signal to whatever the child makes of it, and the usual code
   between fork and exec resets every signal to SIG_DFL (SIGPROF's
   default is to terminate) or blocks them all; a signal still pending
   at exec survives into the new program, whose disposition is SIG_DFL.
   Nothing here can tell a child that will exec from one that will not,
   and dispositions can be changed behind libc's back, so no timer is
   safe in a fork child: its histogram stays empty.  */
static void
gm_fork_child (void)
{
  gm_lock_reinit ();
  gm_modules_forked ();
  if (gm_state == GM_RUNNING)
    {
      gm_forked = 1;
      gm_pid = gm_getpid ();
      gm_run_id = gm_new_run_id ();
      gm_seq = 0;
      gm_snapshots = gm_snapshot_failures = 0;
      gm_sample_stop_forked ();
      gm_threads_forked ();
      gm_arcs_reset ();
      gm_hist_reset ();
      gm_stacks_reset ();
      gm_memzero (&gm_stats, sizeof gm_stats);
      if (gm_thr != NULL)
        {
          gm_thr->tid = gm_gettid ();
          gm_stats.threads = 1;
        }
    }
  /* A fork from a signal handler that interrupted libgmon did not take
     the lock: the interrupted code still owns gm_busy.  */
  if (gm_fork_locked)
    {
      gm_fork_locked = 0;
      gm_busy = 0;
    }
  if (gm_state == GM_RUNNING)
    gm_dump_forked ();
}

/* ---- start ----------------------------------------------------------- */

void
__monstartup (unsigned long lowpc, unsigned long highpc)
{
  static int called;
  struct gm_exe_info e;

  /* Only the first call counts.  The set-up runs without gm_lock: it
     calls into libc (dlsym, pthread_atfork) whose locks fork and dlopen
     hold while they call us.  */
  if (gm_busy || lowpc >= highpc
      || __atomic_exchange_n (&called, 1, __ATOMIC_ACQ_REL))
    return;
  gm_config_read ();
  gm_exe_scan (&e);
  gm_exe_base = e.base;
  gm_exe.text_lo = e.text_lo;
  gm_exe.text_hi = e.text_hi;
  gm_exe.dynamic = e.dynamic;
  if (gm_exe.dynamic)
    gm_check_entry ();
  gm_lowpc = lowpc & ~(uintptr_t) 3;
  gm_highpc = (highpc + 3) & ~(uintptr_t) 3;

  int r = gm_sample_init (gm_cfg.hz, gm_cfg.signo, gm_cfg.wall);
  if (r < 0)
    gm_say ("no PC sampling: ", gm_errstr (-r), NULL);
  else if (gm_hist.sampling && gm_sample_foreign_handler ())
    {
      char name[32];
      gm_say ("the program has a handler for ",
              gm_signame (name, sizeof name, gm_cfg.signo),
              "; it now gets only the signals that are not libgmon's"
              " (LIBGMON_SIGNAL selects another signal)", NULL);
    }
  /* Before the first thread's table: it takes the epoch.  */
  if (gm_modules_init () < 0)
    gm_say ("no module table: ", gm_errstr (ENOMEM), NULL);
  if (gm_stacks_init () < 0)
    {
      gm_stacks_depth = 0;
      gm_say ("no call stacks: ", gm_errstr (ENOMEM), NULL);
    }
  gm_threads_init ();
  r = pthread_atfork (gm_fork_prepare, gm_fork_parent, gm_fork_child);
  if (r != 0)
    gm_say ("fork children will not be profiled correctly: ",
            gm_errstr (r), NULL);
  int paused = gm_dump_config ();

  gm_lock ();
  gm_pid = gm_getpid ();
  gm_run_id = gm_new_run_id ();
  __atomic_store_n (&gm_state, GM_RUNNING, __ATOMIC_RELEASE);
  __atomic_store_n (&gm_on, !paused, __ATOMIC_SEQ_CST);
  gm_unlock ();

  gm_busy = 1;
  if (gm_thr == NULL && gm_thread_attach () == NULL)
    GM_COUNT (lost_nomem, 1);
  gm_busy = 0;
  gm_dump_start ();
  gm_wall_start ();
}

extern __typeof (__monstartup) monstartup
  __attribute__ ((weak, alias ("__monstartup")));

void
moncontrol (int mode)
{
  if (gm_busy)
    return;
  gm_busy = 1;
  gm_lock ();
  if (gm_state == GM_RUNNING)
    {
      __atomic_store_n (&gm_on, mode != 0, __ATOMIC_SEQ_CST);
      if (mode == 0 && gm_thr != NULL)
        gm_sample_settle (gm_thr);
      gm_timers_set (mode != 0);
    }
  gm_unlock ();
  gm_busy = 0;
}

/* ---- output ---------------------------------------------------------- */

/* Append v with at least width digits.  */
static int
gm_append_padded (char *buf, size_t cap, size_t *len, unsigned long long v,
                  int width)
{
  char digits[24];
  size_t n = 0;
  if (!gm_append_uint (digits, sizeof digits, &n, v))
    return 0;
  for (int i = (int) n; i < width; i++)
    if (!gm_append (buf, cap, len, "0"))
      return 0;
  return gm_append (buf, cap, len, digits);
}

/* The name a write without an explicit name goes to; for a numbered
   snapshot (numbered: its record), with the process id if the name has
   none, the sequence number (8 digits at least, so that names sort in
   their order) and the time in seconds: "gmon.out.<pid>.<seq>.<time>".
   Returns 0 if it does not fit.  */
static int
gm_default_name (char *buf, size_t cap, int use_prefix,
                 const struct gm_meta *numbered)
{
  size_t len = 0;
  unsigned pid = (unsigned) gm_getpid ();
  int has_pid = 0;
  int ok = 1;

  buf[0] = '\0';
  if (use_prefix)
    {
      /* glibc's rule: "<prefix>.<pid>".  */
      ok = gm_append (buf, cap, &len, gm_cfg.prefix)
           && gm_append (buf, cap, &len, ".")
           && gm_append_uint (buf, cap, &len, pid);
      has_pid = 1;
    }
  else if (*gm_cfg.pattern == '\0')
    ok = gm_append (buf, cap, &len, "gmon.out");
  else
    for (const char *s = gm_cfg.pattern; *s != '\0' && ok; s++)
      if (s[0] == '%' && s[1] == 'p')
        {
          ok = gm_append_uint (buf, cap, &len, pid);
          has_pid = 1;
          s++;
        }
      else if (s[0] == '%' && s[1] == 't')
        {
          ok = gm_append_uint (buf, cap, &len, (unsigned) gm_gettid ());
          s++;
        }
      else if (s[0] == '%' && s[1] == 'e')
        {
          ok = gm_append (buf, cap, &len, gm_cfg.exe);
          s++;
        }
      else
        {
          /* "%%" is one '%'; anything else is kept as it is.  */
          char c[2] = { s[0], '\0' };
          ok = gm_append (buf, cap, &len, c);
          if (s[0] == '%' && s[1] == '%')
            s++;
        }
  /* A fork child must not overwrite its parent's file, nor a snapshot
     another run's.  */
  if (ok && (gm_forked || numbered != NULL) && !has_pid)
    ok = gm_append (buf, cap, &len, ".") && gm_append_uint (buf, cap, &len,
                                                            pid);
  if (ok && numbered != NULL)
    ok = gm_append (buf, cap, &len, ".")
         && gm_append_padded (buf, cap, &len, numbered->seq, 8)
         && gm_append (buf, cap, &len, ".")
         && gm_append_uint (buf, cap, &len,
                            (unsigned long long) numbered->sec);
  if (ok && buf[0] != '/' && gm_cfg.cwd[0] != '\0')
    {
      /* Prepend the start directory: shift the name right.  */
      size_t dir = gm_strlen (gm_cfg.cwd);
      if (len + dir + 2 > cap)
        return 0;
      for (size_t i = len + 1; i-- > 0;)
        buf[i + dir + 1] = buf[i];
      for (size_t i = 0; i < dir; i++)
        buf[i] = gm_cfg.cwd[i];
      buf[dir] = '/';
    }
  return ok;
}

/* What kept the sampling signal from libgmon, for the summary line.  */
static void
gm_report_signal (char *line, size_t cap, size_t *len,
                  enum gm_disposition disp, const struct gm_stats *s)
{
  static const char *const what[] = {
    [GM_DISP_REPLACED] = "the program replaced libgmon's handler",
    [GM_DISP_IGNORED] = "the program ignores it",
    [GM_DISP_DEFAULT] = "the program reset it to the default"
  };
  char name[32];
  if (disp == GM_DISP_OURS && s->threads_blocked == 0 && s->unsampled == 0)
    return;
  gm_append (line, cap, len, "; ");
  gm_append (line, cap, len, gm_signame (name, sizeof name,
                                         gm_sample_signo ()));
  gm_append (line, cap, len, " did not reach libgmon: ");
  if (disp != GM_DISP_OURS)
    gm_append (line, cap, len, what[disp]);
  if (s->threads_blocked != 0)
    {
      if (disp != GM_DISP_OURS)
        gm_append (line, cap, len, ", and ");
      gm_append (line, cap, len, "it was blocked in ");
      gm_append_uint (line, cap, len, s->threads_blocked);
      gm_append (line, cap, len, " threads");
    }
  if (s->unsampled != 0)
    {
      gm_append (line, cap, len, "; ");
      gm_append_uint (line, cap, len, s->unsampled);
      gm_append (line, cap, len, " samples missing");
    }
  gm_append (line, cap, len,
             " (LIBGMON_SIGNAL selects a signal the program leaves alone)");
}

/* The summary line: always with LIBGMON_VERBOSE, otherwise only when
   something was lost, could not be written or was not sampled.  */
static void
gm_report (const char *path, int err, const char *fallback,
           const struct gm_written *w, int stacks_err, int meta_err,
           int mod_err)
{
  struct gm_stats s = gm_stats;
  unsigned long lost = s.lost_nested + s.lost_nomem;
  enum gm_disposition disp = gm_hist.sampling ? gm_sample_disposition ()
                                              : GM_DISP_OURS;
  if (!gm_cfg.verbose && err == 0 && lost == 0 && s.timer_failures == 0
      && !w->saturated && disp == GM_DISP_OURS && s.unsampled == 0
      && s.stacks_dropped == 0 && stacks_err == 0 && meta_err == 0
      && mod_err == 0 && gm_snapshot_failures == 0)
    return;

  char line[1024];
  size_t cap = sizeof line - 1, len = 0;
  gm_append (line, cap, &len, "libgmon: ");
  if (err != 0)
    {
      gm_append (line, cap, &len, "cannot write ");
      gm_append (line, cap, &len, path);
      gm_append (line, cap, &len, ": ");
      gm_append (line, cap, &len, gm_errstr (err));
      if (fallback == NULL)
        {
          gm_append (line, cap, &len, "; profile lost");
          w = NULL;
        }
      else
        {
          gm_append (line, cap, &len, "; wrote ");
          gm_append (line, cap, &len, fallback);
          gm_append (line, cap, &len, " instead");
        }
      gm_append (line, cap, &len, "; ");
    }
  else
    {
      gm_append (line, cap, &len, path);
      gm_append (line, cap, &len, ": ");
    }
  gm_append_uint (line, cap, &len, s.threads);
  gm_append (line, cap, &len, " threads");
  if (w != NULL)
    {
      gm_append (line, cap, &len, ", ");
      gm_append_uint (line, cap, &len, w->arcs);
      gm_append (line, cap, &len, " arc records, ");
      gm_append_uint (line, cap, &len, w->calls);
      gm_append (line, cap, &len, " calls");
      if (w->modules != 0 || w->outside != 0)
        {
          gm_append (line, cap, &len, " (");
          gm_append_uint (line, cap, &len, w->modules);
          gm_append (line, cap, &len, " more with an end in another module, ");
          gm_append_uint (line, cap, &len, w->outside);
          gm_append (line, cap, &len, " from or to unknown code)");
        }
    }
  if (lost != 0)
    {
      gm_append (line, cap, &len, "; LOST ");
      gm_append_uint (line, cap, &len, lost);
      gm_append (line, cap, &len, " calls (");
      gm_append_uint (line, cap, &len, s.lost_nested);
      gm_append (line, cap, &len,
                 " in signal handlers interrupting libgmon, ");
      gm_append_uint (line, cap, &len, s.lost_nomem);
      gm_append (line, cap, &len, " for lack of memory)");
    }
  if (gm_hist.sampling)
    {
      gm_append (line, cap, &len, "; ");
      gm_append_uint (line, cap, &len, s.samples);
      gm_append (line, cap, &len, " samples at ");
      gm_append_uint (line, cap, &len, gm_hist.hz);
      gm_append (line, cap, &len, " Hz from ");
      gm_append_uint (line, cap, &len, s.signals);
      gm_append (line, cap, &len, " signals (");
      gm_append_uint (line, cap, &len, s.samples_in);
      gm_append (line, cap, &len, " in the program, ");
      gm_append_uint (line, cap, &len, s.samples_self);
      gm_append (line, cap, &len, " in libgmon, ");
      gm_append_uint (line, cap, &len,
                      s.samples - s.samples_in - s.samples_self);
      gm_append (line, cap, &len, " elsewhere: ");
      gm_append_uint (line, cap, &len, s.samples_mod);
      gm_append (line, cap, &len, " in other modules, ");
      gm_append_uint (line, cap, &len, s.samples - s.samples_in
                                       - s.samples_self - s.samples_mod);
      gm_append (line, cap, &len, " in none");
      if (s.samples_late != 0)
        {
          gm_append (line, cap, &len, "; ");
          gm_append_uint (line, cap, &len, s.samples_late);
          gm_append (line, cap, &len, " found at threads' ends");
          if (s.threads_late != 0)
            {
              gm_append (line, cap, &len, ", most of the time of ");
              gm_append_uint (line, cap, &len, s.threads_late);
              gm_append (line, cap, &len, " threads");
            }
        }
      gm_append (line, cap, &len, ")");
      gm_report_signal (line, cap, &len, disp, &s);
      if (s.stacks_cut != 0 || s.stacks_dropped != 0)
        {
          gm_append (line, cap, &len, "; stacks: ");
          gm_append_uint (line, cap, &len, s.stacks_cut);
          gm_append (line, cap, &len, " samples cut at ");
          gm_append_uint (line, cap, &len, gm_stacks_depth);
          gm_append (line, cap, &len, " frames, ");
          gm_append_uint (line, cap, &len, s.stacks_dropped);
          gm_append (line, cap, &len,
                     " without a stack (table full or stack unreadable)");
        }
      if (stacks_err != 0)
        {
          gm_append (line, cap, &len, "; cannot write ");
          gm_append (line, cap, &len, path);
          gm_append (line, cap, &len, GMON_STACKS_SUFFIX ": ");
          gm_append (line, cap, &len, gm_errstr (stacks_err));
        }
    }
  else
    gm_append (line, cap, &len, "; no PC sampling");
  if (s.timer_failures != 0)
    {
      gm_append (line, cap, &len, "; ");
      gm_append_uint (line, cap, &len, s.timer_failures);
      gm_append (line, cap, &len, " sampling timers could not be set up");
    }
  if (w != NULL && w->saturated)
    gm_append (line, cap, &len,
               "; BSD format: histogram bins clipped at 65535");
  if (gm_snapshots != 0 || gm_snapshot_failures != 0)
    {
      gm_append (line, cap, &len, "; ");
      gm_append_uint (line, cap, &len, gm_snapshots);
      gm_append (line, cap, &len, " snapshots written");
      if (gm_snapshot_failures != 0)
        {
          gm_append (line, cap, &len, ", ");
          gm_append_uint (line, cap, &len, gm_snapshot_failures);
          gm_append (line, cap, &len, " could not be");
        }
    }
  if (meta_err != 0)
    {
      gm_append (line, cap, &len, "; cannot write ");
      gm_append (line, cap, &len, path);
      gm_append (line, cap, &len, GMON_SNAP_SUFFIX ": ");
      gm_append (line, cap, &len, gm_errstr (meta_err));
    }
  if (mod_err != 0)
    {
      gm_append (line, cap, &len, "; cannot write ");
      gm_append (line, cap, &len, path);
      gm_append (line, cap, &len, GMON_MODULES_SUFFIX ": ");
      gm_append (line, cap, &len, gm_errstr (mod_err));
    }
  if (gm_modules_full ())
    gm_append (line, cap, &len, "; some modules were not registered"
               " (table full)");
  line[len++] = '\n';
  (void) gm_write_all (2, line, len);
}

/* The stacks of the samples, beside the profile just written to name
   (w): "<name>.stacks".  Not beside a pipe or a terminal, and not when
   nothing was sampled (fork children).  Returns 0 or -errno.  */
static int
gm_save_stacks (const char *name, const struct gm_written *w)
{
  if (gm_stacks_depth == 0 || !gm_hist.sampling || w->special)
    return 0;
  struct gm_stack_tree tree;
  size_t len = gm_strlen (name);
  char *path = gm_map (len + sizeof GMON_STACKS_SUFFIX);
  if (path == NULL)
    return -ENOMEM;
  size_t at = 0;
  gm_append (path, len + sizeof GMON_STACKS_SUFFIX, &at, name);
  gm_append (path, len + sizeof GMON_STACKS_SUFFIX, &at, GMON_STACKS_SUFFIX);
  gm_lock ();
  int r = gm_stacks_snapshot (&tree);
  gm_unlock ();
  if (r == 0)
    {
      r = gm_write_stacks (path, &tree, w->hash);
      gm_unmap (tree.map, tree.map_size);
    }
  gm_unmap (path, len + sizeof GMON_STACKS_SUFFIX);
  return r;
}

/* "<name><suffix>" in a mapping of *size bytes, or NULL.  */
static char *
gm_beside (const char *name, const char *suffix, size_t *size)
{
  size_t at = 0;
  *size = gm_strlen (name) + gm_strlen (suffix) + 1;
  char *path = gm_map (*size);
  if (path != NULL)
    {
      gm_append (path, *size, &at, name);
      gm_append (path, *size, &at, suffix);
    }
  return path;
}

/* The snapshot record m of the profile w beside name: "<name>.snap".  */
static int
gm_save_meta (const char *name, const struct gm_meta *m,
              const struct gm_written *w)
{
  size_t size;
  char *path = gm_beside (name, GMON_SNAP_SUFFIX, &size);
  if (path == NULL)
    return -ENOMEM;
  int r = gm_write_meta (path, m, w->hash);
  gm_unmap (path, size);
  return r;
}

/* Everything outside the program, beside the profile just built (w,
   arcs): "<name>.modules".  Not beside a pipe or a terminal, nor with
   LIBGMON_MODULES=0, nor when nothing lies outside the program.
   Returns 0 or -errno.  */
static int
gm_save_modules (const char *name, const struct gm_written *w,
                 const struct gm_arcs *arcs)
{
  if (gm_cfg.no_modules || w->special || gm_nmods == 0)
    return 0;
  size_t size;
  char *path = gm_beside (name, GMON_MODULES_SUFFIX, &size);
  if (path == NULL)
    return -ENOMEM;
  int r = gm_write_modules (path, arcs, w->hash);
  gm_unmap (path, size);
  return r < 0 ? r : 0;
}

/* Store the profile img (w) at name, its side files first: when a
   profile appears under its name, its stacks and its record (m, if
   not NULL) are there already.  A side file left by a write that then
   failed is recognised by its profile's hash, as an older one is.
   Returns 0 or -errno, and the side files' errors in *serr, *merr,
   *moderr.  */
static int
gm_store_all (const char *name, const struct gm_image *img,
              struct gm_written *w, const struct gm_arcs *arcs,
              const struct gm_meta *m, int *serr, int *merr, int *moderr)
{
  w->special = gm_is_special (name);
  *serr = gm_save_stacks (name, w);
  *moderr = gm_save_modules (name, w, arcs);
  *merr = m != NULL && !w->special ? gm_save_meta (name, m, w) : 0;
  return gm_image_store (img, name);
}

/* Snapshot and write.  name NULL: the default name (with glibc's fallback
   to "gmon.out" when GMON_OUT_PREFIX names an unwritable place), or
   with numbered set, the next numbered snapshot's, which is only
   written while profiling runs.  why goes in the snapshot record, when
   there are records.  Returns 0 or -errno.  */
static int
gm_save (const char *name, int numbered, const char *why)
{
  struct gm_arcs arcs;
  struct gm_meta meta;
  const struct gm_meta *m = NULL;
  struct gm_written w = { 0, 0, 0, 0, 0, 0, 0 };
  struct gm_image img;
  /* Names go in a mapping rather than on a possibly small signal stack. */
  char *buf = NULL;
  const char *fallback = NULL;
  int serr = 0, merr = 0, moderr = 0;

  gm_writing_begin ();
  gm_lock ();
  int r = numbered && gm_state != GM_RUNNING ? -ESRCH
                                             : gm_arcs_snapshot (&arcs);
  if (r == 0)
    {
      arcs.dispersion = gm_sample_dispersion ();
      /* The number and the time of the counts just read: a later
         number has counts as large or larger, however the writes that
         follow overtake each other.  */
      if (gm_dump_records ())
        {
          long long ns = gm_realtime_ns ();
          meta.run = gm_run_id;
          meta.seq = ++gm_seq;
          meta.sec = ns / 1000000000;
          meta.nsec = ns % 1000000000;
          meta.clock = gm_hist.wall ? "wall" : "cpu";
          meta.why = why;
          m = &meta;
        }
    }
  gm_unlock ();
  if (r == 0)
    {
      r = gm_image_build (&img, gm_cfg.format, &arcs, &gm_hist, &w);
      if (r != 0)
        gm_arcs_free (&arcs);
    }
  if (r == 0)
    {
      if (name == NULL)
        {
          buf = gm_map (2 * GM_PATH_MAX);
          if (buf == NULL)
            r = -ENOMEM;
          else if (!gm_default_name (buf, GM_PATH_MAX, gm_cfg.has_prefix,
                                     numbered ? m : NULL))
            r = -ENAMETOOLONG;
          else
            name = buf;
        }
      if (r == 0)
        r = gm_store_all (name, &img, &w, &arcs, m, &serr, &merr, &moderr);
      if (r < 0 && buf != NULL && gm_cfg.has_prefix
          && gm_default_name (buf + GM_PATH_MAX, GM_PATH_MAX, 0,
                              numbered ? m : NULL)
          && gm_store_all (buf + GM_PATH_MAX, &img, &w, &arcs, m, &serr,
                           &merr, &moderr) == 0)
        fallback = buf + GM_PATH_MAX;
      gm_image_free (&img);
      gm_arcs_free (&arcs);
    }
  gm_writing_end ();
  if (!numbered)
    gm_report (name != NULL ? name : "the profile", -r, fallback, &w, -serr,
               -merr, -moderr);
  else if (r != -ESRCH && fallback == NULL)
    {
      /* Said once: a daemon with a full disk would say it every
         interval.  The last summary line counts them.  */
      if (r < 0 && gm_snapshot_failures++ == 0)
        gm_say ("cannot write ", name != NULL ? name : "a snapshot", ": ",
                gm_errstr (-r), " (further failures are only counted)",
                NULL);
      if (r == 0)
        gm_snapshots++;
    }
  if (buf != NULL)
    gm_unmap (buf, 2 * GM_PATH_MAX);
  return fallback != NULL ? 0 : r;
}

/* Stop everything and write the final profile, once.  */
static void
gm_finish (const char *why)
{
  if (gm_busy)
    return;
  gm_busy = 1;
  gm_lock ();
  if (gm_state != GM_RUNNING)
    {
      gm_unlock ();
      gm_busy = 0;
      return;
    }
  gm_state = GM_DONE;
  __atomic_store_n (&gm_on, 0, __ATOMIC_SEQ_CST);
  if (gm_thr != NULL)
    gm_sample_settle (gm_thr);
  gm_timers_set (0);
  gm_unlock ();
  /* Threads still running may lose the increments they are doing right
     now; nothing else changes the counts from here on.  */
  gm_save (NULL, 0, why);
  gm_busy = 0;
}

int
gm_running (void)
{
  return __atomic_load_n (&gm_state, __ATOMIC_ACQUIRE) == GM_RUNNING
         && gm_getpid () == gm_pid;
}

int
gm_snapshot (const char *why)
{
  /* The writer thread may scan (no signal handler runs it).  */
  gm_modules_notice ();
  gm_busy = 1;
  int r = gm_save (NULL, 1, why);
  gm_busy = 0;
  return r;
}

void
gm_final (const char *why)
{
  /* A thread interrupted inside libgmon (gm_busy) may hold the lock or
     be writing: it writes nothing and waits for nothing.  */
  if (gm_busy || gm_getpid () != gm_pid)
    return;
  gm_finish (why);
  gm_writing_wait ();
}

void
gm_sync_timers (void)
{
  gm_lock ();
  if (gm_state == GM_RUNNING)
    gm_timers_set (__atomic_load_n (&gm_on, __ATOMIC_SEQ_CST));
  gm_unlock ();
}

int
gm_config_signo (void)
{
  return gm_cfg.signo;
}

int
gm_config_sampling (void)
{
  return gm_cfg.hz != 0;
}

/* Whether _mcleanup was called by exit's handlers rather than by the
   program: either our own atexit handler already ran, or (in dynamically
   linked programs, where libc is not part of the executable) the caller
   is outside the executable.  */
static int
gm_called_at_exit (uintptr_t caller)
{
  if (__atomic_load_n (&gm_exiting, __ATOMIC_RELAXED))
    return 1;
  return gm_exe.dynamic
         && (caller < gm_exe.text_lo || caller >= gm_exe.text_hi);
}

void
_mcleanup (void)
{
  uintptr_t caller
    = (uintptr_t) __builtin_extract_return_addr (__builtin_return_address (0));
  if (gm_state == GM_RUNNING && gm_called_at_exit (caller))
    return;                     /* gm_fini writes the profile */
  gm_finish ("_mcleanup");
}

int
libgmon_dump (const char *filename)
{
  if (gm_busy)
    {
      errno = EBUSY;
      return -1;
    }
  if (gm_state == GM_IDLE)
    {
      errno = EINVAL;
      return -1;
    }
  gm_busy = 1;
  int r = gm_save (filename, 0, "libgmon_dump");
  gm_busy = 0;
  if (r < 0)
    {
      errno = -r;
      return -1;
    }
  return 0;
}

int
libgmon_reset (void)
{
  if (gm_busy)
    {
      errno = EBUSY;
      return -1;
    }
  if (gm_state == GM_IDLE)
    {
      errno = EINVAL;
      return -1;
    }
  gm_busy = 1;
  gm_lock ();
  gm_arcs_reset ();
  gm_hist_reset ();
  gm_stacks_reset ();
  gm_run_id = gm_new_run_id ();
  unsigned long threads = gm_stats.threads;
  gm_memzero (&gm_stats, sizeof gm_stats);
  gm_stats.threads = threads;
  gm_unlock ();
  gm_busy = 0;
  return 0;
}

/* ---- automatic start and the late write ------------------------------ */

static void
gm_mark_exiting (void)
{
  __atomic_store_n (&gm_exiting, 1, __ATOMIC_RELAXED);
}

/* Constructors run after the executable's _init, which is where the -pg
   startup code calls __monstartup and registers _mcleanup with atexit;
   our handler, registered later, runs earlier at exit and tells
   _mcleanup to leave the write to gm_fini.  In the preloaded library
   the constructor runs before the executable's _init, so there the
   caller check in gm_called_at_exit does the job.  */
static void __attribute__ ((constructor))
gm_init (void)
{
  if (atexit (gm_mark_exiting) != 0)
    gm_say ("calls made by destructors will not be profiled", NULL);
#ifdef PIC
  /* Preloaded: profile the executable if it was compiled with -pg, even
     when it was not linked with -pg (then nothing else would start).  */
  struct gm_exe_info e;
  gm_exe_scan (&e);
  if (e.instrumented && e.text_lo < e.text_hi)
    __monstartup (e.text_lo, e.text_hi);
#endif
}

/* The latest hook there is: in the archive, priority 101 destructors run
   after the program's other destructors; the preloaded library is
   finalized after the executable.  */
static void __attribute__ ((destructor (101)))
gm_fini (void)
{
  /* Libraries unloaded behind our back (dlclose from libc.so, which
     the program did not link against) are marked so.  */
  gm_modules_notice ();
  gm_finish ("exit");
  /* A snapshot still being written would be cut short by the exit.  */
  gm_writing_wait ();
}

#ifndef PIC
/* Called by the weak __gmon_start__ of mach/mcount-*.S, which crti.o's
   _init calls in programs compiled with -pg but linked without it: the
   same start as glibc's gcrt1.o does, minus the atexit registration that
   gm_fini makes unnecessary.  */
extern const char __executable_start[], etext[];

GM_HIDDEN void gm_gmon_start (void);

void
gm_gmon_start (void)
{
  __monstartup ((unsigned long) __executable_start, (unsigned long) etext);
}
#endif
