/* dwarf_src.c - source positions from DWARF, answered as BFD answers.

   The model of BFD's bfd_find_nearest_line (what testsuite/lines checks
   at every byte of real programs):
   - The line: the row of the line-table sequence that covers the
     address, rows at one address counting as the last of them; none
     past a sequence's end.  Line 0 is no answer.
   - The file: the row's file entry, put after its directory and the
     unit's compilation directory unless absolute (bfd_file_name).
   - The function: of the entries (subprograms, inlined subroutines,
     entry points) whose range holds the address, the one with the
     shortest such range, the later in the unit on a tie.  Its name is
     its linkage name, else its DW_AT_name, each also taken through
     DW_AT_abstract_origin and DW_AT_specification.  A name that is not
     a linkage name (DW_AT_name in a C++ unit) is checked once against
     the ELF symbols: the symbol the address falls in names this answer;
     if it starts where the function starts it names the function from
     then on, else later answers give the DWARF name.  Without a
     function entry the symbol names the answer.

   elfutils' libdw reads the DWARF: the units and their entries, the
   ranges, and the line programs, whose rows it gives sorted by address.
   What libdw reads otherwise than BFD, or hides from us, is not
   modelled (dws_exact false) or not read (dws_open fails).  */

#include "config.h"
#include "dwarf/dwarf_src.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "support/msort.h"
#include "support/alloc.h"
#include "pipeline/par.h"

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
  uint32_t file_base;  /* Dws.files index of its table's file 0 */
  bool v5;             /* its table is DWARF 5's */
  bool after_end;      /* it starts where another of its unit ends... */
  bool mixed;          /* ...with rows there that disagree */
} Sequence;

typedef struct Func
{
  const char *name;
  vma_t low;                /* its first range's start */
  bool is_linkage;          /* the name needs no check against symbols */
} Func;

typedef struct Undo
{
  Func *func;
  Func was;
} Undo;

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
  Elf *elf;
  Dwarf *dw;               /* the function names point into its data */
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

  /* dws_dry_run: the entries whose naming dws_find changed since it
     began, as they were.  */
  bool dry;
  Undo *undo;
  size_t nundo, undo_cap;
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

/* BFD's full name of a file libdw names FULL.  Both put a relative file
   name after its directory; BFD also puts a relative directory after
   the unit's compilation directory COMP_DIR.  */
static char *
bfd_file_name (const char *comp_dir, const char *full)
{
  char *out;

  if (is_absolute (full) || !comp_dir)
    return gp_strdup (full);
  out = gp_malloc (strlen (comp_dir) + strlen (full) + 2);
  strcpy (out, comp_dir);
  strcat (out, "/");
  strcat (out, full);
  return out;
}

/* How libdw numbers the files of a unit's line table.  */
typedef struct LineFiles
{
  uint32_t base;           /* Dws.files index of libdw's file 0 */
  size_t n;
  bool v5;                 /* DWARF 5: files counted from 0 */
} LineFiles;

/* The files of unit CU's line table, named as BFD names them, into
   D->files.  libdw counts the files of DWARF 2 to 4 from 1 (its file 0
   stands for none) and puts a name after its directory 0, the
   compilation directory, which BFD does not repeat: a relative
   compilation directory is not modelled there.  Nor is an empty
   directory name in DWARF 5: libdw makes /NAME of it, BFD DIR//NAME.
   False once the names grow past what the file could honestly need
   (entries naming one long string over and over would otherwise take
   memory quadratic in the input).  */
