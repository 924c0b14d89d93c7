/* fuzz_map.c - libFuzzer target: -R, the map of functions to object
   files, and the file ordering made with it (or, with an export or the
   diagnosis, what they write instead).

   Input: one byte of settings, the writers' options (fuzz_writer_options
   in fuzz.h), then the map file.  The executable is opened for every
   input, since core_read_symbols reads the map.  */

#include "config.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  static char *image, *profile;
  char *argv[24];
  int argc = 0;

  if (size < 1)
    return 0;
  if (!image)
    {
      image = (char *) fuzz_fixture ("prog64le.elf");
      profile = (char *) fuzz_fixture ("gnu-64le.gmon");
    }
  argv[argc++] = (char *) "gprof";
  argc = fuzz_writer_options (data[0], argv, argc);
  argv[argc++] = (char *) "-R";
  argv[argc++] = (char *) fuzz_file (0, data + 1, size - 1);
  argv[argc++] = image;
  argv[argc++] = profile;
  argv[argc] = NULL;
  fuzz_gprof (argc, argv, NULL, NULL, 0);
  return 0;
}
