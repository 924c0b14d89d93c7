/* demo.c - a small program to profile: counts primes two ways, sorts
   with a recursive merge sort, and walks a mutually recursive parser, so
   the report shows hot leaves, recursion and a cycle.  */
#include <stdio.h>
#include <stdlib.h>

static int
is_prime_slow (int n)
{
  if (n < 2)
    return 0;
  for (int d = 2; d < n; d++)
    if (n % d == 0)
      return 0;
  return 1;
}

static int
is_prime_fast (int n)
{
  if (n < 2)
    return 0;
  for (int d = 2; d * d <= n; d++)
    if (n % d == 0)
      return 0;
  return 1;
}

int
count_primes (int limit, int (*test) (int))
{
  int count = 0;

  for (int i = 0; i < limit; i++)
    count += test (i);
  return count;
}

void
merge_sort (int *v, int *tmp, int n)
{
  int half = n / 2, i = 0, j = half, k = 0;

  if (n < 2)
    return;
  merge_sort (v, tmp, half);
  merge_sort (v + half, tmp, n - half);
  while (i < half && j < n)
    tmp[k++] = v[i] <= v[j] ? v[i++] : v[j++];
  while (i < half)
    tmp[k++] = v[i++];
  while (j < n)
    tmp[k++] = v[j++];
  for (i = 0; i < n; i++)
    v[i] = tmp[i];
}

/* expr := term ('+' term)*; term := digit | '(' expr ')' */
static const char *pos;
int expr (void);

int
term (void)
{
  if (*pos == '(')
    {
      int v;

      pos++;
      v = expr ();
      pos++;
      return v;
    }
  return *pos++ - '0';
}

int
expr (void)
{
  int v = term ();

  while (*pos == '+')
    {
      pos++;
      v += term ();
    }
  return v;
}

int
main (void)
{
  enum { N = 200000 };
  int *v = malloc (N * sizeof *v), *tmp = malloc (N * sizeof *tmp);
  long sum = 0;

  printf ("primes below 50000: %d (slow), ", count_primes (50000, is_prime_slow));
  printf ("%d (fast)\n", count_primes (50000, is_prime_fast));
  for (int i = 0; i < N; i++)
    v[i] = (int) ((i * 2654435761u) % 1000003);
  merge_sort (v, tmp, N);
  printf ("sorted: %d .. %d\n", v[0], v[N - 1]);
  for (int i = 0; i < 20000; i++)
    {
      pos = "(1+(2+3)+((4+5)+6))+7+(8+9)";
      sum += expr ();
    }
  printf ("parsed: %ld\n", sum);
  free (v);
  free (tmp);
  return 0;
}
