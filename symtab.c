/* symtab.c - sorting, de-duplication and lookup of symbols; source files.  */

#include "config.h"
#include "symtab.h"

#include <stdlib.h>
#include <string.h>
#include "support/error.h"
#include "support/alloc.h"

/* At equal addresses the preferred symbol comes first where it can, for
   de-duplication.  */
int
sym_addr_cmp (const Sym *l, const Sym *r)
{
  if (l->addr != r->addr)
    return l->addr < r->addr ? -1 : 1;
  if (l->is_func != r->is_func)
    return l->is_func ? -1 : 1;
  if (l->is_static != r->is_static)
    return l->is_static ? 1 : -1;
  return 0;
}

/* COUNT[0 .. N-1], the counts of a counting sort's digits, become where
   each digit's run starts.  */
static void
counts_to_starts (size_t *count, size_t n)
{
  size_t sum = 0;

  for (size_t d = 0; d < n; d++)
    {
      size_t c = count[d];

      count[d] = sum;
      sum += c;
    }
}

/* Sort the N symbols of BASE into sym_addr_cmp's order, stable (equal ones
   in table order), where they lie; returns, for each place, the
   position its symbol had (malloc'ed).  A comparison sort costs a cache
   miss or two per comparison on a big table, and sorting into a new
   table as many fresh pages as the table: this is an LSD radix sort of
   (offset, position) pairs, first on the two flags that break ties of
   address, then on the address bits that differ, 11 at a time; the
   symbols then move along the cycles of the permutation.  */
static size_t *
sort_by_address (Sym *base, size_t n)
{
  typedef struct Item { vma_t key; size_t idx; } Item;
  enum { DIGIT = 11, RADIX = 1 << DIGIT };
  Item *a = gp_reallocarray (NULL, n, sizeof *a);
  Item *b = gp_reallocarray (NULL, n, sizeof *b);
  size_t *count = gp_reallocarray (NULL, RADIX, sizeof *count);
  size_t *from;
  bool *placed;
  vma_t lo = base[0].addr, hi = base[0].addr, span;
  unsigned bits = 0;

  for (size_t i = 1; i < n; i++)
    {
      lo = base[i].addr < lo ? base[i].addr : lo;
      hi = base[i].addr > hi ? base[i].addr : hi;
    }
  for (span = hi - lo; span; span >>= 1)
    bits++;
  /* The flags first: functions before lines, then globals before
     statics (sym_addr_cmp at equal addresses).  */
  memset (count, 0, 4 * sizeof *count);
  for (size_t i = 0; i < n; i++)
    count[!base[i].is_func * 2 + base[i].is_static]++;
  counts_to_starts (count, 4);
  for (size_t i = 0; i < n; i++)
    a[count[!base[i].is_func * 2 + base[i].is_static]++]
      = (Item) { base[i].addr - lo, i };
  for (unsigned shift = 0; shift < bits; shift += DIGIT)
    {
      Item *t;

      memset (count, 0, RADIX * sizeof *count);
      for (size_t i = 0; i < n; i++)
        count[(a[i].key >> shift) & (RADIX - 1)]++;
      counts_to_starts (count, RADIX);
      for (size_t i = 0; i < n; i++)
        b[count[(a[i].key >> shift) & (RADIX - 1)]++] = a[i];
      t = a;
      a = b;
      b = t;
    }
  free (count);
  free (b);
  from = gp_reallocarray (NULL, n, sizeof *from);
  for (size_t i = 0; i < n; i++)
    from[i] = a[i].idx;
  free (a);
  /* Place K takes the symbol at FROM[K]: each cycle of the permutation
     is followed once, holding its first symbol aside.  */
  placed = gp_calloc (n, sizeof *placed);
  for (size_t k = 0; k < n; k++)
    {
      Sym first;
      size_t j = k;

      if (placed[k])
        continue;
      first = base[k];
      while (from[j] != k)
        {
          base[j] = base[from[j]];
          placed[j] = true;
          j = from[j];
        }
      base[j] = first;
      placed[j] = true;
    }
  free (placed);
  return from;
}

Sym **
symtab_listed (const SymTab *tab, bool ignore_zeros, size_t *n)
{
  Sym **v = gp_reallocarray (NULL, tab->len ? tab->len : 1, sizeof *v);

  *n = 0;
  for (size_t i = 0; i < tab->len; i++)
    {
      Sym *s = &tab->base[i];

      if (!ignore_zeros || s->ncalls != 0 || s->hist_time != 0)
        v[(*n)++] = s;
    }
  return v;
}

uint64_t
sym_name_prefix (const char *name)
{
  uint64_t v = 0;

  for (int i = 0; i < 8; i++)
    {
      v = v << 8 | (unsigned char) *name;
      if (*name)
        name++;
    }
  return v;
}

