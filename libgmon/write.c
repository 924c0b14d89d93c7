/* write.c - write a profile in GNU gmon v1 or 4.4BSD format.

   The whole file is built in one anonymous mapping, written to a
   temporary file "gmon.tmp.<pid>.<tid>.<n>" in the same directory and
   renamed over <name>, so an interrupted or failed write never replaces
   a good profile (a name that is not a regular file, such as a pipe or
   /dev/stdout, is written to directly).  The temporary name is short,
   so that any legal <name> works, and unique to the process, thread and
   call, so that concurrent dumps to one name never touch each other's
   temporary file: the last rename wins.  Only
   raw system calls are used, so libgmon_dump() can run in a signal
   handler.

   The call stacks of the samples go to a file of their own beside the
   profile, "<name>.stacks", and so does the snapshot record that says
   which run a profile belongs to and where in it, "<name>.snap", both
   written the same way (gmon_out.h).

   The formats have narrower counters than we keep: GNU histogram bins
   are 16 bits and arc counts 32 bits.  gprof sums histogram records with
   the same range and arc records with the same (from, self), so larger
   values are split over several records instead of being clipped.  The
   BSD format has one histogram only, so there bins are clipped at 65535
   (and reported).  Addresses are written relative to the main program's
   load bias, as glibc does for PIE.  */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/stat.h>
#include <sys/syscall.h>

#include "../gmon_out.h"
#include "internal.h"

#define GM_U16_MAX 0xffffu
#define GM_U32_MAX 0xffffffffu

/* ---- sizes ----------------------------------------------------------- */

static uint32_t
gm_bin (const struct gm_hist *hist, size_t i)
{
  return hist->bin != NULL ? hist->bin[i] : 0;
}

static uint32_t
gm_hist_max (const struct gm_hist *hist)
{
  uint32_t max = 0;
  for (size_t i = 0; i < hist->nbins; i++)
    if (gm_bin (hist, i) > max)
      max = gm_bin (hist, i);
  return max;
}

/* Records needed for a value that one record holds at most lim of; at
   least one.  */
static uint64_t
gm_nrecords (uint64_t value, uint64_t lim)
{
  return value <= lim ? 1 : (value + lim - 1) / lim;
}

static size_t
gm_gnu_size (const struct gm_arcs *arcs, const struct gm_hist *hist,
             size_t nhist)
{
  size_t size = GMON_HEADER_SIZE;
  size += nhist * (1 + 2 * GM_WORD + 4 + 4 + GMON_HIST_DIMEN_LEN + 1
                   + 2 * hist->nbins);
  for (size_t i = 0; i < arcs->n; i++)
    size += gm_nrecords (arcs->arc[i].count, GM_U32_MAX) * (1 + 2 * GM_WORD
                                                              + 4);
  return size;
}

static size_t
gm_bsd_size (const struct gm_arcs *arcs, const struct gm_hist *hist)
{
  size_t size = GMON_BSD44_HDR_SIZE (GM_WORD) + 2 * hist->nbins;
  for (size_t i = 0; i < arcs->n; i++)
    size += gm_nrecords (arcs->arc[i].count, (uintptr_t) -1) * 3 * GM_WORD;
  return size;
}

/* ---- encoding (native byte order and width) -------------------------- */

static unsigned char *
gm_put (unsigned char *p, const void *v, size_t n)
{
  const unsigned char *s = v;
  for (size_t i = 0; i < n; i++)
    p[i] = s[i];
  return p + n;
}

static unsigned char *
gm_put_u8 (unsigned char *p, unsigned v)
{
  *p = (unsigned char) v;
  return p + 1;
}

static unsigned char *
gm_put_u16 (unsigned char *p, uint16_t v)
{
  return gm_put (p, &v, sizeof v);
}

static unsigned char *
gm_put_u32 (unsigned char *p, uint32_t v)
{
  return gm_put (p, &v, sizeof v);
}

static unsigned char *
gm_put_word (unsigned char *p, uintptr_t v)
{
  return gm_put (p, &v, sizeof v);
}

static unsigned char *
gm_put_pc (unsigned char *p, uintptr_t pc)
{
  return gm_put_word (p, pc - gm_exe_base);
}

/* ---- GNU format ------------------------------------------------------ */