static bool
add_files (Dws *d, Dwarf_Die *cu, Dwarf_Files *files, size_t n,
           LineFiles *lf)
{
  Dwarf_Attribute attr;
  const char *comp_dir = dwarf_formstring (dwarf_attr (cu, DW_AT_comp_dir,
                                                       &attr));
  const char *const *dirs;
  const char *first = n ? dwarf_filesrc (files, 0, NULL, NULL) : NULL;
  size_t ndirs;

  if (!first || dwarf_getsrcdirs (files, &dirs, &ndirs) != 0)
    return false;
  *lf = (LineFiles) { .base = (uint32_t) d->nfiles, .n = n };
  lf->v5 = strcmp (first, "???") != 0;
  if (!lf->v5 && comp_dir && *comp_dir && !is_absolute (comp_dir))
    d->lines_exact = false;
  for (size_t i = 0; i < ndirs && lf->v5 && comp_dir; i++)
    if (dirs[i] && !*dirs[i])
      d->lines_exact = false;
  gp_grow (&d->files, &d->files_cap, d->nfiles + n, sizeof *d->files);
  for (size_t i = 0; i < n; i++)
    {
      const char *name = dwarf_filesrc (files, i, NULL, NULL);
      char *full = NULL;

      if (!name)
        return false;
      if (lf->v5 || i > 0)
        {
          full = bfd_file_name (comp_dir, name);
          d->name_bytes += strlen (full) + 1;
        }
      d->files[d->nfiles++] = full;
    }
  return d->name_bytes <= d->name_budget;
}

/* The Dws.files index of libdw's file INDEX, or NO_FILE for one the
   table does not list (BFD has a name of its own for it).  */
static uint32_t
file_of (const LineFiles *lf, size_t index)
{
  if (index >= lf->n || (!lf->v5 && index == 0))
    return NO_FILE;
  return lf->base + (uint32_t) index;
}

static size_t
new_sequence (Dws *d, vma_t low, uint32_t unit, const LineFiles *lf,
              bool after_end)
{
  gp_grow (&d->seqs, &d->seqs_cap, d->nseqs + 1, sizeof *d->seqs);
  d->seqs[d->nseqs] = (Sequence) { .low = low, .first = d->nrows,
                                   .unit = unit, .file_base = lf->base,
                                   .v5 = lf->v5, .after_end = after_end };
  return d->nseqs++;
}

/* Add a row to sequence Q: a new one (D->rows has room for it), or in
   place of the last if both are rows (not ends) at one address, as the
   last of them counts.  */
static void
push_row (Dws *d, Sequence *q, vma_t addr, uint32_t file, uint32_t line,
          bool end)
{
  Row *r = q->n ? &d->rows[q->first + q->n - 1] : NULL;

  if (!(r && !end && r->addr == addr))
    {
      r = &d->rows[d->nrows++];
      q->n++;
    }
  *r = (Row) { addr, end ? NO_FILE : file, end ? 0 : line };
}

/* One line of a table, as libdw gives it.  */
typedef struct Line
{
  Dwarf_Addr addr;
  bool end;
  int number;
  size_t file;
} Line;

static bool
get_line (Dwarf_Lines *lines, size_t i, Line *out)
{
  Dwarf_Line *l = dwarf_onesrcline (lines, i);
  Dwarf_Files *files;
  unsigned op_index;

  /* A file the table does not list is no error (file_of says so).  */
  if (!l || dwarf_line_file (l, &files, &out->file) != 0)
    out->file = SIZE_MAX;
  /* Several operations per instruction (VLIW) are not read here.  */
  return l && dwarf_lineaddr (l, &out->addr) == 0
         && dwarf_lineendsequence (l, &out->end) == 0
         && dwarf_lineno (l, &out->number) == 0
         && dwarf_lineop_index (l, &op_index) == 0 && op_index == 0;
}

/* The rows of a unit's table into sequences.  libdw sorts the rows by
   address, an end before the rows at its address, the rows of one
   address in the program's order, and ends the table's last row.
   Sequences that do not overlap come out whole, one after the other,
   but for rows at a sequence's very end (which BFD never answers
   with; compilers write them): they come after its end, as if they
   started the next sequence.  Such a sequence is marked, and settled
   once the units are known (settle_start).  An end with no sequence
   open is the table's last row at the end of the one before (harmless)
   or two sequences that overlap: not modelled, where asked (above the
   floor).  */
