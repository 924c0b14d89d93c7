/* fuzz_gmon.c - libFuzzer target: profile data files (GNU records with
   histograms, arcs and basic blocks; old BSD and 4.4BSD files), read and
   reported as gprof does, and what else reads or writes from them: the
   diagnosis (which reads the files a second time), the exports, -s, the
   annotated source (-A, -y) with an executable whose DWARF names it.

   Input: five bytes of settings, then the file.  Byte 0: bits 0-1 the
   executable (its byte order and address size decide the layout), bits
   2-3 the -O format, bit 4 -l, bit 5 -s, bit 6 -T, bit 7 two files
   merged.  Byte 1: one report option per bit.  Byte 2: where the data is
   split when two files are merged.  Byte 3: the writers' options
   (fuzz_writer_options in fuzz.h).  Byte 4: bit 0 another set of
   executables for bits 0-1 of byte 0 (DWARF 4 and 5 from gcc, DWARF 5
   from clang, all 64-bit little-endian with line information; the
   fixtures' symbol classes), bit 1 -a, bit 2 -D, bit 3 -p -q; the other
   bits unused.  */

#include "config.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  static const char *const images[2][4] = {
    { "prog64le.elf", "prog32le.elf", "prog64be.elf", "prog32be.elf" },
    { "dwarf4.elf", "dwarf5.elf", "clang5.elf", "classify.elf" }
  };
  static const char *const formats[4] = { NULL, "-Omagic", "-Obsd", "-O4.4bsd" };
  static const char *const reports[8] = {
    "-i", "-C", "-z", "-r", "-b", "-c", "-Q", "-P"
  };
  static const char *const more[3] = { "-a", "-D", "-p" };
  char *argv[40];
  int argc = 0;
  unsigned cfg, rep, writers, extra;
  size_t first;
  Core *core;

  if (size < 5)
    return 0;
  cfg = data[0];
  rep = data[1];
  first = cfg & 0x80 ? (size - 5) * data[2] / 256 : size - 5;
  writers = data[3];
  extra = data[4];
  data += 5;
  size -= 5;
  core = fuzz_image (images[extra & 1][cfg & 3]);
  argv[argc++] = (char *) "gprof";
  if (formats[(cfg >> 2) & 3])
    argv[argc++] = (char *) formats[(cfg >> 2) & 3];
  if (cfg & 0x10)
    argv[argc++] = (char *) "-l";
  if (cfg & 0x20)
    argv[argc++] = (char *) "-s";
  if (cfg & 0x40)
    argv[argc++] = (char *) "-T";
  for (int i = 0; i < 8; i++)
    if (rep & (1u << i))
      argv[argc++] = (char *) reports[i];
  for (int i = 0; i < 3; i++)
    if (extra & (2u << i))
      argv[argc++] = (char *) more[i];
  if (extra & 8)
    argv[argc++] = (char *) "-q";
  argc = fuzz_writer_options (writers, argv, argc);
  argv[argc++] = (char *) "image";
  argv[argc++] = (char *) fuzz_file (0, data, first);
  if (cfg & 0x80)
    argv[argc++] = (char *) fuzz_file (1, data + first, size - first);
  argv[argc] = NULL;
  fuzz_gprof (argc, argv, core, NULL, 0);
  return 0;
}
