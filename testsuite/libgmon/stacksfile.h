/* stacksfile.h - the tests' own decoder of a stacks file (gmon_out.h),
   independent of gprof's reader, so that a fault shared by libgmon's
   writer and gprof's reader shows.  For stackread.c and walkread.c;
   each defines its program's name as the first argument of
   stacks_file_read.  */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STACKS_ROOT UINT32_MAX

typedef struct StacksFile
{
  uint64_t depth, dropped, cut, n;
  uint32_t *up;                 /* a node's parent, or STACKS_ROOT */
  uint64_t *pc, *weight;
  unsigned char *buf;
} StacksFile;

static const char *stacks_who;
static const unsigned char *stacks_p, *stacks_end;

static void
bad (const char *what)
{
  fprintf (stderr, "%s: %s\n", stacks_who, what);
  exit (1);
}

static uint64_t
stacks_leb (void)
{
  uint64_t v = 0;
  for (int shift = 0; shift < 64; shift += 7)
    {
      if (stacks_p == stacks_end)
        bad ("unexpected end of file");
      unsigned char c = *stacks_p++;
      v |= (uint64_t) (c & 0x7f) << shift;
      if (!(c & 0x80))
        return v;
    }
  bad ("a number over 64 bits");
  return 0;
}

/* Read PATH into SF; exit 1 with a message naming WHO when it is
   malformed.  */
static void
stacks_file_read (const char *who, const char *path, StacksFile *sf)
{
  stacks_who = who;
  FILE *f = fopen (path, "rb");
  if (f == NULL)
    bad ("cannot open the file");
  fseek (f, 0, SEEK_END);
  long size = ftell (f);
  rewind (f);
  sf->buf = malloc (size > 0 ? (size_t) size : 1);
  if (sf->buf == NULL || fread (sf->buf, 1, (size_t) size, f) != (size_t) size)
    bad ("cannot read the file");
  fclose (f);
  stacks_p = sf->buf;
  stacks_end = sf->buf + size;

  if (size < 4 || memcmp (stacks_p, "gstk", 4) != 0)
    bad ("bad magic");
  stacks_p += 4;
  if (stacks_leb () != 1)
    bad ("not version 1");
  (void) stacks_leb ();         /* the profile's hash */
  sf->depth = stacks_leb ();
  sf->dropped = stacks_leb ();
  sf->cut = stacks_leb ();
  sf->n = stacks_leb ();
  uint64_t n = sf->n;
  if (sf->depth == 0 || n > (uint64_t) (stacks_end - stacks_p) / 3)
    bad ("bad header");
  sf->up = malloc ((n ? n : 1) * sizeof *sf->up);
  sf->pc = malloc ((n ? n : 1) * sizeof *sf->pc);
  sf->weight = malloc ((n ? n : 1) * sizeof *sf->weight);
  uint32_t *len = malloc ((n ? n : 1) * sizeof *len);
  if (sf->up == NULL || sf->pc == NULL || sf->weight == NULL || len == NULL)
    bad ("out of memory");
  for (uint64_t i = 0; i < n; i++)
    {
      uint64_t back = stacks_leb ();
      if (back > i)
        bad ("a node's parent is not before it");
      sf->up[i] = back ? (uint32_t) (i - back) : STACKS_ROOT;
      len[i] = back ? len[sf->up[i]] + 1 : 1;
      if (len[i] > sf->depth)
        bad ("a stack deeper than the file's depth");
      sf->pc[i] = stacks_leb ();
      sf->weight[i] = stacks_leb ();
    }
  if (stacks_p != stacks_end)
    bad ("bytes after the last node");
  free (len);
}

static void
stacks_file_free (StacksFile *sf)
{
  free (sf->weight);
  free (sf->pc);
  free (sf->up);
  free (sf->buf);
}
