/* pipeline/tasks.c - work handed to other threads: a pool of threads
   kept between tasks, and how many threads a run uses.  */

#include "config.h"
#include "pipeline/tasks.h"

#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdlib.h>

/* Threads whose task is done wait here for the next one: starting a
   thread costs more than many tasks, and a run gives a dozen.  They live
   until the process exits.  */
typedef struct Worker
{
  struct Worker *next;     /* in the idle list */
  GpTask *task;            /* NULL while idle */
  pthread_cond_t wake;
} Worker;

static pthread_mutex_t workers_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t task_done = PTHREAD_COND_INITIALIZER;
static Worker *idle_workers;

static void *
worker_run (void *arg)
{
  Worker *w = arg;

  pthread_mutex_lock (&workers_lock);
  for (;;)
    {
      GpTask *task = w->task;

      pthread_mutex_unlock (&workers_lock);
      task->fn (task->arg);
      pthread_mutex_lock (&workers_lock);
      /* The waiter may free TASK as soon as it sees this.  */
      task->done = true;
      pthread_cond_broadcast (&task_done);
      w->task = NULL;
      w->next = idle_workers;
      idle_workers = w;
      while (!w->task)
        pthread_cond_wait (&w->wake, &workers_lock);
    }
  return NULL;
}

/* TASK handed to an idle worker or to a new one; false if no thread
   can be had.  */
static bool
hand_to_worker (GpTask *task)
{
  pthread_attr_t attr;
  pthread_t thread;
  Worker *w;
  bool started;

  task->done = false;
  pthread_mutex_lock (&workers_lock);
  w = idle_workers;
  if (w)
    {
      idle_workers = w->next;
      w->task = task;
      pthread_cond_signal (&w->wake);
    }
  pthread_mutex_unlock (&workers_lock);
  if (w)
    return true;
  w = malloc (sizeof *w);
  if (!w)
    return false;
  w->task = task;
  pthread_cond_init (&w->wake, NULL);
  pthread_attr_init (&attr);
  pthread_attr_setdetachstate (&attr, PTHREAD_CREATE_DETACHED);
  started = pthread_create (&thread, &attr, worker_run, w) == 0;
  pthread_attr_destroy (&attr);
  if (!started)
    {
      pthread_cond_destroy (&w->wake);
      free (w);
    }
  return started;
}

void
gp_task_start (GpTask *task, void (*fn) (void *), void *arg)
{
  task->fn = fn;
  task->arg = arg;
  task->threaded = gp_threads () > 1 && hand_to_worker (task);
}

void
gp_task_defer (GpTask *task, void (*fn) (void *), void *arg)
{
  task->fn = fn;
  task->arg = arg;
  task->threaded = false;
}

void
gp_task_wait (GpTask *task)
{
  if (!task->threaded)
    {
      task->fn (task->arg);
      return;
    }
  pthread_mutex_lock (&workers_lock);
  while (!task->done)
    pthread_cond_wait (&task_done, &workers_lock);
  pthread_mutex_unlock (&workers_lock);
}

unsigned
gp_threads (void)
{
  const char *env = getenv ("GPROF_THREADS");
  cpu_set_t cpus;
  long n;

  if (env && *env)
    {
      n = strtol (env, NULL, 10);
      return n < 1 ? 1 : n > 64 ? 64 : (unsigned) n;
    }
  if (sched_getaffinity (0, sizeof cpus, &cpus) != 0)
    return 1;
  n = CPU_COUNT (&cpus);
  return n < 1 ? 1 : n > GP_MAX_THREADS ? GP_MAX_THREADS : (unsigned) n;
}
