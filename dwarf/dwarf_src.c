/* dwarf_src.c - source positions from DWARF, answered as BFD answers.

   The model of BFD's bfd_find_nearest_line (what testsuite/lines checks
   at every byte of real programs):
   - The line: the row of the line-table sequence that covers the
     address, rows at one address counting as the last of them; none
     past a sequence's end.  Line 0 is no answer.
   - The file: the row's file entry, put after its directory and the
     unit's compilation directory unless absolute (concat_name).
   - The function: of the entries (subprograms, inlined subroutines,
     entry points) whose range holds the address, the one with the
     shortest such range, the later in the unit on a tie.  Its name is
     its linkage name, else its DW_AT_name, each also taken through
     DW_AT_abstract_origin and DW_AT_specification.  A name that is not
     a linkage name (DW_AT_name in a C++ unit) is checked once against
     the ELF symbols: the symbol the address falls in names this answer;
     if it starts where the function starts it names the function from
     then on, else later answers give the DWARF name.  Without a
     function entry the symbol names the answer.  */

#include "config.h"
#include "dwarf/dwarf_src.h"

#include <dwarf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dwarf_bytes.h"
#include "dwarf_info.h"
#include "msort.h"
#include "util.h"

enum { NO_FILE = UINT32_MAX, NO_FUNC = UINT32_MAX };

/* One row; a sequence's end is a row with file NO_FILE.  */
typedef struct Row
{
  vma_t addr;
  uint32_t file, line;
} Row;

typedef struct Sequence
{
  vma_t low, high;
  size_t first, n;   /* its rows in the decoding order's array */
  uint32_t unit;
} Sequence;

typedef struct Func
{
  const char *name;
  vma_t low;                /* its first range's start */
  bool is_linkage;          /* the name needs no check against symbols */
} Func;

typedef struct Range
{
  vma_t low, high;
  uint32_t func;            /* index, also the order in the DWARF */
  uint32_t unit;
} Range;

/* From START to the next piece's start the answer's function is FUNC.
   TIE: another entry of the same length holds these addresses too.  */
typedef struct Piece
{
  vma_t start;
  uint32_t func;
  bool tie;
} Piece;

/* A sorted array of entries, STRIDE bytes apart and each starting with
   its address, with a coarse index for questions out of order (gprof
   asks about the functions in symbol order): bucket[b] counts the
   entries below base + (b << shift), about four entries a bucket.  */
typedef struct Sorted
{
  const unsigned char *entries;
  size_t n, stride;
  vma_t base;
  unsigned shift;
  uint32_t *bucket;
  size_t nbuckets;
  size_t hint;               /* the last answer */
} Sorted;

struct Dws
{
  FILE *file;
  Elf *elf;                /* the names point into its sections */
  DwiSections sec;
  bool broken;             /* the DWARF could not be read through */
  bool exact;              /* every feature met is modelled... */
  bool lines_exact;        /* ...and in the line programs */
  bool bounded;            /* BFD's answer changes only at dws_boundaries */
  vma_t floor;             /* ranges ending here or below are never asked */

  Row *rows;               /* in address order */
  size_t nrows, rows_cap;
  char **files;            /* full names; index = Row.file */
  size_t nfiles, files_cap;
  size_t name_bytes, name_budget;
  Sequence *seqs;
  size_t nseqs, seqs_cap;

  Func *funcs;
  size_t nfuncs, funcs_cap;
  Range *ranges;           /* of functions */
  size_t nranges, ranges_cap;
  Range *units;            /* of units; func unused */
  size_t nunits, units_cap;
  Piece *pieces;
  size_t npieces;
  vma_t *points;           /* entry points without a range */
  size_t npoints, points_cap;

  DwsElfSym *syms;         /* by offset, one per offset, once sorted */
  size_t nsyms;
  bool syms_sorted;
  vma_t section_vma;

  Sorted row_index, piece_index, sym_index;
};

/* ---- sorted arrays ------------------------------------------------------ */

#define KEY(t, i) (*(const vma_t *) ((t)->entries + (i) * (t)->stride))

static void
sorted_init (Sorted *t, const void *entries, size_t n, size_t stride)
{
  vma_t span;
  size_t k = 0;

  *t = (Sorted) { .entries = entries, .n = n, .stride = stride };
  if (n == 0 || n > UINT32_MAX)
    return;
  t->base = KEY (t, 0);
  span = KEY (t, n - 1) - t->base;
  while (t->shift < 63 && (span >> t->shift) > n / 4)
    t->shift++;
  t->nbuckets = (size_t) (span >> t->shift) + 1;
  t->bucket = gp_reallocarray (NULL, t->nbuckets + 1, sizeof *t->bucket);
  for (size_t b = 0; b <= t->nbuckets; b++)
    {
      while (k < n && ((KEY (t, k) - t->base) >> t->shift) < b)
        k++;
      t->bucket[b] = (uint32_t) k;
    }
}

/* How many entries lie at or before ADDR.  The last answer is tried
   first and then the next: the questions come mostly in address
   order.  */
