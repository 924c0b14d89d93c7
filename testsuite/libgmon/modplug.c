/* modplug.c - the plugin of the whole-process test, dlopen'd by libA
   (modlib.c); it calls within itself, back into libA and into the
   program.  Built with -pg.  */

#include "modtest.h"

__attribute__ ((noinline)) static long
plug_leaf (long x)
{
  __asm__ volatile ("");
  return x + 7;
}

__attribute__ ((noinline)) long
plug_entry (long x, mod_hook hook)
{
  mod_count[PLUG_ENTRY_PLUG_LEAF]++;
  long r = plug_leaf (x);
  mod_count[PLUG_ENTRY_PLUG_LEAF]++;
  r += plug_leaf (r);
  mod_count[PLUG_ENTRY_A_CALLBACK]++;
  r += a_callback (r);
  mod_count[PLUG_ENTRY_PROG_HOOK]++;
  return r + hook (r);
}
