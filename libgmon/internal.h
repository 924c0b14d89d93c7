/* internal.h - declarations shared by the libgmon sources.

   Everything here has hidden visibility: the preloadable libgmon.so must
   reach it without going through its PLT, and programs must not see it.

   Rules for code reachable from the mcount stubs or the sampling signal
   handler (arcs.c, sample.c, sys.c): no malloc, no stdio, no locks of
   libc, no vector registers (the build uses -mgeneral-regs-only on x86),
   and errno is left as the program had it.  System calls go through
   gm_syscall().  */

#ifndef LIBGMON_INTERNAL_H
#define LIBGMON_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "layout.h"

#define GM_HIDDEN __attribute__ ((visibility ("hidden")))
/* The stubs and the arc slow path live in their own section, so that the
   sampling handler can tell time spent inside the instrumentation apart
   (the linker provides __start_gmon_text / __stop_gmon_text).  */
#define GM_TEXT __attribute__ ((section ("gmon_text")))

/* ---- sys.c: system calls, lock, memory, strings ---------------------- */

/* A system call that returns -errno on failure and never changes errno.  */
GM_HIDDEN long gm_syscall (long nr, long a, long b, long c, long d, long e,
                           long f);
GM_HIDDEN int gm_gettid (void);
GM_HIDDEN int gm_getpid (void);
/* Anonymous private zero-filled memory, or NULL.  Pages are only backed
   when touched.  */
GM_HIDDEN void *gm_map (size_t size);
GM_HIDDEN void gm_unmap (void *p, size_t size);

/* One process-wide lock for the thread registry, control operations and
   snapshots.  A futex mutex: never held across anything that can call
   back into instrumented code.  */
GM_HIDDEN void gm_lock (void);
GM_HIDDEN void gm_unlock (void);
GM_HIDDEN void gm_lock_reinit (void);

/* Per-thread "inside libgmon" flag.  A nested entry (a signal handler
   running instrumented code, or the program calling libgmon_dump from a
   handler) sees it set and backs off instead of deadlocking or corrupting
   the tables.  */
extern __thread int gm_busy GM_HIDDEN
  __attribute__ ((tls_model ("initial-exec")));

/* Small string helpers (no libc, so async-signal-safe).  */
GM_HIDDEN size_t gm_strlen (const char *s);
/* Append s to buf[*len] (capacity cap, always NUL-terminated); returns 0
   if it did not fit.  */
GM_HIDDEN int gm_append (char *buf, size_t cap, size_t *len, const char *s);
GM_HIDDEN int gm_append_uint (char *buf, size_t cap, size_t *len,
                              unsigned long long v);
/* Write the whole buffer to fd, retrying on EINTR and short writes.
   Returns 0 or -errno.  */
GM_HIDDEN int gm_write_all (int fd, const void *buf, size_t len);
GM_HIDDEN void gm_memzero (void *p, size_t n);

/* ---- control.c: global state ----------------------------------------- */

/* 1 while profiling is on.  Read by the stubs before anything else.  */
extern unsigned char gm_on GM_HIDDEN;

/* Statistics for the summary line.  Updated with relaxed atomics.  */
struct gm_stats
{
  unsigned long threads;        /* threads that got an arc table */
  unsigned long lost_nested;    /* calls dropped: nested inside libgmon */
  unsigned long lost_nomem;     /* calls dropped: no memory for a table */
  unsigned long lost_unknown;   /* calls of an unloaded module that no
                                   registered load held */
  unsigned long timer_failures; /* threads without a sampling timer */
  unsigned long signals;        /* sampling signals taken */
  unsigned long samples;        /* samples, each weighted by 1 + overrun */
  unsigned long samples_in;     /* ... of which in the profiled range */
  unsigned long samples_mod;    /* ... of which in other modules */
  unsigned long samples_self;   /* ... of which inside libgmon's code */
  unsigned long samples_late;   /* ... of which found at a thread's end */
  unsigned long threads_late;   /* threads with most periods found so */
  unsigned long unsampled;      /* periods the signal did not reach us */
  unsigned long threads_blocked; /* threads that ended with it blocked */
  unsigned long stacks_dropped; /* samples whose stack found no room */
  unsigned long stacks_cut;     /* samples whose stack was cut at the depth */
};
extern struct gm_stats gm_stats GM_HIDDEN;

