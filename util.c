/* util.c - memory, diagnostics and small helpers.  */

#include "config.h"
#include "util.h"

#include <limits.h>
#include <malloc.h>
#include <math.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>
#include <libiberty/libiberty.h>

const char *whoami = "gprof";

void
gp_die (const char *fmt, ...)
{
  va_list ap;

  va_start (ap, fmt);
  vfprintf (stderr, fmt, ap);
  va_end (ap);
  exit (1);
}

void
gp_assert_fail (const char *cond, const char *file, int line,
                const char *func)
{
  fprintf (stderr, "%s: %s:%d: %s: contract broken: %s\n", whoami, file, line,
           func, cond);
  abort ();
}

void
gp_warn (const char *fmt, ...)
{
  va_list ap;

  va_start (ap, fmt);
  vfprintf (stderr, fmt, ap);
  va_end (ap);
}

/* ---- memory ------------------------------------------------------------

   A run allocates arrays of tens or hundreds of MB and writes each page
   about once, so with 4 KB pages a fifth to a third of a 20k-function
   run went to page faults (4-15k of them, 2-3 us each here).  The
   heap's first 64 MB ask for transparent huge pages (one fault per 2
   MB), and the heap keeps what is freed, as the sorts free big arrays
   that the next stage allocates again.  Later growth and the blocks
   mapped apart keep small pages: a run that needs hundreds of MB of
   fresh huge pages spent more clearing them than it saved (random-1m's
   system time 1.1 -> 2.3 s).  Where the kernel gives no huge pages the
   advice does nothing.  calloc clears memory the heap reuses, so a
   big buffer written before it is read is better malloc'ed.  */

enum
{
  HUGE_PAGE = 2 << 20,
  HEAP_STEP = 64 << 20,     /* the heap grows by this at least */
  MMAP_FROM = 32 << 20      /* blocks this big are mapped apart */
};

/* The whole pages of SIZE (a power of two) in [P, P + N): their start,
   and in *LEN their length (0 if none).  */
static char *
whole_pages (void *p, size_t n, uintptr_t size, size_t *len)
{
  uintptr_t from = ((uintptr_t) p + size - 1) & ~(size - 1);
  uintptr_t to = ((uintptr_t) p + n) & ~(size - 1);

  *len = to > from ? to - from : 0;
  return (char *) from;
}

/* Transparent huge pages for the whole 2 MB pages in [P, P + N).  */
static void
advise_huge (void *p, size_t n)
{
#ifdef MADV_HUGEPAGE
  size_t len;
  char *from = whole_pages (p, n, HUGE_PAGE, &len);

  if (len > 0)
    (void) madvise (from, len, MADV_HUGEPAGE);
#else
  (void) p;
  (void) n;
#endif
}

static void
prefault_run (void *arg)
{
#ifdef MADV_POPULATE_WRITE
  GpPrefault *f = arg;

  /* Not there (before Linux 5.14) it fails, and costs nothing.  */
  (void) madvise (f->start, f->len, MADV_POPULATE_WRITE);
#else
  (void) arg;
#endif
}

void
gp_prefault_start (GpPrefault *f, void *p, size_t n)
{
  long page = sysconf (_SC_PAGESIZE);

  *f = (GpPrefault) { 0 };
  if (page <= 0 || n < ((size_t) 4 << 20) || gp_threads () < 2)
    return;
  f->start = whole_pages (p, n, (uintptr_t) page, &f->len);
  if (f->len == 0)
    return;
  f->started = true;
  gp_task_start (&f->task, prefault_run, f);
}

void
gp_prefault_wait (GpPrefault *f)
{
  if (f->started)
    gp_task_wait (&f->task);
  f->started = false;
}

/* Whether the process may grow without a set limit: under ulimit -v
   or -d, asking for 64 MB ahead could fail where the run itself fits.  */
static bool
memory_unlimited (void)
{
  struct rlimit as, data;

  return getrlimit (RLIMIT_AS, &as) == 0 && as.rlim_cur == RLIM_INFINITY
         && getrlimit (RLIMIT_DATA, &data) == 0
         && data.rlim_cur == RLIM_INFINITY;
}

#ifdef __GLIBC__
/* Whether malloc has not taken any memory from the heap yet (moving the
   break would then leave it a gap it does not expect).  */
static bool
heap_unused (void)
{
#if __GLIBC_PREREQ (2, 33)
  return mallinfo2 ().arena == 0;
#else
  return false;
#endif
}
#endif

void
gp_memory_init (void)
{
#ifdef __GLIBC__
  uintptr_t start, gap;
  long page = sysconf (_SC_PAGESIZE);
  void *volatile first;

  if (!memory_unlimited ())
    return;
  /* One arena: a helper thread's freed arrays serve the main thread.  */
  mallopt (M_ARENA_MAX, 1);
  mallopt (M_MMAP_THRESHOLD, MMAP_FROM);
  mallopt (M_TRIM_THRESHOLD, INT_MAX);
  mallopt (M_TOP_PAD, HEAP_STEP);
  /* A 2 MB page written to before its advice keeps small pages, and
     malloc writes its bookkeeping at the heap's start: the heap starts
     one page short of a 2 MB boundary, so that this page is the only
     small one.  The gap below it is never touched.  */
  start = (uintptr_t) sbrk (0);
  gap = (HUGE_PAGE - (start & (HUGE_PAGE - 1))) & (HUGE_PAGE - 1);
  if (page > 0 && gap > (uintptr_t) page && heap_unused ())
    (void) sbrk ((intptr_t) (gap - (uintptr_t) page));
  /* Grow the heap now, by HEAP_STEP, and advise all of it.  */
  start = (uintptr_t) sbrk (0);
  first = malloc (1);
  advise_huge ((void *) start, (uintptr_t) sbrk (0) - start);
  free (first);
#endif
}

