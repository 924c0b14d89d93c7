/* mcount-aarch64.S - libgmon's profiling entry point for AArch64.

   gcc -pg calls _mcount (frompc) after setting up the frame record, as
   an ordinary AAPCS64 call: x0 is the function's own return address (its
   caller, PAC already stripped by xpaclri), x30 our return address in
   the function.  The caller expects x0-x18 and the vector registers to
   be clobbered, so no register needs saving except x29/x30 around the C
   slow path.

   Fast path, taken for every call of an arc after its first: test the
   global "on" byte, check that the calling thread's table (a TLS
   pointer) is of the current module epoch (layout.h), hash the caller
   address into it, compare both addresses, and increment the
   64-bit count with an exclusive load/store pair: a signal handler that
   increments the same count in between clears the exclusive monitor and
   the store retries, so no count is lost (a plain ldr/add/str could lose
   the handler's).  Anything else goes to gm_arc_miss (from, self).  The
   layout comes from layout.h.  */

#include "../libgmon/layout.h"

	.section gmon_text,"ax",@progbits
	.p2align 4
	.globl	_mcount
	.type	_mcount, %function
_mcount:
	.cfi_startproc
	hint	34				/* bti c */
	adrp	x9, gm_on
	ldrb	w9, [x9, :lo12:gm_on]
	cbz	w9, 9f
	mrs	x10, tpidr_el0
#ifdef PIC
	/* Initial-exec TLS in the shared library...  */
	adrp	x11, :gottprel:gm_cur
	ldr	x11, [x11, :gottprel_lo12:gm_cur]
	ldr	x11, [x10, x11]
#else
	/* ...local-exec in the archive (which only goes into programs).  */
	add	x10, x10, :tprel_hi12:gm_cur, lsl #12
	add	x10, x10, :tprel_lo12_nc:gm_cur
	ldr	x11, [x10]
#endif
	/* Keys of an older module epoch (layout.h): gm_arc_miss converts
	   them.  */
	adrp	x9, gm_epoch
	ldr	w9, [x9, :lo12:gm_epoch]
	ldr	w10, [x11, #GM_TBL_EPOCH]
	cmp	w9, w10
	b.ne	3f
	/* x12 = slot offset = ((from * GM_HASH_MUL) >> GM_HASH_SHIFT) & mask,
	   with GM_HASH_MUL = 0xffffffff9e3779b1.  */
	movn	x13, #0x864e
	movk	x13, #0x9e37, lsl #16
	mul	x12, x0, x13
	lsr	x12, x12, #GM_HASH_SHIFT
	ldr	x13, [x11, #GM_TBL_MASK]
	add	x14, x11, #GM_TBL_SLOTS
2:	and	x12, x12, x13
	add	x15, x14, x12
	ldp	x16, x17, [x15, #GM_SLOT_FROM]
	cmp	x16, x0
	b.ne	4f
	cmp	x17, x30
	b.ne	5f
	add	x15, x15, #GM_SLOT_COUNT
1:	ldxr	x16, [x15]
	add	x16, x16, #1
	stxr	w17, x16, [x15]
	cbnz	w17, 1b
9:	ret
4:	cbz	x16, 3f				/* empty: a new arc */
5:	add	x12, x12, #GM_SLOT_SIZE		/* another arc: next slot */
	b	2b

	/* Slow path: gm_arc_miss (from, self), self taken before paciasp
	   signs x30.  */
3:	mov	x1, x30
	hint	25				/* paciasp */
	.cfi_negate_ra_state
	stp	x29, x30, [sp, #-16]!
	.cfi_adjust_cfa_offset 16
	.cfi_rel_offset x29, 0
	.cfi_rel_offset x30, 8
	mov	x29, sp
	bl	gm_arc_miss
	ldp	x29, x30, [sp], #16
	.cfi_adjust_cfa_offset -16
	.cfi_restore x29
	.cfi_restore x30
	hint	29				/* autiasp */
	.cfi_negate_ra_state
	ret
	.cfi_endproc
	.size	_mcount, .-_mcount

	.globl	mcount
	.type	mcount, %function
	.set	mcount, _mcount

#ifndef PIC
/* In the archive only: crti.o's _init calls __gmon_start__ if it is
   defined.  gcrt1.o (linking with -pg) defines it strongly and wins;
   linking objects compiled with -pg without -pg at link time pulls this
   member in for _mcount, and this weak definition starts profiling.  */
	.text
	.p2align 2
	.weak	__gmon_start__
	.type	__gmon_start__, %function
__gmon_start__:
	.cfi_startproc
	hint	34				/* bti c */
	b	gm_gmon_start
	.cfi_endproc
	.size	__gmon_start__, .-__gmon_start__
#endif

	.section .note.GNU-stack,"",%progbits

/* The code is BTI- and PAC-compatible: say so, or linking it would drop
   branch protection from the program.  */
	.section .note.gnu.property,"a"
	.p2align 3
	.long	4			/* name size */
	.long	16			/* descriptor size */
	.long	5			/* NT_GNU_PROPERTY_TYPE_0 */
	.asciz	"GNU"
	.long	0xc0000000		/* GNU_PROPERTY_AARCH64_FEATURE_1_AND */
	.long	4
	.long	3			/* BTI | PAC */
	.p2align 3
