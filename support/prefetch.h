/* prefetch.h - helpers that ask for memory ahead of its use.

   GCC deems a function whose only effect is __builtin_prefetch free of
   side effects, as if it were pure, and deletes the calls to it that it
   has not inlined by then: no warning, no prefetch.  Such helpers are
   declared GP_PREFETCHER, which inlines them always.  */

#ifndef GPROF_PREFETCH_H
#define GPROF_PREFETCH_H

#define GP_PREFETCHER static inline __attribute__ ((always_inline)) void

#endif
