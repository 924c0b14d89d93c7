/* run.c - what the report stages share about one run.  */

#include "config.h"
#include "gprof.h"

#include <stdlib.h>
#include "out.h"

void
run_separator (Run *run)
{
  if (run->first_output)
    run->first_output = false;
  else
    out_str ("\f\n");
}

ListedKey **
run_listed (Run *run, size_t *n)
{
  if (!run->listed)
    run->listed = symtab_listed_keys (&run->symtab, run->opt.ignore_zeros,
                                      &run->nlisted);
  *n = run->nlisted;
  return listed_pointers (run->listed, run->nlisted);
}

void
run_listed_release (Run *run)
{
  if (run->flat_order || run->index_order)
    return;
  free (run->listed);
  run->listed = NULL;
  run->nlisted = 0;
}
