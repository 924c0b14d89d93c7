/* x86_vs_objdump.c - sweep the code sections of x86 executables and
   objects with objdump's disassembler (libopcodes) and with
   mach/x86_insn.c side by side, from each section's start, and report
   every instruction whose lengths differ.  Used by run-x86-insn.sh on
   compiled code, where the two must agree everywhere.

   x86_vs_objdump FILE...   exit status 0 if all agree, 1 if not, 2 if a
   file cannot be read.  */

#include "config.h"
#include <bfd.h>
#include <dis-asm.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "mach/x86_insn.h"

static int
discard (void *stream, const char *fmt, ...)
{
  (void) stream;
  (void) fmt;
  return 0;
}

static int
discard_styled (void *stream, enum disassembler_style style,
                const char *fmt, ...)
{
  (void) stream;
  (void) style;
  (void) fmt;
  return 0;
}

static unsigned long insns, differ;

static void
sweep (const char *what, const bfd_byte *code, size_t n, bfd_vma vma,
       unsigned long mach)
{
  bool mode64 = mach & (bfd_mach_x86_64 | bfd_mach_x64_32);
  disassembler_ftype decode = disassembler (bfd_arch_i386, false, mach, NULL);
  struct disassemble_info info;

  init_disassemble_info (&info, NULL, discard, discard_styled);
  info.arch = bfd_arch_i386;
  info.mach = mach;
  info.buffer = (bfd_byte *) code;
  info.buffer_vma = vma;
  info.buffer_length = n;
  info.read_memory_func = buffer_read_memory;
  disassemble_init_for_target (&info);
  for (size_t off = 0; off < n;)
    {
      int theirs = decode (vma + off, &info);
      size_t op, ours = x86_insn_length (code + off, n - off, mode64, &op);

      if (theirs <= 0)
        break;
      insns++;
      if ((size_t) theirs != ours)
        {
          if (differ++ < 20)
            {
              printf ("%s: at %#lx objdump %d, ours %zu:", what,
                      (unsigned long) (vma + off), theirs, ours);
              for (size_t k = 0; k < 12 && off + k < n; k++)
                printf (" %02x", code[off + k]);
              printf ("\n");
            }
        }
      off += (size_t) theirs;
    }
}

static bool
sweep_file (const char *file)
{
  bfd *abfd = bfd_openr (file, NULL);

  if (!abfd || !bfd_check_format (abfd, bfd_object))
    {
      fprintf (stderr, "%s: cannot read\n", file);
      if (abfd)
        bfd_close (abfd);
      return false;
    }
  if (bfd_get_arch (abfd) == bfd_arch_i386)
    for (asection *s = abfd->sections; s; s = s->next)
      {
        bfd_byte *code = NULL;
        char what[1024];

        if (!(s->flags & SEC_CODE) || !(s->flags & SEC_HAS_CONTENTS))
          continue;
        if (!bfd_malloc_and_get_section (abfd, s, &code))
          continue;
        snprintf (what, sizeof what, "%s(%s)", file, bfd_section_name (s));
        sweep (what, code, bfd_section_size (s), bfd_section_vma (s),
               bfd_get_mach (abfd));
        free (code);
      }
  bfd_close (abfd);
  return true;
}

int
main (int argc, char **argv)
{
  bool readable = true;

  bfd_init ();
  for (int i = 1; i < argc; i++)
    readable &= sweep_file (argv[i]);
  printf ("%lu instructions, %lu of other lengths\n", insns, differ);
  if (!readable)
    return 2;
  return differ ? 1 : 0;
}