#define GM_COUNT(field, n) \
  __atomic_fetch_add (&gm_stats.field, (n), __ATOMIC_RELAXED)

/* Profiled range [lowpc, highpc) (absolute addresses, multiples of 4) and
   the main program's load bias, subtracted from every written address.  */
extern uintptr_t gm_lowpc GM_HIDDEN, gm_highpc GM_HIDDEN;
extern uintptr_t gm_exe_base GM_HIDDEN;

/* ---- arcs.c: per-thread arc tables ----------------------------------- */

struct gm_slot
{
  uintptr_t from;
  uintptr_t self;
  uint64_t count;
#ifdef __LP64__
  uint64_t pad;
#endif
};

struct gm_table
{
  uintptr_t mask_off;             /* (nslots - 1) << GM_SLOT_SHIFT */
  const unsigned char *on;        /* &gm_on, for the i386 stubs */
  uint32_t epoch;                 /* the module epoch of the keys */
  uint32_t nslots;
  uint32_t used;
#ifdef __LP64__
  uint32_t pad;                   /* the header as it was: 32 bytes */
#else
  const uint32_t *epoch_at;       /* &gm_epoch, for the i386 stubs */
  uint32_t pad[2];                /* 32 bytes: slots on 16 */
#endif
  struct gm_slot slot[];
};

/* 64-bit counts.  The owner increments them in a way that a signal
   handler interrupting it on the same thread cannot break; others read
   or clear them with single accesses.  i386 has no plain 64-bit atomic
   access without vector or x87 registers (which this code may not use),
   so there the halves are accessed separately: a read that races with an
   increment carrying into the upper half (once per 2^32 calls) can be
   off by 2^32, and only while the program is still running.  */
static inline void
gm_count_inc (uint64_t *c)
{
#if defined(__i386__)
  uint32_t *w = (uint32_t *) c;
  __asm__ ("addl $1, %0\n\tadcl $0, %1" : "+m" (w[0]), "+m" (w[1]) : : "cc");
#else
  __atomic_fetch_add (c, 1, __ATOMIC_RELAXED);
#endif
}

static inline uint64_t
gm_count_read (const uint64_t *c)
{
#if defined(__i386__)
  const volatile uint32_t *w = (const volatile uint32_t *) c;
  uint32_t lo = w[0];
  return (uint64_t) w[1] << 32 | lo;
#else
  return __atomic_load_n (c, __ATOMIC_RELAXED);
#endif
}

static inline void
gm_count_clear (uint64_t *c)
{
#if defined(__i386__)
  volatile uint32_t *w = (volatile uint32_t *) c;
  w[0] = 0;
  w[1] = 0;
#else
  __atomic_store_n (c, 0, __ATOMIC_RELAXED);
#endif
}

/* Add v to a 64-bit sum that several threads add to (the histogram's
   weights) or one thread adds to while others clear it (a thread's
   stacks); read and clear it as the counts.  i386 has no 64-bit atomic
   access without vector or x87 registers: there the halves are added
   with a carry, each atomically, so the sum is exact once the additions
   are done; a read meanwhile may be torn.  */
static inline void
gm_u64_add (uint64_t *c, uint64_t v)
{
#if defined(__i386__)
  uint32_t *w = (uint32_t *) c;
  uint32_t lo = (uint32_t) v;
  uint32_t old = __atomic_fetch_add (&w[0], lo, __ATOMIC_RELAXED);
  uint32_t hi = (uint32_t) (v >> 32) + (old + lo < old);
  if (hi != 0)
    __atomic_fetch_add (&w[1], hi, __ATOMIC_RELAXED);
#else
  __atomic_fetch_add (c, v, __ATOMIC_RELAXED);
#endif
}

/* One per thread that has called instrumented code.  Records are never
   freed: when a thread has exited, a later new thread adopts its record
   and table and keeps counting into it (the counts stay valid, they are
   merged at dump time anyway).  */
