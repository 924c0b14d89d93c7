/* stacks.c - the call stack of every sample.

   gprof shares a function's time among its callers in proportion to
   their calls; the stacks tell where the time really went.  At each
   sample that lands in the histogram, the handler follows the chain of
   frame pointers of the interrupted code (the -pg code keeps one: rbp,
   ebp, x29) and adds the sample's periods to that stack in one table
   for the process, mapped at start: the handler allocates nothing and
   takes no lock.  Handlers of several threads insert at once by
   claiming an empty slot with a compare-and-swap; a slot that another
   one is still filling is passed over, so the same stack may get two
   slots, which the snapshot adds up.  A full table drops the sample's
   stack and counts it.  (A table per thread, mapped with each thread
   record, grew the address space by its size for every record that
   could not be reused yet: megabytes for programs that start many
   short threads.)

   Reading a frame pointer that the program left pointing anywhere must
   not crash it, so a frame is followed only while it lies within the
   thread's stack, above the stack pointer and above the frame before,
   aligned, with a return address inside the profiled program that
   follows a call instruction (a saved register or a stale record that
   merely points at code is not taken for one).  The
   stack's bounds come from the kernel when the thread attaches: the
   mapping that holds its stack pointer (PROCMAP_QUERY, or a read of
   /proc/self/maps where the kernel or qemu-user lacks it).  The main
   thread's stack grows: a sample found below its known bottom asks
   again.  A sample taken on another stack (a signal stack, a
   coroutine's) gets none.

   At the first instructions of a function and at its return, the frame
   pointer is still the caller's, and the return address lies at the
   stack pointer (x86) or in the link register (aarch64): those
   instructions are recognised, so that the caller is not skipped.  */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/ioctl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <ucontext.h>

#include "internal.h"

unsigned gm_stacks_depth = GM_STACKS_DEFAULT;

/* The table.  A stack is kept whole: a slot per stack (its hash, depth
   and weight) and its frames in one array, as 32-bit offsets from
   gm_lowpc (every frame lies in the profiled range; a text over 4 GB
   gets no stacks).  A tree of frames shared in the handler would keep
   the outer frames that stacks have in common once (2.1 million nodes
   instead of 28 million frames for a million stacks of a 20-deep
   recursion), but a sample would then probe the table once a frame
   instead of once a stack, two handlers adding the same frame at once
   would make twin nodes whose children split between them, and what
   fits could only be promised in nodes, not stacks.  Whole stacks take
   one probe and one comparison a sample, and a million fit whatever
   their shape; the snapshot builds the tree.

   64-bit: 2^21 slots, used at most half: 1,048,576 stacks, frames for
   an average of 32 a stack (the default depth): 180 MB of address
   space.  32-bit: 2^19 slots, 262,144 stacks, an average of 16 frames:
   27 MB, as 180 MB would be a noticeable share of an address space of
   3 or 4 GB that the program's own large mappings need in one piece.
   Only the pages used cost memory: a slot's page when a stack first
   lands in it, and the frames and the list below as they fill.
   Probes end after GM_STACK_PROBES slots, so that a handler's time
   stays bounded.  The slots claimed are listed in the order they were,
   so that a snapshot or a reset reads those only: reading all the
   slots took 5-10 ms at every exit when they were 12 MB.  */
#if UINTPTR_MAX > 0xffffffffu
# define GM_STACK_SLOTS (1u << 21)
# define GM_STACK_AVG_FRAMES 32
#else
# define GM_STACK_SLOTS (1u << 19)
# define GM_STACK_AVG_FRAMES 16
#endif
#define GM_STACK_FRAMES (GM_STACK_SLOTS / 2 * GM_STACK_AVG_FRAMES)
#define GM_STACK_PROBES 64
/* Claims race past the half-full check by at most one per thread that
   is sampled at that moment.  */
#define GM_STACK_LIST (GM_STACK_SLOTS / 2 + 4096)

/* A slot's depth while a handler fills it.  */
#define GM_SLOT_BUSY UINT32_MAX

struct gm_stack_slot
{
  uint64_t weight;              /* periods */
  uint32_t hash;
  uint32_t depth;               /* frames; 0 empty, GM_SLOT_BUSY; set last */
  uint32_t at;                  /* the first frame in frame[] */
};

