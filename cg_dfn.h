/* cg_dfn.h - topological numbering of the call graph with cycle
   detection, as GNU gprof numbers it.  */

#ifndef GPROF_CG_DFN_H
#define GPROF_CG_DFN_H

#include "cg_arcs.h"

/* Give every symbol of SYMTAB a top_order (callees get smaller numbers;
   all members of a cycle share one) by depth-first search from each
   unnumbered symbol in address order, children in list order (the
   pseudo-symbol after the table is numbered when an arc leads to it).  Members
   of a cycle end up with cyc_head pointing at the cycle's head symbol and
   chained from it through cyc_next.  Iterative: the depth of the call
   graph does not matter.  */
void cg_dfn_number (SymTab *symtab, const CallGraph *cg);

#endif
