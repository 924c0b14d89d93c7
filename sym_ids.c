/* sym_ids.c - parsing symspecs and building their tables.  */

#include "config.h"
#include "sym_ids.h"

#include <stdlib.h>
#include <string.h>
#include "support/alloc.h"

/* A parsed symspec side: what a symbol must have to match.  */
typedef struct Pattern
{
  const SourceFile *file;
  bool file_missing;      /* a file was named but is not in the program */
  int line_num;
  const char *name;
} Pattern;

/* One side of one spec while the tables are built.  */
typedef struct Side
{
  Pattern pat;
  size_t prev;            /* symtab index of the last match + 1, 0 if none */
  size_t *entries;        /* table entries this side created */
  size_t nentries, cap;
} Side;

typedef struct SpecId
{
  SymTable table;
  char *text;
  Side left, right;
  bool has_right;
} SpecId;

struct SpecArc
{
  const Sym *to;          /* a range of the right-side table */
  SpecArc *next;
};

/* Names GNU gprof leaves out of every report: the profiling runtime.  */
static const char *const default_excluded[] = {
  "_gprof_mcount", "mcount", "_mcount", "__mcount", "__mcount_internal",
  "__mcleanup", NULL
};

static bool
is_digit (char c)
{
  return c >= '0' && c <= '9';
}

static void
parse_side (char *spec, Pattern *pat, const SourceFiles *files)
{
  char *colon = strrchr (spec, ':');
  const char *file = NULL;

  memset (pat, 0, sizeof *pat);
  if (colon)
    {
      *colon = '\0';
      if (spec[0])
        file = spec;
      spec = colon + 1;
      if (is_digit (spec[0]))
        pat->line_num = atoi (spec);
      else if (spec[0])
        pat->name = spec;
    }
  else if (strchr (spec, '.'))
    file = spec;
  else if (is_digit (spec[0]))
    pat->line_num = atoi (spec);
  else if (spec[0])
    pat->name = spec;

  if (file)
    {
      pat->file = srcfile_lookup_name (files, file);
      pat->file_missing = pat->file == NULL;
    }
}

static bool
name_only (const Pattern *pat)
{
  return pat->name && !pat->file && !pat->file_missing && !pat->line_num;
}

static size_t
hash_name (const char *s)
{
  size_t h = 5381;

  while (*s)
    h = h * 33 + (unsigned char) *s++;
  return h;
}

/* The names of the name-only patterns, to rule most symbols out of them
   with one lookup instead of a comparison per pattern.  */
typedef struct NameSet
{
  const char **slot;
  size_t mask;
} NameSet;

static void
nameset_build (NameSet *ns, const SpecId *list, size_t nids)
{
  size_t cap = 16;

  while (cap < 4 * nids)
    cap *= 2;
  ns->slot = gp_calloc (cap, sizeof *ns->slot);
  ns->mask = cap - 1;
  for (size_t k = 0; k < nids; k++)
    for (int side = 0; side < 2; side++)
      {
        const Pattern *pat = side ? &list[k].right.pat : &list[k].left.pat;
        size_t h;

        if (!name_only (pat))
          continue;
        for (h = hash_name (pat->name) & ns->mask; ns->slot[h]; h = (h + 1) & ns->mask)
          if (strcmp (ns->slot[h], pat->name) == 0)
            break;
        ns->slot[h] = pat->name;
      }
}

static bool
nameset_has (const NameSet *ns, const char *name)
{
  for (size_t h = hash_name (name) & ns->mask; ns->slot[h]; h = (h + 1) & ns->mask)
    if (strcmp (ns->slot[h], name) == 0)
      return true;
  return false;
}

static const char *
strip_leading (const char *name, char leading_char)
{
  return name[0] && name[0] == leading_char ? name + 1 : name;
}

