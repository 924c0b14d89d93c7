/* partial_lib.c - compiled without -pg: its functions are never counted,
   but the histogram sees them and calls from them are recorded.  */

static volatile unsigned long sink;

long
lib_sum (int n, long (*cb) (int))
{
  long s = 0;

  for (int i = 0; i < n; i++)
    s += cb (i);
  return s;
}

long
lib_heavy (int n)
{
  for (int i = 0; i < n * 100; i++)
    sink += (unsigned long) i;
  return n;
}
