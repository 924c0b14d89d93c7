/* since.c - gprof --since=EARLIER: the later snapshot less the earlier
   one (since.h).  */

#include "config.h"
#include "since.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <libiberty/libiberty.h>
#include "gmon_io.h"
#include "gmon_out.h"
#include "gprof.h"
#include "i18n.h"
#include "support/alloc.h"
#include "support/error.h"

/* EARLIER's calls by call site, what is left of them once LATER's
   records have been reduced: an open-addressing table, at most half
   full.  */
typedef struct SinceSlot
{
  vma_t from, self;
  uint64_t count;
  bool used;
} SinceSlot;

struct SinceArcs
{
  SinceSlot *slot;
  size_t cap, n;          /* cap a power of two */
};

static size_t
slot_of (const SinceArcs *a, vma_t from, vma_t self)
{
  uint64_t h = (from * 0x9e3779b97f4a7c15ULL) ^ (self * 0xc2b2ae3d27d4eb4fULL);
  size_t i = (size_t) (h ^ (h >> 29)) & (a->cap - 1);

  while (a->slot[i].used
         && (a->slot[i].from != from || a->slot[i].self != self))
    i = (i + 1) & (a->cap - 1);
  return i;
}

static void
arcs_grow (SinceArcs *a)
{
  SinceSlot *old = a->slot;
  size_t old_cap = a->cap;

  a->cap = old_cap ? 2 * old_cap : 1024;
  a->slot = gp_calloc (a->cap, sizeof *a->slot);
  for (size_t i = 0; i < old_cap; i++)
    if (old[i].used)
      a->slot[slot_of (a, old[i].from, old[i].self)] = old[i];
  free (old);
}

void
since_arcs_keep (SinceArcs *a, const ArcRecord *recs, size_t n)
{
  for (size_t k = 0; k < n; k++)
    {
      SinceSlot *s;

      if (2 * (a->n + 1) > a->cap)
        arcs_grow (a);
      s = &a->slot[slot_of (a, recs[k].from_pc, recs[k].self_pc)];
      if (!s->used)
        {
          *s = (SinceSlot) { recs[k].from_pc, recs[k].self_pc, 0, true };
          a->n++;
        }
      s->count += recs[k].count;
    }
}

size_t
since_arcs_subtract (SinceArcs *a, ArcRecord *recs, size_t n)
{
  size_t kept = 0;

  for (size_t k = 0; k < n; k++)
    {
      ArcRecord rec = recs[k];

      if (a->cap > 0)
        {
          SinceSlot *s = &a->slot[slot_of (a, rec.from_pc, rec.self_pc)];
          /* A count split over several records is taken from each in
             turn.  */
          uint64_t take = s->count < rec.count ? s->count : rec.count;

          s->count -= take;
          rec.count -= (unsigned long) take;
        }
      if (rec.count > 0)
        recs[kept++] = rec;
    }
  return kept;
}

/* ---- the checks ---------------------------------------------------------- */

static void __attribute__ ((noreturn))
not_later (const char *earlier, const char *later, const char *why)
{
  gp_die (_("%s: --since: %s is not a later snapshot of the same run as "
            "%s: %s\n"), whoami, later, earlier, why);
}

/* A symbol's name at ADDR for a message, or its address.  */
static const char *
name_at (const Run *run, vma_t addr, char *buf, size_t size)
{
  const Sym *sym = symtab_lookup (&run->symtab, addr);

  if (sym && sym->name)
    return sym->name;
  snprintf (buf, size, "0x%" PRIx64, (uint64_t) addr);
  return buf;
}

/* Every call EARLIER made must be among LATER's.  */
static void
check_arcs_used (const Run *run, const SinceArcs *a, const char *earlier,
                 const char *later)
{
  for (size_t i = 0; i < a->cap; i++)
    if (a->slot[i].used && a->slot[i].count > 0)
      {
        char b1[32], b2[32], *why;

        why = xasprintf (_("%s has more calls from %s to %s"), earlier,
                         name_at (run, a->slot[i].from, b1, sizeof b1),
                         name_at (run, a->slot[i].self, b2, sizeof b2));
        not_later (earlier, later, why);
      }
}

static HistRecord *
same_record (Histograms *h, const HistRecord *like)
{
  for (size_t i = 0; i < h->n; i++)
    if (h->rec[i].lowpc == like->lowpc && h->rec[i].highpc == like->highpc
        && h->rec[i].nbins == like->nbins)
      return &h->rec[i];
  return NULL;
}

