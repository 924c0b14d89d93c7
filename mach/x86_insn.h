/* x86_insn.h - the length of an x86 instruction, from its encoding.  */
#ifndef GPROF_X86_INSN_H
#define GPROF_X86_INSN_H

#include <stdbool.h>
#include <stddef.h>

/* The length of the instruction at CODE, of which AVAIL bytes can be
   read, decoded in 64-bit mode if MODE64, else in 32-bit mode, as
   objdump measures it: 1 if it runs past AVAIL (objdump shows the first
   byte alone and goes on), 0 only if AVAIL is 0.  *OPCODE_AT receives
   the offset of its opcode, after the prefixes; it is less than the
   length.  */
size_t x86_insn_length (const unsigned char *code, size_t avail, bool mode64,
                        size_t *opcode_at);

#endif
