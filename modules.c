/* modules.c - --whole-process: the modules file beside a profile
   (gmon_out.h, "whole-process data"), the modules' symbols, and their
   samples and arcs in one synthetic address space (modules.h).  */

#include "config.h"
#include "modules.h"

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/stat.h>
#include <bfd.h>
#include <gelf.h>
#include "gmon_io.h"
#include "gmon_out.h"
#include "gprof.h"
#include "i18n.h"
#include "support/alloc.h"
#include "support/error.h"

/* No target has code above 2^56: a larger address is damage, and the
   synthetic layout of thousands of modules stays far below 2^64.  */
#define ADDR_LIMIT ((vma_t) 1 << 56)
#define LAYOUT_LIMIT ((vma_t) 1 << 62)
/* Modules start on this boundary, one boundary apart: a return address
   at a module's end stays its own.  */
#define MODULE_ALIGN 0x1000

#define SYSTEM_DEBUG_DIR "/usr/lib/debug"

/* ---- the file ----------------------------------------------------------- */

/* The rest of IN is at least N records of MIN bytes each.  */
static void
check_count (StacksIn *in, uint64_t n, unsigned min, const char *what)
{
  if (n > (in->len - in->at) / min)
    stacks_bad (in, what);
}

/* A length-prefixed byte string of IN, malloc'ed with a NUL after it.  */
static unsigned char *
read_bytes (StacksIn *in, size_t *len)
{
  uint64_t n = stacks_leb (in);
  unsigned char *p;

  check_count (in, n, 1, _("a string longer than the file"));
  p = gp_malloc ((size_t) n + 1);
  memcpy (p, in->p + in->at, (size_t) n);
  p[n] = '\0';
  in->at += (size_t) n;
  *len = (size_t) n;
  return p;
}

static void
read_modules (Modules *m, StacksIn *in)
{
  uint64_t n = stacks_leb (in);

  /* flags, loads, base, lo, hi and two lengths: 7 bytes at least.  */
  check_count (in, n, 7, _("more modules than the file holds"));
  if (n == 0)
    stacks_bad (in, _("no module"));
  m->mod = gp_calloc ((size_t) n, sizeof *m->mod);
  for (m->n = 0; m->n < n; m->n++)
    {
      Module *mod = &m->mod[m->n];
      size_t len;
      const char *slash;

      mod->flags = (unsigned) stacks_leb (in);
      mod->loads = stacks_leb (in);
      mod->base = stacks_leb (in);
      mod->lo = stacks_leb (in);
      mod->hi = stacks_leb (in);
      mod->path = (char *) read_bytes (in, &len);
      mod->build_id = read_bytes (in, &mod->build_id_len);
      if (mod->lo > mod->hi || mod->hi > ADDR_LIMIT)
        stacks_bad (in, _("a module's code range is wrong"));
      if (strlen (mod->path) != len)
        stacks_bad (in, _("a module's path holds a NUL"));
      slash = strrchr (mod->path, '/');
      mod->name = slash ? slash + 1 : mod->path;
    }
}

/* A module index of IN, below M->n.  */
static uint32_t
read_module_index (Modules *m, StacksIn *in)
{
  uint64_t i = stacks_leb (in);

  if (i >= m->n)
    stacks_bad (in, _("a module index past the last module"));
  return (uint32_t) i;
}

static void
read_bins (Modules *m, StacksIn *in)
{
  uint64_t n = stacks_leb (in);
  uint32_t prev_module = 0;
  vma_t prev = 0;

  check_count (in, n, 3, _("more bins than the file holds"));
  m->bins = gp_reallocarray (NULL, n ? (size_t) n : 1, sizeof *m->bins);
  for (m->nbins = 0; m->nbins < n; m->nbins++)
    {
      ModuleBin *b = &m->bins[m->nbins];
      const Module *mod;
      uint64_t delta;

      b->pc.module = read_module_index (m, in);
      delta = stacks_leb (in);
      b->count = stacks_leb (in);
      if (b->pc.module == 0)
        stacks_bad (in, _("a bin of the program, whose bins are in the"
                          " profile"));
      if (b->pc.module < prev_module)
        stacks_bad (in, _("bins out of the order of their modules"));
      if (b->pc.module != prev_module)
        prev = 0;
      mod = &m->mod[b->pc.module];
      if (delta >= ADDR_LIMIT || prev + delta < mod->lo
          || prev + delta >= mod->hi)
        stacks_bad (in, _("a bin outside its module's code"));
      b->pc.addr = prev + delta;
      prev = b->pc.addr;
      prev_module = b->pc.module;
    }
}

