/* i386.c - direct calls in x86-64 and i386 code.

   GNU gprof looks for the byte 0xe8 at every address and does not sign
   extend the displacement, so it misses every backward call and can
   take bytes inside other instructions for calls.  We decode the
   instructions with libopcodes, in a linear sweep from the start of the
   range as objdump does, and take each "call rel32" with its real
   target.  */

#include "config.h"
#include "mach/mach.h"

#include <dis-asm.h>
#include "gprof.h"

static int
discard (void *stream, const char *fmt, ...)
{
  return 0;
}

static int
discard_styled (void *stream, enum disassembler_style style, const char *fmt, ...)
{
  return 0;
}

static bool
is_prefix (unsigned char b, bool is64)
{
  switch (b)
    {
    case 0x66: case 0x67: case 0xf2: case 0xf3:
    case 0x2e: case 0x3e: case 0x26: case 0x36: case 0x64: case 0x65:
      return true;
    default:
      return is64 && b >= 0x40 && b <= 0x4f;  /* REX */
    }
}

void
find_call_i386 (CallScan *cs, vma_t lo, vma_t hi)
{
  const Core *core = cs->run->core;
  bool is64 = core->vma_bytes == 8;
  struct disassemble_info info;
  disassembler_ftype decode;
  size_t avail;
  const unsigned char *code = scan_bytes (cs, lo, &avail);

  if (!code || hi <= lo)
    return;
  if (avail > hi - lo)
    avail = (size_t) (hi - lo);
  decode = disassembler (bfd_arch_i386, false, bfd_get_mach (core->abfd),
                         core->abfd);
  if (!decode)
    return;
  init_disassemble_info (&info, NULL, discard, discard_styled);
  info.arch = bfd_arch_i386;
  info.mach = bfd_get_mach (core->abfd);
  info.buffer = (bfd_byte *) code;
  info.buffer_vma = lo;
  info.buffer_length = avail;
  info.read_memory_func = buffer_read_memory;
  disassemble_init_for_target (&info);

  for (size_t off = 0; off < avail;)
    {
      int len = decode (lo + off, &info);
      size_t p = off;

      if (len <= 0)
        break;
      while (p < off + (size_t) len && is_prefix (code[p], is64))
        p++;
      /* call rel32: the opcode, then the displacement ends the insn.  */
      if (p + 5 == off + (size_t) len && code[p] == 0xe8)
        {
          int32_t rel;
          vma_t next = lo + off + (size_t) len, dest;

          rel = (int32_t) ((uint32_t) code[p + 1] | (uint32_t) code[p + 2] << 8
                           | (uint32_t) code[p + 3] << 16
                           | (uint32_t) code[p + 4] << 24);
          dest = next + (vma_t) (int64_t) rel;
          if (!is64)
            dest &= 0xffffffffu;
          scan_direct_call (cs, dest);
        }
      off += (size_t) len;
    }
}
