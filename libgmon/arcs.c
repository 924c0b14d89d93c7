/* arcs.c - per-thread call-graph tables.

   Every thread counts its arcs in its own open-addressing hash table, so
   the hot path (mach/mcount-*.S) writes no memory shared with another
   thread and needs no lock: glibc's single ON/BUSY word drops every call
   that races with another thread, we drop none.  The stubs handle hits;
   this file handles everything else: a thread's first call, insertion,
   growth (x2 at half load), and merging all tables into one snapshot for
   the writer.

   Ownership: only the owning thread (and signal handlers interrupting
   it) writes a table's keys and counts; snapshots and resets run under
   gm_lock and read or zero counts with single atomic accesses.  */

#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sys/syscall.h>

#include "../gmon_out.h"
#include "internal.h"

/* The stubs hard-code these offsets (layout.h).  */
_Static_assert (sizeof (uintptr_t) == GM_WORD, "GM_WORD");
_Static_assert (sizeof (struct gm_slot) == GM_SLOT_SIZE, "GM_SLOT_SIZE");
_Static_assert (GM_SLOT_SIZE == 1 << GM_SLOT_SHIFT, "GM_SLOT_SHIFT");
_Static_assert (offsetof (struct gm_slot, from) == GM_SLOT_FROM, "FROM");
_Static_assert (offsetof (struct gm_slot, self) == GM_SLOT_SELF, "SELF");
_Static_assert (offsetof (struct gm_slot, count) == GM_SLOT_COUNT, "COUNT");
_Static_assert (offsetof (struct gm_table, mask_off) == GM_TBL_MASK, "MASK");
_Static_assert (offsetof (struct gm_table, on) == GM_TBL_ON, "ON");
_Static_assert (offsetof (struct gm_table, epoch) == GM_TBL_EPOCH, "EPOCH");
#ifndef __LP64__
_Static_assert (offsetof (struct gm_table, epoch_at) == GM_TBL_EPOCH_AT,
                "EPOCH_AT");
#endif
_Static_assert (offsetof (struct gm_table, slot) == GM_TBL_SLOTS, "SLOTS");

/* 2048 slots (64 KiB on 64-bit): enough for most programs' arcs without
   growing, and untouched pages cost nothing.  */
#define GM_TABLE_MIN 2048

/* Thread records are carved from mappings of this size.  */
#define GM_RECORD_CHUNK 16384

/* Empty: mask 0, one slot, and that slot free.  */
struct gm_table gm_empty = {
  .on = &gm_on, .nslots = 1,
#ifndef __LP64__
  .epoch_at = &gm_epoch,
#endif
  .slot = { { .from = 0 } }
};

__thread struct gm_table *gm_cur __attribute__ ((tls_model ("initial-exec")))
  = &gm_empty;
__thread struct gm_thread *gm_thr __attribute__ ((tls_model ("initial-exec")));
struct gm_thread *gm_threads;

static size_t
gm_table_bytes (uintptr_t nslots)
{
  return sizeof (struct gm_table) + nslots * sizeof (struct gm_slot);
}

static struct gm_table *
gm_table_new (uintptr_t nslots)
{
  struct gm_table *t = gm_map (gm_table_bytes (nslots));
  if (t == NULL)
    return NULL;
  t->mask_off = (nslots - 1) << GM_SLOT_SHIFT;
  t->on = &gm_on;
#ifndef __LP64__
  t->epoch_at = &gm_epoch;
#endif
  t->epoch = __atomic_load_n (&gm_epoch, __ATOMIC_ACQUIRE);
  t->nslots = (uint32_t) nslots;
  t->used = 0;
  return t;
}

/* The same hash and probe order as the stubs.  */
static GM_TEXT uintptr_t
gm_hash_off (uintptr_t mask_off, uintptr_t from)
{
  uintptr_t h = from * (uintptr_t) (intptr_t) GM_HASH_MUL;
  return (h >> GM_HASH_SHIFT) & mask_off;
}

static GM_TEXT struct gm_slot *
gm_slot_at (struct gm_table *t, uintptr_t off)
{
  return (struct gm_slot *) ((char *) t->slot + off);
}

/* The slot holding (from, self), or the empty slot where it belongs.  The
   table is never full (growth keeps it at most half full), so the probe
   ends.  */