static unsigned char *
gm_gnu_hist (unsigned char *p, const struct gm_hist *hist, size_t part)
{
  static const char dimen[GMON_HIST_DIMEN_LEN] = "seconds";
  p = gm_put_u8 (p, GMON_TAG_TIME_HIST);
  p = gm_put_pc (p, gm_lowpc);
  p = gm_put_pc (p, gm_highpc);
  p = gm_put_u32 (p, (uint32_t) hist->nbins);
  p = gm_put_u32 (p, hist->hz);
  p = gm_put (p, dimen, sizeof dimen);
  p = gm_put_u8 (p, 's');
  /* Record number part carries the slice [part * 65535, ...) of every
     bin; summed by gprof they give the full 32-bit value.  */
  uint64_t skip = (uint64_t) part * GM_U16_MAX;
  for (size_t i = 0; i < hist->nbins; i++)
    {
      uint32_t v = gm_bin (hist, i);
      uint64_t rest = v > skip ? v - skip : 0;
      p = gm_put_u16 (p, (uint16_t) (rest > GM_U16_MAX ? GM_U16_MAX : rest));
    }
  return p;
}

/* The header's spare bytes: the dispersion D of the samples and the
   flags (gmon_out.h), or zeros when every signal counted one period of
   CPU time.  */
static unsigned char *
gm_put_dispersion (unsigned char *p, uint32_t d, int wall)
{
  if (d <= GMON_DISP_ONE && !wall)
    {
      for (int i = 0; i < 12; i++)
        p = gm_put_u8 (p, 0);
      return p;
    }
  p = gm_put (p, GMON_DISP_TAG, 4);
  p = gm_put_u32 (p, d);
  return gm_put_u32 (p, wall ? GMON_FLAG_WALL : 0);
}

static unsigned char *
gm_gnu_fill (unsigned char *p, const struct gm_arcs *arcs,
             const struct gm_hist *hist, size_t nhist, struct gm_written *w)
{
  p = gm_put (p, GMON_MAGIC, GMON_MAGIC_LEN);
  p = gm_put_u32 (p, GMON_VERSION);
  p = gm_put_dispersion (p, arcs->dispersion, hist->wall);
  for (size_t part = 0; part < nhist; part++)
    p = gm_gnu_hist (p, hist, part);
  for (size_t i = 0; i < arcs->n; i++)
    {
      const struct gm_arc *a = &arcs->arc[i];
      uint64_t rest = a->count;
      do
        {
          uint32_t c = rest > GM_U32_MAX ? GM_U32_MAX : (uint32_t) rest;
          p = gm_put_u8 (p, GMON_TAG_CG_ARC);
          p = gm_put_pc (p, a->from);
          p = gm_put_pc (p, a->self);
          p = gm_put_u32 (p, c);
          rest -= c;
          w->arcs++;
        }
      while (rest != 0);
      w->calls += a->count;
    }
  return p;
}

/* ---- 4.4BSD format --------------------------------------------------- */

static unsigned char *
gm_bsd_fill (unsigned char *p, const struct gm_arcs *arcs,
             const struct gm_hist *hist, struct gm_written *w)
{
  p = gm_put_pc (p, gm_lowpc);
  p = gm_put_pc (p, gm_highpc);
  p = gm_put_u32 (p, (uint32_t) (GMON_BSD44_HDR_SIZE (GM_WORD)
                                 + 2 * hist->nbins));
  p = gm_put_u32 (p, GMON_BSD44_VERSION);
  p = gm_put_u32 (p, hist->hz);
  for (int i = 0; i < 12; i++)
    p = gm_put_u8 (p, 0);
  for (size_t i = 0; i < hist->nbins; i++)
    {
      uint32_t v = gm_bin (hist, i);
      if (v > GM_U16_MAX)
        {
          v = GM_U16_MAX;
          w->saturated = 1;
        }
      p = gm_put_u16 (p, (uint16_t) v);
    }
  for (size_t i = 0; i < arcs->n; i++)
    {
      const struct gm_arc *a = &arcs->arc[i];
      uint64_t rest = a->count;
      do
        {
          uintptr_t c = rest > (uintptr_t) -1 ? (uintptr_t) -1
                                               : (uintptr_t) rest;
          p = gm_put_pc (p, a->from);
          p = gm_put_pc (p, a->self);
          p = gm_put_word (p, c);
          rest -= c;
          w->arcs++;
        }
      while (rest != 0);
      w->calls += a->count;
    }
  return p;
}

