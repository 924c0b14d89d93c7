/* gmon_out.h - the on-disk layout of profile data files.

   Shared by the analyzer (gprof) and the runtime (libgmon), so that both
   read and write the same bytes.  Every multi-byte field is stored in the
   byte order of the profiled program, and addresses ("vma" fields) are as
   wide as its pointers (4 or 8 bytes).  Because field widths depend on the
   target, the layouts are given as constants rather than C structs.  */

#ifndef GMON_OUT_H
#define GMON_OUT_H

/* ---- GNU format ("gmon"), version 1 ----------------------------------

   header:  "gmon" | u32 version | 12 spare bytes
   then records, each a one-byte tag and a body, until end of file.

   The spare bytes are zero, or (libgmon, and gprof -s of its files) hold
   the histogram's dispersion and flags: "disp" | u32 D | u32 F, D being
   65536 times sum(w^2) / sum(w) over the timer signals that landed in
   the histogram, each counting w sampling periods.  A signal can stand
   for several periods when the kernel notices a CPU timer's expiry only
   at its clock tick; the samples then come in clumps, and a count of n
   samples varies by about sqrt(n D) rather than sqrt(n).  D of 0 says
   nothing.  F's bit 0 (GMON_FLAG_WALL) says the samples measure
   wall-clock time (LIBGMON_CLOCK=wall: blocked threads are sampled
   too); clear, or without the "disp" tag (every older file), they
   measure CPU time.  Its other bits are zero.  GNU gprof ignores the
   spare bytes.  */

#define GMON_MAGIC "gmon"
#define GMON_MAGIC_LEN 4
#define GMON_VERSION 1
#define GMON_HEADER_SIZE 20 /* magic + version + spare */
#define GMON_DISP_TAG "disp" /* at byte 8, then D at byte 12 */
#define GMON_DISP_ONE 65536u /* D of samples that each count once */
#define GMON_FLAG_WALL 1u    /* F: the samples measure wall-clock time */

enum gmon_tag
{
  GMON_TAG_TIME_HIST = 0, /* histogram of sampled pcs */
  GMON_TAG_CG_ARC = 1,    /* one call-graph arc */
  GMON_TAG_BB_COUNT = 2   /* basic-block execution counts */
};

/* Tag 0 body: vma lowpc | vma highpc | u32 nbins | u32 rate
               | 15 bytes dimension | 1 byte dimension abbreviation
               | nbins x u16 counts.  */
#define GMON_HIST_DIMEN_LEN 15

/* Tag 1 body: vma from_pc | vma self_pc | u32 count.  */

/* Tag 2 body: u32 ncounts | ncounts x (vma addr | vma count).  */

/* ---- BSD formats -------------------------------------------------------

   old BSD:  vma lowpc | vma highpc | u32 ncnt
   4.4BSD:   vma lowpc | vma highpc | u32 ncnt | u32 version | u32 rate
             | 12 spare bytes
   ncnt is the size in bytes of header plus histogram.  Then ncnt-header
   bytes of u16 bins, then arcs until end of file:
             vma from_pc | vma self_pc | count (u32 on 32-bit targets,
             u64 on 64-bit ones).  */

#define GMON_BSD44_VERSION 0x00051879
#define GMON_BSD_OLD_HDR_SIZE(vma) (2 * (vma) + 4)
#define GMON_BSD44_HDR_SIZE(vma) (2 * (vma) + 4 + 4 + 4 + 12)

/* ---- call stacks: <profile>.stacks -------------------------------------

   libgmon writes the call stack of every sample beside the profile, in
   a file of its own named after it ("gmon.out.stacks"), so that the
   profile itself stays what GNU gprof reads.  gprof -s writes the sum
   of the stacks it read beside gmon.sum.

   Every number is an unsigned LEB128 (7 bits a byte, low bits first,
   the high bit set on all bytes but the last), so the file has no byte
   order or word size of its own:

     "gstk"       magic, 4 bytes
     version      1
     hash         gmon_stacks_hash of every byte of the profile these
                  stacks go with: a reader ignores stacks whose profile
                  was replaced since (a run without stacks leaves an old
                  stacks file behind)
     depth        the most frames a stack was given (LIBGMON_STACKS)
     dropped      sampling periods with no stack: the table was full
     cut          sampling periods whose stack was cut at depth frames
                  (they keep its innermost depth frames)
     nodes        the number of nodes, then each node:
       up         0 for an outermost frame, else the distance back to
                  its parent node (1 is the node just before)
       pc         the frame's address, as gmon.out's addresses are
                  (relative to the program's load address): the
                  sampled PC for an innermost frame, else the return
                  address of a call
       weight     sampling periods (the histogram's unit) of the
                  samples whose stack, read from this node through its
                  parents, is this path exactly (innermost frame first)

   The nodes form a tree of stacks read from the outermost frame in, so
   that stacks share their common outer frames: a stack is a node.  A
   stack holds only frames inside the profiled program; it ends where
   the frame-pointer chain left it or became unusable.  libgmon writes
   the nodes depth first, so that most parents are a byte or two back
   (readers take any order with parents first): a node then takes 5
   bytes where addresses stay below 2 MB, and a million stacks of a
   20-deep binary recursion under 8 common frames, 2 million nodes,
   take 10 MB.  libgmon keeps at most 1,048,576 stacks (262,144 on
   32-bit targets); the samples of the others count as dropped.  */

#define GMON_STACKS_MAGIC "gstk"
#define GMON_STACKS_MAGIC_LEN 4
#define GMON_STACKS_VERSION 1
#define GMON_STACKS_SUFFIX ".stacks"

