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

/* A run allocates arrays of tens or hundreds of MB, and its stages free
   big arrays that the next stage allocates again: the heap keeps what
   is freed (one arena, no trimming) and grows by 64 MB at a time, so
   that memory is written to fresh once and then reused.  The biggest
   blocks come from the heap too: mapping those of 32 MB and more apart
   measured slower on -l and the million-function case, at the same
   number of page faults (doc/design.md).  calloc clears memory the heap
   reuses, so a big buffer written before it is read is better
   malloc'ed.

   The heap is backed by transparent huge pages where the kernel has
   them, which takes one page fault per 2 MB instead of 512.  Whether
   that pays depends on what the machine charges for a fault and for a
   fresh huge page (doc/design.md has the figures of the machines it was
   measured on).  So that every block, libdw's included, comes from
   huge-page memory, the heap is first grown by HEAP_RESERVE of address
   space, which costs nothing until written, and that range is
   marked.  */

enum
{
  HEAP_STEP = 64 << 20,           /* the heap grows by this at least */
  HEAP_RESERVE = 1 << 30          /* marked for huge pages at the start */
};

#if defined __GLIBC__ && !defined GP_NO_TACTICS

/* Whether the heap policy is on: one arena, every block from the heap.  */
static bool heap_policy;

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

/* Whether malloc has taken no memory from the heap yet (moving the
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

/* Grow the heap by HEAP_RESERVE (a block taken and given back: nothing
   is trimmed) and mark the whole 2 MB pages of it for huge pages.  A
   heap that cannot grow so far, or that moved away from the break, is
   left as it is.  */
static void
heap_huge_pages (void)
{
  const uintptr_t huge = 2 << 20;
  uintptr_t from, to, gap;
  long page = sysconf (_SC_PAGESIZE);
  void *block;

  /* A 32-bit process has too little address space to set 1 GB aside.  */
  if (sizeof (void *) < 8)
    return;
  /* The heap starts where the loader put the break, anywhere in a 2 MB
     page, and the part before the first boundary would take up to 511
     small-page faults.  malloc writes its bookkeeping at the heap's
     start before the advice: the heap starts one page short of a
     boundary, that page the only small one.  The gap below is never
     touched.  */
  from = (uintptr_t) sbrk (0);
  gap = (huge - (from & (huge - 1))) & (huge - 1);
  if (page > 0 && gap > (uintptr_t) page && heap_unused ())
    (void) sbrk ((intptr_t) (gap - (uintptr_t) page));
  from = (uintptr_t) sbrk (0);
  block = malloc (HEAP_RESERVE);
  if (block == NULL)
    return;
  free (block);
  to = (uintptr_t) sbrk (0);
  from = (from + huge - 1) & ~(huge - 1);
  to &= ~(huge - 1);
  if (to > from)
    (void) madvise ((void *) from, to - from, MADV_HUGEPAGE);
}

void
gp_memory_init (void)
{
  if (!memory_unlimited ())
    return;
  /* One arena: a helper thread's freed arrays serve the main thread.  */
  mallopt (M_ARENA_MAX, 1);
  mallopt (M_MMAP_THRESHOLD, INT_MAX);
  mallopt (M_TRIM_THRESHOLD, INT_MAX);
  mallopt (M_TOP_PAD, HEAP_STEP);
#ifndef __SANITIZE_ADDRESS__
  /* AddressSanitizer's heap is its own, and it would write the shadow
     of the whole freed block.  */
  heap_huge_pages ();
  heap_policy = true;
#endif
}

/* The next block of LEN bytes would go where a block of LEN taken and
   given back went: at the lowest free range that holds it, usually the
   top of the heap, where smaller blocks are then carved from too.  */
void
gp_prefault_heap (const Par *par, size_t len)
{
  void *block;

  if (len > PAR_PREFAULT_MAX)
    len = PAR_PREFAULT_MAX;
  if (!heap_policy || !(block = malloc (len)))
    return;
  /* The hint holds while the block goes back to the heap.  */
  par_prefault (par, block, len);
  free (block);
}

#else

void
gp_memory_init (void)
{
}

void
gp_prefault_heap (const Par *par, size_t len)
{
  (void) par;
  (void) len;
}

#endif
