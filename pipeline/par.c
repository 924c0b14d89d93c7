/* pipeline/par.c - a stage's independent pieces of work, on several
   threads (see par.h).  */

#include "config.h"
#include "pipeline/par.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "pipeline/tasks.h"
#include "support/alloc.h"
#include "support/error.h"

const Par par_serial = { 1 };

/* ---- printing ------------------------------------------------------------ */


/* A batch printed and waiting for its turn to go to stdout.  */
typedef struct Printed
{
  OutChunk *chunks;
  size_t len;
  bool ready;
} Printed;

/* What printed batches may hold in memory before threads stop taking
   new ones and wait for the batches before theirs to go out; and what
   the batches whose turn has come must hold before they are written
   (the last ones go whatever they hold).  WRITE_MIN <= PENDING_MAX, or
   threads could wait for each other for ever.  Beyond a few batches a
   thread, more waiting output is only memory: when the writes are the
   slower side, printing further ahead cannot end the report sooner.  */
enum { PENDING_MAX = 8 << 20, WRITE_MIN = 1 << 20 };
_Static_assert (WRITE_MIN <= PENDING_MAX, "printing threads would deadlock");

typedef struct Batches
{
  const OutJob *job;
  size_t *bound;          /* batch B is items bound[B] .. bound[B + 1] - 1 */
  size_t nbatches;
  Printed *printed;       /* per batch */
  pthread_mutex_t lock;   /* guards the fields below and printed[] */
  pthread_cond_t moved;   /* signalled when turn advances */
  size_t next;            /* the next batch a thread takes */
  size_t turn;            /* the batch whose output goes to stdout next */
  size_t pending;         /* bytes printed and waiting */
  bool writing;           /* a thread is handing batches to stdout */
  OutChunk **chains;      /* the writer's list of the batches going out */
} Batches;

/* Cut the items into batches of about the job's batch weight.  */
static void
cut_batches (Batches *b)
{
  const OutJob *job = b->job;
  size_t target = job->batch_weight ? job->batch_weight : 4096, acc = 0, cap = 0;

  b->bound = NULL;
  b->nbatches = 0;
  gp_grow (&b->bound, &cap, 1, sizeof *b->bound);
  b->bound[0] = 0;
  for (size_t i = 0; i < job->n; i++)
    {
      acc += job->weight ? job->weight (job->ctx, i) : 1;
      if (acc >= target || i + 1 == job->n)
        {
          gp_grow (&b->bound, &cap, b->nbatches + 2, sizeof *b->bound);
          b->bound[++b->nbatches] = i + 1;
          acc = 0;
        }
    }
}

/* Hand the printed batches whose turn has come to stdout, once they
   hold WRITE_MIN bytes or are the last, unless another thread is doing
   so (it will see these too).  Called and returns with the lock held.  */
static void
write_ready (Batches *b)
{
  if (b->writing)
    return;
  b->writing = true;
  for (;;)
    {
      size_t end = b->turn, len = 0;

      while (end < b->nbatches && b->printed[end].ready)
        len += b->printed[end++].len;
      if (end == b->turn || (len < WRITE_MIN && end < b->nbatches))
        break;
      /* The turn only moves on, over batches printed.  */
      gp_assert (b->turn < end && end <= b->nbatches);
      for (size_t i = b->turn; i < end; i++)
        b->chains[i - b->turn] = b->printed[i].chunks;
      pthread_mutex_unlock (&b->lock);
      out_write_chains (b->chains, end - b->turn);
      for (size_t i = b->turn; i < end; i++)
        out_chain_release (b->printed[i].chunks);
      pthread_mutex_lock (&b->lock);
      b->pending -= len;
      b->turn = end;
      pthread_cond_broadcast (&b->moved);
    }
  b->writing = false;
}

/* A thread's work: take batches in order and print each into a buffer of
   its own, then queue it.  A thread does not wait for its batch's turn
   (one big entry would hold every other thread up), only for memory: when
   the waiting batches hold PENDING_MAX bytes it takes no new batch until
   the turn moves.  */
static void
print_batches (void *arg)
{
  Batches *b = arg;
  const OutJob *job = b->job;
  void *state = job->state_new ? job->state_new (job->ctx) : NULL;

  pthread_mutex_lock (&b->lock);
  for (;;)
    {
      size_t i, len;
      OutChunk *chunks;

      while (b->pending > PENDING_MAX && b->next > b->turn)
        pthread_cond_wait (&b->moved, &b->lock);
      if (b->next >= b->nbatches)
        break;
      i = b->next++;
      pthread_mutex_unlock (&b->lock);
      out_chain_begin ();
      job->print (job->ctx, state, b->bound[i], b->bound[i + 1]);
      chunks = out_chain_end (&len);
      pthread_mutex_lock (&b->lock);
      /* Each batch printed once, and only ahead of the turn.  */
      gp_assert (!b->printed[i].ready && i >= b->turn);
      b->printed[i].chunks = chunks;
      b->printed[i].len = len;
      b->printed[i].ready = true;
      b->pending += b->printed[i].len;
      write_ready (b);
    }
  pthread_mutex_unlock (&b->lock);
  if (job->state_free)
    job->state_free (job->ctx, state);
}

