/* dwarf_lines.c - walking DWARF 2-5 line programs for their addresses.  */

#include "config.h"
#include "dwarf_lines.h"

#include <stdlib.h>
#include <string.h>
#include "util.h"

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

static void
push (vma_t **v, size_t *n, size_t *cap, vma_t addr)
{
  gp_grow (v, cap, *n + 1, sizeof **v);
  (*v)[(*n)++] = addr;
}

typedef struct LineHeader
{
  unsigned min_insn, max_ops, line_range, opcode_base;
  const unsigned char *std_lengths;
} LineHeader;

/* Run one line program (the bytes of C) and record its row addresses.  */
static void
run_program (Cursor *c, const LineHeader *h, vma_t **v, size_t *n, size_t *cap)
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
          push (v, n, cap, addr);
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
                push (v, n, cap, addr);
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
          push (v, n, cap, addr);
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
read_unit (Cursor *c, vma_t **v, size_t *n, size_t *cap)
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
  run_program (&u, &h, v, n, cap);
  return u.ok;
}

bool
dwarf_line_addresses (bfd *abfd, vma_t **v, size_t *n, size_t *cap)
{
  asection *sec = bfd_get_section_by_name (abfd, ".debug_line");
  bfd_byte *data = NULL;
  Cursor c;
  bool ok = true;

  if (!sec)
    return true;
  if (!bfd_get_full_section_contents (abfd, sec, &data))
    return false;
  c = (Cursor) { data, data + bfd_section_size (sec), bfd_big_endian (abfd), true };
  while (ok && c.p < c.end)
    ok = read_unit (&c, v, n, cap);
  free (data);
  return ok;
}
