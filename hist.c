/* hist.c - histogram records, sample assignment and the flat profile.  */

#include "config.h"
#include "hist.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "blurbs.h"
#include "gmon_out.h"
#include "gprof.h"
#include "i18n.h"
#include "pipeline/par.h"
#include "support/msort.h"
#include "support/out.h"
#include "support/error.h"
#include "support/alloc.h"

/* Profile addresses are counted in units of two bytes, as GNU does.  */
#define UNIT 2

/* GNU gprof converts doubles to long with a plain C cast; on x86-64 an
   out-of-range or NaN value becomes LONG_MIN.  Reproduced without
   undefined behaviour.  */
static long
double_to_long (double d)
{
  if (isnan (d) || d >= 0x1p63 || d < -0x1p63)
    return LONG_MIN;
  return (long) d;
}

/* The same for the conversion to an unsigned 64-bit address: values from
   2^64 up, and NaN, become 0 there.  */
static uint64_t
double_to_vma (double d)
{
  if (isnan (d) || d >= 0x1p64)
    return 0;
  if (d <= -1.0)
    return (uint64_t) (int64_t) double_to_long (d);
  return (uint64_t) d;
}

void
hist_init (Histograms *h)
{
  memset (h, 0, sizeof *h);
  strcpy (h->dimension, "seconds");
  h->dimen_abbrev = 's';
  h->dispersion = 1;
}

void
hist_free_samples (Histograms *h)
{
  for (size_t i = 0; i < h->n; i++)
    {
      free (h->rec[i].once);
      free (h->rec[i].sample);
      h->rec[i].once = NULL;
      h->rec[i].sample = NULL;
    }
}

void
hist_free (Histograms *h)
{
  hist_free_samples (h);
  free (h->rec);
  h->rec = NULL;
  h->n = h->cap = 0;
  free (h->clock_file);
  h->clock_file = NULL;
  free (h->module_bins);
  h->module_bins = NULL;
  h->nmodule_bins = 0;
}

void
hist_set_clock (Histograms *h, const char *filename, int wall)
{
  if (h->clock_file == NULL)
    {
      h->clock_file = gp_strdup (filename);
      h->wall = wall;
    }
  else if (h->wall != wall)
    gp_die (_("%s: %s has samples of %s time, %s of %s time: they cannot"
              " be added\n"), whoami, h->clock_file,
            h->wall ? _("wall-clock") : _("CPU"), filename,
            wall ? _("wall-clock") : _("CPU"));
}

double
hist_record_scale (vma_t lowpc, vma_t highpc, unsigned nbins)
{
  return (double) ((highpc - lowpc) / UNIT) / nbins;
}

bool
hist_scale_differs (const Histograms *h, vma_t lowpc, vma_t highpc,
                    unsigned nbins)
{
  return h->n > 0
         && fabs (h->scale - hist_record_scale (lowpc, highpc, nbins))
            > 0.000001;
}

HistRecord *
hist_check_record (Histograms *h, const char *filename, vma_t lowpc,
                   vma_t highpc, unsigned nbins,
                   unsigned rate, const char dimen[15], char abbrev)
{
  double scale = hist_record_scale (lowpc, highpc, nbins);

  if (h->n == 0)
    {
      /* The first record fixes the rate, unit and scale of the run.  */
      h->hz = rate;
      memcpy (h->dimension, dimen, 15);
      h->dimension[15] = '\0';
      h->dimen_abbrev = abbrev;
      h->scale = scale;
    }
  else
    {
      if (strncmp (dimen, h->dimension, 15) != 0)
        gp_die (_("%s: dimension unit changed between histogram records\n"
                  "%s: from '%s'\n%s: to '%.15s'\n"),
                whoami, whoami, h->dimension, whoami, dimen);
      if (abbrev != h->dimen_abbrev)
        gp_die (_("%s: dimension abbreviation changed between histogram records\n"
                  "%s: from '%c'\n%s: to '%c'\n"),
                whoami, whoami, h->dimen_abbrev, whoami, abbrev);
      /* GNU gprof prints this one without a newline.  */
      if (hist_scale_differs (h, lowpc, highpc, nbins))
        gp_die (_("%s: different scales in histogram records"), whoami);
      /* GNU gprof keeps the first rate and applies it to the samples of
         every record; records of different rates cannot be summed (GNU
         says so of BSD files only).  */
      if (rate != h->hz)
        gp_die (_("%s: profiling rate incompatible with first gmon file\n"),
                filename);
    }

  for (size_t i = 0; i < h->n; i++)
    if (h->rec[i].lowpc == lowpc && h->rec[i].highpc == highpc)
      return &h->rec[i];
  for (size_t i = 0; i < h->n; i++)
    {
      vma_t lo = lowpc > h->rec[i].lowpc ? lowpc : h->rec[i].lowpc;
      vma_t hi = highpc < h->rec[i].highpc ? highpc : h->rec[i].highpc;

      if (lo < hi)
        gp_die (_("%s: overlapping histogram records\n"), whoami);
    }
  return NULL;
}

