/* modtest.h - the arcs the whole-process test counts itself
   (modprog.c, modlib.c, modplug.c): the counters live in the library
   (modlib.c), every module adds to them just before each call.  */

#ifndef MODTEST_H
#define MODTEST_H

enum mod_arc
{
  ONE_LOAD_PROG_LOOP,           /* program -> program */
  PROG_LOOP_PROG_LOCAL,         /* program -> program */
  PROG_LOOP_A_RUN,              /* program -> libA */
  A_RUN_A_HELPER,               /* libA -> libA */
  A_RUN_PLUG_ENTRY,             /* libA -> plugin */
  PLUG_ENTRY_PLUG_LEAF,         /* plugin -> plugin */
  PLUG_ENTRY_A_CALLBACK,        /* plugin -> libA */
  PLUG_ENTRY_PROG_HOOK,         /* plugin -> program */
  ONE_LOAD_A_LOAD,              /* program -> libA */
  ONE_LOAD_A_BASE,
  ONE_LOAD_A_UNLOAD,
  MAIN_PROG_MATH,               /* program -> program */
  MAIN_ONE_LOAD,
  MAIN_PROG_LOOP,
  A_UNLOAD_A_MARK,              /* libA -> libA */
  MOD_ARCS
};

#define MOD_ARC_NAMES \
  "one_load prog_loop", "prog_loop prog_local", "prog_loop a_run", \
  "a_run a_helper", "a_run plug_entry", "plug_entry plug_leaf", \
  "plug_entry a_callback", "plug_entry prog_hook", "one_load a_load", \
  "one_load a_base", "one_load a_unload", "main prog_math", \
  "main one_load", "main prog_loop", "a_unload a_mark"

extern long mod_count[MOD_ARCS];

typedef long (*mod_hook) (long);
typedef long (*mod_entry) (long, mod_hook);

/* modlib.c */
int a_load (const char *path);
void a_unload (int block_base);
long a_run (long x, mod_hook hook);
long a_callback (long x);
unsigned long a_base (void);

#endif
