/* cg_print.h - the call graph report and its index.  */

#ifndef GPROF_CG_PRINT_H
#define GPROF_CG_PRINT_H

struct Run;

void cg_print (struct Run *run);

/* Sort the index's names on another thread (msort_start) from now on;
   cg_print_index waits for them, and starts the sort itself if this was
   not called.  */
void cg_index_order_start (struct Run *run);
/* Wait for the index's names and keep them in order; done before the call
   graph is printed, the sort's keys and buffers are freed before the call
   graph needs its own memory.  cg_print_index calls it if need be.  */
void cg_index_order_finish (struct Run *run);
void cg_print_index (struct Run *run);

#endif