HistRecord *
hist_new_record (Histograms *h, vma_t lowpc, vma_t highpc, unsigned nbins,
                 uint16_t *once)
{
  HistRecord *r;

  gp_grow (&h->rec, &h->cap, h->n + 1, sizeof *h->rec);
  r = &h->rec[h->n++];
  r->lowpc = lowpc;
  r->highpc = highpc;
  r->nbins = nbins;
  r->once = once ? once
                 : gp_reallocarray (NULL, nbins ? nbins : 1, sizeof *r->once);
  r->sample = NULL;
  return r;
}

uint64_t *
hist_sums (HistRecord *rec)
{
  if (!rec->sample)
    {
      gp_assert (rec->once != NULL);
      rec->sample = gp_reallocarray (NULL, rec->nbins ? rec->nbins : 1,
                                     sizeof *rec->sample);
      for (unsigned i = 0; i < rec->nbins; i++)
        rec->sample[i] = rec->once[i];
      free (rec->once);
      rec->once = NULL;
    }
  return rec->sample;
}

void
hist_clip_symbol_address (const Histograms *h, vma_t *lo, vma_t *hi)
{
  bool found = false;

  for (size_t i = 0; i < h->n; i++)
    {
      vma_t common_lo = h->rec[i].lowpc > *lo ? h->rec[i].lowpc : *lo;
      vma_t common_hi = h->rec[i].highpc < *hi ? h->rec[i].highpc : *hi;

      if (common_lo < common_hi)
        {
          /* GNU gprof prints this one without a newline.  */
          if (found)
            gp_die (_("%s: found a symbol that covers several histogram records"),
                    whoami);
          found = true;
          *lo = common_lo;
          *hi = common_hi;
        }
    }
  if (!found)
    *hi = *lo;
}

bool
hist_check_address (const Histograms *h, vma_t addr)
{
  for (size_t i = 0; i < h->n; i++)
    if (h->rec[i].lowpc <= addr && addr < h->rec[i].highpc)
      return true;
  return false;
}

void
hist_bin_units (const Histograms *h, const HistRecord *rec, unsigned i,
                vma_t *lo, vma_t *hi)
{
  *lo = rec->lowpc / UNIT + double_to_vma (h->scale * i);
  *hi = rec->lowpc / UNIT + double_to_vma (h->scale * (i + 1));
}

long
hist_bytes_per_bin (const Histograms *h)
{
  return (long) ((unsigned long) double_to_long (h->scale) * UNIT);
}

/* ---- assigning samples ------------------------------------------------ */

/* Share COUNT samples of the bin [BIN_LOW, BIN_HIGH) among the symbols
   it overlaps, each by the part of the bin's WIDTH it covers, as GNU
   gprof does; addresses in units of UNIT_BYTES.  A symbol covers [its
   start, the next one's start): a gap between symbols belongs to the
   symbol before it.  Bins come in address order: the walk starts from
   *K, the first symbol the bin before could reach, and leaves it there
   for the next.  */
