/* find_call.c - dispatching -c to the scanner of the architecture.  */

#include "config.h"
#include "mach/mach.h"

#include <stdio.h>
#include "gprof.h"
#include "i18n.h"
#include "support/error.h"

void
scan_direct_call_skip (CallScan *cs, vma_t dest, vma_t skip)
{
  Run *run = cs->run;
  Sym *child;

  /* GNU checks the histogram range with a 32-bit address.  */
  if (!hist_check_address (&run->hist, (uint32_t) dest))
    return;
  child = symtab_lookup (&run->symtab, dest);
  if (child && (child->addr == dest || child->addr == dest - skip))
    cg_arc_add (&run->cg, &run->symtab, cs->parent, child, 0);
}

void
scan_direct_call (CallScan *cs, vma_t dest)
{
  scan_direct_call_skip (cs, dest, 0);
}

void
scan_indirect_call (CallScan *cs)
{
  cg_arc_add (&cs->run->cg, &cs->run->symtab, cs->parent,
              cg_indirect_child (&cs->run->symtab), 0);
}

vma_t
scan_start (const CallScan *cs, vma_t lo, vma_t step)
{
  vma_t text = cs->run->core->text_vma;

  if (lo >= text)
    return lo;
  return text + (step - (text - lo) % step) % step;
}

const unsigned char *
scan_bytes (const CallScan *cs, vma_t pc, size_t *avail)
{
  const Core *core = cs->run->core;

  if (pc < core->text_vma || pc - core->text_vma >= core->text_size)
    {
      *avail = 0;
      return NULL;
    }
  *avail = (size_t) (core->text_size - (pc - core->text_vma));
  return core->text_space + (pc - core->text_vma);
}

bool
scan_word (const CallScan *cs, vma_t pc, uint32_t *word)
{
  size_t avail;
  const unsigned char *p = scan_bytes (cs, pc, &avail);

  if (!p || avail < 4)
    return false;
  if (cs->run->core->big_endian)
    *word = (uint32_t) p[0] << 24 | (uint32_t) p[1] << 16 | (uint32_t) p[2] << 8 | p[3];
  else
    *word = (uint32_t) p[3] << 24 | (uint32_t) p[2] << 16 | (uint32_t) p[1] << 8 | p[0];
  return true;
}

void
mach_find_call (Run *run, Sym *parent, vma_t lo, vma_t hi)
{
  CallScan cs = { run, parent };

  if (!run->core->text_space)
    return;
  hist_clip_symbol_address (&run->hist, &lo, &hi);
  switch (bfd_get_arch (run->core->abfd))
    {
    case bfd_arch_i386:
      find_call_i386 (&cs, lo, hi);
      break;
    case bfd_arch_aarch64:
      find_call_aarch64 (&cs, lo, hi);
      break;
    case bfd_arch_mips:
      find_call_mips (&cs, lo, hi);
      break;
    case bfd_arch_sparc:
      find_call_sparc (&cs, lo, hi);
      break;
    case bfd_arch_alpha:
      find_call_alpha (&cs, lo, hi);
      break;
    default:
      fprintf (stderr, _("%s: -c not supported on architecture %s\n"),
               whoami, bfd_printable_name (run->core->abfd));
      /* Said once: -c is off from here on.  */
      run->opt.ignore_direct_calls = false;
      break;
    }
}
