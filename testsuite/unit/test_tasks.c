/* test_tasks.c - gp_task_start and gp_task_wait (pipeline/tasks.c):
   every task runs exactly once and is finished when its wait returns,
   whether it got a thread or not, nested or not; a thread whose task is
   done is kept for the next task instead of a new one being started.
   And par_prefault (pipeline/par.c): the pages come in without the
   caller touching them, what the caller writes meanwhile stays, and
   memory freed meanwhile is no harm.  And gp_memory_init
   (pipeline/memory.c): the heap is marked for huge pages, all of it
   but its first small page; and gp_prefault_heap brings in the pages
   of the heap's next block.  */

#include "config.h"
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "unit.h"
#include "pipeline/memory.h"
#include "pipeline/par.h"
#include "pipeline/tasks.h"

enum { MANY = 200, SEQUENCE = 100 };

typedef struct Work
{
  atomic_int runs;        /* times the task ran */
  long tid;               /* the kernel's id of the thread it ran on */
  volatile unsigned long sum;
  GpTask task;            /* the task that runs this work */
  struct Work *child;     /* nested: work this one starts and waits for */
} Work;

static long
thread_id (void)
{
  return (long) syscall (SYS_gettid);
}

static void
work (void *arg)
{
  Work *w = arg;

  /* Long enough for other tasks to start meanwhile.  */
  for (unsigned long i = 0; i < 20000; i++)
    w->sum += i;
  w->tid = thread_id ();
  atomic_fetch_add (&w->runs, 1);
}

static void
work_nested (void *arg)
{
  Work *w = arg;

  gp_task_start (&w->child->task, work, w->child);
  work (w);
  gp_task_wait (&w->child->task);
}

/* Many tasks at once, more than there are CPUs: each runs once, and its
   results are there when its wait returns.  */
static void
test_many (const char *how)
{
  static Work w[MANY];
  int bad = 0;

  for (int i = 0; i < MANY; i++)
    {
      atomic_init (&w[i].runs, 0);
      w[i].sum = 0;
      gp_task_start (&w[i].task, work, &w[i]);
    }
  for (int i = 0; i < MANY; i++)
    {
      gp_task_wait (&w[i].task);
      bad += atomic_load (&w[i].runs) != 1 || w[i].sum != 20000UL * 19999 / 2;
    }
  check (bad == 0, "%s: %d tasks at once each ran once (%d wrong)", how,
         MANY, bad);
}

/* Tasks that start and wait for a task of their own.  */
static void
test_nested (const char *how)
{
  static Work outer[MANY / 2], inner[MANY / 2];
  int bad = 0;

  for (int i = 0; i < MANY / 2; i++)
    {
      atomic_init (&outer[i].runs, 0);
      atomic_init (&inner[i].runs, 0);
      outer[i].child = &inner[i];
      gp_task_start (&outer[i].task, work_nested, &outer[i]);
    }
  for (int i = 0; i < MANY / 2; i++)
    {
      gp_task_wait (&outer[i].task);
      bad += atomic_load (&outer[i].runs) != 1
             || atomic_load (&inner[i].runs) != 1;
    }
  check (bad == 0, "%s: %d nested tasks each ran once (%d wrong)", how,
         MANY / 2, bad);
}

/* One task after the other: with threads, all on one kept thread that is
   not the caller's.  */
static void
test_reuse (void)
{
  Work w;
  long first = 0;
  int others = 0, on_caller = 0;

  for (int i = 0; i < SEQUENCE; i++)
    {
      atomic_init (&w.runs, 0);
      gp_task_start (&w.task, work, &w);
      gp_task_wait (&w.task);
      if (i == 0)
        first = w.tid;
      others += w.tid != first;
      on_caller += w.tid == thread_id ();
    }
  check (others == 0 && on_caller == 0,
         "%d tasks in sequence ran on one helper thread (%d elsewhere, %d on "
         "the caller)", SEQUENCE, others, on_caller);
}

/* Without threads (GPROF_THREADS=1) each task runs at its wait, on the
   caller's thread.  */
static void
test_unthreaded (void)
{
  Work w;
  bool before, after;

  atomic_init (&w.runs, 0);
  gp_task_start (&w.task, work, &w);
  before = atomic_load (&w.runs) == 0;
  gp_task_wait (&w.task);
  after = atomic_load (&w.runs) == 1 && w.tid == thread_id ();
  check (before && after, "one thread: the task runs at its wait, here");
}

