/* test_gmon_io.c - profile files written by gmon_write (what -s does)
   and read back by gmon_read: GNU format and both BSD formats, 32- and
   64-bit addresses, both byte orders; and two of them, with snapshot
   records, read back by --since as their difference.  Nothing in a profile file tells
   its layout; it comes from the executable, so each case uses a Core
   that says only that (address size, byte order).  */

#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "gmon_io.h"
#include "gmon_out.h"
#include "gprof.h"
#include "since.h"
#include "unit.h"

enum { NFUNCS = 40, NBINS = 100 };

typedef struct Layout
{
  const char *name;
  int vma_bytes;
  bool big_endian;
} Layout;

static const Layout layouts[] = {
  { "64-bit little-endian", 8, false },
  { "64-bit big-endian", 8, true },
  { "32-bit little-endian", 4, false },
  { "32-bit big-endian", 4, true },
};

static char tmpdir[] = "/tmp/test_gmon_io.XXXXXX";

static const char *
path_of (const char *name)
{
  static char buf[sizeof tmpdir + 64];

  snprintf (buf, sizeof buf, "%s/%s", tmpdir, name);
  return buf;
}

/* A run over NFUNCS functions with the given layout and file format.  */
static Run *
new_run (Core *core, FileFormat ff)
{
  Run *run = run_new (NFUNCS, NULL);

  run->core = core;
  run->opt.file_format = ff;
  run->opt.line_granularity = true;  /* keep basic-block counts */
  return run;
}

static HistRecord *
add_hist (Run *run, vma_t lowpc, vma_t highpc, int rate, Rng *rng)
{
  HistRecord *r;
  char dimen[15] = "seconds";
  uint64_t *sum;

  if (hist_check_record (&run->hist, "test.gmon", lowpc, highpc, NBINS, rate,
                         dimen, 's'))
    return NULL;
  r = hist_new_record (&run->hist, lowpc, highpc, NBINS, NULL);
  memset (r->once, 0, NBINS * sizeof *r->once);
  /* As sums: the tests set bins beyond 16 bits.  */
  sum = hist_sums (r);
  for (unsigned i = 0; i < NBINS; i++)
    sum[i] = rng_below (rng, 4) ? 0 : (int) rng_below (rng, 60000);
  run->gmon_input |= INPUT_HISTOGRAM;
  return r;
}

/* Arcs recorded from call sites inside the functions, as the runtime
   records them; the file gets the functions' start addresses.  */
static void
add_arcs (Run *run, Rng *rng, int n, unsigned long max_count)
{
  for (int k = 0; k < n; k++)
    {
      size_t p = rng_below (rng, NFUNCS), c = rng_below (rng, NFUNCS);

      cg_tally (run, sym_addr (p) + 1 + rng_below (rng, 14), sym_addr (c),
                1 + rng_below (rng, max_count));
    }
  run->gmon_input |= INPUT_CALL_GRAPH;
}

static void
add_bbs (Run *run, Rng *rng)
{
  for (int k = 0; k < 60; k++)
    bb_record (run, sym_addr (rng_below (rng, NFUNCS)) + 2 * rng_below (rng, 8),
               rng_below (rng, 1000));
  run->gmon_input |= INPUT_BB_COUNTS;
}

/* ---- comparing runs ----------------------------------------------------- */

/* Every bin of A is in B TIMES over: what does not fit a record's 16
   bits is written in more records, which the reader adds up.  */
