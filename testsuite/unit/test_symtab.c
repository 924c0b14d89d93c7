/* test_symtab.c - symtab_finalize (sorting, GNU's duplicate preferences,
   end addresses, REMAP), symtab_lookup, and the source-file list.  */

#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "symtab.h"
#include "unit.h"

enum { GLOBAL = 0, STATIC = 1, NOFUNC = 0, FUNC = 1 };

static const vma_t TEXT_LAST = 0x1fff;

/* Symbol names of TAB, space separated, for comparisons and messages.  */
static const char *
names (const SymTab *tab)
{
  static char buf[1024];
  size_t len = 0;

  buf[0] = '\0';
  for (size_t i = 0; i < tab->len && len < sizeof buf - 64; i++)
    len += (size_t) snprintf (buf + len, sizeof buf - len, "%s%s",
                              i ? " " : "", tab->base[i].name);
  return buf;
}

static bool
names_are (const SymTab *tab, const char *want)
{
  if (strcmp (names (tab), want) == 0)
    return true;
  printf ("# want: %s\n#  got: %s\n", want, names (tab));
  return false;
}

/* Two or more symbols at one address: which one survives.  Each case is
   the symbols in .symtab order at 0x100, then one at 0x200.  */
typedef struct DupCase
{
  const char *what;
  struct { const char *name; bool is_func, is_static; } sym[3];
  const char *survivor;
} DupCase;

static const DupCase dup_cases[] = {
  { "global beats static", { { "st", FUNC, STATIC }, { "gl", FUNC, GLOBAL } },
    "gl" },
  { "global NOTYPE beats static function",
    { { "st", FUNC, STATIC }, { "gl", NOFUNC, GLOBAL } }, "gl" },
  { "function beats non-function",
    { { "label", NOFUNC, GLOBAL }, { "fn", FUNC, GLOBAL } }, "fn" },
  { "static function beats static label",
    { { "label", NOFUNC, STATIC }, { "fn", FUNC, STATIC } }, "fn" },
  { "foo beats _foo (later)", { { "_foo", FUNC, GLOBAL }, { "foo", FUNC, GLOBAL } },
    "foo" },
  { "foo beats _foo (earlier)",
    { { "foo", FUNC, GLOBAL }, { "_foo", FUNC, GLOBAL } }, "foo" },
  { "_bar beats __bar", { { "__bar", FUNC, GLOBAL }, { "_bar", FUNC, GLOBAL } },
    "_bar" },
  { "_bar beats __bar (earlier)",
    { { "_bar", FUNC, GLOBAL }, { "__bar", FUNC, GLOBAL } }, "_bar" },
  { "x beats _x and __x", { { "__x", FUNC, GLOBAL }, { "_x", FUNC, GLOBAL },
                            { "x", FUNC, GLOBAL } }, "x" },
  { "otherwise the first is kept",
    { { "zz2", FUNC, GLOBAL }, { "aa1", FUNC, GLOBAL } }, "zz2" },
  { "underscore rule only between equals",
    { { "_f", FUNC, GLOBAL }, { "g", NOFUNC, GLOBAL } }, "_f" },
  { "underscore rule does not beat globals",
    { { "_g", NOFUNC, GLOBAL }, { "s", NOFUNC, STATIC } }, "_g" },
  { "_edata beats __bss_start and _end",
    { { "__bss_start", NOFUNC, GLOBAL }, { "_edata", NOFUNC, GLOBAL },
      { "_end", NOFUNC, GLOBAL } }, "_edata" },
};

static void
test_duplicates (void)
{
  for (size_t c = 0; c < sizeof dup_cases / sizeof dup_cases[0]; c++)
    {
      const DupCase *d = &dup_cases[c];
      SymTab tab = { 0 };
      size_t cap = 0;
      char want[64];

      for (int i = 0; i < 3 && d->sym[i].name; i++)
        add_sym (&tab, &cap, d->sym[i].name, 0x100, d->sym[i].is_func,
                 d->sym[i].is_static);
      add_sym (&tab, &cap, "next", 0x200, FUNC, GLOBAL);
      symtab_finalize (&tab, TEXT_LAST, NULL);
      snprintf (want, sizeof want, "%s next", d->survivor);
      check (names_are (&tab, want) && tab.base[0].end_addr == 0x1ff,
             "duplicates: %s", d->what);
      symtab_free (&tab);
    }
}