static bool
add_rows (Dws *d, Dwarf_Lines *lines, size_t n, const LineFiles *lf,
          uint32_t unit)
{
  size_t open = SIZE_MAX;   /* the sequence being read */
  bool ended = false;
  vma_t end_addr = 0;       /* the last end */

  gp_grow (&d->rows, &d->rows_cap, d->nrows + n, sizeof *d->rows);
  for (size_t i = 0; i < n; i++)
    {
      Line l;
      uint32_t file;
      Sequence *q;
      const Row *last;

      if (!get_line (lines, i, &l))
        return false;
      if (l.end && open == SIZE_MAX)
        {
          if (!(ended && end_addr == l.addr) && l.addr > d->floor)
            d->lines_exact = false;
          continue;
        }
      if (open == SIZE_MAX)
        open = new_sequence (d, l.addr, unit, lf,
                             ended && end_addr == l.addr);
      q = &d->seqs[open];
      file = file_of (lf, l.file);
      if (!l.end && (file == NO_FILE || l.number < 0))
        d->lines_exact = false;
      last = q->n ? &d->rows[q->first + q->n - 1] : NULL;
      if (!l.end && last && last->addr == q->low && l.addr == q->low
          && (last->file != file || last->line != (uint32_t) l.number))
        q->mixed = true;
      push_row (d, q, l.addr, file, (uint32_t) l.number, l.end);
      if (l.end)
        {
          q->high = l.addr;
          open = SIZE_MAX;
          ended = true;
          end_addr = l.addr;
        }
    }
  return true;
}

/* The rows of unit CU's line table (the UNIT-th unit).  */
static bool
read_line_table (Dws *d, Dwarf_Die *cu, uint32_t unit)
{
  Dwarf_Lines *lines;
  Dwarf_Files *files;
  size_t nlines, nfiles;
  LineFiles lf;

  return dwarf_getsrclines (cu, &lines, &nlines) == 0
         && dwarf_getsrcfiles (cu, &files, &nfiles) == 0
         && add_files (d, cu, files, nfiles, &lf)
         && add_rows (d, lines, nlines, &lf, unit);
}

/* The line programs of all units, on a thread of their own with libdw
   handles of their own (a Dwarf is not for two threads at once): they
   touch only the rows, sequences and files.  */
typedef struct LineJob
{
  Dws *d;
  size_t nunits;           /* the units of .debug_info met */
  bool ok;
} LineJob;

static void
line_job_run (LineJob *job)
{
  Elf *elf = elf_begin (fileno (job->d->file), ELF_C_READ_MMAP, NULL);
  Dwarf *dw = elf ? dwarf_begin_elf (elf, DWARF_C_READ, NULL) : NULL;
  Dwarf_Off off = 0, next;
  size_t header;
  int more = -1;

  job->ok = true;
  while (dw && job->ok
         && (more = dwarf_next_unit (dw, off, &next, &header, NULL, NULL,
                                     NULL, NULL, NULL, NULL)) == 0)
    {
      Dwarf_Die cu;

      if (!dwarf_offdie (dw, off + header, &cu))
        job->ok = false;
      else if (dwarf_tag (&cu) != DW_TAG_type_unit
               && dwarf_hasattr (&cu, DW_AT_stmt_list))
        job->ok = read_line_table (job->d, &cu, (uint32_t) job->nunits);
      job->nunits++;
      off = next;
    }
  job->ok = job->ok && more == 1;
  dwarf_end (dw);
  elf_end (elf);
}

/* ---- function entries ------------------------------------------------ */

static bool
has_code (int tag)
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