static size_t
count_upto (Sorted *t, vma_t addr)
{
  size_t lo = 0, hi = t->n;

  for (size_t k = t->hint; k <= t->hint + 1 && k <= t->n; k++)
    if ((k == 0 || KEY (t, k - 1) <= addr) && (k == t->n || KEY (t, k) > addr))
      return t->hint = k;
  if (t->bucket && addr >= t->base)
    {
      vma_t b = (addr - t->base) >> t->shift;

      if (b < t->nbuckets)
        {
          lo = t->bucket[b];
          hi = t->bucket[b + 1];
        }
      else
        lo = t->n;
    }
  while (lo < hi)
    {
      size_t mid = lo + (hi - lo) / 2;

      if (KEY (t, mid) <= addr)
        lo = mid + 1;
      else
        hi = mid;
    }
  return t->hint = lo;
}

#undef KEY

/* ---- line programs ---------------------------------------------------- */

static bool
is_absolute (const char *name)
{
  return name[0] == '/';
}

/* A file entry's full name: absolute names as they are, else after the
   directory, which itself goes after the unit's compilation directory
   unless absolute.  */
static char *
concat_name (const char *comp_dir, const char *dir, const char *name)
{
  const char *first = dir, *second = NULL;
  char *out;

  if (is_absolute (name))
    return gp_strdup (name);
  if (!dir || !is_absolute (dir))
    {
      second = dir;
      first = comp_dir;
    }
  if (!first)
    {
      first = second;
      second = NULL;
    }
  if (!first)
    return gp_strdup (name);
  out = gp_malloc (strlen (first) + (second ? strlen (second) + 1 : 0)
                   + strlen (name) + 2);
  strcpy (out, first);
  if (second)
    {
      strcat (out, "/");
      strcat (out, second);
    }
  strcat (out, "/");
  strcat (out, name);
  return out;
}

typedef struct LineTable
{
  unsigned version, min_insn, max_ops, line_range, opcode_base;
  int line_base;
  bool default_is_stmt;
  const unsigned char *std_lengths;
  const char **dirs;
  size_t ndirs, dirs_cap;
  uint32_t file_base, nfile;   /* the table's names in Dws.files */
  uint32_t unit;               /* the unit it belongs to */
} LineTable;

/* A DWARF 5 entry's field in form FORM; a string if STR, else a number.  */
static bool
read_form (Cursor *c, const DwiSections *s, unsigned offset_size, uint64_t form,
           const char **str, uint64_t *num)
{
  *str = NULL;
  *num = 0;
  switch (form)
    {
    case DW_FORM_string:
      *str = cstring (c);
      return c->ok;
    case DW_FORM_line_strp:
      *str = dwi_string_at (&s->line_str, get (c, offset_size));
      return c->ok && *str;
    case DW_FORM_strp:
      *str = dwi_string_at (&s->str, get (c, offset_size));
      return c->ok && *str;
    case DW_FORM_udata:
      *num = uleb (c);
      return c->ok;
    case DW_FORM_data1:
      *num = get (c, 1);
      return c->ok;
    case DW_FORM_data2:
      *num = get (c, 2);
      return c->ok;
    case DW_FORM_data4:
      *num = get (c, 4);
      return c->ok;
    case DW_FORM_data8:
      *num = get (c, 8);
      return c->ok;
    case DW_FORM_data16:
      get (c, 8);
      get (c, 8);
      return c->ok;
    case DW_FORM_block:
      {
        uint64_t len = uleb (c);

        if (!c->ok || len > (uint64_t) (c->end - c->p))
          return false;
        c->p += len;
        return true;
      }
    default:
      return false;
    }
}

/* Add a file entry's full name; false once the names grow past what
   the sections could honestly need (entries naming one long string
   over and over would otherwise take memory quadratic in the input).  */
static bool
add_file (Dws *d, LineTable *t, const char *comp_dir, const char *name,
          uint64_t dir)
{
  const char *dirname = NULL;
  char *full;

  /* DWARF 5 counts directories from 0, the compilation directory's
     entry; earlier versions from 1, with 0 for none.  */
  if (t->version >= 5 ? dir < t->ndirs : dir > 0 && dir <= t->ndirs)
    dirname = t->dirs[t->version >= 5 ? dir : dir - 1];
  full = concat_name (comp_dir, dirname, name);
  d->name_bytes += strlen (full) + 1;
  gp_grow (&d->files, &d->files_cap, d->nfiles + 1, sizeof *d->files);
  d->files[d->nfiles++] = full;
  t->nfile++;
  return d->name_bytes <= d->name_budget;
}

/* DWARF 5's directory or file entries, each in the described format.  */
static bool
read_v5_entries (Dws *d, Cursor *c, const DwiSections *s, unsigned offset_size,
                 LineTable *t, const char *comp_dir, bool files)
{
  unsigned nformat = (unsigned) get (c, 1);
  uint64_t formats[2 * 256], count;

  for (unsigned i = 0; i < nformat; i++)
    {
      formats[2 * i] = uleb (c);
      formats[2 * i + 1] = uleb (c);
    }
  count = uleb (c);
  if (!c->ok || count > (uint64_t) (c->end - c->p))
    return false;
  for (uint64_t k = 0; k < count; k++)
    {
      const char *name = NULL;
      uint64_t dir = 0;

      for (unsigned i = 0; i < nformat; i++)
        {
          const char *str;
          uint64_t num;

          if (!read_form (c, s, offset_size, formats[2 * i + 1], &str, &num))
            return false;
          if (formats[2 * i] == DW_LNCT_path)
            name = str;
          else if (formats[2 * i] == DW_LNCT_directory_index)
            dir = num;
        }
      if (!name)
        return false;
      if (files && !add_file (d, t, comp_dir, name, dir))
        return false;
      else
        {
          gp_grow (&t->dirs, &t->dirs_cap, t->ndirs + 1, sizeof *t->dirs);
          t->dirs[t->ndirs++] = name;
        }
    }
  return true;
}

