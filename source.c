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
#include "out.h"
#include "util.h"

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

/* The temporary file behind each open -y output, to rename when done.  */
typedef struct PendingAnn
{
  FILE *f;
  char *tmp, *final;
} PendingAnn;

static PendingAnn pending;

static void
remove_pending (void)
{
  if (pending.tmp)
    unlink (pending.tmp);
}

static FILE *
open_annotation_file (const SourceFile *sf)
{
  const char *base = gp_basename (sf->name);
  char *final = gp_malloc (strlen (base) + 5);
  mode_t mask;
  int fd;

  sprintf (final, "%s-ann", base);
  pending.tmp = gp_malloc (strlen (final) + 16);
  sprintf (pending.tmp, "%s.tmp.XXXXXX", final);
  fd = mkstemp (pending.tmp);
  mask = umask (0);
  umask (mask);
  if (fd < 0 || fchmod (fd, 0666 & ~mask) != 0
      || !(pending.f = fdopen (fd, "w")))
    {
      int err = errno;

      if (fd >= 0)
        {
          close (fd);
          unlink (pending.tmp);
        }
      free (pending.tmp);
      pending.tmp = NULL;
      errno = err;
      perror (final);
      free (final);
      return NULL;
    }
  gp_on_die (remove_pending);
  pending.final = final;
  return pending.f;
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
  int line_num = 1;
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
annotate_finish (Run *run, FILE *out)
{
  if (out == stdout)
    return;
  if (fclose (out) != 0 || rename (pending.tmp, pending.final) != 0)
    {
      perror (pending.final);
      remove_pending ();
      exit (1);
    }
  free (pending.tmp);
  free (pending.final);
  pending.tmp = pending.final = NULL;
  pending.f = NULL;
}