static bool
is_string_form (unsigned form)
{
  switch (form)
    {
    case DW_FORM_string:
    case DW_FORM_strp:
    case DW_FORM_line_strp:
    case DW_FORM_strx:
    case DW_FORM_strx1:
    case DW_FORM_strx2:
    case DW_FORM_strx3:
    case DW_FORM_strx4:
    case DW_FORM_GNU_str_index:
      return true;
    default:
      return false;
    }
}

/* References within the file (not to a type unit's signature).  */
static bool
is_ref_form (unsigned form)
{
  return form == DW_FORM_ref1 || form == DW_FORM_ref2 || form == DW_FORM_ref4
         || form == DW_FORM_ref8 || form == DW_FORM_ref_udata
         || form == DW_FORM_ref_addr;
}

/* Strings and references of a supplementary file (dwz), which libdw
   would go and look for.  */
static bool
is_other_file_form (unsigned form)
{
  return form == DW_FORM_GNU_strp_alt || form == DW_FORM_GNU_ref_alt
         || form == DW_FORM_strp_sup || form == DW_FORM_ref_sup4
         || form == DW_FORM_ref_sup8;
}

/* What an entry says of its names and of the entry it stands for: of
   each attribute the last.  */
typedef struct EntryAttrs
{
  const char *linkage, *plain;
  Dwarf_Attribute origin, specification;
  bool has_origin, has_specification;
  bool bad;                /* a name or reference not read here */
} EntryAttrs;

static int
note_attr (Dwarf_Attribute *attr, void *arg)
{
  EntryAttrs *e = arg;
  unsigned form = dwarf_whatform (attr);
  unsigned name = dwarf_whatattr (attr);
  const char *s;

  if (is_other_file_form (form))
    {
      e->bad = true;
      return DWARF_CB_ABORT;
    }
  if ((name == DW_AT_name || name == DW_AT_linkage_name
       || name == DW_AT_MIPS_linkage_name) && is_string_form (form))
    {
      if (!(s = dwarf_formstring (attr)))
        e->bad = true;
      else if (name == DW_AT_name)
        e->plain = s;
      else
        e->linkage = s;
    }
  else if (name == DW_AT_abstract_origin)
    {
      e->has_origin = is_ref_form (form);
      e->origin = *attr;
    }
  else if (name == DW_AT_specification)
    {
      e->has_specification = is_ref_form (form);
      e->specification = *attr;
    }
  return e->bad ? DWARF_CB_ABORT : DWARF_CB_OK;
}

/* The names of entry DIE: its own, else those of the entries it stands
   for, as far as a chain of 16 (a loop goes no further).  False if its
   own cannot be read; the chain ends at one it stands for that cannot.  */
static bool
entry_names (Dwarf_Die *die, const char **linkage, const char **plain)
{
  Dwarf_Die cur = *die;

  *linkage = *plain = NULL;
  for (int depth = 0; depth < 16; depth++)
    {
      EntryAttrs e = { 0 };
      Dwarf_Attribute *next;

      if (dwarf_getattrs (&cur, note_attr, &e, 0) != 1 || e.bad)
        return depth > 0;
      if (!*linkage)
        *linkage = e.linkage;
      if (!*plain)
        *plain = e.plain;
      next = e.has_origin ? &e.origin
             : e.has_specification ? &e.specification : NULL;
      if (*linkage || !next || !dwarf_formref_die (next, &cur))
        return true;
    }
  return true;
}

/* FN (ARG, LOW, HIGH) for each range of DIE.  False if they cannot be
   read as BFD reads them: on bad data, and for an entry with both a
   DW_AT_ranges list and a low and high pc, whose list libdw leaves out
   (BFD takes both).  */
static bool
die_ranges (Dwarf_Die *die, void (*fn) (void *, vma_t, vma_t), void *arg)
{
  Dwarf_Addr base, low, high;
  ptrdiff_t off = 0;
  bool pair = false;

  while ((off = dwarf_ranges (die, off, &base, &low, &high)) > 0)
    {
      pair = off == 1;
      fn (arg, low, high);
    }
  return off == 0 && !(pair && dwarf_hasattr (die, DW_AT_ranges));
}

