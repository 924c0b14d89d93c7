/* run.c - what the report stages share about one run.  */

#include "config.h"
#include "gprof.h"

#include "support/out.h"

void
run_separator (Run *run)
{
  if (run->first_output)
    run->first_output = false;
  else
    out_str ("\f\n");
}
