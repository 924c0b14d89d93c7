/* diagnose/diagnose.h - --diagnose: what the profile data can and cannot tell, in
   plain words, and what to do about it.  */

#ifndef GPROF_DIAGNOSE_H
#define GPROF_DIAGNOSE_H

struct Run;

/* Before the symbol table is built (gprof stops on an executable without
   symbols): if the executable has no symbol table or a profile file does
   not exist, print the diagnosis of that and exit with status 1.  */
void diagnose_inputs (struct Run *run);
/* Look at every record as the profile files are read (Run.watch), for
   the facts the merged data no longer shows; a file that cannot be
   added to the ones before it (another rate, other bins) is explained,
   and the run ends with status 1.  Call after the symbols are read and
   before the profile files.  */
void diagnose_watch (struct Run *run);
/* The diagnosis, once the analysis is done.  */
void diagnose_print (struct Run *run);

#endif
