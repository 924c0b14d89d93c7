/* i386.c - direct calls in x86-64 and i386 code.

   GNU gprof looks for the byte 0xe8 at every address and does not sign
   extend the displacement, so it misses every backward call and can
   take bytes inside other instructions for calls.  We step through the
   instructions from the start of the range, a linear sweep as objdump
   makes (x86_insn.c gives each one's length), and take each "call
   rel32" with its real target.  */

#include "config.h"
#include "mach/mach.h"

#include <string.h>
#include "gprof.h"
#include "mach/x86_insn.h"

void
find_call_i386 (CallScan *cs, vma_t lo, vma_t hi)
{
  const Core *core = cs->run->core;
  /* x32 programs are 64-bit code with 32-bit addresses.  */
  bool mode64 = bfd_get_mach (core->abfd) & (bfd_mach_x86_64 | bfd_mach_x64_32);
  size_t avail, last;
  const unsigned char *code, *last_e8;

  /* A sweep started at .text's start stays on its instructions.  */
  lo = scan_start (cs, lo, 1);
  code = scan_bytes (cs, lo, &avail);
  if (!code || hi <= lo)
    return;
  if (avail > hi - lo)
    avail = (size_t) (hi - lo);
  /* A call's opcode byte is 0xe8, at or after the start of its
     instruction: no instruction starting past the last such byte can be
     one, so the sweep stops there.  */
  last_e8 = memrchr (code, 0xe8, avail);
  if (!last_e8)
    return;
  last = (size_t) (last_e8 - code);
  for (size_t off = 0; off <= last;)
    {
      size_t op;
      size_t len = x86_insn_length (code + off, avail - off, mode64, &op);

      /* call rel32: the opcode, then the displacement ends the insn.  */
      if (op + 5 == len && code[off + op] == 0xe8)
        {
          const unsigned char *d = code + off + op + 1;
          int32_t rel = (int32_t) ((uint32_t) d[0] | (uint32_t) d[1] << 8
                                   | (uint32_t) d[2] << 16
                                   | (uint32_t) d[3] << 24);
          vma_t dest = lo + off + len + (vma_t) (int64_t) rel;

          if (core->vma_bytes != 8)
            dest &= 0xffffffffu;
          scan_direct_call (cs, dest);
        }
      off += len;
    }
}
