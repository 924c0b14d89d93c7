/* regs.c - arguments survive the profiling call.

   The mcount/__fentry__ call happens while arguments are still in
   registers: all six integer and eight floating-point argument
   registers, the vector-register count of varargs calls (%al on
   x86-64), the static chain of nested functions, and on i386 the
   -mregparm registers.  Every function returns a value that depends on
   every argument; main prints all results exactly (%a for doubles), and
   the test compares the output with that of the same program built
   without -pg.  Each function is called from several sites, so both the
   stub's fast path and its slow path run.  */

#include <stdarg.h>
#include <stdio.h>

#define NOINLINE __attribute__ ((noinline, noclone))

NOINLINE double
f6i8d (long a, long b, long c, long d, long e, long f, double x0, double x1,
       double x2, double x3, double x4, double x5, double x6, double x7)
{
  __asm__ volatile ("");
  return (double) (a + 2 * b + 3 * c + 5 * d + 7 * e + 11 * f)
         + x0 + 2 * x1 + 3 * x2 + 5 * x3 + 7 * x4 + 11 * x5 + 13 * x6
         + 17 * x7;
}

NOINLINE float
mixed (int a, float x, char b, double y, short c, float z, long d)
{
  __asm__ volatile ("");
  return (float) (a * 3 + b * 5 + c * 7 + d * 11) + x * 2.5f
         + (float) y * 0.5f + z;
}

/* Arguments past the registers, on the stack.  */
NOINLINE long
ten (long a, long b, long c, long d, long e, long f, long g, long h,
     long i, long j)
{
  __asm__ volatile ("");
  return a ^ (b << 1) ^ (c << 2) ^ (d << 3) ^ (e << 4) ^ (f << 5)
         ^ (g << 6) ^ (h << 7) ^ (i << 8) ^ (j << 9);
}

/* Varargs with doubles: a stub that clobbered %al would make va_start
   skip saving the vector registers.  */
NOINLINE double
sum_va (int n, ...)
{
  va_list ap;
  double s = 0;
  va_start (ap, n);
  for (int i = 0; i < n; i++)
    s = s * 3 + va_arg (ap, double) + va_arg (ap, int);
  va_end (ap);
  return s;
}

struct big
{
  long v[5];
  double d;
};

NOINLINE double
by_value (struct big s, int k)
{
  __asm__ volatile ("");
  return (double) (s.v[0] - s.v[1] + s.v[2] - s.v[3] + s.v[4] + k) * s.d;
}

/* A nested function gets its parent's frame in the static chain
   register (r10 on x86-64, ecx on i386, x18 on aarch64).  */
NOINLINE long
outer (long k)
{
  long base = k * 3 + 1;
  NOINLINE long inner (long x)
  {
    __asm__ volatile ("");
    return x * base;
  }
  return inner (k) + inner (k + 2);
}

#if defined(__i386__)
/* i386: arguments in eax, edx, ecx, copied only after the mcount call. */
NOINLINE __attribute__ ((regparm (3))) int
rp3 (int a, int b, int c)
{
  __asm__ volatile ("");
  return a * 10000 + b * 100 + c;
}

NOINLINE __attribute__ ((fastcall)) int
fc2 (int a, int b)
{
  __asm__ volatile ("");
  return a * 1000 - b;
}
#endif

static double (*volatile fptr) (long, long, long, long, long, long, double,
                                double, double, double, double, double,
                                double, double) = f6i8d;

int
main (void)
{
  for (int i = 1; i <= 3; i++)
    {
      double d = i * 0.1;
      struct big s = { { i, 2 * i, 3 * i, 4 * i, 5 * i }, d + 1 };
      printf ("f6i8d %a\n", f6i8d (i, i + 1, i + 2, i + 3, i + 4, i + 5,
                                   d, d + 1, d + 2, d + 3, d + 4, d + 5,
                                   d + 6, d + 7));
      printf ("f6i8d* %a\n", fptr (-i, i, -i, i, -i, i, -d, d, -d, d, -d,
                                    d, -d, d));
      printf ("mixed %a\n", (double) mixed (i, 1.5f * i, (char) (i + 1),
                                            d * 3, (short) (i * 7), 0.25f,
                                            1000L * i));
      printf ("ten %ld\n", ten (i, i + 1, i + 2, i + 3, i + 4, i + 5, i + 6,
                                i + 7, i + 8, i + 9));
      printf ("sum_va %a\n", sum_va (4, d, i, d * 2, i + 1, d * 3, i + 2,
                                     d * 4, i + 3));
      printf ("sum_va %a\n", sum_va (1, -d, -i));
      printf ("by_value %a\n", by_value (s, i));
      printf ("outer %ld\n", outer (i));
#if defined(__i386__)
      printf ("rp3 %d\n", rp3 (i, i + 1, i + 2));
      printf ("fc2 %d\n", fc2 (i, i * 3));
#endif
    }
  return 0;
}