/* ---- the file -------------------------------------------------------- */

/* Files stored so far, for unique temporary names.  */
static unsigned long gm_tmp_seq;

/* Create a fresh temporary file in directory dir, its name in tmp (of
   GM_TMP_NAME_MAX bytes).  A name that exists was left by a process
   that died while writing, or is another process's (thread ids are only
   unique within a pid namespace): never ours to remove, so take the
   next number.  Returns the descriptor or -errno.  */
#define GM_TMP_NAME_MAX 64
#define GM_TMP_TRIES 100

static int
gm_create (int dir, char *tmp)
{
  int flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC
              | O_LARGEFILE;
  long fd = -EEXIST;
  for (int i = 0; i < GM_TMP_TRIES && fd == -EEXIST; i++)
    {
      size_t len = 0;
      gm_append (tmp, GM_TMP_NAME_MAX, &len, "gmon.tmp.");
      gm_append_uint (tmp, GM_TMP_NAME_MAX, &len, (unsigned) gm_getpid ());
      gm_append (tmp, GM_TMP_NAME_MAX, &len, ".");
      gm_append_uint (tmp, GM_TMP_NAME_MAX, &len, (unsigned) gm_gettid ());
      gm_append (tmp, GM_TMP_NAME_MAX, &len, ".");
      gm_append_uint (tmp, GM_TMP_NAME_MAX, &len,
                      __atomic_fetch_add (&gm_tmp_seq, 1, __ATOMIC_RELAXED));
      fd = gm_syscall (SYS_openat, dir, (long) tmp, flags, 0666, 0, 0);
    }
  return (int) fd;
}

/* Open the directory of path (O_PATH) and point *base at its last
   component.  dirbuf has room for path.  Returns the descriptor or
   -errno.  */
static int
gm_open_dir (const char *path, char *dirbuf, const char **base)
{
  size_t slash = 0, len = gm_strlen (path);
  int has_slash = 0;
  for (size_t i = 0; i < len; i++)
    if (path[i] == '/')
      {
        slash = i;
        has_slash = 1;
      }
  *base = has_slash ? path + slash + 1 : path;
  if (!has_slash)
    {
      dirbuf[0] = '.';
      dirbuf[1] = '\0';
    }
  else
    {
      /* "/x": the directory is "/".  */
      size_t n = slash == 0 ? 1 : slash;
      for (size_t i = 0; i < n; i++)
        dirbuf[i] = path[i];
      dirbuf[n] = '\0';
    }
  return (int) gm_syscall (SYS_openat, AT_FDCWD, (long) dirbuf,
                           O_PATH | O_DIRECTORY | O_CLOEXEC, 0, 0, 0);
}

/* Write data to path directly: it is not a regular file.  */
static int
gm_store_special (const char *path, const void *data, size_t size)
{
  int fd = (int) gm_syscall (SYS_openat, AT_FDCWD, (long) path,
                             O_WRONLY | O_CLOEXEC | O_LARGEFILE, 0, 0, 0);
  if (fd < 0)
    return fd;
  int r = gm_write_all (fd, data, size);
  (void) gm_syscall (SYS_close, fd, 0, 0, 0, 0, 0);
  return r;
}

/* Write data to a temporary file beside path and rename it over path.
   scratch has room for path and the temporary name.  */
static int
gm_store (const char *path, char *scratch, const void *data, size_t size)
{
  if (gm_is_special (path))
    return gm_store_special (path, data, size);
  char *tmp = scratch;
  char *dirbuf = scratch + GM_TMP_NAME_MAX;
  const char *base;
  int dir = gm_open_dir (path, dirbuf, &base);
  if (dir < 0)
    return dir;
  int fd = gm_create (dir, tmp);
  if (fd < 0)
    {
      (void) gm_syscall (SYS_close, dir, 0, 0, 0, 0, 0);
      return fd;
    }
  int r = gm_write_all (fd, data, size);
  long c = gm_syscall (SYS_close, fd, 0, 0, 0, 0, 0);
  if (r == 0 && c < 0 && c != -EINTR)
    r = (int) c;
  if (r == 0)
    r = (int) gm_syscall (SYS_renameat2, dir, (long) tmp, dir, (long) base,
                          0, 0);
  /* Clean up after a failure; the error to report is the first one.  */
  if (r != 0)
    (void) gm_syscall (SYS_unlinkat, dir, (long) tmp, 0, 0, 0, 0);
  (void) gm_syscall (SYS_close, dir, 0, 0, 0, 0, 0);
  return r;
}

