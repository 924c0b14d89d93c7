/* stackfill.c - fill libgmon's table of call stacks with synthetic ones,
   through the insertion the sampling handler uses (gm_stacks_add), so
   that its capacity, its drop count and the size of the stacks file can
   be checked without sampling a program for the 1000 s a million
   distinct stacks would take.  Linked with libgmon.a, whose hidden
   functions a static link reaches.

   usage: stackfill COUNT LEVELS STEP

   Stack s (0 <= s < 2^LEVELS) is a path of a binary recursion LEVELS
   deep under a common prefix of 8 frames: the prefix P0 .. P7
   (outermost first), then at each level one of the recursion's two
   call sites, A for a 0 bit of s and B for a 1, its most significant
   bit outermost.  Its weight is 1 + s % 3 periods.  The i-th stack
   inserted is s = i * STEP mod 2^LEVELS: with an odd STEP all are
   distinct; STEP 1 is the order in which a recursion's samples come.
   The frames are addresses spread over the program's text, as the
   handler's are.  Sampling is stopped first, so that only these go in.

   Prints "frames P0 .. P7 A B" (as the stacks file holds them, relative
   to the load address) and "kept K weight W dropped D": the stacks the
   table took, their weight, and the weight of those it turned down.
   The profile and its stacks are written at exit as usual.  */

#include <stdio.h>
#include <stdlib.h>

#include "gmon.h"
#include "internal.h"

#define PREFIX 8
#define MAX_LEVELS 24

int
main (int argc, char **argv)
{
  if (argc != 4)
    {
      fprintf (stderr, "usage: %s COUNT LEVELS STEP\n", argv[0]);
      return 2;
    }
  unsigned long count = strtoul (argv[1], NULL, 10);
  unsigned levels = (unsigned) atoi (argv[2]);
  unsigned long step = strtoul (argv[3], NULL, 10);
  if (levels < 1 || levels > MAX_LEVELS || step % 2 == 0
      || count > 1ul << levels)
    {
      fprintf (stderr, "%s: bad arguments\n", argv[0]);
      return 2;
    }
  moncontrol (0);

  uintptr_t span = gm_highpc - gm_lowpc, site[PREFIX + 2];
  printf ("frames");
  for (int k = 0; k < PREFIX + 2; k++)
    {
      site[k] = (gm_lowpc + (uintptr_t) (k + 1) * (span / (PREFIX + 3)))
                & ~(uintptr_t) 3;
      printf (" %lu", (unsigned long) (site[k] - gm_exe_base));
    }
  printf ("\n");

  uintptr_t f[PREFIX + MAX_LEVELS];
  unsigned n = PREFIX + levels;
  unsigned long mask = (1ul << levels) - 1, kept = 0;
  unsigned long long weight = 0, dropped = 0;
  for (int k = 0; k < PREFIX; k++)
    f[n - 1 - k] = site[k];
  for (unsigned long i = 0; i < count; i++)
    {
      unsigned long s = i * step & mask;
      uint64_t w = 1 + s % 3;
      /* Level l is bit levels-1-l of s; f is innermost first.  */
      for (unsigned l = 0; l < levels; l++)
        f[levels - 1 - l] = site[PREFIX + (s >> (levels - 1 - l) & 1)];
      if (gm_stacks_add (f, n, w) != NULL)
        {
          kept++;
          weight += w;
        }
      else
        dropped += w;
    }
  printf ("kept %lu weight %llu dropped %llu\n", kept, weight, dropped);
  return 0;
}