/* libiberty's x* functions print the message GNU gprof prints on memory
   exhaustion and exit with status 1.  */
void *
gp_malloc (size_t n)
{
  return xmalloc (n ? n : 1);
}

void *
gp_calloc (size_t n, size_t size)
{
  if (n == 0 || size == 0)
    return xcalloc (1, 1);
  return xcalloc (n, size);
}

void *
gp_realloc (void *p, size_t n)
{
  return xrealloc (p, n ? n : 1);
}

void *
gp_reallocarray (void *p, size_t n, size_t size)
{
  if (size != 0 && n > SIZE_MAX / size)
    xmalloc_failed (SIZE_MAX);
  return gp_realloc (p, n * size);
}

char *
gp_strdup (const char *s)
{
  return xstrdup (s);
}

void
gp_grow (void *pv, size_t *cap, size_t need, size_t elem)
{
  void **p = pv;
  size_t n;

  if (need <= *cap)
    return;
  n = *cap ? *cap : 16;
  while (n < need)
    {
      if (n > SIZE_MAX / 2)
        xmalloc_failed (SIZE_MAX);
      n *= 2;
    }
  *p = gp_reallocarray (*p, n, elem);
  *cap = n;
}

long
gp_double_to_long (double d)
{
  if (isnan (d) || d >= 0x1p63 || d < -0x1p63)
    return LONG_MIN;
  return (long) d;
}

uint64_t
gp_double_to_vma (double d)
{
  if (isnan (d) || d >= 0x1p64)
    return 0;
  if (d <= -1.0)
    return (uint64_t) (int64_t) gp_double_to_long (d);
  return (uint64_t) d;
}

const char *
gp_basename (const char *name)
{
  const char *slash = strrchr (name, '/');

  return slash ? slash + 1 : name;
}

/* Threads whose task is done wait here for the next one: starting a
   thread costs about 50 us on the machines measured, and a run starts a
   dozen tasks.  They live until the process exits.  */
typedef struct Worker
{
  struct Worker *next;     /* in the idle list */
  GpTask *task;            /* NULL while idle */
  pthread_cond_t wake;
} Worker;

static pthread_mutex_t workers_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t task_done = PTHREAD_COND_INITIALIZER;
static Worker *idle_workers;

static void *
worker_run (void *arg)
{
  Worker *w = arg;

  pthread_mutex_lock (&workers_lock);
  for (;;)
    {
      GpTask *task = w->task;

      pthread_mutex_unlock (&workers_lock);
      task->fn (task->arg);
      pthread_mutex_lock (&workers_lock);
      /* The waiter may free TASK as soon as it sees this.  */
      task->done = true;
      pthread_cond_broadcast (&task_done);
      w->task = NULL;
      w->next = idle_workers;
      idle_workers = w;
      while (!w->task)
        pthread_cond_wait (&w->wake, &workers_lock);
    }
  return NULL;
}

/* TASK handed to an idle worker or to a new one; false if no thread
   can be had.  */
static bool
hand_to_worker (GpTask *task)
{
  pthread_attr_t attr;
  pthread_t thread;
  Worker *w;
  bool started;

  task->done = false;
  pthread_mutex_lock (&workers_lock);
  w = idle_workers;
  if (w)
    {
      idle_workers = w->next;
      w->task = task;
      pthread_cond_signal (&w->wake);
    }
  pthread_mutex_unlock (&workers_lock);
  if (w)
    return true;
  w = malloc (sizeof *w);
  if (!w)
    return false;
  w->task = task;
  pthread_cond_init (&w->wake, NULL);
  pthread_attr_init (&attr);
  pthread_attr_setdetachstate (&attr, PTHREAD_CREATE_DETACHED);
  started = pthread_create (&thread, &attr, worker_run, w) == 0;
  pthread_attr_destroy (&attr);
  if (!started)
    {
      pthread_cond_destroy (&w->wake);
      free (w);
    }
  return started;
}

void
gp_task_start (GpTask *task, void (*fn) (void *), void *arg)
{
  task->fn = fn;
  task->arg = arg;
  task->threaded = gp_threads () > 1 && hand_to_worker (task);
}

void
gp_task_defer (GpTask *task, void (*fn) (void *), void *arg)
{
  task->fn = fn;
  task->arg = arg;
  task->threaded = false;
}

void
gp_task_wait (GpTask *task)
{
  if (!task->threaded)
    {
      task->fn (task->arg);
      return;
    }
  pthread_mutex_lock (&workers_lock);
  while (!task->done)
    pthread_cond_wait (&task_done, &workers_lock);
  pthread_mutex_unlock (&workers_lock);
}

unsigned
gp_threads (void)
{
  const char *env = getenv ("GPROF_THREADS");
  cpu_set_t cpus;
  long n;

  if (env && *env)
    {
      n = strtol (env, NULL, 10);
      return n < 1 ? 1 : n > 64 ? 64 : (unsigned) n;
    }
  if (sched_getaffinity (0, sizeof cpus, &cpus) != 0)
    return 1;
  n = CPU_COUNT (&cpus);
  return n < 1 ? 1 : n > GP_MAX_THREADS ? GP_MAX_THREADS : (unsigned) n;
}
