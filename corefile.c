/* corefile.c - reading the executable through BFD.  */

#include "config.h"
#include "corefile.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "dwarf/dwarf_src.h"
#include "pipeline/memory.h"
#include "pipeline/par.h"
#include "i18n.h"
#include "support/msort.h"
#include "support/error.h"
#include "support/alloc.h"

/* The ELF symbol and string tables as stored in the file.  GNU gprof's
   check of static names runs past the end of a name into the next string
   of the table in some cases (see static_name_ok); we reproduce that on
   this copy, within its bounds.  The symbol sizes tell -l where BFD's
   fallback to symbols for function names changes its answer.  */
struct RawStrtab
{
  char *data;             /* size bytes, then two NULs */
  size_t size;
  uint32_t *st_name;      /* of ELF symbols 1..n, at [0..n-1] */
  uint64_t *st_value, *st_size;
  size_t nsyms;
};

/* ---- the raw ELF string table ------------------------------------------ */

static void
raw_strtab_free (RawStrtab *rs)
{
  if (!rs)
    return;
  free (rs->data);
  free (rs->st_name);
  free (rs->st_value);
  free (rs->st_size);
  free (rs);
}

/* The symbol table SCN of ELF and its string table, copied; NULL if
   libelf cannot hand them over whole (a damaged file).  */
static RawStrtab *
copy_symtab (Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh)
{
  Elf_Data *syms = elf_getdata (scn, NULL);
  Elf_Data *strs = elf_getdata (elf_getscn (elf, sh->sh_link), NULL);
  size_t entsize = gelf_fsize (elf, ELF_T_SYM, 1, EV_CURRENT);
  RawStrtab *rs;

  /* A section of no bytes in the file (SHT_NOBITS) has no buffer.  */
  if (!syms || !strs || !syms->d_buf || (!strs->d_buf && strs->d_size)
      || entsize == 0 || syms->d_size / entsize == 0)
    return NULL;
  rs = gp_calloc (1, sizeof *rs);
  rs->size = strs->d_size;
  rs->data = gp_calloc (rs->size + 2, 1);
  if (rs->size)
    memcpy (rs->data, strs->d_buf, rs->size);
  rs->nsyms = syms->d_size / entsize - 1;
  rs->st_name = gp_reallocarray (NULL, rs->nsyms ? rs->nsyms : 1, sizeof *rs->st_name);
  rs->st_value = gp_reallocarray (NULL, rs->nsyms ? rs->nsyms : 1, sizeof *rs->st_value);
  rs->st_size = gp_reallocarray (NULL, rs->nsyms ? rs->nsyms : 1, sizeof *rs->st_size);
  for (size_t i = 0; i < rs->nsyms; i++)
    {
      GElf_Sym sym;

      if (!gelf_getsym (syms, (int) (i + 1), &sym))
        {
          raw_strtab_free (rs);
          return NULL;
        }
      rs->st_name[i] = sym.st_name;
      rs->st_value[i] = sym.st_value;
      rs->st_size[i] = sym.st_size;
    }
  return rs;
}

/* FILENAME's first symbol table and its strings, through libelf; NULL
   for a file that is not ELF or has none.  */
static RawStrtab *
raw_strtab_load (const char *filename)
{
  int fd = open (filename, O_RDONLY);
  Elf *elf;
  Elf_Scn *scn = NULL;
  RawStrtab *rs = NULL;

  if (fd < 0)
    return NULL;
  elf_version (EV_CURRENT);
  elf = elf_begin (fd, ELF_C_READ_MMAP, NULL);
  if (elf && elf_kind (elf) == ELF_K_ELF)
    while ((scn = elf_nextscn (elf, scn)))
      {
        GElf_Shdr sh;

        if (gelf_getshdr (scn, &sh) && sh.sh_type == SHT_SYMTAB)
          {
            rs = copy_symtab (elf, scn, &sh);
            break;
          }
      }
  elf_end (elf);
  close (fd);
  return rs;
}

/* Where GNU's name scan runs for canonical symbol I: its name in the raw
   string table if that is where BFD took it from, else the name alone.  */
static const char *
scan_start (const Core *core, long i, const char *name)
{
  const RawStrtab *rs = core->strtab;

  if (rs && i < core->nsyms_canonical && (size_t) i < rs->nsyms
      && rs->st_name[i] < rs->size
      && strcmp (rs->data + rs->st_name[i], name) == 0)
    return rs->data + rs->st_name[i];
  return NULL;
}

