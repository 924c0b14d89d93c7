/* util.h - memory, diagnostics and small helpers shared by every stage.  */

#ifndef GPROF_UTIL_H
#define GPROF_UTIL_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The program name used as the prefix of messages: argv[0], as given.
   Set once in main; a global because nearly every diagnostic needs it.  */
extern const char *whoami;

/* Print a message to stderr and exit with status 1.  The format carries
   its own prefix (most messages start with whoami, some with a file
   name), exactly as GNU gprof words them.  */
void gp_die (const char *fmt, ...)
  __attribute__ ((noreturn, format (printf, 1, 2)));

/* The code's contracts.  Checked when configured with
   --enable-assertions (the sanitizer build and tools/setup check do),
   compiled out otherwise: COND must have no side effects.  A failure
   names the contract and where it is, and aborts.  */
#ifdef GP_ASSERTIONS
# define gp_assert(cond) \
  ((cond) ? (void) 0 : gp_assert_fail (#cond, __FILE__, __LINE__, __func__))
#else
# define gp_assert(cond) ((void) sizeof ((cond) ? 1 : 0))
#endif
void gp_assert_fail (const char *cond, const char *file, int line,
                     const char *func) __attribute__ ((noreturn));

/* Print a warning to stderr and go on.  */
void gp_warn (const char *fmt, ...) __attribute__ ((format (printf, 1, 2)));

/* Set up the heap for big arrays (see util.c): first thing in main,
   before any thread starts.  */
void gp_memory_init (void);

/* Allocation that never returns NULL: failure is reported in libiberty's
   words ("out of memory allocating N bytes ...") and exits.  */
void *gp_malloc (size_t n);
void *gp_calloc (size_t n, size_t size);
void *gp_realloc (void *p, size_t n);
/* n * size, reallocated; dies if the product overflows.  */
void *gp_reallocarray (void *p, size_t n, size_t size);
char *gp_strdup (const char *s);

/* A growable array: `gp_grow (&v, &cap, need, sizeof *v)` makes room for
   `need` elements, doubling.  */
void gp_grow (void *pv, size_t *cap, size_t need, size_t elem);

/* How many threads the big reports and sorts use: $GPROF_THREADS if set
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

/* GNU gprof converts doubles to long with a plain C cast; on x86-64 an
   out-of-range or NaN value becomes LONG_MIN.  Reproduce that without
   undefined behaviour.  */
long gp_double_to_long (double d);

/* The same for the conversion to an unsigned 64-bit address: values from
   2^64 up, and NaN, become 0 there.  */
uint64_t gp_double_to_vma (double d);

/* The last path component of NAME (the whole name if it has no '/').  */
const char *gp_basename (const char *name);

#endif