/* ---- snapshot records: <profile>.snap ----------------------------------

   A profile libgmon writes while the program runs (LIBGMON_INTERVAL,
   LIBGMON_DUMP_SIGNAL) is a snapshot: everything counted from the start
   of the run to that moment.  Neither format's header has room to say
   which run it belongs to and where in it (the GNU header's spare bytes
   hold the dispersion, the BSD ones are not read back), and GNU gprof
   stops at a record it does not know; so that goes in a small text file
   beside the profile, written before the profile is renamed into place,
   which GNU gprof never sees.  With those modes on, every profile of the
   run has one: the numbered snapshots, libgmon_dump's, and the last one
   (at exit, on a crash signal or _exit).  Lines of "key value", in this
   order (a reader ignores keys it does not know):

     gmon snapshot 1            the format and its version
     run 5f0c2a9e7d31b4c8       the run's identity: 64 random bits in hex,
                                new in a fork child and after
                                libgmon_reset (counts start from zero)
     seq 3                      1, 2, ... in the run, in the order the
                                counts were read: a later number has
                                every count as large or larger
     time 1732712345.123456789  CLOCK_REALTIME when they were read
     clock cpu                  what the samples measure: "cpu" (each
                                thread's CPU time) or "wall" (its time
                                running or blocked, LIBGMON_CLOCK=wall);
                                profiles of different clocks cannot be
                                subtracted or added
     pid 12345                  the process
     why interval               what asked for it: interval, signal,
                                libgmon_dump, exit, _mcleanup, _exit,
                                _Exit, or the signal that ended the
                                program (SIGSEGV, SIGBUS, SIGABRT,
                                SIGTERM)
     profile 8c1a7e00d3b2f405   gmon_stacks_hash of the profile's bytes,
                                in hex: a record left beside a newer
                                profile is not that profile's

   A numbered snapshot is named "<name>.<pid>.<seq>.<time>": <name> the
   one the exit profile gets (gmon.out, GMON_OUT_PREFIX.<pid> or the
   LIBGMON_OUT pattern), ".<pid>" only if it has no pid yet, <seq> with
   8 digits at least and <time> in seconds; so "ls" and a shell's glob
   list a run's snapshots in their order (up to snapshot 99999999).  */

#define GMON_SNAP_SUFFIX ".snap"
#define GMON_SNAP_HEADER "gmon snapshot 1"

/* ---- whole-process data: <profile>.modules ----------------------------

   The samples libgmon takes outside the program's own code (shared
   libraries, plugins loaded with dlopen, the dynamic loader, the vDSO)
   and the calls whose caller or callee lies there, with the modules
   they lie in, go in a file of their own beside the profile
   ("gmon.out.modules"), which GNU gprof never reads; the profile keeps
   only the program's own, as before.  gprof --whole-process reads both.

   Numbers are unsigned LEB128, as in .stacks:

     "gmod"       magic, 4 bytes
     version      1
     hash         gmon_stacks_hash of every byte of the profile this
                  file goes with (a file left by an earlier run beside a
                  newer profile is not used)
     modules      the number of modules, then each module; module 0 is
                  the program itself, the others follow in the order
                  they were first loaded:
       flags      GMON_MODULE_UNLOADED: unloaded (dlclose) before the
                  write; its counts are kept
       loads      how many times it was loaded (a plugin opened, closed
                  and opened again: 2)
       base       its load bias at its last load: the address where its
                  file address 0 was
       lo, hi     its code, as file addresses [lo, hi): from the lowest
                  to the highest address of its executable segments
       path       the length, then the bytes (no NUL): the name the
                  dynamic loader gives it (module 0: the program's
                  file, as /proc/self/exe names it; the vDSO:
                  "[vdso]")
       build-id   the length (0: none), then the bytes of its
                  NT_GNU_BUILD_ID note
                  A module loaded again with the same path and build-id
                  is the same module, whatever its new base.
     bins         the number of histogram bins written, then each, in
                  order of module and then address, only those not 0:
       module     its index
       addr       its file address, less that of the bin before it in
                  the same module (the first bin of a module: less 0);
                  a bin covers GMON_MODULE_BIN bytes from there
       count      sampling periods, of the profile's rate and clock
     arcs         the number of arcs, then each:
       from       module index, then file address: the return address
                  in the caller, as a profile's "frompc"
       self       module index, then file address: the callee, as a
                  profile's "selfpc"
       count      the calls

   Module 0's bins, and the arcs with both ends in module 0, are in the
   profile, not here; everything else libgmon counted is.  */

#define GMON_MODULES_MAGIC "gmod"
#define GMON_MODULES_MAGIC_LEN 4
#define GMON_MODULES_VERSION 1
#define GMON_MODULES_SUFFIX ".modules"
#define GMON_MODULE_UNLOADED 1u
#define GMON_MODULE_BIN 4

/* 64-bit FNV-1a, continued from H over N bytes at P (start with
   GMON_STACKS_HASH_INIT).  */
#define GMON_STACKS_HASH_INIT 0xcbf29ce484222325ULL
#define GMON_STACKS_HASH_PRIME 0x100000001b3ULL

static inline unsigned long long
gmon_stacks_hash (unsigned long long h, const void *p, unsigned long n)
{
  const unsigned char *c = (const unsigned char *) p;

  for (unsigned long i = 0; i < n; i++)
    h = (h ^ c[i]) * GMON_STACKS_HASH_PRIME;
  return h;
}

#endif /* GMON_OUT_H */
