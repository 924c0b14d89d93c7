/* diagnose/diagnose.h - --diagnose: what the profile data can and cannot tell, in
   plain words, and what to do about it.  */

#ifndef GPROF_DIAGNOSE_H
#define GPROF_DIAGNOSE_H

struct Run;

/* Look at every record as the profile files are read (Run.watch), for
   the facts the merged data no longer shows.  Call after the symbols
   are read and before the profile files.  */
void diagnose_watch (struct Run *run);
/* The diagnosis, once the analysis is done.  */
void diagnose_print (struct Run *run);

#endif
