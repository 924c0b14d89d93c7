/* support/prefetch.h - asking for memory ahead of its use.

   gp_prefetch (P) asks for the cache line holding P to read, and
   gp_prefetch (P, 1) to write.  The reference
   build (-DGP_NO_TACTICS) asks for nothing, as it leaves out every speed
   tactic (doc/design.md).

   GCC deems a function whose only effect is a prefetch free of side
   effects, as if it were pure, and deletes the calls to it that it has
   not inlined by then: no warning, no prefetch.  Such helpers are
   declared GP_PREFETCHER, which inlines them always.  */

#ifndef GPROF_SUPPORT_PREFETCH_H
#define GPROF_SUPPORT_PREFETCH_H

#ifdef GP_NO_TACTICS
static inline void
gp_prefetch_none (const volatile void *p, ...)
{
  (void) p;
}
# define gp_prefetch(...) gp_prefetch_none (__VA_ARGS__)
#else
# define gp_prefetch(...) __builtin_prefetch (__VA_ARGS__)
#endif

#define GP_PREFETCHER static inline __attribute__ ((always_inline)) void

#endif
