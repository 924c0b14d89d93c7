/* pipeline/par.h - a stage's independent pieces of work, run on several
   threads or in turn.

   A stage never starts a thread.  Where its work falls into pieces that
   do not depend on each other (items to print, jobs that each write
   their own output), it hands them to the Par its Run carries, which
   runs them at once or one after the other, in order, on the calling
   thread.  The results are the same bytes either
   way: each piece writes only its own output, and printed items go to
   stdout in their order.  */

#ifndef GPROF_PIPELINE_PAR_H
#define GPROF_PIPELINE_PAR_H

#include <stddef.h>
#include "support/out.h"

typedef struct Par
{
  unsigned nthreads;      /* 1: everything in turn */
} Par;

/* Everything in turn, on the calling thread: the reference.  */
extern const Par par_serial;

/* JOB's items printed in order, through the out_ functions.  */
void par_print (const Par *par, const OutJob *job);

/* FN (CTX, I) for each I below N, where no call reads what another
   writes.  */
void par_jobs (const Par *par, size_t n, void (*fn) (void *ctx, size_t i),
               void *ctx);

/* A hint: the LEN bytes at MEM are about to be written for the first
   time.  Another thread takes the page faults of their first 64 MB
   meanwhile, if the run has threads to spare.  Faulting a page in
   leaves what it holds as it is, so nothing waits for that thread, and
   the memory may be written, moved or freed meanwhile.  */
void par_prefault (const Par *par, void *mem, size_t len);

/* The most of a hint that is faulted in (see par.c).  */
#define PAR_PREFAULT_MAX ((size_t) 64 << 20)

#endif
