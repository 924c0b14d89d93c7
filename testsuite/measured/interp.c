/* interp.c - an interpreter-like program for testsuite/measured/perf.sh:
   a tree-walking evaluator whose script calls script functions, so that
   eval, op_call, op_loop and op_seq call each other in one big cycle,
   as an interpreter's do.  Its builtins are shared by callers whose
   calls cost very different amounts, the case gprof's proportional rule
   gets wrong:

     gc_free    freed 8 times per call of fb in the hot path, by op_new,
                each a long sweep; and 400,000 times at the end by
                cleanup, each a trivial one: by calls, cleanup gets almost
                all of gc_free's time, by the stacks almost none.
     mix        the hash step: op_hash calls it with long inputs, op_add
                with a single word.

   The script (built by make_script) is
     main_fn: loop 24 { call fa; call fb }
     fa:      loop 30 { hash 2000 }
     fb:      loop 8 { new 30000 }; loop 60 { add }
   and the whole of it runs as long as argv[1] CPU seconds ask.  */

#include <stdlib.h>
#include <time.h>

enum op { OP_SEQ, OP_LOOP, OP_CALL, OP_HASH, OP_NEW, OP_ADD };

struct node
{
  enum op op;
  long arg;                     /* count, size or function number */
  struct node *kid[2];
};

static struct node *fn[3];
static volatile unsigned long sink;
static unsigned long heap[4096];

__attribute__ ((noinline)) unsigned long
mix (unsigned long h, long n)
{
  for (long i = 0; i < n; i++)
    h = (h ^ (unsigned long) i) * 0x100000001b3UL;
  return h;
}

__attribute__ ((noinline)) void
gc_free (long cells)
{
  unsigned long h = 0;

  for (long i = 0; i < cells; i++)
    h += heap[(unsigned long) i % 4096] += (unsigned long) i;
  sink += h;
}

long eval (const struct node *n, long env);

__attribute__ ((noinline)) long
op_seq (const struct node *n, long env)
{
  return eval (n->kid[0], env) + eval (n->kid[1], env);
}

__attribute__ ((noinline)) long
op_loop (const struct node *n, long env)
{
  long s = 0;

  for (long i = 0; i < n->arg; i++)
    s += eval (n->kid[0], env + i);
  return s;
}

__attribute__ ((noinline)) long
op_call (const struct node *n, long env)
{
  return eval (fn[n->arg], env);
}

__attribute__ ((noinline)) long
op_hash (const struct node *n, long env)
{
  return (long) mix ((unsigned long) env, n->arg);
}

__attribute__ ((noinline)) long
op_new (const struct node *n, long env)
{
  gc_free (n->arg);
  return env;
}

__attribute__ ((noinline)) long
op_add (const struct node *n, long env)
{
  return (long) mix ((unsigned long) env, 1) + n->arg;
}

__attribute__ ((noinline)) long
eval (const struct node *n, long env)
{
  switch (n->op)
    {
    case OP_SEQ: return op_seq (n, env);
    case OP_LOOP: return op_loop (n, env);
    case OP_CALL: return op_call (n, env);
    case OP_HASH: return op_hash (n, env);
    case OP_NEW: return op_new (n, env);
    default: return op_add (n, env);
    }
}

static struct node *
mk (enum op op, long arg, struct node *a, struct node *b)
{
  struct node *n = calloc (1, sizeof *n);

  if (n == NULL)
    abort ();
  n->op = op;
  n->arg = arg;
  n->kid[0] = a;
  n->kid[1] = b;
  return n;
}

static void
make_script (void)
{
  fn[1] = mk (OP_LOOP, 30, mk (OP_HASH, 2000, NULL, NULL), NULL);
  fn[2] = mk (OP_SEQ, 0,
              mk (OP_LOOP, 8, mk (OP_NEW, 30000, NULL, NULL), NULL),
              mk (OP_LOOP, 60, mk (OP_ADD, 1, NULL, NULL), NULL));
  fn[0] = mk (OP_LOOP, 24,
              mk (OP_SEQ, 0, mk (OP_CALL, 1, NULL, NULL),
                  mk (OP_CALL, 2, NULL, NULL)), NULL);
}

__attribute__ ((noinline)) void
cleanup (void)
{
  for (long i = 0; i < 400000; i++)
    gc_free (1);
}

static double
cpu_seconds (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}

__attribute__ ((noinline)) void
run_script (double seconds)
{
  double end = cpu_seconds () + seconds;
  long env = 0;

  while (cpu_seconds () < end)
    sink += (unsigned long) eval (fn[0], env++);
}

int
main (int argc, char **argv)
{
  make_script ();
  run_script (argc > 1 ? atof (argv[1]) : 1.0);
  cleanup ();
  return 0;
}
