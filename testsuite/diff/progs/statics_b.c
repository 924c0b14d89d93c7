/* statics_b.c - the other static helper, and a static never called.  */

static volatile unsigned long sink;

static int
helper (int n)
{
  for (int i = 0; i < n * 500; i++)
    sink ^= (unsigned long) i;
  return n * 2;
}

__attribute__ ((used)) static int
unused_static (int n)
{
  return n - 1;
}

int
b_work (int n)
{
  return helper (n) + helper (n + 1);
}