/* Directories and files of DWARF 2 to 4.  */
static bool
read_v2_entries (Dws *d, Cursor *c, LineTable *t, const char *comp_dir)
{
  const char *name;

  while ((name = cstring (c)) && *name)
    {
      gp_grow (&t->dirs, &t->dirs_cap, t->ndirs + 1, sizeof *t->dirs);
      t->dirs[t->ndirs++] = name;
    }
  while ((name = cstring (c)) && *name)
    {
      uint64_t dir = uleb (c);

      uleb (c);   /* time */
      uleb (c);   /* length */
      if (!add_file (d, t, comp_dir, name, dir))
        return false;
    }
  return c->ok;
}

/* The state of a line program.  FILE is an index into the table's
   files: a sequence starts with the first entry in every version (in
   DWARF 5 too, where the standard says the second); DW_LNS_set_file
   counts from 0 in DWARF 5 and from 1 before.  */
typedef struct Machine
{
  vma_t addr;
  uint64_t file, line;
  bool in_sequence;
} Machine;

static void
push_row (Dws *d, LineTable *t, Machine *m, bool end)
{
  Sequence *seq;
  Row *r;

  if (!m->in_sequence)
    {
      gp_grow (&d->seqs, &d->seqs_cap, d->nseqs + 1, sizeof *d->seqs);
      d->seqs[d->nseqs++] = (Sequence) { .low = m->addr, .first = d->nrows,
                                         .unit = t->unit };
      m->in_sequence = true;
    }
  seq = &d->seqs[d->nseqs - 1];
  r = seq->n ? &d->rows[seq->first + seq->n - 1] : NULL;
  if (r && m->addr < r->addr)
    d->lines_exact = false;   /* rows out of order */
  /* Of the rows at one address the last counts (not an end's).  */
  if (!(r && !end && r->addr == m->addr))
    {
      gp_grow (&d->rows, &d->rows_cap, d->nrows + 1, sizeof *d->rows);
      r = &d->rows[d->nrows++];
      seq->n++;
    }
  r->addr = m->addr;
  if (end)
    {
      r->file = NO_FILE;
      r->line = 0;
      seq->high = m->addr;
      m->in_sequence = false;
      return;
    }
  /* A file the table does not list: BFD has a name of its own for it.  */
  if (m->file >= t->nfile)
    d->lines_exact = false;
  r->file = t->file_base + (uint32_t) m->file;
  r->line = (uint32_t) m->line;
  if (m->line > UINT32_MAX)
    d->lines_exact = false;
}

static void
advance (const LineTable *t, Machine *m, uint64_t operation_advance)
{
  m->addr += t->min_insn * operation_advance;
}

static void
run_program (Dws *d, Cursor *c, LineTable *t)
{
  Machine m = { 0, 0, 1, false };

  while (c->ok && c->p < c->end)
    {
      unsigned op = *c->p++;

      if (op >= t->opcode_base)
        {
          unsigned adj = op - t->opcode_base;

          advance (t, &m, adj / t->line_range);
          m.line += (uint64_t) (int64_t) (t->line_base + (int) (adj % t->line_range));
          push_row (d, t, &m, false);
          continue;
        }
      switch (op)
        {
        case 0:
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
            if (sub == DW_LNE_end_sequence)
              {
                push_row (d, t, &m, true);
                m = (Machine) { 0, 0, 1, false };
              }
            else if (sub == DW_LNE_set_address)
              m.addr = get (c, (size_t) (len - 1));
            else if (sub == DW_LNE_define_file)
              d->lines_exact = false;
            c->p = next;
            break;
          }
        case DW_LNS_copy:
          push_row (d, t, &m, false);
          break;
        case DW_LNS_advance_pc:
          advance (t, &m, uleb (c));
          break;
        case DW_LNS_advance_line:
          m.line += (uint64_t) sleb (c);
          break;
        case DW_LNS_set_file:
          m.file = uleb (c);
          if (t->version < 5)
            m.file--;   /* 0 wraps round to no file */
          break;
        case DW_LNS_const_add_pc:
          advance (t, &m, (255 - t->opcode_base) / t->line_range);
          break;
        case DW_LNS_fixed_advance_pc:
          m.addr += get (c, 2);
          break;
        default:
          /* Operands not needed: LEB128 numbers, as many as the header
             says.  */
          for (unsigned k = 0; k < t->std_lengths[op - 1]; k++)
            uleb (c);
          break;
        }
    }
  if (m.in_sequence)
    d->lines_exact = false;   /* a sequence without its end */
}

/* The line program at OFFSET of .debug_line, for a unit compiled in
   COMP_DIR.  */
