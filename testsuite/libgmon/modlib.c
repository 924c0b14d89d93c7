/* modlib.c - libA of the whole-process test: called by the program,
   it dlopen's the plugin (modplug.c), calls into it, and is called back
   by it.  Built with -pg into a shared library.  */

#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "modtest.h"

long mod_count[MOD_ARCS];

static void *plugin;
static mod_entry entry;
static unsigned long base;

__attribute__ ((noinline)) unsigned long
a_base (void)
{
  return base;
}

__attribute__ ((noinline)) int
a_load (const char *path)
{
  plugin = dlopen (path, RTLD_NOW);
  if (plugin == NULL)
    {
      fprintf (stderr, "dlopen: %s\n", dlerror ());
      return -1;
    }
  entry = (mod_entry) dlsym (plugin, "plug_entry");
  Dl_info info;
  if (entry == NULL || dladdr ((void *) entry, &info) == 0)
    return -1;
  base = (unsigned long) info.dli_fbase;
  return 0;
}

/* A call right after an unload: the first makes the thread convert its
   keys to the new module epoch at once, so that every key on the way to
   the next load's code is new in that epoch (modprog.c says why).  */
__attribute__ ((noinline)) static void
a_mark (void)
{
  __asm__ volatile ("");
}

/* Unload the plugin; with block_base, keep its old place taken, so that
   the next load goes elsewhere.  */
__attribute__ ((noinline)) void
a_unload (int block_base)
{
  dlclose (plugin);
  plugin = NULL;
  entry = NULL;
  /* Not last: a tail call would hide a_unload from mcount.  */
  mod_count[A_UNLOAD_A_MARK]++;
  a_mark ();
  /* A failure means something holds the place already (the loader may
     keep a mapping there): taken either way, which is all the test
     needs; modules.sh checks the bases.  */
  if (block_base)
    (void) mmap ((void *) base, 4096, PROT_NONE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
}

__attribute__ ((noinline)) static long
a_helper (long x)
{
  __asm__ volatile ("");
  return x * 3 + 1;
}

__attribute__ ((noinline)) long
a_callback (long x)
{
  __asm__ volatile ("");
  return x ^ 5;
}

__attribute__ ((noinline)) long
a_run (long x, mod_hook hook)
{
  mod_count[A_RUN_A_HELPER]++;
  long r = a_helper (x);
  if (entry != NULL)
    {
      mod_count[A_RUN_PLUG_ENTRY]++;
      r += entry (x, hook);
    }
  return r;
}
