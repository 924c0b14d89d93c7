/* export.c - --export=FORMAT.  The formats are being written (issue 7);
   until then every format is refused with a clear message.  */

#include "config.h"
#include "export.h"

#include <stdio.h>
#include "gprof.h"
#include "i18n.h"
#include "util.h"

bool
export_check_format (const char *name)
{
  fprintf (stderr, _("%s: --export=%s: no export formats are available yet\n"),
           whoami, name);
  return false;
}

void
export_write (Run *run)
{
  (void) run;
}