static GM_TEXT struct gm_slot *
gm_probe (struct gm_table *t, uintptr_t from, uintptr_t self)
{
  uintptr_t off = gm_hash_off (t->mask_off, from);
  for (;;)
    {
      struct gm_slot *s = gm_slot_at (t, off);
      if (s->from == 0 || (s->from == from && s->self == self))
        return s;
      off = (off + GM_SLOT_SIZE) & t->mask_off;
    }
}

/* Fill an empty slot.  from goes last, with release order, so that a
   snapshot on another thread that sees the key also sees self and count. */
static GM_TEXT void
gm_slot_fill (struct gm_slot *s, uintptr_t from, uintptr_t self,
              uint64_t count)
{
  s->self = self;
  s->count = count;
  __atomic_store_n (&s->from, from, __ATOMIC_RELEASE);
}

/* Replace the thread's table by one twice as large.  While the copy is
   made, gm_cur is the empty table, so a signal handler that runs
   instrumented code on this thread goes to gm_arc_miss, finds gm_busy
   set and is counted as lost instead of incrementing a slot that was
   already copied.

   The old table is never unmapped.  If a signal handler's call made us
   grow, the fast path it interrupted on this thread may still hold the
   old table and increment it once more when it resumes (that one count
   is lost), and a snapshot on another thread may be reading it.  The
   cost is at most as much memory again as the current table.  */
static GM_TEXT struct gm_table *
gm_table_grow (struct gm_thread *th)
{
  struct gm_table *old = th->table;
  struct gm_table *t = gm_table_new (old->nslots * 2);
  if (t == NULL)
    return NULL;
  gm_cur = &gm_empty;
  __atomic_signal_fence (__ATOMIC_SEQ_CST);
  for (uintptr_t i = 0; i < old->nslots; i++)
    {
      struct gm_slot *s = &old->slot[i];
      if (s->from != 0)
        gm_slot_fill (gm_probe (t, s->from, s->self), s->from, s->self,
                      s->count);
    }
  t->used = old->used;
  t->epoch = old->epoch;
  __atomic_store_n (&th->table, t, __ATOMIC_RELEASE);
  __atomic_signal_fence (__ATOMIC_SEQ_CST);
  gm_cur = t;
  return t;
}

/* Count one call (from, self) in the calling thread's table.  Returns 0,
   or -ENOMEM when the call could not be recorded.  */
static GM_TEXT int
gm_table_add (struct gm_thread *th, uintptr_t from, uintptr_t self)
{
  struct gm_table *t = th->table;
  struct gm_slot *s = gm_probe (t, from, self);
  if (s->from != 0)
    {
      /* A signal handler inserted it between the stub's miss and here. */
      gm_count_inc (&s->count);
      return 0;
    }
  if ((t->used + 1) * 2 > t->nslots)
    {
      struct gm_table *bigger = gm_table_grow (th);
      if (bigger != NULL)
        s = gm_probe (t = bigger, from, self);
      else if (t->used + 2 > t->nslots)
        /* No memory and no free slot left but the one that ends probes.  */
        return -ENOMEM;
    }
  gm_slot_fill (s, from, self, 1);
  t->used++;
  return 0;
}

/* ---- arcs outside the program, and the change of epoch -------------- */

static int
gm_in_range (uintptr_t pc)
{
  return pc - gm_lowpc < gm_highpc - gm_lowpc;
}

/* The arcs that threads took out of their tables at a change of epoch,
   by module and file address: an open-addressing table under gm_lock,
   doubled at half load.  */
static struct
{
  struct gm_marc *arc;
  size_t cap, used;
  unsigned long long lost;      /* calls dropped for lack of memory */
} gm_moved;

static size_t
gm_marc_hash (const struct gm_marc *a, size_t cap)
{
  uint64_t h = gmon_stacks_hash (GMON_STACKS_HASH_INIT, a, 2 * sizeof a->from
                                 + 2 * sizeof a->from_mod);
  return (size_t) (h & (cap - 1));
}

static int
gm_marc_same (const struct gm_marc *a, const struct gm_marc *b)
{
  return a->from == b->from && a->self == b->self
         && a->from_mod == b->from_mod && a->self_mod == b->self_mod;
}

/* Add a (count included) to the table t of cap slots (a power of two,
   count 0 marks a free slot); returns 0 if t is full.  */
static int
gm_marc_add (struct gm_marc *t, size_t cap, size_t *used,
             const struct gm_marc *a)
{
  size_t h = gm_marc_hash (a, cap);
  while (t[h].count != 0 && !gm_marc_same (&t[h], a))
    h = (h + 1) & (cap - 1);
  if (t[h].count == 0)
    {
      if ((*used + 1) * 2 > cap)
        return 0;
      t[h] = *a;
      ++*used;
      return 1;
    }
  t[h].count += a->count;
  return 1;
}