static bool
read_line_table (Dws *d, const DwiSections *s, uint64_t offset,
                 const char *comp_dir, uint32_t unit)
{
  Cursor c, u;
  uint64_t length, header_length;
  unsigned offset_size = 4;
  const unsigned char *program;
  LineTable t = { .file_base = (uint32_t) d->nfiles, .unit = unit };
  bool ok;

  if (offset >= s->line.size)
    return false;
  c = cursor_at (s->line.p + offset, s->line.p + s->line.size, s->big_endian);
  length = get (&c, 4);
  if (length == 0xffffffff)
    {
      length = get (&c, 8);
      offset_size = 8;
    }
  if (!c.ok || length > (uint64_t) (c.end - c.p))
    return false;
  u = cursor_at (c.p, c.p + length, s->big_endian);
  t.version = (unsigned) get (&u, 2);
  if (t.version < 2 || t.version > 5)
    return false;
  if (t.version >= 5)
    get (&u, 2);   /* address and segment selector sizes */
  header_length = get (&u, offset_size);
  if (!u.ok || header_length > (uint64_t) (u.end - u.p))
    return false;
  program = u.p + header_length;
  t.min_insn = (unsigned) get (&u, 1);
  t.max_ops = t.version >= 4 ? (unsigned) get (&u, 1) : 1;
  t.default_is_stmt = get (&u, 1) != 0;
  t.line_base = (signed char) get (&u, 1);
  t.line_range = (unsigned) get (&u, 1);
  t.opcode_base = (unsigned) get (&u, 1);
  t.std_lengths = u.p;
  if (!u.ok || t.line_range == 0 || t.opcode_base == 0
      || (size_t) (program - u.p) < t.opcode_base - 1)
    return false;
  /* Several operations per instruction (VLIW) are not read here.  */
  if (t.max_ops != 1)
    return false;
  u.p += t.opcode_base - 1;
  {
    Cursor h = cursor_at (u.p, program, s->big_endian);

    ok = t.version >= 5
           ? read_v5_entries (d, &h, s, offset_size, &t, comp_dir, false)
             && read_v5_entries (d, &h, s, offset_size, &t, comp_dir, true)
           : read_v2_entries (d, &h, &t, comp_dir);
  }
  if (ok)
    {
      u.p = program;
      run_program (d, &u, &t);
      ok = u.ok;
    }
  free (t.dirs);
  return ok;
}

/* ---- function entries ------------------------------------------------ */

static bool
has_code (unsigned tag)
{
  return tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine
         || tag == DW_TAG_entry_point;
}

/* Whether BFD takes a plain DW_AT_name of a unit in language LANG as the
   linkage name; NULL if we do not model the language.  */
static bool
known_language (int lang, bool *plain_is_linkage)
{
  switch (lang)
    {
    case DW_LANG_C89:
    case DW_LANG_C:
    case DW_LANG_C99:
    case DW_LANG_C11:
    case DW_LANG_Mips_Assembler:
      *plain_is_linkage = true;
      return true;
    case DW_LANG_C_plus_plus:
    case DW_LANG_C_plus_plus_03:
    case DW_LANG_C_plus_plus_11:
    case DW_LANG_C_plus_plus_14:
      *plain_is_linkage = false;
      return true;
    default:
      return false;
    }
}

/* The names of entry E: its own, else those of the entries it stands
   for, as far as a chain of 16 (a loop goes no further).  */
static void
entry_names (const DwiReader *r, const DwiEntry *e, const char **linkage,
             const char **plain)
{
  DwiEntry cur = *e;
  const DwiUnit *unit;

  *linkage = *plain = NULL;
  for (int depth = 0; depth < 16; depth++)
    {
      uint64_t next;

      if (!*linkage)
        *linkage = cur.linkage_name;
      if (!*plain)
        *plain = cur.name;
      if (*linkage || !(cur.has_origin || cur.has_specification))
        return;
      next = cur.has_origin ? cur.origin : cur.specification;
      if (!dwi_entry_at (r, next, &cur, &unit))
        return;
    }
}

/* What walking a unit's entries adds to.  */
typedef struct Walk
{
  Dws *d;
  const DwiReader *reader;
  uint32_t unit;
  bool plain_is_linkage;
  uint32_t func;           /* the entry whose ranges are being added */
  bool any;
} Walk;

static void
add_range (void *arg, uint64_t start, uint64_t end)
{
  Walk *w = arg;
  Dws *d = w->d;

  if (!w->any)
    {
      gp_grow (&d->funcs, &d->funcs_cap, d->nfuncs + 1, sizeof *d->funcs);
      d->funcs[d->nfuncs++] = (Func) { .low = start };
      w->any = true;
    }
  if (end <= d->floor)
    return;
  gp_grow (&d->ranges, &d->ranges_cap, d->nranges + 1, sizeof *d->ranges);
  d->ranges[d->nranges++] = (Range) { start, end, w->func, w->unit };
}

