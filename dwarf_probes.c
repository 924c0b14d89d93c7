/* dwarf_probes.c - row and range boundaries from DWARF, with libdw.  */

#include "config.h"
#include "dwarf_probes.h"

#include <string.h>

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <gelf.h>
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

/* ---- line-table rows ---------------------------------------------------

   Only the row addresses are needed, so the line programs are walked
   here directly: libdw's dwarf_getsrclines also builds file tables and
   sorts every row, which costs several times more on big programs.  */

typedef struct Cursor
{
  const unsigned char *p, *end;
  bool big_endian;
  bool ok;
} Cursor;

static uint64_t
get (Cursor *c, size_t n)
{
  uint64_t v = 0;

  if ((size_t) (c->end - c->p) < n)
    {
      c->ok = false;
      c->p = c->end;
      return 0;
    }
  for (size_t i = 0; i < n; i++)
    v |= (uint64_t) c->p[i] << (8 * (c->big_endian ? n - 1 - i : i));
  c->p += n;
  return v;
}

static uint64_t
uleb (Cursor *c)
{
  uint64_t v = 0;
  unsigned shift = 0;

  while (c->p < c->end)
    {
      unsigned char b = *c->p++;

      if (shift < 64)
        v |= (uint64_t) (b & 0x7f) << shift;
      shift += 7;
      if (!(b & 0x80))
        return v;
    }
  c->ok = false;
  return v;
}

typedef struct LineHeader
{
  unsigned min_insn, max_ops, line_range, opcode_base;
  const unsigned char *std_lengths;
} LineHeader;

/* Run one line program (the bytes of C) and record its row addresses.  */
static void
run_program (Cursor *c, const LineHeader *h, Probes *p)
{
  uint64_t addr = 0, op_index = 0;

  while (c->ok && c->p < c->end)
    {
      unsigned op = *c->p++;
      uint64_t adv;

      if (op >= h->opcode_base)
        {
          adv = (op - h->opcode_base) / h->line_range;
          addr += h->min_insn * ((op_index + adv) / h->max_ops);
          op_index = (op_index + adv) % h->max_ops;
          push (p, addr);
          continue;
        }
      switch (op)
        {
        case 0:  /* extended */
          {
            uint64_t len = uleb (c);
            const unsigned char *next;
            unsigned sub;

            if (len == 0 || len > (uint64_t) (c->end - c->p))
              {
                c->ok = false;
                break;
              }
            next = c->p + len;
            sub = *c->p++;
            if (sub == 1)  /* end_sequence */
              {
                push (p, addr);
                addr = op_index = 0;
              }
            else if (sub == 2)  /* set_address */
              {
                addr = get (c, (size_t) (len - 1));
                op_index = 0;
              }
            c->p = next;
            break;
          }
        case 1:  /* copy */
          push (p, addr);
          break;
        case 2:  /* advance_pc */
          adv = uleb (c);
          addr += h->min_insn * ((op_index + adv) / h->max_ops);
          op_index = (op_index + adv) % h->max_ops;
          break;
        case 8:  /* const_add_pc */
          adv = (255 - h->opcode_base) / h->line_range;
          addr += h->min_insn * ((op_index + adv) / h->max_ops);
          op_index = (op_index + adv) % h->max_ops;
          break;
        case 9:  /* fixed_advance_pc */
          addr += get (c, 2);
          op_index = 0;
          break;
        default:
          /* Operands we do not need: each a LEB128 number (the signed
             one of advance_line skips the same way).  */
          for (unsigned k = 0; k < h->std_lengths[op - 1]; k++)
            uleb (c);
          break;
        }
    }
}

/* One unit: header, then its program.  C is left after the unit.  */
static bool
read_unit (Cursor *c, Probes *p)
{
  uint64_t length = get (c, 4), header_length;
  unsigned offset_size = 4, version;
  const unsigned char *unit_end, *program;
  LineHeader h;
  Cursor u;

  if (length == 0xffffffff)
    {
      length = get (c, 8);
      offset_size = 8;
    }
  if (!c->ok || length > (uint64_t) (c->end - c->p))
    return false;
  unit_end = c->p + length;
  u = (Cursor) { c->p, unit_end, c->big_endian, true };
  c->p = unit_end;

  version = (unsigned) get (&u, 2);
  if (version < 2 || version > 5)
    return false;
  if (version >= 5)
    get (&u, 2);  /* address and segment selector sizes */
  header_length = get (&u, offset_size);
  if (!u.ok || header_length > (uint64_t) (u.end - u.p))
    return false;
  program = u.p + header_length;
  h.min_insn = (unsigned) get (&u, 1);
  h.max_ops = version >= 4 ? (unsigned) get (&u, 1) : 1;
  get (&u, 1);  /* default_is_stmt */
  get (&u, 1);  /* line_base */
  h.line_range = (unsigned) get (&u, 1);
  h.opcode_base = (unsigned) get (&u, 1);
  h.std_lengths = u.p;
  if (!u.ok || h.line_range == 0 || h.max_ops == 0 || h.opcode_base == 0
      || (size_t) (program - u.p) < h.opcode_base - 1)
    return false;
  u.p = program;
  run_program (&u, &h, p);
  return u.ok;
}


/* The contents of .debug_line, uncompressed (as BFD reads it, also from
   the older .zdebug_line), or NULL with *FOUND false if there is none.  */
static Elf_Data *
debug_line_data (Elf *elf, bool *found)
{
  size_t shstrndx;
  Elf_Scn *scn = NULL;

  *found = false;
  if (elf_getshdrstrndx (elf, &shstrndx) != 0)
    return NULL;
  while ((scn = elf_nextscn (elf, scn)) != NULL)
    {
      GElf_Shdr shdr;
      const char *name;

      if (!gelf_getshdr (scn, &shdr)
          || !(name = elf_strptr (elf, shstrndx, shdr.sh_name)))
        continue;
      if (strcmp (name, ".debug_line") == 0)
        {
          *found = true;
          if ((shdr.sh_flags & SHF_COMPRESSED) && elf_compress (scn, 0, 0) < 0)
            return NULL;
        }
      else if (strcmp (name, ".zdebug_line") == 0)
        {
          *found = true;
          if (elf_compress_gnu (scn, 0, 0) < 0)
            return NULL;
        }
      else
        continue;
      return shdr.sh_type == SHT_NOBITS ? NULL : elf_getdata (scn, NULL);
    }
  return NULL;
}

/* Every row address of every line program in .debug_line.  */
static bool
push_rows (Elf *elf, Probes *p)
{
  bool found, ok = true;
  Elf_Data *data = debug_line_data (elf, &found);
  const unsigned char *bytes;
  Cursor c;

  if (!found)
    return true;
  if (!data)
    return false;
  bytes = data->d_buf;
  c = (Cursor) { bytes, bytes + data->d_size,
                 elf_getident (elf, NULL)[EI_DATA] == ELFDATA2MSB, true };
  while (ok && c.p < c.end)
    ok = read_unit (&c, p);
  return ok;
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

      ok = dwarf_offdie (dw, off + header, &cu) != NULL && walk_unit (&p, &cu);
      off = next;
    }
  if (ok && r < 0)
    ok = false;
  ok = ok && push_rows (dwarf_getelf (dw), &p);
  dwarf_end (dw);
  close (fd);
  return ok;
}
