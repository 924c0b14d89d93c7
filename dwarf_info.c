/* dwarf_info.c - the entries of .debug_info read directly (DWARF 2-5).  */

#include "config.h"
#include "dwarf_info.h"

#include <dwarf.h>
#include <stdlib.h>
#include <string.h>
#include "dwarf_bytes.h"
#include "support/alloc.h"

/* ---- sections ------------------------------------------------------------ */

static bool
load (Elf_Scn *scn, const GElf_Shdr *shdr, bool gnu_compressed,
      DwiSection *out)
{
  Elf_Data *data;

  if (gnu_compressed ? elf_compress_gnu (scn, 0, 0) < 0
      : (shdr->sh_flags & SHF_COMPRESSED) && elf_compress (scn, 0, 0) < 0)
    return false;
  if (shdr->sh_type == SHT_NOBITS)
    return true;
  data = elf_getdata (scn, NULL);
  if (!data)
    return false;
  out->p = data->d_buf;
  out->size = data->d_size;
  return true;
}

bool
dwi_sections (Elf *elf, DwiSections *s)
{
  static const struct
  {
    const char *name;
    size_t offset;
  } wanted[] = {
    { "info", offsetof (DwiSections, info) },
    { "abbrev", offsetof (DwiSections, abbrev) },
    { "line", offsetof (DwiSections, line) },
    { "str", offsetof (DwiSections, str) },
    { "line_str", offsetof (DwiSections, line_str) },
    { "str_offsets", offsetof (DwiSections, str_offsets) },
    { "addr", offsetof (DwiSections, addr) },
    { "ranges", offsetof (DwiSections, ranges) },
    { "rnglists", offsetof (DwiSections, rnglists) },
  };
  size_t shstrndx;
  Elf_Scn *scn = NULL;

  memset (s, 0, sizeof *s);
  if (elf_getshdrstrndx (elf, &shstrndx) != 0)
    return false;
  s->big_endian = elf_getident (elf, NULL)[EI_DATA] == ELFDATA2MSB;
  while ((scn = elf_nextscn (elf, scn)) != NULL)
    {
      GElf_Shdr shdr;
      const char *name;
      bool z;

      if (!gelf_getshdr (scn, &shdr)
          || !(name = elf_strptr (elf, shstrndx, shdr.sh_name)))
        continue;
      z = strncmp (name, ".zdebug_", 8) == 0;
      if (z)
        name += 8;
      else if (strncmp (name, ".debug_", 7) == 0)
        name += 7;
      else
        continue;
      if (strcmp (name, "types") == 0)
        s->has_types = true;
      for (size_t i = 0; i < sizeof wanted / sizeof *wanted; i++)
        if (strcmp (name, wanted[i].name) == 0
            && !load (scn, &shdr, z,
                      (DwiSection *) ((char *) s + wanted[i].offset)))
          return false;
    }
  return true;
}

/* ---- abbreviations -------------------------------------------------------- */

typedef struct AttrSpec
{
  uint32_t name, form;
  int64_t implicit;
} AttrSpec;

typedef struct Abbrev
{
  uint64_t code;
  uint32_t tag;
  bool children;
  size_t first, n;          /* its specs */
  /* The bytes of its attributes when every form has a fixed size in
     the unit, else -1: entries not wanted are stepped over at once.  */
  int64_t fixed_size;
} Abbrev;

struct DwiAbbrevs
{
  uint64_t offset;
  Abbrev *list;             /* by code */
  size_t n, cap;
  AttrSpec *specs;
  size_t nspecs, specs_cap;
  const Abbrev **direct;    /* by code, when the codes are small */
  size_t ndirect;
};

static int
cmp_code (const void *a, const void *b)
{
  const Abbrev *x = a, *y = b;

  return x->code < y->code ? -1 : x->code > y->code;
}

static void
abbrevs_free (DwiAbbrevs *t)
{
  if (!t)
    return;
  free (t->list);
  free (t->specs);
  free (t->direct);
  free (t);
}