static void
add_func (void *arg, const DwiUnit *u, const DwiEntry *e)
{
  Walk *w = arg;
  Dws *d = w->d;
  const char *linkage, *plain;
  Func *f;

  w->func = (uint32_t) d->nfuncs;
  w->any = false;
  /* BFD 2.40 does not take such ranges as clang writes them (by index
     into the unit's list table): its answers there are not modelled.  */
  if (e->ranges_indexed)
    d->exact = false;
  if (!dwi_ranges (w->reader, u, e, add_range, w))
    d->broken = true;
  if (!w->any)
    {
      /* An entry point may have an address and no range.  */
      if (e->has_low)
        {
          gp_grow (&d->points, &d->points_cap, d->npoints + 1,
                   sizeof *d->points);
          d->points[d->npoints++] = e->low;
        }
      return;
    }
  f = &d->funcs[w->func];
  entry_names (w->reader, e, &linkage, &plain);
  f->name = linkage ? linkage : plain;
  f->is_linkage = linkage || (plain && w->plain_is_linkage);
}

/* A compilation unit, as read before its line program and function
   entries.  */
typedef struct Unit
{
  const DwiUnit *info;
  bool skipped;            /* a type unit: no code */
  bool plain_is_linkage;
  bool has_ranges;
} Unit;

static void
add_unit_range (void *arg, uint64_t start, uint64_t end)
{
  Walk *w = arg;
  Dws *d = w->d;

  w->any = true;
  if (end <= d->floor)
    return;
  gp_grow (&d->units, &d->units_cap, d->nunits + 1, sizeof *d->units);
  d->units[d->nunits++] = (Range) { start, end, 0, w->unit };
}

/* The unit INFO's ranges and what its line program and its entries
   need.  */
static void
read_unit (Dws *d, const DwiReader *r, const DwiUnit *info, Unit *u,
           uint32_t index)
{
  const DwiEntry *e = &info->entry;
  Walk w = { .d = d, .reader = r, .unit = index };

  *u = (Unit) { .info = info };
  if (e->tag == DW_TAG_type_unit)
    {
      /* No code; but BFD names some functions of programs with type
         units otherwise than the entries say (-fdebug-types-section):
         not modelled.  */
      u->skipped = true;
      d->exact = false;
      return;
    }
  if (e->tag != DW_TAG_compile_unit || info->unit_type != DW_UT_compile
      || e->split || e->language < 0
      || !known_language (e->language, &u->plain_is_linkage))
    d->exact = false;
  if (!dwi_ranges (r, info, e, add_unit_range, &w))
    d->broken = true;
  u->has_ranges = w.any;
}

/* The line programs of all units, on a thread of their own (they touch
   only the rows, sequences and files).  */
typedef struct LineJob
{
  Dws *d;
  const DwiSections *s;
  const Unit *units;
  size_t n;
  bool ok;
  GpTask task;
} LineJob;

static void
line_job_run (void *arg)
{
  LineJob *job = arg;

  job->ok = true;
  for (size_t i = 0; i < job->n && job->ok; i++)
    {
      const DwiEntry *e = &job->units[i].info->entry;

      if (e->has_stmt_list && !job->units[i].skipped)
        job->ok = read_line_table (job->d, job->s, e->stmt_list, e->comp_dir,
                                   (uint32_t) i);
    }
}

/* BFD asks a unit without ranges about any address the others do not
   hold; that is modelled only if it has no code to answer with.  */
static bool
rangeless_units_empty (const Dws *d, const Unit *units)
{
  for (size_t i = 0; i < d->nranges; i++)
    if (!units[d->ranges[i].unit].has_ranges)
      return false;
  for (size_t i = 0; i < d->nseqs; i++)
    if (d->seqs[i].low < d->seqs[i].high && !units[d->seqs[i].unit].has_ranges)
      return false;
  return true;
}

/* ---- tables -------------------------------------------------------------- */

static int
cmp_seq (const void *a, const void *b)
{
  const Sequence *x = a, *y = b;

  if (x->low != y->low)
    return x->low < y->low ? -1 : 1;
  if (x->high != y->high)
    return x->high < y->high ? -1 : 1;
  return 0;
}

static int
cmp_range (const void *a, const void *b)
{
  const Range *x = a, *y = b;

  if (x->low != y->low)
    return x->low < y->low ? -1 : 1;
  return x->func < y->func ? -1 : x->func > y->func;
}

/* The unit range holding ADDR, or NULL.  */
static const Range *
unit_at (const Dws *d, vma_t addr)
{
  size_t lo = 0, hi = d->nunits;

  while (lo < hi)
    {
      size_t mid = lo + (hi - lo) / 2;

      if (d->units[mid].low <= addr)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo == 0 || addr >= d->units[lo - 1].high)
    return NULL;
  return &d->units[lo - 1];
}

/* Whether [LOW, HIGH) lies in one range of unit UNIT.  */
static bool
inside_unit (const Dws *d, vma_t low, vma_t high, uint32_t unit)
{
  const Range *u = unit_at (d, low);

  return u && u->unit == unit && high <= u->high;
}

/* Whether [LOW, HIGH) meets any range of unit UNIT.  */
static bool
meets_unit (const Dws *d, vma_t low, vma_t high, uint32_t unit)
{
  size_t lo = 0, hi = d->nunits;

  while (lo < hi)
    {
      size_t mid = lo + (hi - lo) / 2;

      if (d->units[mid].high <= low)
        lo = mid + 1;
      else
        hi = mid;
    }
  for (; lo < d->nunits && d->units[lo].low < high; lo++)
    if (d->units[lo].unit == unit)
      return true;
  return false;
}

