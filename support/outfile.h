/* outfile.h - output files that appear whole or not at all (gmon.sum,
   the -y annotated sources).  */

#ifndef GPROF_OUTFILE_H
#define GPROF_OUTFILE_H

#include <stdio.h>

/* Open PATH for writing, as fopen (PATH, "w") would, but through a
   temporary file beside PATH's target (PATH itself, or what its chain
   of symbolic links leads to), renamed over the target by outfile_close.
   Until then the temporary file is removed on every way out: exit, and
   the signals that end a program by default.  A target that exists and
   is not a regular file (a FIFO, a device) is written directly.  One
   file at a time.  NULL with errno set on failure.  */
FILE *outfile_open (const char *path);

/* Finish the file outfile_open returned: flush, sync, close, rename.
   Returns 0, or the errno of what failed; the temporary file is gone
   then and the target as it was.  */
int outfile_close (FILE *f);

/* Give up the file being written, if any: its temporary file is removed
   and the signals are handed back; the stream is closed and the names
   freed.  Registered with atexit; the fuzz harness, whose runs end in
   a longjmp, calls it after each.  */
void outfile_abort (void);

#endif
