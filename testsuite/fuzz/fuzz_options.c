/* fuzz_options.c - libFuzzer target: the command line, above all the
   symspecs of -p/-P/-q/-Q/-A/-J/-C/-Z/-e/-E/-f/-F/-k/-n/-N, and the
   reports they select, on a good profile; every option, the writers'
   (--export, --diagnose, -A, -y, -s) included (testsuite/fuzz/options.dict
   names them all).

   Input: the options, one a line (or NUL-separated).  Operands are read
   but not used: the executable and the profile are the fixtures'.  The
   executable is prog64le.elf, or the one a word names exactly, out of
   dwarf4.elf, dwarf5.elf, clang5.elf and dynamic.elf (with line
   information: -A finds their source; dynamic.elf names libgmon.so as
   needed) and classify.elf, each with its own profile.  */

#include "config.h"
#include <string.h>
#include "fuzz.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  static const char *const images[] = {
    "prog64le.elf", "dwarf4.elf", "dwarf5.elf", "clang5.elf", "dynamic.elf",
    "classify.elf"
  };
  static const char *const profiles[] = {
    "gnu-64le.gmon", "dwarf4.gmon", "dwarf5.gmon", "clang5.gmon",
    "dynamic.gmon", "classify.gmon"
  };
  enum { N = sizeof images / sizeof images[0] };
  static const char *profile[N];
  char *argv[65];
  int argc, which = 0;

  if (!profile[0])
    for (int i = 0; i < N; i++)
      profile[i] = fuzz_fixture (profiles[i]);
  argc = fuzz_words (data, size, argv, 64);
  for (int i = 1; i < argc; i++)
    for (int j = 1; j < N; j++)
      if (strcmp (argv[i], images[j]) == 0)
        which = j;
  fuzz_gprof (argc, argv, fuzz_image (images[which]), profile[which], 0);
  return 0;
}
