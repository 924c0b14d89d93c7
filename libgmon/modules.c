/* modules.c - the module table: the program and every shared object.

   A module is one file of code: the program (module 0), a shared
   library, a plugin, the dynamic loader, the vDSO.  A load is one
   mapping of a module at some base; a plugin closed and opened again
   has two loads of one module (same path and build-id), whose counts
   add up by file address.  The table is built from dl_iterate_phdr at
   start and after every dlopen and dlclose that libgmon sees (dlwrap.c),
   and when mcount meets code of no known module (a library loaded
   behind libgmon's back, e.g. by dlopen of a bare name, which goes
   straight to the loader: see dlwrap.c).

   Three readers:
   - the sampling handler finds the module of a PC in a sorted index of
     the loads now mapped (no lock, no malloc): two buffers, each with
     a count of the handlers reading it; a rescan fills the one nobody
     reads and publishes it;
   - the arcs, whose keys are absolute addresses: every unload advances
     the global epoch gm_epoch, and a table's keys are read against the
     loads mapped in the table's epoch (gm_view_build), kept for ever;
   - the writer, which reads the modules without a lock (append-only,
     published with release order).

   Rescans are serialised by gm_dl_lock (recursive: a constructor run by
   dlopen may dlopen); dl_iterate_phdr runs without gm_lock (it takes
   the loader's locks, which a thread in dlopen holds while its
   constructors run mcount), and the tables change under gm_lock.  */

#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <sys/auxv.h>
#include <sys/syscall.h>

#include "../gmon_out.h"
#include "internal.h"

/* Distinct modules, loads over the run, and bytes of paths and
   build-ids.  The mappings are only backed where used.  Past these,
   new loads are not registered (their samples are "elsewhere", their
   calls "from or to unknown code") and the summary says so.  */
#define GM_MODULES_MAX 4096
#define GM_LOADS_MAX 65536
#define GM_NAMES_SIZE (4u << 20)
#define GM_MOD_HASH (2 * GM_MODULES_MAX)

uint32_t gm_epoch;
struct gm_module *gm_mods;
size_t gm_nmods;

static struct gm_load *gm_loads;
static size_t gm_nloads;
/* The loads mapped now (indices into gm_loads).  */
static uint32_t *gm_live;
static size_t gm_nlive;
static char *gm_names;
static size_t gm_names_used;
static uint32_t *gm_mod_hash;   /* module index + 1, 0: empty */
static int gm_mod_full;

/* The handler's index: loads mapped now, but module 0's (its samples go
   to gm_hist), sorted by address.  */
static struct
{
  struct gm_span *span[2];
  size_t n[2];
  unsigned long readers[2];
  unsigned cur;
} gm_index;

static pthread_mutex_t gm_dl_lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
/* dl_iterate_phdr's counts of loads and unloads at the last scan.  */
static unsigned long long gm_seen_adds, gm_seen_subs;
static int gm_started;

/* ---- sorting (no qsort: it may malloc) ------------------------------- */

struct gm_key
{
  uintptr_t key;
  uint32_t idx;
};

static void
gm_sift (struct gm_key *a, size_t root, size_t n)
{
  for (;;)
    {
      size_t c = 2 * root + 1;
      if (c >= n)
        return;
      if (c + 1 < n && a[c + 1].key > a[c].key)
        c++;
      if (a[root].key >= a[c].key)
        return;
      struct gm_key t = a[root];
      a[root] = a[c];
      a[c] = t;
      root = c;
    }
}

/* Heapsort by key.  */
static void
gm_sort (struct gm_key *a, size_t n)
{
  for (size_t i = n / 2; i-- > 0;)
    gm_sift (a, i, n);
  for (size_t end = n; end-- > 1;)
    {
      struct gm_key t = a[0];
      a[0] = a[end];
      a[end] = t;
      gm_sift (a, 0, end);
    }
}

/* The span holding pc in s[0 .. n), sorted and not overlapping, or
   NULL.  */
