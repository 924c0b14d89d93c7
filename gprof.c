/* gprof.c - the call-graph profile analyzer: read an executable and its
   profile data, print the flat profile, the call graph and friends.  */

#include "config.h"
#include "gprof.h"

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <libiberty/libiberty.h>
#include "export/export.h"
#include "i18n.h"
#include "pipeline/memory.h"
#include "pipeline/pipeline.h"
#include "pipeline/tasks.h"
#include "support/error.h"
#include "support/out.h"

/* Reports are buffered in out.c: hand them on at every exit, and fail
   the run when they could not be written (GNU gprof says nothing).  */
static void
close_stdout (void)
{
  int err = out_close ();

  if (err)
    {
      fprintf (stderr, _("%s: write error: %s\n"), whoami, strerror (err));
      _exit (gp_failure_status);
    }
}

int
main (int argc, char **argv)
{
  static Run run;

  gp_memory_init ();
  pipeline_start (&run, gp_threads ());
  /* Messages in the user's language, but numbers as in the C locale:
     the reports keep their layout and stay readable by tools, as GNU
     gprof's do.  */
  setlocale (LC_MESSAGES, "");
  setlocale (LC_CTYPE, "");
  bindtextdomain (PACKAGE, LOCALEDIR);
  textdomain (PACKAGE);
  whoami = argv[0];
  xmalloc_set_program_name (whoami);
  expandargv (&argc, &argv);
  atexit (close_stdout);
  run.first_output = true;
  hist_init (&run.hist);

  options_parse (&run.opt, argc, argv);
  if (run.opt.export_format && !export_check_format (run.opt.export_format))
    gp_exit_failure ();
  pipeline_symbols (&run);
  pipeline_profiles (&run);
  pipeline_analyse (&run);
  if (run.opt.diff_base)
    return pipeline_diff (&run);
  pipeline_reports (&run);
  return 0;
}
