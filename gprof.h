/* gprof.h - what one run of gprof knows, passed from stage to stage.  */

#ifndef GPROF_GPROF_H
#define GPROF_GPROF_H

#include <stdbool.h>
#include "basic_blocks.h"
#include "cg_arcs.h"
#include "corefile.h"
#include "hist.h"
#include "msort.h"
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
  struct GmonAhead *ahead; /* the first profile file, read ahead */
  struct GmonWatch *watch; /* shown every record read, or NULL */
  unsigned gmon_input;
  int gmon_file_version;  /* of the last GNU-format file read */
  NameFmt names;
  bool first_output;      /* nothing printed yet: no "\f" separator */
  /* The orders the flat profile and the index print in, being sorted on
     other threads while the call graph is analysed, or NULL.  */
  SortTask *flat_order, *index_order;
  /* What both sorts read of the symbols they list (run_listed).  */
  ListedKey *listed;
  size_t nlisted;
  /* The index's names in order, once sorted (cg_index_order_finish).  */
  Sym **index_names;
  size_t nindex_names;
} Run;

/* Print the form feed that separates reports, unless this is the first.  */
void run_separator (Run *run);

/* Pointers to the keys of the symbols the flat profile and the index
   may list (symtab_listed_keys, gathered on the first call, once times
   and calls are final), *N of them.  */
ListedKey **run_listed (Run *run, size_t *n);
/* Free the keys if no sort is still reading them (run_listed gathers them
   again if a report asks later).  */
void run_listed_release (Run *run);

#endif
