/* gprof.h - what one run of gprof knows, passed from stage to stage.  */

#ifndef GPROF_GPROF_H
#define GPROF_GPROF_H

#include <stdbool.h>
#include "basic_blocks.h"
#include "cg_arcs.h"
#include "cg_measured.h"
#include "corefile.h"
#include "hist.h"
#include "support/msort.h"
#include "names.h"
#include "options.h"
#include "sym_ids.h"
#include "symtab.h"

/* What the profile files contained (bits of Run.gmon_input).  */
enum
{
  INPUT_HISTOGRAM = 1 << 0,
  INPUT_CALL_GRAPH = 1 << 1,
  INPUT_BB_COUNTS = 1 << 2
};

typedef struct Run
{
  Options opt;
  Core *core;
  SourceFiles files;
  SymTab symtab;
  SymSpecs ids;
  Histograms hist;
  CallGraph cg;
  BasicBlocks bb;
  CallStacks stacks;      /* the samples' call stacks, if read */
  struct Modules *modules; /* --whole-process: the other modules, or NULL */
  const struct Par *par;  /* runs a stage's independent pieces of work */
  struct Pipeline *pipeline; /* what runs beside what (pipeline.c) */
  struct GmonAhead *ahead; /* the first profile file, read ahead */
  struct GmonWatch *watch; /* shown every record read, or NULL */
  unsigned gmon_input;
  int gmon_file_version;  /* of the last GNU-format file read */
  NameFmt names;
  bool first_output;      /* nothing printed yet: no "\f" separator */
} Run;

/* Print the form feed that separates reports, unless this is the first.  */
void run_separator (Run *run);

#endif