int
gm_image_build (struct gm_image *img, enum gm_format format,
                const struct gm_arcs *arcs, const struct gm_hist *hist,
                struct gm_written *w)
{
  w->arcs = 0;
  w->calls = 0;
  w->outside = arcs->outside;
  w->modules = 0;
  for (size_t i = 0; i < arcs->nm; i++)
    w->modules += arcs->marc[i].count;
  w->saturated = 0;

  size_t nhist = gm_nrecords (gm_hist_max (hist), GM_U16_MAX);
  size_t size = format == GM_FORMAT_BSD ? gm_bsd_size (arcs, hist)
                                        : gm_gnu_size (arcs, hist, nhist);
  unsigned char *buf = gm_map (size);
  if (buf == NULL)
    return -ENOMEM;

  unsigned char *end = format == GM_FORMAT_BSD
                         ? gm_bsd_fill (buf, arcs, hist, w)
                         : gm_gnu_fill (buf, arcs, hist, nhist, w);
  w->hash = gmon_stacks_hash (GMON_STACKS_HASH_INIT, buf,
                              (unsigned long) (end - buf));
  img->data = buf;
  img->size = (size_t) (end - buf);
  img->map_size = size;
  return 0;
}

/* The temporary and directory names go in a mapping of their own, so
   that nothing large goes on a possibly small signal stack.  */
static int
gm_store_mapped (const char *path, const void *data, size_t size)
{
  size_t scratch = GM_TMP_NAME_MAX + gm_strlen (path) + 2;
  char *buf = gm_map (scratch);
  if (buf == NULL)
    return -ENOMEM;
  int r = gm_store (path, buf, data, size);
  gm_unmap (buf, scratch);
  return r;
}

int
gm_image_store (const struct gm_image *img, const char *path)
{
  return gm_store_mapped (path, img->data, img->size);
}

void
gm_image_free (struct gm_image *img)
{
  gm_unmap (img->data, img->map_size);
}

int
gm_is_special (const char *path)
{
  struct statx st;
  if (gm_syscall (SYS_statx, AT_FDCWD, (long) path, 0, STATX_TYPE,
                  (long) &st, 0) < 0)
    return 0;                   /* nothing there (or unknowable): create */
  return (st.stx_mode & S_IFMT) != S_IFREG;
}

/* ---- the snapshot record (gmon_out.h) -------------------------------- */

static int
gm_append_hex (char *buf, size_t cap, size_t *len, uint64_t v)
{
  char digits[17];
  for (int i = 15; i >= 0; i--, v >>= 4)
    digits[i] = "0123456789abcdef"[v & 15];
  digits[16] = '\0';
  return gm_append (buf, cap, len, digits);
}

/* "key value\n" */
static int
gm_line (char *buf, size_t cap, size_t *len, const char *key,
         const char *value)
{
  return gm_append (buf, cap, len, key) && gm_append (buf, cap, len, " ")
         && gm_append (buf, cap, len, value)
         && gm_append (buf, cap, len, "\n");
}

int
gm_write_meta (const char *path, const struct gm_meta *m,
               uint64_t profile_hash)
{
  /* Every field but "why" has a bounded size; "why" is a short word.  */
  char text[512], num[32];
  size_t cap = sizeof text, len = 0, n;
  int ok = gm_append (text, cap, &len, GMON_SNAP_HEADER "\n");
  ok = ok && gm_append (text, cap, &len, "run ")
       && gm_append_hex (text, cap, &len, m->run)
       && gm_append (text, cap, &len, "\n");
  n = 0;
  ok = ok && gm_append_uint (num, sizeof num, &n, m->seq)
       && gm_line (text, cap, &len, "seq", num);
  /* Seconds and nine digits of nanoseconds.  */
  ok = ok && gm_append (text, cap, &len, "time ")
       && gm_append_uint (text, cap, &len, (unsigned long long) m->sec)
       && gm_append (text, cap, &len, ".");
  for (long long d = 100000000; ok && d > 0; d /= 10)
    ok = gm_append_uint (text, cap, &len,
                         (unsigned long long) (m->nsec / d % 10));
  ok = ok && gm_append (text, cap, &len, "\n")
       && gm_line (text, cap, &len, "clock", m->clock);
  n = 0;
  ok = ok && gm_append_uint (num, sizeof num, &n,
                             (unsigned) gm_getpid ())
       && gm_line (text, cap, &len, "pid", num)
       && gm_line (text, cap, &len, "why", m->why)
       && gm_append (text, cap, &len, "profile ")
       && gm_append_hex (text, cap, &len, profile_hash)
       && gm_append (text, cap, &len, "\n");
  if (!ok)
    return -ENAMETOOLONG;
  return gm_store_mapped (path, text, len);
}

