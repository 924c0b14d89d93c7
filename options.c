/* options.c - the command line.

   The option letters, long names and their order are GNU gprof's, so
   that glibc's getopt_long gives the same errors and abbreviations.  */

#include "config.h"
#include "options.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libiberty/demangle.h>
#include "i18n.h"
#include "support/out.h"
#include "support/error.h"
#include "support/alloc.h"

enum
{
  OPTION_DEMANGLE = 150,
  OPTION_NO_DEMANGLE,
  OPTION_INLINE_FILE_NAMES,
  OPTION_EXPORT,
  OPTION_DIAGNOSE,
  OPTION_EXPORT_NODE_THRESHOLD,
  OPTION_EXPORT_EDGE_THRESHOLD,
  OPTION_EXPORT_MAX_DEPTH,
  OPTION_DIFF,
  OPTION_DIFF_EXE,
  OPTION_DIFF_LEVEL,
  OPTION_DIFF_THRESHOLD,
  OPTION_MEASURED_TIME,
  OPTION_SINCE,
  OPTION_WHOLE_PROCESS,
  OPTION_MODULE_DIR
};

static const char short_options[] =
  "aA::bBcC::d::De:E:f:F:hiI:J::k:lLm:n:N:O:p::P::q::Q::rR:sS:t:Tvw:xyzZ::";

static const struct option long_options[] = {
  { "line", no_argument, NULL, 'l' },
  { "no-static", no_argument, NULL, 'a' },
  { "ignore-non-functions", no_argument, NULL, 'D' },
  { "external-symbol-table", required_argument, NULL, 'S' },
  { "annotated-source", optional_argument, NULL, 'A' },
  { "no-annotated-source", optional_argument, NULL, 'J' },
  { "flat-profile", optional_argument, NULL, 'p' },
  { "no-flat-profile", optional_argument, NULL, 'P' },
  { "graph", optional_argument, NULL, 'q' },
  { "no-graph", optional_argument, NULL, 'Q' },
  { "exec-counts", optional_argument, NULL, 'C' },
  { "no-exec-counts", optional_argument, NULL, 'Z' },
  { "function-ordering", no_argument, NULL, 'r' },
  { "file-ordering", required_argument, NULL, 'R' },
  { "file-info", no_argument, NULL, 'i' },
  { "sum", no_argument, NULL, 's' },
  { "all-lines", no_argument, NULL, 'x' },
  { "demangle", optional_argument, NULL, OPTION_DEMANGLE },
  { "no-demangle", no_argument, NULL, OPTION_NO_DEMANGLE },
  { "directory-path", required_argument, NULL, 'I' },
  { "display-unused-functions", no_argument, NULL, 'z' },
  { "inline-file-names", no_argument, NULL, OPTION_INLINE_FILE_NAMES },
  { "min-count", required_argument, NULL, 'm' },
  { "print-path", no_argument, NULL, 'L' },
  { "separate-files", no_argument, NULL, 'y' },
  { "static-call-graph", no_argument, NULL, 'c' },
  { "table-length", required_argument, NULL, 't' },
  { "time", required_argument, NULL, 'n' },
  { "no-time", required_argument, NULL, 'N' },
  { "width", required_argument, NULL, 'w' },
  /* GNU's table has these unnamed entries; "--=X" matches the first.  */
  { "", required_argument, NULL, 'e' },
  { "", required_argument, NULL, 'E' },
  { "", required_argument, NULL, 'f' },
  { "", required_argument, NULL, 'F' },
  { "", required_argument, NULL, 'k' },
  { "brief", no_argument, NULL, 'b' },
  { "debug", optional_argument, NULL, 'd' },
  { "help", no_argument, NULL, 'h' },
  { "file-format", required_argument, NULL, 'O' },
  { "traditional", no_argument, NULL, 'T' },
  { "version", no_argument, NULL, 'v' },
  /* Ours, after GNU's so that abbreviations GNU accepts still work.  */
  { "export", required_argument, NULL, OPTION_EXPORT },
  { "diagnose", no_argument, NULL, OPTION_DIAGNOSE },
  { "export-node-threshold", required_argument, NULL, OPTION_EXPORT_NODE_THRESHOLD },
  { "export-edge-threshold", required_argument, NULL, OPTION_EXPORT_EDGE_THRESHOLD },
  { "export-max-depth", required_argument, NULL, OPTION_EXPORT_MAX_DEPTH },
  { "diff", required_argument, NULL, OPTION_DIFF },
  { "diff-exe", required_argument, NULL, OPTION_DIFF_EXE },
  { "diff-level", required_argument, NULL, OPTION_DIFF_LEVEL },
  { "diff-threshold", required_argument, NULL, OPTION_DIFF_THRESHOLD },
  { "measured-time", no_argument, NULL, OPTION_MEASURED_TIME },
  { "since", required_argument, NULL, OPTION_SINCE },
  { "whole-process", no_argument, NULL, OPTION_WHOLE_PROCESS },
  { "module-dir", required_argument, NULL, OPTION_MODULE_DIR },
  { NULL, 0, NULL, 0 }
};

