/* pipeline/pipeline.c - the stages of a run, and what runs beside what.

   Each function below is one step of main.  Where a stage's inputs are
   ready before the stage before it ends, the two run at once:
   - the first profile file is read into memory while the symbols are
     read (it needs no symbol before its arcs);
   - the samples are credited to the symbols while the call graph is
     laid out and numbered (which reads no symbol's time);
   - the flat profile's and the index's orders are sorted while the
     call graph's times are propagated (they need final times and
     calls, not the propagated ones).
   Everything else a stage may do at once it hands to run->par.  With
   one thread the same functions run in turn, in the order written
   here.  */

#include "config.h"
#include "pipeline/pipeline.h"

#include <stdbool.h>
#include <stdlib.h>
#include "basic_blocks.h"
#include "cg_order.h"
#include "cg_print.h"
#include "diagnose/diagnose.h"
#include "diff/diff.h"
#include "export/export.h"
#include "gmon_io.h"
#include "gprof.h"
#include "i18n.h"
#include "modules.h"
#include "pipeline/par.h"
#include "pipeline/tasks.h"
#include "since.h"
#include "support/alloc.h"
#include "support/error.h"

#define SUMMARY_FILE "gmon.sum"

/* An order of symbols sorted beside other work (hist_order,
   cg_index_order), and the task sorting it.  */
typedef struct Order
{
  Sym **(*sort) (const Run *run, size_t *n);
  const Run *run;
  Sym **v;
  size_t n;
  bool started;
  GpTask task;
} Order;

/* What runs beside what, between the functions below.  */
struct Pipeline
{
  Par par;
  GpTask ahead;           /* reading the first profile file */
  bool ahead_started;
  Order flat, index;
};

static struct Pipeline *
pipe_of (Run *run)
{
  return run->pipeline;
}

static void
order_run (void *arg)
{
  Order *o = arg;

  o->v = o->sort (o->run, &o->n);
}

static void
order_start (Order *o, Sym **(*sort) (const Run *, size_t *), const Run *run)
{
  o->sort = sort;
  o->run = run;
  o->started = true;
  gp_task_start (&o->task, order_run, o);
}

/* The order O sorted (by now, or here if it was never started).  */
static Sym **
order_take (Order *o, Sym **(*sort) (const Run *, size_t *), const Run *run,
            size_t *n)
{
  if (o->started)
    gp_task_wait (&o->task);
  else
    o->v = sort (run, &o->n);
  o->started = false;
  *n = o->n;
  return o->v;
}

void
pipeline_start (Run *run, unsigned threads)
{
  struct Pipeline *p = gp_calloc (1, sizeof *p);

  p->par.nthreads = threads;
  run->pipeline = p;
  run->par = &p->par;
}

/* ---- symbols and profile files --------------------------------------- */

static void
read_ahead (void *arg)
{
  Run *run = arg;

  run->ahead = gmon_ahead_read (run->core, run->opt.profiles[0]);
}

