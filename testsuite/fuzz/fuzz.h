/* fuzz.h - what the libFuzzer targets share (fuzz.c).

   gprof's readers end a run with exit(1) on bad input.  The targets are
   linked with -Wl,--wrap=exit (and the other --wrap options of
   testsuite/fuzz/local.mk), so that inside fuzz_gprof an exit returns
   to the harness instead, and everything the run allocated or opened is
   released; gprof's own code is the production code, unchanged.  */

#ifndef GPROF_FUZZ_H
#define GPROF_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include "corefile.h"

/* Run gprof's stages as main does, on the operands and options of ARGV
   (ARGV[0] is the program name), @FILE arguments expanded first if FLAGS
   has FUZZ_EXPAND.  CORE, when not NULL, stands for the executable:
   ARGV's image operand and -R are then not opened.  PROFILE, when not
   NULL, is read instead of ARGV's profile operands.  Returns the exit
   status the run ended with (0 when it ran through).  Reports go to
   /dev/null, messages too unless FUZZ_VERBOSE is set.  */
enum { FUZZ_EXPAND = 1 };
int fuzz_gprof (int argc, char **argv, Core *core, const char *profile,
                unsigned flags);

/* The path of a file that holds the SIZE bytes at DATA, until the next
   call with the same SLOT (0 to 3).  The file is a memfd: a regular file
   of that size, named /proc/self/fd/N.  */
const char *fuzz_file (int slot, const uint8_t *data, size_t size);

/* The executable NAME of the fixture generator's output (FUZZ_FIXTURES
   names the directory mkfixture wrote), opened once and kept.  */
Core *fuzz_image (const char *name);

/* The path of the fixture file NAME, newly allocated: callers keep it.  */
const char *fuzz_fixture (const char *name);

/* Split DATA at NUL and newline bytes into words, as argv entries after
   ARGV[0] = "gprof", at most MAX entries in all and a NULL after them
   (ARGV has room for MAX + 1); returns argc.  Empty words are left out.
   The words are copies that live until the next call.  */
int fuzz_words (const uint8_t *data, size_t size, char **argv, int max);

#endif
