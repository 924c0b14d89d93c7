/* names.c - printing symbol names.  */

#include "config.h"
#include "names.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libiberty/demangle.h>
#include "i18n.h"
#include "util.h"

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
  return nf->print_path ? file->name : gp_basename (file->name);
}

int
print_name_only (const NameFmt *nf, const Sym *sym)
{
  char *demangled = NULL;
  const char *name = sym->name;
  int size;

  if (!name)
    return 0;
  if (nf->demangle)
    {
      demangled = names_demangle (nf, name);
      if (demangled)
        name = demangled;
    }
  size = printf ("%s", name);
  if ((nf->line_granularity || nf->inline_file_names) && sym->file)
    {
      const char *file = names_file (nf, sym->file);

      if (nf->line_granularity)
        size += printf (" (%s:%d @ %lx)", file, sym->line_num,
                        (unsigned long) sym->addr);
      else
        size += printf (" (%s:%d)", file, sym->line_num);
    }
  free (demangled);
  return size;
}

void
print_name (const NameFmt *nf, const Sym *sym)
{
  print_name_only (nf, sym);
  if (sym->cyc_num != 0)
    printf (_(" <cycle %d>"), sym->cyc_num);
  if (sym->index != 0)
    printf (sym->print_flag ? " [%d]" : " (%d)", sym->index);
}
