/* layout.h - what the mcount stubs (mach/mcount-*.S) know about the
   per-thread arc tables of libgmon.

   Included by C and by assembler, so it holds only #defines.  arcs.c
   checks every offset against the C structures with _Static_assert, so
   the two sides cannot drift apart silently.

   A table is a header followed by a power-of-two array of slots.  A slot
   holds one arc: the exact caller address (from), the callee address
   (self) and a 64-bit count.  from == 0 marks an empty slot.  The stubs
   hash from (a call site nearly always calls one function, so self would
   add instructions and no spread), probe linearly and, on a hit,
   increment the count with one read-modify-write instruction; everything
   else (insertion, growth, a thread's first call) is done in C by
   gm_arc_miss().

   The thread's table pointer is never NULL: threads start with (and a
   growing table is briefly replaced by) an empty one-slot table, whose
   probe misses at once.  That saves the stubs a test.

   Keys are absolute addresses, which a shared object unloaded by
   dlclose and another loaded in its place would confuse.  So a table
   holds the module epoch its keys belong to (the global gm_epoch, which
   each unload advances; modules.c), and the stubs send every call to
   gm_arc_miss while the two differ: there the thread converts its keys
   into (module, file address) form and starts the new epoch.  The
   header is 32 bytes, so that slots stay within cache lines.  */

#ifndef LIBGMON_LAYOUT_H
#define LIBGMON_LAYOUT_H

/* Plain numbers (no expressions), so the assembler reads them as
   displacements without ambiguity.  */
#if defined(__LP64__)
# define GM_WORD 8
/* 32-byte slots: from, self, count, padding (a power of two, so the
   probe can step with a shifted index).  */
# define GM_SLOT_SHIFT 5
# define GM_SLOT_SIZE 32
# define GM_SLOT_FROM 0
# define GM_SLOT_SELF 8
# define GM_SLOT_COUNT 16
/* The hash is the product from * GM_HASH_MUL, where GM_HASH_MUL is a
   sign-extended 32-bit odd constant (so x86-64 can use imul with an
   immediate).  The slot offset is (product >> GM_HASH_SHIFT) & mask_off:
   with 32-byte slots the index comes from bits 32 and up of the product,
   the best-mixed ones.  */
# define GM_HASH_SHIFT 27
/* Table header: offset mask, pointer to the global "profiling on" byte
   (the i386 stubs reach it through the table because they have no cheap
   PC-relative addressing), the table's own epoch (32 bits), then fields
   only C uses.  */
# define GM_TBL_MASK 0
# define GM_TBL_ON 8
# define GM_TBL_EPOCH 16
# define GM_TBL_SLOTS 32
#else
# define GM_WORD 4
/* 16-byte slots: from, self, 64-bit count.  */
# define GM_SLOT_SHIFT 4
# define GM_SLOT_SIZE 16
# define GM_SLOT_FROM 0
# define GM_SLOT_SELF 4
# define GM_SLOT_COUNT 8
/* 32-bit product; the index comes from bits 12 and up.  The i386
   stubs also reach the global epoch through the table.  */
# define GM_HASH_SHIFT 8
# define GM_TBL_MASK 0
# define GM_TBL_ON 4
# define GM_TBL_EPOCH 8
# define GM_TBL_EPOCH_AT 20
# define GM_TBL_SLOTS 32
#endif

/* 0x9e3779b1 (the 32-bit golden ratio) read as a signed 32-bit value.  */
#define GM_HASH_MUL -1640531535

#endif /* LIBGMON_LAYOUT_H */
