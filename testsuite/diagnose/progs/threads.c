/* threads.c - a -pg program whose work runs in two threads at once:
   what the diagnosis says of a threaded program's profile.  */

#include <pthread.h>

volatile long sink;

long
step (long x)
{
  return x * 31 + 7;
}

void *
spin (void *arg)
{
  long s = 0;

  for (long i = 0; i < 3000000; i++)
    s += step (i);
  sink += s;
  return arg;
}

int
main (void)
{
  pthread_t t[2];

  for (int i = 0; i < 2; i++)
    pthread_create (&t[i], NULL, spin, NULL);
  for (int i = 0; i < 2; i++)
    pthread_join (t[i], NULL);
  return 0;
}
