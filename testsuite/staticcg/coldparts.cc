// coldparts.cc - C++ whose throw and catch paths g++ -O2 moves into .cold
// parts, in .text.unlikely, which the linker puts at the start of .text,
// before the first function symbol: those calls belong to _init.  Nothing
// is ever thrown, so only -c finds their calls; they call mix and note,
// which main calls too, so that the arcs show without -z.
#include <cstdio>
#include <stdexcept>
#include <string>

static int noted;

__attribute__ ((noinline)) int
mix (int x)
{
  return static_cast<int> (static_cast<unsigned> (x) * 2654435761u >> 7);
}

__attribute__ ((noinline)) void
note (const char *what)
{
  noted += what[0];
}

__attribute__ ((noinline)) int
parse (int x)
{
  if (x < 0)
    throw std::invalid_argument ("negative " + std::to_string (mix (x)));
  return x * 3 + 1;
}

__attribute__ ((noinline)) int
guarded (int x)
{
  try
    {
      return parse (x);
    }
  catch (const std::exception &e)
    {
      note (e.what ());
      return mix (x);
    }
}

int
main (int argc, char **)
{
  long sum = 0;

  for (int i = 0; i < 3000000; i++)
    sum += guarded (argc > 5 ? -i : i & 0xffff) + mix (i);
  note ("done");
  std::printf ("%ld %d\n", sum, noted);
  return 0;
}
