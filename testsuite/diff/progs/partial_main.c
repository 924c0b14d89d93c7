/* partial_main.c - compiled with -pg; calls into partial_lib.c, which is
   compiled without it, and is called back from there.  */

#include <stdio.h>
#include <stdlib.h>

long lib_sum (int n, long (*cb) (int));
long lib_heavy (int n);

static volatile unsigned long sink;

long
profiled_cb (int i)
{
  for (int k = 0; k < 100; k++)
    sink += (unsigned long) k;
  return i % 7;
}

long
profiled_driver (int n)
{
  return lib_sum (n, profiled_cb) + lib_heavy (n);
}

int
main (int argc, char **argv)
{
  int rounds = argc > 1 ? atoi (argv[1]) : 600;
  long total = 0;

  for (int i = 0; i < rounds; i++)
    total += profiled_driver (200 + i % 50);
  printf ("%ld\n", total);
  return 0;
}