/* The size of a value of FORM in unit U, or -1 if it varies.  */
static int
form_size (const DwiUnit *u, uint32_t form)
{
  switch (form)
    {
    case DW_FORM_flag_present:
    case DW_FORM_implicit_const:
      return 0;
    case DW_FORM_data1:
    case DW_FORM_ref1:
    case DW_FORM_flag:
    case DW_FORM_strx1:
    case DW_FORM_addrx1:
      return 1;
    case DW_FORM_data2:
    case DW_FORM_ref2:
    case DW_FORM_strx2:
    case DW_FORM_addrx2:
      return 2;
    case DW_FORM_strx3:
    case DW_FORM_addrx3:
      return 3;
    case DW_FORM_data4:
    case DW_FORM_ref4:
    case DW_FORM_strx4:
    case DW_FORM_addrx4:
      return 4;
    case DW_FORM_data8:
    case DW_FORM_ref8:
    case DW_FORM_ref_sig8:
      return 8;
    case DW_FORM_data16:
      return 16;
    case DW_FORM_addr:
      return (int) u->addr_size;
    case DW_FORM_strp:
    case DW_FORM_line_strp:
    case DW_FORM_sec_offset:
      return (int) u->offset_size;
    case DW_FORM_ref_addr:
      return (int) (u->version <= 2 ? u->addr_size : u->offset_size);
    default:
      return -1;
    }
}

/* A number of FORM at C: of its fixed size, or a ULEB128 for the forms
   whose size varies.  */
static uint64_t
get_form (const DwiUnit *u, Cursor *c, uint32_t form)
{
  int size = form_size (u, form);

  return size < 0 ? uleb (c) : get (c, (size_t) size);
}

static DwiAbbrevs *
abbrevs_read (const DwiSections *s, const DwiUnit *u, uint64_t offset)
{
  DwiAbbrevs *t = gp_calloc (1, sizeof *t);
  Cursor c;
  uint64_t code;

  t->offset = offset;
  if (offset >= s->abbrev.size)
    goto fail;
  c = cursor_at (s->abbrev.p + offset, s->abbrev.p + s->abbrev.size,
                 s->big_endian);
  while ((code = uleb (&c)) != 0 && c.ok)
    {
      Abbrev a = { .code = code, .first = t->nspecs };

      a.tag = (uint32_t) uleb (&c);
      a.children = get (&c, 1) != 0;
      for (;;)
        {
          AttrSpec spec = { (uint32_t) uleb (&c), (uint32_t) uleb (&c), 0 };

          if (spec.form == DW_FORM_implicit_const)
            spec.implicit = sleb (&c);
          if (!c.ok || (spec.name == 0 && spec.form == 0))
            break;
          gp_grow (&t->specs, &t->specs_cap, t->nspecs + 1, sizeof *t->specs);
          t->specs[t->nspecs++] = spec;
        }
      a.n = t->nspecs - a.first;
      for (size_t i = a.first; i < t->nspecs && a.fixed_size >= 0; i++)
        {
          int size = form_size (u, t->specs[i].form);

          a.fixed_size = size < 0 ? -1 : a.fixed_size + size;
        }
      gp_grow (&t->list, &t->cap, t->n + 1, sizeof *t->list);
      t->list[t->n++] = a;
    }
  if (!c.ok)
    goto fail;
  if (t->n > 1)
    qsort (t->list, t->n, sizeof *t->list, cmp_code);
  if (t->n > 0 && t->list[t->n - 1].code < 4 * t->n + 1024)
    {
      t->ndirect = (size_t) t->list[t->n - 1].code + 1;
      t->direct = gp_calloc (t->ndirect, sizeof *t->direct);
      for (size_t i = 0; i < t->n; i++)
        t->direct[t->list[i].code] = &t->list[i];
    }
  return t;

fail:
  abbrevs_free (t);
  return NULL;
}

