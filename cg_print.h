/* cg_print.h - the call graph report and its index.  */

#ifndef GPROF_CG_PRINT_H
#define GPROF_CG_PRINT_H

struct Run;

void cg_print (struct Run *run);
void cg_print_index (struct Run *run);

#endif
