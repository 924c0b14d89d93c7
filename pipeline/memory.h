/* pipeline/memory.h - the heap policy for big runs.  */

#ifndef GPROF_PIPELINE_MEMORY_H
#define GPROF_PIPELINE_MEMORY_H

/* Set up the heap for big arrays (see memory.c): first thing in main,
   before any thread starts.  Nothing in the reference build
   (GP_NO_TACTICS).  */
void gp_memory_init (void);

#endif