enum { PREFAULT_LEN = 16 << 20, FREED_LEN = 64 << 20 };

/* How many of the LEN bytes' pages at MEM are in memory.  */
static size_t
resident_pages (void *mem, size_t len)
{
  size_t page = (size_t) sysconf (_SC_PAGESIZE), n = len / page, in = 0;
  unsigned char *vec = malloc (n);

  if (!vec || mincore (mem, len, vec) != 0)
    abort ();
  for (size_t i = 0; i < n; i++)
    in += vec[i] & 1;
  free (vec);
  return in;
}

/* Up to 10 s for the pages of MEM to come in.  */
static bool
all_resident (void *mem, size_t len)
{
  struct timespec pause = { 0, 10 * 1000 * 1000 };

  for (int i = 0; i < 1000; i++)
    {
      if (resident_pages (mem, len) == len / (size_t) sysconf (_SC_PAGESIZE))
        return true;
      nanosleep (&pause, NULL);
    }
  return false;
}

static void
test_prefault (void)
{
  size_t page = (size_t) sysconf (_SC_PAGESIZE), n = PREFAULT_LEN / page;
  unsigned char *mem = mmap (NULL, PREFAULT_LEN, PROT_READ | PROT_WRITE,
                             MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  size_t kept = 0;
  bool populate;

  if (mem == MAP_FAILED)
    abort ();
  /* Whether this kernel and build fault pages in at all.  */
#if defined MADV_POPULATE_WRITE && !defined GP_NO_TACTICS
  populate = madvise (mem, page, MADV_POPULATE_WRITE) == 0;
#else
  populate = false;
#endif
  par_prefault (&par_serial, mem, PREFAULT_LEN);
  check (resident_pages (mem, PREFAULT_LEN) <= 1,
         "par_prefault: one thread, no page comes in");

  par_prefault (&(Par) { 2 }, mem, PREFAULT_LEN);
  /* The caller writes every other page meanwhile.  */
  for (size_t i = 0; i < n; i += 2)
    memset (mem + i * page, (int) (i % 251) + 1, page);
  if (populate)
    check (all_resident (mem, PREFAULT_LEN),
           "par_prefault: the pages come in on another thread");
  for (size_t i = 0; i < n; i++)
    kept += mem[i * page] == (i % 2 ? 0 : (i % 251) + 1)
            && mem[i * page + page - 1] == (i % 2 ? 0 : (i % 251) + 1);
  check (kept == n, "par_prefault: what the caller wrote meanwhile stays "
         "(%zu of %zu pages)", kept, n);

  munmap (mem, PREFAULT_LEN);

  /* Freed while its pages come in, and mapped again read-only in the
     same place: the thread stops there, and writes nothing in.  */
  mem = mmap (NULL, FREED_LEN, PROT_READ | PROT_WRITE,
              MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mem == MAP_FAILED)
    abort ();
  par_prefault (&(Par) { 2 }, mem, FREED_LEN);
  munmap (mem, FREED_LEN);
  if (mmap (mem, FREED_LEN, PROT_READ,
            MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0) != mem)
    abort ();
  nanosleep (&(struct timespec) { 0, 200 * 1000 * 1000 }, NULL);
  check (resident_pages (mem, FREED_LEN) == 0,
         "par_prefault: memory freed meanwhile gets no page");
  munmap (mem, FREED_LEN);
}

/* Whether the kernel may back the mapping holding ADDR with huge pages,
   as /proc/self/smaps says (its THPeligible line): 1, 0, or -1 when it
   does not say.  */
static int
thp_eligible (const void *addr)
{
  FILE *f = fopen ("/proc/self/smaps", "r");
  char line[256];
  uintptr_t at = (uintptr_t) addr, lo, hi;
  bool inside = false;
  int flag, eligible = -1;

  if (!f)
    return -1;
  while (fgets (line, sizeof line, f))
    /* A mapping's line starts "lo-hi "; its fields ("Size:") do not
       read as two hex numbers.  */
    if (sscanf (line, "%" SCNxPTR "-%" SCNxPTR " ", &lo, &hi) == 2)
      inside = lo <= at && at < hi;
    else if (inside && sscanf (line, "THPeligible: %d", &flag) == 1)
      eligible = flag;
  fclose (f);
  return eligible;
}

/* Whether this build and this process set the heap policy at all.  */
static bool
heap_policy_applies (void)
{
#if defined __GLIBC__ && !defined GP_NO_TACTICS && !defined __SANITIZE_ADDRESS__
  struct rlimit as, data;
  FILE *f = fopen ("/sys/kernel/mm/transparent_hugepage/enabled", "r");
  char mode[128] = "";

  if (!f)
    return false;
  if (!fgets (mode, sizeof mode, f))
    mode[0] = '\0';
  fclose (f);
  return sizeof (void *) >= 8 && mode[0] != '\0'
         && strstr (mode, "[never]") == NULL
         && getrlimit (RLIMIT_AS, &as) == 0 && as.rlim_cur == RLIM_INFINITY
         && getrlimit (RLIMIT_DATA, &data) == 0
         && data.rlim_cur == RLIM_INFINITY;
#else
  return false;
#endif
}

/* The first page boundary in the block at P.  */
static void *
page_inside (void *p, size_t page)
{
  return (void *) (((uintptr_t) p + page - 1) & ~(page - 1));
}

/* gp_prefault_heap under the heap policy, with BLOCK (touched at its
   start) the last block taken: the next block's pages come in before
   anything touches them, and only with a thread to spare.  */
static void
test_prefault_heap (char *block)
{
  enum { AHEAD = 8 << 20 };
  size_t page = (size_t) sysconf (_SC_PAGESIZE);
  char *next;

  /* Whether this kernel faults pages in at all.  */
#ifdef MADV_POPULATE_WRITE
  if (madvise (page_inside (block, page), page, MADV_POPULATE_WRITE) != 0)
#endif
    {
      check (true, "gp_prefault_heap # SKIP no MADV_POPULATE_WRITE");
      return;
    }
  gp_prefault_heap (&par_serial, AHEAD);
  next = malloc (AHEAD);
  if (!next)
    abort ();
  nanosleep (&(struct timespec) { 0, 100 * 1000 * 1000 }, NULL);
  check (resident_pages (page_inside (next, page), AHEAD - page)
         < AHEAD / page - 1,
         "gp_prefault_heap: one thread, the next block stays unwritten");
  free (next);
  gp_prefault_heap (&(Par) { 2 }, AHEAD);
  next = malloc (AHEAD);
  if (!next)
    abort ();
  check (all_resident (page_inside (next, page), AHEAD - page),
         "gp_prefault_heap: the next block comes in on another thread");
  free (next);
}

static void
test_memory (void)
{
  enum { BLOCK = 16 << 20, HEAD = 2 << 20, SMALL_PAGE = 4096 };
  struct rusage before, after;
  char *block;
  int eligible;
  long faults;

  gp_memory_init ();
  block = malloc (BLOCK);
  if (!block)
    abort ();
  eligible = thp_eligible (block + BLOCK / 2);
  if (!heap_policy_applies () || eligible < 0)
    {
      check (true, "gp_memory_init # SKIP no huge pages here or in this build");
      free (block);
      return;
    }
  check (eligible == 1, "gp_memory_init: a big block lies in memory marked "
         "for huge pages");
  /* The first block starts at the heap's start, which the loader put
     anywhere in a 2 MB page: its first 2 MB take one small page and
     one huge one, not up to 512 small ones.  */
  getrusage (RUSAGE_SELF, &before);
  for (size_t i = 0; i < HEAD; i += SMALL_PAGE)
    block[i] = 1;
  getrusage (RUSAGE_SELF, &after);
  faults = after.ru_minflt - before.ru_minflt;
  check (faults <= 16, "gp_memory_init: the heap's first 2 MB took %ld "
         "page faults", faults);
  test_prefault_heap (block);
  free (block);
}

int
main (void)
{
  /* First, while nothing has taken memory from the heap, as in main.  */
  test_memory ();
  setenv ("GPROF_THREADS", "4", 1);
  test_many ("4 threads");
  test_nested ("4 threads");
  test_reuse ();
  setenv ("GPROF_THREADS", "1", 1);
  test_many ("1 thread");
  test_nested ("1 thread");
  test_unthreaded ();
  test_prefault ();
  return check_done ();
}
