/* aarch64.c - direct calls in AArch64 code, as GNU gprof finds them: every
   B and BL (it counts plain branches, tail calls among them, as calls).  */

#include "config.h"
#include "mach/mach.h"

void
find_call_aarch64 (CallScan *cs, vma_t lo, vma_t hi)
{
  for (vma_t pc = scan_start (cs, lo, 4); pc < hi; pc += 4)
    {
      uint32_t insn;

      if (!scan_word (cs, pc, &insn))
        break;
      if ((insn & 0x7c000000) == 0x14000000)
        {
          /* imm26, sign-extended, in words.  */
          int64_t offset = (int64_t) ((insn & 0x03ffffff) ^ 0x02000000) - 0x02000000;

          scan_direct_call (cs, pc + (vma_t) (offset * 4));
        }
    }
}
