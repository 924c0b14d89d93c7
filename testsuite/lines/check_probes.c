/* check_probes.c - the line symbols of -l must not depend on how many
   addresses we ask BFD about.  For each executable named on the command
   line, build them asking about every byte (GNU gprof's way) and asking
   only where DWARF rows and symbols start (ours), and compare.  */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "corefile.h"
#include "options.h"
#include "symtab.h"

static bool
same_sym (const Sym *a, const Sym *b)
{
  return a->addr == b->addr && a->end_addr == b->end_addr
         && strcmp (a->name, b->name) == 0 && a->line_num == b->line_num
         && a->is_func == b->is_func && a->is_static == b->is_static
         && (a->file == NULL) == (b->file == NULL)
         && (!a->file || strcmp (a->file->name, b->file->name) == 0);
}

static void
print_sym (const char *how, const Sym *s)
{
  if (!s)
    {
      printf ("  %s: none\n", how);
      return;
    }
  printf ("  %s: %s %s:%d [%lx, %lx]%s%s\n", how, s->name,
          s->file ? s->file->name : "-", s->line_num, (unsigned long) s->addr,
          (unsigned long) s->end_addr, s->is_func ? " function" : "",
          s->is_static ? " static" : "");
}

/* LeakSanitizer (the sanitizer build) asks for this: libbfd keeps a few
   blocks of its line tables past bfd_close, which is not ours to fix.  */
const char *__lsan_default_suppressions (void);

const char *
__lsan_default_suppressions (void)
{
  return "leak:libbfd\n";
}

/* What a run of core_create_line_syms holds, freed so that the
   sanitizer build's leak check stays quiet.  */
static void
release (SymTab *tab, SourceFiles *files)
{
  for (SourceFile *sf = files->first, *next; sf; sf = next)
    {
      next = sf->next;
      free (sf->name);
      free (sf->line);
      free (sf);
    }
  free (files->hash);
  symtab_free (tab);
}

static int
check (const char *image)
{
  Options opt;
  SymTab fast = { 0 }, slow = { 0 };
  SourceFiles ffast = { 0 }, fslow = { 0 };
  Core *core = core_open (image, NULL);
  size_t i;
  int failed = 0;

  memset (&opt, 0, sizeof opt);
  opt.line_granularity = true;
  core_create_line_syms (core, &opt, &slow, &fslow, true);
  core_create_line_syms (core, &opt, &fast, &ffast, false);
  for (i = 0; i < fast.len && i < slow.len; i++)
    if (!same_sym (&fast.base[i], &slow.base[i]))
      break;
  if (i < fast.len || i < slow.len)
    {
      const Sym *f = i < fast.len ? &fast.base[i] : NULL;
      const Sym *s = i < slow.len ? &slow.base[i] : NULL;

      printf ("FAIL %s: symbol %zu differs\n", image, i);
      print_sym ("probing rows", f);
      print_sym ("every byte  ", s);
      failed = 1;
    }
  else
    printf ("ok   %s: %zu symbols\n", image, fast.len);
  release (&fast, &ffast);
  release (&slow, &fslow);
  core_close (core);
  return failed;
}

int
main (int argc, char **argv)
{
  int failed = 0;

  for (int i = 1; i < argc; i++)
    failed += check (argv[i]);
  printf ("%d passed, %d failed\n", argc - 1 - failed, failed);
  return failed != 0;
}
