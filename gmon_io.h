/* gmon_io.h - reading profile data files (GNU, BSD and 4.4BSD formats)
   and writing their sum (-s).  */

#ifndef GPROF_GMON_IO_H
#define GPROF_GMON_IO_H

struct Run;
struct Core;
typedef struct GmonAhead GmonAhead;

/* Start reading FILENAME (the first profile file) on another thread
   while the executable's symbols are read: the whole file into memory,
   and its first histogram's bins added up.  gmon_read takes what it can
   of this; a file that cannot be read so is read the usual way, which
   then reports what is wrong with it.  NULL for standard input.  */
GmonAhead *gmon_ahead_start (const struct Core *core, const char *filename);

/* Read one profile file ("-" is standard input) into the run: histogram
   records, arcs and basic-block counts.  Exits with GNU gprof's messages
   on a file it cannot read.  With -i, prints what the file held.  */
void gmon_read (struct Run *run, const char *filename);

/* Write everything read so far to FILENAME (gmon.sum): to a temporary
   file first, renamed into place only when complete.  */
void gmon_write (struct Run *run, const char *filename);

#endif
