/* gmon_io.h - reading profile data files (GNU, BSD and 4.4BSD formats)
   and writing their sum (-s).  */

#ifndef GPROF_GMON_IO_H
#define GPROF_GMON_IO_H

struct Run;

/* Read one profile file ("-" is standard input) into the run: histogram
   records, arcs and basic-block counts.  Exits with GNU gprof's messages
   on a file it cannot read.  With -i, prints what the file held.  */
void gmon_read (struct Run *run, const char *filename);

/* Write everything read so far to FILENAME (gmon.sum): to a temporary
   file first, renamed into place only when complete.  */
void gmon_write (struct Run *run, const char *filename);

#endif