/* ---- call stacks (gmon_out.h) ---------------------------------------- */

/* The most bytes a LEB128 number takes.  */
#define GM_LEB_MAX 10

static unsigned char *
gm_put_leb (unsigned char *p, uint64_t v)
{
  while (v >= 0x80)
    {
      *p++ = (unsigned char) (v | 0x80);
      v >>= 7;
    }
  *p++ = (unsigned char) v;
  return p;
}

/* The nodes are written depth first, so that a node's parent is a few
   nodes back rather than anywhere, and its distance takes a byte or two
   (12.2 MB in claim order against 10.3 MB for a million stacks of a
   20-deep recursion claimed out of order).  The tree's children lists:
   child[] and sibling[] after place[] (where each node is written) in
   one mapping of *map_size bytes; *roots is the first outermost node.
   NULL when out of memory.  */
static uint32_t *
gm_stacks_children (const struct gm_stack_tree *tree, uint32_t *roots,
                    size_t *map_size)
{
  size_t n = tree->n;
  *map_size = 3 * (n ? n : 1) * sizeof (uint32_t);
  uint32_t *place = gm_map (*map_size);
  if (place == NULL)
    return NULL;
  uint32_t *child = place + n, *sibling = child + n;
  *roots = UINT32_MAX;
  for (size_t i = 0; i < n; i++)
    child[i] = UINT32_MAX;
  /* From the last node back, so that children keep their order.  */
  for (size_t i = n; i-- > 0;)
    {
      uint32_t up = tree->up[i];
      uint32_t *head = up == UINT32_MAX ? roots : &child[up];
      sibling[i] = *head;
      *head = (uint32_t) i;
    }
  return place;
}

int
gm_write_stacks (const char *path, const struct gm_stack_tree *tree,
                 uint64_t profile_hash)
{
  const uint32_t none = UINT32_MAX;
  size_t size = GMON_STACKS_MAGIC_LEN + 6 * GM_LEB_MAX
                + tree->n * 3 * GM_LEB_MAX;
  size_t scratch = GM_TMP_NAME_MAX + gm_strlen (path) + 2;
  size_t lists_size;
  uint32_t node;
  uint32_t *place = gm_stacks_children (tree, &node, &lists_size);
  if (place == NULL)
    return -ENOMEM;
  const uint32_t *child = place + tree->n, *sibling = child + tree->n;
  unsigned char *buf = gm_map (size + scratch);
  if (buf == NULL)
    {
      gm_unmap (place, lists_size);
      return -ENOMEM;
    }

  unsigned char *p = gm_put (buf, GMON_STACKS_MAGIC, GMON_STACKS_MAGIC_LEN);
  p = gm_put_leb (p, GMON_STACKS_VERSION);
  p = gm_put_leb (p, profile_hash);
  p = gm_put_leb (p, gm_stacks_depth);
  p = gm_put_leb (p, tree->dropped);
  p = gm_put_leb (p, tree->cut);
  p = gm_put_leb (p, tree->n);
  for (uint32_t at = 0; node != none; at++)
    {
      uint32_t up = tree->up[node];
      place[node] = at;
      p = gm_put_leb (p, up == none ? 0 : at - place[up]);
      p = gm_put_leb (p, tree->pc[node] - gm_exe_base);
      p = gm_put_leb (p, tree->weight[node]);
      /* The next node depth first: the first child, else the next
         sibling of the node or of its nearest ancestor that has one.  */
      if (child[node] != none)
        node = child[node];
      else
        {
          while (node != none && sibling[node] == none)
            node = tree->up[node];
          if (node != none)
            node = sibling[node];
        }
    }
  int r = gm_store (path, (char *) buf + size, buf, (size_t) (p - buf));
  gm_unmap (buf, size + scratch);
  gm_unmap (place, lists_size);
  return r;
}

