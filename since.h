/* since.h - gprof --since=EARLIER: what happened between two snapshots
   of one run (gmon_out.h: snapshot records).

   The earlier snapshot's arcs are read first and kept aside by their
   call site (from, self); the later snapshot's arc records are reduced
   by them as they are read, before they are counted, so an arc that was
   not called in between is not in the call graph at all.  Then the
   earlier histogram and call stacks are subtracted from the later ones
   that the run read.  Every report and export then shows the
   difference.  */

#ifndef GPROF_SINCE_H
#define GPROF_SINCE_H

#include <stddef.h>
#include "cg_arcs.h"

struct Run;
typedef struct SinceArcs SinceArcs;

/* Read the snapshot LATER into RUN less the snapshot EARLIER.  Exits
   with a message naming both when they are not two snapshots of one
   run, LATER the later one.  */
void since_read (struct Run *run, const char *earlier, const char *later);

/* For gmon_io.c: keep the N arc records at RECS aside (EARLIER's).  */
void since_arcs_keep (SinceArcs *a, const ArcRecord *recs, size_t n);
/* Reduce the N arc records at RECS (LATER's) by what is kept of their
   call sites, and keep those still with calls at the start of RECS:
   returns how many.  */
size_t since_arcs_subtract (SinceArcs *a, ArcRecord *recs, size_t n);

#endif
