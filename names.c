/* names.c - printing symbol names.  */

#include "config.h"
#include "names.h"

#include <stdio.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <libiberty/demangle.h>
#include "i18n.h"
#include "support/out.h"
#include "support/alloc.h"

/* Demangled names by the address of the raw name: symbols share name
   strings (all the lines of a function do), and a report prints each
   name many times.  */
typedef struct DemangleCache
{
  const char **key;
  char **value;           /* NULL when the name is not mangled */
  size_t cap, n;
} DemangleCache;

void
names_init (NameFmt *nf, const Options *opt, char leading_char)
{
  memset (nf, 0, sizeof *nf);
  nf->demangle = opt->demangle && !opt->bsd_style;
  nf->demangle_style = opt->demangle_style;
  nf->line_granularity = opt->line_granularity;
  nf->inline_file_names = opt->inline_file_names;
  nf->print_path = opt->print_path;
  nf->leading_char = leading_char;
  /* Translated once, not for every name printed.  */
  nf->cycle_fmt = _(" <cycle %d>");
  nf->cycle_fmt_is_default = strcmp (nf->cycle_fmt, " <cycle %d>") == 0;
  nf->cache = gp_calloc (1, sizeof *nf->cache);
}

/* As binutils demangles a symbol: the target's leading character, then
   any leading '.' or '$' and a version suffix from '@' on are set aside
   and put back around the demangled name.  */
char *
names_demangle (const NameFmt *nf, const char *name)
{
  const char *pre, *suffix;
  size_t pre_len;
  char *core, *res, *out;
  int options = DMGL_ANSI | DMGL_PARAMS;

  if (nf->demangle_style < 0)
    return NULL;  /* --demangle=none */
  options |= nf->demangle_style ? nf->demangle_style : DMGL_AUTO;
  if (nf->leading_char && name[0] == nf->leading_char)
    name++;
  pre = name;
  while (*name == '.' || *name == '$')
    name++;
  pre_len = (size_t) (name - pre);
  suffix = strchr (name, '@');
  core = suffix ? strndup (name, (size_t) (suffix - name)) : NULL;
  res = cplus_demangle (core ? core : name, options);
  free (core);
  if (!res)
    return NULL;
  if (pre_len == 0 && !suffix)
    return res;
  out = gp_malloc (pre_len + strlen (res) + (suffix ? strlen (suffix) : 0) + 1);
  memcpy (out, pre, pre_len);
  strcpy (out + pre_len, res);
  if (suffix)
    strcat (out, suffix);
  free (res);
  return out;
}

const char *
names_file (const NameFmt *nf, const SourceFile *file)
{
  return nf->print_path ? file->name : path_basename (file->name);
}

static size_t
ptr_hash (const void *p)
{
  uint64_t k = (uint64_t) (uintptr_t) p;

  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdULL;
  return (size_t) (k ^ (k >> 33));
}

static void
cache_grow (DemangleCache *c)
{
  size_t cap = c->cap ? c->cap * 2 : 1024;
  const char **key = gp_calloc (cap, sizeof *key);
  char **value = gp_calloc (cap, sizeof *value);

  for (size_t i = 0; i < c->cap; i++)
    if (c->key[i])
      {
        size_t h = ptr_hash (c->key[i]) & (cap - 1);

        while (key[h])
          h = (h + 1) & (cap - 1);
        key[h] = c->key[i];
        value[h] = c->value[i];
      }
  free (c->key);
  free (c->value);
  c->key = key;
  c->value = value;
  c->cap = cap;
}

/* Could the demanglers of the default styles change NAME?  They only
   take names starting "_Z", "_R" or "_GLOBAL_" (after the prefixes
   names_demangle sets aside), so most C names need no cache entry.  */
static bool
maybe_mangled (const NameFmt *nf, const char *name)
{
  if (nf->demangle_style != 0 && nf->demangle_style != DMGL_GNU_V3
      && nf->demangle_style != DMGL_RUST)
    return true;
  if (nf->leading_char && name[0] == nf->leading_char)
    name++;
  while (*name == '.' || *name == '$')
    name++;
  return name[0] == '_'
         && (name[1] == 'Z' || name[1] == 'R' || strncmp (name, "_GLOBAL_", 8) == 0);
}

/* The call graph is printed by several threads (par_print).  */
static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;

static const char *
shown_name (const NameFmt *nf, const char *name)
{
  DemangleCache *c = nf->cache;
  const char *shown;
  size_t h;

  if (!maybe_mangled (nf, name))
    return name;
  pthread_mutex_lock (&cache_lock);
  if (c->n + 1 > c->cap / 2)
    cache_grow (c);
  for (h = ptr_hash (name) & (c->cap - 1); c->key[h]; h = (h + 1) & (c->cap - 1))
    if (c->key[h] == name)
      break;
  if (!c->key[h])
    {
      c->key[h] = name;
      c->value[h] = names_demangle (nf, name);
      c->n++;
    }
  shown = c->value[h] ? c->value[h] : name;
  pthread_mutex_unlock (&cache_lock);
  return shown;
}

int
print_name_only (const NameFmt *nf, const Sym *sym)
{
  const char *name = sym->name;
  int size;

  if (!name)
    return 0;
  if (nf->demangle)
    {
      /* Remembered in the symbol: a cache, not a change of the symbol.
         Threads that both compute it store the same value.  */
      const char *shown = __atomic_load_n (&sym->shown_name, __ATOMIC_RELAXED);

      if (!shown)
        {
          shown = shown_name (nf, name);
          __atomic_store_n (&((Sym *) sym)->shown_name, shown, __ATOMIC_RELAXED);
        }
      name = shown;
    }
  size = (int) strlen (name);
  out_write (name, (size_t) size);
  if ((nf->line_granularity || nf->inline_file_names) && sym->file)
    {
      const char *file = names_file (nf, sym->file);

      /* " (%s:%d @ %lx)" with -l, " (%s:%d)" without: printed for every
         line symbol, so without printf.  */
      size_t flen = strlen (file);

      out_write (" (", 2);
      out_write (file, flen);
      out_char (':');
      size += 4 + (int) flen + out_int (sym->line_num);
      if (nf->line_granularity)
        {
          out_write (" @ ", 3);
          size += 3 + out_hex ((unsigned long) sym->addr);
        }
      out_char (')');
    }
  return size;
}

void
print_name (const NameFmt *nf, const Sym *sym)
{
  char tags[64 + OUT_FIELD_SLACK], *p = tags;

  print_name_only (nf, sym);
  if (sym->cyc_num != 0 && !nf->cycle_fmt_is_default)
    out_printf (nf->cycle_fmt, sym->cyc_num);
  else if (sym->cyc_num != 0)
    {
      /* " <cycle %d>" */
      memcpy (p, " <cycle ", 8);
      p = out_fmt_ulong (p + 8, (unsigned long) sym->cyc_num, 0, false);
      *p++ = '>';
    }
  if (sym->index != 0)
    {
      /* " [%d]" or " (%d)" */
      *p++ = ' ';
      *p++ = sym->print_flag ? '[' : '(';
      p = out_fmt_ulong (p, (unsigned long) sym->index, 0, false);
      *p++ = sym->print_flag ? ']' : ')';
    }
  out_write (tags, (size_t) (p - tags));
}
