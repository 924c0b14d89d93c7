/* pipeline/memory.c - the heap policy, for the big arrays of big runs.  */

#include "config.h"
#include "pipeline/memory.h"

#include <limits.h>
#include <malloc.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

/* A run allocates arrays of tens or hundreds of MB and writes each page
   about once, so with 4 KB pages much of a small run went to page
   faults.  The heap's first 64 MB ask for transparent huge pages (one
   fault per 2 MB), and the heap keeps what is freed, as the sorts free
   big arrays that the next stage allocates again.  Later growth and the
   blocks mapped apart keep small pages: a run that needs hundreds of MB
   of fresh huge pages spends more clearing them than it saves.  Where
   the kernel gives no huge pages the advice does nothing.  calloc
   clears memory the heap reuses, so a big buffer written before it is
   read is better malloc'ed.  The gains are in doc/design.md.  */

enum
{
  HUGE_PAGE = 2 << 20,
  HEAP_STEP = 64 << 20,     /* the heap grows by this at least */
  MMAP_FROM = 32 << 20      /* blocks this big are mapped apart */
};

#if defined __GLIBC__ && !defined GP_NO_TACTICS

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

void
gp_memory_init (void)
{
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
}

#else

void
gp_memory_init (void)
{
}

#endif
