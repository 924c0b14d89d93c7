/* unit.c - shared helpers of the unit tests (see unit.h).  */

#include "config.h"
#include "unit.h"
#include "pipeline/par.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "gprof.h"

static int tests_run, tests_failed;

bool
check (bool cond, const char *fmt, ...)
{
  va_list ap;

  tests_run++;
  if (!cond)
    tests_failed++;
  printf ("%sok %d - ", cond ? "" : "not ", tests_run);
  va_start (ap, fmt);
  vprintf (fmt, ap);
  va_end (ap);
  putchar ('\n');
  fflush (stdout);
  return cond;
}

int
check_done (void)
{
  printf ("1..%d\n", tests_run);
  if (tests_failed)
    printf ("# %d of %d failed\n", tests_failed, tests_run);
  return tests_failed ? 1 : 0;
}

void
rng_seed (Rng *r, uint64_t seed)
{
  /* xorshift must not start at zero.  */
  r->s = seed ? seed : 0x9e3779b97f4a7c15ULL;
}

uint64_t
rng_next (Rng *r)
{
  r->s ^= r->s >> 12;
  r->s ^= r->s << 25;
  r->s ^= r->s >> 27;
  return r->s * 0x2545f4914f6cdd1dULL;
}

size_t
rng_below (Rng *r, size_t n)
{
  return (size_t) (rng_next (r) % n);
}

Sym *
add_sym (SymTab *tab, size_t *cap, const char *name, vma_t addr,
         bool is_func, bool is_static)
{
  Sym *s;

  if (tab->len == *cap)
    {
      *cap = *cap ? *cap * 2 : 16;
      tab->base = realloc (tab->base, *cap * sizeof *tab->base);
      if (!tab->base)
        {
          perror ("add_sym");
          exit (99);
        }
    }
  s = &tab->base[tab->len++];
  memset (s, 0, sizeof *s);
  s->name = name;
  s->addr = addr;
  s->is_func = is_func;
  s->is_static = is_static;
  s->is_bb_head = true;
  return s;
}

bool
isolated (bool (*fn) (void))
{
  pid_t pid;
  int status;

  fflush (stdout);
  pid = fork ();
  if (pid < 0)
    {
      perror ("fork");
      exit (99);
    }
  if (pid == 0)
    {
      bool ok = fn ();

      fflush (stdout);
      _exit (ok ? 0 : 1);
    }
  if (waitpid (pid, &status, 0) != pid)
    {
      perror ("waitpid");
      exit (99);
    }
  if (WIFSIGNALED (status))
    printf ("# killed by signal %d\n", WTERMSIG (status));
  return WIFEXITED (status) && WEXITSTATUS (status) == 0;
}

uint64_t
unit_seed (void)
{
  const char *e = getenv ("UNIT_SEED");

  return e && *e ? strtoull (e, NULL, 0) : 20240601;
}

vma_t
sym_addr (size_t i)
{
  return 0x1000 + 0x10 * (vma_t) i;
}

vma_t
run_text_last (const Run *run)
{
  return sym_addr (run->symtab.len) - 1;
}

Run *
run_new (size_t n, const char *const *names)
{
  Run *run = calloc (1, sizeof *run);
  size_t cap = 0;

  if (!run)
    {
      perror ("run_new");
      exit (99);
    }
  for (size_t i = 0; i < n; i++)
    {
      char *name;

      if (names)
        name = strdup (names[i]);
      else if (asprintf (&name, "f%zu", i) < 0)
        name = NULL;
      if (!name)
        {
          perror ("run_new");
          exit (99);
        }
      add_sym (&run->symtab, &cap, name, sym_addr (i), true, false);
    }
  symtab_finalize (&run->symtab, sym_addr (n) - 1, NULL);
  hist_init (&run->hist);
  run->first_output = true;
  run->par = &par_serial;
  return run;
}

void
srcfiles_free (SourceFiles *files)
{
  for (SourceFile *sf = files->first, *next; sf; sf = next)
    {
      next = sf->next;
      free (sf->name);
      free (sf->line);
      free (sf);
    }
  free (files->hash);
}

void
run_free (Run *run)
{
  for (size_t i = 0; i < run->symtab.len; i++)
    {
      free ((char *) run->symtab.base[i].name);
      free (run->symtab.base[i].bb);
    }
  cg_free (&run->cg);
  hist_free (&run->hist);
  symtab_free (&run->symtab);
  srcfiles_free (&run->files);
  free (run);
}

void
run_arc (Run *run, size_t i, size_t j, unsigned long count)
{
  Sym *parent = &run->symtab.base[i], *child = &run->symtab.base[j];

  child->ncalls += count;
  cg_arc_add (&run->cg, &run->symtab, parent, child, count);
}

const Arc *
run_find_arc (const Run *run, size_t i, size_t j)
{
  const Sym *parent = &run->symtab.base[i], *child = &run->symtab.base[j];

  for (size_t k = 0; k < run->cg.narcs; k++)
    if (run->cg.arcs[k].parent == parent && run->cg.arcs[k].child == child)
      return &run->cg.arcs[k];
  return NULL;
}