/* ---- opening --------------------------------------------------------- */

static bool
has_section (const Core *core, const char *name)
{
  return bfd_get_section_by_name (core->abfd, name) != NULL;
}

/* Can BFD find a line for any address?  Only through debugging sections
   of the file, or a separate debug file it names (debuglink) or finds by
   build id.  Without any, asking for every symbol would cost a search of
   the whole symbol table each time, for nothing.  */
static bool
may_have_lines (const Core *core)
{
  static const char *const sections[] = {
    ".debug_info", ".debug_line", ".debug", ".stab", ".gnu_debuglink",
    ".gnu_debugaltlink", NULL
  };
  struct stat st;

  for (int i = 0; sections[i]; i++)
    if (has_section (core, sections[i]))
      return true;
  return has_section (core, ".note.gnu.build-id")
         && stat ("/usr/lib/debug/.build-id", &st) == 0;
}

/* ---- -R: the function map --------------------------------------------- */

enum { MAP_BUF = 1024 };

static void
die_map (const char *file)
{
  gp_die (_("%s: unable to parse mapping file %s.\n"), whoami, file);
}

/* Read the map with GNU's scanf patterns, so that the same files parse
   (and fail) the same way: "FILE:rest of line", the function being the
   last word of the rest; "No symbols in ..." lines are skipped.  */
static size_t
parse_map (FILE *f, const char *file, FunctionMap *map)
{
  char buf[MAP_BUF];
  size_t n = 0;

  while (!feof (f))
    {
      const char *space;
      int got = fscanf (f, "%1023[^\n:]", buf);

      /* Only an empty file ends before its first line here; GNU gprof
         goes on with an uninitialised buffer then, and crashes.  */
      if (got == EOF)
        break;
      if (got == 0)
        die_map (file);
      if (strncmp (buf, "No symbols in ", 14) == 0)
        {
          if (fscanf (f, "\n") == EOF)
            die_map (file);
          continue;
        }
      if (map)
        map[n].file_name = gp_strdup (buf);
      if (fscanf (f, "%1023[^\n]\n", buf) == 0)
        die_map (file);
      if (map)
        {
          /* GNU gprof crashes on a line without a space.  */
          space = strrchr (buf, ' ');
          if (!space)
            die_map (file);
          map[n].function_name = gp_strdup (space + 1);
        }
      n++;
    }
  return n;
}

static int
cmp_map_function (const void *a, const void *b, void *ctx)
{
  return strcmp (((const FunctionMap *) a)->function_name,
                 ((const FunctionMap *) b)->function_name);
}

static void
read_function_map (Core *core, const char *file)
{
  FILE *f = fopen (file, "r");
  FunctionMap *map, **order;
  size_t n;

  if (!f)
    gp_die (_("%s: could not open %s.\n"), whoami, file);
  n = parse_map (f, file, NULL);
  map = gp_calloc (n ? n : 1, sizeof *map);
  rewind (f);
  n = parse_map (f, file, map);
  fclose (f);
  for (size_t i = 0; i < n; i++)
    map[i].is_first = i == 0 || strcmp (map[i].file_name, map[i - 1].file_name) != 0;

  order = gp_reallocarray (NULL, n ? n : 1, sizeof *order);
  for (size_t i = 0; i < n; i++)
    order[i] = &map[i];
  msort_ptrs ((void **) order, n, cmp_map_function, NULL);
  core->map = gp_calloc (n ? n : 1, sizeof *core->map);
  for (size_t i = 0; i < n; i++)
    core->map[i] = *order[i];
  core->nmap = n;
  free (order);
  free (map);
}

/* glibc's bsearch: the first entry met that matches, probing midpoints.  */
static const FunctionMap *
map_lookup (const Core *core, const char *name)
{
  size_t lo = 0, hi = core->nmap;

  while (lo < hi)
    {
      size_t mid = (lo + hi) / 2;
      int c = strcmp (name, core->map[mid].function_name);

      if (c < 0)
        hi = mid;
      else if (c > 0)
        lo = mid + 1;
      else
        return &core->map[mid];
    }
  return NULL;
}

/* IMAGE opened as an object file with a text section, or a message and
   exit.  Checked before anything is allocated for it, so that an exit
   here leaves nothing behind.  */
