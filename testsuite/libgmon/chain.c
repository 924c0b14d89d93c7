/* chain.c - a small call graph with known counts (after glibc's
   tst-gmon): main calls f3 once, f3 calls f1 and f2 1000 times each, f2
   calls f1 once per call.  Expected: f1 2000 (1000 from f3, 1000 from
   f2), f2 1000, f3 1.  */

#include <stdio.h>

#define NOINLINE __attribute__ ((noinline, noclone))

NOINLINE int
f1 (int x)
{
  __asm__ volatile ("");
  return x * 3 + 1;
}

/* Something after the call keeps it from becoming a tail call, whose
   arc would be charged to f3.  */
NOINLINE int
f2 (int x)
{
  __asm__ volatile ("");
  return f1 (x) ^ 5;
}

NOINLINE int
f3 (int n)
{
  int s = 0;
  for (int i = 0; i < n; i++)
    s += f1 (i) + f2 (i);
  return s;
}

int
main (void)
{
  printf ("%d\n", f3 (1000));
  return 0;
}