/* What walking a unit's entries adds to.  */
typedef struct Walk
{
  Dws *d;
  uint32_t unit;
  bool plain_is_linkage;
  uint32_t func;           /* the entry whose ranges are being added */
  bool any;
} Walk;

static void
add_range (void *arg, vma_t start, vma_t end)
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

static bool
add_func (Walk *w, Dwarf_Die *die)
{
  Dws *d = w->d;
  Dwarf_Attribute attr;
  Dwarf_Addr low;
  const char *linkage, *plain;
  Func *f;

  w->func = (uint32_t) d->nfuncs;
  w->any = false;
  /* BFD 2.40 does not take such ranges as clang writes them (by index
     into the unit's list table): its answers there are not modelled.  */
  if (dwarf_attr (die, DW_AT_ranges, &attr)
      && dwarf_whatform (&attr) == DW_FORM_rnglistx)
    d->exact = false;
  if (!die_ranges (die, add_range, w))
    return false;
  if (!w->any)
    {
      /* An entry point may have an address and no range.  */
      if (dwarf_lowpc (die, &low) == 0)
        {
          gp_grow (&d->points, &d->points_cap, d->npoints + 1,
                   sizeof *d->points);
          d->points[d->npoints++] = low;
        }
      return true;
    }
  if (!entry_names (die, &linkage, &plain))
    return false;
  f = &d->funcs[w->func];
  f->name = linkage ? linkage : plain;
  f->is_linkage = linkage || (plain && w->plain_is_linkage);
  return true;
}

/* Every function entry of unit CU, in the order of the DWARF, with an
   explicit stack: the nesting depth is the input's to choose.  */
static bool
walk_unit (Walk *w, Dwarf_Die *cu)
{
  Dwarf_Die die, *stack = NULL;
  size_t depth = 0, cap = 0;
  int r = dwarf_child (cu, &die);

  for (;;)
    {
      if (r == 0)
        {
          int tag = dwarf_tag (&die);

          if (tag == DW_TAG_invalid || (has_code (tag) && !add_func (w, &die)))
            break;
          gp_grow (&stack, &cap, depth + 1, sizeof *stack);
          stack[depth++] = die;
          r = dwarf_child (&stack[depth - 1], &die);
        }
      else if (r == 1 && depth > 0)
        {
          depth--;
          r = dwarf_siblingof (&stack[depth], &die);
        }
      else
        break;
    }
  free (stack);
  return r == 1 && depth == 0;
}

/* A compilation unit, as its own entry tells.  */
typedef struct Unit
{
  bool skipped;            /* a type unit: no code */
  bool plain_is_linkage;
  bool has_ranges;
} Unit;

static void
add_unit_range (void *arg, vma_t start, vma_t end)
{
  Walk *w = arg;
  Dws *d = w->d;

  w->any = true;
  if (end <= d->floor)
    return;
  gp_grow (&d->units, &d->units_cap, d->nunits + 1, sizeof *d->units);
  d->units[d->nunits++] = (Range) { start, end, 0, w->unit };
}

/* The language of unit CU, -1 if it does not say.  */
static int
unit_language (Dwarf_Die *cu)
{
  Dwarf_Attribute attr;
  Dwarf_Word lang;

  if (dwarf_formudata (dwarf_attr (cu, DW_AT_language, &attr), &lang) != 0
      || lang > INT32_MAX)
    return -1;
  return (int) lang;
}

/* Whether unit CU leaves its entries to a .dwo file (split DWARF).  */
static bool
is_skeleton (Dwarf_Die *cu)
{
  return dwarf_hasattr (cu, DW_AT_dwo_name)
         || dwarf_hasattr (cu, DW_AT_GNU_dwo_name)
         || dwarf_hasattr (cu, DW_AT_GNU_addr_base)
         || dwarf_hasattr (cu, DW_AT_GNU_ranges_base);
}