void
pipeline_symbols (Run *run)
{
  const Options *opt = &run->opt;
  struct Pipeline *p = pipe_of (run);

  run->core = core_open (opt->image, run->par);
  /* Only the first file's read is started, beside the symbols' reading:
     it needs the executable's byte order and address size alone.  */
  if (opt->nprofiles > 0)
    {
      gp_task_start (&p->ahead, read_ahead, run);
      p->ahead_started = true;
    }
  core_read_symbols (run->core, opt->function_mapping_file);
  /* Before the symbol table, which an executable without symbols never
     gets: the diagnosis explains that, and missing profile files.  */
  if (opt->diagnose)
    diagnose_inputs (run);
  if (opt->ignore_direct_calls)
    core_read_text_space (run->core);
  names_init (&run->names, opt, run->core->leading_char);
  if (opt->external_symbol_table)
    core_create_syms_from (run->core, opt->external_symbol_table, &run->symtab);
  else if (opt->line_granularity)
    core_create_line_syms (run->core, opt, &run->symtab, &run->files, false);
  else
    core_create_function_syms (run->core, opt, &run->symtab, &run->files);
  if (opt->whole_process)
    modules_load (run);
  sym_ids_build (&run->ids, opt, &run->symtab, &run->files,
                 core_text_last (run->core), run->core->leading_char);
  core_free_strtab (run->core);
  if (!opt->diagnose && !opt->ignore_direct_calls)
    core_close_bfd (run->core, &run->symtab);
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

void
pipeline_profiles (Run *run)
{
  struct Pipeline *p = pipe_of (run);

  if (p->ahead_started)
    gp_task_wait (&p->ahead);
  p->ahead_started = false;
  if (run->opt.diagnose)
    diagnose_watch (run);
  if (run->opt.file_format == FF_PROF)
    gp_die (_("%s: sorry, file format `prof' is not yet supported\n"), whoami);
  if (run->opt.nprofiles > 1)
    cg_tally_memo_start (&run->cg);
  for (size_t i = 0; i < run->opt.nprofiles; i++)
    {
      /* --since: the one file less the earlier snapshot.  */
      if (run->opt.since)
        since_read (run, run->opt.since, run->opt.profiles[i]);
      else
        gmon_read (run, run->opt.profiles[i]);
      cg_tally_file_done (&run->cg);
    }
  modules_tally (run);
  cg_tally_finish (&run->cg);
  default_reports (run);
  if (run->opt.output_style & STYLE_SUMMARY_FILE)
    gmon_write (run, SUMMARY_FILE);
}

/* ---- analysis ----------------------------------------------------------- */

static void
assign_samples (void *arg)
{
  Run *run = arg;

  if (!(run->gmon_input & INPUT_HISTOGRAM))
    return;
  hist_assign_samples (run);
  /* Only the diagnosis looks at the bins again.  */
  if (!run->opt.diagnose)
    hist_free_samples (&run->hist);
}

void
pipeline_analyse (Run *run)
{
  struct Pipeline *p = pipe_of (run);
  unsigned style = run->opt.output_style;
  bool reports = !run->opt.export_format && !run->opt.diagnose
                 && !run->opt.diff_base;
  bool graph = run->gmon_input & INPUT_CALL_GRAPH;
  GpTask samples;

  if (graph)
    cg_take_self_calls (run);
  /* The call graph's structure needs no symbol's time.  */
  gp_task_start (&samples, assign_samples, run);
  if (graph)
    cg_assemble (run);
  gp_task_wait (&samples);
  /* Times and calls are final: the lists that need no propagated time
     are sorted meanwhile.  */
  if (reports && (style & STYLE_FLAT_PROFILE)
      && (run->gmon_input & INPUT_HISTOGRAM))
    order_start (&p->flat, hist_order, run);
  if (reports && (style & STYLE_CALL_GRAPH) && graph)
    order_start (&p->index, cg_index_order, run);
  if (graph)
    {
      cg_propagate (run);
      if (run->opt.apply_stacks)
        cg_measured_apply (run);
      cg_order (run);
    }
  /* Exports and the diagnosis use whatever data there is.  */
  if (!reports)
    return;
  if ((style & STYLE_FLAT_PROFILE) && !(run->gmon_input & INPUT_HISTOGRAM))
    gp_die (_("%s: gmon.out file is missing histogram\n"), whoami);
  if ((style & STYLE_CALL_GRAPH) && !graph)
    gp_die (_("%s: gmon.out file is missing call-graph data\n"), whoami);
}

/* ---- reports -------------------------------------------------------------- */

void
pipeline_reports (Run *run)
{
  struct Pipeline *p = pipe_of (run);
  unsigned style = run->opt.output_style;
  Sym **order;
  size_t n;

  if (run->opt.diagnose || run->opt.export_format)
    {
      if (run->opt.diagnose)
        diagnose_print (run);
      else
        export_write (run);
      return;
    }
  if (run->opt.bsd_style && (style & STYLE_CALL_GRAPH))
    cg_print (run);
  if (style & STYLE_FLAT_PROFILE)
    {
      order = order_take (&p->flat, hist_order, run, &n);
      hist_print (run, order, n);
    }
  if (style & STYLE_CALL_GRAPH)
    {
      if (!run->opt.bsd_style)
        cg_print (run);
      order = order_take (&p->index, cg_index_order, run, &n);
      cg_print_index (run, order, n);
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

/* ---- comparison ----------------------------------------------------------- */

int
pipeline_diff (Run *run)
{
  /* Lives to the end of the program, as RUN does.  */
  static Run base;

  base.opt = run->opt;
  if (run->opt.diff_image)
    base.opt.image = run->opt.diff_image;
  base.opt.profiles = &run->opt.diff_base;
  base.opt.nprofiles = 1;
  base.opt.output_style &= ~STYLE_SUMMARY_FILE;
  base.first_output = true;
  pipeline_start (&base, run->par->nthreads);
  hist_init (&base.hist);
  pipeline_symbols (&base);
  pipeline_profiles (&base);
  pipeline_analyse (&base);
  return diff_print (&base, run);
}