static void
gm_moved_add (const struct gm_marc *a)
{
  if (gm_moved.arc != NULL
      && gm_marc_add (gm_moved.arc, gm_moved.cap, &gm_moved.used, a))
    return;
  size_t cap = gm_moved.cap ? 2 * gm_moved.cap : 1024;
  struct gm_marc *t = gm_map (cap * sizeof *t);
  if (t == NULL)
    {
      gm_moved.lost += a->count;
      return;
    }
  size_t used = 0;
  for (size_t i = 0; i < gm_moved.cap; i++)
    if (gm_moved.arc[i].count != 0)
      (void) gm_marc_add (t, cap, &used, &gm_moved.arc[i]);
  if (gm_moved.arc != NULL)
    gm_unmap (gm_moved.arc, gm_moved.cap * sizeof *t);
  gm_moved.arc = t;
  gm_moved.cap = cap;
  gm_moved.used = used;
  (void) gm_marc_add (t, cap, &gm_moved.used, a);
}

/* The arc (from, self) of a table of epoch v->epoch by module and file
   address; 0 when an end is in no module.  */
static int
gm_marc_of (const struct gm_view *v, uintptr_t from, uintptr_t self,
            uint64_t count, struct gm_marc *a)
{
  a->count = count;
  return gm_view_find (v, from, &a->from_mod, &a->from)
         && gm_view_find (v, self, &a->self_mod, &a->self);
}

/* The module epoch changed (something was unloaded) since the thread's
   table got its keys: move the arcs not wholly in the program into
   gm_moved, read against the loads of the table's epoch, and give the
   thread a table of the new epoch with the others.  The new table is
   the one the thread had before its last change (th->spare): a fast
   path that a signal handler interrupted on this thread may still hold
   the old table and count in it once more when it resumes (that call
   is lost; the old table is only written again at the next change).  */
static GM_TEXT void
gm_table_rebase (struct gm_thread *th)
{
  struct gm_table *old = th->table;
  struct gm_table *t = th->spare;
  if (t == NULL || t->nslots != old->nslots)
    t = gm_table_new (old->nslots);
  if (t == NULL)
    return;                     /* stays in the old epoch: counted later */
  gm_memzero (t->slot, old->nslots * sizeof (struct gm_slot));
  t->used = 0;
  gm_cur = &gm_empty;
  __atomic_signal_fence (__ATOMIC_SEQ_CST);
  gm_lock ();
  struct gm_view v;
  if (gm_view_build (&v, old->epoch) != 0)
    v.n = 0, v.span = NULL;
  for (uintptr_t i = 0; i < old->nslots; i++)
    {
      struct gm_slot *s = &old->slot[i];
      uint64_t count = gm_count_read (&s->count);
      struct gm_marc a;
      if (s->from == 0 || count == 0)
        continue;
      if (gm_in_range (s->from) && gm_in_range (s->self))
        {
          gm_slot_fill (gm_probe (t, s->from, s->self), s->from, s->self,
                        count);
          t->used++;
        }
      else if (gm_marc_of (&v, s->from, s->self, count, &a))
        gm_moved_add (&a);
      else
        GM_COUNT (lost_unknown, count);
    }
  gm_view_free (&v);
  t->epoch = __atomic_load_n (&gm_epoch, __ATOMIC_ACQUIRE);
  __atomic_store_n (&th->table, t, __ATOMIC_RELEASE);
  th->spare = old;
  gm_unlock ();
  __atomic_signal_fence (__ATOMIC_SEQ_CST);
  gm_cur = t;
}

void
gm_arc_miss (uintptr_t from, uintptr_t self)
{
  if (!__atomic_load_n (&gm_on, __ATOMIC_RELAXED))
    return;
  if (gm_busy)
    {
      GM_COUNT (lost_nested, 1);
      return;
    }
  gm_busy = 1;
  __atomic_signal_fence (__ATOMIC_SEQ_CST);
  struct gm_thread *th = gm_thr;
  if (th == NULL)
    th = gm_thread_attach ();
  if (th != NULL && th->table->epoch != __atomic_load_n (&gm_epoch,
                                                         __ATOMIC_ACQUIRE))
    gm_table_rebase (th);
  /* Code of no known module: a library loaded behind our back.  */
  if ((!gm_in_range (from) && !gm_modules_known (from))
      || (!gm_in_range (self) && !gm_modules_known (self)))
    gm_modules_notice ();
  if (th == NULL || gm_table_add (th, from, self) != 0)
    GM_COUNT (lost_nomem, 1);
  __atomic_signal_fence (__ATOMIC_SEQ_CST);
  gm_busy = 0;
}

