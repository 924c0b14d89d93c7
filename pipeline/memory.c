/* pipeline/memory.c - the heap policy, for the big arrays of big runs.  */

#include "config.h"
#include "pipeline/memory.h"

#include <limits.h>
#include <malloc.h>
#include <stdbool.h>
#include <sys/resource.h>

/* A run allocates arrays of tens or hundreds of MB, and its stages free
   big arrays that the next stage allocates again: the heap keeps what
   is freed (one arena, no trimming) and grows by 64 MB at a time, so
   that memory is written to fresh once and then reused.  The biggest
   blocks come from the heap too: mapping those of 32 MB and more apart
   measured slower on -l and the million-function case, at the same
   number of page faults (doc/design.md).  calloc clears memory the heap
   reuses, so a big buffer written before it is read is better
   malloc'ed.

   No transparent huge pages: on a virtual machine that hands free
   memory back to its host (free page reporting), a fresh huge page is
   one the host must back again.  They were dearer than small pages on
   the machine the policy was measured on, and cheap only for a run
   that came within a second or two of another gprof run, whose freed
   huge pages it took over (doc/performance.md has the figures of two
   machines).  */

enum { HEAP_STEP = 64 << 20 };    /* the heap grows by this at least */

#if defined __GLIBC__ && !defined GP_NO_TACTICS

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
}

#else

void
gp_memory_init (void)
{
}

#endif