struct gm_thread
{
  struct gm_thread *next;       /* registry list, guarded by gm_lock */
  struct gm_table *table;       /* written by the owner, read under gm_lock */
  /* The table it had before its last change of epoch, reused at the
     next (arcs.c).  */
  struct gm_table *spare;
  int tid;                      /* owner thread; 0: none */
  int timer;                    /* kernel timer id, -1 if none */
  /* Sampling (sample.c): the periods the owner's signals were weighted
     with and the last PC they found, written by the owner's handler;
     the owner's CPU time when its timer was last armed (-1: not armed)
     and the periods counted by then.  */
  unsigned long samples;
  /* Over the owner's credits that landed in the bins, each counting w
     periods: sum(w) and sum(w^2), for the file's dispersion
     (gmon_out.h).  Plain 64-bit sums, as i386 has no lock-free 64-bit
     add without libatomic; only the owner writes them.  */
  unsigned long long weight, weight_sq;
  uintptr_t last_pc;
  long long armed_ns;
  unsigned long armed_samples;
  /* Call stacks (stacks.c): the part of the owner's stack that its
     handler may read, set at attach; where the last sample's stack
     went, for the periods found at the thread's end.  */
  uintptr_t stack_lo, stack_hi;
  uint64_t *last_stack;
  /* Wall-clock sampling (wall.c), written by its sampler thread only:
     the thread it last looked at under this record (0: none), then its
     CLOCK_MONOTONIC and CPU time, and the blocked time not yet a whole
     period; the sums of its credits, as weight and weight_sq.  */
  int wall_tid;
  long long wall_ns, wall_cpu_ns, wall_off_ns;
  unsigned long long wall_weight, wall_weight_sq;
  /* Queued as the record of a thread that is ending (arcs.c), guarded
     by gm_lock.  */
  int leaving;
  struct gm_thread *next_leaving;
};

/* The registry of every record, newest first (guarded by gm_lock).  */
extern struct gm_thread *gm_threads GM_HIDDEN;

/* The calling thread's record and table.  gm_cur is what the stubs read;
   it is &gm_empty until the thread's first call and while its table
   grows, so that the stubs miss and call gm_arc_miss.  */
extern struct gm_table gm_empty GM_HIDDEN;
extern __thread struct gm_table *gm_cur GM_HIDDEN
  __attribute__ ((tls_model ("initial-exec")));
extern __thread struct gm_thread *gm_thr GM_HIDDEN
  __attribute__ ((tls_model ("initial-exec")));

/* Set up the notice of thread ends, before the first gm_thread_attach. */
GM_HIDDEN void gm_threads_init (void);
/* Called by the stubs when the fast path did not find (from, self).  */
GM_HIDDEN GM_TEXT void gm_arc_miss (uintptr_t from, uintptr_t self);
/* Give the calling thread a record (adopting a dead thread's if any) and
   a sampling timer.  Call with gm_busy set.  Returns NULL without memory. */
GM_HIDDEN struct gm_thread *gm_thread_attach (void);
/* In a fork child: mark every record but the calling thread's as free
   (their threads do not exist here).  */
GM_HIDDEN void gm_threads_forked (void);
/* Zero every count (libgmon_reset, fork children).  Call under gm_lock.  */
GM_HIDDEN void gm_arcs_reset (void);

/* A merged snapshot of every thread's arcs, restricted to the profiled
   range, with duplicate (from, self) pairs summed.  */
struct gm_arc
{
  uintptr_t from;
  uintptr_t self;
  uint64_t count;
};
/* An arc with an end outside the program's range, by module and file
   address (the .modules file's).  */
struct gm_marc
{
  uintptr_t from, self;
  uint32_t from_mod, self_mod;
  uint64_t count;
};
struct gm_arcs
{
  struct gm_arc *arc;           /* compacted: arc[0 .. n) */
  size_t n;
  size_t map_size;              /* for gm_unmap */
  struct gm_marc *marc;         /* the others, compacted: marc[0 .. nm) */
  size_t nm;
  size_t mmap_size;
  unsigned long long outside;   /* calls with an end in no module */
  /* Taken at the same moment: the samples' dispersion, in 1/65536
     (gm_sample_dispersion).  */
  uint32_t dispersion;
};
/* Call under gm_lock.  Returns 0, or -ENOMEM.  */
GM_HIDDEN int gm_arcs_snapshot (struct gm_arcs *out);
GM_HIDDEN void gm_arcs_free (struct gm_arcs *a);

