/* cg_print.h - the call graph report and its index.  */

#ifndef GPROF_CG_PRINT_H
#define GPROF_CG_PRINT_H

#include <stddef.h>
#include "symtab.h"

struct Run;

void cg_print (struct Run *run);

/* The symbols the index may list, by name: a malloc'ed array of *N.  */
Sym **cg_index_order (const struct Run *run, size_t *n);

/* The index of the N symbols at ORDER (cg_index_order's), which it takes
   and frees.  */
void cg_print_index (struct Run *run, Sym **order, size_t n);

#endif
