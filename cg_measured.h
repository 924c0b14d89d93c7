/* cg_measured.h - the call graph's times measured from call stacks
   (--measured-time).

   libgmon writes the call stack of every sample beside the profile
   (gmon_out.h).  gmon_io.c reads those of every profile file into one
   tree of frames, CallStacks, outermost frame first: a stack is a node,
   weighted by the samples whose stack it is.  cg_measured_apply then
   takes each arc's times from the samples whose stacks hold the arc,
   where gprof would share the callee's time among its callers in
   proportion to their calls (doc/gmonprof.texi gives the rule).  */

#ifndef GPROF_CG_MEASURED_H
#define GPROF_CG_MEASURED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "symtab.h"

struct Run;

/* A node's parent when it has none: an outermost frame.  */
#define STACK_ROOT UINT32_MAX

/* What --measured-time found, for the call graph's header.  */
typedef struct MeasuredReport
{
  double stacked;         /* samples with a stack, of a symbol */
  size_t arcs_measured;   /* arcs whose times come from stacks */
  size_t arcs_shared;     /* arcs with time by the proportional rule */
  /* The first callees of those.  */
  const Sym *shared_into[4];
  size_t nshared_into;
} MeasuredReport;

typedef struct CallStacks
{
  uint32_t *up;           /* parent node, or STACK_ROOT */
  vma_t *pc;              /* the frame's address */
  uint64_t *weight;       /* samples whose stack ends here (periods) */
  size_t n, cap;
  uint32_t *hash;         /* node + 1 per slot by (up, pc), 0 when empty */
  size_t hash_cap;
  /* Summed over the files read.  */
  uint64_t dropped, cut;  /* samples without a stack, cut at depth */
  unsigned depth;         /* the largest depth bound of the files */
  unsigned files;         /* profile files that had stacks */
  MeasuredReport report;  /* cg_measured_apply's */
} CallStacks;

/* The node of frame PC under node UP (STACK_ROOT: an outermost one),
   made if new.  */
uint32_t cg_stacks_node (CallStacks *cs, uint32_t up, vma_t pc);
void cg_stacks_free (CallStacks *cs);

/* No symbol: the frame lies outside every one.  */
#define STACK_NO_SYM UINT32_MAX

/* Each node's symbol into SYM_OF (CS->n of them): its index in ST, or
   STACK_NO_SYM.  An innermost frame is looked up at the sampled PC.  A
   frame with frames under it is a call, at its return address: looked
   up there (AT_CALL false), it is the caller the call graph's arcs name,
   whose records hold the same address; looked up just before it (AT_CALL
   true), it is the function that made the call even when the call was
   its last instruction (one to a function that does not return), the
   return address then the next function's first byte.  */
void cg_stacks_symbols (const CallStacks *cs, const SymTab *st, bool at_call,
                        uint32_t *sym_of);

/* After cg_propagate: each arc's times, and each symbol's and cycle's
   children time, from the stacks where they have any.  */
void cg_measured_apply (struct Run *run);

/* The call graph header's lines saying which times are measured.  */
void cg_measured_print_header (const struct Run *run);

#endif
