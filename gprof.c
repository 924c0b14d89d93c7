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
#include "cg_order.h"
#include "cg_print.h"
#include "diagnose/diagnose.h"
#include "export/export.h"
#include "gmon_io.h"
#include "i18n.h"
#include "out.h"
#include "support/error.h"
#include "pipeline/tasks.h"
#include "pipeline/memory.h"

#define SUMMARY_FILE "gmon.sum"

static void
read_symbols (Run *run)
{
  const Options *opt = &run->opt;

  if (opt->external_symbol_table)
    core_create_syms_from (run->core, opt->external_symbol_table, &run->symtab);
  else if (opt->line_granularity)
    core_create_line_syms (run->core, opt, &run->symtab, &run->files, false);
  else
    core_create_function_syms (run->core, opt, &run->symtab, &run->files);
  sym_ids_build (&run->ids, opt, &run->symtab, &run->files,
                 core_text_last (run->core), run->core->leading_char);
}

static void
read_profiles (Run *run)
{
  if (run->opt.file_format == FF_PROF)
    gp_die (_("%s: sorry, file format `prof' is not yet supported\n"), whoami);
  if (run->opt.nprofiles > 1)
    cg_tally_memo_start (&run->cg);
  for (size_t i = 0; i < run->opt.nprofiles; i++)
    {
      gmon_read (run, run->opt.profiles[i]);
      cg_tally_file_done (&run->cg);
    }
  cg_tally_finish (&run->cg);
}

/* Without report options: the flat profile and the call graph, as far as
   the data allows, less the ones turned off.  */
static void
default_reports (Run *run)
{
  Options *opt = &run->opt;

  if (opt->output_style)
    return;
  if (run->gmon_input & (INPUT_HISTOGRAM | INPUT_CALL_GRAPH))
    {
      if (run->gmon_input & INPUT_HISTOGRAM)
        opt->output_style |= STYLE_FLAT_PROFILE;
      if (run->gmon_input & INPUT_CALL_GRAPH)
        opt->output_style |= STYLE_CALL_GRAPH;
    }
  else
    opt->output_style = STYLE_EXEC_COUNTS;
  opt->output_style &= ~opt->user_specified;
}

/* The histogram's share of the analysis, and the sorts of the reports'
   lists, which need final times and call counts.  */
static void
assign_samples (void *arg)
{
  Run *run = arg;
  unsigned style = run->opt.output_style;
  bool reports = !run->opt.export_format && !run->opt.diagnose;

  if (run->gmon_input & INPUT_HISTOGRAM)
    {
      hist_assign_samples (run);
      /* Only the diagnosis looks at the bins again.  */
      if (!run->opt.diagnose)
        hist_free_samples (&run->hist);
    }
  /* The flat profile's rows and the index's names are sorted on other
     threads while the call graph is printed.  */
  if (reports && (style & STYLE_FLAT_PROFILE)
      && (run->gmon_input & INPUT_HISTOGRAM))
    hist_order_start (run);
  if (reports && (style & STYLE_CALL_GRAPH)
      && (run->gmon_input & INPUT_CALL_GRAPH))
    cg_index_order_start (run);
}

static void
analyse (Run *run)
{
  unsigned style = run->opt.output_style;
  bool reports = !run->opt.export_format && !run->opt.diagnose;
  bool graph = run->gmon_input & INPUT_CALL_GRAPH;
  GpTask samples;

  if (graph)
    cg_take_self_calls (run);
  /* The call graph's structure needs no symbol's time: the samples are
     assigned beside it.  */
  gp_task_start (&samples, assign_samples, run);
  if (graph)
    cg_assemble (run);
  gp_task_wait (&samples);
  if (graph)
    cg_propagate (run);
  /* Exports and the diagnosis use whatever data there is.  */
  if (!reports)
    return;
  if ((style & STYLE_FLAT_PROFILE) && !(run->gmon_input & INPUT_HISTOGRAM))
    gp_die (_("%s: gmon.out file is missing histogram\n"), whoami);
  if ((style & STYLE_CALL_GRAPH) && !graph)
    gp_die (_("%s: gmon.out file is missing call-graph data\n"), whoami);
}

static void
print_reports (Run *run)
{
  unsigned style = run->opt.output_style;

  /* Only the flat profile in GNU's style is printed without the call
     graph's order and index numbers, which are sorted meanwhile.  */
  if (run->opt.bsd_style || !(style & STYLE_FLAT_PROFILE)
      || run->opt.diagnose || run->opt.export_format)
    cg_sorted (&run->cg);
  if (run->opt.diagnose)
    {
      diagnose_print (run);
      return;
    }
  if (run->opt.export_format)
    {
      export_write (run);
      return;
    }
  if (run->opt.bsd_style && (style & STYLE_CALL_GRAPH))
    cg_print (run);
  if (style & STYLE_FLAT_PROFILE)
    hist_print (run);
  cg_sorted (&run->cg);
  if (style & STYLE_CALL_GRAPH)
    {
      if (!run->opt.bsd_style)
        {
          /* The index's sort is over by now, mostly: its keys go before
             the call graph takes its memory.  */
          cg_index_order_finish (run);
          cg_print (run);
        }
      cg_print_index (run);
    }
  if (style & STYLE_EXEC_COUNTS)
    bb_print_exec_counts (run);
  if (style & STYLE_ANNOTATED_SOURCE)
    bb_print_annotated_source (run);
  if (style & STYLE_FUNCTION_ORDER)
    cg_print_function_ordering (run);
  if (style & STYLE_FILE_ORDER)
    cg_print_file_ordering (run);
}

/* Reports are buffered in out.c: hand them on at every exit, and fail
   the run when they could not be written (GNU gprof says nothing).  */
static void
close_stdout (void)
{
  int err = out_close ();

  if (err)
    {
      fprintf (stderr, _("%s: write error: %s\n"), whoami, strerror (err));
      _exit (1);
    }
}

int
main (int argc, char **argv)
{
  static Run run;

  gp_memory_init ();
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
    exit (1);
  run.core = core_open (run.opt.image, run.opt.function_mapping_file);
  /* The first profile file needs no symbols before its arcs.  */
  if (run.opt.nprofiles > 0)
    run.ahead = gmon_ahead_start (run.core, run.opt.profiles[0]);
  if (run.opt.ignore_direct_calls)
    core_read_text_space (run.core);
  names_init (&run.names, &run.opt, run.core->leading_char);

  read_symbols (&run);
  core_free_strtab (run.core);
  if (!run.opt.diagnose && !run.opt.ignore_direct_calls)
    core_close_bfd (run.core, &run.symtab);
  if (run.opt.diagnose)
    diagnose_watch (&run);
  read_profiles (&run);
  default_reports (&run);
  if (run.opt.output_style & STYLE_SUMMARY_FILE)
    gmon_write (&run, SUMMARY_FILE);
  analyse (&run);
  print_reports (&run);
  return 0;
}
