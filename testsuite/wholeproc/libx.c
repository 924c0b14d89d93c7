/* libx.c - the shared library of the --whole-process tests (built as
   libx.so, libx2.so and liby.so).  */

int cb (int x);

static int
hidden (int n)
{
  return n * 5 + 1;
}

int
xg (int n)
{
  int s = 0;

  for (int i = 0; i < n; i++)
    s += cb (i) + hidden (i);
  return s;
}

static int after (int n);

int
xf (int n)
{
  return xg (n) + after (n);
}

/* Static and after an exported function: a library stripped to its
   dynamic symbols has no name for it.  */
static int
after (int n)
{
  return n & 1;
}