/* Whether BFD may use sequence Q (and if not, *OK false when it cannot
   be modelled).  */
static bool
sequence_kept (const Dws *d, const Sequence *q, bool *ok)
{
  if (q->high <= d->floor)
    return false;
  /* As for functions, BFD reads only the line table of the unit whose
     ranges hold the address.  */
  if (q->low < q->high && !inside_unit (d, q->low, q->high, q->unit))
    {
      if (meets_unit (d, q->low, q->high, q->unit))
        *ok = false;
      return false;
    }
  return true;
}

/* Sequences in address order, their rows with them; false if two
   overlap or one is partly outside its unit.  The rows move within
   their array when the sequences were decoded in address order (one
   unit, or units in address order), else into a new one.  */
static bool
order_rows (Dws *d)
{
  const Sequence *last = NULL;
  bool ok = true, in_place = true;
  size_t n = 0, next_first = 0;
  Row *rows;

  if (d->nseqs > 1)
    qsort (d->seqs, d->nseqs, sizeof *d->seqs, cmp_seq);
  for (size_t i = 0; i < d->nseqs && ok; i++)
    {
      const Sequence *q = &d->seqs[i];

      if (!sequence_kept (d, q, &ok))
        continue;
      if (last && last->high > q->low)
        ok = false;
      if (q->first < next_first)
        in_place = false;
      next_first = q->first + q->n;
      last = q;
    }
  if (!ok)
    return false;
  rows = in_place ? d->rows
         : gp_reallocarray (NULL, d->nrows ? d->nrows : 1, sizeof *rows);
  for (size_t i = 0; i < d->nseqs; i++)
    {
      const Sequence *q = &d->seqs[i];

      if (!sequence_kept (d, q, &ok))
        continue;
      if (q->n)
        memmove (rows + n, d->rows + q->first, q->n * sizeof *rows);
      n += q->n;
    }
  if (!in_place)
    free (d->rows);
  d->rows = rows;
  d->nrows = n;
  return true;
}

/* Whether the N ranges are in cmp_range's order already (the DWARF
   mostly lists functions in address order).  */
static bool
in_order (const Range *r, size_t n)
{
  for (size_t i = 1; i < n; i++)
    if (cmp_range (&r[i - 1], &r[i]) > 0)
      return false;
  return true;
}

typedef struct HeapItem
{
  vma_t len, high;
  uint32_t func;
} HeapItem;

/* The better answer first: the shorter range, the later entry.  */
static bool
heap_before (const HeapItem *a, const HeapItem *b)
{
  return a->len != b->len ? a->len < b->len : a->func > b->func;
}

static void
heap_push (HeapItem *h, size_t *n, HeapItem item)
{
  size_t i = (*n)++;

  while (i > 0 && heap_before (&item, &h[(i - 1) / 2]))
    {
      h[i] = h[(i - 1) / 2];
      i = (i - 1) / 2;
    }
  h[i] = item;
}

static void
heap_pop (HeapItem *h, size_t *n)
{
  HeapItem last = h[--*n];
  size_t i = 0;

  for (;;)
    {
      size_t c = 2 * i + 1;

      if (c >= *n)
        break;
      if (c + 1 < *n && heap_before (&h[c + 1], &h[c]))
        c++;
      if (!heap_before (&h[c], &last))
        break;
      h[i] = h[c];
      i = c;
    }
  if (*n > 0)
    h[i] = last;
}

static void
push_piece (Dws *d, size_t *cap, Piece p)
{
  Piece *last = d->npieces > 0 ? &d->pieces[d->npieces - 1] : NULL;

  if (last && last->func == p.func && last->tie == p.tie)
    return;
  if (last && last->start == p.start)
    {
      *last = p;
      return;
    }
  gp_grow (&d->pieces, cap, d->npieces + 1, sizeof *d->pieces);
  d->pieces[d->npieces++] = p;
}

static void
drop_ended (HeapItem *h, size_t *n, vma_t at)
{
  while (*n > 0 && h[0].high <= at)
    heap_pop (h, n);
}

/* The best entry holding AT, and whether another as short holds it.  */
static Piece
best_at (HeapItem *h, size_t *n, vma_t at)
{
  HeapItem best;
  Piece p = { at, NO_FUNC, false };

  drop_ended (h, n, at);
  if (*n == 0)
    return p;
  best = h[0];
  heap_pop (h, n);
  drop_ended (h, n, at);
  p.func = best.func;
  p.tie = *n > 0 && h[0].len == best.len;
  heap_push (h, n, best);
  return p;
}

/* The ranges in cmp_range's order.  They are added function by function,
   so a stable sort by address alone gives it, by counting instead of
   n log n calls to the comparison.  */
static void
sort_ranges (Range *r, size_t n)
{
  uint64_t *low;

  for (size_t i = 1; i < n; i++)
    if (r[i - 1].func > r[i].func)
      {
        qsort (r, n, sizeof *r, cmp_range);
        return;
      }
  low = gp_reallocarray (NULL, n ? n : 1, sizeof *low);
  for (size_t i = 0; i < n; i++)
    low[i] = r[i].low;
  radix_sort_records (r, n, sizeof *r, low);
  free (low);
}

