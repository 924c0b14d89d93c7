/* work.c - a deterministic program for calibrating gprof --diff: the
   same work on every run, split over four functions of different
   weights; argv[1] makes hot's share slower by that fraction (0.05: 5%),
   argv[2] scales all the work.  */
#include <stdlib.h>

static volatile unsigned sink;

static unsigned
spin (unsigned n)
{
  unsigned x = 1;

  for (unsigned i = 0; i < n; i++)
    x = x * 1103515245u + 12345u;
  return x;
}

__attribute__ ((noinline)) void hot (unsigned n) { sink += spin (n); }
__attribute__ ((noinline)) void warm (unsigned n) { sink += spin (n); }
__attribute__ ((noinline)) void cool (unsigned n) { sink += spin (n); }
__attribute__ ((noinline)) void tiny (unsigned n) { sink += spin (n); }

int
main (int argc, char **argv)
{
  double slower = argc > 1 ? atof (argv[1]) : 0;
  double scale = argc > 2 ? atof (argv[2]) : 1;
  int rounds = (int) (2000 * scale);

  for (int r = 0; r < rounds; r++)
    {
      hot ((unsigned) (600000 * (1 + slower)));
      warm (300000);
      cool (60000);
      tiny (3000);
    }
  return 0;
}
