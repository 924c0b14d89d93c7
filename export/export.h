/* export/export.h - the analysis written in formats other tools read
   (--export=FORMAT): dot, callgrind, folded, speedscope, pprof, json,
   html.  */

#ifndef GPROF_EXPORT_H
#define GPROF_EXPORT_H

#include <stdbool.h>

struct Run;

/* Is NAME a format --export knows?  Says which ones it knows if not.  */
bool export_check_format (const char *name);

/* Write the run's analysis to stdout in the format of --export.  */
void export_write (struct Run *run);

#endif
