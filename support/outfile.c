/* outfile.c - output files that appear whole or not at all.

   GNU gprof writes gmon.sum and the -y files in place, so an error found
   late, a full disk or a Ctrl-C leaves a truncated file.  Here they are
   written to a temporary file in the target's directory and renamed
   over the target once complete.  The temporary name is short, so that
   it fits wherever the target's name does, and unique (mkstemp).  It is
   removed on every way out before the rename: at exit (gp_die and every
   other exit) and on the signals whose default action ends the program,
   whose handlers remove it and then end the program as the signal would
   have.  */

#include "config.h"
#include "support/outfile.h"

#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "support/error.h"
#include "support/alloc.h"

/* The signals that end a program by default and that a user or the
   system sends to a running one.  */
static const int fatal_signals[] = {
  SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE, SIGXFSZ, SIGXCPU, SIGALRM,
  SIGVTALRM, SIGPROF, SIGUSR1, SIGUSR2
};
enum { NFATAL = sizeof fatal_signals / sizeof fatal_signals[0] };

/* The one file being written.  The signal handlers read tmp_name while
   armed is set.  */
static struct
{
  FILE *f;
  char *target;
  bool direct;                  /* written in place: no temporary file */
  struct sigaction old[NFATAL];
  bool caught[NFATAL];
} pending;
static char *tmp_name;
static volatile sig_atomic_t armed;

static void
remove_tmp (void)
{
  if (armed)
    unlink (tmp_name);
}

static void
on_fatal_signal (int sig)
{
  remove_tmp ();
  signal (sig, SIG_DFL);
  raise (sig);
}

/* Catch the fatal signals that are not ignored or caught already.  */
static void
catch_signals (void)
{
  struct sigaction sa;

  memset (&sa, 0, sizeof sa);
  sa.sa_handler = on_fatal_signal;
  sigemptyset (&sa.sa_mask);
  for (int i = 0; i < NFATAL; i++)
    {
      pending.caught[i] = false;
      if (sigaction (fatal_signals[i], NULL, &pending.old[i]) == 0
          && pending.old[i].sa_handler == SIG_DFL
          && sigaction (fatal_signals[i], &sa, NULL) == 0)
        pending.caught[i] = true;
    }
}

static void
release_signals (void)
{
  for (int i = 0; i < NFATAL; i++)
    if (pending.caught[i])
      sigaction (fatal_signals[i], &pending.old[i], NULL);
}

/* The target of readlink PATH, malloc'ed; NULL with errno on failure.  */
static char *
read_link (const char *path)
{
  for (size_t size = 256;; size *= 2)
    {
      char *buf = gp_malloc (size);
      ssize_t n = readlink (path, buf, size);

      if (n < 0)
        {
          int err = errno;

          free (buf);
          errno = err;
          return NULL;
        }
      if ((size_t) n < size)
        {
          buf[n] = '\0';
          return buf;
        }
      free (buf);
    }
}

/* The file PATH's chain of symbolic links leads to, malloc'ed: PATH
   itself if it is none (or does not exist yet).  NULL with errno on
   failure (ELOOP after 40 links, as the kernel counts).  */
static char *
link_target (const char *path)
{
  char *cur = gp_strdup (path);

  for (int hops = 0;; hops++)
    {
      struct stat st;
      char *link, *next;
      const char *slash;

      if (lstat (cur, &st) != 0 || !S_ISLNK (st.st_mode))
        return cur;
      if (hops == 40 || !(link = read_link (cur)))
        {
          int err = hops == 40 ? ELOOP : errno;

          free (cur);
          errno = err;
          return NULL;
        }
      slash = strrchr (cur, '/');
      if (link[0] == '/' || !slash)
        next = link;
      else
        {
          /* A relative link is relative to the link's directory.  */
          size_t dir = (size_t) (slash - cur) + 1;

          next = gp_malloc (dir + strlen (link) + 1);
          memcpy (next, cur, dir);
          strcpy (next + dir, link);
          free (link);
        }
      free (cur);
      cur = next;
    }
}

/* "DIR/.gprof-XXXXXX" beside TARGET.  */
static char *
tmp_template (const char *target)
{
  const char *slash = strrchr (target, '/');
  size_t dir = slash ? (size_t) (slash - target) + 1 : 0;
  char *t = gp_malloc (dir + sizeof ".gprof-XXXXXX");

  memcpy (t, target, dir);
  strcpy (t + dir, ".gprof-XXXXXX");
  return t;
}

/* A new temporary file for TARGET, with the permissions TARGET has, or
   else the usual 0666 less the umask.  */
static FILE *
open_tmp (const char *target)
{
  static bool registered;
  char *name = tmp_template (target);
  struct stat st;
  sigset_t all, old;
  mode_t mode, mask;
  int fd, err;

  if (!registered)
    {
      atexit (outfile_abort);
      registered = true;
    }
  if (stat (target, &st) == 0)
    mode = st.st_mode & 07777;
  else
    {
      mask = umask (0);
      umask (mask);
      mode = 0666 & ~mask;
    }
  /* No signal between the file's creation and its handler's knowing.  */
  sigfillset (&all);
  sigprocmask (SIG_BLOCK, &all, &old);
  fd = mkstemp (name);
  err = errno;
  if (fd >= 0)
    {
      tmp_name = name;
      armed = 1;
    }
  sigprocmask (SIG_SETMASK, &old, NULL);
  if (fd < 0)
    {
      free (name);
      errno = err;
      return NULL;
    }
  FILE *f = fchmod (fd, mode) == 0 ? fdopen (fd, "w") : NULL;

  if (!f)
    {
      err = errno;
      close (fd);
      errno = err;
    }
  return f;
}

static void
forget (void)
{
  armed = 0;
  release_signals ();
  free (tmp_name);
  tmp_name = NULL;
  free (pending.target);
  pending.target = NULL;
  pending.f = NULL;
}

FILE *
outfile_open (const char *path)
{
  struct stat st;
  int err;

  gp_assert (!pending.f);
  if (!(pending.target = link_target (path)))
    return NULL;
  pending.direct = stat (pending.target, &st) == 0 && !S_ISREG (st.st_mode);
  if (pending.direct)
    {
      pending.f = fopen (pending.target, "w");
      if (!pending.f)
        {
          err = errno;
          forget ();
          errno = err;
        }
      return pending.f;
    }
  catch_signals ();
  pending.f = open_tmp (pending.target);
  if (!pending.f)
    {
      err = errno;
      remove_tmp ();
      forget ();
      errno = err;
    }
  return pending.f;
}

void
outfile_abort (void)
{
  remove_tmp ();
  if (pending.f)
    fclose (pending.f);
  forget ();
}

int
outfile_close (FILE *f)
{
  bool direct = pending.direct;
  int err = 0;

  gp_assert (f == pending.f);
  if (fflush (f) != 0)
    err = errno;
  else if (ferror (f))
    err = EIO;
  else if (!direct && fsync (fileno (f)) != 0)
    err = errno;
  if (fclose (f) != 0 && !err)
    err = errno;
  if (!direct && !err && rename (tmp_name, pending.target) != 0)
    err = errno;
  if (err)
    remove_tmp ();
  forget ();
  return err;
}
