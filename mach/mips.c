/* mips.c - calls in MIPS code, as GNU gprof finds them: JAL to a function,
   and JALR with the return address in $ra as a call through a register.
   Other linking branches (BAL, BGEZAL, JALR to another register) are not
   looked for.  */

#include "config.h"
#include "mach/mach.h"

void
find_call_mips (CallScan *cs, vma_t lo, vma_t hi)
{
  /* GNU steps from LO as it is, so a function at an address that is no
     multiple of 4 is read at that misalignment.  */
  for (vma_t pc = scan_start (cs, lo, 4); pc < hi; pc += 4)
    {
      uint32_t insn;

      if (!scan_word (cs, pc, &insn))
        break;
      if ((insn & 0xfc000000) == 0x0c000000)
        /* JAL: the target's low 28 bits replace those of the PC.  (GNU
           uses the JAL's own address, not that of its delay slot.)  */
        scan_direct_call (cs, (pc & ~(vma_t) 0x0fffffff) | (vma_t) (insn & 0x03ffffff) << 2);
      else if ((insn & 0xfc00f83f) == 0x0000f809)
        /* JALR $ra, rs: SPECIAL, rd = 31, function 9.  */
        scan_indirect_call (cs);
    }
}
