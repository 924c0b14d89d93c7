/* support/error.c - messages, the end of a run on an error, and broken
   contracts.  */

#include "config.h"
#include "support/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

const char *whoami = "gprof";

void
gp_die (const char *fmt, ...)
{
  va_list ap;

  va_start (ap, fmt);
  vfprintf (stderr, fmt, ap);
  va_end (ap);
  exit (1);
}

void
gp_assert_fail (const char *cond, const char *file, int line,
                const char *func)
{
  fprintf (stderr, "%s: %s:%d: %s: contract broken: %s\n", whoami, file, line,
           func, cond);
  abort ();
}

void
gp_warn (const char *fmt, ...)
{
  va_list ap;

  va_start (ap, fmt);
  vfprintf (stderr, fmt, ap);
  va_end (ap);
}