static bool
pattern_match (const Pattern *pat, const Sym *sym, char leading_char)
{
  const char *name;

  if (pat->file_missing || (pat->file && pat->file != sym->file))
    return false;
  if (pat->line_num && pat->line_num != sym->line_num)
    return false;
  if (pat->name)
    {
      name = strip_leading (sym->name, leading_char);
      if (strcmp (pat->name, name) != 0)
        return false;
    }
  return true;
}

/* Record that symbol I (of SYMTAB) matched SIDE: a new range in TAB when
   the run of matches is broken, else SIDE's last range grows.  */
static void
extend_match (Side *side, const SymTab *symtab, size_t i, SymTab *tab,
              size_t *cap)
{
  if (side->prev == 0 || side->prev != i)  /* prev: index + 1 of the last match */
    {
      gp_grow (&tab->base, cap, tab->len + 1, sizeof *tab->base);
      tab->base[tab->len] = symtab->base[i];
      gp_grow (&side->entries, &side->cap, side->nentries + 1,
               sizeof *side->entries);
      side->entries[side->nentries++] = tab->len;
      tab->len++;
    }
  tab->base[side->entries[side->nentries - 1]].end_addr
    = symtab->base[i].end_addr;
  side->prev = i + 1;
}

/* The list GNU builds: each spec is put in front, so the last option
   comes first, and the default exclusions (added last) before all.  */
static SpecId *
collect_ids (const Options *opt, size_t *nids)
{
  size_t ndefault = 0, n, k = 0;
  SpecId *ids;

  while (default_excluded[ndefault])
    ndefault++;
  n = opt->nspecs + 3 * ndefault;
  ids = gp_calloc (n, sizeof *ids);
  for (size_t i = ndefault; i-- > 0;)
    {
      static const SymTable order[3] = { EXCL_FLAT, EXCL_GRAPH, EXCL_TIME };

      for (int t = 0; t < 3; t++)
        {
          ids[k].table = order[t];
          ids[k++].text = gp_strdup (default_excluded[i]);
        }
    }
  for (size_t i = opt->nspecs; i-- > 0;)
    {
      ids[k].table = opt->specs[i].table;
      ids[k++].text = gp_strdup (opt->specs[i].spec);
    }
  *nids = n;
  return ids;
}

/* Like GNU's arc_add on its spec tables: nothing new if an arc of LEFT
   already covers TO's range.  */
static void
add_spec_arc (SpecArc **arcs, size_t left, const Sym *to)
{
  SpecArc *a;

  for (a = arcs[left]; a; a = a->next)
    if (to->addr >= a->to->addr && to->end_addr <= a->to->end_addr)
      return;
  a = gp_malloc (sizeof *a);
  a->to = to;
  a->next = arcs[left];
  arcs[left] = a;
}

