/* dwarf_lines.h - the addresses where DWARF line-table rows start.

   Used to ask BFD for the source position of each row once, instead of
   for every byte of .text as GNU gprof does: between two row addresses
   BFD's answer cannot change.  Only addresses are decoded here; what
   they mean (file, line, function) still comes from BFD.  */

#ifndef GPROF_DWARF_LINES_H
#define GPROF_DWARF_LINES_H

#include <bfd.h>
#include <stdbool.h>
#include "symtab.h"

/* Append to *V (growing it) the address of every row of every line
   program in ABFD's .debug_line.  Returns false if the section is
   present but could not be decoded, in which case the caller must not
   rely on the addresses.  */
bool dwarf_line_addresses (bfd *abfd, vma_t **v, size_t *n, size_t *cap);

#endif
