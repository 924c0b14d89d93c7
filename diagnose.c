/* diagnose.c - --diagnose.  Being written (issue 8); until then it says
   so and exits.  */

#include "config.h"
#include "diagnose.h"

#include "gprof.h"
#include "i18n.h"
#include "util.h"

void
diagnose_print (Run *run)
{
  (void) run;
  gp_die (_("%s: --diagnose is not available yet\n"), whoami);
}