/* ---- sample.c: PC sampling ------------------------------------------- */

/* sum(w^2) / sum(w) of every thread's credits, in 1/65536, or 0 without
   any.  Call under gm_lock.  */
GM_HIDDEN uint32_t gm_sample_dispersion (void);

struct gm_hist
{
  uint32_t *bin;                /* one bin per 4 bytes of [lowpc, highpc);
                                   NULL without memory: all zero */
  size_t nbins;
  unsigned hz;                  /* the rate written in the file */
  int sampling;                 /* 0: LIBGMON_HZ=0 or no timers possible */
  int wall;                     /* LIBGMON_CLOCK=wall: blocked time too */
};
extern struct gm_hist gm_hist GM_HIDDEN;

/* Allocate the histogram and, for hz > 0, install the signal handler
   (wall: the samples measure wall-clock time, wall.c).  Returns 0 or
   -errno; on failure sampling is off.  */
GM_HIDDEN int gm_sample_init (unsigned hz, int signo, int wall);
/* Count w periods at pc, for no thread's timer (wall.c).  Returns
   whether they went to the histogram.  */
GM_HIDDEN int gm_sample_credit (uintptr_t pc, unsigned long w);
/* CPU time of thread tid of this process in ns, or -1 (it is gone).  */
GM_HIDDEN long long gm_thread_cpu_ns (int tid);
/* True when a handler other than the default was installed for the
   sampling signal before ours (its signals are passed on to it).  */
GM_HIDDEN int gm_sample_foreign_handler (void);
/* A new timer for the calling thread tid, not armed; -1 if none.  */
GM_HIDDEN int gm_timer_new (int tid);
/* Arm the calling thread's new timer t->timer if profiling is on.  Call
   under gm_lock (so that moncontrol finds it).  */
GM_HIDDEN void gm_timer_start (struct gm_thread *t);
/* Delete a timer (-1: none).  */
GM_HIDDEN void gm_timer_delete (int timer);
/* Arm (on) or disarm every registered timer.  Call under gm_lock.  */
GM_HIDDEN void gm_timers_set (int on);
/* Sampling of the calling thread t ends (it ends, or profiling stops):
   count the CPU time the kernel has not reported yet.  Call with gm_on
   clear, or from the thread's end (gm_sample_leave).  */
GM_HIDDEN void gm_sample_settle (struct gm_thread *t);
/* The calling thread t is ending: block the signal and settle.  */
GM_HIDDEN void gm_sample_leave (struct gm_thread *t);
/* What the program did to the sampling signal's disposition.  */
enum gm_disposition
{
  GM_DISP_OURS,
  GM_DISP_REPLACED,
  GM_DISP_IGNORED,
  GM_DISP_DEFAULT
};
GM_HIDDEN enum gm_disposition gm_sample_disposition (void);
GM_HIDDEN int gm_sample_signo (void);
GM_HIDDEN void gm_hist_reset (void);
/* In a fork child: forget the parent's timers and sample nothing, in
   this thread or any later one (see gm_fork_child).  */
GM_HIDDEN void gm_sample_stop_forked (void);

/* ---- wall.c: wall-clock sampling of blocked threads ------------------ */

/* Start the sampler thread, if gm_hist.wall and sampling.  */
GM_HIDDEN void gm_wall_start (void);

/* ---- modules.c: the program and every shared object ------------------ */

/* A file of code: module 0 is the program; the others in the order they
   were first loaded.  Written under gm_dl_lock and gm_lock, appended
   with release order (gm_nmods); read without a lock by the writer.  */