/* The function answer of every stretch of addresses: a sweep over the
   ranges in address order, with the ranges that hold the current
   address in a heap, best on top.  */
static bool
build_pieces (Dws *d)
{
  HeapItem *heap = gp_reallocarray (NULL, d->nranges ? d->nranges : 1,
                                    sizeof *heap);
  size_t nheap = 0, cap = 0, next = 0;
  bool ok = true;

  if (!in_order (d->ranges, d->nranges))
    sort_ranges (d->ranges, d->nranges);
  while (next < d->nranges || nheap > 0)
    {
      vma_t at;

      /* The next address where the answer may change: a range starts,
         or the best one ends.  */
      if (nheap > 0 && (next == d->nranges || heap[0].high <= d->ranges[next].low))
        at = heap[0].high;
      else
        at = d->ranges[next].low;
      while (next < d->nranges && d->ranges[next].low == at)
        {
          const Range *r = &d->ranges[next++];

          if (r->low >= r->high)
            continue;
          /* BFD looks for functions only in the unit whose ranges hold
             the address: an entry outside its unit is never found.  */
          if (!inside_unit (d, r->low, r->high, r->unit))
            {
              if (meets_unit (d, r->low, r->high, r->unit))
                ok = false;
              continue;
            }
          heap_push (heap, &nheap, (HeapItem) { r->high - r->low, r->high,
                                                r->func });
        }
      push_piece (d, &cap, best_at (heap, &nheap, at));
    }
  free (heap);
  return ok;
}

static bool
units_disjoint (Dws *d)
{
  if (d->nunits > 1)
    qsort (d->units, d->nunits, sizeof *d->units, cmp_range);
  for (size_t i = 1; i < d->nunits; i++)
    if (d->units[i - 1].high > d->units[i].low)
      return false;
  return true;
}

void
dws_set_symbols (Dws *d, const DwsElfSym *syms, size_t n, vma_t section_vma)
{
  d->section_vma = section_vma;
  free (d->syms);
  d->syms = gp_reallocarray (NULL, n ? n : 1, sizeof *d->syms);
  memcpy (d->syms, syms, n * sizeof *syms);
  d->nsyms = n;
  d->syms_sorted = false;
}

/* The symbols by offset, at each offset the longest, the first of those
   (the one BFD would take): done when first needed, which C programs may
   never be.  */
static void
sort_symbols (Dws *d)
{
  size_t n = d->nsyms;
  uint64_t *key = gp_reallocarray (NULL, n ? n : 1, sizeof *key);

  /* By offset, then the longest, then table order: two stable passes,
     the minor key first.  */
  for (size_t i = 0; i < n; i++)
    key[i] = ~d->syms[i].size;
  radix_sort_records (d->syms, n, sizeof *d->syms, key);
  for (size_t i = 0; i < n; i++)
    key[i] = d->syms[i].offset;
  radix_sort_records (d->syms, n, sizeof *d->syms, key);
  free (key);
  d->nsyms = 0;
  for (size_t i = 0; i < n; i++)
    if (i == 0 || d->syms[i].offset != d->syms[d->nsyms - 1].offset)
      d->syms[d->nsyms++] = d->syms[i];
  sorted_init (&d->sym_index, d->syms, d->nsyms, sizeof *d->syms);
  d->syms_sorted = true;
}

/* ---- the interface ---------------------------------------------------- */

Dws *
dws_open (const char *filename, vma_t floor)
{
  Dws *d = gp_calloc (1, sizeof *d);
  DwiReader reader = { 0 };
  Unit *units = NULL;
  LineJob lines;
  bool disjoint, pieces;

  d->exact = d->lines_exact = d->bounded = true;
  d->floor = floor;
  elf_version (EV_CURRENT);
  d->file = fopen (filename, "rb");
  if (!d->file
      || !(d->elf = elf_begin (fileno (d->file), ELF_C_READ_MMAP, NULL))
      || !dwi_sections (d->elf, &d->sec) || !d->sec.line.p
      || !dwi_open (&reader, &d->sec))
    goto fail;
  /* DWARF 4's type units (.debug_types) hold no code, but with them
     BFD's answer changes where no boundary of ours falls (one byte
     inside a function named after an inlined entry's DW_AT_name): read
     only for dws_any_tie.  */
  if (d->sec.has_types)
    d->exact = d->bounded = false;
  d->name_budget = ((size_t) 64 << 20) + 16 * (d->sec.line.size
                                                + d->sec.line_str.size
                                                + d->sec.str.size);
  units = gp_reallocarray (NULL, reader.nunits ? reader.nunits : 1,
                           sizeof *units);
  for (size_t i = 0; i < reader.nunits; i++)
    read_unit (d, &reader, &reader.units[i], &units[i], (uint32_t) i);
  lines = (LineJob) { .d = d, .s = &d->sec, .units = units,
                      .n = reader.nunits };
  gp_task_start (&lines.task, line_job_run, &lines);
  for (size_t i = 0; i < reader.nunits; i++)
    {
      Walk w = { .d = d, .reader = &reader, .unit = (uint32_t) i,
                 .plain_is_linkage = units[i].plain_is_linkage };

      if (!units[i].skipped
          && !dwi_walk (&reader, units[i].info, has_code, add_func, &w))
        d->broken = true;
    }
  gp_task_wait (&lines.task);
  if (!lines.ok || d->broken)
    goto fail;
  /* The units sorted and the function pieces built also when not
     exact: dws_boundaries and dws_any_tie use them.  */
  disjoint = units_disjoint (d);
  pieces = build_pieces (d);
  d->exact = d->exact && d->lines_exact && disjoint && pieces
             && rangeless_units_empty (d, units) && order_rows (d);
  if (d->exact)
    {
      sorted_init (&d->row_index, d->rows, d->nrows, sizeof *d->rows);
      sorted_init (&d->piece_index, d->pieces, d->npieces, sizeof *d->pieces);
    }
  free (units);
  dwi_close (&reader);
  return d;

fail:
  free (units);
  dwi_close (&reader);
  dws_close (d);
  return NULL;
}

