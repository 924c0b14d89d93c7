/* hist.h - the histogram of sampled program counters: reading records,
   crediting samples to symbols, and the flat profile.  */

#ifndef GPROF_HIST_H
#define GPROF_HIST_H

#include <stdbool.h>
#include "symtab.h"

struct Run;

typedef struct HistRecord
{
  vma_t lowpc, highpc;
  unsigned nbins;
  /* The counts: the bins of the one file read so far (16 bits, as the
     file has them), or once a second has added to them, their sums
     without limit.  Exactly one is set: most runs read one file, and a
     bin then takes 2 bytes of fresh memory rather than 8.  */
  uint16_t *once;
  uint64_t *sample;
} HistRecord;

/* Bin I's count.  */
static inline uint64_t
hist_count (const HistRecord *r, unsigned i)
{
  return r->sample ? r->sample[i] : r->once[i];
}

/* --whole-process: GMON_MODULE_BIN bytes of another module's code from
   ADDR, a synthetic address (modules.h).  */
typedef struct HistBin
{
  vma_t addr;
  uint64_t count;
} HistBin;

typedef struct Histograms
{
  HistRecord *rec;        /* in order of first appearance */
  size_t n, cap;
  double scale;           /* address units (2 bytes) per bin */
  char dimension[16];     /* what a sample measures, "seconds" */
  char dimen_abbrev;      /* 's' */
  unsigned hz;            /* samples per dimension unit, 0 without a histogram */
  double total_time;      /* samples credited to printed symbols */
  /* How a count of n samples varies: by about sqrt (n * dispersion).
     1 when each sample counts one timer signal; the largest the files
     give (gmon_out.h), which errs on the safe side when they differ.  */
  double dispersion;
  /* What the samples measure: 1 wall-clock time (libgmon's
     LIBGMON_CLOCK=wall, gmon_out.h), 0 CPU time; and the first file
     read, which said so (NULL before any).  */
  int wall;
  char *clock_file;
  /* --whole-process: the other modules' samples, sorted by address.  */
  HistBin *module_bins;
  size_t nmodule_bins;
} Histograms;

void hist_init (Histograms *h);
void hist_free (Histograms *h);
/* FILENAME's samples measure wall-clock time (WALL) or CPU time: the
   first file sets the clock; a later one with the other exits with a
   message naming both.  */
void hist_set_clock (Histograms *h, const char *filename, int wall);
/* Free the bins' counts once assigned: 4 bytes a bin, tens of MB for a
   big program's text.  */
void hist_free_samples (Histograms *h);

/* A GNU histogram record's header was read from FILENAME: check it
   against the earlier ones (the first one sets rate, unit and scale).
   Exits with GNU's messages on a changed unit or scale, or overlapping
   ranges, and on a changed rate.  Returns the record with the same
   range, into which its bins add, or NULL when it needs a new one.  */
HistRecord *hist_check_record (Histograms *h, const char *filename,
                               vma_t lowpc, vma_t highpc,
                               unsigned nbins, unsigned rate,
                               const char dimen[15], char abbrev);
/* A new record of NBINS bins, taking ONCE (its first file's counts,
   malloc'ed) if not NULL, or else with ONCE allocated for the caller to
   write them.  */
HistRecord *hist_new_record (Histograms *h, vma_t lowpc, vma_t highpc,
                             unsigned nbins, uint16_t *once);
/* REC's counts as sums, for adding another file's bins to them.  */
uint64_t *hist_sums (HistRecord *rec);

/* Address units per bin: ((highpc - lowpc) / 2) / nbins.  */
double hist_record_scale (vma_t lowpc, vma_t highpc, unsigned nbins);
/* Whether a record of LOWPC, HIGHPC and NBINS has another scale than
   the records read before (hist_check_record refuses it).  */
bool hist_scale_differs (const Histograms *h, vma_t lowpc, vma_t highpc,
                         unsigned nbins);

/* Clip [*LO, *HI) to the one histogram record it meets (empty if none);
   exits if it meets several.  */
void hist_clip_symbol_address (const Histograms *h, vma_t *lo, vma_t *hi);
/* Is ADDR inside a histogram record?  */
bool hist_check_address (const Histograms *h, vma_t addr);

/* Credit every histogram bin to the symbols it overlaps.  */
void hist_assign_samples (struct Run *run);

/* The symbols the flat profile may list, in its order (most time first,
   then most calls, then by name): a malloc'ed array of *N, once the
   times and call counts are final.  */
Sym **hist_order (const struct Run *run, size_t *n);

/* The flat profile of the N symbols at ORDER (hist_order's), which it
   takes and frees.  */
void hist_print (struct Run *run, Sym **order, size_t n);

/* Bin I of REC covers [*LO, *HI) in units of 2 bytes, as GNU gprof
   computes it (the scale times I, converted as a C cast converts).  */
void hist_bin_units (const Histograms *h, const HistRecord *rec, unsigned i,
                     vma_t *lo, vma_t *hi);

/* What times in samples are divided by: the rate, or 1 without a
   histogram, where every time is 0 (GNU gprof divides by 0 and prints
   -nan).  */
static inline double
hist_divisor (const Histograms *h)
{
  return h->hz ? (double) h->hz : 1.0;
}

/* "(long) scale * 2": the granularity line's bytes per sample.  */
long hist_bytes_per_bin (const Histograms *h);

#endif