ListedKey *
symtab_listed_keys (const SymTab *tab, bool ignore_zeros, size_t *n)
{
  ListedKey *key = gp_reallocarray (NULL, tab->len ? tab->len : 1, sizeof *key);

  *n = 0;
  for (size_t i = 0; i < tab->len; i++)
    {
      Sym *s = &tab->base[i];

      if (ignore_zeros && s->ncalls == 0 && s->hist_time == 0)
        continue;
      key[(*n)++] = (ListedKey) { s->hist_time, s->ncalls,
                                  sym_name_prefix (s->name), s->name, s };
    }
  return key;
}

ListedKey **
listed_pointers (ListedKey *key, size_t n)
{
  ListedKey **v = gp_reallocarray (NULL, n ? n : 1, sizeof *v);

  for (size_t i = 0; i < n; i++)
    v[i] = &key[i];
  return v;
}

Sym **
listed_to_syms (ListedKey **v, size_t n)
{
  Sym **out = (Sym **) v;

  /* out[i] overwrites only v[i], already read.  */
  for (size_t i = 0; i < n; i++)
    out[i] = v[i]->sym;
  return out;
}

bool
sym_prefer (const Sym *src, const Sym *kept)
{
  const char *s = src->name, *k = kept->name;

  if (!src->is_static && kept->is_static)
    return true;
  if (src->is_static != kept->is_static)
    return false;
  if (src->is_func != kept->is_func)
    return src->is_func;
  if (s[0] != '_' && k[0] == '_')
    return true;
  return s[0] == '_' && k[0] == '_' && s[1] != '_' && k[1] == '_';
}

/* Two to four buckets a symbol, each a power of two of address units
   wide, so a lookup narrows to a candidate or two in one step.  With
   one a symbol, functions of uneven sizes left a fifth of dag-20k's
   lookups more than four candidates, and a binary search's mispredicted
   branches.  */
static void
build_buckets (SymTab *tab)
{
  vma_t span;
  size_t want = 4 * (tab->len + 1), b = 0;
  unsigned shift = 0;

  free (tab->bucket);
  tab->bucket = NULL;
  tab->nbuckets = 0;
  /* Every symbol may have been dropped for an empty range.  */
  if (tab->len == 0 || tab->len > UINT32_MAX)
    return;
  span = tab->ranges[tab->len - 1].addr - tab->ranges[0].addr;
  /* span + 1 would wrap for a table from 0 to the top address.  */
  while (shift < 63 && (span >> shift) >= want)
    shift++;
  tab->shift = shift;
  tab->nbuckets = (size_t) (span >> shift) + 1;
  tab->bucket = gp_reallocarray (NULL, tab->nbuckets + 1, sizeof *tab->bucket);
  for (size_t i = 0; i < tab->len; i++)
    {
      size_t k = (size_t) ((tab->ranges[i].addr - tab->ranges[0].addr) >> shift);

      while (b <= k)
        tab->bucket[b++] = (uint32_t) i;
    }
  while (b <= tab->nbuckets)
    tab->bucket[b++] = (uint32_t) tab->len;
}

void
symtab_finalize (SymTab *tab, vma_t text_last, long *remap)
{
  Sym *out = tab->base;
  size_t i, n = tab->len, nout = 0;
  size_t *from = NULL;      /* where the symbol at each place was, if moved */
  size_t *owner = NULL;     /* old position of the entry in each new slot */
  vma_t prev_addr;

  if (n == 0)
    return;
  /* Sorted where it lies (input in order already needs no sort: the -l
     line symbols), then compacted where it lies: symbol I moves to a
     place at or before I, after what was there has been read.  */
  for (i = 1; i < n && sym_addr_cmp (&out[i - 1], &out[i]) <= 0; i++)
    ;
  if (i < n)
    from = sort_by_address (out, n);
  if (remap)
    {
      owner = gp_reallocarray (NULL, n, sizeof *owner);
      for (i = 0; i < n; i++)
        remap[i] = -1;
    }
  prev_addr = out[0].addr - 1;
  for (i = 0; i < n; i++)
    {
      Sym *src = &out[i];
      size_t old = from ? from[i] : i;

      if (src->addr == prev_addr)
        {
          Sym *kept = &out[nout - 1];

          if (sym_prefer (src, kept))
            {
              if (remap)
                {
                  /* The replaced entry is gone, and with it anything
                     attached to its old position.  */
                  remap[owner[nout - 1]] = -1;
                  remap[old] = (long) (nout - 1);
                  owner[nout - 1] = old;
                }
              *kept = *src;
            }
          continue;
        }
      if (nout > 0 && out[nout - 1].end_addr == 0)
        out[nout - 1].end_addr = src->addr - 1;
      /* Keep only symbols with a non-empty range.  */
      if (src->end_addr == 0 || src->addr <= src->end_addr)
        {
          if (remap)
            {
              remap[old] = (long) nout;
              owner[nout] = old;
            }
          /* Until the first drop each symbol stays where it is.  */
          if (&out[nout] != src)
            out[nout] = *src;
          nout++;
          prev_addr = src->addr;
        }
    }
  if (nout > 0 && out[nout - 1].end_addr == 0)
    out[nout - 1].end_addr = text_last;

  free (owner);
  free (from);
  /* Room for the pseudo-symbol after the last, zeroed.  */
  out = gp_reallocarray (out, nout + 1, sizeof *out);
  memset (&out[nout], 0, sizeof *out);
  tab->base = out;
  tab->len = nout;
  /* Lookups search the ranges alone: one cache line holds four of them,
     where a Sym would take several.  */
  free (tab->ranges);
  tab->ranges = gp_reallocarray (NULL, nout ? nout : 1, sizeof *tab->ranges);
  for (i = 0; i < nout; i++)
    {
      tab->ranges[i].addr = out[i].addr;
      tab->ranges[i].end = out[i].end_addr;
      /* Sorted, one symbol an address: what symtab_lookup's search
         relies on.  A range may reach past the next start (a function
         over its lines, with -l): the later start wins there.  */
      gp_assert (i == 0 || tab->ranges[i - 1].addr < out[i].addr);
    }
  build_buckets (tab);
}

