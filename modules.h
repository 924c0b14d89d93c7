/* modules.h - --whole-process: the modules libgmon recorded beside a
   profile (<profile>.modules, gmon_out.h), their symbols, samples and
   arcs.

   Every module gets a range of its own in one synthetic address space,
   so that the later stages (samples to symbols, arcs, cycles, reports,
   exports) run on it as on one program: module 0, the executable, keeps
   its own addresses; module I's file address A becomes offset + A,
   above the modules before it.  The other modules' symbols are named
   "name [module]"; a module whose file is missing or another build has
   one symbol, "[module]", over its whole code.  */

#ifndef GPROF_MODULES_H
#define GPROF_MODULES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "symtab.h"

struct Run;

typedef struct Module
{
  unsigned flags;         /* GMON_MODULE_UNLOADED */
  uint64_t loads;
  vma_t base;             /* its load bias at its last load */
  vma_t lo, hi;           /* its code, as file addresses [lo, hi) */
  char *path;             /* as the dynamic loader named it */
  unsigned char *build_id;
  size_t build_id_len;
  const char *name;       /* the last component of path */
  vma_t offset;           /* synthetic address = offset + file address */
} Module;

/* A sample bin or an arc end: a module and a file address in it.  */
typedef struct ModulePc
{
  uint32_t module;
  vma_t addr;
} ModulePc;

typedef struct ModuleBin
{
  ModulePc pc;            /* covers GMON_MODULE_BIN bytes from there */
  uint64_t count;
} ModuleBin;

typedef struct ModuleArc
{
  ModulePc from, self;
  uint64_t count;
} ModuleArc;

typedef struct Modules
{
  char *filename;         /* <profile>.modules */
  Module *mod;            /* mod[0] the executable */
  size_t n;
  ModuleBin *bins;        /* in order of module, then address */
  size_t nbins;
  ModuleArc *arcs;
  size_t narcs;
  char **names;           /* the qualified names the symbols point at */
  size_t nnames, names_cap;
} Modules;

/* Read PROFILE's <profile>.modules.  NULL if there is none, or (with a
   warning) if it goes with another profile or cannot be opened; exits
   with a message naming the file if it is damaged.  */
Modules *modules_read (const char *profile);
void modules_free (Modules *m);

/* --whole-process: read the modules beside the first profile into
   run->modules (a warning if there are none), lay them out above
   run->symtab's (module 0's) addresses and add their symbols to it,
   found by the recorded path, by build-id under
   /usr/lib/debug/.build-id, or in the --module-dir directories; warns
   of every module missing or changed.  */
void modules_load (struct Run *run);

/* --whole-process: the other modules' arcs into the call graph and
   their samples into the histograms, at their synthetic addresses.  */
void modules_tally (struct Run *run);

/* The module whose synthetic range holds ADDR (0 for the executable's
   own addresses).  */
size_t modules_of (const Modules *m, vma_t addr);

/* The synthetic address of PC.  */
static inline vma_t
modules_addr (const Modules *m, ModulePc pc)
{
  return m->mod[pc.module].offset + pc.addr;
}

#endif
