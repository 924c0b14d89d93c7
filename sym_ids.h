/* sym_ids.h - symspecs: the names, files and lines given to options such
   as -p, -q, -e, -k, turned into tables of address ranges.

   A symspec is "func", "file.c", "123", "file.c:func" or "file.c:123";
   arc specs ("-k from/to", "-q from/to") have a second one after '/'.
   Each table holds, sorted by address, one range per run of consecutive
   symbols that a spec matched.  */

#ifndef GPROF_SYM_IDS_H
#define GPROF_SYM_IDS_H

#include <stdbool.h>
#include "options.h"
#include "symtab.h"

typedef struct SpecArc SpecArc;

typedef struct SymSpecs
{
  SymTab table[NUM_SYM_TABLES];
  SpecArc **arcs[NUM_SYM_TABLES];  /* per entry: arcs to right-side ranges */
  SymTab right;                    /* the right sides of arc specs */
} SymSpecs;

/* Build the tables from OPT's symspecs and GNU's default exclusions
   (mcount and friends), against the finished symbol table.  */
void sym_ids_build (SymSpecs *ids, const Options *opt, const SymTab *symtab,
                    const SourceFiles *files, vma_t text_last,
                    char leading_char);
void sym_ids_free (SymSpecs *ids);

/* Is ADDR inside a range of table T?  */
bool sym_ids_in (const SymSpecs *ids, SymTable t, vma_t addr);

/* GNU's inclusion rule: ADDR is in INCL, or INCL is empty and ADDR is
   not in EXCL (INCL and EXCL being a pair such as INCL_FLAT/EXCL_FLAT).  */
bool sym_ids_pass (const SymSpecs *ids, SymTable incl, vma_t addr);

/* Does table T (INCL_ARCS or EXCL_ARCS) name the arc FROM -> TO?  */
bool sym_ids_arc_present (const SymSpecs *ids, SymTable t, const Sym *from,
                          const Sym *to);

#endif
