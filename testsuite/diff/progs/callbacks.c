/* callbacks.c - calls through function pointers: a dispatch table, a
   comparator called back by the C library's qsort, and a callback
   passed down two levels.  */

#include <stdio.h>
#include <stdlib.h>

static volatile unsigned long sink;

typedef int (*op_fn) (int, int);

static int
op_add (int a, int b)
{
  return a + b;
}

static int
op_mul (int a, int b)
{
  for (int i = 0; i < 50; i++)
    sink += (unsigned long) i;
  return a * b;
}

static int
op_xor (int a, int b)
{
  return a ^ b;
}

static const op_fn table[] = { op_add, op_mul, op_xor };

int
cmp_int (const void *a, const void *b)
{
  int x = *(const int *) a, y = *(const int *) b;

  return (x > y) - (x < y);
}

void
for_each (int *v, int n, void (*fn) (int *))
{
  for (int i = 0; i < n; i++)
    fn (&v[i]);
}

static void
bump (int *x)
{
  for (int i = 0; i < 200; i++)
    sink += (unsigned long) i;
  *x += 1;
}

void
apply_twice (int *v, int n, void (*fn) (int *))
{
  for_each (v, n, fn);
  for_each (v, n, fn);
}

int
main (int argc, char **argv)
{
  int rounds = argc > 1 ? atoi (argv[1]) : 200;
  int v[500];
  long total = 0;

  for (int r = 0; r < rounds; r++)
    {
      for (int i = 0; i < 500; i++)
        v[i] = (i * 7919 + r) % 1000;
      qsort (v, 500, sizeof v[0], cmp_int);
      apply_twice (v, 500, bump);
      for (int i = 0; i < 300; i++)
        total += table[i % 3] (v[i], r);
    }
  printf ("%ld\n", total);
  return 0;
}