static const struct gm_span *
gm_span_find (const struct gm_span *s, size_t n, uintptr_t pc)
{
  size_t lo = 0, hi = n;
  while (lo < hi)
    {
      size_t mid = lo + (hi - lo) / 2;
      if (pc < s[mid].lo)
        hi = mid;
      else if (pc >= s[mid].hi)
        lo = mid + 1;
      else
        return &s[mid];
    }
  return NULL;
}

/* ---- the sampling handler's side ------------------------------------- */

/* Count the caller as a reader of the current index, which
   gm_index_publish then leaves alone until gm_index_leave; returns
   which of the two it is.  */
static unsigned
gm_index_enter (void)
{
  for (;;)
    {
      unsigned b = __atomic_load_n (&gm_index.cur, __ATOMIC_SEQ_CST);
      __atomic_fetch_add (&gm_index.readers[b], 1, __ATOMIC_SEQ_CST);
      if (__atomic_load_n (&gm_index.cur, __ATOMIC_SEQ_CST) == b)
        return b;
      __atomic_fetch_sub (&gm_index.readers[b], 1, __ATOMIC_SEQ_CST);
    }
}

static void
gm_index_leave (unsigned b)
{
  __atomic_fetch_sub (&gm_index.readers[b], 1, __ATOMIC_SEQ_CST);
}

int
gm_modules_credit (uintptr_t pc, unsigned long w)
{
  unsigned b = gm_index_enter ();
  const struct gm_span *s = gm_span_find (gm_index.span[b], gm_index.n[b],
                                          pc);
  if (s != NULL)
    {
      struct gm_module *m = &gm_mods[s->module];
      uintptr_t at = pc - s->bias - m->lo;
      if (m->bin != NULL)
        {
          __atomic_fetch_add (&m->bin[at >> 2], (uint32_t) w,
                              __ATOMIC_RELAXED);
          if (!__atomic_load_n (&m->sampled, __ATOMIC_RELAXED))
            __atomic_store_n (&m->sampled, 1, __ATOMIC_RELAXED);
        }
    }
  gm_index_leave (b);
  return s != NULL;
}

/* Publish the loads mapped now (under gm_dl_lock).  */
static void
gm_index_publish (void)
{
  unsigned nb = gm_index.cur ^ 1;
  while (__atomic_load_n (&gm_index.readers[nb], __ATOMIC_SEQ_CST) != 0)
    (void) gm_syscall (SYS_sched_yield, 0, 0, 0, 0, 0, 0);
  struct gm_span *s = gm_index.span[nb];
  struct gm_key *k = (struct gm_key *) (s + GM_LOADS_MAX);
  size_t n = 0;
  for (size_t i = 0; i < gm_nlive; i++)
    if (gm_loads[gm_live[i]].module != 0)
      {
        k[n].key = gm_loads[gm_live[i]].lo;
        k[n++].idx = gm_live[i];
      }
  gm_sort (k, n);
  for (size_t i = 0; i < n; i++)
    {
      const struct gm_load *l = &gm_loads[k[i].idx];
      s[i].lo = l->lo;
      s[i].hi = l->hi;
      s[i].bias = l->bias;
      s[i].module = l->module;
    }
  gm_index.n[nb] = n;
  __atomic_store_n (&gm_index.cur, nb, __ATOMIC_SEQ_CST);
}

int
gm_modules_known (uintptr_t pc)
{
  unsigned b = gm_index_enter ();
  int known = gm_span_find (gm_index.span[b], gm_index.n[b], pc) != NULL;
  gm_index_leave (b);
  return known;
}

/* ---- the arcs' side: the loads of an epoch ---------------------------- */

int
gm_view_build (struct gm_view *v, uint32_t epoch)
{
  size_t n = 0;
  v->epoch = epoch;
  v->map_size = (gm_nloads + 1) * (sizeof (struct gm_span)
                                   + sizeof (struct gm_key));
  v->span = gm_map (v->map_size);
  if (v->span == NULL)
    return -ENOMEM;
  struct gm_key *k = (struct gm_key *) (v->span + gm_nloads + 1);
  for (size_t i = 0; i < gm_nloads; i++)
    if (gm_loads[i].from <= epoch && epoch < gm_loads[i].to)
      {
        k[n].key = gm_loads[i].lo;
        k[n++].idx = (uint32_t) i;
      }
  gm_sort (k, n);
  for (size_t i = 0; i < n; i++)
    {
      const struct gm_load *l = &gm_loads[k[i].idx];
      v->span[i].lo = l->lo;
      v->span[i].hi = l->hi;
      v->span[i].bias = l->bias;
      v->span[i].module = l->module;
    }
  v->n = n;
  return 0;
}

