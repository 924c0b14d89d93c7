/* fuzz_side.c - libFuzzer target: the files libgmon writes beside a
   profile, read as gprof reads them: <profile>.stacks (the measured call
   graph, the exports' stacks, the diagnosis, -s adding them up),
   <profile>.snap (--since, which subtracts one snapshot from another)
   and <profile>.modules (--whole-process, the diagnosis).
   The profiles are the fixture generator's gnu-64le.gmon, with
   prog64le.elf.

   Input: two bytes of settings, then the data.  Byte 0: bit 0 .snap
   files (else .stacks); bit 1 the data as it is (else the target puts
   in the profile's hash, which nearly every input would get wrong, so
   that the rest of the file is read); bit 2 --measured-time; bit 3 -s;
   bit 4 .modules (else .stacks), with --whole-process unless bit 5
   (the diagnosis reads it on its own).  Byte 1: the writers' options
   (fuzz_writer_options in fuzz.h).

   .stacks and .modules: the data is the file; without bit 1, what
   follows the magic, the version and the hash (for .stacks the depth,
   the counts, the nodes; for .modules the modules, bins and arcs).
   .snap: the data up to its first NUL byte is EARLIER's record, the
   rest LATER's; both profiles hold the same counts, and without bit 1
   each record gets a "profile" line with the profile's hash.  */

#include "config.h"
#include "fuzz.h"
#include "gmon_out.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

/* The fixture profile's bytes and their hash, read once.  */
static uint8_t *profile;
static size_t profile_size;
static unsigned long long profile_hash;

static void
read_profile (void)
{
  static const char *path;
  FILE *f;

  path = fuzz_fixture ("gnu-64le.gmon");
  f = fopen (path, "rb");
  long n;

  if (!f || fseek (f, 0, SEEK_END) != 0 || (n = ftell (f)) <= 0
      || fseek (f, 0, SEEK_SET) != 0
      || !(profile = malloc ((size_t) n))
      || fread (profile, 1, (size_t) n, f) != (size_t) n)
    abort ();
  fclose (f);
  profile_size = (size_t) n;
  profile_hash = gmon_stacks_hash (GMON_STACKS_HASH_INIT, profile,
                                   profile_size);
}

/* BODY (SIZE bytes) after MAGIC (4 bytes), VERSION and the profile's
   hash, in a new block.  */
static uint8_t *
leb_file (const char *magic, unsigned version, const uint8_t *body,
          size_t size, size_t *out_size)
{
  uint8_t *p = malloc (4 + 11 + size);
  size_t n = 4;
  unsigned long long v = profile_hash;

  if (!p)
    abort ();
  memcpy (p, magic, 4);
  p[n++] = (uint8_t) version;
  for (; v >= 0x80; v >>= 7)
    p[n++] = (uint8_t) (v | 0x80);
  p[n++] = (uint8_t) v;
  if (size)
    memcpy (p + n, body, size);
  *out_size = n + size;
  return p;
}

static uint8_t *
stacks_file (const uint8_t *body, size_t size, size_t *out_size)
{
  return leb_file (GMON_STACKS_MAGIC, GMON_STACKS_VERSION, body, size,
                   out_size);
}

static uint8_t *
modules_file (const uint8_t *body, size_t size, size_t *out_size)
{
  return leb_file (GMON_MODULES_MAGIC, GMON_MODULES_VERSION, body, size,
                   out_size);
}

/* TEXT (SIZE bytes) followed by the profile's hash line, in a new
   block.  */
static uint8_t *
snap_file (const uint8_t *text, size_t size, size_t *out_size)
{
  char line[40];
  int len = snprintf (line, sizeof line, "profile %llx\n", profile_hash);
  uint8_t *p = malloc (size + (size_t) len);

  if (!p)
    abort ();
  if (size)
    memcpy (p, text, size);
  memcpy (p + size, line, (size_t) len);
  *out_size = size + (size_t) len;
  return p;
}

/* Write the file NAME beside a profile: DATA as it is if RAW, else
   through MAKE.  */
static void
side_file (int slot, const char *name, const uint8_t *data, size_t size,
           int raw, uint8_t *(*make) (const uint8_t *, size_t, size_t *))
{
  uint8_t *p;
  size_t n;

  if (raw)
    {
      fuzz_scratch_file (slot, name, data, size);
      return;
    }
  p = make (data, size, &n);
  fuzz_scratch_file (slot, name, p, n);
  free (p);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  char *argv[32];
  char since[PATH_MAX + 16];
  int argc = 0;
  unsigned cfg;
  int raw;

  if (!profile)
    read_profile ();
  if (size < 2)
    return 0;
  cfg = data[0];
  raw = (cfg & 2) != 0;
  argv[argc++] = (char *) "gprof";
  if (cfg & 4)
    argv[argc++] = (char *) "--measured-time";
  if (cfg & 8)
    argv[argc++] = (char *) "-s";
  argc = fuzz_writer_options (data[1], argv, argc);
  data += 2;
  size -= 2;
  if (cfg & 1)
    {
      const uint8_t *nul = memchr (data, '\0', size);
      size_t first = nul ? (size_t) (nul - data) : size;
      const char *earlier = fuzz_scratch_file (0, "earlier", profile,
                                               profile_size);

      snprintf (since, sizeof since, "--since=%s", earlier);
      argv[argc++] = since;
      side_file (1, "earlier.snap", data, first, raw, snap_file);
      side_file (2, "later.snap", data + first + (nul != NULL),
                 size - first - (nul != NULL), raw, snap_file);
      argv[argc++] = (char *) "image";
      argv[argc++] = (char *) fuzz_scratch_file (3, "later", profile,
                                                 profile_size);
    }
  else if (cfg & 16)
    {
      if (!(cfg & 32))
        argv[argc++] = (char *) "--whole-process";
      side_file (1, "gmon.out.modules", data, size, raw, modules_file);
      argv[argc++] = (char *) "image";
      argv[argc++] = (char *) fuzz_scratch_file (0, "gmon.out", profile,
                                                 profile_size);
    }
  else
    {
      side_file (1, "gmon.out.stacks", data, size, raw, stacks_file);
      argv[argc++] = (char *) "image";
      argv[argc++] = (char *) fuzz_scratch_file (0, "gmon.out", profile,
                                                 profile_size);
    }
  argv[argc] = NULL;
  fuzz_gprof (argc, argv, fuzz_image ("prog64le.elf"), NULL, 0);
  return 0;
}
