/* pipeline/tasks.h - work handed to other threads.  */

#ifndef GPROF_PIPELINE_TASKS_H
#define GPROF_PIPELINE_TASKS_H

#include <stdbool.h>

/* How many threads the big reports and jobs use: $GPROF_THREADS if set
   (1 for none), else the CPUs this process may run on, at most
   GP_MAX_THREADS.  */
enum { GP_MAX_THREADS = 4 };
unsigned gp_threads (void);

/* FN (ARG) run on another thread while the caller goes on, until
   gp_task_wait.  Where no thread can be had (or GPROF_THREADS is 1) it
   runs at gp_task_wait, so FN must not depend on what the caller does
   meanwhile.  FN must not print: messages would come out of order.
   The threads are kept for later tasks once theirs is done.  */
typedef struct GpTask
{
  void (*fn) (void *);
  void *arg;
  bool threaded;
  bool done;               /* threaded: FN has returned */
} GpTask;

void gp_task_start (GpTask *task, void (*fn) (void *), void *arg);
/* The same work run at gp_task_wait, on this thread: for work too small
   to pay for a thread's start (about half a millisecond).  */
void gp_task_defer (GpTask *task, void (*fn) (void *), void *arg);
void gp_task_wait (GpTask *task);

#endif