void
par_print (const Par *par, const OutJob *job)
{
  unsigned nthreads = par->nthreads;
  GpTask task[64];
  Batches b;

  if (nthreads <= 1)
    {
      out_print_job (job);
      return;
    }
  b.job = job;
  cut_batches (&b);
  if (b.nbatches <= 1)
    {
      free (b.bound);
      out_print_job (job);
      return;
    }
  if (nthreads > b.nbatches)
    nthreads = (unsigned) b.nbatches;
  if (nthreads > 64)
    nthreads = 64;
  /* What this thread printed before goes first.  */
  out_flush ();
  pthread_mutex_init (&b.lock, NULL);
  pthread_cond_init (&b.moved, NULL);
  b.printed = gp_calloc (b.nbatches, sizeof *b.printed);
  b.chains = gp_reallocarray (NULL, b.nbatches, sizeof *b.chains);
  b.next = b.turn = b.pending = 0;
  b.writing = false;
  for (unsigned t = 0; t + 1 < nthreads; t++)
    gp_task_start (&task[t], print_batches, &b);
  print_batches (&b);
  /* A task that found no thread prints here what the others left.  */
  for (unsigned t = 0; t + 1 < nthreads; t++)
    gp_task_wait (&task[t]);
  pthread_cond_destroy (&b.moved);
  pthread_mutex_destroy (&b.lock);
  free (b.chains);
  free (b.printed);
  free (b.bound);
  out_chunks_free ();
}

/* ---- jobs ------------------------------------------------------------------ */

typedef struct JobRange
{
  void (*fn) (void *ctx, size_t i);
  void *ctx;
  size_t begin, end;
} JobRange;

static void
run_range (void *arg)
{
  const JobRange *r = arg;

  for (size_t i = r->begin; i < r->end; i++)
    r->fn (r->ctx, i);
}

void
par_jobs (const Par *par, size_t n, void (*fn) (void *ctx, size_t i),
          void *ctx)
{
  unsigned k = par->nthreads < n ? par->nthreads : (unsigned) n;
  JobRange range[GP_MAX_THREADS];
  GpTask task[GP_MAX_THREADS];

  if (k > GP_MAX_THREADS)
    k = GP_MAX_THREADS;
  if (k <= 1)
    {
      for (size_t i = 0; i < n; i++)
        fn (ctx, i);
      return;
    }
  for (unsigned t = 0; t < k; t++)
    range[t] = (JobRange) { fn, ctx, n * t / k, n * (t + 1) / k };
  for (unsigned t = 1; t < k; t++)
    gp_task_start (&task[t], run_range, &range[t]);
  run_range (&range[0]);
  for (unsigned t = 1; t < k; t++)
    gp_task_wait (&task[t]);
}

/* ---- page faults ----------------------------------------------------------- */

/* Below PREFAULT_MIN a thread costs more than the faults it takes.  At
   most PAR_PREFAULT_MAX of a hint is faulted in: an array sized from what a
   file claims (the arcs of a profile whose records all repeat one arc)
   may stay mostly unwritten, and memory never written costs nothing.
   The pages go in steps of PREFAULT_STEP: each step holds the address
   space's lock, which the stage's own mmap and munmap wait for.  */
enum
{
  PREFAULT_MIN = 1 << 20,
  PREFAULT_STEP = 256 << 10
};

typedef struct Prefault
{
  uintptr_t from, to;     /* page-aligned */
} Prefault;

#if defined MADV_POPULATE_WRITE && !defined GP_NO_TACTICS

static void *
prefault_run (void *arg)
{
  Prefault p = *(Prefault *) arg;

  free (arg);
  /* An error (an old kernel, memory already unmapped) ends the hint.  */
  for (uintptr_t a = p.from; a < p.to; a += PREFAULT_STEP)
    {
      size_t len = p.to - a < PREFAULT_STEP ? p.to - a : PREFAULT_STEP;

      if (madvise ((void *) a, len, MADV_POPULATE_WRITE) != 0)
        break;
    }
  return NULL;
}

void
par_prefault (const Par *par, void *mem, size_t len)
{
  uintptr_t page = (uintptr_t) sysconf (_SC_PAGESIZE);
  pthread_attr_t attr;
  pthread_t thread;
  Prefault *p;

  if (par->nthreads <= 1 || len < PREFAULT_MIN || !(p = malloc (sizeof *p)))
    return;
  if (len > PAR_PREFAULT_MAX)
    len = PAR_PREFAULT_MAX;
  p->from = ((uintptr_t) mem + page - 1) & ~(page - 1);
  p->to = ((uintptr_t) mem + len) & ~(page - 1);
  /* A thread of its own, which nobody joins: the pool's threads are
     for work that is waited for.  */
  pthread_attr_init (&attr);
  pthread_attr_setdetachstate (&attr, PTHREAD_CREATE_DETACHED);
  if (pthread_create (&thread, &attr, prefault_run, p) != 0)
    free (p);
  pthread_attr_destroy (&attr);
}

#else

void
par_prefault (const Par *par, void *mem, size_t len)
{
  (void) par;
  (void) mem;
  (void) len;
}

#endif