struct gm_module
{
  uintptr_t lo, hi;             /* its code, as file addresses */
  uintptr_t base;               /* its load bias at its last load */
  uint32_t *bin;                /* a bin per 4 bytes of [lo, hi); module
                                   0: NULL (its samples go to gm_hist) */
  size_t nbins;
  const char *path;             /* not NUL-terminated */
  const unsigned char *build_id;
  size_t path_len, id_len;
  unsigned loads;               /* times it was loaded */
  unsigned live;                /* loads mapped now */
  unsigned flags;               /* GMON_MODULE_UNLOADED */
  int sampled;                  /* a bin may be non-zero: the others'
                                   pages are never read nor written */
  uint64_t key;                 /* hash of path and build-id */
};
extern struct gm_module *gm_mods GM_HIDDEN;
extern size_t gm_nmods GM_HIDDEN;

/* One load of a module: its code at [lo, hi) (absolute), mapped in the
   module epochs [from, to) (to: UINT32_MAX while mapped).  */
struct gm_load
{
  uintptr_t lo, hi, bias;
  const void *phdr;             /* identifies the load while mapped */
  uint32_t module;
  uint32_t from, to;
};

/* The module epoch: advanced by every unload.  Arc keys (absolute
   addresses) are read against the loads of their table's epoch.  */
extern uint32_t gm_epoch GM_HIDDEN;

/* Map the tables and register what is loaded now.  Returns 0 or -errno
   (then every sample outside the program is "elsewhere").  */
GM_HIDDEN int gm_modules_init (void);
/* Register what was loaded and unloaded since the last scan (after a
   dlopen or dlclose).  Not from a signal handler.  */
GM_HIDDEN void gm_modules_scan (void);
/* Rescan if the loader says anything changed and no scan is under way
   (mcount found code of no known module).  */
GM_HIDDEN void gm_modules_notice (void);
/* Hold the scans off around a dlopen or dlclose (recursive).  */
GM_HIDDEN void gm_modules_lock (void);
GM_HIDDEN void gm_modules_unlock (void);
/* In the sampling handler: count w periods at pc in its module's
   histogram (not module 0's).  Returns whether pc is in one.  */
GM_HIDDEN int gm_modules_credit (uintptr_t pc, unsigned long w);
/* Whether pc is in a module mapped now other than the program.
   Async-signal-safe.  */
GM_HIDDEN int gm_modules_known (uintptr_t pc);
/* Whether some load could not be registered (tables full).  */
GM_HIDDEN int gm_modules_full (void);
/* Zero every module's bins (libgmon_reset, fork children).  */
GM_HIDDEN void gm_modules_reset (void);
/* In a fork child: the scan lock is free.  */
GM_HIDDEN void gm_modules_forked (void);
/* dlwrap.c: find the real dlopen, dlmopen and dlclose (and link the
   interposers into every program that links libgmon.a).  */
GM_HIDDEN void gm_dlwrap_init (void);

/* The loads mapped in one epoch, sorted, for turning absolute addresses
   into (module, file address).  Build and use under gm_lock.  */
struct gm_span
{
  uintptr_t lo, hi, bias;
  uint32_t module;
};
struct gm_view
{
  struct gm_span *span;
  size_t n, map_size;
  uint32_t epoch;
};
GM_HIDDEN int gm_view_build (struct gm_view *v, uint32_t epoch);
GM_HIDDEN int gm_view_find (const struct gm_view *v, uintptr_t pc,
                            uint32_t *module, uintptr_t *addr);
GM_HIDDEN void gm_view_free (struct gm_view *v);

/* ---- stacks.c: call stacks of the samples ---------------------------- */

/* LIBGMON_STACKS: the most frames a sample's stack keeps, 0 for no
   stacks; set before the first thread attaches.  */
#define GM_STACKS_DEFAULT 32
#define GM_STACKS_MAX 128
extern unsigned gm_stacks_depth GM_HIDDEN;

/* Map the table of stacks, if stacks are on and samples are taken.
   Returns 0 or -errno (then no stacks are recorded).  */
GM_HIDDEN int gm_stacks_init (void);
/* The calling thread t's stack bounds, from the mapping that holds its
   stack pointer now.  Call at attach, not in the handler.  */
GM_HIDDEN void gm_stacks_attach (struct gm_thread *t);
/* In the sampling handler: add w periods to the stack of the context
   ctx, whose PC pc is in the profiled range.  */