/* An arc's end: a module and an address within its code (a return
   address may be its end).  */
static ModulePc
read_pc (Modules *m, StacksIn *in)
{
  ModulePc pc;
  const Module *mod;

  pc.module = read_module_index (m, in);
  pc.addr = stacks_leb (in);
  mod = &m->mod[pc.module];
  if (pc.addr < mod->lo || pc.addr > mod->hi)
    stacks_bad (in, _("an arc outside its module's code"));
  return pc;
}

static void
read_arcs (Modules *m, StacksIn *in)
{
  uint64_t n = stacks_leb (in);

  check_count (in, n, 5, _("more arcs than the file holds"));
  m->arcs = gp_reallocarray (NULL, n ? (size_t) n : 1, sizeof *m->arcs);
  for (m->narcs = 0; m->narcs < n; m->narcs++)
    {
      ModuleArc *a = &m->arcs[m->narcs];

      a->from = read_pc (m, in);
      a->self = read_pc (m, in);
      a->count = stacks_leb (in);
      if (a->from.module == 0 && a->self.module == 0)
        stacks_bad (in, _("an arc of the program, whose arcs are in the"
                          " profile"));
    }
}

Modules *
modules_read (const char *profile)
{
  StacksIn in;
  Modules *m;
  uint64_t hash, profile_hash;

  if (!side_file_read (profile, GMON_MODULES_SUFFIX, GMON_MODULES_MAGIC,
                       GMON_MODULES_VERSION,
                       _("%s: %s: %s: the other modules are not used\n"),
                       &in, &hash))
    return NULL;
  /* A run that wrote no modules file leaves an earlier run's behind.  */
  if (!gmon_file_hash (profile, &profile_hash) || profile_hash != hash)
    {
      gp_warn (_("%s: %s: not the modules of %s (written by another run):"
                 " not used\n"), whoami, in.name, profile);
      free ((void *) in.p);
      free ((void *) in.name);
      return NULL;
    }
  m = gp_calloc (1, sizeof *m);
  m->filename = (char *) in.name;
  read_modules (m, &in);
  read_bins (m, &in);
  read_arcs (m, &in);
  if (in.at != in.len)
    stacks_bad (&in, _("bytes after the last arc"));
  free ((void *) in.p);
  return m;
}

void
modules_free (Modules *m)
{
  if (!m)
    return;
  for (size_t i = 0; i < m->n; i++)
    {
      free (m->mod[i].path);
      free (m->mod[i].build_id);
    }
  for (size_t i = 0; i < m->nnames; i++)
    free (m->names[i]);
  free (m->names);
  free (m->mod);
  free (m->bins);
  free (m->arcs);
  free (m->filename);
  free (m);
}