static inline void
credit_bin (Run *run, const bool *credit_ok, size_t *k, vma_t unit_bytes,
            vma_t bin_low, vma_t bin_high, double count, double width)
{
  const SymTab *st = &run->symtab;
  Histograms *h = &run->hist;

  h->total_time += count;
  /* The walk reads the packed ranges: the symbols themselves would be a
     cache line each.  */
  for (size_t j = *k - 1; j < st->len; *k = ++j)
    {
      vma_t sym_low = st->ranges[j].addr / unit_bytes;
      /* GNU reads past the table for the last symbol; we let it reach to
         the end of its range.  */
      vma_t sym_high = j + 1 < st->len ? st->ranges[j + 1].addr / unit_bytes
                                       : st->ranges[j].end / unit_bytes + 1;
      vma_t lo = bin_low > sym_low ? bin_low : sym_low;
      vma_t hi = bin_high < sym_high ? bin_high : sym_high;

      if (bin_high < sym_low)
        break;
      if (bin_low >= sym_high)
        continue;
      /* A symbol can end below its start (the last one, a weak data
         symbol past the end of the code): no overlap then, as in GNU
         gprof, whose difference is signed.  */
      if (hi > lo)
        {
          double credit = (double) (hi - lo) * count / width;

          if (credit_ok[j])
            st->base[j].hist_time += credit;
          else
            h->total_time -= credit;
        }
    }
}

static void
assign_record (Run *run, const HistRecord *r, const bool *credit_ok)
{
  size_t k = 1;

  for (unsigned i = 0; i < r->nbins; i++)
    {
      vma_t bin_low, bin_high;

      uint64_t count = hist_count (r, i);

      if (count == 0)
        continue;
      hist_bin_units (&run->hist, r, i, &bin_low, &bin_high);
      credit_bin (run, credit_ok, &k, UNIT, bin_low, bin_high,
                  (double) count, run->hist.scale);
    }
}

/* The other modules' bins (--whole-process), in bytes: the same
   sharing, each bin covering GMON_MODULE_BIN bytes.  */
static void
assign_module_bins (Run *run, const bool *credit_ok)
{
  const Histograms *h = &run->hist;
  size_t k = 1;

  for (size_t i = 0; i < h->nmodule_bins; i++)
    {
      vma_t addr = h->module_bins[i].addr;

      credit_bin (run, credit_ok, &k, 1, addr, addr + GMON_MODULE_BIN,
                  (double) h->module_bins[i].count, GMON_MODULE_BIN);
    }
}

void
hist_assign_samples (Run *run)
{
  bool *credit_ok = gp_calloc (run->symtab.len, sizeof *credit_ok);

  for (size_t j = 0; j < run->symtab.len; j++)
    credit_ok[j] = sym_ids_pass (&run->ids, INCL_FLAT, run->symtab.ranges[j].addr);
  for (size_t i = 0; i < run->hist.n; i++)
    assign_record (run, &run->hist.rec[i], credit_ok);
  if (run->hist.nmodule_bins)
    assign_module_bins (run, credit_ok);
  free (credit_ok);
}

/* ---- the flat profile ------------------------------------------------- */

static const struct
{
  char prefix;
  double scale;
} si_units[] = {
  { 'T', 1e-12 }, { 'G', 1e-09 }, { 'M', 1e-06 }, { 'K', 1e-03 },
  { ' ', 1e-00 }, { 'm', 1e+03 }, { 'u', 1e+06 }, { 'n', 1e+09 },
  { 'p', 1e+12 }, { 'f', 1e+15 }, { 'a', 1e+18 },
};
enum { N_SI = sizeof si_units / sizeof si_units[0], SI_MILLI = 5 };

/* Most time first, then most calls, then by name.  */
static int
cmp_time (const void *a, const void *b, void *ctx)
{
  const ListedKey *l = a, *r = b;
  double diff = r->time - l->time;

  if (diff > 0.0)
    return 1;
  if (diff < 0.0)
    return -1;
  if (r->ncalls > l->ncalls)
    return 1;
  if (r->ncalls < l->ncalls)
    return -1;
  return listed_name_cmp (l, r);
}