static struct
{
  struct gm_stack_slot *slot;   /* NULL: no stacks */
  uint32_t *frame;              /* pc - gm_lowpc */
  uint32_t *list;               /* claimed slot + 1 (0: not written yet) */
  uint32_t used;                /* slots claimed */
  uint32_t nframes;             /* frames claimed */
} gm_tab;

/* The main thread's stack: its top is fixed, its bottom moves down as
   it grows.  */
static uintptr_t gm_main_top;

/* ---- the kernel's word on a stack's bounds --------------------------- */

/* The kernel's struct procmap_query (linux/fs.h, Linux 6.11), and its
   ioctl on an open /proc/<pid>/maps.  */
struct gm_procmap_query
{
  uint64_t size, query_flags, query_addr;
  uint64_t vma_start, vma_end, vma_flags, vma_page_size, vma_offset;
  uint64_t inode;
  uint32_t dev_major, dev_minor, vma_name_size, build_id_size;
  uint64_t vma_name_addr, build_id_addr;
};
#define GM_PROCMAP_QUERY _IOWR ('f', 17, struct gm_procmap_query)
#define GM_PROCMAP_READABLE 0x01
#define GM_PROCMAP_WRITABLE 0x02

/* Set once the kernel turned the query down: read the file instead.  */
static int gm_no_query;

/* The readable and writable mapping around addr, from the text of
   /proc/self/maps ("start-end rw-p ..." a line) on fd.  */
static int
gm_maps_scan (int fd, uintptr_t addr, uintptr_t *lo, uintptr_t *hi)
{
  char buf[512];
  uintptr_t v[2] = { 0, 0 };
  int field = 0, rw = 0, perm = 0;
  for (;;)
    {
      long n = gm_syscall (SYS_read, fd, (long) buf, sizeof buf, 0, 0, 0);
      if (n == -EINTR)
        continue;
      if (n <= 0)
        return n < 0 ? (int) n : -ENOENT;
      for (long i = 0; i < n; i++)
        {
          char c = buf[i];
          if (c == '\n')
            {
              if (rw == 2 && v[0] <= addr && addr < v[1])
                {
                  *lo = v[0];
                  *hi = v[1];
                  return 0;
                }
              v[0] = v[1] = 0;
              field = rw = perm = 0;
            }
          else if (field < 2 && (c == '-' || c == ' '))
            field++;
          else if (field < 2)
            v[field] = v[field] << 4
                       | (uintptr_t) (c <= '9' ? c - '0'
                                               : (c | 0x20) - 'a' + 10);
          else if (field == 2 && perm < 2)
            rw += c == "rw"[perm++];
        }
    }
}

/* The bounds of the readable and writable mapping that holds addr.
   Only system calls: the handler may ask.  Returns 0 or -errno.  */
static int
gm_mapping_of (uintptr_t addr, uintptr_t *lo, uintptr_t *hi)
{
  int fd = (int) gm_syscall (SYS_openat, AT_FDCWD, (long) "/proc/self/maps",
                             O_RDONLY | O_CLOEXEC, 0, 0, 0);
  if (fd < 0)
    return fd;
  long r = -ENOTTY;
  if (!__atomic_load_n (&gm_no_query, __ATOMIC_RELAXED))
    {
      struct gm_procmap_query q;
      gm_memzero (&q, sizeof q);
      q.size = sizeof q;
      q.query_flags = GM_PROCMAP_READABLE | GM_PROCMAP_WRITABLE;
      q.query_addr = addr;
      r = gm_syscall (SYS_ioctl, fd, (long) GM_PROCMAP_QUERY, (long) &q, 0, 0,
                      0);
      if (r == 0)
        {
          *lo = (uintptr_t) q.vma_start;
          *hi = (uintptr_t) q.vma_end;
        }
      else if (r == -ENOTTY || r == -EINVAL || r == -EOPNOTSUPP
               || r == -ENOSYS)
        __atomic_store_n (&gm_no_query, 1, __ATOMIC_RELAXED);
    }
  if (r != 0 && __atomic_load_n (&gm_no_query, __ATOMIC_RELAXED))
    r = gm_maps_scan (fd, addr, lo, hi);
  (void) gm_syscall (SYS_close, fd, 0, 0, 0, 0, 0);
  return (int) r;
}