size_t
modules_of (const Modules *m, vma_t addr)
{
  size_t lo = 1, hi = m->n;

  /* The last module starting at or below ADDR; the offsets grow with
     the index.  */
  while (lo < hi)
    {
      size_t mid = lo + (hi - lo) / 2;

      if (m->mod[mid].offset + m->mod[mid].lo <= addr)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo - 1;
}

/* ---- the modules' objects --------------------------------------------- */

/* PATH opened as an object file, or NULL.  Only a regular file: the
   path comes from the modules file, and opening a FIFO would wait for a
   writer forever.  */
static bfd *
open_object (const char *path)
{
  struct stat st;
  bfd *abfd;

  if (stat (path, &st) != 0 || !S_ISREG (st.st_mode))
    return NULL;
  abfd = bfd_openr (path, NULL);
  if (!abfd)
    return NULL;
  abfd->flags |= BFD_DECOMPRESS;
  if (!bfd_check_format (abfd, bfd_object))
    {
      bfd_close (abfd);
      return NULL;
    }
  return abfd;
}

enum { NT_BUILD_ID = 3 };

/* Whether ABFD's NT_GNU_BUILD_ID note is MOD's (any file is, for a
   module recorded without one).  */
static bool
same_build_id (bfd *abfd, const Module *mod)
{
  asection *s = bfd_get_section_by_name (abfd, ".note.gnu.build-id");
  bfd_byte *p = NULL;
  bfd_size_type size;
  bool same = false;

  if (mod->build_id_len == 0)
    return true;
  if (!s || !bfd_malloc_and_get_section (abfd, s, &p))
    return false;
  size = bfd_section_size (s);
  if (size >= 16)
    {
      /* namesz, descsz, type, "GNU\0", then the id.  */
      bfd_size_type namesz = bfd_get_32 (abfd, p);
      bfd_size_type descsz = bfd_get_32 (abfd, p + 4);

      same = namesz == 4 && bfd_get_32 (abfd, p + 8) == NT_BUILD_ID
             && memcmp (p + 12, "GNU", 4) == 0 && descsz <= size - 16
             && descsz == mod->build_id_len
             && memcmp (p + 16, mod->build_id, descsz) == 0;
    }
  free (p);
  return same;
}

/* The places MOD's symbols may be, best first: its path, the system's
   debug file of its build-id, then each --module-dir's file of its
   name.  A malloc'ed array of *N malloc'ed paths.  */
static char **
candidates (const Options *opt, const Module *mod, size_t *n)
{
  char **v = gp_reallocarray (NULL, opt->nmodule_dirs + 2, sizeof *v);

  *n = 0;
  v[(*n)++] = gp_strdup (mod->path);
  if (mod->build_id_len >= 2)
    {
      /* /usr/lib/debug/.build-id/xx/rest.debug */
      char *p = gp_malloc (sizeof SYSTEM_DEBUG_DIR + 12
                           + 2 * mod->build_id_len + 8);
      char *at = p + sprintf (p, "%s/.build-id/%02x/", SYSTEM_DEBUG_DIR,
                              mod->build_id[0]);

      for (size_t i = 1; i < mod->build_id_len; i++)
        at += sprintf (at, "%02x", mod->build_id[i]);
      strcpy (at, ".debug");
      v[(*n)++] = p;
    }
  for (size_t i = 0; i < opt->nmodule_dirs; i++)
    {
      size_t dl = strlen (opt->module_dirs[i]), nl = strlen (mod->name);
      char *p = gp_malloc (dl + nl + 2);

      memcpy (p, opt->module_dirs[i], dl);
      p[dl] = '/';
      memcpy (p + dl + 1, mod->name, nl + 1);
      v = gp_reallocarray (v, *n + 1, sizeof *v);
      v[(*n)++] = p;
    }
  return v;
}

/* ABFD's symbols (its dynamic ones if DYNAMIC), malloc'ed, *N of them;
   NULL if it has none.  */
static asymbol **
object_symbols (bfd *abfd, bool dynamic, long *n)
{
  long size = dynamic ? bfd_get_dynamic_symtab_upper_bound (abfd)
                      : bfd_get_symtab_upper_bound (abfd);
  asymbol **syms;

  *n = 0;
  if (size <= 0)
    return NULL;
  syms = gp_malloc ((size_t) size);
  *n = dynamic ? bfd_canonicalize_dynamic_symtab (abfd, syms)
               : bfd_canonicalize_symtab (abfd, syms);
  if (*n <= 0)
    {
      free (syms);
      *n = 0;
      return NULL;
    }
  return syms;
}

/* Whether SYM is a function of MOD's code.  */
static bool
is_module_function (const asymbol *sym, const Module *mod)
{
  vma_t addr;

  if (!(sym->flags & BSF_FUNCTION) || !sym->section
      || bfd_is_und_section (sym->section) || !sym->name || !sym->name[0]
      || (sym->flags & (BSF_DEBUGGING | BSF_SECTION_SYM)))
    return false;
  addr = sym->value + bfd_section_vma (sym->section);
  return addr >= mod->lo && addr < mod->hi;
}

static size_t
count_functions (asymbol **syms, long n, const Module *mod)
{
  size_t k = 0;

  for (long i = 0; i < n; i++)
    k += is_module_function (syms[i], mod);
  return k;
}

/* A function's extent by its ELF symbol: BFD's symbols carry no size.  */
typedef struct FuncSize
{
  vma_t addr, size;
} FuncSize;

static int
cmp_vma (const void *a, const void *b)
{
  vma_t x = *(const vma_t *) a, y = *(const vma_t *) b;

  return x < y ? -1 : x > y;
}

static int
cmp_func_size (const void *a, const void *b)
{
  const FuncSize *x = a, *y = b;

  return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* The sizes of PATH's function symbols (from its dynamic symbol table
   if DYNAMIC), sorted by address, the largest of those at one address
   kept; *N of them.  NULL when libelf cannot read them: every function
   then runs up to the next.  */
static FuncSize *
function_sizes (const char *path, bool dynamic, size_t *n)
{
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  Elf *elf;
  Elf_Scn *scn = NULL;
  FuncSize *v = NULL;
  size_t k = 0;

  *n = 0;
  if (fd < 0)
    return NULL;
  elf_version (EV_CURRENT);
  elf = elf_begin (fd, ELF_C_READ_MMAP, NULL);
  while (elf && (scn = elf_nextscn (elf, scn)))
    {
      GElf_Shdr sh;
      Elf_Data *data;
      size_t entsize, count;

      if (!gelf_getshdr (scn, &sh)
          || sh.sh_type != (dynamic ? SHT_DYNSYM : SHT_SYMTAB)
          || !(data = elf_getdata (scn, NULL))
          || (entsize = gelf_fsize (elf, ELF_T_SYM, 1, EV_CURRENT)) == 0)
        continue;
      count = data->d_size / entsize;
      v = gp_reallocarray (v, k + count + 1, sizeof *v);
      for (size_t i = 0; i < count; i++)
        {
          GElf_Sym sym;
          int type;

          if (!gelf_getsym (data, (int) i, &sym))
            break;
          type = GELF_ST_TYPE (sym.st_info);
          if ((type == STT_FUNC || type == STT_GNU_IFUNC)
              && sym.st_shndx != SHN_UNDEF && sym.st_size > 0)
            v[k++] = (FuncSize) { sym.st_value, sym.st_size };
        }
      break;
    }
  if (elf)
    elf_end (elf);
  close (fd);
  if (k == 0)
    {
      free (v);
      return NULL;
    }
  qsort (v, k, sizeof *v, cmp_func_size);
  *n = 0;
  for (size_t i = 0; i < k; i++)
    if (*n > 0 && v[*n - 1].addr == v[i].addr)
      v[*n - 1].size = v[i].size > v[*n - 1].size ? v[i].size
                                                  : v[*n - 1].size;
    else
      v[(*n)++] = v[i];
  return v;
}

/* NAME (and, if not NULL, SHOWN) qualified with MOD's name, kept in M.  */
static char *
qualify (Modules *m, const Module *mod, const char *name)
{
  size_t nl = strlen (name), ml = strlen (mod->name);
  char *q = gp_malloc (nl + ml + 4);

  memcpy (q, name, nl);
  q[nl] = ' ';
  q[nl + 1] = '[';
  memcpy (q + nl + 2, mod->name, ml);
  strcpy (q + nl + 2 + ml, "]");
  gp_grow (&m->names, &m->names_cap, m->nnames + 1, sizeof *m->names);
  m->names[m->nnames++] = q;
  return q;
}

/* Append a symbol at ADDR to TAB (room made by the caller).  */
static Sym *
append (SymTab *tab, vma_t addr, const char *name, bool is_static)
{
  Sym *s = &tab->base[tab->len++];

  memset (s, 0, sizeof *s);
  s->addr = addr;
  s->name = name;
  s->is_func = true;
  s->is_static = is_static;
  s->is_bb_head = true;
  return s;
}

/* Code of module I past the end of a function (by its ELF size) and
   before the next symbol: in a library stripped to its dynamic
   symbols, the functions it does not export.  Each such stretch gets a
   symbol of its own, "0xADDR [module]", rather than being charged to
   the exported function before it.  The module's symbols are
   TAB[FIRST..]; *LAST and *TOP follow the highest one.  */
static void
add_gaps (Run *run, size_t i, size_t first, const char *path, bool dynamic,
          size_t *last, vma_t *top)
{
  Modules *m = run->modules;
  Module *mod = &m->mod[i];
  SymTab *tab = &run->symtab;
  size_t nsizes, nsyms = tab->len - first;
  FuncSize *sizes = function_sizes (path, dynamic, &nsizes);
  vma_t *start;

  if (!sizes || nsyms == 0)
    {
      free (sizes);
      return;
    }
  /* At most a gap after each size, and the bucket after them.  */
  tab->base = gp_reallocarray (tab->base, tab->len + nsizes + 1,
                               sizeof *tab->base);
  /* The starts of the module's functions, sorted: a gap ends at the
     next one.  */
  start = gp_reallocarray (NULL, nsyms, sizeof *start);
  for (size_t k = 0; k < nsyms; k++)
    start[k] = tab->base[first + k].addr - mod->offset;
  qsort (start, nsyms, sizeof *start, cmp_vma);
  for (size_t k = 0, j = 0; k < nsizes; k++)
    {
      vma_t end = sizes[k].addr + sizes[k].size, next;
      char hex[24];
      const Sym *s;

      while (j < nsyms && start[j] <= sizes[k].addr)
        j++;
      next = j < nsyms ? start[j] : mod->hi;
      if (end >= next || end < mod->lo || end >= mod->hi
          || sizes[k].addr < mod->lo)
        continue;
      snprintf (hex, sizeof hex, "0x%" PRIx64, (uint64_t) end);
      s = append (tab, mod->offset + end, qualify (m, mod, hex), true);
      if (end >= *top)
        {
          *top = end;
          *last = (size_t) (s - tab->base);
        }
    }
  free (start);
  free (sizes);
}

/* The symbols of module I from the best of its candidates, added to
   RUN's table; when none has its build-id, its bucket alone, and a
   warning that says whether a file of another build was found.  */
static void
add_module_symbols (Run *run, size_t i)
{
  Modules *m = run->modules;
  Module *mod = &m->mod[i];
  SymTab *tab = &run->symtab;
  size_t ncand, first = tab->len;
  char **cand = candidates (&run->opt, mod, &ncand);
  bfd *best = NULL;
  asymbol **syms = NULL;
  long nsyms = 0;
  bool changed = false, lo_taken = false, dynamic = false;
  const char *best_path = NULL;
  vma_t top = mod->lo;
  size_t last = SIZE_MAX;     /* the highest symbol's index in TAB */

  /* The first file of the module's build with a full symbol table; else
     the first of its build, with the dynamic symbols alone (what system
     libraries keep).  */
  for (size_t k = 0; k < ncand && !syms; k++)
    {
      bfd *abfd = open_object (cand[k]);

      if (!abfd)
        continue;
      if (!same_build_id (abfd, mod))
        {
          changed |= k == 0;
          bfd_close (abfd);
          continue;
        }
      syms = object_symbols (abfd, false, &nsyms);
      if (syms && count_functions (syms, nsyms, mod) > 0)
        {
          if (best)
            bfd_close (best);
          best = abfd;
          best_path = cand[k];
          break;
        }
      free (syms);
      syms = NULL;
      if (!best)
        {
          best = abfd;
          best_path = cand[k];
        }
      else
        bfd_close (abfd);
    }
  if (best && !syms)
    {
      syms = object_symbols (best, true, &nsyms);
      dynamic = true;
    }
  if (!best && mod->path[0] != '[')
    {
      if (changed)
        gp_warn (_("%s: %s: not the file the profile was taken with (its"
                   " build-id differs): its samples are shown as [%s]\n"),
                 whoami, mod->path, mod->name);
      else
        gp_warn (_("%s: %s: no such module (try --module-dir): its samples"
                   " are shown as [%s]\n"),
                 whoami, mod->path, mod->name);
    }

  tab->base = gp_reallocarray (tab->base, tab->len + (size_t) nsyms + 2,
                               sizeof *tab->base);
  for (long k = 0; k < nsyms; k++)
    {
      asymbol *a = syms[k];
      vma_t addr;
      Sym *s;

      if (!is_module_function (a, mod))
        continue;
      addr = a->value + bfd_section_vma (a->section);
      s = append (tab, mod->offset + addr, qualify (m, mod, a->name),
                  (a->flags & BSF_LOCAL) != 0);
      if (run->names.demangle)
        {
          char *d = names_demangle (&run->names, a->name);

          if (d)
            {
              s->shown_name = qualify (m, mod, d);
              free (d);
            }
        }
      lo_taken |= addr == mod->lo;
      if (addr >= top)
        {
          top = addr;
          last = (size_t) (s - tab->base);
        }
    }
  if (best_path)
    add_gaps (run, i, first, best_path, dynamic, &last, &top);
  /* The module's own bucket holds its samples before its first symbol,
     or all of them when its symbols are not known.  */
  if (!lo_taken)
    {
      char *bucket = gp_malloc (strlen (mod->name) + 3);
      Sym *s;

      sprintf (bucket, "[%s]", mod->name);
      gp_grow (&m->names, &m->names_cap, m->nnames + 1, sizeof *m->names);
      m->names[m->nnames++] = bucket;
      s = append (tab, mod->offset + mod->lo, bucket, false);
      if (last == SIZE_MAX)
        last = (size_t) (s - tab->base);
    }
  /* The last symbol ends with the code (a return address may be its
     end): the next module's first one does not start the gap.  */
  if (tab->len > first)
    tab->base[last].end_addr = mod->offset + mod->hi;
  free (syms);
  if (best)
    bfd_close (best);
  for (size_t k = 0; k < ncand; k++)
    free (cand[k]);
  free (cand);
}

/* The highest address module 0 has: its symbols, its recorded code.  */
static vma_t
program_top (const Run *run)
{
  const SymTab *tab = &run->symtab;
  vma_t top = run->modules->mod[0].hi;

  for (size_t i = 0; i < tab->len; i++)
    {
      if (tab->ranges[i].addr > top)
        top = tab->ranges[i].addr;
      if (tab->ranges[i].end > top)
        top = tab->ranges[i].end;
    }
  return top;
}

void
modules_load (Run *run)
{
  Modules *m = run->modules = modules_read (run->opt.profiles[0]);
  vma_t cursor;

  if (!m)
    {
      gp_warn (_("%s: no %s%s beside %s: the report covers the program"
                 " alone\n"), whoami, run->opt.profiles[0],
               GMON_MODULES_SUFFIX, run->opt.profiles[0]);
      return;
    }
  /* Module 0 is the executable read already: say if it is another
     build than the one that ran.  */
  if (run->core->abfd && !same_build_id (run->core->abfd, &m->mod[0]))
    gp_warn (_("%s: %s: not the file the profile was taken with (its"
               " build-id differs)\n"), whoami, run->core->filename);
  cursor = program_top (run);
  if (cursor >= ADDR_LIMIT)
    gp_die (_("%s: %s: the program's addresses leave no room for its"
              " modules\n"), whoami, run->core->filename);
  for (size_t i = 1; i < m->n; i++)
    {
      Module *mod = &m->mod[i];
      vma_t start = (cursor / MODULE_ALIGN + 2) * MODULE_ALIGN;

      mod->offset = start - mod->lo;
      cursor = start + (mod->hi - mod->lo);
      if (cursor >= LAYOUT_LIMIT)
        gp_die (_("%s: %s: the modules' code does not fit one address"
                  " space (file corrupted?)\n"), whoami, m->filename);
      add_module_symbols (run, i);
    }
  symtab_finalize (&run->symtab, cursor, NULL);
}

/* ---- counts --------------------------------------------------------------- */

void
modules_tally (Run *run)
{
  Modules *m = run->modules;
  ArcRecord *batch;
  size_t n = 0;

  if (!m)
    return;
  batch = cg_tally_buffer (&run->cg);
  for (size_t i = 0; i < m->narcs; i++)
    {
      const ModuleArc *a = &m->arcs[i];
      uint64_t left = a->count;

      /* A count wider than the arcs' is added in parts.  */
      do
        {
          unsigned long part = left > ULONG_MAX ? ULONG_MAX
                                                : (unsigned long) left;

          batch[n++] = (ArcRecord) { modules_addr (m, a->from),
                                     modules_addr (m, a->self), part };
          left -= part;
          if (n == ARC_BATCH)
            {
              cg_tally_batch (run, n);
              n = 0;
            }
        }
      while (left > 0);
    }
  if (n > 0)
    cg_tally_batch (run, n);
  if (m->narcs > 0)
    run->gmon_input |= INPUT_CALL_GRAPH;

  /* The layout was made before the profile was read: its histogram
     must lie below the first module.  */
  for (size_t i = 0; m->n > 1 && i < run->hist.n; i++)
    if (run->hist.rec[i].highpc > m->mod[1].offset + m->mod[1].lo)
      gp_die (_("%s: %s: the histogram reaches past the program's code\n"),
              whoami, run->opt.profiles[0]);
  if (m->nbins == 0)
    return;
  if (!(run->gmon_input & INPUT_HISTOGRAM))
    {
      gp_warn (_("%s: %s: the profile has no histogram: the other modules'"
                 " samples are not used\n"), whoami, m->filename);
      return;
    }
  run->hist.module_bins
    = gp_reallocarray (NULL, m->nbins, sizeof *run->hist.module_bins);
  for (size_t i = 0; i < m->nbins; i++)
    run->hist.module_bins[i] = (HistBin) { modules_addr (m, m->bins[i].pc),
                                           m->bins[i].count };
  run->hist.nmodule_bins = m->nbins;
}