/* The unit of the per-call columns: the one that puts TOP_TIME, the
   largest per-call time of the listed symbols (FOUND if any was called),
   between 1 and 1000.  */
static int
choose_unit (const Run *run, double top_time, bool found)
{
  if (run->opt.bsd_style)
    return SI_MILLI;
  if (!found)
    return 0;
  top_time /= run->hist.hz;
  for (int l = 0; l < N_SI; l++)
    {
      double v = si_units[l].scale * top_time;

      if (v >= 1.0 && v < 1000.0)
        return l;
    }
  /* GNU indexes past its table here; take the nearest end instead.  */
  return si_units[0].scale * top_time >= 1000.0 ? 0 : N_SI - 1;
}

static void
print_header (Run *run, char prefix)
{
  Histograms *h = &run->hist;
  char unit[64];

  snprintf (unit, sizeof unit, _("%c%c/call"), prefix, h->dimen_abbrev);
  if (run->opt.bsd_style)
    {
      out_printf (_("\ngranularity: each sample hit covers %ld byte(s)"),
              hist_bytes_per_bin (h));
      if (h->total_time > 0.0)
        out_printf (_(" for %.2f%% of %.2f %s\n\n"), 100.0 / h->total_time,
                h->total_time / h->hz, h->dimension);
    }
  else if (h->wall)
    /* Not GNU's line: GNU gprof cannot tell a wall-clock profile from a
       CPU one, and would call these samples CPU time.  */
    out_printf (_("\nEach sample counts as %g %s of wall-clock time.\n"),
                1.0 / h->hz, h->dimension);
  else
    out_printf (_("\nEach sample counts as %g %s.\n"), 1.0 / h->hz, h->dimension);
  if (h->total_time <= 0.0)
    {
      out_printf (_(" no time accumulated\n\n"));
      /* Every percentage is 0 then; avoid dividing by zero.  */
      h->total_time = 1.0;
    }
  out_printf ("%5.5s %10.10s %8.8s %8.8s %8.8s %8.8s  %-8.8s\n", "%  ",
          _("cumulative"), _("self  "), "", _("self  "), _("total "), "");
  out_printf ("%5.5s %9.9s  %8.8s %8.8s %8.8s %8.8s  %-8.8s\n", _("time"),
          h->dimension, h->dimension, _("calls"), unit, unit, _("name"));
}

/* One row; ACCUM is the time of the rows up to this one.  */
static void
print_row (const Run *run, const Sym *sym, double scale, double accum)
{
  const Histograms *h = &run->hist;
  double pct;

  pct = h->total_time > 0.0 ? 100 * sym->hist_time / h->total_time : 0.0;
  /* "%6.2f %9.2f %8.2f", or "%5.1f %10.2f %8.2f" in BSD layout */
  if (run->opt.bsd_style)
    out_fixed (pct, 5, 1);
  else
    out_fixed (pct, 6, 2);
  out_char (' ');
  out_fixed (accum / h->hz, run->opt.bsd_style ? 10 : 9, 2);
  out_char (' ');
  out_fixed (sym->hist_time / h->hz, 8, 2);
  if (sym->ncalls != 0)
    {
      /* " %8lu %8.2f %8.2f  " */
      out_char (' ');
      out_ulong (sym->ncalls, 8, false);
      out_char (' ');
      out_fixed (scale * sym->hist_time / h->hz / sym->ncalls, 8, 2);
      out_char (' ');
      out_fixed (scale * (sym->hist_time + sym->child_time) / h->hz
                 / sym->ncalls, 8, 2);
      out_spaces (2);
    }
  else
    out_spaces (29);
  if (run->opt.bsd_style)
    print_name (&run->names, sym);
  else
    print_name_only (&run->names, sym);
  out_char ('\n');
}