static bool
same_hist (const Run *a, const Run *b, int times)
{
  const Histograms *x = &a->hist, *y = &b->hist;

  if (x->n != y->n || x->hz != y->hz || strcmp (x->dimension, y->dimension)
      || x->dimen_abbrev != y->dimen_abbrev)
    {
      printf ("# histograms: %zu records at %u Hz, want %zu at %u\n", y->n,
              y->hz, x->n, x->hz);
      return false;
    }
  for (size_t i = 0; i < x->n; i++)
    {
      const HistRecord *r = &x->rec[i], *s = &y->rec[i];

      if (r->lowpc != s->lowpc || r->highpc != s->highpc || r->nbins != s->nbins)
        {
          printf ("# histogram %zu: range or size differs\n", i);
          return false;
        }
      for (unsigned k = 0; k < r->nbins; k++)
        if (hist_count (r, k) * times != hist_count (s, k))
          {
            printf ("# histogram %zu bin %u: %llu, want %llu\n", i, k,
                    (unsigned long long) hist_count (s, k),
                    (unsigned long long) (hist_count (r, k) * times));
            return false;
          }
    }
  return true;
}

/* Every arc of A is in B with TIMES its count, and B has no other; call
   counts agree.  */
static bool
same_arcs (const Run *a, const Run *b, int times)
{
  if (a->cg.narcs != b->cg.narcs)
    {
      printf ("# %zu arcs, want %zu\n", b->cg.narcs, a->cg.narcs);
      return false;
    }
  for (size_t k = 0; k < a->cg.narcs; k++)
    {
      const Arc *x = &a->cg.arcs[k];
      size_t p = (size_t) (x->parent - a->symtab.base);
      size_t c = (size_t) (x->child - a->symtab.base);
      const Arc *y = run_find_arc (b, p, c);

      if (!y || y->count != (x->count * times))
        {
          printf ("# arc %zu -> %zu: %lu, want %lu\n", p, c, y ? y->count : 0,
                  x->count * times);
          return false;
        }
    }
  return true;
}

static bool
same_bbs (const Run *a, const Run *b, int times)
{
  for (size_t i = 0; i < a->symtab.len; i++)
    {
      const BBCounts *x = a->symtab.base[i].bb, *y = b->symtab.base[i].bb;

      if (!x != !y)
        return false;
      for (int k = 0; x && k < NBBS; k++)
        if (x->addr[k] != y->addr[k] || x->calls[k] * times != y->calls[k])
          {
            printf ("# symbol %zu block %d differs\n", i, k);
            return false;
          }
    }
  return true;
}

/* ---- the bytes themselves ----------------------------------------------- */

static unsigned char *
slurp (const char *path, size_t *len)
{
  FILE *f = fopen (path, "rb");
  unsigned char *p = NULL;

  *len = 0;
  if (!f)
    return NULL;
  fseek (f, 0, SEEK_END);
  *len = (size_t) ftell (f);
  rewind (f);
  p = malloc (*len ? *len : 1);
  if (fread (p, 1, *len, f) != *len)
    *len = 0;
  fclose (f);
  return p;
}

static uint64_t
get (const unsigned char *p, int n, bool big)
{
  uint64_t v = 0;

  for (int i = 0; i < n; i++)
    v = (v << 8) | p[big ? i : n - 1 - i];
  return v;
}

/* The GNU header and the first histogram record's header, decoded here
   independently of the reader.  */
static bool
gnu_bytes_ok (const Run *run, const Layout *l)
{
  size_t len;
  unsigned char *p = slurp (path_of ("gmon.sum"), &len);
  const HistRecord *r = &run->hist.rec[0];
  size_t o = GMON_HEADER_SIZE;
  bool ok = p && len > o + 1 + 2 * (size_t) l->vma_bytes + 24
            && memcmp (p, "gmon", 4) == 0 && get (p + 4, 4, l->big_endian) == 1
            && p[o] == GMON_TAG_TIME_HIST
            && get (p + o + 1, l->vma_bytes, l->big_endian) == r->lowpc
            && get (p + o + 1 + l->vma_bytes, l->vma_bytes, l->big_endian)
               == r->highpc;

  o += 1 + 2 * (size_t) l->vma_bytes;
  ok = ok && get (p + o, 4, l->big_endian) == NBINS
       && get (p + o + 4, 4, l->big_endian) == (uint64_t) run->hist.hz
       && memcmp (p + o + 8, "seconds\0\0\0\0\0\0\0\0s", 16) == 0;
  free (p);
  return ok;
}