static void
test_sort_and_ends (Rng *rng)
{
  enum { N = 500 };
  SymTab tab = { 0 };
  size_t cap = 0;
  static char namebuf[N][16];
  bool sorted = true, ends = true;

  /* Distinct addresses in random order.  */
  for (int i = 0; i < N; i++)
    {
      snprintf (namebuf[i], sizeof namebuf[i], "f%d", i);
      add_sym (&tab, &cap, namebuf[i], 0x1000 + 16 * (vma_t) i, FUNC, GLOBAL);
    }
  for (size_t i = N - 1; i > 0; i--)
    {
      size_t j = rng_below (rng, i + 1);
      Sym t = tab.base[i];

      tab.base[i] = tab.base[j];
      tab.base[j] = t;
    }
  symtab_finalize (&tab, 0x1000 + 16 * N + 5, NULL);
  for (size_t i = 0; i < tab.len; i++)
    {
      if (tab.base[i].addr != 0x1000 + 16 * i)
        sorted = false;
      if (tab.base[i].end_addr
          != (i + 1 < tab.len ? tab.base[i + 1].addr - 1 : 0x1000 + 16 * N + 5))
        ends = false;
    }
  check (tab.len == N && sorted, "sorted by address");
  check (ends, "end = next start - 1, the last one's text_last");
  symtab_free (&tab);
}

/* The order in which symbols are given breaks ties only after address,
   function flag and staticness.  */
static void
test_tie_order (void)
{
  SymTab tab = { 0 };
  size_t cap = 0;

  add_sym (&tab, &cap, "b", 0x20, FUNC, GLOBAL);
  add_sym (&tab, &cap, "a", 0x10, FUNC, GLOBAL);
  add_sym (&tab, &cap, "c", 0x30, FUNC, GLOBAL);
  symtab_finalize (&tab, 0x3f, NULL);
  check (names_are (&tab, "a b c") && tab.base[2].end_addr == 0x3f,
         "three symbols sorted, last ends at text_last");
  symtab_free (&tab);
  cap = 0;

  /* A symbol beyond .text gets text_last as its end all the same, even
     though that is below its start (data_start).  */
  add_sym (&tab, &cap, "main", 0x10, FUNC, GLOBAL);
  add_sym (&tab, &cap, "data_start", 0x5000, FUNC, GLOBAL);
  symtab_finalize (&tab, 0x3f, NULL);
  check (tab.len == 2 && tab.base[1].end_addr == 0x3f,
         "the last symbol ends at text_last even beyond it");
  symtab_free (&tab);
}

/* Entries that come with an end address (as symspec ranges do) keep it;
   one whose end lies below its start is dropped.  */
static void
test_preset_ends_and_remap (void)
{
  SymTab tab = { 0 };
  size_t cap = 0;
  long remap[7];
  static const long want[7] = { 2, -1, 0, 1, -1, -1, 3 };
  bool ok = true;

  add_sym (&tab, &cap, "c", 0x300, FUNC, GLOBAL)->end_addr = 0x3ff; /* 0 */
  add_sym (&tab, &cap, "_a", 0x100, FUNC, GLOBAL)->end_addr = 0x1ff; /* 1 */
  add_sym (&tab, &cap, "a", 0x100, FUNC, GLOBAL)->end_addr = 0x17f; /* 2 */
  add_sym (&tab, &cap, "b", 0x200, FUNC, GLOBAL)->end_addr = 0x20f; /* 3 */
  add_sym (&tab, &cap, "bad", 0x280, FUNC, GLOBAL)->end_addr = 0x27f; /* 4 */
  add_sym (&tab, &cap, "__b", 0x200, FUNC, GLOBAL);                  /* 5 */
  add_sym (&tab, &cap, "d", 0x500, FUNC, GLOBAL);                    /* 6 */
  symtab_finalize (&tab, 0x7ff, remap);

  check (names_are (&tab, "a b c d"), "preset ends: duplicates and an "
         "empty range dropped");
  check (tab.base[0].end_addr == 0x17f && tab.base[1].end_addr == 0x20f
         && tab.base[2].end_addr == 0x3ff && tab.base[3].end_addr == 0x7ff,
         "preset ends kept, only the missing one filled in");
  for (int i = 0; i < 7; i++)
    if (remap[i] != want[i])
      {
        printf ("# remap[%d] = %ld, want %ld\n", i, remap[i], want[i]);
        ok = false;
      }
  check (ok, "remap: new positions, -1 for the replaced and the dropped");
  symtab_free (&tab);
}

