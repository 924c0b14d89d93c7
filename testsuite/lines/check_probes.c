/* check_probes.c - -l's line symbols must be GNU gprof's, which asks
   BFD about every byte of .text.  For each executable named on the
   command line: our own reading of the DWARF (dwarf/dwarf_src.h) must
   answer as BFD does at every byte, and the line symbols built asking
   BFD or our reading only where the answer may change must be those of
   the walk over every byte.  Built with GPROF_TESTING, for the hooks of
   corefile.c and dwarf/dwarf_src.c that only the tests use.  */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "corefile.h"
#include "pipeline/par.h"
#include "dwarf/dwarf_src.h"
#include "options.h"
#include "symtab.h"

/* IMAGE opened with its symbols read, as a run opens it.  */
static Core *
open_image (const char *image)
{
  Core *core = core_open (image, &par_serial);

  core_read_symbols (core, NULL);
  return core;
}

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

/* The line symbols of IMAGE built asking about every byte (GNU gprof's
   way) and only where the answer may change (ours), both from BFD if
   WITH_BFD, else both from our own reading.  */
static int
check_symbols (const char *image, bool with_bfd)
{
  Options opt;
  SymTab fast = { 0 }, slow = { 0 };
  SourceFiles ffast = { 0 }, fslow = { 0 };
  Core *every = open_image (image), *probing = open_image (image);
  const char *how = with_bfd ? "BFD" : "own";
  size_t i;
  int failed = 0;

  memset (&opt, 0, sizeof opt);
  opt.line_granularity = true;
  core_src_bfd_only = with_bfd;
  core_create_line_syms (every, &opt, &slow, &fslow, true);
  core_create_line_syms (probing, &opt, &fast, &ffast, false);
  core_src_bfd_only = false;
  for (i = 0; i < fast.len && i < slow.len; i++)
    if (!same_sym (&fast.base[i], &slow.base[i]))
      break;
  if (i < fast.len || i < slow.len)
    {
      const Sym *f = i < fast.len ? &fast.base[i] : NULL;
      const Sym *s = i < slow.len ? &slow.base[i] : NULL;

      printf ("FAIL %s: symbol %zu differs (%s answers)\n", image, i, how);
      print_sym ("probing     ", f);
      print_sym ("every byte  ", s);
      failed = 1;
    }
  else
    printf ("ok   %s: %zu symbols (%s answers)\n", image, fast.len, how);
  release (&fast, &ffast);
  release (&slow, &fslow);
  core_close (every);
  core_close (probing);
  return failed;
}

/* core_src_info's answer from BFD, whatever our own reading could
   answer.  */
static bool
bfd_src_info (Core *core, vma_t addr, const char **file, const char **func,
              int *line)
{
  bool ok;

  core_src_bfd_only = true;
  ok = core_src_info (core, addr, file, func, line, NULL);
  core_src_bfd_only = false;
  return ok;
}

static bool
same_answer (bool ok1, const char *file1, const char *func1, int line1,
             bool ok2, const char *file2, const char *func2, int line2)
{
  return ok1 == ok2
         && (!ok1 || (strcmp (file1, file2) == 0 && strcmp (func1, func2) == 0
                      && line1 == line2));
}

/* Whether BFD and our own reading give the same answer at ADDR; says
   so if not.  */
static bool
compare_at (Core *gnu, Core *ours, vma_t addr, const char *image)
{
  const char *f1 = NULL, *fn1 = NULL, *f2 = NULL, *fn2 = NULL;
  int l1 = 0, l2 = 0;
  bool ok1 = bfd_src_info (gnu, addr, &f1, &fn1, &l1);
  bool ok2 = core_src_info (ours, addr, &f2, &fn2, &l2, NULL);

  if (same_answer (ok1, f1, fn1, l1, ok2, f2, fn2, l2)
      || dws_ambiguous (ours->dws, addr))
    return true;
  printf ("FAIL %s: at %lx BFD says %s %s:%d, we say %s %s:%d\n", image,
          (unsigned long) addr, ok1 ? fn1 : "-", ok1 ? f1 : "-", ok1 ? l1 : 0,
          ok2 ? fn2 : "-", ok2 ? f2 : "-", ok2 ? l2 : 0);
  return false;
}

