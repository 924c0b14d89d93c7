/* cg_order.h - suggested link orders: functions (-r) and object files
   (-R), computed from the call graph as GNU gprof computes them.  */

#ifndef GPROF_CG_ORDER_H
#define GPROF_CG_ORDER_H

struct Run;

void cg_print_function_ordering (struct Run *run);
void cg_print_file_ordering (struct Run *run);

#endif
