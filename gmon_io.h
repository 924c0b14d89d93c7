/* gmon_io.h - reading profile data files (GNU, BSD and 4.4BSD formats)
   and writing their sum (-s).  */

#ifndef GPROF_GMON_IO_H
#define GPROF_GMON_IO_H

#include <stdbool.h>
#include <stdint.h>
#include "symtab.h"

struct Run;
struct Core;
struct SinceArcs;
typedef struct GmonAhead GmonAhead;

/* What a reader of single records (--diagnose) is shown of each file as
   gmon_read reads it, before records are merged: set Run.watch.  */
typedef struct GmonWatch
{
  void *ctx;
  /* A histogram record's range, and its NBINS bins as the file has them
     (as many as the record of that range read before has, if any).  */
  void (*hist) (void *ctx, vma_t lowpc, vma_t highpc, unsigned nbins,
                const uint16_t *bins);
  /* A histogram record's header in FILENAME, with the rate it is
     checked at (GNU and 4.4BSD files), before it is checked against the
     records read before: those of another rate or scale stop the run.  */
  void (*hist_header) (void *ctx, const char *filename, vma_t lowpc,
                       vma_t highpc, unsigned nbins, unsigned rate);
  void (*arc) (void *ctx, vma_t from, vma_t self, uint64_t count);
  /* The file was read to its end.  */
  void (*file_end) (void *ctx);
} GmonWatch;

/* The start of FILENAME (the first profile file, which needs no symbols
   before its arcs) read into memory, the whole of most files, and the
   bins of the histogram it opens with read: for Run.ahead, of which
   gmon_read takes what it can.  NULL for standard input or a file that
   cannot be read so; gmon_read then reads it the usual way, and reports
   what is wrong with it.  */
GmonAhead *gmon_ahead_read (const struct Core *core, const char *filename);

/* Read one profile file ("-" is standard input) into the run: histogram
   records, arcs and basic-block counts.  Exits with GNU gprof's messages
   on a file it cannot read.  With -i, prints what the file held.  */
void gmon_read (struct Run *run, const char *filename);

/* What the snapshot record beside a profile says (gmon_out.h).  */
typedef struct GmonSnap
{
  uint64_t run, seq;
  uint64_t sec, nsec;     /* when its counts were read */
  char clock[16];         /* what its samples measure */
  bool current;           /* it is the record of the profile there now */
} GmonSnap;

/* The record beside FILENAME (FILENAME.snap) into *SNAP: false if there
   is none.  Exits on one that cannot be read or is not a record.  */
bool gmon_read_snap (const char *filename, GmonSnap *snap);

/* gmon_read for --since (since.h): the earlier snapshot FILENAME into
   BASE, its arcs kept aside in ARCS rather than counted; the later one
   into RUN, its arcs reduced by ARCS before they are counted.  */
void gmon_read_kept (struct Run *base, const char *filename,
                     struct SinceArcs *arcs);
void gmon_read_less (struct Run *run, const char *filename,
                     struct SinceArcs *arcs);

/* A file of LEB128 numbers (<profile>.stacks, <profile>.modules) held
   in memory, NAME's LEN bytes at P, read from AT.  */
typedef struct StacksIn
{
  const char *name;
  const unsigned char *p;
  size_t at, len;
} StacksIn;

/* Exit with a message naming IN's file and WHAT is wrong with it.  */
void stacks_bad (const StacksIn *in, const char *what)
  __attribute__ ((noreturn));
/* The next number of IN; exits at its end or on one of over 64 bits.  */
uint64_t stacks_leb (StacksIn *in);

/* The file FILENAME + SUFFIX beside a profile (.stacks, .modules: LEB128
   numbers after MAGIC), read whole into IN (IN->name its name and IN->p
   its bytes, both malloc'ed for the caller to free), its magic and
   VERSION checked, and the profile hash it records in *HASH, IN then
   at the number after it.  False when there is no such file, with the
   warning NOT_USED (a format of whoami, the name and the error) when
   it exists but cannot be opened.  Exits if it is damaged.  */
bool side_file_read (const char *filename, const char *suffix,
                     const char *magic, unsigned version,
                     const char *not_used, StacksIn *in, uint64_t *hash);

/* The hash (gmon_out.h) of every byte of FILENAME, or false if it
   cannot be read.  */
bool gmon_file_hash (const char *filename, uint64_t *hash);

/* Write everything read so far to FILENAME (gmon.sum): to a temporary
   file first, renamed into place only when complete.  */
void gmon_write (struct Run *run, const char *filename);

#endif
