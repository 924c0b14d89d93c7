/* test_out_items.c - par_print: whatever the number of threads and
   the size of the batches, stdout gets every item's lines once, in the
   items' order, after what the caller printed before and before what it
   prints after; each thread's state is made, used and freed in that
   thread.  Both with a little output and with more than the few MiB
   that go to stdout in one write.  */

#include "config.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "support/out.h"
#include "unit.h"
#include "pipeline/par.h"
#include "support/alloc.h"

enum { NITEMS = 3000, BIG = 3 * OUT_BUF };

typedef struct Job
{
  char *big;              /* a line longer than OUT_BUF / 2 */
  size_t big_every;       /* items I with I % big_every == 1 print it */
  pthread_mutex_t lock;
  int states, freed;      /* made and freed by state_new, state_free */
  int wrong_thread;       /* prints given another thread's state */
} Job;

typedef struct State
{
  pthread_t owner;
} State;

/* Item I: I % 5 lines, some of them long enough to pass the 64 KiB
   buffer at once.  */
static void
expected_item (Job *job, size_t i, char **buf, size_t *len, size_t *cap)
{
  for (size_t k = 0; k < i % 5; k++)
    {
      char line[64];
      int n = snprintf (line, sizeof line, "item %zu line %zu\n", i, k);

      gp_grow (buf, cap, *len + (size_t) n + BIG + 2, 1);
      memcpy (*buf + *len, line, (size_t) n);
      *len += (size_t) n;
      if (i % job->big_every == 1 && k == 0)
        {
          memcpy (*buf + *len, job->big, BIG);
          *len += BIG;
          (*buf)[(*len)++] = '\n';
        }
    }
}

static size_t
item_weight (void *ctx, size_t i)
{
  return i % 5;
}

static void
print_items (void *ctx, void *state, size_t begin, size_t end)
{
  Job *job = ctx;
  State *st = state;

  if (!pthread_equal (st->owner, pthread_self ()))
    {
      pthread_mutex_lock (&job->lock);
      job->wrong_thread++;
      pthread_mutex_unlock (&job->lock);
    }
  for (size_t i = begin; i < end; i++)
    for (size_t k = 0; k < i % 5; k++)
      {
        out_str ("item ");
        out_ulong (i, 0, false);
        out_printf (" line %zu\n", k);
        if (i % job->big_every == 1 && k == 0)
          {
            out_write (job->big, BIG);
            out_char ('\n');
          }
      }
}

static void *
state_new (void *ctx)
{
  Job *job = ctx;
  State *st = malloc (sizeof *st);

  st->owner = pthread_self ();
  pthread_mutex_lock (&job->lock);
  job->states++;
  pthread_mutex_unlock (&job->lock);
  return st;
}

static void
state_free (void *ctx, void *state)
{
  Job *job = ctx;

  pthread_mutex_lock (&job->lock);
  job->freed++;
  pthread_mutex_unlock (&job->lock);
  free (state);
}

/* Run the job with stdout sent to a temporary file; returns its bytes.  */
static char *
run_job (Job *job, unsigned nthreads, size_t batch_weight, size_t *len)
{
  OutJob oj = {
    .n = NITEMS, .ctx = job, .weight = item_weight, .print = print_items,
    .state_new = state_new, .state_free = state_free,
    .batch_weight = batch_weight
  };
  FILE *tmp = tmpfile ();
  int saved = dup (STDOUT_FILENO);
  char *got;
  long size;

  fflush (stdout);
  dup2 (fileno (tmp), STDOUT_FILENO);
  out_str ("before\n");
  par_print (&(Par) { nthreads }, &oj);
  out_str ("after\n");
  out_flush ();
  dup2 (saved, STDOUT_FILENO);
  close (saved);
  fseek (tmp, 0, SEEK_END);
  size = ftell (tmp);
  rewind (tmp);
  got = malloc ((size_t) size + 1);
  *len = fread (got, 1, (size_t) size, tmp);
  fclose (tmp);
  return got;
}

/* Every number of threads and batch size, items printing the big line
   every BIG_EVERY items.  */
static void
check_job (Job *job, size_t big_every)
{
  static const unsigned threads[] = { 1, 2, 3, 4, 8 };
  static const size_t batches[] = { 1, 7, 1000, 0 };
  char *want = NULL;
  size_t want_len = 0, want_cap = 0;

  job->big_every = big_every;
  gp_grow (&want, &want_cap, 16, 1);
  memcpy (want, "before\n", 7);
  want_len = 7;
  for (size_t i = 0; i < NITEMS; i++)
    expected_item (job, i, &want, &want_len, &want_cap);
  gp_grow (&want, &want_cap, want_len + 8, 1);
  memcpy (want + want_len, "after\n", 6);
  want_len += 6;

  for (size_t t = 0; t < sizeof threads / sizeof *threads; t++)
    for (size_t b = 0; b < sizeof batches / sizeof *batches; b++)
      {
        size_t len;
        char *got;

        job->states = job->freed = job->wrong_thread = 0;
        got = run_job (job, threads[t], batches[b], &len);
        check (len == want_len && memcmp (got, want, len) == 0,
               "%u threads, batches of %zu: output in order (%zu bytes of %zu)",
               threads[t], batches[b], len, want_len);
        check (job->states >= 1 && job->states <= (int) threads[t]
               && job->states == job->freed && job->wrong_thread == 0,
               "%u threads, batches of %zu: %d states made, %d freed, "
               "%d used by another thread", threads[t], batches[b],
               job->states, job->freed, job->wrong_thread);
        free (got);
      }
  free (want);
}

int
main (void)
{
  Job job = { .lock = PTHREAD_MUTEX_INITIALIZER };

  job.big = malloc (BIG);
  for (size_t i = 0; i < BIG; i++)
    job.big[i] = (char) ('a' + i % 26);
  check_job (&job, 997);        /* under 1 MiB */
  check_job (&job, 61);         /* 9.5 MiB */
  free (job.big);
  return check_done ();
}
