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
#include <dlfcn.h>
#include <stdio.h>
#include "gprof.h"
#include "i18n.h"
#include "util.h"

/* libopcodes, loaded on the first -c scan: linking it would cost every
   run the relocation of its tables (see configure.ac).  */
typedef struct Opcodes
{
  disassembler_ftype (*disassembler) (enum bfd_architecture, bool,
                                      unsigned long, bfd *);
  void (*init_info) (struct disassemble_info *, void *, fprintf_ftype,
                     fprintf_styled_ftype);
  void (*init_for_target) (struct disassemble_info *);
  int (*read_memory) (bfd_vma, bfd_byte *, unsigned int,
                      struct disassemble_info *);
} Opcodes;

/* The functions, or NULL (said once) when the library cannot be had.  */
static const Opcodes *
opcodes (void)
{
  static Opcodes ops;
  static int state;             /* 0 not tried, 1 loaded, -1 failed */
  void *lib;

  if (state == 0)
    {
      state = -1;
      lib = dlopen (OPCODES_SONAME, RTLD_NOW);
      if (lib)
        {
          *(void **) &ops.disassembler = dlsym (lib, "disassembler");
          *(void **) &ops.init_info = dlsym (lib, "init_disassemble_info");
          *(void **) &ops.init_for_target = dlsym (lib, "disassemble_init_for_target");
          *(void **) &ops.read_memory = dlsym (lib, "buffer_read_memory");
          if (ops.disassembler && ops.init_info && ops.init_for_target
              && ops.read_memory)
            state = 1;
        }
      if (state < 0)
        fprintf (stderr, _("%s: -c: cannot load the disassembler %s: %s\n"),
                 whoami, OPCODES_SONAME, dlerror ());
    }
  return state > 0 ? &ops : NULL;
}

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
  const Opcodes *ops;

  if (!code || hi <= lo || !(ops = opcodes ()))
    return;
  if (avail > hi - lo)
    avail = (size_t) (hi - lo);
  decode = ops->disassembler (bfd_arch_i386, false, bfd_get_mach (core->abfd),
                              core->abfd);
  if (!decode)
    return;
  ops->init_info (&info, NULL, discard, discard_styled);
  info.arch = bfd_arch_i386;
  info.mach = bfd_get_mach (core->abfd);
  info.buffer = (bfd_byte *) code;
  info.buffer_vma = lo;
  info.buffer_length = avail;
  info.read_memory_func = ops->read_memory;
  ops->init_for_target (&info);

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
