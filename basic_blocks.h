/* basic_blocks.h - basic-block execution counts (profile records of tag
   2, kept only at line granularity) and the -C execution-count report.  */

#ifndef GPROF_BASIC_BLOCKS_H
#define GPROF_BASIC_BLOCKS_H

#include <stdbool.h>
#include "symtab.h"

struct Run;

typedef struct BasicBlocks
{
  bool warned;            /* "ignoring basic-block exec counts" said once */
} BasicBlocks;

/* One (address, count) pair of a basic-block record.  */
void bb_record (struct Run *run, vma_t addr, unsigned long count);

/* -C: the execution count of every symbol and of its basic blocks.  */
void bb_print_exec_counts (struct Run *run);

/* -A: each source file with the count of every line, its busiest lines
   and a summary.  */
void bb_print_annotated_source (struct Run *run);

#endif
