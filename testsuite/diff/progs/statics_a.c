/* statics_a.c - a static function whose name statics_b.c uses too.  */

#include <stdio.h>
#include <stdlib.h>

int b_work (int n);

static volatile unsigned long sink;

static int
helper (int n)
{
  for (int i = 0; i < n * 300; i++)
    sink += (unsigned long) i;
  return n + 1;
}

static int
counter (int n)
{
  return helper (n) + helper (n / 2);
}

int
a_work (int n)
{
  return counter (n) + helper (3);
}

int
main (int argc, char **argv)
{
  int rounds = argc > 1 ? atoi (argv[1]) : 1000;
  long total = 0;

  for (int i = 0; i < rounds; i++)
    total += a_work (i % 50) + b_work (i % 70);
  printf ("%ld\n", total);
  return 0;
}