/* GNU's choice among the symbols at one address, written from the
   spec's rules: the best under (global, function) wins; among equals a
   name without '_' beats one with, "_x" beats "__x", else the first.  */
static int
ref_survivor (const Sym *const *at, int n)
{
  int best = -1;

  for (int i = 0; i < n; i++)
    {
      const Sym *s = at[i], *b = best >= 0 ? at[best] : NULL;

      if (!b || (!s->is_static && b->is_static)
          || (s->is_static == b->is_static && s->is_func && !b->is_func))
        best = i;
      else if (s->is_static == b->is_static && s->is_func == b->is_func
               && ((s->name[0] != '_' && b->name[0] == '_')
                   || (s->name[0] == '_' && b->name[0] == '_'
                       && s->name[1] != '_' && b->name[1] == '_')))
        best = i;
    }
  return best;
}

static void
test_remap_random (Rng *rng)
{
  enum { N = 300, NADDR = 100 };
  static const char *const pool[] = { "x", "_x", "__x", "y", "_y" };
  bool ok = true;

  for (int rep = 0; rep < 20; rep++)
    {
      SymTab tab = { 0 };
      size_t cap = 0;
      long remap[N];
      Sym orig[N];
      const Sym *at[NADDR][N];
      int nat[NADDR] = { 0 };
      int hits[N] = { 0 };

      for (int i = 0; i < N; i++)
        orig[i] = *add_sym (&tab, &cap, pool[rng_below (rng, 5)],
                            0x10 * rng_below (rng, NADDR), rng_below (rng, 2),
                            rng_below (rng, 2));
      /* The candidates at each address, functions and globals first as
         the address sort puts them, else in .symtab order.  */
      for (int pass = 0; pass < 4; pass++)
        for (int i = 0; i < N; i++)
          if ((orig[i].is_func ? 0 : 2) + (orig[i].is_static ? 1 : 0) == pass)
            {
              int a = (int) (orig[i].addr / 0x10);

              at[a][nat[a]++] = &orig[i];
            }
      symtab_finalize (&tab, 0x10 * NADDR, remap);

      for (int i = 0; i < N; i++)
        {
          int a = (int) (orig[i].addr / 0x10);
          bool wins = at[a][ref_survivor (at[a], nat[a])] == &orig[i];

          if (wins != (remap[i] >= 0))
            ok = false;
          else if (wins)
            {
              const Sym *s = &tab.base[remap[i]];

              ok &= s->addr == orig[i].addr && s->name == orig[i].name
                    && s->is_func == orig[i].is_func
                    && s->is_static == orig[i].is_static;
              hits[remap[i]]++;
            }
        }
      for (size_t k = 0; k < tab.len; k++)
        ok &= hits[k] == 1;
      symtab_free (&tab);
    }
  check (ok, "random duplicates: the survivors GNU's rules choose, and "
         "remap points at them");
}

/* sym_addr_cmp's order (address, functions first, globals first), ties in
   table order: what symtab_finalize's sort makes.  */
static int
cmp_addr_order (const void *a, const void *b)
{
  const Sym *l = a, *r = b;

  if (l->addr != r->addr)
    return l->addr < r->addr ? -1 : 1;
  if (l->is_func != r->is_func)
    return l->is_func ? -1 : 1;
  if (l->is_static != r->is_static)
    return l->is_static ? 1 : -1;
  return l->line_num < r->line_num ? -1 : l->line_num > r->line_num;
}

/* A table already in order is compacted where it lies: the same symbols,
   ends and remap as when the same symbols arrive in table order and are
   sorted, with the zeroed slot for the pseudo-symbol after the last.
   The addresses span a few bytes, 2^44 or, high in the address space,
   2^56: one pass of the address sort, or several.  */