static const Abbrev *
abbrev_find (const DwiAbbrevs *t, uint64_t code)
{
  size_t lo = 0, hi = t->n;

  if (t->direct)
    return code < t->ndirect ? t->direct[code] : NULL;
  while (lo < hi)
    {
      size_t mid = lo + (hi - lo) / 2;

      if (t->list[mid].code < code)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo < t->n && t->list[lo].code == code ? &t->list[lo] : NULL;
}

/* ---- attribute values -------------------------------------------------- */

enum Class { C_OTHER, C_ADDR, C_CONST, C_STR, C_REF, C_SECOFF, C_RNGLISTX };

typedef struct Value
{
  enum Class cls;
  uint64_t u;
  const char *str;
} Value;

const char *
dwi_string_at (const DwiSection *sec, uint64_t offset)
{
  const char *str;

  if (offset >= sec->size)
    return NULL;
  str = (const char *) sec->p + offset;
  return memchr (str, 0, sec->size - offset) ? str : NULL;
}

/* The SIZE-byte number at OFFSET of SEC, or false.  */
static bool
number_at (const DwiSections *s, const DwiSection *sec, uint64_t offset,
           unsigned size, uint64_t *v)
{
  Cursor c;

  if (offset > sec->size || size > sec->size - offset)
    return false;
  c = cursor_at (sec->p + offset, sec->p + sec->size, s->big_endian);
  *v = get (&c, size);
  return c.ok;
}

static bool
addr_index (const DwiSections *s, const DwiUnit *u, uint64_t index,
            uint64_t *addr)
{
  return index < UINT64_MAX / 8
         && number_at (s, &s->addr, u->addr_base + index * u->addr_size,
                       u->addr_size, addr);
}

static const char *
str_index (const DwiSections *s, const DwiUnit *u, uint64_t index)
{
  uint64_t offset;

  if (index >= UINT64_MAX / 8
      || !number_at (s, &s->str_offsets,
                     u->str_offsets_base + index * u->offset_size,
                     u->offset_size, &offset))
    return NULL;
  return dwi_string_at (&s->str, offset);
}

/* The value of form FORM at C.  Indexed strings and addresses are
   looked up only if RESOLVE.  */
static bool
read_value (const DwiSections *s, const DwiUnit *u, Cursor *c, uint32_t form,
            int64_t implicit, bool resolve, Value *v)
{
  uint64_t n;

  *v = (Value) { C_OTHER, 0, NULL };
  switch (form)
    {
    case DW_FORM_addr:
      v->cls = C_ADDR;
      v->u = get (c, u->addr_size);
      break;
    case DW_FORM_addrx:
    case DW_FORM_GNU_addr_index:
    case DW_FORM_addrx1:
    case DW_FORM_addrx2:
    case DW_FORM_addrx3:
    case DW_FORM_addrx4:
      n = get_form (u, c, form);
      v->cls = C_ADDR;
      if (resolve && c->ok && !addr_index (s, u, n, &v->u))
        return false;
      break;
    case DW_FORM_strx:
    case DW_FORM_GNU_str_index:
    case DW_FORM_strx1:
    case DW_FORM_strx2:
    case DW_FORM_strx3:
    case DW_FORM_strx4:
      n = get_form (u, c, form);
      v->cls = C_STR;
      if (resolve && c->ok && !(v->str = str_index (s, u, n)))
        return false;
      break;
    case DW_FORM_ref1:
    case DW_FORM_ref2:
    case DW_FORM_ref4:
    case DW_FORM_ref8:
    case DW_FORM_ref_udata:
      n = get_form (u, c, form);
      v->cls = C_REF;
      v->u = u->offset + n;
      break;
    case DW_FORM_data1:
    case DW_FORM_data2:
    case DW_FORM_data4:
    case DW_FORM_data8:
    case DW_FORM_flag:
    case DW_FORM_udata:
      v->cls = C_CONST;
      v->u = get_form (u, c, form);
      break;
    case DW_FORM_sdata:
      v->cls = C_CONST;
      v->u = (uint64_t) sleb (c);
      break;
    case DW_FORM_implicit_const:
      v->cls = C_CONST;
      v->u = (uint64_t) implicit;
      break;
    case DW_FORM_flag_present:
      v->cls = C_CONST;
      v->u = 1;
      break;
    case DW_FORM_data16:
      skip (c, 16);
      break;
    case DW_FORM_string:
      v->cls = C_STR;
      v->str = cstring (c);
      break;
    case DW_FORM_strp:
    case DW_FORM_line_strp:
      n = get (c, u->offset_size);
      v->cls = C_STR;
      v->str = dwi_string_at (form == DW_FORM_strp ? &s->str : &s->line_str, n);
      if (c->ok && !v->str)
        return false;
      break;
    case DW_FORM_ref_addr:
      v->cls = C_REF;
      v->u = get (c, u->version <= 2 ? u->addr_size : u->offset_size);
      break;
    case DW_FORM_ref_sig8:
      skip (c, 8);
      break;
    case DW_FORM_sec_offset:
      v->cls = C_SECOFF;
      v->u = get (c, u->offset_size);
      break;
    case DW_FORM_exprloc:
    case DW_FORM_block:
      skip (c, uleb (c));
      break;
    case DW_FORM_block1:
      skip (c, get (c, 1));
      break;
    case DW_FORM_block2:
      skip (c, get (c, 2));
      break;
    case DW_FORM_block4:
      skip (c, get (c, 4));
      break;
    case DW_FORM_rnglistx:
      v->cls = C_RNGLISTX;
      v->u = uleb (c);
      break;
    case DW_FORM_loclistx:
      uleb (c);
      break;
    case DW_FORM_indirect:
      n = uleb (c);
      /* An indirect form naming itself would never end.  */
      if (!c->ok || n == DW_FORM_indirect || n == DW_FORM_implicit_const)
        return false;
      return read_value (s, u, c, (uint32_t) n, 0, resolve, v);
    default:
      /* Supplementary files (dwz) and forms we do not know.  */
      return false;
    }
  return c->ok;
}

/* The offset of a DW_AT_ranges list in its section.  */
static bool
ranges_offset (const DwiSections *s, const DwiUnit *u, const Value *v,
               uint64_t *offset)
{
  uint64_t rel;

  if (v->cls == C_SECOFF || v->cls == C_CONST)
    {
      *offset = v->u;
      return true;
    }
  if (v->cls != C_RNGLISTX || v->u >= UINT64_MAX / 8
      || !number_at (s, &s->rnglists,
                     u->rnglists_base + v->u * u->offset_size,
                     u->offset_size, &rel))
    return false;
  *offset = u->rnglists_base + rel;
  return true;
}

/* The bases of a unit's indexed forms, among its entry's attributes.  */
static void
note_base (DwiUnit *u, uint32_t name, const Value *v)
{
  if (name == DW_AT_str_offsets_base)
    u->str_offsets_base = v->u;
  else if (name == DW_AT_addr_base)
    u->addr_base = v->u;
  else if (name == DW_AT_rnglists_base)
    u->rnglists_base = v->u;
}

/* Keep what E needs of attribute NAME.  */
static bool
note (const DwiSections *s, const DwiUnit *u, DwiEntry *e, uint32_t name,
      const Value *v)
{
  switch (name)
    {
    case DW_AT_low_pc:
      e->has_low = v->cls == C_ADDR;
      e->low = v->u;
      break;
    case DW_AT_high_pc:
      e->has_high = v->cls == C_ADDR || v->cls == C_CONST;
      e->high_is_offset = v->cls == C_CONST;
      e->high = v->u;
      break;
    case DW_AT_ranges:
      e->has_ranges = true;
      e->ranges_indexed = v->cls == C_RNGLISTX;
      return ranges_offset (s, u, v, &e->ranges);
    case DW_AT_name:
      if (v->cls == C_STR)
        e->name = v->str;
      break;
    case DW_AT_linkage_name:
    case DW_AT_MIPS_linkage_name:
      if (v->cls == C_STR)
        e->linkage_name = v->str;
      break;
    case DW_AT_comp_dir:
      if (v->cls == C_STR)
        e->comp_dir = v->str;
      break;
    case DW_AT_abstract_origin:
      e->has_origin = v->cls == C_REF;
      e->origin = v->u;
      break;
    case DW_AT_specification:
      e->has_specification = v->cls == C_REF;
      e->specification = v->u;
      break;
    case DW_AT_stmt_list:
      e->has_stmt_list = v->cls == C_SECOFF || v->cls == C_CONST;
      e->stmt_list = v->u;
      break;
    case DW_AT_language:
      if (v->cls == C_CONST)
        e->language = (int) v->u;
      break;
    case DW_AT_dwo_name:
    case DW_AT_GNU_dwo_name:
    case DW_AT_GNU_addr_base:
    case DW_AT_GNU_ranges_base:
      e->split = true;
      break;
    default:
      break;
    }
  return true;
}

/* The entry at C of unit U; tag 0 for the null entry that ends a list
   of children.  Attributes are kept only if DECODE accepts the tag.
   With BASES, only the bases of the indexed forms are taken, into it.  */
static bool
read_entry (const DwiSections *s, const DwiUnit *u, Cursor *c, DwiEntry *e,
            bool (*decode) (unsigned), DwiUnit *bases)
{
  uint64_t offset = (uint64_t) (c->p - s->info.p);
  uint64_t code = uleb (c);
  const Abbrev *a;
  bool keep;

  e->tag = 0;
  if (code == 0 || !c->ok)
    return c->ok;
  a = abbrev_find (u->abbrevs, code);
  if (!a)
    return false;
  keep = !decode || decode (a->tag);
  e->tag = a->tag;
  e->has_children = a->children;
  if (!keep && !bases && a->fixed_size >= 0)
    {
      skip (c, (uint64_t) a->fixed_size);
      return c->ok;
    }
  if (keep)
    *e = (DwiEntry) { .offset = offset, .tag = a->tag,
                      .has_children = a->children, .language = -1 };
  for (size_t i = 0; i < a->n; i++)
    {
      const AttrSpec *spec = &u->abbrevs->specs[a->first + i];
      Value v;

      /* What is not kept is stepped over, its indices not looked up.  */
      if (!read_value (s, u, c, spec->form, spec->implicit, keep && !bases,
                       &v))
        return false;
      if (bases)
        note_base (bases, spec->name, &v);
      else if (keep && !note (s, u, e, spec->name, &v))
        return false;
    }
  return c->ok;
}

/* ---- units --------------------------------------------------------------- */

/* The header of the unit at OFFSET of .debug_info.  */
static bool
read_header (const DwiSections *s, uint64_t offset, DwiUnit *u)
{
  Cursor c = cursor_at (s->info.p + offset, s->info.p + s->info.size,
                        s->big_endian);
  uint64_t length = get (&c, 4), abbrev_offset;

  memset (u, 0, sizeof *u);
  u->offset = offset;
  u->offset_size = 4;
  if (length == 0xffffffff)
    {
      length = get (&c, 8);
      u->offset_size = 8;
    }
  else if (length >= 0xfffffff0)
    return false;
  if (!c.ok || length > (uint64_t) (c.end - c.p))
    return false;
  u->end = (uint64_t) (c.p - s->info.p) + length;
  c.end = c.p + length;
  u->version = (unsigned) get (&c, 2);
  if (u->version < 2 || u->version > 5)
    return false;
  u->unit_type = DW_UT_compile;
  if (u->version >= 5)
    {
      u->unit_type = (unsigned) get (&c, 1);
      u->addr_size = (unsigned) get (&c, 1);
      abbrev_offset = get (&c, u->offset_size);
      if (u->unit_type == DW_UT_skeleton || u->unit_type == DW_UT_split_compile)
        skip (&c, 8);
      else if (u->unit_type == DW_UT_type || u->unit_type == DW_UT_split_type)
        skip (&c, 8 + u->offset_size);
    }
  else
    {
      abbrev_offset = get (&c, u->offset_size);
      u->addr_size = (unsigned) get (&c, 1);
    }
  if (!c.ok || (u->addr_size != 4 && u->addr_size != 8))
    return false;
  u->first_entry = (uint64_t) (c.p - s->info.p);
  u->abbrevs = abbrevs_read (s, u, abbrev_offset);
  return u->abbrevs != NULL;
}

/* The unit's own entry, read twice: the bases of the indexed forms come
   among its attributes, in any order.  */
static bool
read_unit_entry (const DwiSections *s, DwiUnit *u)
{
  Cursor c = cursor_at (s->info.p + u->first_entry, s->info.p + u->end,
                        s->big_endian);
  DwiEntry e;

  if (!read_entry (s, u, &c, &e, NULL, u))
    return false;
  c = cursor_at (s->info.p + u->first_entry, s->info.p + u->end, s->big_endian);
  if (!read_entry (s, u, &c, &u->entry, NULL, NULL) || u->entry.tag == 0)
    return false;
  if (u->entry.has_low)
    u->base = u->entry.low;
  return true;
}

bool
dwi_open (DwiReader *r, const DwiSections *s)
{
  size_t cap = 0;

  memset (r, 0, sizeof *r);
  r->s = s;
  for (uint64_t off = 0; off < s->info.size; )
    {
      DwiUnit u;
      bool ok = read_header (s, off, &u);

      if (ok)
        {
          gp_grow (&r->units, &cap, r->nunits + 1, sizeof *r->units);
          r->units[r->nunits++] = u;
          ok = read_unit_entry (s, &r->units[r->nunits - 1]);
        }
      else
        abbrevs_free (u.abbrevs);
      if (!ok)
        {
          dwi_close (r);
          return false;
        }
      off = u.end;
    }
  return true;
}

void
dwi_close (DwiReader *r)
{
  for (size_t i = 0; i < r->nunits; i++)
    abbrevs_free (r->units[i].abbrevs);
  free (r->units);
  r->units = NULL;
  r->nunits = 0;
}

bool
dwi_walk (const DwiReader *r, const DwiUnit *u, bool (*wanted) (unsigned),
          void (*fn) (void *, const DwiUnit *, const DwiEntry *), void *ctx)
{
  const DwiSections *s = r->s;
  Cursor c = cursor_at (s->info.p + u->first_entry, s->info.p + u->end,
                        s->big_endian);
  DwiEntry e;

  if (!read_entry (s, u, &c, &e, wanted, NULL))
    return false;
  while (c.p < c.end)
    {
      if (!read_entry (s, u, &c, &e, wanted, NULL))
        return false;
      if (e.tag && wanted (e.tag))
        fn (ctx, u, &e);
    }
  return c.ok;
}

bool
dwi_entry_at (const DwiReader *r, uint64_t offset, DwiEntry *e,
              const DwiUnit **unit)
{
  const DwiSections *s = r->s;
  size_t lo = 0, hi = r->nunits;
  const DwiUnit *u;
  Cursor c;

  while (lo < hi)
    {
      size_t mid = lo + (hi - lo) / 2;

      if (r->units[mid].offset <= offset)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo == 0)
    return false;
  u = &r->units[lo - 1];
  if (offset < u->first_entry || offset >= u->end)
    return false;
  c = cursor_at (s->info.p + offset, s->info.p + u->end, s->big_endian);
  *unit = u;
  return read_entry (s, u, &c, e, NULL, NULL) && e->tag != 0;
}

/* ---- ranges ------------------------------------------------------------ */

/* A DWARF 2-4 list in .debug_ranges.  */
static bool
ranges_v4 (const DwiSections *s, const DwiUnit *u, uint64_t offset,
           void (*fn) (void *, uint64_t, uint64_t), void *ctx)
{
  uint64_t base = u->base;
  uint64_t all = u->addr_size == 8 ? UINT64_MAX : 0xffffffff;
  Cursor c;

  if (offset >= s->ranges.size)
    return false;
  c = cursor_at (s->ranges.p + offset, s->ranges.p + s->ranges.size,
                 s->big_endian);
  for (;;)
    {
      uint64_t start = get (&c, u->addr_size), end = get (&c, u->addr_size);

      if (!c.ok)
        return false;
      if (start == 0 && end == 0)
        return true;
      if (start == all)
        base = end;
      else
        fn (ctx, base + start, base + end);
    }
}

/* A DWARF 5 list in .debug_rnglists.  */
static bool
ranges_v5 (const DwiSections *s, const DwiUnit *u, uint64_t offset,
           void (*fn) (void *, uint64_t, uint64_t), void *ctx)
{
  uint64_t base = u->base;
  Cursor c;

  if (offset >= s->rnglists.size)
    return false;
  c = cursor_at (s->rnglists.p + offset, s->rnglists.p + s->rnglists.size,
                 s->big_endian);
  for (;;)
    {
      unsigned kind = (unsigned) get (&c, 1);
      uint64_t a = 0, b = 0;

      switch (kind)
        {
        case DW_RLE_end_of_list:
          return c.ok;
        case DW_RLE_base_addressx:
          if (!addr_index (s, u, uleb (&c), &base))
            return false;
          continue;
        case DW_RLE_base_address:
          base = get (&c, u->addr_size);
          continue;
        case DW_RLE_startx_endx:
          if (!addr_index (s, u, uleb (&c), &a) || !addr_index (s, u, uleb (&c), &b))
            return false;
          break;
        case DW_RLE_startx_length:
          if (!addr_index (s, u, uleb (&c), &a))
            return false;
          b = a + uleb (&c);
          break;
        case DW_RLE_offset_pair:
          a = base + uleb (&c);
          b = base + uleb (&c);
          break;
        case DW_RLE_start_end:
          a = get (&c, u->addr_size);
          b = get (&c, u->addr_size);
          break;
        case DW_RLE_start_length:
          a = get (&c, u->addr_size);
          b = a + uleb (&c);
          break;
        default:
          return false;
        }
      if (!c.ok)
        return false;
      fn (ctx, a, b);
    }
}

bool
dwi_ranges (const DwiReader *r, const DwiUnit *u, const DwiEntry *e,
            void (*fn) (void *, uint64_t, uint64_t), void *ctx)
{
  if (e->has_ranges
      && !(u->version <= 4 ? ranges_v4 (r->s, u, e->ranges, fn, ctx)
           : ranges_v5 (r->s, u, e->ranges, fn, ctx)))
    return false;
  if (e->has_low && e->has_high)
    fn (ctx, e->low, e->high_is_offset ? e->low + e->high : e->high);
  return true;
}