void
options_usage (void *stream, int status)
{
  FILE *f = stream;

  out_fprintf (f, _("\
Usage: %s [-[abcDhilLrsTvwxyz]] [-[ABCeEfFJnNOpPqQRStZ][name]] [-I dirs]\n\
\t[-d[num]] [-k from/to] [-m min-count] [-t table-length]\n\
\t[--[no-]annotated-source[=name]] [--[no-]exec-counts[=name]]\n\
\t[--[no-]flat-profile[=name]] [--[no-]graph[=name]]\n\
\t[--[no-]time=name] [--all-lines] [--brief] [--debug[=level]]\n\
\t[--function-ordering] [--file-ordering] [--inline-file-names]\n\
\t[--directory-path=dirs] [--display-unused-functions]\n\
\t[--file-format=name] [--file-info] [--help] [--line] [--min-count=n]\n\
\t[--no-static] [--print-path] [--separate-files]\n\
\t[--static-call-graph] [--sum] [--table-length=len] [--traditional]\n\
\t[--version] [--width=n] [--ignore-non-functions]\n\
\t[--demangle[=STYLE]] [--no-demangle] [--external-symbol-table=name] [@FILE]\n\
\t[image-file] [profile-file...]\n"),
           whoami);
  if (status == 0)
    {
      out_fprintf (f, _("Report bugs at %s\n"), PACKAGE_BUGREPORT);
      /* GNU's usage text stays as it is (and alone after a bad option),
         with our bug address, then our own options: see
         doc/differences.md.  */
      out_fprintf (f, _("\n\
Options of this gprof that GNU gprof does not have:\n\
  --diagnose                 explain what the profile data can and cannot\n\
                             tell, instead of the reports\n\
  --export=FORMAT            write the analysis as FORMAT instead of the\n\
                             reports: dot, callgrind, folded, speedscope,\n\
                             pprof, json or html\n\
  --export-node-threshold=P  dot: leave out functions under P%% of the time\n\
  --export-edge-threshold=P  dot: leave out calls under P%% of the time\n\
  --export-max-depth=N       folded, speedscope, pprof, html: stacks of at\n\
                             most N frames\n\
  --diff=OLD                 compare the profile with OLD, an earlier one of\n\
                             the same program, instead of the reports (text,\n\
                             or --export=json or html)\n\
  --diff-exe=EXE             the executable that wrote OLD (default: the\n\
                             same one)\n\
  --diff-level=P             call a time change significant at P%% (default\n\
                             99)\n\
  --diff-threshold=PCT       exit with status 1 if a function's time grew\n\
                             significantly by more than PCT%%, 2 on errors\n"));
      /* A message of its own: the translations of the one above stay. */
      out_fprintf (f, _("\
  --measured-time            the call graph's times from the call stacks\n\
                             libgmon recorded (gmon.out.stacks), where the\n\
                             profile has them, not shared by calls\n"));
      out_fprintf (f, _("\
  --since=EARLIER            report what happened between EARLIER and the\n\
                             profile, two snapshots of one run that libgmon\n\
                             wrote (LIBGMON_INTERVAL, LIBGMON_DUMP_SIGNAL)\n"));
      out_fprintf (f, _("\
  --whole-process            report on every module of the process: the\n\
                             shared libraries and plugins libgmon recorded\n\
                             beside the profile (gmon.out.modules) too\n\
  --module-dir=DIR           --whole-process: look for the modules' files\n\
                             in DIR too (may be repeated)\n"));
    }
  exit (status);
}

static void
add_spec (Options *opt, const char *spec, SymTable table)
{
  opt->specs = gp_reallocarray (opt->specs, opt->nspecs + 1, sizeof *opt->specs);
  opt->specs[opt->nspecs].spec = spec;
  opt->specs[opt->nspecs].table = table;
  opt->nspecs++;
}

