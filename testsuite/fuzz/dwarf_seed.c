/* dwarf_seed.c - compiled by run-fuzz.sh with DWARF 4 and 5 into
   programs small enough for libFuzzer's inputs (under 8 KB): seeds of
   fuzz_core that reach our own reading of the DWARF (dwarf_info.c,
   dwarf_src.c).  An inlined call gives an inlined-subroutine entry.  */

static inline int
square (int x)
{
  return x * x;
}

int
work (int n)
{
  int s = 0;

  for (int i = 0; i < n; i++)
    s += square (i);
  return s;
}

int
main (void)
{
  return work (7);
}
