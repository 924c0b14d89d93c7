/* never.c - functions that are never called (shown only with -z), one
   called once, and one that does all the work.  */

#include <stdio.h>
#include <stdlib.h>

static volatile unsigned long sink;

int
never_called (int n)
{
  return n * 3;
}

__attribute__ ((noinline)) int
also_never (int n)
{
  return never_called (n) + 1;
}

__attribute__ ((noinline)) int
once (int n)
{
  return n + 1;
}

__attribute__ ((noinline)) void
work (int n)
{
  for (int i = 0; i < n; i++)
    sink += (unsigned long) i * 7;
}

int
main (int argc, char **argv)
{
  int rounds = argc > 1 ? atoi (argv[1]) : 4000;

  for (int i = 0; i < rounds; i++)
    work (20000);
  printf ("%d\n", once (rounds));
  /* Referenced, so that no optimisation removes them; never true.  */
  if (argc > 99)
    return also_never (argc);
  return 0;
}