/* Split a ':'-separated list of directories; empty parts are kept.  */
static void
add_search_dirs (Options *opt, const char *list)
{
  const char *p = list;

  for (;;)
    {
      const char *colon = strchr (p, ':');
      size_t len = colon ? (size_t) (colon - p) : strlen (p);

      opt->search_dirs = gp_reallocarray (opt->search_dirs,
                                          opt->nsearch_dirs + 1,
                                          sizeof *opt->search_dirs);
      opt->search_dirs[opt->nsearch_dirs++] = strndup (p, len);
      if (!colon)
        break;
      p = colon + 1;
    }
}

static void __attribute__ ((noreturn))
print_version (void)
{
  out_printf ("gprof (%s) %s\n", PACKAGE_NAME, PACKAGE_VERSION);
  out_printf (_("A profile analyzer whose reports match GNU gprof %s's; "
                "not part of GNU Binutils.\n"), GNU_GPROF_MATCHED);
  out_printf (_("Report bugs at %s\n"), PACKAGE_BUGREPORT);
  exit (0);
}

static void
set_file_format (Options *opt, const char *arg)
{
  switch (arg[0])
    {
    case 'a': opt->file_format = FF_AUTO; break;
    case 'm': opt->file_format = FF_MAGIC; break;
    case 'b': opt->file_format = FF_BSD; break;
    case '4': opt->file_format = FF_BSD44; break;
    case 'p': opt->file_format = FF_PROF; break;
    default:
      /* GNU gprof prints the two names in this order.  */
      fprintf (stderr, _("%s: unknown file format %s\n"), arg, whoami);
      gp_exit_failure ();
    }
}

/* -pSPEC / -PSPEC style pairs: a spec goes to a table, no spec switches
   the report on or off.  */
static void
style_option (Options *opt, const char *arg, unsigned style, SymTable incl,
              bool negative)
{
  if (negative)
    {
      if (arg)
        {
          add_spec (opt, arg, (SymTable) (incl + 1));
          opt->output_style |= style;
        }
      else
        opt->output_style &= ~style;
    }
  else
    {
      if (arg)
        add_spec (opt, arg, incl);
      opt->output_style |= style;
    }
  opt->user_specified |= style;
}

static void
graph_option (Options *opt, const char *arg, bool negative)
{
  SymTable incl = arg && strchr (arg, '/') ? INCL_ARCS : INCL_GRAPH;

  style_option (opt, arg, STYLE_CALL_GRAPH, incl, negative);
}

/* The value of an --export-... option: a number from LO to HI.  */
static double
export_number (const char *name, const char *arg, double lo, double hi)
{
  char *end;
  double v = strtod (arg, &end);

  if (end == arg || *end || !(v >= lo && v <= hi))
    {
      fprintf (stderr, _("%s: --%s=%s: expected a number from %g to %g\n"),
               whoami, name, arg, lo, hi);
      gp_exit_failure ();
    }
  return v;
}

/* --diff's companions need it, and it goes with neither --diagnose nor
   an export but json and html.  */
static void
check_diff (const Options *opt)
{
  const char *problem = NULL;

  if (!opt->diff_base)
    {
      if (opt->diff_image || opt->diff_threshold >= 0 || opt->diff_level != 99)
        problem = _("--diff-exe, --diff-level and --diff-threshold need --diff");
    }
  else if (opt->diagnose)
    problem = _("--diff and --diagnose cannot be used together");
  else if (opt->export_format && strcmp (opt->export_format, "json") != 0
           && strcmp (opt->export_format, "html") != 0)
    problem = _("--diff writes text, or with --export json or html");
  if (problem)
    {
      fprintf (stderr, "%s: %s\n", whoami, problem);
      gp_exit_failure ();
    }
}

/* --measured-time changes the text call graph only, of functions.  */
static void
check_measured (const Options *opt)
{
  const char *problem = NULL;

  if (!opt->measured_time)
    return;
  if (opt->export_format || opt->diagnose || opt->diff_base)
    problem = _("--measured-time applies to the text call graph, not to "
                "--export, --diagnose or --diff");
  else if (opt->line_granularity)
    problem = _("--measured-time cannot be used with -l or -s");
  if (problem)
    {
      fprintf (stderr, "%s: %s\n", whoami, problem);
      gp_exit_failure ();
    }
}

/* --since subtracts one snapshot from one other.  */
static void
check_since (const Options *opt)
{
  const char *problem = NULL;

  if (!opt->since)
    return;
  if (opt->nprofiles != 1)
    problem = _("--since takes one profile file, the later snapshot");
  else if (opt->diff_base)
    problem = _("--since and --diff cannot be used together");
  if (problem)
    {
      fprintf (stderr, "%s: %s\n", whoami, problem);
      gp_exit_failure ();
    }
}