int
gm_view_find (const struct gm_view *v, uintptr_t pc, uint32_t *module,
              uintptr_t *addr)
{
  const struct gm_span *s = gm_span_find (v->span, v->n, pc);
  if (s == NULL)
    return 0;
  *module = s->module;
  *addr = pc - s->bias;
  return 1;
}

void
gm_view_free (struct gm_view *v)
{
  if (v->span != NULL)
    gm_unmap (v->span, v->map_size);
  v->span = NULL;
}

/* ---- scanning --------------------------------------------------------- */

/* One loaded object as dl_iterate_phdr showed it.  */
struct gm_seen
{
  uintptr_t bias, lo, hi;       /* code: file addresses */
  const void *phdr;             /* identifies the load */
  const char *path;             /* in gm_names */
  const unsigned char *id;
  size_t path_len, id_len;
  int is_new;
};

#define GM_SEEN_MAX 8192

static struct
{
  struct gm_seen *seen;
  size_t n;
  int truncated;
  unsigned long long adds, subs;
  int first;                    /* the next object is the program */
  /* Copies of the names and build-ids seen (an object may go once the
     loader's lock is released), and room for the program's name.  */
  char *names;
  size_t names_used;
  char exe[4096];
} gm_scan;

/* A copy of s[0 .. len) at the end of *used bytes of pool (of size
   cap), or NULL when it is full.  */
static char *
gm_copy_to (char *pool, size_t *used, size_t cap, const void *s, size_t len)
{
  if (*used + len > cap)
    return NULL;
  char *p = pool + *used;
  for (size_t i = 0; i < len; i++)
    p[i] = ((const char *) s)[i];
  *used += len;
  return p;
}

/* The NT_GNU_BUILD_ID note of the object, or NULL.  */
static const unsigned char *
gm_build_id (const struct dl_phdr_info *info, size_t *len)
{
  for (int i = 0; i < info->dlpi_phnum; i++)
    {
      const ElfW (Phdr) *ph = &info->dlpi_phdr[i];
      if (ph->p_type != PT_NOTE)
        continue;
      size_t align = ph->p_align == 8 ? 8 : 4;
      const unsigned char *p = (const unsigned char *) (info->dlpi_addr
                                                        + ph->p_vaddr);
      const unsigned char *end = p + ph->p_memsz;
      while (p + 12 <= end)
        {
          const ElfW (Nhdr) *nh = (const ElfW (Nhdr) *) p;
          size_t name = (nh->n_namesz + align - 1) & ~(align - 1);
          size_t desc = (nh->n_descsz + align - 1) & ~(align - 1);
          const unsigned char *n = p + sizeof *nh;
          if (n + name + desc > end)
            break;
          if (nh->n_type == NT_GNU_BUILD_ID && nh->n_namesz == 4
              && n[0] == 'G' && n[1] == 'N' && n[2] == 'U' && n[3] == 0)
            {
              *len = nh->n_descsz;
              return n + name;
            }
          p = n + name + desc;
        }
    }
  *len = 0;
  return NULL;
}

