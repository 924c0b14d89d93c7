/* source.c - finding source files and copying them with annotations.  */

#include "config.h"
#include "source.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "gprof.h"
#include "i18n.h"
#include "support/out.h"
#include "support/outfile.h"
#include "support/error.h"
#include "support/alloc.h"

static char *
join (const char *dir, const char *name)
{
  char *p = gp_malloc (strlen (dir) + strlen (name) + 2);

  sprintf (p, "%s/%s", dir, name);
  return p;
}

/* Open SF's source: its name as it is; then, for a relative name, each
   search directory joined with it; then, if the name has a directory
   part, each search directory joined with its last part.  */
static FILE *
open_source (const Run *run, const SourceFile *sf)
{
  const Options *opt = &run->opt;
  const char *base = strrchr (sf->name, '/');
  FILE *f = fopen (sf->name, "rb");

  if (f)
    return f;
  if (sf->name[0] != '/')
    for (size_t i = 0; i < opt->nsearch_dirs; i++)
      {
        char *path = join (opt->search_dirs[i], sf->name);

        f = fopen (path, "rb");
        free (path);
        if (f)
          return f;
      }
  if (base)
    for (size_t i = 0; i < opt->nsearch_dirs; i++)
      {
        char *path = join (opt->search_dirs[i], base + 1);

        f = fopen (path, "rb");
        free (path);
        if (f)
          return f;
      }
  if (errno == ENOENT)
    fprintf (stderr, _("%s: could not locate `%s'\n"), whoami, sf->name);
  else
    perror (sf->name);
  return NULL;
}

/* "<name>-ann" in the current directory, for -y; NULL after saying why
   it cannot be written.  */
static FILE *
open_annotation_file (const SourceFile *sf)
{
  const char *base = path_basename (sf->name);
  char *name = gp_malloc (strlen (base) + 5);
  FILE *f;

  sprintf (name, "%s-ann", base);
  if (!(f = outfile_open (name)))
    perror (name);
  free (name);
  return f;
}

/* Annotated text goes through the report buffer when it goes to stdout.  */
static void
emit (FILE *out, const char *s, size_t n)
{
  if (out == stdout)
    out_write (s, n);
  else
    fwrite (s, 1, n, out);
}

FILE *
annotate_source (Run *run, const SourceFile *sf, unsigned width,
                 AnnotateFn annote, void *arg)
{
  static bool first_file = true;
  FILE *in = open_source (run, sf), *out = stdout;
  char buf[8192], *note;
  size_t nread;
  long line_num = 1;
  bool new_line = true;

  if (!in)
    return NULL;
  if (run->opt.create_annotation_files)
    {
      out = open_annotation_file (sf);
      if (!out)
        {
          fclose (in);
          return NULL;
        }
    }
  else
    {
      if (first_file)
        first_file = false;
      else
        out_char ('\n');
      run_separator (run);
      out_printf (_("*** File %s:\n"), sf->name);
    }

  note = gp_malloc (width + 1);
  while ((nread = fread (buf, 1, sizeof buf, in)) > 0)
    for (size_t i = 0; i < nread; i++)
      {
        if (new_line)
          {
            annote (note, width, line_num++, arg);
            emit (out, note, strlen (note));
          }
        new_line = buf[i] == '\n';
        emit (out, &buf[i], 1);
      }
  free (note);
  fclose (in);
  return out;
}

void
annotate_finish (Run *run, const SourceFile *sf, FILE *out)
{
  int err;

  (void) run;
  if (out == stdout || (err = outfile_close (out)) == 0)
    return;
  fprintf (stderr, "%s: %s-ann: %s\n", whoami, path_basename (sf->name),
           strerror (err));
  gp_exit_failure ();
}
