/* options.h - the command line, parsed once into plain fields.  */

#ifndef GPROF_OPTIONS_H
#define GPROF_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

/* Which reports to print (bits of output_style).  */
enum
{
  STYLE_FLAT_PROFILE = 1 << 0,
  STYLE_CALL_GRAPH = 1 << 1,
  STYLE_SUMMARY_FILE = 1 << 2,
  STYLE_EXEC_COUNTS = 1 << 3,
  STYLE_ANNOTATED_SOURCE = 1 << 4,
  STYLE_GMON_INFO = 1 << 5,
  STYLE_FUNCTION_ORDER = 1 << 6,
  STYLE_FILE_ORDER = 1 << 7
};

typedef enum FileFormat
{
  FF_AUTO = 0,
  FF_MAGIC,
  FF_BSD,
  FF_BSD44,
  FF_PROF
} FileFormat;

/* The symspec tables (see sym_ids.h).  */
typedef enum SymTable
{
  INCL_GRAPH = 0, EXCL_GRAPH,
  INCL_ARCS, EXCL_ARCS,
  INCL_FLAT, EXCL_FLAT,
  INCL_TIME, EXCL_TIME,
  INCL_ANNO, EXCL_ANNO,
  INCL_EXEC, EXCL_EXEC,
  NUM_SYM_TABLES
} SymTable;

typedef struct SymSpecArg
{
  const char *spec;
  SymTable table;
} SymSpecArg;

typedef struct Options
{
  /* The arguments, which the strings below point into: kept for the
     run (after @FILE expansion they are the only reference).  */
  char **argv;
  const char *image;            /* executable (default a.out) */
  const char **profiles;        /* profile files, in order (>= 1) */
  size_t nprofiles;

  unsigned output_style;        /* STYLE_* to print */
  unsigned user_specified;      /* STYLE_* named on the command line */

  bool line_granularity;        /* -l (and -s) */
  bool bsd_style;               /* -T */
  bool print_descriptions;      /* blurbs; -b clears */
  bool ignore_zeros;            /* -z clears */
  bool ignore_static_funcs;     /* -a */
  bool ignore_non_functions;    /* -D */
  bool ignore_direct_calls;     /* -c: scan code for static calls */
  bool demangle;
  int demangle_style;           /* libiberty DMGL_* style bits, 0 = auto */
  bool inline_file_names;
  bool print_path;              /* -L */
  bool create_annotation_files; /* -y */
  bool bb_annotate_all_lines;   /* -x */
  int bb_table_length;          /* -t */
  unsigned long bb_min_calls;   /* -m */
  int output_width;             /* -w */
  FileFormat file_format;       /* -O */
  const char *external_symbol_table;  /* -S */
  const char *function_mapping_file;  /* -R */
  unsigned debug_level;         /* -d */

  const char **search_dirs;     /* -I then GPROF_PATH */
  size_t nsearch_dirs;

  SymSpecArg *specs;            /* symspecs in command-line order */
  size_t nspecs;

  /* Beyond GNU gprof.  */
  const char *export_format;    /* --export=FORMAT: write that instead */
  double export_node_threshold; /* --export-node-threshold=PCT (dot) */
  double export_edge_threshold; /* --export-edge-threshold=PCT (dot) */
  int export_max_depth;         /* --export-max-depth=N: stack frames */
  bool diagnose;                /* --diagnose: explain the profile data */
  const char *diff_base;        /* --diff=OLD: compare with this profile */
  const char *diff_image;       /* --diff-exe=EXE: OLD's executable, or NULL */
  double diff_level;            /* --diff-level=P: confidence, percent */
  double diff_threshold;        /* --diff-threshold=PCT, or < 0 */
  bool measured_time;           /* --measured-time: the call graph's times
                                   from the call stacks */
  const char *since;            /* --since=EARLIER: less this snapshot */
  bool whole_process;           /* --whole-process: every module */
  const char **module_dirs;     /* --module-dir=DIR, in order */
  size_t nmodule_dirs;
  /* Derived: read the call stacks beside each profile (gmon.out.stacks),
     and measure the call graph's times from them where they exist: for
     --measured-time, and for the exports and the diagnosis, which use
     whatever data the profile has.  -s only carries them along.  */
  bool read_stacks;
  bool apply_stacks;
} Options;

/* Parse ARGV into OPT.  Prints usage, version or errors and exits as GNU
   gprof does for bad options, -h and -v.  */
void options_parse (Options *opt, int argc, char **argv);

/* The usage text, to STREAM; exits with STATUS.  */
void options_usage (void *stream, int status) __attribute__ ((noreturn));

#endif