static void
test_in_place (Rng *rng)
{
  enum { N = 400, NADDR = 150 };
  static const char *const pool[] = { "x", "_x", "__x", "y", "_y" };
  bool ok = true;

  for (int rep = 0; rep < 30; rep++)
    {
      SymTab table = { 0 }, sorted = { 0 };
      size_t cap = 0;
      long remap_table[N], remap_sorted[N];
      int who[N];
      vma_t base = rep % 3 == 2 ? (vma_t) 1 << 63 : 0;
      vma_t scale = rep % 3 == 0 ? 0x10 : (vma_t) 1 << (rep % 3 == 1 ? 36 : 48);
      vma_t text_last = base + scale * NADDR + 0x40;

      for (int i = 0; i < N; i++)
        {
          Sym *s = add_sym (&table, &cap, pool[rng_below (rng, 5)],
                            base + scale * rng_below (rng, NADDR),
                            rng_below (rng, 2), rng_below (rng, 2));

          /* Some preset ends, a few of them empty ranges.  */
          if (rng_below (rng, 4) == 0)
            s->end_addr = s->addr + rng_below (rng, 0x20) - 4;
          s->line_num = i;      /* who it is, and the tie-break */
        }
      sorted.base = malloc (N * sizeof *sorted.base);
      memcpy (sorted.base, table.base, N * sizeof *sorted.base);
      sorted.len = N;
      qsort (sorted.base, N, sizeof *sorted.base, cmp_addr_order);
      for (int p = 0; p < N; p++)
        who[p] = sorted.base[p].line_num;
      symtab_finalize (&table, text_last, remap_table);
      symtab_finalize (&sorted, text_last, remap_sorted);

      ok &= sorted.len == table.len;
      for (size_t k = 0; ok && k < sorted.len; k++)
        ok &= sorted.base[k].name == table.base[k].name
              && sorted.base[k].addr == table.base[k].addr
              && sorted.base[k].end_addr == table.base[k].end_addr
              && sorted.base[k].line_num == table.base[k].line_num;
      ok &= ok && sorted.base[sorted.len].name == NULL
            && sorted.base[sorted.len].addr == 0
            && sorted.base[sorted.len].end_addr == 0;
      /* The symbol at position P of the sorted input was symbol WHO[P]
         of the table: both remaps send it to the same place, and a
         survivor's place holds it.  */
      for (int p = 0; ok && p < N; p++)
        ok &= remap_sorted[p] == remap_table[who[p]]
              && (remap_sorted[p] < 0
                  || sorted.base[remap_sorted[p]].line_num == who[p]);
      symtab_free (&table);
      symtab_free (&sorted);
    }
  check (ok, "a table in order, finalized in place, equals the sorted one");
}

/* ---- lookup ------------------------------------------------------------- */

static const Sym *
linear_lookup (const SymTab *tab, vma_t addr)
{
  const Sym *best = NULL;

  for (size_t i = 0; i < tab->len; i++)
    if (tab->base[i].addr <= addr)
      best = &tab->base[i];
  return best && addr <= best->end_addr ? best : NULL;
}

static void
test_lookup_fixed (void)
{
  SymTab tab = { 0 };
  size_t cap = 0;

  check (symtab_lookup (&tab, 0x100) == NULL, "lookup in an empty table");
  add_sym (&tab, &cap, "a", 0x100, FUNC, GLOBAL)->end_addr = 0x10f;
  add_sym (&tab, &cap, "b", 0x200, FUNC, GLOBAL);
  symtab_finalize (&tab, 0x2ff, NULL);
  check (symtab_lookup (&tab, 0xff) == NULL, "below the first symbol");
  check (symtab_lookup (&tab, 0) == NULL, "address 0");
  check (symtab_lookup (&tab, 0x100) == &tab.base[0]
         && symtab_lookup (&tab, 0x10f) == &tab.base[0],
         "first and last address of a symbol");
  check (symtab_lookup (&tab, 0x110) == NULL
         && symtab_lookup (&tab, 0x1ff) == NULL, "a gap between symbols");
  check (symtab_lookup (&tab, 0x200) == &tab.base[1]
         && symtab_lookup (&tab, 0x2ff) == &tab.base[1],
         "the last symbol up to text_last");
  check (symtab_lookup (&tab, 0x300) == NULL
         && symtab_lookup (&tab, UINT64_MAX) == NULL, "beyond the end");
  symtab_free (&tab);
}