void
gm_stacks_attach (struct gm_thread *t)
{
  int probe;
  uintptr_t sp = (uintptr_t) &probe, lo, hi;
  t->stack_lo = t->stack_hi = 0;
  t->last_stack = NULL;
  if (gm_tab.slot == NULL || gm_mapping_of (sp, &lo, &hi) != 0)
    return;
  if (gm_gettid () == gm_getpid ())
    gm_main_top = hi;
  t->stack_lo = lo;
  t->stack_hi = hi;
}

int
gm_stacks_init (void)
{
  if (gm_stacks_depth == 0 || !gm_hist.sampling)
    return 0;
  if (gm_highpc - gm_lowpc > UINT32_MAX)
    return -ENOMEM;
  size_t slots = GM_STACK_SLOTS * sizeof (struct gm_stack_slot);
  size_t frames = GM_STACK_FRAMES * sizeof (uint32_t);
  size_t size = slots + frames + GM_STACK_LIST * sizeof (uint32_t);
  unsigned char *m = gm_map (size);
  if (m == NULL)
    return -ENOMEM;
  /* Where transparent huge pages are always on, a stack landing in a
     slot would back 2 MB of the table rather than a page.  */
  (void) gm_syscall (SYS_madvise, (long) m, (long) size, MADV_NOHUGEPAGE, 0,
                     0, 0);
  gm_tab.frame = (uint32_t *) (m + slots);
  gm_tab.list = (uint32_t *) (m + slots + frames);
  gm_tab.slot = (struct gm_stack_slot *) m;
  return 0;
}

/* ---- in the handler: the walk ---------------------------------------- */

int
gm_in_text (uintptr_t pc)
{
  return pc - gm_lowpc < gm_highpc - gm_lowpc;
}

/* A return address as a code address: aarch64's pointer authentication
   signs those saved by pac-ret code.  */
uintptr_t
gm_code_addr (uintptr_t a)
{
#if defined(__aarch64__)
  register uintptr_t lr __asm__ ("x30") = a;
  __asm__ ("hint 7" : "+r" (lr));       /* xpaclri */
  return lr;
#else
  return a;
#endif
}

struct gm_regs
{
  uintptr_t sp, fp, lr;
};

static void
gm_context_regs (const void *ctx, struct gm_regs *r)
{
  const ucontext_t *uc = ctx;
#if defined(__x86_64__)
  r->sp = (uintptr_t) uc->uc_mcontext.gregs[REG_RSP];
  r->fp = (uintptr_t) uc->uc_mcontext.gregs[REG_RBP];
  r->lr = 0;
#elif defined(__i386__)
  r->sp = (uintptr_t) uc->uc_mcontext.gregs[REG_ESP];
  r->fp = (uintptr_t) uc->uc_mcontext.gregs[REG_EBP];
  r->lr = 0;
#elif defined(__aarch64__)
  r->sp = (uintptr_t) uc->uc_mcontext.sp;
  r->fp = (uintptr_t) uc->uc_mcontext.regs[29];
  r->lr = (uintptr_t) uc->uc_mcontext.regs[30];
#else
# error "libgmon: no registers for this architecture"
#endif
}

/* Whether ret is an address in the program's text that a call
   instruction returns to.  A word that merely points into the program
   (a saved register holding a function's address, a planted or stale
   frame record) is not taken for one.  */
