/* basic_blocks.c - basic-block counts and the execution-count report.  */

#include "config.h"
#include "basic_blocks.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gprof.h"
#include "i18n.h"
#include "support/out.h"
#include "support/msort.h"
#include "source.h"
#include "support/error.h"
#include "support/alloc.h"

void
bb_record (Run *run, vma_t addr, unsigned long count)
{
  Sym *sym;

  if (!run->opt.line_granularity)
    {
      if (!run->bb.warned)
        {
          run->bb.warned = true;
          gp_warn (_("%s: warning: ignoring basic-block exec counts (use -l or --line)\n"),
                   whoami);
        }
      return;
    }
  sym = symtab_lookup (&run->symtab, addr);
  if (!sym)
    return;
  if (!sym->bb)
    sym->bb = gp_calloc (1, sizeof *sym->bb);
  /* The first free or matching slot; beyond NBBS blocks the count is
     dropped, as GNU gprof drops it.  */
  for (int i = 0; i < NBBS; i++)
    if (sym->bb->addr[i] == 0 || sym->bb->addr[i] == addr)
      {
        sym->bb->addr[i] = addr;
        sym->bb->calls[i] += count;
        return;
      }
}

/* By file and line when both symbols have a file, then by address.  Not
   a consistent order when some symbols have no file; the merge sort
   gives GNU's result all the same.  */
static int
cmp_bb (const void *a, const void *b, void *ctx)
{
  const Sym *l = a, *r = b;

  if (l->file && r->file)
    {
      int c = strcmp (l->file->name, r->file->name);

      if (c)
        return c;
      /* GNU subtracts the line numbers, which overflows for those far
         apart (2^31 and more read as negative): compared instead.  */
      if (l->line_num != r->line_num)
        return l->line_num < r->line_num ? -1 : 1;
    }
  if (l->addr < r->addr)
    return -1;
  return l->addr > r->addr;
}

static void
print_count (const Sym *sym, vma_t addr, unsigned long count)
{
  out_printf (_("%s:%d: (%s:0x%lx) %lu executions\n"),
          sym->file ? sym->file->name : _("<unknown>"), sym->line_num,
          sym->name, (unsigned long) addr, count);
}

void
bb_print_exec_counts (Run *run)
{
  const SymTab *st = &run->symtab;
  Sym **v = gp_reallocarray (NULL, st->len ? st->len : 1, sizeof *v);
  size_t n = 0;

  run_separator (run);
  for (size_t i = 0; i < st->len; i++)
    if (sym_ids_pass (&run->ids, INCL_EXEC, st->base[i].addr))
      v[n++] = &st->base[i];
  msort_ptrs ((void **) v, n, cmp_bb, NULL);
  for (size_t i = 0; i < n; i++)
    {
      const Sym *sym = v[i];

      if (sym->ncalls > 0 || !run->opt.ignore_zeros)
        print_count (sym, sym->addr, sym->ncalls);
      for (int j = 0; sym->bb && j < NBBS && sym->bb->addr[j]; j++)
        if (sym->bb->calls[j] > 0 || !run->opt.ignore_zeros)
          print_count (sym, sym->bb->addr[j], sym->bb->calls[j]);
    }
  free (v);
}

/* ---- annotated source ------------------------------------------------- */

/* By line; the merge sort keeps the symbol table's order within a line.  */
static int
cmp_line (const void *a, const void *b, void *ctx)
{
  const Sym *l = a, *r = b;

  (void) ctx;
  return (l->line_num > r->line_num) - (l->line_num < r->line_num);
}

/* Collapse SF's table, sorted by line, to one symbol a line: the first in
   the symbol table's order, or when there are more, a copy of it at
   address 0 that sums the calls of all of them (a first symbol that is
   at address 0 itself takes the sum, as in GNU gprof).  */