static bool
host_big_endian (void)
{
  const uint16_t one = 1;

  return *(const unsigned char *) &one == 0;
}

/* ---- cases -------------------------------------------------------------- */

/* Read gmon.sum TIMES times; AHEAD, the first time as gprof reads its
   first file, read ahead (gmon_ahead_read).  */
static Run *
read_back (Core *core, FileFormat ff, int times, bool ahead)
{
  Run *back = new_run (core, ff);

  if (ahead)
    {
      back->ahead = gmon_ahead_read (core, path_of ("gmon.sum"));
      check (back->ahead != NULL, "read ahead");
    }
  for (int i = 0; i < times; i++)
    gmon_read (back, path_of ("gmon.sum"));
  return back;
}

static void
test_gnu (const Layout *l, bool ahead, Rng *rng)
{
  Core core = { 0 };
  Run *run, *back;

  core.vma_bytes = l->vma_bytes;
  core.big_endian = l->big_endian;
  run = new_run (&core, FF_AUTO);
  /* Two disjoint histograms; an arc count beyond the format's 32 bits
     and a bin beyond its 16 (GNU gprof cuts them), and basic-block
     counts beyond a 32-bit address.  */
  add_hist (run, sym_addr (0), sym_addr (20), 100, rng);
  add_hist (run, sym_addr (20), sym_addr (40), 100, rng);
  add_arcs (run, rng, 150, 1000);
  cg_tally (run, sym_addr (3), sym_addr (4), (1UL << 32) + 5);
  hist_sums (&run->hist.rec[0])[7] = 70000;
  /* GNU converts a basic-block record's count from the target's byte
     order twice, so it cannot read its own records of a target whose
     byte order is not the host's; only same-order layouts have them.  */
  if (l->big_endian == host_big_endian ())
    {
      add_bbs (run, rng);
      bb_record (run, sym_addr (9) + 2, (1UL << 33) + 3);
    }
  gmon_write (run, path_of ("gmon.sum"));

  check (gnu_bytes_ok (run, l), "GNU %s: header and histogram bytes",
         l->name);
  back = read_back (&core, FF_AUTO, 1, ahead);
  check (back->gmon_input == run->gmon_input && back->gmon_file_version == 1,
         "GNU %s: every kind of record read back", l->name);
  check (same_hist (run, back, 1), "GNU %s: histograms", l->name);
  check (hist_count (&back->hist.rec[0], 7) == 70000,
         "GNU %s: a bin beyond 16 bits split over records", l->name);
  check (same_arcs (run, back, 1),
         "GNU %s: arcs, a count beyond 32 bits split over records", l->name);
  check (same_bbs (run, back, 1), "GNU %s: basic-block counts", l->name);
  run_free (back);

  /* The same file twice: everything adds up.  */
  back = read_back (&core, FF_AUTO, 2, ahead);
  check (same_hist (run, back, 2) && same_arcs (run, back, 2)
         && same_bbs (run, back, 2), "GNU %s: two files merged", l->name);
  run_free (back);
  run_free (run);
}

/* The BSD header: "old" unless the rate is not the host's or 4.4BSD is
   asked for; ncnt is the header and bins in bytes.  */
static bool
bsd_bytes_ok (const Layout *l, bool bsd44)
{
  size_t len;
  unsigned char *p = slurp (path_of ("gmon.sum"), &len);
  unsigned hdr = bsd44 ? GMON_BSD44_HDR_SIZE ((unsigned) l->vma_bytes)
                       : GMON_BSD_OLD_HDR_SIZE ((unsigned) l->vma_bytes);
  const unsigned char *q = p + 2 * l->vma_bytes;
  bool ok = p && len >= hdr + 2 * NBINS
            && get (q, 4, l->big_endian) == hdr + 2 * NBINS;

  if (ok && bsd44)
    ok = get (q + 4, 4, l->big_endian) == GMON_BSD44_VERSION;
  free (p);
  return ok;
}

