/* dwarf_probes.c - row and range boundaries from DWARF, with libdw.  */

#include "config.h"
#include "dwarf_probes.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include "util.h"

typedef struct Probes
{
  vma_t **v;
  size_t *n, *cap;
} Probes;

static void
push (Probes *p, vma_t addr)
{
  gp_grow (p->v, p->cap, *p->n + 1, sizeof **p->v);
  (*p->v)[(*p->n)++] = addr;
}

static bool
has_code_ranges (int tag)
{
  return tag == DW_TAG_compile_unit || tag == DW_TAG_partial_unit
         || tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine
         || tag == DW_TAG_entry_point;
}

/* Both ends of every range of DIE.  */
static bool
push_ranges (Probes *p, Dwarf_Die *die)
{
  Dwarf_Addr base, start, end, low;
  ptrdiff_t off = 0;

  while ((off = dwarf_ranges (die, off, &base, &start, &end)) > 0)
    {
      push (p, start);
      push (p, end);
    }
  if (off < 0)
    return false;
  /* An entry point has an address but no range.  */
  if (dwarf_hasattr (die, DW_AT_low_pc) && dwarf_lowpc (die, &low) == 0)
    push (p, low);
  return true;
}

/* Every DIE under CU, with an explicit stack: nesting depth is the
   input's to choose.  */
static bool
walk_unit (Probes *p, Dwarf_Die *cu)
{
  Dwarf_Die *stack = NULL;
  size_t depth = 0, cap = 0;
  bool ok = true;

  gp_grow (&stack, &cap, 1, sizeof *stack);
  stack[depth++] = *cu;
  while (ok && depth > 0)
    {
      Dwarf_Die die = stack[--depth], child;

      if (has_code_ranges (dwarf_tag (&die)))
        ok = push_ranges (p, &die);
      if (dwarf_haschildren (&die) && dwarf_child (&die, &child) == 0)
        do
          {
            gp_grow (&stack, &cap, depth + 1, sizeof *stack);
            stack[depth++] = child;
          }
        while (dwarf_siblingof (&child, &child) == 0);
    }
  free (stack);
  return ok;
}

static bool
push_rows (Probes *p, Dwarf_Die *cu)
{
  Dwarf_Lines *lines;
  size_t nlines;

  if (dwarf_getsrclines (cu, &lines, &nlines) != 0)
    return !dwarf_hasattr (cu, DW_AT_stmt_list);  /* no line table is fine */
  for (size_t i = 0; i < nlines; i++)
    {
      Dwarf_Addr addr;

      if (dwarf_lineaddr (dwarf_onesrcline (lines, i), &addr) != 0)
        return false;
      push (p, addr);
    }
  return true;
}

bool
dwarf_probe_addresses (const char *filename, vma_t **v, size_t *n, size_t *cap)
{
  Probes p = { v, n, cap };
  int fd = open (filename, O_RDONLY);
  Dwarf *dw;
  Dwarf_Off off = 0, next;
  size_t header;
  bool ok = true;
  int r;

  if (fd < 0)
    return false;
  dw = dwarf_begin (fd, DWARF_C_READ);
  if (!dw)
    {
      close (fd);
      return false;
    }
  while (ok && (r = dwarf_nextcu (dw, off, &next, &header, NULL, NULL, NULL)) == 0)
    {
      Dwarf_Die cu;

      ok = dwarf_offdie (dw, off + header, &cu) != NULL
           && push_rows (&p, &cu) && walk_unit (&p, &cu);
      off = next;
    }
  if (ok && r < 0)
    ok = false;
  dwarf_end (dw);
  close (fd);
  return ok;
}
