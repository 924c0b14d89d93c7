/* pipeline/pipeline.h - the stages of a run, composed.

   main calls these in GNU's order; each runs the stage functions it
   names, one after the other, or beside each other where their inputs
   allow.  This module is the only code that overlaps work; with one
   thread (GPROF_THREADS=1) every function here runs its stages in
   turn, and the bytes are the same.  */

#ifndef GPROF_PIPELINE_PIPELINE_H
#define GPROF_PIPELINE_PIPELINE_H

struct Run;

/* Set the run up to use THREADS threads (1: everything in turn).  */
void pipeline_start (struct Run *run, unsigned threads);

/* The executable's symbols (corefile.c, symtab.c) and the symspecs
   (sym_ids.c).  */
void pipeline_symbols (struct Run *run);

/* The profile files (gmon_io.c), added up; then gmon.sum with -s.  */
void pipeline_profiles (struct Run *run);

/* Samples to symbols (hist.c), and the call graph: its order, cycles
   and propagated times (cg_arcs.c, cg_dfn.c).  */
void pipeline_analyse (struct Run *run);

/* The reports asked for, in GNU's order, or the export or the
   diagnosis instead.  */
void pipeline_reports (struct Run *run);

/* --diff: the base profile (--diff=OLD, of --diff-exe or the same
   executable) taken through the same stages in a run of its own, then
   compared with RUN's (diff/diff.c).  Returns the exit status.  */
int pipeline_diff (struct Run *run);

#endif