int
gm_return_address (uintptr_t ret)
{
  if (!gm_in_text (ret))
    return 0;
  const unsigned char *c = (const unsigned char *) ret;
  uintptr_t room = ret - gm_lowpc;
#if defined(__x86_64__) || defined(__i386__)
  /* call rel32.  */
  if (room >= 5 && c[-5] == 0xe8)
    return 1;
  /* call *r/m: ff /2, its length from the ModRM byte, a SIB byte and
     the displacement.  */
  for (uintptr_t k = 2; k <= 7 && k <= room; k++)
    {
      unsigned modrm = c[-(long) k + 1];
      if (c[-(long) k] != 0xff || (modrm >> 3 & 7) != 2)
        continue;
      unsigned mod = modrm >> 6, rm = modrm & 7;
      uintptr_t len = 2;
      if (mod != 3 && rm == 4)
        len += 1 + (mod == 0 && (c[-(long) k + 2] & 7) == 5 ? 4 : 0);
      len += mod == 1 ? 1 : mod == 2 || (mod == 0 && rm == 5) ? 4 : 0;
      if (len == k)
        return 1;
    }
  return 0;
#elif defined(__aarch64__)
  if (room < 4)
    return 0;
  uint32_t insn = *(const uint32_t *) (ret - 4);
  /* bl; blr (and blraa and the like).  */
  return (insn & 0xfc000000u) == 0x94000000u
         || (insn & 0xfffffc1fu) == 0xd63f0000u
         || (insn & 0xfefff800u) == 0xd63f0800u;
#else
# error "libgmon: no call recognition for this architecture"
#endif
}

/* When pc is at an instruction where the function's own frame is not
   (or no longer) set up, its return address, read from [sp, hi) or the
   link register: 1, or 0 elsewhere.  */
static int
gm_leaf_return (uintptr_t pc, const struct gm_regs *r, uintptr_t hi,
                uintptr_t *ret)
{
  const uintptr_t w = sizeof (uintptr_t);
  if (pc + 4 > gm_highpc)
    return 0;
#if defined(__x86_64__) || defined(__i386__)
  const unsigned char *c = (const unsigned char *) pc;
  uintptr_t at;
  /* endbr, push %rbp, ret: the return address is on top; after the
     push, mov %rsp,%rbp: just above it.  */
  if (c[0] == 0x55 || c[0] == 0xc3
      || (c[0] == 0xf3 && c[1] == 0x0f && c[2] == 0x1e
          && (c[3] == 0xfa || c[3] == 0xfb)))
    at = r->sp;
# if defined(__x86_64__)
  else if (c[0] == 0x48 && c[1] == 0x89 && c[2] == 0xe5)
# else
  else if ((c[0] == 0x89 && c[1] == 0xe5) || (c[0] == 0x8b && c[1] == 0xec))
# endif
    at = r->sp + w;
  else
    return 0;
  if (at > hi - w)
    return 0;
  *ret = *(const uintptr_t *) at;
  return 1;
#elif defined(__aarch64__)
  (void) hi;
  (void) w;
  uint32_t insn = *(const uint32_t *) pc;
  /* stp x29, x30, [sp, #-n]!; mov x29, sp; ret; and the hints that may
     come first or last: paciasp, bti c, autiasp.  */
  if ((insn & 0xffc07fffu) == 0xa9807bfdu || insn == 0x910003fdu
      || insn == 0xd65f03c0u || insn == 0xd503233fu || insn == 0xd503245fu
      || insn == 0xd50323bfu)
    {
      *ret = gm_code_addr (r->lr);
      return 1;
    }
  return 0;
#endif
}

/* The stack readable from sp: within [*lo, *hi) as set at attach, or
   for the main thread, whose stack has grown since, the kernel's new
   bounds.  0 when sp is elsewhere.  */
static int
gm_bounds (struct gm_thread *t, uintptr_t sp)
{
  if (sp - t->stack_lo < t->stack_hi - t->stack_lo)
    return 1;
  uintptr_t lo, hi;
  if (t->stack_hi == 0 || t->stack_hi != gm_main_top || sp >= t->stack_lo
      || gm_mapping_of (sp, &lo, &hi) != 0 || hi != t->stack_hi)
    return 0;
  t->stack_lo = lo;
  return 1;
}