static void
merge_lines (SourceFile *sf)
{
  size_t n = 0;

  for (size_t i = 0; i < sf->nline; i++)
    {
      Sym *s = sf->line[i], *slot = n ? sf->line[n - 1] : NULL;

      if (!slot || slot->line_num != s->line_num)
        sf->line[n++] = s;
      else if (!slot->addr)
        slot->ncalls += s->ncalls;
      else
        {
          Sym *sum = gp_malloc (sizeof *sum);

          *sum = *slot;
          sum->addr = 0;
          sum->ncalls += s->ncalls;
          sf->line[n - 1] = sum;
        }
    }
  sf->nline = n;
}

/* Give every source file its table of lines with symbols, and the calls
   of all of its symbols.  Lines below 1 (a line number of 2^31 or more
   in the debugging information reads as negative, as in GNU gprof) have
   no place in the table; their calls still count for the file.  */
static void
collect_lines (Run *run)
{
  SymTab *st = &run->symtab;

  for (size_t i = 0; i < st->len; i++)
    {
      Sym *s = &st->base[i];

      if (s->file && sym_ids_pass (&run->ids, INCL_ANNO, s->addr))
        {
          if (s->line_num > s->file->num_lines)
            s->file->num_lines = s->line_num;
          if (s->line_num > 0)
            s->file->nline++;
        }
    }
  for (SourceFile *sf = run->files.first; sf; sf = sf->next)
    {
      sf->line = gp_reallocarray (NULL, sf->nline ? sf->nline : 1,
                                  sizeof *sf->line);
      sf->nline = 0;
    }
  for (size_t i = 0; i < st->len; i++)
    {
      Sym *s = &st->base[i];

      if (!s->file || !s->file->num_lines
          || !sym_ids_pass (&run->ids, INCL_ANNO, s->addr))
        continue;
      s->file->ncalls += s->ncalls;
      if (s->line_num > 0)
        s->file->line[s->file->nline++] = s;
    }
  for (SourceFile *sf = run->files.first; sf; sf = sf->next)
    {
      msort_ptrs ((void **) sf->line, sf->nline, cmp_line, NULL);
      merge_lines (sf);
    }
}

