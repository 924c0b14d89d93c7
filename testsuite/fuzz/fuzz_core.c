/* fuzz_core.c - libFuzzer target: the executable, read through BFD by
   corefile.c (symbols, our own read of the ELF string table, the .text
   contents; our own reading of the DWARF for source positions, of every
   function and with -l of every line; the x86 instruction decoder with
   -c).

   Input: one byte of settings (bit 0 -l, bit 1 -a, bit 2 -D, bit 3 -c,
   bit 4 -z, bit 5 -T, bit 6 -i, bit 7 -b), then the executable.  The
   profile is one without records, which fits every executable.  */

#include "config.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  static const char *const opts[8] = { "-l", "-a", "-D", "-c", "-z", "-T", "-i", "-b" };
  static char *profile;
  char *argv[16];
  int argc = 0;

  if (size < 1)
    return 0;
  if (!profile)
    profile = (char *) fuzz_fixture ("empty.gmon");
  argv[argc++] = (char *) "gprof";
  for (int i = 0; i < 8; i++)
    if (data[0] & (1u << i))
      argv[argc++] = (char *) opts[i];
  argv[argc++] = (char *) fuzz_file (0, data + 1, size - 1);
  argv[argc++] = profile;
  argv[argc] = NULL;
  fuzz_gprof (argc, argv, NULL, NULL, 0);
  return 0;
}
