/* diff/diff.h - gprof --diff: two profiles of one program compared.

   Call counts are exact, so any change in them is a change in what the
   program did.  A function's time is a count of samples, known to about
   the square root of that count (the samples fall as a Poisson
   process), so a change in time is reported with an interval and called
   significant only when the interval, at the chosen level for all the
   functions compared together (Bonferroni), leaves out zero.  */

#ifndef GPROF_DIFF_DIFF_H
#define GPROF_DIFF_DIFF_H

#include <stdbool.h>
#include <stddef.h>

struct Run;

/* One function of either profile, matched by its name as the reports
   show it (the k-th of several functions of one name with the k-th).  */
typedef struct DiffFn
{
  const char *name;
  bool in_old, in_new;
  double old_samples, new_samples;
  double old_s, new_s;            /* self seconds */
  double change_s, error_s;       /* new - old, and the interval's half */
  double change_pct;              /* of old; +inf when old is 0 */
  bool significant;
  unsigned long old_calls, new_calls;         /* non-recursive */
  unsigned long old_self_calls, new_self_calls; /* recursive */
} DiffFn;

typedef struct Diff
{
  DiffFn *fn;                     /* significant first, then by |change| */
  size_t n;
  size_t ntimed;                  /* functions with samples in either */
  double z;                       /* the intervals' half width, in sds */
  double level;                   /* percent */
  bool timed;                     /* both profiles have a histogram */
  double old_total_s, new_total_s;
} Diff;

/* The comparison of the analysed runs OLD and NEW at LEVEL percent.  */
void diff_compute (Diff *d, struct Run *old, struct Run *new_run, double level);
void diff_free (Diff *d);

/* z such that a standard normal variable lies within +/- z with
   probability P (0 < P < 1).  */
double diff_z_of (double p);

/* Compare, print in the format asked for (text, --export=json or
   html) and return the exit status: 1 when --diff-threshold is set and
   some function's time grew significantly by more than it, else 0.  */
int diff_print (struct Run *old, struct Run *new_run);

#endif
