/* sparc.c - calls in SPARC code, as GNU gprof finds them, bugs included:

   - a CALL has 01 in its top two bits, but GNU only tests that they are
     not 00, so every arithmetic (10) and load/store (11) instruction is
     read as a call too;
   - the 30-bit displacement counts words, but GNU adds it to the PC as
     a number of bytes.

   Both make GNU miss most real calls and find calls that are none, when
   a function happens to start where the misread displacement points.
   We reproduce that on purpose: the output must be GNU's.  */

#include "config.h"
#include "mach/mach.h"

void
find_call_sparc (CallScan *cs, vma_t lo, vma_t hi)
{
  for (vma_t pc = scan_start (cs, (lo + 3) & ~(vma_t) 3, 4); pc < hi; pc += 4)
    {
      uint32_t insn;

      if (!scan_word (cs, pc, &insn))
        break;
      if (insn & 0xc0000000)
        {
          /* disp30, sign-extended, in bytes (GNU's bug: not << 2).  */
          int64_t disp = (int64_t) ((insn & 0x3fffffff) ^ 0x20000000) - 0x20000000;

          scan_direct_call (cs, pc + (vma_t) disp);
        }
    }
}
