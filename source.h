/* source.h - copying source files with a note in front of each line
   (annotated source, -A).  */

#ifndef GPROF_SOURCE_H
#define GPROF_SOURCE_H

#include <stdio.h>
#include "symtab.h"

struct Run;

/* Writes the WIDTH-character note for line LINE_NUM into BUF.  */
typedef void (*AnnotateFn) (char *buf, unsigned width, long line_num, void *arg);

/* Find SF's source (as named, then in the -I / GPROF_PATH directories)
   and copy it with a note before every line, to standard output or with
   -y to "<name>-ann".  Returns the stream written to (still open), or
   NULL when the source or the output could not be opened (after saying
   why).  */
FILE *annotate_source (struct Run *run, const SourceFile *sf, unsigned width,
                       AnnotateFn annote, void *arg);

/* Close a stream annotate_source returned for SF (a -y file is renamed
   into place only now, complete); exits if it could not be written.  */
void annotate_finish (struct Run *run, const SourceFile *sf, FILE *out);

#endif
