/* support/alloc.h - allocation that never returns NULL.  */

#ifndef GPROF_SUPPORT_ALLOC_H
#define GPROF_SUPPORT_ALLOC_H

#include <stddef.h>

/* Allocation that never returns NULL: failure is reported in libiberty's
   words ("out of memory allocating N bytes ...") and exits.  */
void *gp_malloc (size_t n);
void *gp_calloc (size_t n, size_t size);
void *gp_realloc (void *p, size_t n);
/* n * size, reallocated; dies if the product overflows.  */
void *gp_reallocarray (void *p, size_t n, size_t size);
char *gp_strdup (const char *s);

/* A growable array: `gp_grow (&v, &cap, need, sizeof *v)` makes room for
   `need` elements, doubling.  */
void gp_grow (void *pv, size_t *cap, size_t need, size_t elem);

#endif