unsigned
gm_follow_records (uintptr_t fp, uintptr_t floor, uintptr_t hi,
                   gm_read_fn read, uintptr_t *f, unsigned n,
                   unsigned depth, int *cut)
{
  const uintptr_t w = sizeof (uintptr_t);
  /* Each frame record is two words: the caller's frame pointer, then
     the return address.  Records lie above each other.  */
  while (fp != 0 && fp % w == 0 && fp >= floor && fp <= hi - 2 * w)
    {
      uintptr_t rec[2];
      if (read == NULL)
        {
          rec[0] = ((const uintptr_t *) fp)[0];
          rec[1] = ((const uintptr_t *) fp)[1];
        }
      else if (read (rec, fp, sizeof rec) != sizeof rec)
        break;
      uintptr_t ret = gm_code_addr (rec[1]);
      if (!gm_return_address (ret))
        break;
      if (n == depth)
        {
          *cut = 1;
          break;
        }
      f[n++] = ret;
      floor = fp + 2 * w;
      fp = rec[0];
    }
  return n;
}

/* The frames of the stack in f (innermost first), at most
   gm_stacks_depth; *cut when more were there.  0 if the stack cannot be
   read.  */
static unsigned
gm_walk (struct gm_thread *t, const void *ctx, uintptr_t pc, uintptr_t *f,
         int *cut)
{
  const ucontext_t *uc = ctx;
  unsigned depth = gm_stacks_depth, n = 0;
  struct gm_regs r;

  /* Interrupted on a signal stack: not the stack the bounds are of.  */
  if (uc->uc_stack.ss_flags & SS_ONSTACK)
    return 0;
  gm_context_regs (ctx, &r);
  if (!gm_bounds (t, r.sp))
    return 0;
  uintptr_t hi = t->stack_hi, floor = r.sp, fp = r.fp, ret;
  f[n++] = pc;
  if (gm_leaf_return (pc, &r, hi, &ret))
    {
      ret = gm_code_addr (ret);
      if (!gm_return_address (ret))
        return n;
      if (n == depth)
        {
          *cut = 1;
          return n;
        }
      f[n++] = ret;
    }
  return gm_follow_records (fp, floor, hi, NULL, f, n, depth, cut);
}

static uint32_t
gm_frames_hash (const uintptr_t *f, unsigned n)
{
  uint64_t h = n;
  for (unsigned i = 0; i < n; i++)
    h = (h ^ f[i]) * 0x100000001b3ULL;
  return (uint32_t) (h ^ h >> 32);
}

/* Whether the stored frames a are the stack f.  */
static int
gm_frames_equal (const uint32_t *a, const uintptr_t *f, unsigned n)
{
  for (unsigned i = 0; i < n; i++)
    if (a[i] != (uint32_t) (f[i] - gm_lowpc))
      return 0;
  return 1;
}

/* The slot of stack f[0 .. n) (hash h), found or filled by this
   handler, with w added; NULL if there is no room.  */
static struct gm_stack_slot *
gm_stack_claim (const uintptr_t *f, unsigned n, uint32_t h, uint64_t w)
{
  uint32_t i = h & (GM_STACK_SLOTS - 1);
  for (int probe = 0; probe < GM_STACK_PROBES;
       probe++, i = (i + 1) & (GM_STACK_SLOTS - 1))
    {
      struct gm_stack_slot *sl = &gm_tab.slot[i];
      uint32_t d = __atomic_load_n (&sl->depth, __ATOMIC_ACQUIRE);
      if (d == 0)
        {
          /* At most half full, so that probes stay short.  */
          if (__atomic_load_n (&gm_tab.used, __ATOMIC_RELAXED) * 2
              >= GM_STACK_SLOTS)
            return NULL;
          if (__atomic_compare_exchange_n (&sl->depth, &d, GM_SLOT_BUSY, 0,
                                           __ATOMIC_ACQUIRE, __ATOMIC_ACQUIRE))
            {
              uint32_t k = __atomic_fetch_add (&gm_tab.used, 1,
                                               __ATOMIC_RELAXED);
              if (k < GM_STACK_LIST)
                __atomic_store_n (&gm_tab.list[k], i + 1, __ATOMIC_RELEASE);
              uint32_t at = __atomic_fetch_add (&gm_tab.nframes, n,
                                                __ATOMIC_RELAXED);
              /* No room for the frames: the slot stays busy, unused.  */
              if (at > GM_STACK_FRAMES - n)
                return NULL;
              for (unsigned j = 0; j < n; j++)
                gm_tab.frame[at + j] = (uint32_t) (f[j] - gm_lowpc);
              sl->at = at;
              sl->hash = h;
              gm_count_clear (&sl->weight);
              gm_u64_add (&sl->weight, w);
              /* Published last: whoever sees the depth sees the rest.  */
              __atomic_store_n (&sl->depth, n, __ATOMIC_RELEASE);
              return sl;
            }
        }
      /* d: a slot filled before, or meanwhile, or still being filled. */
      if (d != GM_SLOT_BUSY && d == n && sl->hash == h
          && gm_frames_equal (&gm_tab.frame[sl->at], f, n))
        {
          gm_u64_add (&sl->weight, w);
          return sl;
        }
    }
  return NULL;
}

