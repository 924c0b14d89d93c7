/* symtab.h - the symbol table: one array of Sym sorted by address.

   A Sym is one function (or, with -l, one source line).  Lookup by
   address is a binary search.  Source files are interned so that a Sym
   points at its file and equal files are the same object.  */

#ifndef GPROF_SYMTAB_H
#define GPROF_SYMTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "support/prefetch.h"

typedef uint64_t vma_t;

/* GNU gprof keeps the counts of at most this many basic blocks per
   symbol; further blocks are dropped, as there.  */
#define NBBS 10

typedef struct SourceFile SourceFile;
typedef struct Sym Sym;

struct SourceFile
{
  char *name;             /* the path as the debugging information names it */
  SourceFile *next;       /* list order: most recently created first */
  SourceFile *hash_next;
  /* Annotated source (-A): the highest line number of its symbols, and
     the symbol of each line that has one, sorted by line (a sparse table:
     line numbers come from the debugging information, up to 2^31 - 1).  */
  int num_lines;
  unsigned long ncalls;
  Sym **line;
  size_t nline;
};

typedef struct SourceFiles
{
  SourceFile *first;
  SourceFile **hash;
  size_t nbuckets, count;
} SourceFiles;

typedef struct BBCounts
{
  vma_t addr[NBBS];
  unsigned long calls[NBBS];
} BBCounts;

struct Sym
{
  vma_t addr, end_addr;
  const char *name;       /* NULL for a cycle header */
  const char *shown_name; /* name as printed (demangled), once computed */
  SourceFile *file;
  int line_num;
  bool is_func, is_static, is_bb_head, mapped;

  double hist_time;       /* samples credited to this symbol */
  unsigned long ncalls;
  BBCounts *bb;           /* -l basic-block counts, or NULL */

  /* Call graph (cg_arcs.c, cg_dfn.c).  */
  unsigned long self_calls;
  double child_time;
  double prop_fract, prop_self, prop_child;
  int index;              /* position in the call graph, from 1 */
  int top_order;          /* 0 unvisited, -1 busy, > 0 numbered */
  bool print_flag;
  bool has_been_placed;   /* -r/-R orderings */
  int cyc_num;            /* cycle number, 0 if in none */
  Sym *cyc_head;          /* cycle header (or self) */
  Sym *cyc_next;          /* next member of the cycle */
  /* Arcs: slices of the call graph's arc arrays.  */
  uint32_t first_child, nchildren;
  uint32_t first_parent, nparents;
};

/* A symbol's address range, kept apart from the symbol for searching.  */
typedef struct SymRange
{
  vma_t addr, end;
} SymRange;

/* base has room for one more Sym after the len real ones: the call
   graph's "<indirect child>" pseudo-symbol (see cg_indirect_child).  */
typedef struct SymTab
{
  Sym *base;
  size_t len;
  /* The ranges of base[i], packed: a lookup touches these alone, which
     matters when a big profile looks up millions of addresses.  */
  SymRange *ranges;
  /* A coarse index into ranges: bucket[b] is the first symbol whose
     (addr - ranges[0].addr) >> shift is at least b.  */
  uint32_t *bucket;
  size_t nbuckets;
  unsigned shift;
  char *name_store;       /* the names, once BFD's copy is gone */
} SymTab;

/* strcmp of two symbols' names; many symbols share one name string.  */
static inline int
sym_name_cmp (const Sym *a, const Sym *b)
{
  return a->name == b->name ? 0 : strcmp (a->name, b->name);
}

/* The table's order: address first; at equal addresses functions
   before lines and globals before statics.  */
int sym_addr_cmp (const Sym *l, const Sym *r);

/* Of two symbols at one address, whether SRC should replace KEPT (the
   one before it in that order): GNU's preferences, see
   symtab_finalize.  */
bool sym_prefer (const Sym *src, const Sym *kept);

/* The symbols of TAB (a malloc'ed array of *N), less those without
   calls or time if IGNORE_ZEROS: what the flat profile and the index
   may list.  */