/* --whole-process reads one profile and the modules beside it.  */
static void
check_whole_process (const Options *opt)
{
  const char *problem = NULL;

  if (!opt->whole_process)
    {
      if (opt->nmodule_dirs)
        problem = _("--module-dir needs --whole-process");
    }
  else if (opt->nprofiles != 1)
    problem = _("--whole-process takes one profile file");
  else if (opt->since || opt->diff_base || opt->measured_time
           || (opt->output_style & STYLE_SUMMARY_FILE))
    problem = _("--whole-process cannot be used with --since, --diff,"
                " --measured-time or -s");
  if (problem)
    {
      fprintf (stderr, "%s: %s\n", whoami, problem);
      gp_exit_failure ();
    }
}

void
options_parse (Options *opt, int argc, char **argv)
{
  int c;

  memset (opt, 0, sizeof *opt);
  opt->argv = argv;
  opt->print_descriptions = true;
  opt->ignore_zeros = true;
  opt->demangle = true;
  opt->bb_table_length = 10;
  opt->bb_min_calls = 1;
  opt->output_width = 80;
  /* gprof2dot's defaults; stacks as deep as flame graphs stay readable.  */
  opt->export_node_threshold = 0.5;
  opt->export_edge_threshold = 0.1;
  opt->export_max_depth = 64;
  opt->diff_level = 99;
  opt->diff_threshold = -1;
  /* A CI job gating on --diff-threshold tells a regression (1) from an
     error (2); errors before the option is parsed count as well.  */
  for (int i = 1; i < argc; i++)
    if (strncmp (argv[i], "--diff-t", 8) == 0)
      gp_failure_status = 2;

  while ((c = getopt_long (argc, argv, short_options, long_options, NULL)) != -1)
    switch (c)
      {
      case 'a': opt->ignore_static_funcs = true; break;
      case 'A': style_option (opt, optarg, STYLE_ANNOTATED_SOURCE, INCL_ANNO, false); break;
      case 'b': opt->print_descriptions = false; break;
      case 'B':
        opt->output_style |= STYLE_CALL_GRAPH;
        opt->user_specified |= STYLE_CALL_GRAPH;
        break;
      case 'c': opt->ignore_direct_calls = true; break;
      case 'C': style_option (opt, optarg, STYLE_EXEC_COUNTS, INCL_EXEC, false); break;
      case 'd':
        if (optarg)
          opt->debug_level |= (unsigned) atoi (optarg) | 1;
        else
          opt->debug_level = ~0u;
        out_printf ("[main] debug-level=0x%x\n", opt->debug_level);
        break;
      case 'D': opt->ignore_non_functions = true; break;
      case 'E':
        add_spec (opt, optarg, EXCL_TIME);
        add_spec (opt, optarg, EXCL_GRAPH);
        break;
      case 'e': add_spec (opt, optarg, EXCL_GRAPH); break;
      case 'F':
        add_spec (opt, optarg, INCL_TIME);
        add_spec (opt, optarg, INCL_GRAPH);
        break;
      case 'f': add_spec (opt, optarg, INCL_GRAPH); break;
      case 'h': options_usage (stdout, 0);
      case 'i':
        opt->output_style |= STYLE_GMON_INFO;
        opt->user_specified |= STYLE_GMON_INFO;
        break;
      case 'I': add_search_dirs (opt, optarg); break;
      case 'J': style_option (opt, optarg, STYLE_ANNOTATED_SOURCE, INCL_ANNO, true); break;
      case 'k': add_spec (opt, optarg, EXCL_ARCS); break;
      case 'l': opt->line_granularity = true; break;
      case 'L': opt->print_path = true; break;
      case 'm': opt->bb_min_calls = strtoul (optarg, NULL, 10); break;
      case 'n': add_spec (opt, optarg, INCL_TIME); break;
      case 'N': add_spec (opt, optarg, EXCL_TIME); break;
      case 'O': set_file_format (opt, optarg); break;
      case 'p': style_option (opt, optarg, STYLE_FLAT_PROFILE, INCL_FLAT, false); break;
      case 'P': style_option (opt, optarg, STYLE_FLAT_PROFILE, INCL_FLAT, true); break;
      case 'q': graph_option (opt, optarg, false); break;
      case 'Q': graph_option (opt, optarg, true); break;
      case 'r':
        opt->output_style |= STYLE_FUNCTION_ORDER;
        opt->user_specified |= STYLE_FUNCTION_ORDER;
        break;
      case 'R':
        opt->output_style |= STYLE_FILE_ORDER;
        opt->user_specified |= STYLE_FILE_ORDER;
        opt->function_mapping_file = optarg;
        break;
      case 's':
        opt->output_style |= STYLE_SUMMARY_FILE;
        opt->user_specified |= STYLE_SUMMARY_FILE;
        break;
      case 'S': opt->external_symbol_table = optarg; break;
      case 't':
        opt->bb_table_length = atoi (optarg);
        if (opt->bb_table_length < 0)
          opt->bb_table_length = 0;
        break;
      case 'T': opt->bsd_style = true; break;
      case 'v': print_version ();
      case 'w':
        opt->output_width = atoi (optarg);
        if (opt->output_width < 1)
          opt->output_width = 1;
        break;
      case 'x': opt->bb_annotate_all_lines = true; break;
      case 'y': opt->create_annotation_files = true; break;
      case 'z': opt->ignore_zeros = false; break;
      case 'Z': style_option (opt, optarg, STYLE_EXEC_COUNTS, INCL_EXEC, true); break;
      case OPTION_DEMANGLE:
        opt->demangle = true;
        if (optarg)
          {
            enum demangling_styles style = cplus_demangle_name_to_style (optarg);

            if (style == unknown_demangling)
              {
                fprintf (stderr, _("%s: unknown demangling style `%s'\n"),
                         whoami, optarg);
                gp_exit_failure ();
              }
            opt->demangle_style = (int) style;
          }
        break;
      case OPTION_NO_DEMANGLE: opt->demangle = false; break;
      case OPTION_INLINE_FILE_NAMES: opt->inline_file_names = true; break;
      case OPTION_EXPORT: opt->export_format = optarg; break;
      case OPTION_DIAGNOSE: opt->diagnose = true; break;
      case OPTION_EXPORT_NODE_THRESHOLD:
        opt->export_node_threshold
          = export_number ("export-node-threshold", optarg, 0, 100);
        break;
      case OPTION_EXPORT_EDGE_THRESHOLD:
        opt->export_edge_threshold
          = export_number ("export-edge-threshold", optarg, 0, 100);
        break;
      case OPTION_EXPORT_MAX_DEPTH:
        opt->export_max_depth
          = (int) export_number ("export-max-depth", optarg, 1, 4096);
        break;
      case OPTION_DIFF: opt->diff_base = optarg; break;
      case OPTION_DIFF_EXE: opt->diff_image = optarg; break;
      case OPTION_DIFF_LEVEL:
        opt->diff_level = export_number ("diff-level", optarg, 50, 99.9999);
        break;
      case OPTION_DIFF_THRESHOLD:
        opt->diff_threshold = export_number ("diff-threshold", optarg, 0, 1e9);
        break;
      case OPTION_MEASURED_TIME: opt->measured_time = true; break;
      case OPTION_SINCE: opt->since = optarg; break;
      case OPTION_WHOLE_PROCESS: opt->whole_process = true; break;
      case OPTION_MODULE_DIR:
        opt->module_dirs = gp_reallocarray (opt->module_dirs,
                                            opt->nmodule_dirs + 1,
                                            sizeof *opt->module_dirs);
        opt->module_dirs[opt->nmodule_dirs++] = optarg;
        break;
      default:
        options_usage (stderr, gp_failure_status);
      }

  if ((opt->output_style & STYLE_FUNCTION_ORDER)
      && (opt->output_style & STYLE_FILE_ORDER))
    {
      fprintf (stderr, _("%s: Only one of --function-ordering and --file-ordering may be specified.\n"),
               whoami);
      gp_exit_failure ();
    }
  if (opt->output_style & STYLE_SUMMARY_FILE)
    opt->line_granularity = true;
  check_diff (opt);
  check_measured (opt);
  /* The stacks hold the program's frames alone: not the whole
     process's times.  */
  opt->apply_stacks = opt->measured_time
                      || ((opt->export_format || opt->diagnose)
                          && !opt->diff_base && !opt->line_granularity
                          && !opt->whole_process);
  opt->read_stacks = opt->apply_stacks
                     || (opt->output_style & STYLE_SUMMARY_FILE);
  if (getenv ("GPROF_PATH"))
    add_search_dirs (opt, getenv ("GPROF_PATH"));

  opt->image = optind < argc ? argv[optind++] : "a.out";
  opt->profiles = gp_reallocarray (NULL, (size_t) (argc - optind) + 1,
                                   sizeof *opt->profiles);
  opt->profiles[0] = optind < argc ? argv[optind++] : "gmon.out";
  opt->nprofiles = 1;
  while (optind < argc)
    opt->profiles[opt->nprofiles++] = argv[optind++];
  check_since (opt);
  check_whole_process (opt);
}