GM_HIDDEN void gm_stacks_record (struct gm_thread *t, const void *ctx,
                                 uintptr_t pc, unsigned long w);
/* What gm_stacks_record does with the stack it read (also for tests):
   add w periods to the stack f[0 .. n), innermost frame first, each in
   [gm_lowpc, gm_highpc), 1 <= n <= GM_STACKS_MAX.  Returns its weight,
   or NULL when the table has no room (the periods are then counted as
   dropped).  Async-signal-safe.  */
GM_HIDDEN uint64_t *gm_stacks_add (const uintptr_t *f, unsigned n,
                                   uint64_t w);
/* Code addresses, for the stack walks (stacks.c, wall.c): pc within
   [gm_lowpc, gm_highpc); a with aarch64's pointer signature off; ret in
   the program, right after a call instruction (a saved register or a
   stale record that merely points at code is no return address).  */
GM_HIDDEN int gm_in_text (uintptr_t pc);
GM_HIDDEN uintptr_t gm_code_addr (uintptr_t a);
GM_HIDDEN int gm_return_address (uintptr_t ret);
/* Follow the chain of frame records from fp (within [floor, hi), each
   above the one before), adding their return addresses to f[n ..) up
   to depth frames (*cut when there were more); read copies a record
   when it might not be mapped (NULL: the stack is the running
   thread's own).  Returns the new number of frames.  */
typedef size_t (*gm_read_fn) (void *buf, uintptr_t addr, size_t n);
GM_HIDDEN unsigned gm_follow_records (uintptr_t fp, uintptr_t floor,
                                      uintptr_t hi, gm_read_fn read,
                                      uintptr_t *f, unsigned n,
                                      unsigned depth, int *cut);
/* w periods found at the end of t's sampling, credited where its last
   sample was: to that sample's stack too.  */
GM_HIDDEN void gm_stacks_late (struct gm_thread *t, unsigned long w);
/* Zero every stack's weight (libgmon_reset, fork children).  */
GM_HIDDEN void gm_stacks_reset (void);

/* Every thread's stacks merged into one tree of frames, outermost
   first: node i has a frame's address, its parent up[i] (UINT32_MAX
   for none; a parent comes before its children) and the periods of the
   samples whose stack, read from node i up to the root, is exactly
   that path.  */
struct gm_stack_tree
{
  uint32_t *up;                 /* parent index, or UINT32_MAX: none */
  uintptr_t *pc;
  uint64_t *weight;
  size_t n;
  void *map;                    /* for gm_unmap */
  size_t map_size;
  unsigned long dropped, cut;   /* gm_stats' at the snapshot */
};
/* Call under gm_lock.  Returns 0 or -ENOMEM.  */
GM_HIDDEN int gm_stacks_snapshot (struct gm_stack_tree *out);

/* ---- control.c: what dump.c uses --------------------------------------- */

/* "libgmon: " and the strings (up to a NULL) as one line on stderr.  */
GM_HIDDEN void gm_say (const char *first, ...);
GM_HIDDEN const char *gm_errstr (int err);
/* "SIGPROF", "SIGRTMIN+n" for signal sig, into buf.  */
GM_HIDDEN const char *gm_signame (char *buf, size_t cap, int sig);
/* Decimal number <= max, or -1.  */
GM_HIDDEN long gm_parse_uint (const char *s, unsigned long max);
/* The sampling signal chosen (LIBGMON_SIGNAL), and whether samples are
   taken at all (LIBGMON_HZ).  */
GM_HIDDEN int gm_config_signo (void);
GM_HIDDEN int gm_config_sampling (void);
/* Whether profiling runs in this process: started, not yet written for
   the last time, and not a vfork child or a clone that shares our
   memory (those must never write, nor change our state).  */
GM_HIDDEN int gm_running (void);
/* A numbered snapshot (name and record in gmon_out.h) from dump.c's
   writer thread; why says what asked for it.  Returns 0 or -errno.  */