/* ---- thread records -------------------------------------------------- */

/* A new record from the current chunk.  Call under gm_lock.  */
static struct gm_thread *
gm_record_new (void)
{
  static struct gm_thread *chunk;
  static size_t left;
  if (left == 0)
    {
      chunk = gm_map (GM_RECORD_CHUNK);
      if (chunk == NULL)
        return NULL;
      left = GM_RECORD_CHUNK / sizeof *chunk;
    }
  left--;
  return chunk++;
}

/* True when thread tid of process pid has exited: the kernel's word,
   so a record is never adopted while its thread can still run
   instrumented code.  A thread id that was reused by a live thread
   reads as alive: its record is then simply not adopted yet.  Records
   with tid 0 belong to threads of the parent of a fork child.  */
static int
gm_thread_gone (int pid, int tid)
{
  return tid == 0 || gm_syscall (SYS_tgkill, pid, tid, 0, 0, 0, 0) == -ESRCH;
}

/* Finding the records of exited threads.  Asking the kernel about
   every record at each thread start made starting a thread cost
   O(threads) system calls (4,000 live threads took 8 million).  Now a
   thread that ends says so (gm_thread_leave, a pthread key's
   destructor) and its record joins a queue; a new thread asks the
   kernel about the first few queued records only, and adopts the first
   whose thread is gone (a thread that has run its destructors is
   normally gone a moment later; one that is not yet goes to the back).
   So the records never outnumber the threads alive at once by more
   than those that are just ending.  Threads that end without running
   destructors (raw clones, pthread_exit from a signal handler that
   interrupted libgmon) keep their records.  Without a usable key, a
   sweep round the registry asks about a couple of records per thread
   start instead (memory then stays within about twice the threads
   alive at once in simulations, though no bound is proven).  All of it
   under gm_lock, which no other system call is made under.  */

/* How many queued records, or records of the sweep, a new thread asks
   the kernel about.  */
#define GM_LEAVING_CHECKS 4
#define GM_SWEEP_CHECKS 2

/* glibc keeps the values of the first 32 keys (PTHREAD_KEY_2NDLEVEL_SIZE)
   in the thread's descriptor; pthread_setspecific of a later key may
   calloc, which gm_thread_attach must not do.  */
#define GM_KEY_INLINE 32

static struct gm_thread *gm_leaving, *gm_leaving_last;
static struct gm_thread *gm_cursor;
static pthread_key_t gm_key;
static int gm_key_set;

static void
gm_leaving_push (struct gm_thread *th)
{
  th->leaving = 1;
  th->next_leaving = NULL;
  if (gm_leaving == NULL)
    gm_leaving = th;
  else
    gm_leaving_last->next_leaving = th;
  gm_leaving_last = th;
}

static struct gm_thread *
gm_leaving_pop (void)
{
  struct gm_thread *th = gm_leaving;
  gm_leaving = th->next_leaving;
  th->leaving = 0;
  return th;
}

/* A queued record whose thread is gone, or NULL.  */
static struct gm_thread *
gm_record_left (int pid)
{
  for (int i = 0; i < GM_LEAVING_CHECKS && gm_leaving != NULL; i++)
    {
      struct gm_thread *th = gm_leaving_pop ();
      if (gm_thread_gone (pid, th->tid))
        return th;
      gm_leaving_push (th);
    }
  return NULL;
}

/* A record found by the sweep whose thread is gone, or NULL.  Queued
   records are left to the queue.  */
static struct gm_thread *
gm_record_swept (int pid, int tid)
{
  for (int i = 0; i < GM_SWEEP_CHECKS && gm_threads != NULL; i++)
    {
      struct gm_thread *th = gm_cursor != NULL ? gm_cursor : gm_threads;
      gm_cursor = th->next;
      /* Our own id on a record: its thread is gone, the id reused.  */
      if (!th->leaving && (th->tid == tid || gm_thread_gone (pid, th->tid)))
        return th;
    }
  return NULL;
}

/* The key's destructor: the calling thread is ending.  It may still run
   instrumented code (other destructors), so it keeps its record until
   the kernel says it is gone.  */