static bfd *
open_image (const char *image, asection **text)
{
  bfd *abfd;

  bfd_init ();
  abfd = bfd_openr (image, NULL);
  if (!abfd)
    {
      perror (image);
      gp_exit_failure ();
    }
  abfd->flags |= BFD_DECOMPRESS;
  if (!bfd_check_format (abfd, bfd_object))
    gp_die (_("%s: %s: not in executable format\n"), whoami, image);
  *text = bfd_get_section_by_name (abfd, ".text");
  if (!*text)
    *text = bfd_get_section_by_name (abfd, "$CODE$");
  if (!*text)
    gp_die (_("%s: can't find .text section in %s\n"), whoami, image);
  return abfd;
}

/* The executable's address size in bits, as GNU takes it.  */
static int
address_bits (bfd *abfd)
{
  int bits = bfd_get_arch_size (abfd);

  return bits == -1 ? (int) bfd_arch_bits_per_address (abfd) : bits;
}

Core *
core_open (const char *image, const Par *par)
{
  asection *text;
  bfd *abfd = open_image (image, &text);
  Core *core = gp_calloc (1, sizeof *core);
  int bits = address_bits (abfd);

  core->filename = image;
  core->par = par;
  core->abfd = abfd;
  core->text = text;
  core->text_vma = bfd_section_vma (core->text);
  core->text_size = bfd_section_size (core->text);

  /* An unexpected size is reported once the symbols are read, as GNU
     orders its messages; until then no profile is read.  */
  core->vma_bytes = bits == 32 || bits == 64 ? bits / 8 : 0;
  core->big_endian = bfd_big_endian (core->abfd);
  core->sign_extend_vma = bfd_get_sign_extend_vma (core->abfd) == 1;
  core->leading_char = bfd_get_symbol_leading_char (core->abfd);

  switch (bfd_get_flavour (core->abfd))
    {
    case bfd_target_coff_flavour:
    case bfd_target_ecoff_flavour:
    case bfd_target_xcoff_flavour:
    case bfd_target_elf_flavour:
    case bfd_target_som_flavour:
      core->has_func_syms = true;
      break;
    default:
      break;
    }
  core->min_insn_size = bfd_get_arch (core->abfd) == bfd_arch_alpha ? 4 : 1;
  return core;
}

void
core_read_symbols (Core *core, const char *map_file)
{
  long size, n, nsynth;

  size = bfd_get_symtab_upper_bound (core->abfd);
  if (size < 0)
    gp_die ("%s: %s: %s\n", whoami, core->filename,
            bfd_errmsg (bfd_get_error ()));
  core->syms = gp_malloc ((size_t) size);
  n = bfd_canonicalize_symtab (core->abfd, core->syms);
  if (n < 0)
    gp_die ("%s: %s: %s\n", whoami, core->filename,
            bfd_errmsg (bfd_get_error ()));
  core->nsyms = core->nsyms_canonical = n;

  nsynth = bfd_get_synthetic_symtab (core->abfd, n, core->syms, 0, NULL,
                                     &core->synthetic);
  if (nsynth > 0)
    {
      core->syms = gp_reallocarray (core->syms, (size_t) (n + nsynth + 1),
                                    sizeof *core->syms);
      for (long i = 0; i < nsynth; i++)
        core->syms[n + i] = &core->synthetic[i];
      core->nsyms = n + nsynth;
      core->syms[core->nsyms] = NULL;
    }
  if (core->vma_bytes == 0)
    gp_die (_("%s: address size has unexpected value of %u\n"), whoami,
            (unsigned) address_bits (core->abfd));

  core->may_have_lines = may_have_lines (core);
  if (bfd_get_flavour (core->abfd) == bfd_target_elf_flavour)
    core->strtab = raw_strtab_load (core->filename);
  if (map_file)
    read_function_map (core, map_file);
}

void
core_free_strtab (Core *core)
{
  raw_strtab_free (core->strtab);
  core->strtab = NULL;
}

/* Free what BFD and the DWARF reader hold, and BFD itself.  */
static void
release_bfd (Core *core)
{
  free (core->synthetic);
  free (core->syms);
  dws_close (core->dws);
  if (core->abfd)
    bfd_close (core->abfd);
  core->synthetic = NULL;
  core->syms = NULL;
  core->nsyms = core->nsyms_canonical = 0;
  core->dws = NULL;
  core->abfd = NULL;
  core->text = NULL;
}

void
core_close_bfd (Core *core, SymTab *symtab)
{
  symtab_own_names (symtab);
  release_bfd (core);
  core->may_have_lines = false;   /* core_src_info has nothing to ask */
}

