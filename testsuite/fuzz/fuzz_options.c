/* fuzz_options.c - libFuzzer target: the command line, above all the
   symspecs of -p/-P/-q/-Q/-A/-J/-C/-Z/-e/-E/-f/-F/-k/-n/-N, and the
   reports they select, on a good profile.

   Input: the options, one a line (or NUL-separated).  Operands are read
   but not used: the executable and the profile are the fixtures'.  */

#include "config.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  static const char *profile;
  char *argv[65];
  int argc;

  if (!profile)
    profile = fuzz_fixture ("gnu-64le.gmon");
  argc = fuzz_words (data, size, argv, 64);
  fuzz_gprof (argc, argv, fuzz_image ("prog64le.elf"),
              profile, 0);
  return 0;
}