/* LATER's histogram less EARLIER's (BASE), bin by bin.  */
static void
subtract_histogram (Run *run, const Histograms *base, const char *earlier,
                    const char *later)
{
  if (base->n > 0 && run->hist.n > 0 && base->hz != run->hist.hz)
    not_later (earlier, later, _("their sampling rates differ"));
  for (size_t i = 0; i < base->n; i++)
    {
      const HistRecord *e = &base->rec[i];
      HistRecord *l = same_record (&run->hist, e);
      uint64_t *sum;

      if (!l)
        not_later (earlier, later, _("their histograms cover different "
                                     "addresses"));
      sum = hist_sums (l);
      for (unsigned b = 0; b < e->nbins; b++)
        {
          if (hist_count (e, b) > sum[b])
            not_later (earlier, later, xasprintf (_("%s has more samples in "
                                                    "bin %u"), earlier, b));
          sum[b] -= hist_count (e, b);
        }
    }
}

/* LATER's stacks less EARLIER's (BASE): each of BASE's nodes is found
   in LATER's tree by its path, parents first.  */
static void
subtract_stacks (Run *run, const CallStacks *base, const char *earlier,
                 const char *later)
{
  CallStacks *cs = &run->stacks;
  uint32_t *node = gp_reallocarray (NULL, base->n ? base->n : 1,
                                    sizeof *node);
  const char *more = _("%s has more samples with a call stack");

  for (size_t i = 0; i < base->n; i++)
    {
      uint32_t up = base->up[i] == STACK_ROOT ? STACK_ROOT
                                              : node[base->up[i]];

      node[i] = cg_stacks_node (cs, up, base->pc[i]);
      if (base->weight[i] > cs->weight[node[i]])
        not_later (earlier, later, xasprintf (more, earlier));
      cs->weight[node[i]] -= base->weight[i];
    }
  if (base->dropped > cs->dropped || base->cut > cs->cut)
    not_later (earlier, later, xasprintf (more, earlier));
  cs->dropped -= base->dropped;
  cs->cut -= base->cut;
  free (node);
}

/* The record beside FILENAME, which must be there and be its own.  */
static void
read_record (const char *filename, GmonSnap *snap)
{
  if (!gmon_read_snap (filename, snap))
    gp_die (_("%s: --since: %s has no snapshot record (%s%s): libgmon "
              "writes one beside every profile of a run with "
              "LIBGMON_INTERVAL or LIBGMON_DUMP_SIGNAL\n"), whoami, filename,
            filename, GMON_SNAP_SUFFIX);
  if (!snap->current)
    gp_die (_("%s: --since: %s%s is not the record of %s (the profile was "
              "written again since)\n"), whoami, filename, GMON_SNAP_SUFFIX,
            filename);
}

/* Whether the two names are one file.  */
static bool
same_file (const char *a, const char *b)
{
  struct stat sa, sb;

  return stat (a, &sa) == 0 && stat (b, &sb) == 0 && sa.st_dev == sb.st_dev
         && sa.st_ino == sb.st_ino;
}

static void
check_records (const char *earlier, const char *later)
{
  GmonSnap e, l;

  if (same_file (earlier, later))
    not_later (earlier, later, _("they are the same file"));
  read_record (earlier, &e);
  read_record (later, &l);
  if (e.run != l.run)
    not_later (earlier, later,
               xasprintf (_("they are of different runs (%016" PRIx64
                            " and %016" PRIx64 ")"), e.run, l.run));
  if (strcmp (e.clock, l.clock) != 0)
    not_later (earlier, later,
               xasprintf (_("their samples measure different clocks (%s and "
                            "%s)"), e.clock, l.clock));
  if (l.seq <= e.seq)
    not_later (earlier, later,
               xasprintf (_("it is snapshot %" PRIu64 ", %s is snapshot %"
                            PRIu64), l.seq, earlier, e.seq));
}

void
since_read (Run *run, const char *earlier, const char *later)
{
  Run base;
  SinceArcs arcs = { NULL, 0, 0 };

  check_records (earlier, later);
  memset (&base, 0, sizeof base);
  base.opt = run->opt;
  base.opt.output_style = 0;
  base.core = run->core;
  base.par = run->par;
  /* Basic-block counts are refused below, not warned about.  */
  base.bb.warned = true;
  hist_init (&base.hist);
  gmon_read_kept (&base, earlier, &arcs);
  if (base.gmon_input & INPUT_BB_COUNTS)
    gp_die (_("%s: --since: %s has basic-block counts, which cannot be "
              "subtracted\n"), whoami, earlier);
  gmon_read_less (run, later, &arcs);
  check_arcs_used (run, &arcs, earlier, later);
  subtract_histogram (run, &base.hist, earlier, later);
  if (base.stacks.files > 0 && run->stacks.files > 0)
    subtract_stacks (run, &base.stacks, earlier, later);
  else if (run->stacks.files > 0)
    {
      gp_warn (_("%s: --since: %s has no call stacks: those of %s are not "
                 "used\n"), whoami, earlier, later);
      cg_stacks_free (&run->stacks);
    }
  cg_stacks_free (&base.stacks);
  hist_free (&base.hist);
  cg_free (&base.cg);
  free (arcs.slot);
}