void
core_close (Core *core)
{
  if (!core)
    return;
  raw_strtab_free (core->strtab);
  for (size_t i = 0; i < core->nmap; i++)
    {
      free (core->map[i].file_name);
      free (core->map[i].function_name);
    }
  free (core->map);
  free (core->symfile_names);
  free (core->text_space);
  release_bfd (core);
  free (core);
}

/* Whether .text claims more bytes than the whole file holds, as only a
   damaged section header can (BFD warns "section extending past end of
   file").  */
static bool
text_past_eof (const Core *core)
{
  ufile_ptr fsize = bfd_get_file_size (core->abfd);

  return fsize > 0 && core->text_size > fsize
         && !bfd_is_section_compressed (core->abfd, core->text);
}

void
core_read_text_space (Core *core)
{
  /* GNU gprof allocates what the header claims, up to terabytes, before
     BFD finds the file truncated; say what it says then, at once.  */
  if (text_past_eof (core))
    {
      bfd_set_error (bfd_error_file_truncated);
      bfd_perror ("bfd_get_section_contents");
      fprintf (stderr, _("%s: can't do -c\n"), whoami);
      return;
    }
  core->text_space = malloc (core->text_size ? core->text_size : 1);
  if (!core->text_space)
    gp_die (_("%s: ran out room for %lu bytes of text space\n"), whoami,
            (unsigned long) core->text_size);
  if (!bfd_get_section_contents (core->abfd, core->text, core->text_space, 0,
                                 core->text_size))
    {
      bfd_perror ("bfd_get_section_contents");
      free (core->text_space);
      core->text_space = NULL;
      fprintf (stderr, _("%s: can't do -c\n"), whoami);
    }
}

vma_t
core_text_last (const Core *core)
{
  return core->text_vma + core->text_size - 1;
}

/* Whether our own reading of the DWARF sees what BFD sees: there is
   DWARF and nothing BFD would read besides it (stabs, DWARF 1, separate
   debug files).  */
static bool
own_lines_possible (const Core *core)
{
  return core->may_have_lines
         && bfd_get_flavour (core->abfd) == bfd_target_elf_flavour
         && has_section (core, ".debug_info")
         && !has_section (core, ".stab") && !has_section (core, ".debug")
         && !has_section (core, ".gnu_debuglink")
         && !has_section (core, ".gnu_debugaltlink");
}

/* The lowest address of code: no source position is asked below.  */
static vma_t
code_floor (const Core *core)
{
  vma_t floor = core->text_vma;

  for (asection *sec = core->abfd->sections; sec; sec = sec->next)
    if ((bfd_section_flags (sec) & SEC_CODE) && bfd_section_vma (sec) < floor)
      floor = bfd_section_vma (sec);
  return floor;
}

/* About what libdw's line tables and our model of them take: 28 bytes a
   byte of .debug_line for a 20,000-function program (58 MB), 32 with
   the function entries.  */
static size_t
line_tables_memory (const Core *core)
{
  enum { PER_BYTE = 32 };
  asection *sec = bfd_get_section_by_name (core->abfd, ".debug_line");
  bfd_size_type size = sec ? bfd_section_size (sec) : 0;

  return size < SIZE_MAX / PER_BYTE ? (size_t) size * PER_BYTE : SIZE_MAX;
}

/* Read the DWARF for core_src_info (dwarf_src.h), once.  The symbols
   handed over are those BFD would name a function after in .text.  */
static void
src_prepare (Core *core)
{
  const flagword not_code = BSF_SECTION_SYM | BSF_FILE | BSF_OBJECT
                            | BSF_THREAD_LOCAL;
  DwsElfSym *cand;
  size_t n = 0;

  if (core->src_prepared)
    return;
  core->src_prepared = true;
  if (!own_lines_possible (core))
    return;
  gp_prefault_heap (core->par, line_tables_memory (core));
  core->dws = dws_open (core->filename, code_floor (core), core->par);
  if (!core->dws || !dws_exact (core->dws))
    return;
  cand = gp_reallocarray (NULL, (size_t) (core->nsyms ? core->nsyms : 1),
                          sizeof *cand);
  for (long i = 0; i < core->nsyms; i++)
    {
      asymbol *sym = core->syms[i];

      if (sym->section != core->text || (sym->flags & not_code))
        continue;
      cand[n++] = (DwsElfSym) {
        sym->value,
        core->strtab && i < core->nsyms_canonical
          && (size_t) i < core->strtab->nsyms ? core->strtab->st_size[i] : 0,
        sym->name
      };
    }
  dws_set_symbols (core->dws, cand, n, core->text_vma);
  free (cand);
}