static int
gm_scan_cb (struct dl_phdr_info *info, size_t size, void *data)
{
  (void) data;
  (void) size;
  int first = gm_scan.first;
  gm_scan.first = 0;
  gm_scan.adds = info->dlpi_adds;
  gm_scan.subs = info->dlpi_subs;
  uintptr_t lo = UINTPTR_MAX, hi = 0;
  for (int i = 0; i < info->dlpi_phnum; i++)
    {
      const ElfW (Phdr) *ph = &info->dlpi_phdr[i];
      if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X))
        {
          if (ph->p_vaddr < lo)
            lo = ph->p_vaddr;
          if (ph->p_vaddr + ph->p_memsz > hi)
            hi = ph->p_vaddr + ph->p_memsz;
        }
    }
  if (lo >= hi)
    return 0;                   /* no code */
  if (gm_scan.n == GM_SEEN_MAX)
    {
      gm_scan.truncated = 1;
      return 0;
    }
  struct gm_seen *s = &gm_scan.seen[gm_scan.n];
  s->bias = info->dlpi_addr;
  s->lo = lo & ~(uintptr_t) 3;
  s->hi = (hi + 3) & ~(uintptr_t) 3;
  s->phdr = info->dlpi_phdr;
  s->is_new = 1;
  s->id = gm_build_id (info, &s->id_len);

  /* The name: the program's file, "[vdso]", or the loader's.  */
  const char *name = info->dlpi_name != NULL ? info->dlpi_name : "";
  uintptr_t vdso = (uintptr_t) getauxval (AT_SYSINFO_EHDR);
  if (first)
    {
      char *exe = gm_scan.exe;
      long r = gm_syscall (SYS_readlinkat, AT_FDCWD, (long) "/proc/self/exe",
                           (long) exe, sizeof gm_scan.exe - 1, 0, 0);
      exe[r > 0 ? r : 0] = '\0';
      name = exe;
    }
  else if (vdso != 0
           && (uintptr_t) info->dlpi_phdr
                == vdso + ((const ElfW (Ehdr) *) vdso)->e_phoff)
    name = "[vdso]";
  s->path_len = gm_strlen (name);
  s->path = gm_copy_to (gm_scan.names, &gm_scan.names_used, GM_NAMES_SIZE,
                        name, s->path_len);
  if (s->id != NULL)
    s->id = (const unsigned char *) gm_copy_to (gm_scan.names,
                                                &gm_scan.names_used,
                                                GM_NAMES_SIZE, s->id,
                                                s->id_len);
  if (s->path == NULL || (s->id_len != 0 && s->id == NULL))
    gm_scan.truncated = 1;
  else
    gm_scan.n++;
  return 0;
}

static uint64_t
gm_module_key (const char *path, size_t plen, const unsigned char *id,
               size_t ilen)
{
  uint64_t h = gmon_stacks_hash (GMON_STACKS_HASH_INIT, path, plen);
  h = gmon_stacks_hash (h, "", 1);
  return gmon_stacks_hash (h, id, ilen);
}

static int
gm_bytes_eq (const void *a, const void *b, size_t n)
{
  for (size_t i = 0; i < n; i++)
    if (((const char *) a)[i] != ((const char *) b)[i])
      return 0;
  return 1;
}

/* The module of s (path and build-id), made if new; UINT32_MAX when the
   table is full or out of memory.  */
static uint32_t
gm_module_of (const struct gm_seen *s)
{
  uint64_t key = gm_module_key (s->path, s->path_len, s->id, s->id_len);
  size_t h = (size_t) (key % GM_MOD_HASH);
  for (; gm_mod_hash[h] != 0; h = (h + 1) % GM_MOD_HASH)
    {
      struct gm_module *m = &gm_mods[gm_mod_hash[h] - 1];
      if (m->key == key && m->path_len == s->path_len
          && m->id_len == s->id_len
          && gm_bytes_eq (m->path, s->path, s->path_len)
          && gm_bytes_eq (m->build_id, s->id, s->id_len))
        return gm_mod_hash[h] - 1;
    }
  if (gm_nmods == GM_MODULES_MAX)
    {
      gm_mod_full = 1;
      return UINT32_MAX;
    }
  uint32_t i = (uint32_t) gm_nmods;
  struct gm_module *m = &gm_mods[i];
  m->lo = s->lo;
  m->hi = s->hi;
  m->nbins = (s->hi - s->lo) >> 2;
  /* Module 0's samples go to gm_hist, as ever.  */
  if (i != 0)
    {
      m->bin = gm_map (m->nbins * sizeof *m->bin);
      if (m->bin == NULL)
        return UINT32_MAX;
    }
  /* The scan's copies are only the scan's.  */
  m->path = gm_copy_to (gm_names, &gm_names_used, GM_NAMES_SIZE, s->path,
                        s->path_len);
  m->build_id = (const unsigned char *) gm_copy_to (gm_names, &gm_names_used,
                                                    GM_NAMES_SIZE, s->id,
                                                    s->id_len);
  if (m->path == NULL || m->build_id == NULL)
    {
      if (m->bin != NULL)
        gm_unmap (m->bin, m->nbins * sizeof *m->bin);
      m->bin = NULL;
      return UINT32_MAX;
    }
  m->path_len = s->path_len;
  m->id_len = s->id_len;
  m->key = key;
  gm_mod_hash[h] = i + 1;
  __atomic_store_n (&gm_nmods, gm_nmods + 1, __ATOMIC_RELEASE);
  return i;
}