void
sym_ids_build (SymSpecs *ids, const Options *opt, const SymTab *symtab,
               const SourceFiles *files, vma_t text_last, char leading_char)
{
  size_t nids, cap[NUM_SYM_TABLES] = { 0 }, right_cap = 0;
  SpecId *list = collect_ids (opt, &nids);
  SpecArc **pending[NUM_SYM_TABLES] = { 0 };
  NameSet names;
  const char *last_name = NULL;
  bool named = false, not_by_name = false;  /* some spec is not a name */

  memset (ids, 0, sizeof *ids);
  for (size_t k = 0; k < nids; k++)
    {
      char *slash = strchr (list[k].text, '/');

      if (slash)
        {
          *slash = '\0';
          parse_side (slash + 1, &list[k].right.pat, files);
          list[k].has_right = true;
        }
      parse_side (list[k].text, &list[k].left.pat, files);
      if (!name_only (&list[k].left.pat)
          || (list[k].has_right && !name_only (&list[k].right.pat)))
        not_by_name = true;
    }

  nameset_build (&names, list, nids);
  for (size_t i = 0; i < symtab->len; i++)
    {
      const Sym *sym = &symtab->base[i];

      /* Neighbouring symbols (the lines of one function) share names.  */
      if (sym->name != last_name)
        {
          last_name = sym->name;
          named = nameset_has (&names, strip_leading (sym->name, leading_char));
        }
      /* Most symbols are named by no spec (the default ones are names).  */
      if (!named && !not_by_name)
        continue;
      for (size_t k = 0; k < nids; k++)
        {
          SpecId *id = &list[k];

          if ((named || !name_only (&id->left.pat))
              && pattern_match (&id->left.pat, sym, leading_char))
            extend_match (&id->left, symtab, i, &ids->table[id->table],
                          &cap[id->table]);
          if (id->has_right && (named || !name_only (&id->right.pat))
              && pattern_match (&id->right.pat, sym, leading_char))
            extend_match (&id->right, symtab, i, &ids->right, &right_cap);
        }
    }
  free (names.slot);

  /* Arcs from every left range of a spec to every right range, most
     recent ranges first, as GNU walks its lists.  */
  for (int t = 0; t < NUM_SYM_TABLES; t++)
    pending[t] = gp_calloc (ids->table[t].len, sizeof *pending[t]);
  for (size_t k = 0; k < nids; k++)
    {
      SpecId *id = &list[k];

      if (!id->has_right)
        continue;
      for (size_t l = id->left.nentries; l-- > 0;)
        for (size_t r = id->right.nentries; r-- > 0;)
          add_spec_arc (pending[id->table], id->left.entries[l],
                        &ids->right.base[id->right.entries[r]]);
    }

  /* Sorting merges ranges that start at the same address; a merged-away
     range loses its arcs, as in GNU gprof.  */
  for (int t = 0; t < NUM_SYM_TABLES; t++)
    {
      SymTab *tab = &ids->table[t];
      size_t n = tab->len;
      long *remap = gp_calloc (n, sizeof *remap);

      symtab_finalize (tab, text_last, remap);
      ids->arcs[t] = gp_calloc (tab->len, sizeof *ids->arcs[t]);
      for (size_t i = 0; i < n; i++)
        {
          if (remap[i] >= 0)
            ids->arcs[t][remap[i]] = pending[t][i];
          else
            for (SpecArc *a = pending[t][i], *next; a; a = next)
              {
                next = a->next;
                free (a);
              }
        }
      free (remap);
      free (pending[t]);
    }

  for (size_t k = 0; k < nids; k++)
    {
      free (list[k].text);
      free (list[k].left.entries);
      free (list[k].right.entries);
    }
  free (list);
}

void
sym_ids_free (SymSpecs *ids)
{
  for (int t = 0; t < NUM_SYM_TABLES; t++)
    {
      for (size_t i = 0; i < ids->table[t].len; i++)
        for (SpecArc *a = ids->arcs[t][i], *next; a; a = next)
          {
            next = a->next;
            free (a);
          }
      free (ids->arcs[t]);
      symtab_free (&ids->table[t]);
    }
  symtab_free (&ids->right);
}

bool
sym_ids_in (const SymSpecs *ids, SymTable t, vma_t addr)
{
  /* Most runs give no symspecs: no lookup per symbol then.  */
  return ids->table[t].len != 0 && symtab_lookup (&ids->table[t], addr) != NULL;
}

bool
sym_ids_pass (const SymSpecs *ids, SymTable incl, vma_t addr)
{
  SymTable excl = (SymTable) (incl + 1);

  return sym_ids_in (ids, incl, addr)
         || (ids->table[incl].len == 0 && !sym_ids_in (ids, excl, addr));
}

bool
sym_ids_arc_present (const SymSpecs *ids, SymTable t, const Sym *from,
                     const Sym *to)
{
  const SymTab *tab = &ids->table[t];

  for (size_t i = 0; i < tab->len; i++)
    {
      const Sym *e = &tab->base[i];

      if (from->addr < e->addr || from->addr > e->end_addr)
        continue;
      for (const SpecArc *a = ids->arcs[t][i]; a; a = a->next)
        if (to->addr >= a->to->addr && to->end_addr <= a->to->end_addr)
          return true;
    }
  return false;
}
