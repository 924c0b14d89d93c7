/* names.h - how symbols are named in the reports: demangling, the
   "(file:line)" suffix, cycle and index tags.  */

#ifndef GPROF_NAMES_H
#define GPROF_NAMES_H

#include <stdbool.h>
#include "options.h"
#include "symtab.h"

typedef struct NameFmt
{
  bool demangle;          /* off in BSD (-T) mode */
  int demangle_style;     /* libiberty DMGL_* style bit, 0 for auto */
  bool line_granularity;
  bool inline_file_names;
  bool print_path;
  char leading_char;
  const char *cycle_fmt;  /* " <cycle %d>", translated */
  bool cycle_fmt_is_default;
  struct DemangleCache *cache;  /* name string -> its demangled form */
} NameFmt;

void names_init (NameFmt *nf, const Options *opt, char leading_char);

/* The name as the reports show it (demangled if asked for), malloc'ed,
   or NULL when it is to be printed as it is.  */
char *names_demangle (const NameFmt *nf, const char *name);

/* Print the (demangled) name and, with -l or --inline-file-names, its
   source position; return the number of characters printed.  Nothing
   for a cycle header.  */
int print_name_only (const NameFmt *nf, const Sym *sym);

/* print_name_only, then " <cycle N>" and the index tag: "[N]" if the
   symbol is printed in the call graph, "(N)" if not.  */
void print_name (const NameFmt *nf, const Sym *sym);

/* The file name as printed: the full path with -L, else its last part.  */
const char *names_file (const NameFmt *nf, const SourceFile *file);

#endif