static void
gm_thread_leave (void *record)
{
  struct gm_thread *th = record;
  /* pthread_exit from a signal handler that interrupted libgmon: the
     lock may be ours; the record stays with the ended thread.  */
  if (gm_busy)
    return;
  gm_busy = 1;
  gm_sample_leave (th);
  /* What the thread still runs is not sampled any more: its timer can
     go now rather than when the record is adopted.  */
  gm_lock ();
  int timer = th->timer;
  th->timer = -1;
  if (!th->leaving)
    gm_leaving_push (th);
  gm_unlock ();
  gm_timer_delete (timer);
  gm_busy = 0;
}

void
gm_threads_init (void)
{
  gm_key_set = pthread_key_create (&gm_key, gm_thread_leave) == 0
               && gm_key < GM_KEY_INLINE;
}

/* The record of an exited thread for thread tid, its timer taken out
   (into *timer, for the caller to delete), or NULL.  */
static struct gm_thread *
gm_record_adopt (int pid, int tid, int *timer)
{
  gm_lock ();
  struct gm_thread *th = gm_record_left (pid);
  if (th == NULL && !gm_key_set)
    th = gm_record_swept (pid, tid);
  if (th != NULL)
    {
      th->tid = tid;
      *timer = th->timer;
      th->timer = -1;
    }
  gm_unlock ();
  return th;
}

/* A new record and table for thread tid, or NULL without memory.  */
static struct gm_thread *
gm_record_add (int tid)
{
  /* Mapped before taking the lock: system calls under it make every
     other starting thread wait.  */
  struct gm_table *t = gm_table_new (GM_TABLE_MIN);
  if (t == NULL)
    return NULL;
  gm_lock ();
  struct gm_thread *th = gm_record_new ();
  if (th != NULL)
    {
      th->table = t;
      th->tid = tid;
      th->timer = -1;
      th->armed_ns = -1;
      th->next = gm_threads;
      gm_threads = th;
    }
  gm_unlock ();
  if (th == NULL)
    gm_unmap (t, gm_table_bytes (t->nslots));
  return th;
}

struct gm_thread *
gm_thread_attach (void)
{
  int tid = gm_gettid ();
  int pid = gm_getpid ();
  int old_timer = -1;

  /* Adopt the record of a thread that has exited: its counts stay where
     they are and this thread adds to them.  This bounds memory for
     programs that create many short-lived threads.  */
  struct gm_thread *th = gm_record_adopt (pid, tid, &old_timer);
  if (th != NULL)
    gm_timer_delete (old_timer);
  else if ((th = gm_record_add (tid)) == NULL)
    return NULL;

  /* Before the timer: the handler walks stacks within these bounds.  */
  gm_stacks_attach (th);
  /* The handler credits the record's own samples through gm_thr.  */
  gm_thr = th;
  gm_cur = th->table;
  int timer = gm_timer_new (tid);
  gm_lock ();
  th->timer = timer;
  gm_timer_start (th);
  gm_unlock ();

  GM_COUNT (threads, 1);
  if (gm_key_set)
    (void) pthread_setspecific (gm_key, th);
  return th;
}

void
gm_threads_forked (void)
{
  gm_leaving = NULL;
  gm_cursor = NULL;
  for (struct gm_thread *th = gm_threads; th != NULL; th = th->next)
    if (th != gm_thr)
      {
        th->tid = 0;
        gm_leaving_push (th);
      }
    else
      th->leaving = 0;
}

void
gm_arcs_reset (void)
{
  for (struct gm_thread *th = gm_threads; th != NULL; th = th->next)
    {
      struct gm_table *t = __atomic_load_n (&th->table, __ATOMIC_ACQUIRE);
      for (uintptr_t i = 0; i < t->nslots; i++)
        gm_count_clear (&t->slot[i].count);
    }
  /* Keys whose count is 0 are free slots there: start afresh.  */
  if (gm_moved.arc != NULL)
    gm_memzero (gm_moved.arc, gm_moved.cap * sizeof *gm_moved.arc);
  gm_moved.used = 0;
  gm_moved.lost = 0;
}

/* ---- snapshot -------------------------------------------------------- */

/* The arcs outside the program: every table's, read against the loads
   of its epoch, and gm_moved's.  */