/* ---- the whole process (gmon_out.h) ---------------------------------- */

static unsigned char *
gm_put_bytes_leb (unsigned char *p, const void *s, size_t n)
{
  p = gm_put_leb (p, n);
  return gm_put (p, s, n);
}

static uint32_t
gm_mod_bin (const struct gm_module *m, size_t i)
{
  return __atomic_load_n (&m->bin[i], __ATOMIC_RELAXED);
}

int
gm_write_modules (const char *path, const struct gm_arcs *a,
                  uint64_t profile_hash)
{
  size_t nmods = __atomic_load_n (&gm_nmods, __ATOMIC_ACQUIRE);
  size_t nbins = 0;
  size_t size = GMON_MODULES_MAGIC_LEN + 4 * GM_LEB_MAX;
  for (size_t i = 0; i < nmods; i++)
    {
      const struct gm_module *m = &gm_mods[i];
      size += 7 * GM_LEB_MAX + m->path_len + m->id_len;
      for (size_t k = 0; m->bin != NULL && m->sampled && k < m->nbins; k++)
        nbins += gm_mod_bin (m, k) != 0;
    }
  /* Nothing outside the program: no file (gmon.out says it all).  */
  if (nbins == 0 && a->nm == 0)
    return 1;
  size += nbins * 3 * GM_LEB_MAX + a->nm * 5 * GM_LEB_MAX;
  /* Room for the bins twice: see below.  */
  size += nbins * 3 * GM_LEB_MAX;
  size_t scratch = GM_TMP_NAME_MAX + gm_strlen (path) + 2;
  unsigned char *buf = gm_map (size + scratch);
  if (buf == NULL)
    return -ENOMEM;

  unsigned char *p = gm_put (buf, GMON_MODULES_MAGIC, GMON_MODULES_MAGIC_LEN);
  p = gm_put_leb (p, GMON_MODULES_VERSION);
  p = gm_put_leb (p, profile_hash);
  p = gm_put_leb (p, nmods);
  for (size_t i = 0; i < nmods; i++)
    {
      const struct gm_module *m = &gm_mods[i];
      p = gm_put_leb (p, i == 0 ? 0 : m->flags);
      p = gm_put_leb (p, i == 0 ? 1 : m->loads);
      p = gm_put_leb (p, i == 0 ? gm_exe_base : m->base);
      p = gm_put_leb (p, m->lo);
      p = gm_put_leb (p, m->hi);
      p = gm_put_bytes_leb (p, m->path, m->path_len);
      p = gm_put_bytes_leb (p, m->build_id, m->id_len);
    }
  /* Bins that became non-zero since they were counted are left out, so
     that the count stays right: they are encoded after the rest of the
     buffer, counted, then moved in place.  */
  unsigned char *bins = buf + size - nbins * 3 * GM_LEB_MAX, *q = bins;
  size_t written = 0;
  for (size_t i = 0; i < nmods; i++)
    {
      const struct gm_module *m = &gm_mods[i];
      uintptr_t prev = 0;
      for (size_t k = 0; m->bin != NULL && m->sampled && k < m->nbins
                         && written < nbins; k++)
        {
          uint32_t v = gm_mod_bin (m, k);
          if (v == 0)
            continue;
          uintptr_t addr = m->lo + 4 * k;
          q = gm_put_leb (q, i);
          q = gm_put_leb (q, addr - prev);
          q = gm_put_leb (q, v);
          prev = addr;
          written++;
        }
    }
  p = gm_put_leb (p, written);
  for (unsigned char *b = bins; b < q; b++)
    *p++ = *b;
  p = gm_put_leb (p, a->nm);
  for (size_t i = 0; i < a->nm; i++)
    {
      const struct gm_marc *arc = &a->marc[i];
      p = gm_put_leb (p, arc->from_mod);
      p = gm_put_leb (p, arc->from);
      p = gm_put_leb (p, arc->self_mod);
      p = gm_put_leb (p, arc->self);
      p = gm_put_leb (p, arc->count);
    }
  int r = gm_store (path, (char *) buf + size, buf, (size_t) (p - buf));
  gm_unmap (buf, size + scratch);
  return r;
}
