/* pipeline/memory.h - the heap policy for big runs.  */

#ifndef GPROF_PIPELINE_MEMORY_H
#define GPROF_PIPELINE_MEMORY_H

#include <stddef.h>
#include "pipeline/par.h"

/* Set up the heap for big arrays (see memory.c): first thing in main,
   before any thread starts.  Nothing in the reference build
   (GP_NO_TACTICS).  */
void gp_memory_init (void);

/* A hint, like par_prefault's, for memory that code of others (libdw)
   is about to allocate and write for the first time: about LEN bytes
   of new blocks.  Under the heap policy, another thread faults in the
   LEN bytes the heap hands out next, if the run has threads to spare.  */
void gp_prefault_heap (const Par *par, size_t len);

#endif
