/* mach.h - what depends on the instruction set, for the analyzer: the
   static call graph (-c) finds the direct calls in each function's code.

   The dispatcher picks a scanner by the executable's BFD architecture,
   so a profile from another machine is analysed with that machine's
   scanner.  Scanners report what they find through scan_direct_call and
   scan_indirect_call, which apply GNU gprof's rules for keeping a call.  */

#ifndef GPROF_MACH_H
#define GPROF_MACH_H

#include <stdbool.h>
#include "symtab.h"

struct Run;

typedef struct CallScan
{
  struct Run *run;
  Sym *parent;
} CallScan;

/* A call from the parent to DEST: an arc of count 0 if DEST lies in a
   histogram and a symbol starts exactly there.  */
void scan_direct_call (CallScan *cs, vma_t dest);
/* The same for a call that may enter its function SKIP bytes past the
   start: also accepted if the symbol containing DEST starts at
   DEST - SKIP (the histogram test stays on DEST).  */
void scan_direct_call_skip (CallScan *cs, vma_t dest, vma_t skip);
/* A call through a register: an arc to the pseudo-symbol
   "<indirect child>".  */
void scan_indirect_call (CallScan *cs);
/* The 32-bit word at PC in the executable's byte order; false if PC..PC+3
   is not inside .text.  */
bool scan_word (const CallScan *cs, vma_t pc, uint32_t *word);
/* The first of LO, LO + STEP, LO + 2 STEP... that is not before .text.
   A symbol's range runs up to the next symbol, so the last one before
   .text (_init, in .init) owns the start of .text up to its first
   function symbol, where the linker puts the .cold parts of functions.
   GNU scans that code too, stepping from the symbol's address (what it
   reads before .text lies outside its copy of .text: not code).  */
vma_t scan_start (const CallScan *cs, vma_t lo, vma_t step);
/* The bytes of .text from PC on, and how many there are.  */
const unsigned char *scan_bytes (const CallScan *cs, vma_t pc, size_t *avail);

/* Scanners: look for calls in [lo, hi).  */
void find_call_i386 (CallScan *cs, vma_t lo, vma_t hi);
void find_call_aarch64 (CallScan *cs, vma_t lo, vma_t hi);
void find_call_mips (CallScan *cs, vma_t lo, vma_t hi);
void find_call_sparc (CallScan *cs, vma_t lo, vma_t hi);
void find_call_alpha (CallScan *cs, vma_t lo, vma_t hi);

/* Scan PARENT's code [LO, HI) for calls (clipped to the histogram).
   Prints "-c not supported on architecture" once and switches -c off
   for other architectures.  */
void mach_find_call (struct Run *run, Sym *parent, vma_t lo, vma_t hi);

#endif
