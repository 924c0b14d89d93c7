/* deep.c - a chain of forty distinct functions, each calling the next,
   and one function recursing thousands of levels deep.  */

#include <stdio.h>
#include <stdlib.h>

static volatile unsigned long sink;

int step39 (int n);

/* stepI calls stepJ; noinline keeps every link of the chain.  */
#define STEP(i, j)                                                      \
  __attribute__ ((noinline)) int step##i (int n)                        \
  {                                                                     \
    for (int k = 0; k < 20; k++)                                        \
      sink += (unsigned long) k;                                        \
    return step##j (n) + 1;                                             \
  }

__attribute__ ((noinline)) int
step39 (int n)
{
  for (int k = 0; k < 2000; k++)
    sink += (unsigned long) k;
  return n;
}

STEP (38, 39) STEP (37, 38) STEP (36, 37) STEP (35, 36) STEP (34, 35)
STEP (33, 34) STEP (32, 33) STEP (31, 32) STEP (30, 31) STEP (29, 30)
STEP (28, 29) STEP (27, 28) STEP (26, 27) STEP (25, 26) STEP (24, 25)
STEP (23, 24) STEP (22, 23) STEP (21, 22) STEP (20, 21) STEP (19, 20)
STEP (18, 19) STEP (17, 18) STEP (16, 17) STEP (15, 16) STEP (14, 15)
STEP (13, 14) STEP (12, 13) STEP (11, 12) STEP (10, 11) STEP (9, 10)
STEP (8, 9) STEP (7, 8) STEP (6, 7) STEP (5, 6) STEP (4, 5)
STEP (3, 4) STEP (2, 3) STEP (1, 2) STEP (0, 1)

__attribute__ ((noinline)) int
dive (int depth)
{
  sink += (unsigned long) depth;
  return depth == 0 ? 0 : dive (depth - 1) + 1;
}

int
main (int argc, char **argv)
{
  int rounds = argc > 1 ? atoi (argv[1]) : 20000;
  long total = 0;

  for (int i = 0; i < rounds; i++)
    total += step0 (i);
  for (int i = 0; i < 20; i++)
    total += dive (5000);
  printf ("%ld\n", total);
  return 0;
}