/* Unit CU (the INDEX-th): its ranges, and what its entries need.  False
   if it cannot be read.  */
static bool
read_unit (Dws *d, Dwarf_Die *cu, Unit *u, uint32_t index)
{
  Walk w = { .d = d, .unit = index };
  int tag = dwarf_tag (cu), lang;
  uint8_t unit_type;

  *u = (Unit) { .skipped = tag == DW_TAG_type_unit };
  if (u->skipped)
    {
      /* No code; but BFD names some functions of programs with type
         units otherwise than the entries say (-fdebug-types-section):
         not modelled.  */
      d->exact = false;
      return true;
    }
  /* A split unit's ranges and lines are its skeleton's, which libdw
     would look for in other files.  */
  if (tag == DW_TAG_invalid
      || dwarf_cu_info (cu->cu, NULL, &unit_type, NULL, NULL, NULL, NULL,
                        NULL) != 0
      || unit_type == DW_UT_split_compile || unit_type == DW_UT_split_type)
    return false;
  lang = unit_language (cu);
  if (tag != DW_TAG_compile_unit || unit_type != DW_UT_compile
      || is_skeleton (cu) || lang < 0
      || !known_language (lang, &u->plain_is_linkage))
    d->exact = false;
  if (!die_ranges (cu, add_unit_range, &w))
    return false;
  u->has_ranges = w.any;
  return true;
}

/* Every unit of .debug_info and its function entries, into *UNITS (N
   of them).  False if they cannot be read through.  */
