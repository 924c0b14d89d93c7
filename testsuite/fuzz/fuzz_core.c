/* fuzz_core.c - libFuzzer target: the executable, read through BFD by
   corefile.c (symbols, our own read of the ELF string table, the .text
   contents; our own reading of the DWARF for source positions, of every
   function and with -l of every line; the x86 instruction decoder with
   -c), and what reads it again or writes from its symbols and lines: the
   annotated source (-A, -y: the DWARF names the source), the diagnosis
   (its own look at the symbols and .dynstr), the exports, -s.

   Input: five bytes of settings, the executable, then the profile.
   Byte 0: bit 0 -l, bit 1 -a, bit 2 -D, bit 3 -c, bit 4 -z, bit 5 -T,
   bit 6 -i, bit 7 -b.  Byte 1: the writers' options (fuzz_writer_options
   in fuzz.h).  Byte 2: bit 0 -C, bit 1 -s, bit 2 -r, bit 3 -p -q; the
   other bits unused.  Bytes 3 and 4: the profile's length N, little
   endian: the last N bytes of the input (all that follows the settings
   if fewer); with N = 0 the profile is one without records, which fits
   every executable.  */

#include "config.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  static const char *const opts[8] = { "-l", "-a", "-D", "-c", "-z", "-T", "-i", "-b" };
  static const char *const more[4] = { "-C", "-s", "-r", "-p" };
  static char *empty;
  char *argv[32];
  const char *profile;
  int argc = 0;
  size_t nprof;

  if (size < 5)
    return 0;
  if (!empty)
    empty = (char *) fuzz_fixture ("empty.gmon");
  argv[argc++] = (char *) "gprof";
  for (int i = 0; i < 8; i++)
    if (data[0] & (1u << i))
      argv[argc++] = (char *) opts[i];
  argc = fuzz_writer_options (data[1], argv, argc);
  for (int i = 0; i < 4; i++)
    if (data[2] & (1u << i))
      argv[argc++] = (char *) more[i];
  if (data[2] & 8)
    argv[argc++] = (char *) "-q";
  nprof = data[3] | (size_t) data[4] << 8;
  data += 5;
  size -= 5;
  if (nprof > size)
    nprof = size;
  argv[argc++] = (char *) fuzz_file (0, data, size - nprof);
  profile = nprof ? fuzz_file (1, data + size - nprof, nprof) : empty;
  argv[argc++] = (char *) profile;
  argv[argc] = NULL;
  fuzz_gprof (argc, argv, NULL, NULL, 0);
  return 0;
}
