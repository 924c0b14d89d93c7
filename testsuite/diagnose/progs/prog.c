/* prog.c - the program the --diagnose tests profile: main calls work,
   work calls helper; idle is never called.  work is long enough for an
   address deep inside it (the "callee far from its start" case).  */

volatile int sink;

int
helper (int x)
{
  return x * 3 + 1;
}

int
work (int n)
{
  int s = 0;

  for (int i = 0; i < n; i++)
    {
      s += helper (i);
      s ^= s >> 3;
      s += i * 7;
      s ^= s << 5;
      s -= i / 3;
      s ^= s >> 11;
      sink = s;
    }
  return s;
}

int
idle (void)
{
  return sink * 2;
}

int
main (int argc, char **argv)
{
  (void) argv;
  return work (argc * 1000) & 1;
}
