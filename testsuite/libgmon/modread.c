/* modread.c - the test's own decoder of a profile and its .modules file
   (gmon_out.h), independent of gprof's reader.

   usage: modread PROFILE
     Built for the profiled program's architecture (its address width
     and byte order); the profile must be in the GNU format.

   Checks that PROFILE.modules goes with PROFILE (its hash) and that
   every field is sound, then prints, one per line, the modules first:
     module I FLAGS LOADS PATH BUILD-ID-HEX   (BUILD-ID "-" if none)
     samples I N        periods in module I's bins (I > 0)
     arc FROM-MOD FROM-ADDR SELF-MOD SELF-ADDR COUNT   (decimal file addresses)
   the arcs of the profile itself as module 0's at both ends.  Exit 1
   with a message on anything malformed.  */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../gmon_out.h"

static const unsigned char *p, *end;

static void
bad (const char *what)
{
  fprintf (stderr, "modread: %s\n", what);
  exit (1);
}

static unsigned char *
slurp (const char *path, size_t *size)
{
  FILE *f = fopen (path, "rb");
  if (f == NULL)
    bad ("cannot open a file");
  fseek (f, 0, SEEK_END);
  long n = ftell (f);
  rewind (f);
  unsigned char *buf = malloc (n > 0 ? (size_t) n : 1);
  if (buf == NULL || fread (buf, 1, (size_t) n, f) != (size_t) n)
    bad ("cannot read a file");
  fclose (f);
  *size = (size_t) n;
  return buf;
}

static uint64_t
leb (void)
{
  uint64_t v = 0;
  for (int shift = 0; shift < 64; shift += 7)
    {
      if (p == end)
        bad ("unexpected end of the .modules file");
      unsigned char c = *p++;
      v |= (uint64_t) (c & 0x7f) << shift;
      if (!(c & 0x80))
        return v;
    }
  bad ("a number over 64 bits");
  return 0;
}

static uint64_t
word (const unsigned char *q, int w)
{
  uint64_t v = 0;
  if (w == 4)
    {
      uint32_t v32;
      memcpy (&v32, q, 4);
      return v32;
    }
  memcpy (&v, q, 8);
  return v;
}

/* The profile's arcs, as module 0's.  */
static void
profile_arcs (const unsigned char *b, size_t size, int w)
{
  const unsigned char *q = b + GMON_HEADER_SIZE, *e = b + size;
  if (size < GMON_HEADER_SIZE || memcmp (b, GMON_MAGIC, 4) != 0)
    bad ("the profile is not in the GNU format");
  while (q < e)
    {
      int tag = *q++;
      if (tag == GMON_TAG_TIME_HIST)
        {
          if (e - q < 2 * w + 8 + GMON_HIST_DIMEN_LEN + 1)
            bad ("a short histogram record");
          uint32_t nbins = (uint32_t) word (q + 2 * w, 4);
          q += 2 * w + 8 + GMON_HIST_DIMEN_LEN + 1 + 2 * (size_t) nbins;
        }
      else if (tag == GMON_TAG_CG_ARC)
        {
          if (e - q < 2 * w + 4)
            bad ("a short arc record");
          printf ("arc 0 %llu 0 %llu %llu\n",
                  (unsigned long long) word (q, w),
                  (unsigned long long) word (q + w, w),
                  (unsigned long long) word (q + 2 * w, 4));
          q += 2 * w + 4;
        }
      else
        bad ("an unknown record in the profile");
    }
  if (q != e)
    bad ("the profile's last record is cut");
}

int
main (int argc, char **argv)
{
  if (argc != 2)
    {
      fprintf (stderr, "usage: modread PROFILE\n");
      return 2;
    }
  int w = (int) sizeof (void *);
  size_t psize, msize;
  unsigned char *prof = slurp (argv[1], &psize);
  char *mpath = malloc (strlen (argv[1]) + sizeof GMON_MODULES_SUFFIX);
  if (mpath == NULL)
    bad ("out of memory");
  strcpy (mpath, argv[1]);
  strcat (mpath, GMON_MODULES_SUFFIX);
  unsigned char *mod = slurp (mpath, &msize);

  p = mod;
  end = mod + msize;
  if (msize < 4 || memcmp (p, GMON_MODULES_MAGIC, 4) != 0)
    bad ("bad magic");
  p += 4;
  if (leb () != GMON_MODULES_VERSION)
    bad ("not version 1");
  if (leb () != gmon_stacks_hash (GMON_STACKS_HASH_INIT, prof, psize))
    bad ("the .modules file is not the profile's (hash)");
  uint64_t n = leb ();
  if (n == 0 || n > msize)
    bad ("bad module count");
  uint64_t *lo = calloc (n, sizeof *lo), *hi = calloc (n, sizeof *hi);
  uint64_t *samples = calloc (n, sizeof *samples);
  if (lo == NULL || hi == NULL || samples == NULL)
    bad ("out of memory");
  for (uint64_t i = 0; i < n; i++)
    {
      uint64_t flags = leb (), loads = leb ();
      (void) leb ();            /* base */
      lo[i] = leb ();
      hi[i] = leb ();
      uint64_t len = leb ();
      if (flags & ~(uint64_t) GMON_MODULE_UNLOADED || loads == 0
          || lo[i] >= hi[i] || len > (uint64_t) (end - p))
        bad ("a bad module");
      printf ("module %llu %llu %llu %.*s ", (unsigned long long) i,
              (unsigned long long) flags, (unsigned long long) loads,
              (int) len, (const char *) p);
      p += len;
      len = leb ();
      if (len > (uint64_t) (end - p))
        bad ("a bad build-id");
      for (uint64_t k = 0; k < len; k++)
        printf ("%02x", p[k]);
      printf ("%s\n", len ? "" : "-");
      p += len;
    }
  profile_arcs (prof, psize, w);
  uint64_t nbins = leb ();
  uint64_t last_mod = 0, addr = 0;
  for (uint64_t i = 0; i < nbins; i++)
    {
      uint64_t m = leb ();
      if (m >= n || m == 0 || (i > 0 && m < last_mod))
        bad ("a bin of no module, of module 0, or out of order");
      if (i == 0 || m != last_mod)
        addr = 0;
      addr += leb ();
      uint64_t c = leb ();
      if (addr < lo[m] || addr + GMON_MODULE_BIN > hi[m] || c == 0)
        bad ("a bin outside its module's code, or empty");
      samples[m] += c;
      last_mod = m;
    }
  for (uint64_t i = 1; i < n; i++)
    if (samples[i] != 0)
      printf ("samples %llu %llu\n", (unsigned long long) i,
              (unsigned long long) samples[i]);
  uint64_t narcs = leb ();
  for (uint64_t i = 0; i < narcs; i++)
    {
      uint64_t fm = leb (), fa = leb (), sm = leb (), sa = leb (), c = leb ();
      if (fm >= n || sm >= n || (fm == 0 && sm == 0) || c == 0)
        bad ("a bad arc");
      printf ("arc %llu %llu %llu %llu %llu\n", (unsigned long long) fm,
              (unsigned long long) fa, (unsigned long long) sm,
              (unsigned long long) sa, (unsigned long long) c);
    }
  if (p != end)
    bad ("bytes after the last arc");
  return 0;
}