Sym **symtab_listed (const SymTab *tab, bool ignore_zeros, size_t *n);

/* The first 8 bytes of NAME (zeros past its end) as a number that
   orders as strcmp does.  */
uint64_t sym_name_prefix (const char *name);

/* What the reports' sorts compare of a listed symbol, gathered once: the
   comparisons then read one array instead of two symbols' cache lines
   (and the names' first bytes) each.  */
typedef struct ListedKey
{
  double time;            /* hist_time */
  unsigned long ncalls;
  uint64_t prefix;        /* sym_name_prefix (name) */
  const char *name;
  Sym *sym;
} ListedKey;

/* strcmp of names A and B, given their sym_name_prefix PA and PB.  */
static inline int
prefixed_name_cmp (uint64_t pa, const char *a, uint64_t pb, const char *b)
{
  if (a == b)
    return 0;
  if (pa != pb)
    return pa < pb ? -1 : 1;
  return strcmp (a, b);
}

/* strcmp of the keys' names.  */
static inline int
listed_name_cmp (const ListedKey *a, const ListedKey *b)
{
  return prefixed_name_cmp (a->prefix, a->name, b->prefix, b->name);
}

/* symtab_listed as keys (a malloc'ed array of *N), one for each symbol,
   in table order.  */
ListedKey *symtab_listed_keys (const SymTab *tab, bool ignore_zeros, size_t *n);
/* Pointers to the N keys at KEY, to sort (malloc'ed); listed_to_syms
   turns them into the symbols', in the order they have then.  */
ListedKey **listed_pointers (ListedKey *key, size_t n);
Sym **listed_to_syms (ListedKey **v, size_t n);

/* Sort TAB by address and drop duplicate addresses with GNU's
   preferences (global over static, function over line, no leading
   underscore over one); give each symbol without an end address the
   start of the next one minus one, and the last one TEXT_LAST.  If REMAP
   is not NULL it receives, for each entry's old position, its new
   position or -1 if it was dropped.  */
void symtab_finalize (SymTab *tab, vma_t text_last, long *remap);

/* The symbol whose [addr, end_addr] holds ADDR, or NULL.  */
Sym *symtab_lookup (const SymTab *tab, vma_t addr);

/* Ask for the memory a later symtab_lookup (TAB, ADDR) reads first (its
   bucket), so that the lookups of a batch of addresses overlap.  */
GP_PREFETCHER
symtab_prefetch (const SymTab *tab, vma_t addr)
{
  if (tab->bucket && addr >= tab->ranges[0].addr)
    {
      vma_t k = (addr - tab->ranges[0].addr) >> tab->shift;

      if (k < tab->nbuckets)
        gp_prefetch (&tab->bucket[k]);
    }
}

/* Symbols taken in an order unrelated to the table's (by time, by
   name) are loaded this many ahead: at a million symbols each one is a
   miss to memory.  */
enum { SYM_LOAD_AHEAD = 16 };

/* Ask for all of S's cache lines.  */
GP_PREFETCHER
sym_prefetch (const Sym *s)
{
  for (size_t at = 0; at < sizeof *s; at += 64)
    gp_prefetch ((const char *) s + at);
  gp_prefetch ((const char *) (s + 1) - 1);
}

/* Copy the names into one block of the table's own (name_store), for
   when the memory they are in goes away; symbols next to each other
   that shared a name string still do.  */
void symtab_own_names (SymTab *symtab);

void symtab_free (SymTab *tab);

/* Intern PATH; creates the entry on first use.  */
SourceFile *srcfile_lookup_path (SourceFiles *files, const char *path);
/* The first file (in list order) whose last path component is NAME.  */
SourceFile *srcfile_lookup_name (const SourceFiles *files, const char *name);

/* The last component of the path NAME (the whole name if it has no
   '/'): a source file's name as -y and the reports show it.  */
const char *path_basename (const char *name);

#endif
