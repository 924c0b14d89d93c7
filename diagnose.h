/* diagnose.h - --diagnose: what the profile data can and cannot tell, in
   plain words, and what to do about it.  */

#ifndef GPROF_DIAGNOSE_H
#define GPROF_DIAGNOSE_H

struct Run;

void diagnose_print (struct Run *run);

#endif