uint64_t *
gm_stacks_add (const uintptr_t *f, unsigned n, uint64_t w)
{
  struct gm_stack_slot *sl = gm_stack_claim (f, n, gm_frames_hash (f, n), w);
  if (sl == NULL)
    {
      GM_COUNT (stacks_dropped, w);
      return NULL;
    }
  return &sl->weight;
}

void
gm_stacks_record (struct gm_thread *t, const void *ctx, uintptr_t pc,
                  unsigned long w)
{
  uintptr_t f[GM_STACKS_MAX];
  int cut = 0;

  t->last_stack = NULL;
  if (gm_tab.slot == NULL)
    return;
  unsigned n = gm_walk (t, ctx, pc, f, &cut);
  if (n == 0)
    {
      GM_COUNT (stacks_dropped, w);
      return;
    }
  t->last_stack = gm_stacks_add (f, n, w);
  if (cut && t->last_stack != NULL)
    GM_COUNT (stacks_cut, w);
}

void
gm_stacks_late (struct gm_thread *t, unsigned long w)
{
  if (t->last_stack != NULL)
    gm_u64_add (t->last_stack, w);
}

/* The k-th slot claimed, or NULL if its claimer has not listed it
   yet (it is being filled: a snapshot leaves it out).  */
static struct gm_stack_slot *
gm_claimed (uint32_t k)
{
  uint32_t e = __atomic_load_n (&gm_tab.list[k], __ATOMIC_ACQUIRE);
  return e != 0 ? &gm_tab.slot[e - 1] : NULL;
}

/* How many slots are listed.  */
static uint32_t
gm_nclaimed (void)
{
  uint32_t n = __atomic_load_n (&gm_tab.used, __ATOMIC_RELAXED);
  return gm_tab.slot == NULL ? 0 : n < GM_STACK_LIST ? n : GM_STACK_LIST;
}

void
gm_stacks_reset (void)
{
  for (uint32_t k = 0, n = gm_nclaimed (); k < n; k++)
    {
      struct gm_stack_slot *sl = gm_claimed (k);
      if (sl != NULL)
        gm_count_clear (&sl->weight);
    }
}

/* ---- the snapshot: one tree of every thread's stacks ------------------ */

/* The tree's nodes are found by (parent, pc) in a hash that grows with
   them: sized for every frame, the table's 28 million frames of a
   million stacks made it 256 MB, all of it touched.  */
#define GM_TREE_HASH_MIN 4096

struct gm_tree_build
{
  struct gm_stack_tree *tree;
  uint32_t *hash;               /* node + 1 per slot, 0 when empty */
  size_t hash_mask, cap;
};

static size_t
gm_tree_slot (const struct gm_tree_build *b, uint32_t up, uintptr_t pc)
{
  uint64_t k = (uint64_t) pc * 0x9e3779b97f4a7c15ULL
               ^ (uint64_t) up * 0xff51afd7ed558ccdULL;
  return (size_t) (k ^ k >> 29) & b->hash_mask;
}

/* Replace the hash by one of size slots holding the nodes made so far.
   Returns 0 or -ENOMEM.  */
