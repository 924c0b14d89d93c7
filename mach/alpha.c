/* alpha.c - calls in Alpha code, as GNU gprof finds them: BSR to a
   function, and JSR or JSR_COROUTINE as a call through a register.

   GNU adds BSR's 21-bit displacement, which counts words, to the PC as a
   number of bytes; we copy that bug, as the output must be GNU's.  A
   function may be entered 8 bytes in, past the instructions that load
   its global pointer, so the symbol containing the target may also start
   8 bytes before it.  */

#include "config.h"
#include "mach/mach.h"

#define ALPHA_OP_JSR_GROUP 0x1a   /* JMP, JSR, RET, JSR_COROUTINE */
#define ALPHA_OP_BSR 0x34

void
find_call_alpha (CallScan *cs, vma_t lo, vma_t hi)
{
  for (vma_t pc = scan_start (cs, (lo + 3) & ~(vma_t) 3, 4); pc < hi; pc += 4)
    {
      uint32_t insn;

      if (!scan_word (cs, pc, &insn))
        break;
      switch (insn >> 26)
        {
        case ALPHA_OP_JSR_GROUP:
          /* Bits 15..14 tell them apart: 1 is JSR, 3 JSR_COROUTINE.  */
          if ((insn >> 14 & 3) == 1 || (insn >> 14 & 3) == 3)
            scan_indirect_call (cs);
          break;
        case ALPHA_OP_BSR:
          {
            /* disp21, sign-extended, from the next instruction, in bytes
               (GNU's bug: not << 2).  */
            int64_t disp = (int64_t) ((insn & 0x1fffff) ^ 0x100000) - 0x100000;

            scan_direct_call_skip (cs, pc + 4 + (vma_t) disp, 8);
          }
          break;
        default:
          break;
        }
    }
}