static int
gm_marcs_snapshot (struct gm_arcs *out, size_t total)
{
  size_t cap = 64;
  while (cap < 2 * (total + gm_moved.used) + 64)
    cap *= 2;
  size_t bytes = cap * sizeof (struct gm_marc);
  struct gm_marc *m = gm_map (bytes);
  if (m == NULL)
    return -ENOMEM;
  size_t used = 0;
  struct gm_view v = { NULL, 0, 0, 0 };
  int have_view = 0;
  for (struct gm_thread *th = gm_threads; th != NULL; th = th->next)
    {
      struct gm_table *t = __atomic_load_n (&th->table, __ATOMIC_ACQUIRE);
      if (!have_view || v.epoch != t->epoch)
        {
          gm_view_free (&v);
          if (gm_view_build (&v, t->epoch) != 0)
            v.n = 0;
          have_view = 1;
        }
      for (uintptr_t i = 0; i < t->nslots; i++)
        {
          struct gm_slot *s = &t->slot[i];
          uintptr_t from = __atomic_load_n (&s->from, __ATOMIC_ACQUIRE);
          if (from == 0)
            continue;
          uintptr_t self = s->self;
          uint64_t count = gm_count_read (&s->count);
          struct gm_marc a;
          if (count == 0 || (gm_in_range (from) && gm_in_range (self)))
            continue;
          if (!gm_marc_of (&v, from, self, count, &a)
              || !gm_marc_add (m, cap, &used, &a))
            out->outside += count;
        }
    }
  gm_view_free (&v);
  for (size_t i = 0; i < gm_moved.cap; i++)
    if (gm_moved.arc[i].count != 0
        && !gm_marc_add (m, cap, &used, &gm_moved.arc[i]))
      out->outside += gm_moved.arc[i].count;
  out->outside += gm_moved.lost + gm_stats.lost_unknown;
  size_t n = 0;
  for (size_t i = 0; i < cap; i++)
    if (m[i].count != 0)
      m[n++] = m[i];
  out->marc = m;
  out->nm = n;
  out->mmap_size = bytes;
  return 0;
}

int
gm_arcs_snapshot (struct gm_arcs *out)
{
  size_t total = 0;
  for (struct gm_thread *th = gm_threads; th != NULL; th = th->next)
    total += __atomic_load_n (&th->table, __ATOMIC_ACQUIRE)->used;

  /* Room for every key at most half full, plus slack for the few keys
     that running threads may add while we read.  */
  size_t cap = 64;
  while (cap < 2 * total + 64)
    cap *= 2;
  size_t bytes = cap * sizeof (struct gm_arc);
  struct gm_arc *m = gm_map (bytes);
  if (m == NULL)
    return -ENOMEM;

  out->outside = 0;
  size_t used = 0;
  for (struct gm_thread *th = gm_threads; th != NULL; th = th->next)
    {
      struct gm_table *t = __atomic_load_n (&th->table, __ATOMIC_ACQUIRE);
      for (uintptr_t i = 0; i < t->nslots; i++)
        {
          struct gm_slot *s = &t->slot[i];
          uintptr_t from = __atomic_load_n (&s->from, __ATOMIC_ACQUIRE);
          if (from == 0)
            continue;
          uintptr_t self = s->self;
          uint64_t count = gm_count_read (&s->count);
          /* Calls from or to code outside the profiled program (libc
             calling main, a library's calls) are gm_marcs_snapshot's.  */
          if (count == 0 || !gm_in_range (from) || !gm_in_range (self))
            continue;
          uintptr_t h = gm_hash_off ((cap - 1) << GM_SLOT_SHIFT, from ^ self)
                        >> GM_SLOT_SHIFT;
          while (m[h].from != 0 && (m[h].from != from || m[h].self != self))
            h = (h + 1) & (cap - 1);
          if (m[h].from == 0)
            {
              if (used + 1 == cap)
                {
                  /* Keys keep arriving from running threads: leave them
                     out of this snapshot rather than loop forever.  */
                  out->outside += count;
                  continue;
                }
              m[h].from = from;
              m[h].self = self;
              used++;
            }
          m[h].count += count;
        }
    }

  size_t n = 0;
  for (size_t i = 0; i < cap; i++)
    if (m[i].from != 0)
      m[n++] = m[i];
  out->arc = m;
  out->n = n;
  out->map_size = bytes;
  int r = gm_marcs_snapshot (out, total);
  if (r != 0)
    gm_unmap (m, bytes);
  return r;
}

void
gm_arcs_free (struct gm_arcs *a)
{
  gm_unmap (a->arc, a->map_size);
  gm_unmap (a->marc, a->mmap_size);
}
