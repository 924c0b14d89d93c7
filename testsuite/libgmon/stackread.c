/* stackread.c - check a stacks file (gmon_out.h) against the synthetic
   stacks stackfill.c put in, decoding it on its own rather than with
   gprof's reader, so that a fault shared by writer and reader shows.

   usage: stackread FILE LEVELS P0 .. P7 A B

   Every stack in the file with a weight is read back from its node to
   the root.  One that starts with P0 must be a stack of stackfill's:
   the prefix P0 .. P7, then LEVELS frames each A or B, giving s; it
   must come once and weigh 1 + s % 3.  Any other stack (a sample taken
   before stackfill stopped sampling) is counted apart.  Prints "found K
   weight W other X dropped D cut C nodes N"; exits 1 when the file is
   malformed or a stack is wrong.  */

#include "stacksfile.h"

#define PREFIX 8
#define MAX_LEVELS 24
#define MAX_DEPTH 4096

int
main (int argc, char **argv)
{
  if (argc != 3 + PREFIX + 2)
    {
      fprintf (stderr, "usage: %s FILE LEVELS P0 .. P7 A B\n", argv[0]);
      return 2;
    }
  unsigned levels = (unsigned) atoi (argv[2]);
  uint64_t site[PREFIX + 2];
  for (int k = 0; k < PREFIX + 2; k++)
    site[k] = strtoull (argv[3 + k], NULL, 10);
  if (levels < 1 || levels > MAX_LEVELS)
    bad ("bad LEVELS");

  StacksFile sf;
  stacks_file_read ("stackread", argv[1], &sf);
  if (sf.depth > MAX_DEPTH)
    bad ("bad header");
  uint32_t *up = sf.up;
  uint64_t *pc = sf.pc, *weight = sf.weight, n = sf.n;
  unsigned char *seen = calloc ((1u << levels) / 8 + 1, 1);
  if (seen == NULL)
    bad ("out of memory");

  unsigned long found = 0, other = 0;
  unsigned long long total = 0;
  uint64_t path[MAX_DEPTH + 1];
  for (uint64_t i = 0; i < n; i++)
    {
      if (weight[i] == 0)
        continue;
      unsigned d = 0;
      for (uint32_t at = (uint32_t) i; at != STACKS_ROOT; at = up[at])
        {
          if (d == MAX_DEPTH)
            bad ("a stack deeper than any");
          path[d++] = pc[at];   /* innermost first */
        }
      if (path[d - 1] != site[0])
        {
          other++;
          continue;
        }
      if (d != PREFIX + levels)
        bad ("a synthetic stack of the wrong depth");
      for (int k = 0; k < PREFIX; k++)
        if (path[d - 1 - k] != site[k])
          bad ("a synthetic stack with a wrong prefix");
      unsigned long s = 0;
      for (unsigned j = 0; j < levels; j++)
        {
          if (path[j] != site[PREFIX] && path[j] != site[PREFIX + 1])
            bad ("a synthetic stack with a frame of neither call site");
          s |= (unsigned long) (path[j] == site[PREFIX + 1]) << j;
        }
      if (seen[s / 8] & 1u << s % 8)
        bad ("a synthetic stack twice");
      seen[s / 8] |= (unsigned char) (1u << s % 8);
      if (weight[i] != 1 + s % 3)
        bad ("a synthetic stack with the wrong weight");
      found++;
      total += weight[i];
    }
  printf ("found %lu weight %llu other %lu dropped %llu cut %llu nodes %llu\n",
          found, total, other, (unsigned long long) sf.dropped,
          (unsigned long long) sf.cut, (unsigned long long) n);
  free (seen);
  stacks_file_free (&sf);
  return 0;
}
