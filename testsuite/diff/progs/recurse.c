/* recurse.c - recursion, mutual recursion, nested cycles, and a cycle
   reached from several callers.  The argument scales the work, so that
   runs with different arguments give different profiles to merge.  */

#include <stdio.h>
#include <stdlib.h>

static volatile unsigned long sink;

/* Burn a little time so that the histogram has something to show.  */
static void
spin (unsigned n)
{
  for (unsigned i = 0; i < n; i++)
    sink += i;
}

int
fib (int n)
{
  spin (40);
  return n < 2 ? n : fib (n - 1) + fib (n - 2);
}

int is_odd (int n);

int
is_even (int n)
{
  spin (100);
  return n == 0 ? 1 : is_odd (n - 1);
}

int
is_odd (int n)
{
  spin (100);
  return n == 0 ? 0 : is_even (n - 1);
}

/* Three functions in one cycle made of two smaller ones:
   outer <-> middle and middle <-> inner, inner also calling itself.  */
int middle (int n);
int inner (int n);

int
outer (int n)
{
  spin (200);
  return n <= 0 ? 0 : middle (n - 1) + 1;
}

int
middle (int n)
{
  spin (200);
  if (n <= 0)
    return 0;
  return n % 3 ? inner (n - 1) : outer (n - 1);
}

int
inner (int n)
{
  spin (300);
  if (n <= 0)
    return 0;
  return n % 2 ? middle (n - 1) : inner (n - 2);
}

/* Two callers enter both cycles at different members.  */
int
caller_a (int n)
{
  return is_even (n) + outer (n);
}

int
caller_b (int n)
{
  return is_odd (n) + middle (n);
}

int
main (int argc, char **argv)
{
  int rounds = argc > 1 ? atoi (argv[1]) : 300;
  long total = 0;

  for (int i = 0; i < rounds; i++)
    {
      total += fib (12 + i % 4);
      total += caller_a (i % 40);
      total += caller_b (i % 30);
    }
  printf ("%ld\n", total);
  return 0;
}