#ifdef GPROF_TESTING
bool core_src_bfd_only;
#endif

/* Whether our reading of the DWARF answers for CORE.  */
static bool
own_answers (const Core *core)
{
#ifdef GPROF_TESTING
  if (core_src_bfd_only)
    return false;
#endif
  return core->dws && dws_exact (core->dws);
}

bool
core_src_info (Core *core, vma_t addr, const char **file, const char **func,
               int *line, bool *name_once)
{
  const char *f = NULL, *fn = NULL;
  unsigned int l = 0;
  bool once = false;

  if (name_once)
    *name_once = false;
  if (!core->may_have_lines)
    return false;
  src_prepare (core);
  if (own_answers (core))
    {
      bool ok = dws_find (core->dws, addr, file, func, line, &once);

      if (name_once)
        *name_once = once;
      return ok;
    }
  if (bfd_find_nearest_line (core->abfd, core->text, core->syms,
                             addr - core->text_vma, &f, &fn, &l)
      && f && fn && l)
    {
      *file = f;
      *func = fn;
      *line = (int) l;
      return true;
    }
  return false;
}

bool
core_src_dry_run (Core *core, bool on)
{
  if (!core->may_have_lines)
    return false;
  src_prepare (core);
  if (!own_answers (core))
    return false;
  dws_dry_run (core->dws, on);
  return true;
}

/* ---- which symbols are functions ------------------------------------- */

static bool
is_digit (char c)
{
  return c >= '0' && c <= '9';
}

/* GNU gprof accepts a static name only if every '.' in it is followed by
   digits (nested functions "f.123"), optionally after ".clone." or
   ".constprop.", and it has no '$'.  When such a digit run ends the name,
   GNU's loop steps over the terminating NUL and goes on checking the next
   string of the string table; P points into our copy of that table then,
   so the same names pass and fail.  */
static bool
static_name_ok (const char *p)
{
  for (; *p; p++)
    {
      if (*p == '$')
        return false;
      while (*p == '.')
        {
          bool digit_seen = false;
          size_t rest = strlen (p);

          if (rest > 7 && strncmp (p, ".clone.", 7) == 0)
            p += 6;
          else if (rest > 11 && strncmp (p, ".constprop.", 11) == 0)
            p += 10;
          for (p++; *p; p++)
            {
              if (digit_seen && *p == '.')
                break;
              if (!is_digit (*p))
                return false;
              digit_seen = true;
            }
        }
    }
  return true;
}

/* nm's letter for a symbol, which BFD works out from the symbol's
   section and flags (comparing the section's name with a dozen
   prefixes): asked once for each pair, as thousands of symbols share a
   handful of them.  Only for ELF, whose symbols carry nothing else that
   counts (other readers may look at stabs types).  */
typedef struct ClassMemo
{
  const asection *section;
  flagword flags;
  char type;
} ClassMemo;

enum { CLASS_MEMO = 16 };

static char
symbol_type (const Core *core, ClassMemo *memo, asymbol *sym)
{
  symbol_info info;
  ClassMemo *m;

  if (bfd_get_flavour (core->abfd) != bfd_target_elf_flavour)
    {
      bfd_get_symbol_info (core->abfd, sym, &info);
      return info.type;
    }
  m = &memo[((uintptr_t) sym->section / sizeof (asection) ^ sym->flags)
            % CLASS_MEMO];
  if (m->section != sym->section || m->flags != sym->flags)
    {
      bfd_get_symbol_info (core->abfd, sym, &info);
      *m = (ClassMemo) { sym->section, sym->flags, info.type };
    }
  return m->type;
}

/* 'T' for a global function, 't' for a static one, 0 to ignore SYM
   (the I-th symbol).  */
static int
sym_class (const Core *core, const Options *opt, ClassMemo *memo, long i,
           asymbol *sym)
{
  const char *scan;
  char type;

  if (!sym->section || (sym->flags & BSF_DEBUGGING))
    return 0;
  if (opt->ignore_static_funcs && (sym->flags & BSF_LOCAL))
    return 0;
  type = symbol_type (core, memo, sym);
  if (type == 'T' || type == 'W')
    return 'T';
  if (type != 't' || opt->ignore_static_funcs)
    return 0;
  if (!sym->name || !sym->name[0])
    return 0;
  scan = scan_start (core, i, sym->name);
  if (!static_name_ok (scan ? scan : sym->name))
    return 0;
  if (core->leading_char && core->leading_char != sym->name[0])
    return 0;
  if (strncmp (sym->name, "__gnu_compiled", 14) == 0
      || strncmp (sym->name, "___gnu_compiled", 15) == 0)
    return 0;
  if (opt->ignore_non_functions && !(sym->flags & BSF_FUNCTION))
    return 0;
  return 't';
}