static void
test_lookup_random (Rng *rng)
{
  int bad = 0;

  for (int rep = 0; rep < 50; rep++)
    {
      SymTab tab = { 0 };
      size_t cap = 0, n = 1 + rng_below (rng, 60);
      vma_t a = rng_below (rng, 64);

      for (size_t i = 0; i < n; i++)
        {
          Sym *s = add_sym (&tab, &cap, "s", a, FUNC, GLOBAL);

          /* About half with a shorter range, leaving a gap.  */
          if (rng_below (rng, 2))
            s->end_addr = a + rng_below (rng, 2);
          /* Mostly even spacing; some runs packed tight and some far
             gaps, so that buckets hold one symbol or many.  */
          if (rng_below (rng, 4) == 0)
            a += 1 + rng_below (rng, 2);
          else if (rng_below (rng, 8) == 0)
            a += 200 + rng_below (rng, 300);
          else
            a += 9 + rng_below (rng, 8);
        }
      symtab_finalize (&tab, a + 3, NULL);
      for (vma_t x = 0; x < a + 10; x++)
        bad += symtab_lookup (&tab, x) != linear_lookup (&tab, x);
      symtab_free (&tab);
    }
  check (bad == 0, "lookup agrees with a linear scan on random tables "
         "with gaps (%d mismatches)", bad);
}

/* ---- source files ------------------------------------------------------- */

static void
test_srcfiles (void)
{
  SourceFiles files = { 0 };
  SourceFile *a = srcfile_lookup_path (&files, "/src/a.c");
  SourceFile *b = srcfile_lookup_path (&files, "/src/sub/b.c");
  SourceFile *a2 = srcfile_lookup_path (&files, "/other/a.c");
  SourceFile *c = srcfile_lookup_path (&files, "c.c");
  bool interned = true, order = true;

  check (srcfile_lookup_path (&files, "/src/a.c") == a
         && srcfile_lookup_path (&files, "c.c") == c && files.count == 4,
         "the same path gives the same file");
  check (files.first == c && c->next == a2 && a2->next == b && b->next == a
         && a->next == NULL, "list order: newest first");
  check (srcfile_lookup_name (&files, "a.c") == a2,
         "by name: the first in list order among equal basenames");
  check (srcfile_lookup_name (&files, "b.c") == b
         && srcfile_lookup_name (&files, "c.c") == c,
         "by name: basename of a path, or a name without directory");
  check (srcfile_lookup_name (&files, "sub/b.c") == NULL
         && srcfile_lookup_name (&files, "/src/a.c") == NULL
         && srcfile_lookup_name (&files, "d.c") == NULL
         && srcfile_lookup_name (&files, "") == NULL,
         "by name: only the last component matches");

  /* Enough files to make the table grow several times.  */
  {
    enum { N = 2000 };
    static SourceFile *made[N];
    char path[32];

    for (int i = 0; i < N; i++)
      {
        snprintf (path, sizeof path, "/d%d/f%d.c", i % 7, i);
        made[i] = srcfile_lookup_path (&files, path);
      }
    for (int i = 0; i < N; i++)
      {
        snprintf (path, sizeof path, "/d%d/f%d.c", i % 7, i);
        interned &= srcfile_lookup_path (&files, path) == made[i];
        interned &= strcmp (made[i]->name, path) == 0;
      }
    for (int i = N - 1; i > 0; i--)
      order &= made[i]->next == made[i - 1];
    check (interned && files.count == N + 4,
           "%d files interned across table growth", N);
    check (order && files.first == made[N - 1] && made[0]->next == c,
           "list order kept across table growth");
  }
  srcfiles_free (&files);
}

static int
sign (int v)
{
  return (v > 0) - (v < 0);
}

/* listed_name_cmp orders as strcmp, through the 8-byte prefixes: short
   names, shared prefixes, bytes above 0x7f, names 8 bytes long.  */
static void
test_listed_name_order (Rng *rng)
{
  static const char *fixed[] = {
    "", "a", "ab", "ab\x01", "abcdefgh", "abcdefghi", "abcdefgh\x80",
    "abcdefg", "\xff", "\x80" "a", "_start", "main", "main.cold",
  };
  enum { NFIXED = sizeof fixed / sizeof fixed[0], NRANDOM = 400 };
  char pool[NRANDOM][12];
  const char *name[NFIXED + NRANDOM];
  size_t bad = 0;

  for (size_t i = 0; i < NFIXED; i++)
    name[i] = fixed[i];
  /* Few letters and lengths around 8, so that prefixes often tie.  */
  for (size_t i = 0; i < NRANDOM; i++)
    {
      size_t len = 6 + rng_below (rng, 5);

      for (size_t k = 0; k < len; k++)
        pool[i][k] = "ab\x7f\x80"[rng_below (rng, 4)];
      pool[i][len] = '\0';
      name[NFIXED + i] = pool[i];
    }
  for (size_t i = 0; i < NFIXED + NRANDOM; i++)
    for (size_t j = 0; j < NFIXED + NRANDOM; j++)
      {
        ListedKey l = { .prefix = sym_name_prefix (name[i]), .name = name[i] };
        ListedKey r = { .prefix = sym_name_prefix (name[j]), .name = name[j] };

        bad += sign (listed_name_cmp (&l, &r)) != sign (strcmp (name[i], name[j]));
      }
  check (bad == 0, "listed_name_cmp agrees with strcmp (%zu pairs differ)", bad);
}