bool
dws_exact (const Dws *d)
{
  return d->exact;
}

void
dws_close (Dws *d)
{
  if (!d)
    return;
  for (size_t i = 0; i < d->nfiles; i++)
    free (d->files[i]);
  free (d->files);
  free (d->rows);
  free (d->seqs);
  free (d->funcs);
  free (d->ranges);
  free (d->units);
  free (d->pieces);
  free (d->points);
  free (d->syms);
  free (d->row_index.bucket);
  free (d->piece_index.bucket);
  free (d->sym_index.bucket);
  if (d->elf)
    elf_end (d->elf);
  if (d->file)
    fclose (d->file);
  free (d);
}

bool
dws_boundaries (const Dws *d, vma_t **v, size_t *n, size_t *cap)
{
  if (!d->bounded)
    return false;
  gp_grow (v, cap, *n + d->nrows + d->npieces + 3 * d->nranges
           + 2 * d->nunits + d->npoints, sizeof **v);
  for (size_t i = 0; i < d->nrows; i++)
    (*v)[(*n)++] = d->rows[i].addr;
  for (size_t i = 0; i < d->nunits; i++)
    {
      (*v)[(*n)++] = d->units[i].low;
      (*v)[(*n)++] = d->units[i].high;
    }
  if (d->exact)
    for (size_t i = 0; i < d->npieces; i++)
      (*v)[(*n)++] = d->pieces[i].start;
  else
    {
      /* Where some function entry starts or ends: BFD's choice among
         them can change only there; and the address after a start,
         where BFD's first answer for an entry named without a linkage
         name (a symbol's name) may give way to the entry's.  */
      for (size_t i = 0; i < d->nranges; i++)
        {
          (*v)[(*n)++] = d->ranges[i].low;
          (*v)[(*n)++] = d->ranges[i].low + 1;
          (*v)[(*n)++] = d->ranges[i].high;
        }
      for (size_t i = 0; i < d->npoints; i++)
        (*v)[(*n)++] = d->points[i];
    }
  return true;
}

/* The row at ADDR, or NULL.  */
static const Row *
row_at (Dws *d, vma_t addr)
{
  size_t k = count_upto (&d->row_index, addr);

  return k == 0 || d->rows[k - 1].file == NO_FILE ? NULL : &d->rows[k - 1];
}

static const Piece *
piece_at (Dws *d, vma_t addr)
{
  size_t k = count_upto (&d->piece_index, addr);

  return k ? &d->pieces[k - 1] : NULL;
}

static Func *
func_at (Dws *d, vma_t addr)
{
  const Piece *p = piece_at (d, addr);

  return p && p->func != NO_FUNC ? &d->funcs[p->func] : NULL;
}

bool
dws_any_tie (const Dws *d)
{
  for (size_t i = 0; i < d->npieces; i++)
    if (d->pieces[i].tie)
      return true;
  return false;
}

bool
dws_ambiguous (Dws *d, vma_t addr)
{
  const Piece *p = piece_at (d, addr);

  return p && p->tie;
}

/* The symbol BFD names ADDR after, or NULL: the last at or before it,
   measured from the section's start.  */
static const DwsElfSym *
sym_at (Dws *d, vma_t addr)
{
  size_t k;

  if (!d->syms_sorted)
    sort_symbols (d);
  k = count_upto (&d->sym_index, addr - d->section_vma);
  return k ? &d->syms[k - 1] : NULL;
}

bool
dws_find (Dws *d, vma_t addr, const char **file, const char **func, int *line,
          bool *once)
{
  const Row *row = row_at (d, addr);
  Func *f = func_at (d, addr);
  const char *name;

  *once = false;
  /* Without a line there is no answer, and only the first look at an
     entry without a linkage name changes anything.  */
  if ((!row || row->line == 0) && (!f || f->is_linkage))
    return false;
  if (f && f->is_linkage)
    name = f->name;
  else
    {
      const DwsElfSym *sym = sym_at (d, addr);

      name = sym ? sym->name : NULL;
      if (f)
        {
          if (!sym)
            name = f->name;
          else if (sym->offset + d->section_vma == f->low)
            f->name = sym->name;
          else
            *once = f->name != sym->name
                    && (!f->name || strcmp (f->name, sym->name) != 0);
          f->is_linkage = true;
        }
    }
  if (!row || row->line == 0 || !name)
    return false;
  *file = d->files[row->file];
  *func = name;
  *line = (int) row->line;
  return true;
}
