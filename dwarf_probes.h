/* dwarf_probes.h - the addresses where the source position of code can
   change, from the executable's DWARF (through elfutils' libdw).

   GNU gprof asks BFD for the source line of every byte of .text.  BFD's
   answer (file, line, function) can only change where a line-table row
   starts, or where a function, inlined subroutine or compilation unit
   starts or ends; asking at those addresses alone gives the same line
   symbols.  Only addresses are read here; what they mean still comes
   from BFD.  Ranges come from libdw, rows from our own walk of the line
   programs in .debug_line.  BFD is not used here: this runs on its own
   thread while BFD reads the functions' source lines.  */

#ifndef GPROF_DWARF_PROBES_H
#define GPROF_DWARF_PROBES_H

#include <stdbool.h>
#include <stddef.h>
#include "symtab.h"

/* Append those addresses of the executable FILENAME to *V (growing it).
   Returns false if its DWARF could not be read completely, in which
   case the caller must not rely on them.  */
bool dwarf_probe_addresses (const char *filename, vma_t **v, size_t *n,
                            size_t *cap);

#endif
