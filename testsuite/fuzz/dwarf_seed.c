/* dwarf_seed.c - compiled by fixtures.sh with DWARF 4 and 5 (gcc) and 5
   (clang) into programs small enough for libFuzzer's inputs (under
   8 KB): seeds of fuzz_core that reach our reading of the DWARF
   (dwarf/dwarf_src.c, through libdw), and executables of fuzz_gmon and
   fuzz_options whose DWARF names a source file -A finds (this one,
   copied into the fixtures).  An inlined call gives an
   inlined-subroutine entry.  */

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