/* The rows, printed by par_print.  */
typedef struct FlatRows
{
  const Run *run;
  Sym **sym;
  double *accum;
  double scale;
} FlatRows;

static void
print_rows (void *ctx, void *state, size_t begin, size_t end)
{
  const FlatRows *rows = ctx;
  Sym **sym = rows->sym;

  for (size_t i = begin; i < end; i++)
    {
      /* The symbols first, then (once loaded) their names.  */
      if (i + SYM_LOAD_AHEAD < end)
        sym_prefetch (sym[i + SYM_LOAD_AHEAD]);
      if (i + SYM_LOAD_AHEAD / 2 < end)
        gp_prefetch (sym[i + SYM_LOAD_AHEAD / 2]->name);
      print_row (rows->run, sym[i], rows->scale, rows->accum[i]);
    }
}

/* Symbols without time or calls print no row, and cmp_time is a
   consistent order, so leaving them out of the sort changes nothing in
   what is printed (it matters with -l: most lines have neither).  */
Sym **
hist_order (const Run *run, size_t *n)
{
  ListedKey *key = symtab_listed_keys (&run->symtab, run->opt.ignore_zeros, n);
  ListedKey **v = listed_pointers (key, *n);
  uint64_t *time = gp_reallocarray (NULL, *n ? *n : 1, sizeof *time);
  uint64_t *calls = gp_reallocarray (NULL, *n ? *n : 1, sizeof *calls);
  Sym **order;

  for (size_t i = 0; i < *n; i++)
    {
      /* A NaN time compares equal to every time: no ranks then.  */
      if (v[i]->time != v[i]->time)
        {
          free (time);
          free (calls);
          time = calls = NULL;
          break;
        }
      time[i] = rank_descending (v[i]->time);
      calls[i] = ~(uint64_t) v[i]->ncalls;
    }
  if (time)
    msort_ranked ((void **) v, time, calls, *n, cmp_time, NULL);
  else
    msort_ptrs ((void **) v, *n, cmp_time, NULL);
  order = listed_to_syms (v, *n);
  free (time);
  free (calls);
  free (key);
  return order;
}

void
hist_print (Run *run, Sym **sorted, size_t n)
{
  double accum = 0.0;
  FlatRows rows;
  size_t nrows;
  double top_time = 0.0;
  bool called = false;
  int unit;

  run_separator (run);
  if (run->opt.bsd_style)
    {
      if (run->opt.print_descriptions)
        {
          out_printf (_("\n\n\nflat profile:\n"));
          blurb_flat ();
        }
    }
  else
    out_printf (_("Flat profile:\n"));

  /* One pass over the symbols: the largest per-call time of all of
   them, and the rows printed with their running totals (then each row
   stands alone and the rows can be printed on several threads).  */
  rows.accum = gp_reallocarray (NULL, n ? n : 1, sizeof *rows.accum);
  nrows = 0;
  for (size_t i = 0; i < n; i++)
    {
      Sym *s = sorted[i];

      if (i + SYM_LOAD_AHEAD < n)
        sym_prefetch (sorted[i + SYM_LOAD_AHEAD]);
      if (s->ncalls != 0)
        {
          double per_call = (s->hist_time + s->child_time) / s->ncalls;

          if (per_call > top_time)
            {
              top_time = per_call;
              called = true;
            }
        }
      if (sym_ids_pass (&run->ids, INCL_FLAT, s->addr))
        {
          accum += s->hist_time;
          sorted[nrows] = s;
          rows.accum[nrows++] = accum;
        }
    }
  unit = choose_unit (run, top_time, called);
  print_header (run, si_units[unit].prefix);
  rows.run = run;
  rows.sym = sorted;
  rows.scale = si_units[unit].scale;
  par_print (run->par, &(OutJob) { .n = nrows, .ctx = &rows, .print = print_rows });
  free (rows.accum);
  free (sorted);
  if (run->opt.print_descriptions && !run->opt.bsd_style)
    blurb_flat ();
}
