/* support/error.c - messages, the end of a run on an error, and broken
   contracts.  */

#include "config.h"
#include "support/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

const char *whoami = "gprof";
int gp_failure_status = 1;

void
gp_exit_failure (void)
{
  exit (gp_failure_status);
}

void
gp_die (const char *fmt, ...)
{
  va_list ap;

  va_start (ap, fmt);
  vfprintf (stderr, fmt, ap);
  va_end (ap);
  gp_exit_failure ();
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
