/* unit.h - what every unit test of the analyzer shares: TAP-style
   result lines, a reproducible random generator and symbol-table
   building.  */

#ifndef GPROF_UNIT_H
#define GPROF_UNIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "symtab.h"

/* Print "ok N - what" or "not ok N - what"; returns COND so that a test
   can print details after a failure.  */
bool check (bool cond, const char *fmt, ...)
  __attribute__ ((format (printf, 2, 3)));

/* Print the plan line; the exit status for main: 0 iff all passed.  */
int check_done (void);

/* xorshift64*: the same numbers on every machine, so that a failing
   random case can be reproduced from its seed.  */
typedef struct Rng
{
  uint64_t s;
} Rng;

void rng_seed (Rng *r, uint64_t seed);
uint64_t rng_next (Rng *r);
/* Uniform in [0, n); n > 0.  */
size_t rng_below (Rng *r, size_t n);

/* Append a symbol to TAB (grown as needed; CAP is its capacity) with
   everything else zeroed, and return it.  NAME is not copied.  */
Sym *add_sym (SymTab *tab, size_t *cap, const char *name, vma_t addr,
              bool is_func, bool is_static);

/* Free FILES and every file in it.  The analyzer never frees its list
   (it lives until exit); the tests do, to run clean under LeakSanitizer.  */
void srcfiles_free (SourceFiles *files);

/* A Run holding only a symbol table of N functions, symbol i at
   sym_addr (i) and named NAMES[i] (or "f<i>" if NAMES is NULL), already
   finalized; the rest zeroed, as cg_assemble and sym_ids_build need.  */
struct Run;
struct Run *run_new (size_t n, const char *const *names);
void run_free (struct Run *run);
vma_t sym_addr (size_t i);
/* The last address of the run's text: the end of the last symbol.  */
vma_t run_text_last (const struct Run *run);

/* Record a call-graph record's arc between symbols I and J as cg_tally
   does without symspecs: the callee's count, then the arc.  */
void run_arc (struct Run *run, size_t i, size_t j, unsigned long count);

/* The arc from symbol I to symbol J of RUN, or NULL: a plain scan, as
   the analyzer itself never looks arcs up by pair.  */
struct Arc;
const struct Arc *run_find_arc (const struct Run *run, size_t i, size_t j);

/* Run FN in a child process and tell whether it returned true: a test
   that crashes the analyzer then fails alone instead of ending the
   program.  Prints the signal that killed the child, if any.  */
bool isolated (bool (*fn) (void));

/* A process-wide seed: from the environment variable UNIT_SEED if set,
   so that other random cases can be tried, else a fixed one.  */
uint64_t unit_seed (void);

#endif
