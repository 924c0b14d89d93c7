/* walk.c - the program of walk.sh: samples taken where the chain of
   frame pointers that libgmon's handler follows is unusable.  Built
   with -pg, beside walk-leaf.c (built without -pg or frame pointer):

     frameless S T  a() and b() call leaf(), which keeps no frame, so
                    the frame pointer is still its caller's while it runs
     garbage S T    garbage() calls garbage_spin(), which spins with the
                    frame pointer set to a hostile value: 0, 1, an odd
                    address, an unmapped one, a word holding its own
                    address, the heap, just below the stack pointer, a
                    frame record whose next record lies below it, the
                    stack's last word
     libc S T       sorter() has libc's qsort call cmp(), or cmp_leaf()
                    which keeps no frame, through libc code with no frame
                    pointers; copier() spends its time in memcpy and
                    memset

   The mode runs until it has used S seconds of CPU time, in the main
   thread when T is 0, else in T threads at once.  garbage takes one
   value only when given its name (zero, one, odd, unmapped, self, heap,
   below-sp, out-of-order, stack-end) after T.  It picks the next call
   at random, so that timer signals at a fixed rate do not keep
   landing at the same point of a fixed order.  Calls are kept from
   being inlined or made tail calls (-fno-optimize-sibling-calls): a
   tail call would pop garbage()'s frame, with its records, off the
   stack.  */

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* walk-leaf.c */
void leaf (long n);
int cmp_leaf (const void *x, const void *y);
void garbage_spin (long n, uintptr_t fp, uintptr_t below);

static volatile long sink;

__attribute__ ((noinline)) void
a (void)
{
  leaf (300000);
}

__attribute__ ((noinline)) void
b (void)
{
  leaf (300000);
}

/* Return addresses planted in fake frame records: each decoy's call of
   note_return, a true return address.  decoy_ok's is one a walk may
   take (nothing tells it from a real one); decoy_bad's lies where a
   walk must not go, so that it shows in a stack if it went.  A word
   that points into decoy_bad but follows no call (not_return) is no
   return address, and the walk must refuse it.  */
static uintptr_t ret_ok, ret_bad;

__attribute__ ((noinline)) void
note_return (uintptr_t *where)
{
  *where = (uintptr_t) __builtin_return_address (0);
}

__attribute__ ((noinline)) void
decoy_ok (void)
{
  note_return (&ret_ok);
  sink += 1;
}

__attribute__ ((noinline)) void
decoy_bad (void)
{
  note_return (&ret_bad);
  sink += 2;
}

enum hostile
{
  FP_ZERO, FP_ONE, FP_ODD, FP_UNMAPPED, FP_SELF, FP_HEAP, FP_BELOW_SP,
  FP_OUT_OF_ORDER, FP_STACK_END, FP_NOT_RETURN, FP_KINDS
};

static const char *const hostile_name[FP_KINDS] = {
  "zero", "one", "odd", "unmapped", "self", "heap", "below-sp",
  "out-of-order", "stack-end", "not-return"
};

struct garbage_ctx
{
  uintptr_t *heap;              /* a record in the heap */
  uintptr_t stack_end;          /* the end of this thread's stack */
};

/* g's record in the heap, and the end of the mapping that holds this
   thread's stack, as the kernel tells it: libgmon's bound.
   (pthread_getattr_np ends the main thread's stack below the program's
   arguments and environment.)  */
__attribute__ ((noinline)) void
garbage_setup (struct garbage_ctx *g)
{
  char line[4096];
  uintptr_t here = (uintptr_t) line;
  unsigned long lo, hi;
  FILE *f = fopen ("/proc/self/maps", "r");

  g->stack_end = 0;
  while (f != NULL && g->stack_end == 0
         && fgets (line, sizeof line, f) != NULL)
    if (sscanf (line, "%lx-%lx", &lo, &hi) == 2 && lo <= here && here < hi)
      g->stack_end = hi;
  if (f != NULL)
    fclose (f);
  g->heap = malloc (2 * sizeof *g->heap);
  if (g->heap == NULL || g->stack_end == 0)
    {
      fprintf (stderr, "walk: no heap, or no mapping holds the stack\n");
      exit (1);
    }
  g->heap[0] = (uintptr_t) g->heap;
  decoy_ok ();
  decoy_bad ();
  g->heap[1] = ret_bad;
}