enum { DECLINED_UNCERTAIN = -2, DECLINED = -1, CERTAIN = 0, UNCERTAIN = 1,
       DIFFERENT = 2 };

/* Our own answers against BFD's, after a dry run over every byte of
   .text: at every symbol of code in table order (as gprof asks for the
   functions), then at every byte of .text.  Where
   BFD's answer depends on its heap (dws_ambiguous) any answer passes:
   UNCERTAIN if there is such an address.  */
static int
check_answers (const char *image)
{
  Core *gnu = open_image (image), *ours = open_image (image);
  const char *file, *func;
  int line, result = CERTAIN;
  size_t ambiguous = 0;

  /* The first question prepares our own reading; the check starts
     afresh.  */
  core_src_info (ours, ours->text_vma, &file, &func, &line, NULL);
  if (!ours->dws || !dws_exact (ours->dws))
    {
      bool ties = ours->dws && dws_any_tie (ours->dws);

      printf ("--   %s: our own reading declined the DWARF%s\n", image,
              ties ? " (and BFD's answers depend on its heap)" : "");
      core_close (gnu);
      core_close (ours);
      return ties ? DECLINED_UNCERTAIN : DECLINED;
    }
  core_close (ours);
  ours = open_image (image);
  /* What a dry run asks leaves no trace: the answers below must still
     be those of a BFD never asked it.  */
  if (!core_src_dry_run (ours, true))
    abort ();
  for (vma_t a = gnu->text_vma; a < gnu->text_vma + gnu->text_size; a++)
    core_src_info (ours, a, &file, &func, &line, NULL);
  core_src_dry_run (ours, false);
  for (long i = 0; i < gnu->nsyms && result != DIFFERENT; i++)
    if (gnu->syms[i]->section
        && (bfd_section_flags (gnu->syms[i]->section) & SEC_CODE)
        && !compare_at (gnu, ours, gnu->syms[i]->value
                        + bfd_section_vma (gnu->syms[i]->section), image))
      result = DIFFERENT;
  for (vma_t a = gnu->text_vma;
       a < gnu->text_vma + gnu->text_size && result != DIFFERENT; a++)
    {
      if (!compare_at (gnu, ours, a, image))
        result = DIFFERENT;
      ambiguous += dws_ambiguous (ours->dws, a);
    }
  if (result != DIFFERENT)
    {
      result = ambiguous ? UNCERTAIN : CERTAIN;
      printf ("ok   %s: the same answers at every byte of .text", image);
      if (ambiguous)
        printf (" (%zu bytes where BFD's own answer depends on its heap)",
                ambiguous);
      printf ("\n");
    }
  core_close (gnu);
  core_close (ours);
  return result;
}

/* Arguments: executables; one written +FILE must be answered by our own
   reading of its DWARF.  */
int
main (int argc, char **argv)
{
  int failed = 0;

  for (int i = 1; i < argc; i++)
    {
      bool must_own = argv[i][0] == '+';
      const char *image = argv[i] + must_own;
      int answers = check_answers (image);
      bool declined = answers == DECLINED || answers == DECLINED_UNCERTAIN;
      bool bad = answers == DIFFERENT || (declined && must_own);

      /* BFD against itself only where its answers do not depend on its
         heap, which the two runs leave in different states.  */
      if (!bad && answers != UNCERTAIN && answers != DECLINED_UNCERTAIN)
        bad = check_symbols (image, true);
      if (!bad && !declined)
        bad = check_symbols (image, false);
      failed += bad;
    }
  printf ("%d passed, %d failed\n", argc - 1 - failed, failed);
  return failed != 0;
}
