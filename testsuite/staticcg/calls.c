/* calls.c - direct calls in every direction, most of them never made at
   run time, so that only a static scan of the code can find them.  */
#include <stdlib.h>

volatile int sink;

__attribute__ ((noinline)) void back_a (void) { sink++; }
__attribute__ ((noinline)) void back_b (int n) { if (n > 0) back_a (); }
void fwd_a (void);
void fwd_b (int n);
__attribute__ ((noinline)) int self_rec (int n) { return n > 0 ? self_rec (n - 1) + 1 : 0; }
__attribute__ ((noinline)) void pair_x (int n);
__attribute__ ((noinline)) void pair_y (int n) { if (n > 0) pair_x (n - 1); }
__attribute__ ((noinline)) void pair_x (int n) { if (n > 0) pair_y (n - 1); }
static void (*table[2]) (void) = { back_a, 0 };

__attribute__ ((noinline)) void
spin (int n)
{
  for (int i = 0; i < n; i++)
    sink += i;
}

int
main (int argc, char **argv)
{
  int n = argc > 5 ? atoi (argv[1]) : 0;

  spin (3000000);
  if (n)
    {
      back_a ();
      back_b (n);
      fwd_a ();
      fwd_b (n);
      pair_x (n);
      table[0] ();
    }
  sink += self_rec (3) + (n ? self_rec (n) : 0);
  return 0;
}

__attribute__ ((noinline)) void fwd_a (void) { back_b (1); }
__attribute__ ((noinline)) void fwd_b (int n) { if (n > 2) fwd_a (); else back_a (); }
