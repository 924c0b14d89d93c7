/* support/alloc.c - allocation that never returns NULL.  */

#include "config.h"
#include "support/alloc.h"

#include <stdint.h>
#include <libiberty/libiberty.h>

/* libiberty's x* functions print the message GNU gprof prints on memory
   exhaustion and exit with status 1.  */
void *
gp_malloc (size_t n)
{
  return xmalloc (n ? n : 1);
}

void *
gp_calloc (size_t n, size_t size)
{
  if (n == 0 || size == 0)
    return xcalloc (1, 1);
  return xcalloc (n, size);
}

void *
gp_realloc (void *p, size_t n)
{
  return xrealloc (p, n ? n : 1);
}

void *
gp_reallocarray (void *p, size_t n, size_t size)
{
  if (size != 0 && n > SIZE_MAX / size)
    xmalloc_failed (SIZE_MAX);
  return gp_realloc (p, n * size);
}

char *
gp_strdup (const char *s)
{
  return xstrdup (s);
}

void
gp_grow (void *pv, size_t *cap, size_t need, size_t elem)
{
  void **p = pv;
  size_t n;

  if (need <= *cap)
    return;
  n = *cap ? *cap : 16;
  while (n < need)
    {
      if (n > SIZE_MAX / 2)
        xmalloc_failed (SIZE_MAX);
      n *= 2;
    }
  *p = gp_reallocarray (*p, n, elem);
  *cap = n;
}