static void
test_bsd (const Layout *l, FileFormat ff, int rate, bool ahead, Rng *rng)
{
  bool bsd44 = ff == FF_BSD44 || rate != 100;
  const char *what = ff == FF_BSD44 ? "4.4BSD" : "BSD";
  Core core = { 0 };
  Run *run, *back;

  core.vma_bytes = l->vma_bytes;
  core.big_endian = l->big_endian;
  run = new_run (&core, ff);
  add_hist (run, sym_addr (0), sym_addr (NFUNCS), rate, rng);
  add_arcs (run, rng, 100, 1000);
  /* BSD arc counts are as wide as addresses: more records for what does
     not fit 32 bits.  */
  cg_tally (run, sym_addr (5), sym_addr (6), (1UL << 33) + 7);
  gmon_write (run, path_of ("gmon.sum"));

  check (bsd_bytes_ok (l, bsd44), "%s %s at %d Hz: %s header", what, l->name,
         rate, bsd44 ? "4.4BSD" : "old");
  back = read_back (&core, ff, 1, ahead);
  check (same_hist (run, back, 1) && back->hist.hz == (unsigned) rate,
         "%s %s at %d Hz: histogram and rate", what, l->name, rate);
  check (back->hist.rec[0].once && !back->hist.rec[0].sample,
         "%s %s at %d Hz: one file's bins kept in 16 bits", what, l->name,
         rate);
  check (same_arcs (run, back, 1),
         "%s %s at %d Hz: arcs", what, l->name, rate);
  run_free (back);
  back = read_back (&core, ff, 2, ahead);
  check (same_hist (run, back, 2) && back->hist.rec[0].sample,
         "%s %s at %d Hz: two files' bins summed", what, l->name, rate);
  run_free (back);
  run_free (run);
}

/* ---- --since ------------------------------------------------------------ */

/* NAME's snapshot record: number SEQ of run 0x5eed, with NAME's hash.  */
static void
write_record (const char *name, int seq)
{
  size_t len;
  unsigned char *p = slurp (path_of (name), &len);
  char snap[64];
  FILE *f;

  snprintf (snap, sizeof snap, "%s%s", name, GMON_SNAP_SUFFIX);
  f = fopen (path_of (snap), "w");
  fprintf (f, "gmon snapshot 1\nrun 0000000000005eed\nseq %d\n"
           "time 1732712345.000000000\nclock cpu\nwhy test\n"
           "profile %016llx\n", seq,
           (unsigned long long) gmon_stacks_hash (GMON_STACKS_HASH_INIT, p,
                                                  len));
  fclose (f);
  free (p);
}

/* Two snapshots, the later one EARLY's counts plus some more, and
   --since of them: the difference, record by record, also of counts
   split over several records; an arc not called in between is gone.  */
