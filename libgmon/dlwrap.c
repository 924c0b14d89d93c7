/* dlwrap.c - dlopen, dlmopen and dlclose, seen by the module table.

   libgmon defines them, so that every library loaded or unloaded at run
   time is registered (modules.c) before its code runs much, and every
   unload starts a new module epoch before anything else can be loaded
   in its place.  The real ones are libc's, found with dlsym (RTLD_NEXT).
   Whose calls come here: the program's own (this file is linked into
   every program that links libgmon.a: gm_dlwrap_init), and those of
   the libraries that bind to the program's definition (the linker
   exports it when a library on the link line calls it; a library only
   dlopen'd binds to it then too); with libgmon.so
   (linked or LD_PRELOAD), every library's.  libc's internal loads (NSS,
   iconv) do not come here: mcount meeting their code, or the next
   dlopen or dlclose, registers them.

   The loader resolves a file name without a slash (and "$ORIGIN" in
   any name) for the object that called dlopen: its RPATH, RUNPATH and
   namespace.  Called from here, that object would be libgmon.  So such
   a name goes straight on to the real dlopen, as a tail call that
   leaves the program's return address for the loader to see, and the
   library is registered later: when mcount meets its code, or at the
   next dlopen or dlclose.  Its samples before that are "elsewhere".  */

#define _GNU_SOURCE
#include <dlfcn.h>

#include "internal.h"

/* Weak: a static program whose libc.a brings its own keeps libc's
   (there is no loader to see then).  */
#pragma GCC visibility push(default)
void *dlopen (const char *file, int mode) __attribute__ ((weak));
void *dlmopen (Lmid_t lmid, const char *file, int mode)
  __attribute__ ((weak));
int dlclose (void *handle) __attribute__ ((weak));
#pragma GCC visibility pop

static struct
{
  void *(*dlopen) (const char *, int);
  void *(*dlmopen) (Lmid_t, const char *, int);
  int (*dlclose) (void *);
} gm_real;

/* The real function name, found once (racing threads find the same).  */
static void *
gm_next (void **slot, const char *name)
{
  void *f = __atomic_load_n (slot, __ATOMIC_ACQUIRE);
  if (f == NULL)
    {
      f = dlsym (RTLD_NEXT, name);
      __atomic_store_n (slot, f, __ATOMIC_RELEASE);
    }
  return f;
}

#define GM_REAL(name) \
  ((__typeof (gm_real.name)) gm_next ((void **) &gm_real.name, #name))

/* Whether the loader resolves file the same whoever calls dlopen.  */
static int
gm_caller_free (const char *file)
{
  int slash = file == NULL;
  for (const char *p = file; p != NULL && *p != '\0'; p++)
    if (*p == '$')
      return 0;
    else if (*p == '/')
      slash = 1;
  return slash;
}

void *
dlopen (const char *file, int mode)
{
  __typeof (gm_real.dlopen) real = GM_REAL (dlopen);
  if (real == NULL)
    return NULL;                /* a static program: no loader */
  if (!gm_caller_free (file))
    return real (file, mode);
  gm_modules_lock ();
  void *h = real (file, mode);
  gm_modules_scan ();
  gm_modules_unlock ();
  return h;
}

void *
dlmopen (Lmid_t lmid, const char *file, int mode)
{
  __typeof (gm_real.dlmopen) real = GM_REAL (dlmopen);
  if (real == NULL)
    return NULL;                /* a static program: no loader */
  if (!gm_caller_free (file))
    return real (lmid, file, mode);
  gm_modules_lock ();
  void *h = real (lmid, file, mode);
  gm_modules_scan ();
  gm_modules_unlock ();
  return h;
}

int
dlclose (void *handle)
{
  __typeof (gm_real.dlclose) real = GM_REAL (dlclose);
  if (real == NULL)
    return -1;
  gm_modules_lock ();
  int r = real (handle);
  gm_modules_scan ();
  gm_modules_unlock ();
  return r;
}

void
gm_dlwrap_init (void)
{
  (void) GM_REAL (dlopen);
  (void) GM_REAL (dlmopen);
  (void) GM_REAL (dlclose);
}