GM_HIDDEN int gm_snapshot (const char *why);
/* The last profile, written now (why: what ends the program).  */
GM_HIDDEN void gm_final (const char *why);
/* Arm or disarm every timer as gm_on says now (after a toggle).  */
GM_HIDDEN void gm_sync_timers (void);

/* ---- dump.c: dumps while the program runs, and at its abnormal end -- */

/* Read LIBGMON_DUMP_SIGNAL, LIBGMON_INTERVAL, LIBGMON_START,
   LIBGMON_TOGGLE_SIGNAL and LIBGMON_CRASH_DUMP.  Returns whether
   collection is to start paused.  */
GM_HIDDEN int gm_dump_config (void);
/* Install the handlers and start the writer thread, once profiling
   runs.  */
GM_HIDDEN void gm_dump_start (void);
/* In a fork child: its own writer thread.  */
GM_HIDDEN void gm_dump_forked (void);
/* Whether profiles carry a snapshot record (numbered snapshots were
   asked for).  */
GM_HIDDEN int gm_dump_records (void);
/* A profile is being written; gm_writing_wait waits until no write is
   (the crash handlers and the exit wait for a snapshot being written:
   the process would die with its temporary file half written).  */
GM_HIDDEN void gm_writing_begin (void);
GM_HIDDEN void gm_writing_end (void);
GM_HIDDEN void gm_writing_wait (void);
/* CLOCK_REALTIME in ns.  */
GM_HIDDEN long long gm_realtime_ns (void);

/* ---- write.c: output files ------------------------------------------- */

enum gm_format
{
  GM_FORMAT_GNU,
  GM_FORMAT_BSD
};

/* What a write produced, for the summary line.  */
struct gm_written
{
  size_t arcs;                  /* arc records written */
  unsigned long long calls;     /* calls they add up to */
  unsigned long long modules;   /* calls in the .modules file */
  unsigned long long outside;   /* calls not written (an end in no
                                   module) */
  int saturated;                /* BSD histogram bins clipped at 65535 */
  uint64_t hash;                /* of the file's bytes (gmon_out.h) */
  int special;                  /* not a regular file: written directly */
};

/* A profile's bytes, built once and stored under one name or another.  */
struct gm_image
{
  unsigned char *data;
  size_t size, map_size;
};
/* Build the profile in memory (fills written, but for special).
   Returns 0 or -ENOMEM.  */
GM_HIDDEN int gm_image_build (struct gm_image *img, enum gm_format format,
                              const struct gm_arcs *arcs,
                              const struct gm_hist *hist,
                              struct gm_written *written);
/* Store it at path (through a temporary file in its directory and
   rename).  Returns 0 or -errno.  */
GM_HIDDEN int gm_image_store (const struct gm_image *img, const char *path);
GM_HIDDEN void gm_image_free (struct gm_image *img);
/* Whether path names something other than a regular file (a pipe, a
   terminal, /dev/stdout): that is written to, not replaced.  */
GM_HIDDEN int gm_is_special (const char *path);

/* What the snapshot record beside a profile says (gmon_out.h).  */
struct gm_meta
{
  uint64_t run;                 /* the run's identity */
  unsigned long long seq;       /* 1, 2, ... in the order of the counts */
  long long sec, nsec;          /* CLOCK_REALTIME when they were read */
  const char *clock;            /* what the samples measure: "cpu" */
  const char *why;              /* what asked for the profile */
};
/* Write the record m of the profile whose bytes hash to profile_hash to
   path, the same way.  Returns 0 or -errno.  */
GM_HIDDEN int gm_write_meta (const char *path, const struct gm_meta *m,
                             uint64_t profile_hash);
/* Write the stacks to path (profile_hash: the hash of the profile they
   go with), the same way.  Returns 0 or -errno.  */
GM_HIDDEN int gm_write_stacks (const char *path,
                               const struct gm_stack_tree *tree,
                               uint64_t profile_hash);
/* Write the modules, their bins and the arcs a->marc to path (the
   .modules file, gmon_out.h), the same way.  Returns 0 or -errno.  */
GM_HIDDEN int gm_write_modules (const char *path, const struct gm_arcs *a,
                                uint64_t profile_hash);

#endif /* LIBGMON_INTERNAL_H */