static void
test_since (const Layout *l, FileFormat ff, Rng *rng)
{
  Core core = { 0 };
  Run *early, *late, *want, *back;
  char *e, *w;

  core.vma_bytes = l->vma_bytes;
  core.big_endian = l->big_endian;
  early = new_run (&core, ff);
  late = new_run (&core, ff);
  want = new_run (&core, ff);
  add_hist (early, sym_addr (0), sym_addr (NFUNCS), 100, rng);
  add_hist (late, sym_addr (0), sym_addr (NFUNCS), 100, rng);
  add_hist (want, sym_addr (0), sym_addr (NFUNCS), 100, rng);
  /* Bins beyond 16 bits in the GNU format only: the BSD formats have
     no second record for them.  */
  for (unsigned i = 0; i < NBINS && ff != FF_AUTO; i++)
    {
      early->hist.rec[0].sample[i] /= 2;
      want->hist.rec[0].sample[i] /= 2;
    }
  if (ff == FF_AUTO)
    early->hist.rec[0].sample[3] = 70000;
  /* add_hist left the three records as sums.  */
  for (unsigned i = 0; i < NBINS; i++)
    late->hist.rec[0].sample[i] = early->hist.rec[0].sample[i]
                                  + want->hist.rec[0].sample[i];
  for (int k = 0; k < 120; k++)
    {
      size_t p = rng_below (rng, NFUNCS), c = rng_below (rng, NFUNCS);
      unsigned long before = rng_below (rng, 1000);
      unsigned long more = rng_below (rng, 3) ? rng_below (rng, 1000) : 0;

      if (run_find_arc (early, p, c) || run_find_arc (late, p, c))
        continue;
      if (before > 0)
        cg_tally (early, sym_addr (p), sym_addr (c), before);
      if (before + more > 0)
        cg_tally (late, sym_addr (p), sym_addr (c), before + more);
      if (more > 0)
        cg_tally (want, sym_addr (p), sym_addr (c), more);
    }
  /* Beyond 32 bits, split over records in both files: 2 and 3 records
     of GNU's, one of a 64-bit BSD file's.  Not called in between: not
     in the difference.  */
  cg_tally (early, sym_addr (NFUNCS - 1), sym_addr (0), (1UL << 32) + 5);
  cg_tally (late, sym_addr (NFUNCS - 1), sym_addr (0), (1UL << 33) + 9);
  cg_tally (want, sym_addr (NFUNCS - 1), sym_addr (0), (1UL << 32) + 4);
  cg_tally (early, sym_addr (NFUNCS - 2), sym_addr (1), (1UL << 32) + 5);
  cg_tally (late, sym_addr (NFUNCS - 2), sym_addr (1), (1UL << 32) + 5);
  early->gmon_input = late->gmon_input = want->gmon_input
    = INPUT_HISTOGRAM | INPUT_CALL_GRAPH;
  gmon_write (early, path_of ("early"));
  write_record ("early", 1);
  gmon_write (late, path_of ("late"));
  write_record ("late", 2);

  back = new_run (&core, ff);
  e = strdup (path_of ("early"));
  w = strdup (path_of ("late"));
  since_read (back, e, w);
  check (same_hist (want, back, 1), "--since %s %s: the histograms' "
         "difference", ff == FF_AUTO ? "GNU" : "4.4BSD", l->name);
  check (same_arcs (want, back, 1), "--since %s %s: the arcs' difference, "
         "none without calls", ff == FF_AUTO ? "GNU" : "4.4BSD", l->name);
  free (e);
  free (w);
  run_free (back);
  run_free (want);
  run_free (late);
  run_free (early);
}

int
main (void)
{
  Rng rng;

  rng_seed (&rng, unit_seed ());
  if (!mkdtemp (tmpdir))
    {
      perror ("mkdtemp");
      return 99;
    }
  for (size_t i = 0; i < sizeof layouts / sizeof layouts[0]; i++)
    for (int ahead = 0; ahead < 2; ahead++)
      {
        test_gnu (&layouts[i], ahead, &rng);
        test_bsd (&layouts[i], FF_BSD, 100, ahead, &rng);
        test_bsd (&layouts[i], FF_BSD, 1000, ahead, &rng);
        test_bsd (&layouts[i], FF_BSD44, 100, ahead, &rng);
      }
  for (size_t i = 0; i < sizeof layouts / sizeof layouts[0]; i++)
    {
      test_since (&layouts[i], FF_AUTO, &rng);
      test_since (&layouts[i], FF_BSD44, &rng);
    }
  unlink (path_of ("gmon.sum"));
  unlink (path_of ("early"));
  unlink (path_of ("late"));
  unlink (path_of ("early" GMON_SNAP_SUFFIX));
  unlink (path_of ("late" GMON_SNAP_SUFFIX));
  rmdir (tmpdir);
  return check_done ();
}
