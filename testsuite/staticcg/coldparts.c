/* coldparts.c - functions whose unlikely paths gcc -O2 moves into .cold
   parts, in .text.unlikely, which the linker puts at the start of .text,
   before the first function symbol: those calls belong to _init.  The
   unlikely paths are never taken, so only -c finds their calls; one
   calls mix, which main calls too, so that the arc shows without -z.  */
#include <stdio.h>
#include <stdlib.h>

/* Cold, which makes the paths that call it cold; but in .text with the
   other functions, so that no function symbol precedes the .cold parts.  */
__attribute__ ((cold, noinline, section (".text.report"))) void
report (const char *what, int x)
{
  fprintf (stderr, "%s: %d\n", what, x);
}

__attribute__ ((noinline)) int
mix (int x)
{
  return (int) ((unsigned) x * 2654435761u >> 7);
}

__attribute__ ((noinline)) int
scale (int x)
{
  if (x < 0)
    {
      report ("negative", mix (x));
      exit (1);
    }
  return x * 3 + 1;
}

__attribute__ ((noinline)) int
check (int x, int limit)
{
  if (x > limit)
    {
      report ("too big", x);
      return mix (limit);
    }
  return x;
}

int
main (int argc, char **argv)
{
  long sum = 0;

  (void) argv;
  for (int i = 0; i < 3000000; i++)
    sum += scale (check (i & 0xffff, 0x10000 * argc)) + mix (i);
  printf ("%ld\n", sum);
  return 0;
}
