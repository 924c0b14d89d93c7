/* other.c - another program, bigger than prog.c: its profiles do not
   belong to prog.  */

volatile long sink;

static long
step (long x)
{
  return x * 31 + 7;
}

static long
mix (long a, long b)
{
  long r = a;

  for (int i = 0; i < 8; i++)
    r = (r << 3) ^ (b >> i) ^ step (r + i);
  return r;
}

static long
fold (const long *v, int n)
{
  long r = 0;

  for (int i = 0; i < n; i++)
    r = mix (r, v[i]) + step (v[i]);
  return r;
}

long
compute (int n)
{
  long v[64];

  for (int i = 0; i < 64; i++)
    v[i] = step (i * n);
  for (int k = 0; k < n; k++)
    sink += fold (v, 64) ^ mix (k, sink);
  return sink;
}

int
main (int argc, char **argv)
{
  (void) argv;
  return (int) (compute (argc * 10) & 1);
}
