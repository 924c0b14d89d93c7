/* cg_dfn.h - topological numbering of the call graph with cycle
   detection, as GNU gprof numbers it.  */

#ifndef GPROF_CG_DFN_H
#define GPROF_CG_DFN_H

#include "cg_arcs.h"

/* The cycles cg_dfn_number finds.  */
typedef struct DfnCycles
{
  /* Each cycle's members in chain order, the head first, one cycle after
     another, each ended by DFN_END: the chains come out of the search
     in compact arrays, where walking them through the symbols' cyc_next
     would be a cache miss per member.  */
  uint32_t *member;
  size_t nmember;
  /* Per symbol: where its cycle starts in member if it heads one, else
     DFN_END.  */
  uint32_t *at;
} DfnCycles;

#define DFN_END UINT32_MAX

/* Give every symbol of SYMTAB a top_order (callees get smaller numbers;
   all members of a cycle share one) by depth-first search from each
   unnumbered symbol in address order, children in list order (the
   pseudo-symbol after the table is numbered when an arc leads to it).
   Members of a cycle end up with cyc_head pointing at the cycle's head
   symbol and chained from it through cyc_next, and listed in CYCLES
   (the caller frees its arrays).  Iterative: the depth of the call
   graph does not matter.  Returns the table's symbols by top_order,
   ascending, a cycle's members in address order (a malloc'ed array of
   symtab->len).  */
Sym **cg_dfn_number (SymTab *symtab, const CallGraph *cg, DfnCycles *cycles);

#endif
