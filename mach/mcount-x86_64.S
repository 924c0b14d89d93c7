/* mcount-x86_64.S - libgmon's profiling entry points for x86-64.

   gcc -pg calls mcount after the prologue (push %rbp; mov %rsp,%rbp);
   -pg -mfentry calls __fentry__ as the first instruction.  Either call
   can come while the function's arguments are still in registers, and
   gcc assumes it clobbers nothing but the scratch register r11 (which
   glibc's stub clobbers too), so everything else is preserved: rdi rsi
   rdx rcx r8 r9 (arguments), rax (vector-argument count of varargs
   calls), r10 (static chain).  No vector register is touched, here or in
   the C slow path (built with -mgeneral-regs-only).

   Fast path, taken for every call of an arc after its first: test the
   global "on" byte, check that the calling thread's table (a TLS
   pointer) is of the current module epoch (layout.h), hash the caller
   address into it, compare both addresses, increment the 64-bit
   count with one instruction (atomic with respect to signal handlers on
   this thread).  Anything else (a thread's first call, a new arc, a
   growing table) goes to gm_arc_miss.  The layout comes from layout.h.  */

#include "../libgmon/layout.h"

/* The thread's table pointer into %r11: initial-exec TLS in the shared
   library, local-exec in the archive (which only goes into programs). */
#ifdef PIC
# define GM_LOAD_TABLE \
	movq	gm_cur@gottpoff(%rip), %r11; \
	movq	%fs:(%r11), %r11
#else
# define GM_LOAD_TABLE \
	movq	%fs:gm_cur@tpoff, %r11
#endif

#define GM_SLOT(field) GM_TBL_SLOTS+field(%r11,%rax)

/* One entry point.  \from and \self locate the caller's return address
   and our own return address once rax and rcx have been pushed; \fentry
   is 1 for __fentry__.  */
	.macro GM_STUB name, from, self, fentry
	.p2align 4
	.globl	\name
	.type	\name, @function
\name:
	.cfi_startproc
	endbr64
	cmpb	$0, gm_on(%rip)
	je	9f
	pushq	%rax
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %rax, 0
	pushq	%rcx
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %rcx, 0
	GM_LOAD_TABLE
	movl	gm_epoch(%rip), %eax		/* keys of an older epoch: */
	cmpl	%eax, GM_TBL_EPOCH(%r11)	/* gm_arc_miss converts them */
	jne	3f
	movq	\from, %rcx			/* read once: one load less */
	imulq	$GM_HASH_MUL, %rcx, %rax
	shrq	$GM_HASH_SHIFT, %rax
2:	andq	GM_TBL_MASK(%r11), %rax
	cmpq	%rcx, GM_SLOT(GM_SLOT_FROM)
	jne	4f
	movq	\self, %rcx
	cmpq	%rcx, GM_SLOT(GM_SLOT_SELF)
	jne	5f
	incq	GM_SLOT(GM_SLOT_COUNT)
6:	.cfi_remember_state
	popq	%rcx
	.cfi_adjust_cfa_offset -8
	.cfi_restore %rcx
	popq	%rax
	.cfi_adjust_cfa_offset -8
	.cfi_restore %rax
9:	ret
	.cfi_restore_state
4:	cmpq	$0, GM_SLOT(GM_SLOT_FROM)	/* empty: a new arc */
	je	3f
	addq	$GM_SLOT_SIZE, %rax		/* another arc: next slot */
	jmp	2b
5:	movq	\from, %rcx			/* another arc: next slot */
	addq	$GM_SLOT_SIZE, %rax
	jmp	2b

	/* Slow path: save the other argument registers, align the stack
	   and call gm_arc_miss (from, self).  */
3:	movq	\from, %rax
	movq	\self, %rcx
	.if \fentry
	/* In nested functions gcc saves the static chain (push %r10) just
	   before calling __fentry__, so the caller's address is one slot
	   higher.  Recognise the push before the call (5 bytes, or 6 when
	   indirect or addr32-prefixed).  The fast path hashed the wrong
	   word and keeps missing; such arcs are counted here.  */
	cmpw	$0x5241, -7(%rcx)
	je	7f
	cmpw	$0x5241, -8(%rcx)
	jne	8f
7:	movq	32(%rsp), %rax		/* 24(%rsp) + 8 */
8:
	.endif
	pushq	%rdx
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %rdx, 0
	pushq	%rsi
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %rsi, 0
	pushq	%rdi
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %rdi, 0
	pushq	%r8
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %r8, 0
	pushq	%r9
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %r9, 0
	pushq	%r10
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %r10, 0
	pushq	%rbp
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %rbp, 0
	movq	%rsp, %rbp
	.cfi_def_cfa_register %rbp
	andq	$-16, %rsp
	movq	%rax, %rdi
	movq	%rcx, %rsi
	call	gm_arc_miss
	movq	%rbp, %rsp
	.cfi_def_cfa_register %rsp
	popq	%rbp
	.cfi_adjust_cfa_offset -8
	.cfi_restore %rbp
	popq	%r10
	.cfi_adjust_cfa_offset -8
	.cfi_restore %r10
	popq	%r9
	.cfi_adjust_cfa_offset -8
	.cfi_restore %r9
	popq	%r8
	.cfi_adjust_cfa_offset -8
	.cfi_restore %r8
	popq	%rdi
	.cfi_adjust_cfa_offset -8
	.cfi_restore %rdi
	popq	%rsi
	.cfi_adjust_cfa_offset -8
	.cfi_restore %rsi
	popq	%rdx
	.cfi_adjust_cfa_offset -8
	.cfi_restore %rdx
	jmp	6b
	.cfi_endproc
	.size	\name, .-\name
	.endm

	.section gmon_text,"ax",@progbits

/* mcount: our return address is in the function, the function's own
   return address (its caller) is above the saved %rbp.  */
	GM_STUB mcount, 8(%rbp), 16(%rsp), 0

	.globl	_mcount
	.type	_mcount, @function
	.set	_mcount, mcount

/* __fentry__: called before any prologue, so the caller's return address
   is just above ours; no frame pointer needed.  */
	GM_STUB __fentry__, 24(%rsp), 16(%rsp), 1

#ifndef PIC
/* In the archive only: crti.o's _init calls __gmon_start__ if it is
   defined.  gcrt1.o (linking with -pg) defines it strongly and wins;
   linking objects compiled with -pg without -pg at link time pulls this
   member in for mcount, and this weak definition starts profiling.  */
	.text
	.p2align 4
	.weak	__gmon_start__
	.type	__gmon_start__, @function
__gmon_start__:
	.cfi_startproc
	endbr64
	jmp	gm_gmon_start
	.cfi_endproc
	.size	__gmon_start__, .-__gmon_start__
#endif

	.section .note.GNU-stack,"",@progbits

/* The code is IBT- and shadow-stack-compatible: say so, or linking it
   would drop CET from the program.  */
	.section .note.gnu.property,"a"
	.p2align 3
	.long	4			/* name size */
	.long	16			/* descriptor size */
	.long	5			/* NT_GNU_PROPERTY_TYPE_0 */
	.asciz	"GNU"
	.long	0xc0000002		/* GNU_PROPERTY_X86_FEATURE_1_AND */
	.long	4
	.long	3			/* IBT | SHSTK */
	.p2align 3
