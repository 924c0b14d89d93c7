/* walkread.c - print the call stacks of a stacks file (gmon_out.h) as
   addresses, for walk.sh to check against the program's symbols.  It
   decodes the file on its own rather than with gprof's reader, which
   would name each frame by the nearest symbol below it: a frame
   outside every function would pass unseen.

   usage: walkread FILE

   Prints "depth D dropped X cut C", then a line a stack with a weight:
   the weight, then its frames, innermost first, in hex.  Exits 1 when
   the file is malformed.  */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROOT UINT32_MAX

static const unsigned char *p, *end;

static void
bad (const char *what)
{
  fprintf (stderr, "walkread: %s\n", what);
  exit (1);
}

static uint64_t
leb (void)
{
  uint64_t v = 0;
  for (int shift = 0; shift < 64; shift += 7)
    {
      if (p == end)
        bad ("unexpected end of file");
      unsigned char c = *p++;
      v |= (uint64_t) (c & 0x7f) << shift;
      if (!(c & 0x80))
        return v;
    }
  bad ("a number over 64 bits");
  return 0;
}

int
main (int argc, char **argv)
{
  if (argc != 2)
    {
      fprintf (stderr, "usage: %s FILE\n", argv[0]);
      return 2;
    }
  FILE *f = fopen (argv[1], "rb");
  if (f == NULL)
    bad ("cannot open the file");
  fseek (f, 0, SEEK_END);
  long size = ftell (f);
  rewind (f);
  unsigned char *buf = malloc (size > 0 ? (size_t) size : 1);
  if (buf == NULL || fread (buf, 1, (size_t) size, f) != (size_t) size)
    bad ("cannot read the file");
  fclose (f);
  p = buf;
  end = buf + size;

  if (size < 4 || memcmp (p, "gstk", 4) != 0)
    bad ("bad magic");
  p += 4;
  if (leb () != 1)
    bad ("not version 1");
  (void) leb ();                /* the profile's hash */
  uint64_t depth = leb (), dropped = leb (), cut = leb (), n = leb ();
  if (depth == 0 || n > (uint64_t) (end - p) / 3)
    bad ("bad header");
  uint32_t *up = malloc ((n ? n : 1) * sizeof *up);
  uint64_t *pc = malloc ((n ? n : 1) * sizeof *pc);
  uint64_t *weight = malloc ((n ? n : 1) * sizeof *weight);
  uint32_t *len = malloc ((n ? n : 1) * sizeof *len);
  if (up == NULL || pc == NULL || weight == NULL || len == NULL)
    bad ("out of memory");
  for (uint64_t i = 0; i < n; i++)
    {
      uint64_t back = leb ();
      if (back > i)
        bad ("a node's parent is not before it");
      up[i] = back ? (uint32_t) (i - back) : ROOT;
      len[i] = back ? len[up[i]] + 1 : 1;
      if (len[i] > depth)
        bad ("a stack deeper than the file's depth");
      pc[i] = leb ();
      weight[i] = leb ();
    }
  if (p != end)
    bad ("bytes after the last node");

  printf ("depth %llu dropped %llu cut %llu\n", (unsigned long long) depth,
          (unsigned long long) dropped, (unsigned long long) cut);
  for (uint64_t i = 0; i < n; i++)
    {
      if (weight[i] == 0)
        continue;
      printf ("%llu", (unsigned long long) weight[i]);
      for (uint32_t at = (uint32_t) i; at != ROOT; at = up[at])
        printf (" %llx", (unsigned long long) pc[at]);
      putchar ('\n');
    }
  free (len);
  free (weight);
  free (pc);
  free (up);
  free (buf);
  return 0;
}
