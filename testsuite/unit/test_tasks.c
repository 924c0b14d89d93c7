/* test_tasks.c - gp_task_start and gp_task_wait (pipeline/tasks.c):
   every task runs exactly once and is finished when its wait returns,
   whether it got a thread or not, nested or not; a thread whose task is
   done is kept for the next task instead of a new one being started.  */

#include "config.h"
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "unit.h"
#include "pipeline/tasks.h"

enum { MANY = 200, SEQUENCE = 100 };

typedef struct Work
{
  atomic_int runs;        /* times the task ran */
  long tid;               /* the kernel's id of the thread it ran on */
  volatile unsigned long sum;
  GpTask task;            /* the task that runs this work */
  struct Work *child;     /* nested: work this one starts and waits for */
} Work;

static long
thread_id (void)
{
  return (long) syscall (SYS_gettid);
}

static void
work (void *arg)
{
  Work *w = arg;

  /* Long enough for other tasks to start meanwhile.  */
  for (unsigned long i = 0; i < 20000; i++)
    w->sum += i;
  w->tid = thread_id ();
  atomic_fetch_add (&w->runs, 1);
}

static void
work_nested (void *arg)
{
  Work *w = arg;

  gp_task_start (&w->child->task, work, w->child);
  work (w);
  gp_task_wait (&w->child->task);
}

/* Many tasks at once, more than there are CPUs: each runs once, and its
   results are there when its wait returns.  */
static void
test_many (const char *how)
{
  static Work w[MANY];
  int bad = 0;

  for (int i = 0; i < MANY; i++)
    {
      atomic_init (&w[i].runs, 0);
      w[i].sum = 0;
      gp_task_start (&w[i].task, work, &w[i]);
    }
  for (int i = 0; i < MANY; i++)
    {
      gp_task_wait (&w[i].task);
      bad += atomic_load (&w[i].runs) != 1 || w[i].sum != 20000UL * 19999 / 2;
    }
  check (bad == 0, "%s: %d tasks at once each ran once (%d wrong)", how,
         MANY, bad);
}

/* Tasks that start and wait for a task of their own.  */
static void
test_nested (const char *how)
{
  static Work outer[MANY / 2], inner[MANY / 2];
  int bad = 0;

  for (int i = 0; i < MANY / 2; i++)
    {
      atomic_init (&outer[i].runs, 0);
      atomic_init (&inner[i].runs, 0);
      outer[i].child = &inner[i];
      gp_task_start (&outer[i].task, work_nested, &outer[i]);
    }
  for (int i = 0; i < MANY / 2; i++)
    {
      gp_task_wait (&outer[i].task);
      bad += atomic_load (&outer[i].runs) != 1
             || atomic_load (&inner[i].runs) != 1;
    }
  check (bad == 0, "%s: %d nested tasks each ran once (%d wrong)", how,
         MANY / 2, bad);
}

/* One task after the other: with threads, all on one kept thread that is
   not the caller's.  */
static void
test_reuse (void)
{
  Work w;
  long first = 0;
  int others = 0, on_caller = 0;

  for (int i = 0; i < SEQUENCE; i++)
    {
      atomic_init (&w.runs, 0);
      gp_task_start (&w.task, work, &w);
      gp_task_wait (&w.task);
      if (i == 0)
        first = w.tid;
      others += w.tid != first;
      on_caller += w.tid == thread_id ();
    }
  check (others == 0 && on_caller == 0,
         "%d tasks in sequence ran on one helper thread (%d elsewhere, %d on "
         "the caller)", SEQUENCE, others, on_caller);
}

/* Without threads (GPROF_THREADS=1) each task runs at its wait, on the
   caller's thread.  */
static void
test_unthreaded (void)
{
  Work w;
  bool before, after;

  atomic_init (&w.runs, 0);
  gp_task_start (&w.task, work, &w);
  before = atomic_load (&w.runs) == 0;
  gp_task_wait (&w.task);
  after = atomic_load (&w.runs) == 1 && w.tid == thread_id ();
  check (before && after, "one thread: the task runs at its wait, here");
}

int
main (void)
{
  setenv ("GPROF_THREADS", "4", 1);
  test_many ("4 threads");
  test_nested ("4 threads");
  test_reuse ();
  setenv ("GPROF_THREADS", "1", 1);
  test_many ("1 thread");
  test_nested ("1 thread");
  test_unthreaded ();
  return check_done ();
}
