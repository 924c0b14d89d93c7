/* fuzz_symfile.c - libFuzzer target: -S, an nm-style symbol file read
   instead of the executable's symbols, then a profile reported with it,
   and what else reads the symbols: the diagnosis, the exports, -s.

   Input: two bytes of settings, then the file.  Byte 0: bit 0 -z, bit 1
   -T, bit 2 -s, bit 3 -C, bit 4 -i, bit 5 -r, bit 6 -b, bit 7 -l.
   Byte 1: the writers' options (fuzz_writer_options in fuzz.h).  */

#include "config.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  static const char *profile;
  static const char *const opts[8] = { "-z", "-T", "-s", "-C", "-i", "-r", "-b", "-l" };
  char *argv[32];
  int argc = 0;

  if (!profile)
    profile = fuzz_fixture ("gnu-64le.gmon");
  if (size < 2)
    return 0;
  argv[argc++] = (char *) "gprof";
  for (int i = 0; i < 8; i++)
    if (data[0] & (1u << i))
      argv[argc++] = (char *) opts[i];
  argc = fuzz_writer_options (data[1], argv, argc);
  argv[argc++] = (char *) "-S";
  argv[argc++] = (char *) fuzz_file (0, data + 2, size - 2);
  argv[argc++] = (char *) "image";
  argv[argc] = NULL;
  fuzz_gprof (argc, argv, fuzz_image ("prog64le.elf"),
              profile, 0);
  return 0;
}
