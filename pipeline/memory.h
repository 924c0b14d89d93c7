/* pipeline/memory.h - the heap policy and the page faults taken ahead.  */

#ifndef GPROF_PIPELINE_MEMORY_H
#define GPROF_PIPELINE_MEMORY_H

#include <stdbool.h>
#include <stddef.h>
#include "pipeline/tasks.h"

/* Set up the heap for big arrays (see util.c): first thing in main,
   before any thread starts.  */
void gp_memory_init (void);

/* The page faults of the N bytes at P taken on another thread
   (MADV_POPULATE_WRITE: the kernel only fills in page tables, so the
   caller may write there meanwhile), for a big array about to be filled
   once.  Nothing for less than 4 MB, one CPU or a kernel before 5.14.
   gp_prefault_wait before the array is freed or moved; waiting again,
   or on a GpPrefault never started but set by gp_prefault_start or
   zeroed, does nothing.  */
typedef struct GpPrefault
{
  char *start;
  size_t len;
  bool started;
  GpTask task;
} GpPrefault;

void gp_prefault_start (GpPrefault *f, void *p, size_t n);
void gp_prefault_wait (GpPrefault *f);

#endif
