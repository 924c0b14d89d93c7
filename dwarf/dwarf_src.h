/* dwarf_src.h - the source position of addresses, read from the DWARF
   (through elfutils' libdw) and answered as BFD's bfd_find_nearest_line
   answers.

   GNU gprof asks BFD for the file, line and function of every function
   and, with -l, of every byte of .text, and BFD's first question inside
   each function is slow.  Here the line programs and the function
   entries are read once into sorted arrays and each question is a
   binary search.

   Only DWARF whose every feature we model is answered for (dws_exact):
   C, C++ and assembly units of DWARF 2 to 5, line programs whose
   sequences do not overlap, units whose ranges do not overlap, code only
   in units with ranges.  For other DWARF the caller asks BFD, but only
   where the answer may change (dws_boundaries), not at every byte.  */

#ifndef GPROF_DWARF_SRC_H
#define GPROF_DWARF_SRC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "symtab.h"

typedef struct Dws Dws;
struct Par;

/* Read FILENAME's DWARF, leaving out what lies wholly at or below
   FLOOR, where nothing is asked (functions that the linker dropped
   stay in the DWARF at address 0).  NULL if it cannot be read through
   (or there is none).  */
Dws *dws_open (const char *filename, vma_t floor, const struct Par *par);

/* Whether dws_find may answer: every feature of the DWARF is modelled.  */
bool dws_exact (const Dws *dws);

/* A symbol BFD may name a function after, when the DWARF names it
   without a linkage name (C++): an ELF symbol of the section asked
   about, not a section, file, object or thread-local one.  OFFSET is its
   value within that section.  */
typedef struct DwsElfSym
{
  vma_t offset;
  uint64_t size;
  const char *name;
} DwsElfSym;

/* Those symbols, N of them in symbol-table order (copied), of the
   section at SECTION_VMA.  To be given before dws_find (exact only).  */
void dws_set_symbols (Dws *dws, const DwsElfSym *syms, size_t n,
                      vma_t section_vma);

void dws_close (Dws *dws);

/* The file, line and function name at ADDR, as bfd_find_nearest_line
   gives them when asked in the same order (its naming through symbols
   remembers earlier questions).  False unless all three are known.
   *ONCE tells that the name is a symbol's that later questions at the
   same address will not give.  The strings live until dws_close.  */
bool dws_find (Dws *dws, vma_t addr, const char **file, const char **func,
               int *line, bool *once);

/* From dws_dry_run (DWS, true) to dws_dry_run (DWS, false), dws_find
   answers as it would, and then forgets what those questions taught
   it: the later answers are those that would have come without them.  */
void dws_dry_run (Dws *dws, bool on);

#ifdef GPROF_TESTING
/* For testsuite/lines only (built with GPROF_TESTING).  Whether BFD's
   answer at ADDR is not certain: two function entries of the same
   length hold it, and BFD takes the one whose record lies higher in its
   memory (dws_find takes the later in the DWARF, which is where BFD
   allocates them as long as its heap grows upwards).  */
bool dws_ambiguous (Dws *d, vma_t addr);

/* Whether two function entries of one length hold some address, even
   where dws_exact is false (then over all entries): BFD's answers
   there depend on its heap.  */
bool dws_any_tie (const Dws *d);
#endif

/* Append to *V (N of CAP used) the addresses where the answer may
   change apart from the symbols: where rows start, units start and
   end, and the function answer changes (exact) or function entries
   start and end (otherwise).  False, appending nothing, if BFD's
   answer may change elsewhere too: only a walk over every address
   finds its answers then.  */
bool dws_boundaries (const Dws *d, vma_t **v, size_t *n, size_t *cap);

#endif