/* Compare the objects seen with the loads mapped: end the loads that are
   gone (a new epoch), add the new ones.  Under gm_dl_lock.  */
static void
gm_scan_apply (void)
{
  struct gm_seen *seen = gm_scan.seen;
  size_t n = gm_scan.n;
  /* Match by the address of the program headers, which identifies a
     loaded object while it is loaded: both sides sorted.  */
  struct gm_key *a = (struct gm_key *) (seen + GM_SEEN_MAX);
  struct gm_key *b = a + GM_SEEN_MAX;
  size_t nb = gm_nlive;
  for (size_t i = 0; i < n; i++)
    {
      a[i].key = (uintptr_t) seen[i].phdr;
      a[i].idx = (uint32_t) i;
    }
  for (size_t i = 0; i < nb; i++)
    {
      b[i].key = (uintptr_t) gm_loads[gm_live[i]].phdr;
      b[i].idx = gm_live[i];
    }
  gm_sort (a, n);
  gm_sort (b, nb);

  gm_lock ();
  uint32_t old = gm_epoch, now = old;
  /* The loads still mapped go back to gm_live, the ended ones to the
     front of b.  */
  size_t i = 0, j = 0, nended = 0;
  gm_nlive = 0;
  while (j < nb)
    {
      struct gm_load *l = &gm_loads[b[j].idx];
      if (i < n && a[i].key < b[j].key)
        i++;
      else if (i < n && a[i].key == b[j].key
               && seen[a[i].idx].bias == l->bias)
        {
          seen[a[i].idx].is_new = 0;
          gm_live[gm_nlive++] = b[j].idx;
          i++;
          j++;
        }
      else
        {
          /* Gone: its keys stay valid in the epochs before this one.  */
          now = old + 1;
          l->to = now;
          if (--gm_mods[l->module].live == 0)
            gm_mods[l->module].flags |= GMON_MODULE_UNLOADED;
          b[nended++] = b[j];
          j++;
        }
    }
  for (i = 0; i < n; i++)
    {
      struct gm_seen *s = &seen[i];
      if (!s->is_new)
        continue;
      uint32_t m = gm_module_of (s);
      if (m == UINT32_MAX || gm_nloads == GM_LOADS_MAX)
        {
          gm_mod_full = 1;
          continue;
        }
      struct gm_load *l = &gm_loads[gm_nloads];
      l->lo = s->bias + s->lo;
      l->hi = s->bias + s->hi;
      l->bias = s->bias;
      l->phdr = s->phdr;
      l->module = m;
      /* Its code may have run (and its calls been counted) before this
         scan saw it, in the old epoch, unless an object that just went
         had its place.  */
      l->from = old;
      for (size_t k = 0; k < nended; k++)
        if (gm_loads[b[k].idx].lo < l->hi && l->lo < gm_loads[b[k].idx].hi)
          l->from = now;
      l->to = UINT32_MAX;
      gm_live[gm_nlive++] = (uint32_t) gm_nloads;
      gm_nloads++;
      struct gm_module *mod = &gm_mods[m];
      mod->base = s->bias;
      mod->loads++;
      mod->live++;
      mod->flags &= ~GMON_MODULE_UNLOADED;
    }
  __atomic_store_n (&gm_epoch, now, __ATOMIC_RELEASE);
  gm_unlock ();
  gm_index_publish ();
}