static bool
read_units (Dws *d, Unit **units, size_t *n)
{
  Dwarf_Off off = 0, next;
  size_t header, cap = 0;
  int more;

  while ((more = dwarf_next_unit (d->dw, off, &next, &header, NULL, NULL,
                                  NULL, NULL, NULL, NULL)) == 0)
    {
      Dwarf_Die cu;
      Unit *u;
      Walk w = { .d = d, .unit = (uint32_t) *n };

      gp_grow (units, &cap, *n + 1, sizeof **units);
      u = &(*units)[(*n)++];
      if (!dwarf_offdie (d->dw, off + header, &cu)
          || !read_unit (d, &cu, u, w.unit))
        return false;
      w.plain_is_linkage = u->plain_is_linkage;
      if (!u->skipped && !walk_unit (&w, &cu))
        return false;
      off = next;
    }
  return more == 1;
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

/* A sequence that starts where another of its unit ends (add_rows),
   settled.  If a range of its unit starts there, it is the sequence
   there, modelled if its rows there agree (libdw's order hides whether
   the last of them is its own or the other's).  If no range of its unit
   holds that address, its first row is the other's last, at the
   other's end, which BFD never answers with: dropped.  Otherwise not
   modelled.  */
static bool
settle_start (Dws *d, Sequence *q)
{
  const Range *u = unit_at (d, q->low);

  if (u && u->unit == q->unit)
    return u->low == q->low && !q->mixed;
  q->first++;
  q->n--;
  q->low = q->n ? d->rows[q->first].addr : q->high;
  return true;
}

/* BFD starts every DWARF 5 sequence with file 0, libdw with file 1 (as
   the standard says): the rows of file 1 before any of another file
   are BFD's file 0.  (A producer naming file 1 before naming another
   would be misread here; gas and LLVM name a file only where it
   changes.)  */
static void
settle_first_file (Dws *d, const Sequence *q)
{
  for (size_t i = q->first;
       i < q->first + q->n && d->rows[i].file == q->file_base + 1; i++)
    d->rows[i].file = q->file_base;
}

/* What add_rows left to settle once the units are known; false if not
   modelled.  */
static bool
settle_sequences (Dws *d)
{
  for (size_t i = 0; i < d->nseqs; i++)
    {
      Sequence *q = &d->seqs[i];

      if (q->after_end && q->high > d->floor && !settle_start (d, q))
        return false;
      if (q->v5)
        settle_first_file (d, q);
    }
  return true;
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

/* The entries' half of dws_open: the units read, sorted and cut into
   function pieces.  */
typedef struct EntryJob
{
  Dws *d;
  Unit **units;
  size_t *nunits;
  bool read, disjoint, pieces;
} EntryJob;

static void
entry_job_run (EntryJob *job)
{
  job->read = read_units (job->d, job->units, job->nunits);
  job->disjoint = job->read && units_disjoint (job->d);
  job->pieces = job->read && build_pieces (job->d);
}

typedef struct OpenJobs
{
  LineJob *lines;
  EntryJob *entries;
} OpenJobs;

/* dws_open's two independent halves, for par_jobs.  */
static void
open_job (void *ctx, size_t k)
{
  OpenJobs *jobs = ctx;

  if (k == 0)
    line_job_run (jobs->lines);
  else
    entry_job_run (jobs->entries);
}

Dws *
dws_open (const char *filename, vma_t floor, const Par *par)
{
  Dws *d = gp_calloc (1, sizeof *d);
  LineJob lines = { .d = d };
  Unit *units = NULL;
  size_t nunits = 0;
  struct stat st;
  Dwarf_Off next;
  uint64_t signature;
  bool disjoint, pieces;
  EntryJob entries;

  d->exact = d->lines_exact = d->bounded = true;
  d->floor = floor;
  elf_version (EV_CURRENT);
  d->file = fopen (filename, "rb");
  if (!d->file || fstat (fileno (d->file), &st) != 0
      || !(d->elf = elf_begin (fileno (d->file), ELF_C_READ_MMAP, NULL))
      || !(d->dw = dwarf_begin_elf (d->elf, DWARF_C_READ, NULL)))
    goto fail;
  d->name_budget = ((size_t) 64 << 20)
                   + ((uint64_t) st.st_size < SIZE_MAX / 32
                      ? 16 * (size_t) st.st_size : SIZE_MAX / 2);
  /* DWARF 4's type units (.debug_types) hold no code, but with them
     BFD's answer changes where no boundary of ours falls (one byte
     inside a function named after an inlined entry's DW_AT_name).  */
  if (dwarf_next_unit (d->dw, 0, &next, NULL, NULL, NULL, NULL, NULL,
                       &signature, NULL) != 1)
    d->exact = d->bounded = false;
  /* The line tables read (with handles of their own), and beside them
     the units sorted and the function pieces built, also when not exact
     (dws_boundaries and the tests' dws_any_tie use them).  */
  entries = (EntryJob) { d, &units, &nunits, false, false, false };
  par_jobs (par, 2, open_job, &(OpenJobs) { &lines, &entries });
  if (!entries.read || !lines.ok || lines.nunits != nunits)
    goto fail;
  disjoint = entries.disjoint;
  pieces = entries.pieces;
  d->exact = d->exact && d->lines_exact && disjoint && pieces
             && settle_sequences (d) && rangeless_units_empty (d, units)
             && order_rows (d);
  if (d->exact)
    {
      sorted_init (&d->row_index, d->rows, d->nrows, sizeof *d->rows);
      sorted_init (&d->piece_index, d->pieces, d->npieces, sizeof *d->pieces);
    }
  free (units);
  return d;

fail:
  free (units);
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
  free (d->undo);
  dwarf_end (d->dw);
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

#ifdef GPROF_TESTING
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
#endif

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

void
dws_dry_run (Dws *d, bool on)
{
  if (!on)
    while (d->nundo > 0)
      {
        Undo *u = &d->undo[--d->nundo];

        *u->func = u->was;
      }
  d->dry = on;
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
          if (d->dry)
            {
              gp_grow (&d->undo, &d->undo_cap, d->nundo + 1, sizeof *d->undo);
              d->undo[d->nundo++] = (Undo) { f, *f };
            }
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