__attribute__ ((noinline)) void
garbage (const struct garbage_ctx *g, enum hostile kind)
{
  /* Records in this frame, above garbage_spin's stack pointer: where a
     walk may read.  self holds its own address; the record at order[2]
     is followed by one below it, at order[0]; fake holds its own
     address and a pointer into decoy_bad that follows no call.  */
  uintptr_t self[2], order[4], fake[2];
  uintptr_t fp = 0, below = 0;

  self[0] = (uintptr_t) self;
  self[1] = ret_ok;
  order[0] = 0;
  order[1] = ret_bad;
  order[2] = (uintptr_t) order;
  order[3] = ret_ok;
  fake[0] = (uintptr_t) fake;
  fake[1] = (uintptr_t) decoy_bad + 1;
  switch (kind)
    {
    case FP_ZERO:
      fp = 0;
      break;
    case FP_ONE:
      fp = 1;
      break;
    case FP_ODD:
      fp = (uintptr_t) &order[2] + 1;
      break;
    case FP_UNMAPPED:
      fp = 0x10;
      break;
    case FP_SELF:
      fp = (uintptr_t) self;
      break;
    case FP_HEAP:
      fp = (uintptr_t) g->heap;
      break;
    case FP_BELOW_SP:
      below = 2 * sizeof (uintptr_t);
      break;
    case FP_OUT_OF_ORDER:
      fp = (uintptr_t) &order[2];
      break;
    case FP_STACK_END:
      fp = g->stack_end - sizeof (uintptr_t);
      break;
    case FP_NOT_RETURN:
      fp = (uintptr_t) fake;
      break;
    default:
      abort ();
    }
  garbage_spin (200000, fp, below);
  sink += self[1] + order[3] + fake[1];
}

/* It spins a little, so that its samples outnumber mcount's.  */
__attribute__ ((noinline)) int
cmp (const void *x, const void *y)
{
  int u = *(const int *) x, v = *(const int *) y;

  for (int i = 0; i < 32; i++)
    sink += i;
  return (u > v) - (u < v);
}

#define NSORT 4096
#define NCOPY (4 << 20)

__attribute__ ((noinline)) void
sorter (uint32_t r)
{
  int v[NSORT];

  for (int i = 0; i < NSORT; i++)
    {
      r ^= r << 13;
      r ^= r >> 17;
      r ^= r << 5;
      v[i] = (int) r;
    }
  qsort (v, NSORT, sizeof v[0], r & 2 ? cmp : cmp_leaf);
  sink += v[0];
}

static char copy_from[NCOPY], copy_to[NCOPY];

__attribute__ ((noinline)) void
copier (uint32_t r)
{
  memset (copy_from, (int) (r & 0xff), NCOPY);
  memcpy (copy_to, copy_from, NCOPY);
  sink += copy_to[r % NCOPY];
}

__attribute__ ((noinline)) double
cpu_seconds (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}

static const char *mode;
static double seconds;
static int only_kind = -1;      /* garbage's one value, or -1: all */

__attribute__ ((noinline)) void
run_mode (void)
{
  uint32_t r = (uint32_t) (uintptr_t) &r | 1;   /* xorshift32 */
  struct garbage_ctx g;

  if (strcmp (mode, "garbage") == 0)
    garbage_setup (&g);
  while (cpu_seconds () < seconds)
    {
      r ^= r << 13;
      r ^= r >> 17;
      r ^= r << 5;
      if (strcmp (mode, "frameless") == 0)
        r & 1 ? a () : b ();
      else if (strcmp (mode, "garbage") == 0)
        garbage (&g, (enum hostile) (only_kind >= 0 ? (unsigned) only_kind
                                                    : r % FP_KINDS));
      else
        r & 1 ? sorter (r) : copier (r);
    }
}

__attribute__ ((noinline)) void *
run_thread (void *arg)
{
  run_mode ();
  return arg;
}

int
main (int argc, char **argv)
{
  static const char *const modes[] = { "frameless", "garbage", "libc" };
  pthread_t t[16];
  int known = 0, threads;

  mode = argc > 1 ? argv[1] : "";
  seconds = argc > 2 ? atof (argv[2]) : 1;
  threads = argc > 3 ? atoi (argv[3]) : 0;
  for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++)
    known |= strcmp (mode, modes[i]) == 0;
  for (int k = 0; argc > 4 && k < FP_KINDS; k++)
    if (strcmp (argv[4], hostile_name[k]) == 0)
      only_kind = k;
  if (!known || threads < 0 || threads > 16
      || (argc > 4 && (only_kind < 0 || strcmp (mode, "garbage") != 0)))
    {
      fprintf (stderr,
               "usage: walk frameless|garbage|libc SECONDS THREADS [VALUE]\n");
      return 2;
    }
  if (threads == 0)
    run_mode ();
  for (int i = 0; i < threads; i++)
    if (pthread_create (&t[i], NULL, run_thread, NULL) != 0)
      return 1;
  for (int i = 0; i < threads; i++)
    pthread_join (t[i], NULL);
  return 0;
}