/* The symbol of line LINE_NUM of SF, or NULL.  */
static const Sym *
line_sym (const SourceFile *sf, long line_num)
{
  size_t lo = 0, hi = sf->nline;

  while (lo < hi)
    {
      size_t mid = lo + (hi - lo) / 2;

      if (sf->line[mid]->line_num < line_num)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo < sf->nline && sf->line[lo]->line_num == line_num
         ? sf->line[lo] : NULL;
}

typedef struct Annotate
{
  const Run *run;
  const SourceFile *sf;
  /* Carried from line to line, and from file to file, as in GNU gprof.  */
  unsigned long last_count, last_print;
  long executable_lines, lines_executed;
} Annotate;

static void
blank (char *buf, unsigned width)
{
  memset (buf, ' ', width);
  buf[width] = '\0';
}

/* The note before a line: the call count of a function starting there,
   or the counts of its basic blocks; "#####" when below -m; with -x the
   count carried from the lines above.  */
static void
annotate_with_count (char *buf, unsigned width, long line_num, void *arg)
{
  Annotate *an = arg;
  const Options *opt = &an->run->opt;
  const Sym *b = line_sym (an->sf, line_num);
  char text[NBBS * 30 + 8];
  size_t len = 0, n;
  unsigned long ncalls = 0;
  bool ncalls_set = false;

  if (!b)
    {
      blank (buf, width);
      return;
    }
  an->executable_lines++;
  text[0] = '\0';
  if (b->is_func)
    {
      len = (size_t) sprintf (text, "%lu", b->ncalls);
      an->last_count = an->last_print = ncalls = b->ncalls;
      ncalls_set = true;
    }
  else if (opt->bb_annotate_all_lines && b->bb && b->bb->addr[0]
           && b->bb->addr[0] > b->addr)
    {
      /* The line starts inside the block of the lines above.  */
      len = (size_t) sprintf (text, "%lu", an->last_count);
      an->last_print = ncalls = an->last_count;
      ncalls_set = true;
    }
  for (int i = 0; b->bb && i < NBBS && b->bb->addr[i]; i++)
    {
      an->last_count = b->bb->calls[i];
      ncalls += an->last_count;
      ncalls_set = true;
      if (opt->bb_annotate_all_lines && an->last_count == an->last_print)
        continue;
      len += (size_t) sprintf (text + len, len ? ",%lu" : "%lu", an->last_count);
      an->last_print = an->last_count;
    }
  if (opt->bb_annotate_all_lines && len == 0)
    {
      len = (size_t) sprintf (text, "%lu", an->last_count);
      ncalls = an->last_count;
      ncalls_set = true;
    }
  if (!ncalls_set)
    {
      blank (buf, width);
      return;
    }
  an->lines_executed++;
  if (ncalls < opt->bb_min_calls)
    len = (size_t) sprintf (text, "#####");
  strcpy (text + len, " -> ");
  n = len + 4;
  if (n >= width)
    {
      memcpy (buf, text, width);
      buf[width] = '\0';
    }
  else
    {
      memset (buf, ' ', width - n);
      strcpy (buf + width - n, text);
    }
}

/* Busiest lines first, then by line.  */
static int
cmp_ncalls (const void *a, const void *b, void *ctx)
{
  const Sym *l = a, *r = b;

  (void) ctx;
  if (l->ncalls != r->ncalls)
    return l->ncalls < r->ncalls ? 1 : -1;
  return (l->line_num > r->line_num) - (l->line_num < r->line_num);
}

/* The table is sparse; GNU gprof sorts one slot a line, the empty ones
   last, which leaves the used ones in the same order as here.  */
static void
print_top_lines (FILE *out, SourceFile *sf, int table_length)
{
  size_t n = (size_t) (table_length < sf->num_lines ? table_length
                                                    : sf->num_lines);

  out_fprintf (out, _("\n\nTop %d Lines:\n\n     Line      Count\n\n"), table_length);
  msort_ptrs ((void **) sf->line, sf->nline, cmp_ncalls, NULL);
  for (size_t i = 0; i < n && i < sf->nline; i++)
    {
      const Sym *s = sf->line[i];

      if (s->ncalls == 0)
        break;
      out_fprintf (out, "%9d %10lu\n", s->line_num, s->ncalls);
    }
}

static void
print_summary (FILE *out, const SourceFile *sf, const Annotate *an)
{
  out_fprintf (out, _("\nExecution Summary:\n\n"));
  out_fprintf (out, _("%9ld   Executable lines in this file\n"), an->executable_lines);
  out_fprintf (out, _("%9ld   Lines executed\n"), an->lines_executed);
  out_fprintf (out, _("%9.2f   Percent of the file executed\n"),
           an->executable_lines
           ? 100.0 * an->lines_executed / (double) an->executable_lines : 100.0);
  out_fprintf (out, _("\n%9lu   Total number of line executions\n"), sf->ncalls);
  out_fprintf (out, _("%9.2f   Average executions per line\n"),
           an->executable_lines
           ? (double) sf->ncalls / (double) an->executable_lines : 0.0);
}

void
bb_print_annotated_source (Run *run)
{
  Annotate an = { run, NULL, 0, (unsigned long) -1, 0, 0 };

  collect_lines (run);
  for (SourceFile *sf = run->files.first; sf; sf = sf->next)
    {
      FILE *out;

      if (!sf->num_lines || (run->opt.ignore_zeros && sf->ncalls == 0))
        continue;
      an.sf = sf;
      an.executable_lines = an.lines_executed = 0;
      out = annotate_source (run, sf, 16, annotate_with_count, &an);
      if (!out)
        continue;
      if (run->opt.bb_table_length > 0)
        print_top_lines (out, sf, run->opt.bb_table_length);
      print_summary (out, sf, &an);
      annotate_finish (run, sf, out);
    }
}