Sym *
symtab_lookup (const SymTab *tab, vma_t addr)
{
  size_t lo = 0, hi = tab->len;

  if (!tab->ranges || addr < tab->ranges[0].addr)
    return NULL;  /* empty, or below the first symbol */
  if (tab->bucket)
    {
      vma_t k = (addr - tab->ranges[0].addr) >> tab->shift;

      if (k < tab->nbuckets)
        {
          /* The answer is the last symbol before the next bucket's
             first, and at or after this bucket's first minus one.  */
          lo = tab->bucket[k] ? tab->bucket[k] - 1 : 0;
          hi = tab->bucket[k + 1];
        }
    }
  /* Find the last symbol starting at or below ADDR: a bucket holds one
     or two, where a scan beats a search's mispredicted branches.  */
  if (hi - lo <= 4)
    while (hi > lo && tab->ranges[hi - 1].addr > addr)
      hi--;
  else
    while (lo < hi)
      {
        size_t mid = lo + (hi - lo) / 2;

        if (tab->ranges[mid].addr <= addr)
          lo = mid + 1;
        else
          hi = mid;
      }
  /* Either way HI is now one past the answer.  */
  if (hi == 0 || addr > tab->ranges[hi - 1].end)
    return NULL;
  return &tab->base[hi - 1];
}

void
symtab_own_names (SymTab *symtab)
{
  Sym *base = symtab->base;
  size_t total = 0;
  const char *last = NULL, *last_copy = NULL;
  char *at;

  for (size_t i = 0; i < symtab->len; i++)
    if (base[i].name && base[i].name != last)
      {
        last = base[i].name;
        total += strlen (last) + 1;
      }
  at = symtab->name_store = gp_malloc (total ? total : 1);
  last = NULL;
  for (size_t i = 0; i < symtab->len; i++)
    {
      const char *old = base[i].name;

      if (!old)
        continue;
      if (old != last)
        {
          size_t n = strlen (old) + 1;

          memcpy (at, old, n);
          last_copy = at;
          at += n;
        }
      base[i].name = last_copy;
      last = old;
      /* A shown name that is the name itself moves with it.  */
      if (base[i].shown_name == old)
        base[i].shown_name = base[i].name;
    }
}

void
symtab_free (SymTab *tab)
{
  free (tab->base);
  free (tab->ranges);
  free (tab->bucket);
  free (tab->name_store);
  tab->base = NULL;
  tab->ranges = NULL;
  tab->bucket = NULL;
  tab->name_store = NULL;
  tab->len = 0;
}

static size_t
hash_str (const char *s)
{
  size_t h = 5381;

  while (*s)
    h = h * 33 + (unsigned char) *s++;
  return h;
}

static void
srcfile_rehash (SourceFiles *files)
{
  size_t nb = files->nbuckets ? files->nbuckets * 2 : 64;
  SourceFile **hash = gp_calloc (nb, sizeof *hash);

  for (SourceFile *sf = files->first; sf; sf = sf->next)
    {
      size_t b = hash_str (sf->name) & (nb - 1);

      sf->hash_next = hash[b];
      hash[b] = sf;
    }
  free (files->hash);
  files->hash = hash;
  files->nbuckets = nb;
}

SourceFile *
srcfile_lookup_path (SourceFiles *files, const char *path)
{
  SourceFile *sf;
  size_t b;

  if (files->count >= files->nbuckets)
    srcfile_rehash (files);
  b = hash_str (path) & (files->nbuckets - 1);
  for (sf = files->hash[b]; sf; sf = sf->hash_next)
    if (strcmp (sf->name, path) == 0)
      return sf;
  sf = gp_calloc (1, sizeof *sf);
  sf->name = gp_strdup (path);
  sf->next = files->first;
  files->first = sf;
  sf->hash_next = files->hash[b];
  files->hash[b] = sf;
  files->count++;
  return sf;
}

SourceFile *
srcfile_lookup_name (const SourceFiles *files, const char *name)
{
  for (SourceFile *sf = files->first; sf; sf = sf->next)
    if (strcmp (name, path_basename (sf->name)) == 0)
      return sf;
  return NULL;
}

const char *
path_basename (const char *name)
{
  const char *slash = strrchr (name, '/');

  return slash ? slash + 1 : name;
}