void
core_create_function_syms (Core *core, const Options *opt, SymTab *symtab,
                           SourceFiles *files)
{
  Sym *syms = gp_reallocarray (NULL, (size_t) (core->nsyms ? core->nsyms : 1),
                               sizeof *syms);
  size_t n = 0;
  ClassMemo memo[CLASS_MEMO] = { { 0 } };

  par_prefault (core->par, syms, (size_t) core->nsyms * sizeof *syms);
  for (long i = 0; i < core->nsyms; i++)
    {
      asymbol *asym = core->syms[i];
      int cls = sym_class (core, opt, memo, i, asym);
      const FunctionMap *mapped;
      Sym *s;
      const char *file, *func;

      if (!cls)
        continue;
      /* With -R, a file's functions become one symbol named after the
         file, at its first function; the others merge into it.  */
      mapped = core->nmap ? map_lookup (core, asym->name) : NULL;
      if (mapped && !mapped->is_first)
        continue;
      s = &syms[n++];
      memset (s, 0, sizeof *s);
      s->addr = asym->value + bfd_section_vma (asym->section);
      s->name = mapped ? mapped->file_name : asym->name;
      s->mapped = mapped != NULL;
      if (core_src_info (core, s->addr, &file, &func, &s->line_num, NULL))
        s->file = srcfile_lookup_path (files, file);
      s->is_func = !core->has_func_syms || (asym->flags & BSF_FUNCTION);
      s->is_bb_head = true;
      s->is_static = cls == 't';
    }
  if (n == 0)
    gp_die (_("%s: file `%s' has no symbols\n"), whoami, core->filename);
  symtab->base = syms;
  symtab->len = n;
  symtab_finalize (symtab, core_text_last (core), NULL);
}

/* The addresses at which core_create_line_syms asks for the source
   position: every instruction unit of .text (as GNU gprof) if EXHAUSTIVE
   or when the DWARF cannot be read here or does not bound BFD's
   answers, else only where the answer may change.  Returns how many;
   *OUT is malloc'ed.  */
static size_t
line_probes (Core *core, bool exhaustive, vma_t **out)
{
  vma_t start = core->text_vma, end = start + core->text_size, *v = NULL;
  vma_t step = (vma_t) core->min_insn_size;
  size_t n = 0, cap = 0, k = 0;

  if (!exhaustive && !core->may_have_lines)
    {
      *out = NULL;
      return 0;
    }
  if (exhaustive || !core->dws || !dws_boundaries (core->dws, &v, &n, &cap))
    {
      /* Ask about every instruction unit, as GNU gprof does; it would
         take hours over a .text a damaged header makes gigabytes long.  */
      if (text_past_eof (core))
        gp_die (_("%s: %s: .text extends past the end of the file\n"),
                whoami, core->filename);
      n = start < end ? (size_t) ((end - start + step - 1) / step) : 0;
      v = gp_reallocarray (NULL, n ? n : 1, sizeof *v);
      for (size_t i = 0; i < n; i++)
        v[i] = start + i * step;
      *out = v;
      return n;
    }
  /* Besides the DWARF boundaries: where a symbol starts or ends (BFD
     names functions from the symbols when DWARF does not), and the start
     of .text.  */
  for (long i = 0; i < core->nsyms; i++)
    if (core->syms[i]->section)
      {
        gp_grow (&v, &cap, n + 1, sizeof *v);
        v[n++] = core->syms[i]->value + bfd_section_vma (core->syms[i]->section);
      }
  if (core->strtab)
    for (size_t i = 0; i < core->strtab->nsyms; i++)
      {
        gp_grow (&v, &cap, n + 2, sizeof *v);
        v[n++] = core->strtab->st_value[i];
        v[n++] = core->strtab->st_value[i] + core->strtab->st_size[i];
      }
  gp_grow (&v, &cap, n + 1, sizeof *v);
  v[n++] = start;
  for (size_t i = 0; i < n; i++)
    {
      /* Onto the grid of addresses GNU's walk visits.  */
      if (v[i] >= start && v[i] < end)
        v[k++] = start + (v[i] - start + step - 1) / step * step;
    }
  radix_sort_u64 (v, NULL, k);
  n = 0;
  for (size_t i = 0; i < k; i++)
    if (v[i] < end && (n == 0 || v[n - 1] != v[i]))
      v[n++] = v[i];
  *out = v;
  return n;
}