/* symtab_listed_keys lists what symtab_listed lists, in the same order,
   with the symbols' values; listed_to_syms gives the symbols back.  */
static void
test_listed_keys (Rng *rng)
{
  SymTab tab = { 0 };
  size_t cap = 0;

  for (int i = 0; i < 300; i++)
    {
      Sym *s = add_sym (&tab, &cap, i % 3 ? "f" : "g", (vma_t) (0x100 + 16 * i),
                        FUNC, GLOBAL);

      s->ncalls = rng_below (rng, 3);
      s->hist_time = (double) rng_below (rng, 3);
    }
  for (int zeros = 0; zeros < 2; zeros++)
    {
      size_t n, nkeys;
      Sym **want = symtab_listed (&tab, zeros, &n);
      ListedKey *key = symtab_listed_keys (&tab, zeros, &nkeys);
      ListedKey **keys = listed_pointers (key, nkeys);
      bool same = n == nkeys;
      Sym **got;

      for (size_t i = 0; same && i < n; i++)
        same = keys[i]->sym == want[i] && keys[i]->time == want[i]->hist_time
               && keys[i]->ncalls == want[i]->ncalls
               && keys[i]->name == want[i]->name;
      got = listed_to_syms (keys, nkeys);
      for (size_t i = 0; same && i < n; i++)
        same = got[i] == want[i];
      check (same, "symtab_listed_keys matches symtab_listed (ignore_zeros %d, %zu listed)",
             zeros, n);
      free (want);
      free (got);
      free (key);
    }
  free (tab.base);
}

/* symtab_own_names: the same names in memory of the table's, shared
   where neighbours shared one, shown names that were the name moved
   along, others kept.  */
static void
test_own_names (void)
{
  SymTab tab = { 0 };
  size_t cap = 0;
  char *src = malloc (9);
  const char *f, *g, *demangled = "f()";
  bool moved = true;

  if (!src)
    exit (99);
  memcpy (src, "main\0f\0g", 9);
  f = src + 5;
  g = src + 7;

  add_sym (&tab, &cap, src, 0x100, FUNC, GLOBAL);
  add_sym (&tab, &cap, f, 0x110, FUNC, GLOBAL)->shown_name = f;
  add_sym (&tab, &cap, f, 0x118, FUNC, GLOBAL);
  add_sym (&tab, &cap, NULL, 0x120, FUNC, GLOBAL);
  add_sym (&tab, &cap, f, 0x128, FUNC, GLOBAL)->shown_name = demangled;
  add_sym (&tab, &cap, g, 0x130, FUNC, STATIC);
  symtab_own_names (&tab);
  memset (src, 'x', 9);
  free (src);
  for (size_t i = 0; i < tab.len; i++)
    if (tab.base[i].name)
      moved &= tab.base[i].name >= tab.name_store
               && tab.base[i].name < tab.name_store + 9;
  check (moved, "every name is in the table's own block");
  check (names_are (&tab, "main f f (null) f g"), "the names are the same");
  check (tab.base[1].name == tab.base[2].name
         && tab.base[2].name == tab.base[4].name,
         "neighbours sharing a name share it, across a nameless symbol");
  check (tab.base[1].shown_name == tab.base[1].name
         && tab.base[4].shown_name == demangled
         && tab.base[2].shown_name == NULL,
         "a shown name that was the name moves with it, others stay");
  symtab_free (&tab);
}

int
main (void)
{
  Rng rng;

  rng_seed (&rng, unit_seed ());
  test_duplicates ();
  test_sort_and_ends (&rng);
  test_tie_order ();
  test_preset_ends_and_remap ();
  test_remap_random (&rng);
  test_in_place (&rng);
  test_lookup_fixed ();
  test_lookup_random (&rng);
  test_srcfiles ();
  test_listed_name_order (&rng);
  test_listed_keys (&rng);
  test_own_names ();
  return check_done ();
}
