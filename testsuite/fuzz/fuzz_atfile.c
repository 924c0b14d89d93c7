/* fuzz_atfile.c - libFuzzer target: @FILE, the response file libiberty's
   expandargv reads into the command line (quotes, backslashes, nested
   @FILE), then the options it gives, on a good profile.

   Input: the response file.  */

#include "config.h"
#include <stdio.h>
#include "fuzz.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  static const char *profile;
  static char at[64];
  char *argv[3];

  if (!profile)
    profile = fuzz_fixture ("gnu-64le.gmon");
  snprintf (at, sizeof at, "@%s", fuzz_file (0, data, size));
  argv[0] = (char *) "gprof";
  argv[1] = at;
  argv[2] = NULL;
  fuzz_gprof (2, argv, fuzz_image ("prog64le.elf"),
              profile, FUZZ_EXPAND);
  return 0;
}