static bool
same_str (const char *a, const char *b)
{
  return a == b || strcmp (a, b) == 0;
}

/* Append S to the *N symbols at *OUT (room for *CAP, one kept for the
   pseudo-symbol), or let it replace the last one at the same address
   as symtab_finalize would, so that the table needs no compaction there
   (which would move every symbol after the first duplicate).  */
static void
append_sym (Sym **out, size_t *n, size_t *cap, const Sym *s)
{
  if (*n > 0 && (*out)[*n - 1].addr == s->addr)
    {
      if (sym_prefer (s, &(*out)[*n - 1]))
        (*out)[*n - 1] = *s;
      return;
    }
  gp_grow (out, cap, *n + 2, sizeof **out);
  (*out)[(*n)++] = *s;
}

/* A walk over the probed addresses that stops at each change of (line,
   function, file): where the line symbols go.  It compares file names,
   not SourceFiles, so that counting the lines creates none.  */
typedef struct LineWalk
{
  Core *core;
  const vma_t *probes;
  size_t nprobes, next;
  vma_t extra, step, end;
  const char *last_func;
  const char *last_name;  /* the name the lines get, shared if it can be */
  /* The line last stopped at.  */
  const char *prev_name, *prev_file;
  int prev_line;
  bool have_prev;
} LineWalk;

static void
line_walk_start (LineWalk *w, Core *core, const vma_t *probes,
                 size_t nprobes)
{
  memset (w, 0, sizeof *w);
  w->core = core;
  w->probes = probes;
  w->nprobes = nprobes;
  w->step = (vma_t) core->min_insn_size;
  w->end = core->text_vma + core->text_size;
}

/* The next line symbol into *S (name, line and address set, the rest
   zero) and its file name into *FILE; false at the end.  */
static bool
line_walk_next (LineWalk *w, Sym *s, const char **file)
{
  while (w->next < w->nprobes || w->extra)
    {
      vma_t vma = w->extra ? w->extra : w->probes[w->next++];
      const char *func;
      int line;
      bool once;

      w->extra = 0;
      if (!core_src_info (w->core, vma, file, &func, &line, &once))
        continue;
      /* The next byte gets another name, and GNU's walk asks there.  */
      if (once && vma + w->step < w->end
          && (w->next == w->nprobes || w->probes[w->next] > vma + w->step))
        w->extra = vma + w->step;
      if (func != w->last_func)
        w->last_func = w->last_name = func;
      if (w->have_prev && w->prev_line == line
          && same_str (w->prev_file, *file)
          && same_str (w->prev_name, w->last_name))
        continue;
      memset (s, 0, sizeof *s);
      s->name = w->prev_name = w->last_name;
      s->line_num = w->prev_line = line;
      s->addr = vma;
      w->prev_file = *file;
      w->have_prev = true;
      return true;
    }
  return false;
}

/* NAME, a copy of the name of the line last stopped at, becomes the one
   that the lines of this function share.  */
static const char *
line_walk_share_name (LineWalk *w, const char *name)
{
  return w->last_name = w->prev_name = name;
}

/* Room for the line symbols, the function symbols (at most one per BFD
   symbol) and the pseudo-symbol.  Where our model answers, the lines
   are counted in a dry run of the walk (the functions' questions come
   first and may change names, so the count is near, not exact): an
   array of about the size needed fits where libdw's line tables were,
   as one with room for the worst case does not.  Otherwise, room for a
   line per probe and one more past each name asked once.  */
static size_t
line_syms_room (Core *core, const vma_t *probes, size_t nprobes)
{
  LineWalk walk;
  const char *file;
  size_t nlines = 0;
  Sym s;

  if (!core_src_dry_run (core, true))
    return 2 * nprobes + (size_t) core->nsyms + 1;
  line_walk_start (&walk, core, probes, nprobes);
  while (line_walk_next (&walk, &s, &file))
    nlines++;
  core_src_dry_run (core, false);
  return nlines + (size_t) core->nsyms + 1;
}

/* One symbol per change of (line, function, file) from one probed
   address to the next, and the function symbols among them, in the
   order of a stable sort by sym_addr_cmp of the lines followed by the
   functions (so no sort is needed).  Names and file names are our
   DWARF reader's or BFD's strings, which live as long as the core.  */