/* Set while the thread scans: a signal handler that interrupts the
   scan and runs instrumented code must not start another (the lock is
   recursive).  */
static __thread int gm_scanning __attribute__ ((tls_model ("initial-exec")));

static void
gm_rescan (void)
{
  gm_scanning = 1;
  __atomic_signal_fence (__ATOMIC_SEQ_CST);
  gm_scan.n = 0;
  gm_scan.names_used = 0;
  gm_scan.first = 1;
  dl_iterate_phdr (gm_scan_cb, NULL);
  gm_seen_adds = gm_scan.adds;
  gm_seen_subs = gm_scan.subs;
  if (gm_scan.truncated)
    gm_mod_full = 1;
  gm_scan_apply ();
  __atomic_signal_fence (__ATOMIC_SEQ_CST);
  gm_scanning = 0;
}

/* Whether the loader's counts moved since the last scan.  */
static int
gm_counts_cb (struct dl_phdr_info *info, size_t size, void *data)
{
  (void) size;
  (void) data;
  gm_scan.adds = info->dlpi_adds;
  gm_scan.subs = info->dlpi_subs;
  return 1;
}

void
gm_modules_scan (void)
{
  if (!gm_started || gm_scanning)
    return;
  pthread_mutex_lock (&gm_dl_lock);
  gm_rescan ();
  pthread_mutex_unlock (&gm_dl_lock);
}

void
gm_modules_notice (void)
{
  if (!gm_started || gm_scanning || pthread_mutex_trylock (&gm_dl_lock) != 0)
    return;
  dl_iterate_phdr (gm_counts_cb, NULL);
  if (gm_scan.adds != gm_seen_adds || gm_scan.subs != gm_seen_subs)
    gm_rescan ();
  pthread_mutex_unlock (&gm_dl_lock);
}

void
gm_modules_lock (void)
{
  pthread_mutex_lock (&gm_dl_lock);
}

void
gm_modules_unlock (void)
{
  pthread_mutex_unlock (&gm_dl_lock);
}

int
gm_modules_init (void)
{
  size_t index = GM_LOADS_MAX * (sizeof (struct gm_span)
                                 + sizeof (struct gm_key));
  gm_mods = gm_map (GM_MODULES_MAX * sizeof *gm_mods);
  gm_loads = gm_map (GM_LOADS_MAX * sizeof *gm_loads);
  gm_names = gm_map (GM_NAMES_SIZE);
  gm_mod_hash = gm_map (GM_MOD_HASH * sizeof *gm_mod_hash);
  gm_index.span[0] = gm_map (index);
  gm_index.span[1] = gm_map (index);
  gm_scan.seen = gm_map (GM_SEEN_MAX * (sizeof (struct gm_seen)
                                        + 2 * sizeof (struct gm_key)));
  gm_scan.names = gm_map (GM_NAMES_SIZE);
  gm_live = gm_map (GM_SEEN_MAX * sizeof *gm_live);
  if (gm_mods == NULL || gm_loads == NULL || gm_names == NULL
      || gm_scan.names == NULL || gm_live == NULL
      || gm_mod_hash == NULL || gm_index.span[0] == NULL
      || gm_index.span[1] == NULL || gm_scan.seen == NULL)
    return -ENOMEM;
  gm_dlwrap_init ();
  gm_started = 1;
  gm_modules_scan ();
  return 0;
}

int
gm_modules_full (void)
{
  return gm_mod_full;
}

void
gm_modules_reset (void)
{
  /* Only the bins written: a fork child must not copy every page of
     every module's histogram.  */
  size_t n = __atomic_load_n (&gm_nmods, __ATOMIC_ACQUIRE);
  for (size_t i = 0; i < n; i++)
    if (gm_mods[i].bin != NULL && gm_mods[i].sampled)
      for (size_t k = 0; k < gm_mods[i].nbins; k++)
        if (gm_mods[i].bin[k] != 0)
          __atomic_store_n (&gm_mods[i].bin[k], 0, __ATOMIC_RELAXED);
}

void
gm_modules_forked (void)
{
  pthread_mutex_t fresh = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
  gm_dl_lock = fresh;
}
