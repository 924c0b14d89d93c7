/* walkread.c - print the call stacks of a stacks file (gmon_out.h) as
   addresses, for walk.sh to check against the program's symbols.  It
   decodes the file on its own rather than with gprof's reader, which
   would name each frame by the nearest symbol below it: a frame
   outside every function would pass unseen.

   usage: walkread FILE

   Prints "depth D dropped X cut C", then a line a stack with a weight:
   the weight, then its frames, innermost first, in hex.  Exits 1 when
   the file is malformed.  */

#include "../libgmon/stacksfile.h"

int
main (int argc, char **argv)
{
  if (argc != 2)
    {
      fprintf (stderr, "usage: %s FILE\n", argv[0]);
      return 2;
    }
  StacksFile sf;
  stacks_file_read ("walkread", argv[1], &sf);
  printf ("depth %llu dropped %llu cut %llu\n", (unsigned long long) sf.depth,
          (unsigned long long) sf.dropped, (unsigned long long) sf.cut);
  for (uint64_t i = 0; i < sf.n; i++)
    {
      if (sf.weight[i] == 0)
        continue;
      printf ("%llu", (unsigned long long) sf.weight[i]);
      for (uint32_t at = (uint32_t) i; at != STACKS_ROOT; at = sf.up[at])
        printf (" %llx", (unsigned long long) sf.pc[at]);
      putchar ('\n');
    }
  stacks_file_free (&sf);
  return 0;
}