void
core_create_line_syms (Core *core, const Options *opt, SymTab *symtab,
                       SourceFiles *files, bool exhaustive)
{
  SymTab funcs = { 0 };
  LineWalk walk;
  Sym *out, s, prev = { 0 };
  bool have_prev = false;
  size_t n = 0, nprobes, fi = 0, cap;
  vma_t *probes;
  const char *file, *last_file = NULL;
  SourceFile *last_sf = NULL;

  src_prepare (core);
  nprobes = line_probes (core, exhaustive, &probes);
  cap = line_syms_room (core, probes, nprobes);
  out = gp_reallocarray (NULL, cap, sizeof *out);
  par_prefault (core->par, out, (cap - 1) * sizeof *out);
  core_create_function_syms (core, opt, &funcs, files);
  line_walk_start (&walk, core, probes, nprobes);
  while (line_walk_next (&walk, &s, &file))
    {
      if (file != last_file)
        {
          last_file = file;
          last_sf = srcfile_lookup_path (files, file);
        }
      s.file = last_sf;
      /* A line's staticness is its function's.  */
      if (have_prev && prev.file == s.file && same_str (prev.name, s.name))
        s.is_static = prev.is_static;
      else
        {
          Sym *f = symtab_lookup (&funcs, s.addr);

          if (f)
            s.is_static = f->is_static;
          /* The lines then share the function's copy of the name, and
             sorting by name mostly compares pointers.  */
          if (f && same_str (f->name, s.name))
            s.name = line_walk_share_name (&walk, f->name);
        }
      /* The functions that sort before this line; on a tie the line
         goes first.  */
      while (fi < funcs.len && sym_addr_cmp (&funcs.base[fi], &s) < 0)
        append_sym (&out, &n, &cap, &funcs.base[fi++]);
      append_sym (&out, &n, &cap, &s);
      /* The next line compares with this one even if a function
         symbol at its address takes its place.  */
      prev = s;
      have_prev = true;
    }
  while (fi < funcs.len)
    append_sym (&out, &n, &cap, &funcs.base[fi++]);
  memset (&out[n], 0, sizeof *out);
  free (probes);
  symtab_free (&funcs);
  symtab->base = out;
  symtab->len = n;
  symtab_finalize (symtab, core_text_last (core), NULL);
}

/* ---- -S: an nm-style symbol file -------------------------------------- */

enum { SYMFILE_BUF = 1024 };

void
core_create_syms_from (Core *core, const char *file, SymTab *symtab)
{
  FILE *f = fopen (file, "r");
  char buf[SYMFILE_BUF], address[SYMFILE_BUF], name[SYMFILE_BUF], type;
  Sym *syms = NULL;
  size_t n = 0, cap = 0, *name_at = NULL, name_cap = 0, names_len = 0,
         names_cap = 0;
  char *names = NULL;

  if (!f)
    gp_die (_("%s: could not open %s.\n"), whoami, file);
  /* Lines are read in pieces of at most SYMFILE_BUF - 2 characters, as
     GNU gprof reads them, so overlong lines split the same way.  */
  while (fgets (buf, SYMFILE_BUF - 1, f))
    {
      Sym *s;
      uint64_t addr = 0;

      if (sscanf (buf, "%1023s %c %1023s", address, &type, name) != 3)
        continue;
      if (type != 't' && type != 'T')
        continue;
      gp_grow (&syms, &cap, n + 1, sizeof *syms);
      s = &syms[n++];
      memset (s, 0, sizeof *s);
      if (sscanf (address, "%" SCNx64, &addr) == 1)
        s->addr = addr;
      /* The names live in one block that the core owns: symbols that
         the table's finalization merges away must not take theirs with
         them (a leak), nor may the block move under the others.  */
      gp_grow (&name_at, &name_cap, n, sizeof *name_at);
      name_at[n - 1] = names_len;
      gp_grow (&names, &names_cap, names_len + strlen (name) + 1, 1);
      strcpy (names + names_len, name);
      names_len += strlen (name) + 1;
      s->is_func = true;
      s->is_bb_head = true;
      s->is_static = type == 't';
    }
  fclose (f);
  if (n == 0)
    gp_die (_("%s: file `%s' has no symbols\n"), whoami, file);
  for (size_t i = 0; i < n; i++)
    syms[i].name = names + name_at[i];
  free (name_at);
  free (core->symfile_names);
  core->symfile_names = names;
  symtab->base = syms;
  symtab->len = n;
  symtab_finalize (symtab, core_text_last (core), NULL);
}
