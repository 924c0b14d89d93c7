/* mcount-i386.S - libgmon's profiling entry points for i386.

   gcc -m32 -pg calls mcount after the prologue (push %ebp; mov
   %esp,%ebp); -pg -mfentry (non-PIC only) calls __fentry__ first.  eax,
   ecx and edx may hold arguments (-mregparm, fastcall, the static chain
   in ecx), ebx the GOT pointer; all are preserved.  No vector or x87
   register is touched, here or in the C slow path (-mgeneral-regs-only).

   Fast path, taken for every call of an arc after its first: load the
   thread's table (a TLS pointer), test the global "on" byte and the
   module epoch (layout.h) through the table (cheaper than PC-relative
   addressing on i386), hash the caller address, compare both addresses, and add one to the 64-bit count with
   add/adc.  The pair is safe against signal handlers on this thread: a
   handler that increments the same count in between leaves the carry
   flag of the interrupted add intact.  Anything else goes to
   gm_arc_miss (from, self).  The layout comes from layout.h.  */

#include "../libgmon/layout.h"

#define GM_SLOT(field) GM_TBL_SLOTS+field(%edx,%eax)

	.section gmon_text,"ax",@progbits

#ifdef PIC
/* %edx = our own return address, for the GOT address.  */
	.p2align 4
	.type	gm_pc_thunk_dx, @function
gm_pc_thunk_dx:
	.cfi_startproc
	endbr32
	movl	(%esp), %edx
	ret
	.cfi_endproc
	.size	gm_pc_thunk_dx, .-gm_pc_thunk_dx

/* The thread's table pointer into %edx: initial-exec TLS through the GOT
   in the shared library, local-exec in the archive (which only goes into
   programs).  */
# define GM_LOAD_TABLE \
	call	gm_pc_thunk_dx; \
	addl	$_GLOBAL_OFFSET_TABLE_, %edx; \
	movl	gm_cur@gotntpoff(%edx), %edx; \
	movl	%gs:(%edx), %edx
#else
# define GM_LOAD_TABLE \
	movl	%gs:gm_cur@ntpoff, %edx
#endif

/* One entry point.  \from and \self locate the caller's return address
   and our own return address once eax, ecx and edx have been pushed;
   \fentry is 1 for __fentry__.  */
	.macro GM_STUB name, from, self, fentry
	.p2align 4
	.globl	\name
	.type	\name, @function
\name:
	.cfi_startproc
	endbr32
	pushl	%eax
	.cfi_adjust_cfa_offset 4
	.cfi_rel_offset %eax, 0
	pushl	%ecx
	.cfi_adjust_cfa_offset 4
	.cfi_rel_offset %ecx, 0
	pushl	%edx
	.cfi_adjust_cfa_offset 4
	.cfi_rel_offset %edx, 0
	GM_LOAD_TABLE
	movl	GM_TBL_ON(%edx), %eax
	cmpb	$0, (%eax)
	je	6f
	movl	GM_TBL_EPOCH_AT(%edx), %eax	/* keys of an older epoch: */
	movl	(%eax), %eax			/* gm_arc_miss converts them */
	cmpl	%eax, GM_TBL_EPOCH(%edx)
	jne	3f
	imull	$GM_HASH_MUL, \from, %eax
	shrl	$GM_HASH_SHIFT, %eax
2:	andl	GM_TBL_MASK(%edx), %eax
	movl	GM_SLOT(GM_SLOT_FROM), %ecx
	cmpl	\from, %ecx
	jne	4f
	movl	GM_SLOT(GM_SLOT_SELF), %ecx
	cmpl	\self, %ecx
	jne	5f
	addl	$1, GM_SLOT(GM_SLOT_COUNT)
	adcl	$0, GM_SLOT(GM_SLOT_COUNT+4)
6:	.cfi_remember_state
	popl	%edx
	.cfi_adjust_cfa_offset -4
	.cfi_restore %edx
	popl	%ecx
	.cfi_adjust_cfa_offset -4
	.cfi_restore %ecx
	popl	%eax
	.cfi_adjust_cfa_offset -4
	.cfi_restore %eax
	ret
	.cfi_restore_state
4:	testl	%ecx, %ecx			/* empty: a new arc */
	jz	3f
5:	addl	$GM_SLOT_SIZE, %eax		/* another arc: next slot */
	jmp	2b

	/* Slow path: align the stack and call gm_arc_miss (from, self).  */
3:	movl	\from, %eax
	movl	\self, %ecx
	.if \fentry
	/* In nested functions gcc saves the static chain (push %ecx) just
	   before calling __fentry__, so the caller's address is one slot
	   higher.  Recognise the push before the 5-byte call.  The fast
	   path hashed the wrong word and keeps missing; such arcs are
	   counted here.  */
	cmpb	$0x51, -6(%ecx)
	jne	8f
	movl	20(%esp), %eax		/* 16(%esp) + 4 */
8:
	.endif
	pushl	%ebp
	.cfi_adjust_cfa_offset 4
	.cfi_rel_offset %ebp, 0
	movl	%esp, %ebp
	.cfi_def_cfa_register %ebp
	andl	$-16, %esp
	subl	$8, %esp
	pushl	%ecx
	pushl	%eax
	call	gm_arc_miss
	movl	%ebp, %esp
	.cfi_def_cfa_register %esp
	popl	%ebp
	.cfi_adjust_cfa_offset -4
	.cfi_restore %ebp
	jmp	6b
	.cfi_endproc
	.size	\name, .-\name
	.endm

/* mcount: our return address is in the function, the function's own
   return address (its caller) is above the saved %ebp.  */
	GM_STUB mcount, 4(%ebp), 12(%esp), 0

	.globl	_mcount
	.type	_mcount, @function
	.set	_mcount, mcount

/* __fentry__: called before any prologue, so the caller's return address
   is just above ours.  */
	GM_STUB __fentry__, 16(%esp), 12(%esp), 1

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
	endbr32
	jmp	gm_gmon_start
	.cfi_endproc
	.size	__gmon_start__, .-__gmon_start__
#endif

	.section .note.GNU-stack,"",@progbits

/* The code is IBT- and shadow-stack-compatible: say so, or linking it
   would drop CET from the program.  */
	.section .note.gnu.property,"a"
	.p2align 2
	.long	4			/* name size */
	.long	12			/* descriptor size */
	.long	5			/* NT_GNU_PROPERTY_TYPE_0 */
	.asciz	"GNU"
	.long	0xc0000002		/* GNU_PROPERTY_X86_FEATURE_1_AND */
	.long	4
	.long	3			/* IBT | SHSTK */
