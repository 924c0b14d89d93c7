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
   /dev/null, messages too unless FUZZ_VERBOSE is set.

   The run happens in a scratch directory of the process's own (under
   TMPDIR), emptied after the run: what -y and -s write goes there, and
   relative source names are looked up there.  GPROF_PATH is the
   fixture directory, where the DWARF seeds' source is.  */
enum { FUZZ_EXPAND = 1 };
int fuzz_gprof (int argc, char **argv, Core *core, const char *profile,
                unsigned flags);

/* The path of a file that holds the SIZE bytes at DATA, until the next
   call with the same SLOT (0 to 3).  The file is a memfd: a regular file
   of that size, named /proc/self/fd/N.  */
const char *fuzz_file (int slot, const uint8_t *data, size_t size);

/* The path of a file NAME in the scratch directory (see fuzz_gprof)
   that holds the SIZE bytes at DATA, for inputs that are found by their
   name (the files beside a profile), until the end of the next run;
   SLOT (0 to 3) keeps the returned path.  */
const char *fuzz_scratch_file (int slot, const char *name,
                               const uint8_t *data, size_t size);

/* The executable NAME of the fixture generator's output (FUZZ_FIXTURES
   names the directory mkfixture wrote), opened once and kept.  */
Core *fuzz_image (const char *name);

/* The path of the fixture file NAME, absolute, newly allocated: callers
   keep it.  FUZZ_FIXTURES names the directory testsuite/fuzz/fixtures.sh
   wrote.  */
const char *fuzz_fixture (const char *name);

/* Split DATA at NUL and newline bytes into words, as argv entries after
   ARGV[0] = "gprof", at most MAX entries in all and a NULL after them
   (ARGV has room for MAX + 1); returns argc.  Empty words are left out.
   The words are copies that live until the next call.  */
int fuzz_words (const uint8_t *data, size_t size, char **argv, int max);

/* The options of the writers and of the stages that read more than the
   profile (the annotated source, the diagnosis, the exports), from the
   bits of BITS, added to ARGV from ARGC on (ARGV has room for 10 more
   and the NULL after them); returns the new argc.
     bits 0-2  0 none; 1 to 6 --export= dot, callgrind, folded,
               speedscope, json, html; 7 --diagnose
     bit 3     -A (and -I with an empty part and the scratch directory)
     bit 4     -y (files NAME-ann, in the scratch directory)
     bit 5     -x
     bit 6     --export-node-threshold=0 --export-edge-threshold=0
               --export-max-depth=2: every node, and stacks cut short
     bit 7     -t1 -m2 -L --inline-file-names  */
int fuzz_writer_options (unsigned bits, char **argv, int argc);

#endif
