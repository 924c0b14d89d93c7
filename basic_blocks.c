/* basic_blocks.c - basic-block counts and the execution-count report.  */

#include "config.h"
#include "basic_blocks.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gprof.h"
#include "i18n.h"
#include "msort.h"
#include "util.h"

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
      if (l->line_num != r->line_num)
        return l->line_num - r->line_num;
    }
  if (l->addr < r->addr)
    return -1;
  return l->addr > r->addr;
}

static void
print_count (const Sym *sym, vma_t addr, unsigned long count)
{
  printf (_("%s:%d: (%s:0x%lx) %lu executions\n"),
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