static int
gm_tree_rehash (struct gm_tree_build *b, size_t size)
{
  uint32_t *old = b->hash;
  size_t old_size = old != NULL ? b->hash_mask + 1 : 0;
  uint32_t *hash = gm_map (size * sizeof *hash);
  if (hash == NULL)
    return -ENOMEM;
  b->hash = hash;
  b->hash_mask = size - 1;
  const struct gm_stack_tree *t = b->tree;
  for (uint32_t n = 0; n < t->n; n++)
    {
      size_t i = gm_tree_slot (b, t->up[n], t->pc[n]);
      while (hash[i] != 0)
        i = (i + 1) & b->hash_mask;
      hash[i] = n + 1;
    }
  if (old != NULL)
    gm_unmap (old, old_size * sizeof *old);
  return 0;
}

/* The node for frame pc under node up (UINT32_MAX: at the root), made
   if new.  UINT32_MAX when the tree is full, or *err = -ENOMEM when its
   hash cannot grow.  */
static uint32_t
gm_tree_node (struct gm_tree_build *b, uint32_t up, uintptr_t pc, int *err)
{
  struct gm_stack_tree *t = b->tree;
  size_t i = gm_tree_slot (b, up, pc);
  for (; b->hash[i] != 0; i = (i + 1) & b->hash_mask)
    {
      uint32_t n = b->hash[i] - 1;
      if (t->pc[n] == pc && t->up[n] == up)
        return n;
    }
  if (t->n == b->cap)
    return UINT32_MAX;
  /* At most half full, so that probes stay short.  */
  if (2 * (t->n + 1) > b->hash_mask + 1)
    {
      if ((*err = gm_tree_rehash (b, 2 * (b->hash_mask + 1))) != 0)
        return UINT32_MAX;
      i = gm_tree_slot (b, up, pc);
      while (b->hash[i] != 0)
        i = (i + 1) & b->hash_mask;
    }
  uint32_t n = (uint32_t) t->n++;
  t->up[n] = up;
  t->pc[n] = pc;
  t->weight[n] = 0;
  b->hash[i] = n + 1;
  return n;
}

int
gm_stacks_snapshot (struct gm_stack_tree *out)
{
  uint32_t frames = __atomic_load_n (&gm_tab.nframes, __ATOMIC_RELAXED);
  if (frames > GM_STACK_FRAMES)
    frames = GM_STACK_FRAMES;

  /* A node per frame at most (only the pages of the nodes made are
     touched); what running threads add meanwhile may not fit, and is
     left out of this snapshot.  */
  struct gm_tree_build b;
  b.cap = (size_t) frames + 1024;
  size_t size = b.cap * (sizeof (uint64_t) + sizeof (uintptr_t)
                         + sizeof (uint32_t));
  unsigned char *m = gm_map (size);
  if (m == NULL)
    return -ENOMEM;
  out->map = m;
  out->map_size = size;
  out->weight = (uint64_t *) m;
  out->pc = (uintptr_t *) (m + b.cap * sizeof (uint64_t));
  out->up = (uint32_t *) (m + b.cap * (sizeof (uint64_t)
                                       + sizeof (uintptr_t)));
  out->n = 0;
  out->dropped = gm_stats.stacks_dropped;
  out->cut = gm_stats.stacks_cut;
  b.tree = out;
  b.hash = NULL;
  int err = gm_tree_rehash (&b, GM_TREE_HASH_MIN);

  for (uint32_t k = 0, n = gm_nclaimed (); k < n && err == 0; k++)
    {
      struct gm_stack_slot *sl = gm_claimed (k);
      uint32_t depth = sl != NULL ? __atomic_load_n (&sl->depth,
                                                     __ATOMIC_ACQUIRE) : 0;
      if (depth == 0 || depth == GM_SLOT_BUSY)
        continue;
      uint64_t weight = gm_count_read (&sl->weight);
      if (weight == 0)
        continue;
      const uint32_t *f = &gm_tab.frame[sl->at];
      uint32_t node = UINT32_MAX;
      for (uint32_t j = depth; j-- > 0;)
        if ((node = gm_tree_node (&b, node, gm_lowpc + f[j], &err))
            == UINT32_MAX)
          break;
      if (node != UINT32_MAX)
        out->weight[node] += weight;
    }
  if (b.hash != NULL)
    gm_unmap (b.hash, (b.hash_mask + 1) * sizeof *b.hash);
  if (err != 0)
    gm_unmap (m, size);
  return err;
}
