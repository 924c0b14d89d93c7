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
#include <sys/syscall.h>

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
_Static_assert (offsetof (struct gm_table, slot) == GM_TBL_SLOTS, "SLOTS");

/* 2048 slots (64 KiB on 64-bit): enough for most programs' arcs without
   growing, and untouched pages cost nothing.  */
#define GM_TABLE_MIN 2048

/* Thread records are carved from mappings of this size.  */
#define GM_RECORD_CHUNK 16384

/* Empty: mask 0, one slot, and that slot free.  */
struct gm_table gm_empty = {
  .on = &gm_on, .nslots = 1, .slot = { { .from = 0 } }
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
  t->nslots = nslots;
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

/* True when thread tid of process pid has exited.  A thread id that was
   reused by a live thread reads as alive: its record is then simply not
   adopted.  */
static int
gm_thread_gone (int pid, int tid)
{
  return gm_syscall (SYS_tgkill, pid, tid, 0, 0, 0, 0) == -ESRCH;
}

struct gm_thread *
gm_thread_attach (void)
{
  int tid = gm_gettid ();
  int pid = gm_getpid ();
  struct gm_thread *th;

  gm_lock ();
  /* Adopt the record of a thread that has exited: its counts stay where
     they are and this thread adds to them.  This bounds memory for
     programs that create many short-lived threads.  */
  for (th = gm_threads; th != NULL; th = th->next)
    if (th->tid == tid || gm_thread_gone (pid, th->tid))
      break;
  if (th != NULL)
    gm_timer_delete (th);
  else
    {
      struct gm_table *t = gm_table_new (GM_TABLE_MIN);
      th = t != NULL ? gm_record_new () : NULL;
      if (th == NULL)
	{
	  if (t != NULL)
	    gm_unmap (t, gm_table_bytes (t->nslots));
	  gm_unlock ();
	  return NULL;
	}
      th->table = t;
      th->timer = -1;
      th->next = gm_threads;
      gm_threads = th;
    }
  th->tid = tid;
  gm_timer_create (th);
  gm_unlock ();

  GM_COUNT (threads, 1);
  gm_thr = th;
  gm_cur = th->table;
  return th;
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
}

/* ---- snapshot -------------------------------------------------------- */

static int
gm_in_range (uintptr_t pc)
{
  return pc - gm_lowpc < gm_highpc - gm_lowpc;
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

  unsigned long long outside = 0;
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
	  if (count == 0)
	    continue;
	  if (!gm_in_range (from) || !gm_in_range (self))
	    {
	      /* Calls from or to code outside the profiled program, e.g.
		 libc calling main or a thread's start routine: gprof could
		 not attribute them to a symbol anyway.  */
	      outside += count;
	      continue;
	    }
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
		  outside += count;
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
  out->outside = outside;
  return 0;
}
