/* walk-leaf.c - the code of walk.c that keeps no frame of its own,
   built without -pg and with -fomit-frame-pointer.

   leaf (n) spins n rounds, leaving the frame pointer as its caller set
   it; cmp_leaf, a qsort comparison, leaves it as libc's qsort set it,
   which may be anything.  garbage_spin (n, fp, below) spins n rounds with the frame
   pointer set to fp, or when below is not 0, to its stack pointer
   minus below, and restores it before it returns; in assembly, as C
   cannot set that register.  It avoids the instructions libgmon takes
   for a prologue (mov %rsp,%rbp; mov x29, sp): the walk must meet the
   hostile value.  */

#include <stdint.h>

void leaf (long n);
int cmp_leaf (const void *x, const void *y);
void garbage_spin (long n, uintptr_t fp, uintptr_t below);

static volatile long leaf_sink;

void
leaf (long n)
{
  for (long i = 0; i < n; i++)
    leaf_sink += i;
}

int
cmp_leaf (const void *x, const void *y)
{
  int u = *(const int *) x, v = *(const int *) y;

  for (int i = 0; i < 32; i++)
    leaf_sink += i;
  return (u > v) - (u < v);
}

#if defined(__x86_64__)
__asm__ (".pushsection .text\n"
         ".globl garbage_spin\n"
         ".type garbage_spin, @function\n"
         "garbage_spin:\n"
         "  push %rbp\n"
         "  mov %rsi, %rbp\n"
         "  test %rdx, %rdx\n"
         "  je 1f\n"
         "  mov %rsp, %rax\n"
         "  sub %rdx, %rax\n"
         "  mov %rax, %rbp\n"
         "1:\n"
         "  sub $1, %rdi\n"
         "  jnz 1b\n"
         "  pop %rbp\n"
         "  ret\n"
         ".size garbage_spin, .-garbage_spin\n"
         ".popsection\n");
#elif defined(__i386__)
/* The arguments on the stack, above the return address and the saved
   ebp.  */
__asm__ (".pushsection .text\n"
         ".globl garbage_spin\n"
         ".type garbage_spin, @function\n"
         "garbage_spin:\n"
         "  push %ebp\n"
         "  mov 8(%esp), %ecx\n"
         "  mov 12(%esp), %ebp\n"
         "  mov 16(%esp), %edx\n"
         "  test %edx, %edx\n"
         "  je 1f\n"
         "  mov %esp, %eax\n"
         "  sub %edx, %eax\n"
         "  mov %eax, %ebp\n"
         "1:\n"
         "  sub $1, %ecx\n"
         "  jnz 1b\n"
         "  pop %ebp\n"
         "  ret\n"
         ".size garbage_spin, .-garbage_spin\n"
         ".popsection\n");
#elif defined(__aarch64__)
__asm__ (".pushsection .text\n"
         ".globl garbage_spin\n"
         ".type garbage_spin, %function\n"
         "garbage_spin:\n"
         "  stp x29, x30, [sp, #-16]!\n"
         "  mov x29, x1\n"
         "  cbz x2, 1f\n"
         "  mov x3, sp\n"
         "  sub x29, x3, x2\n"
         "1:\n"
         "  subs x0, x0, #1\n"
         "  b.ne 1b\n"
         "  ldp x29, x30, [sp], #16\n"
         "  ret\n"
         ".size garbage_spin, .-garbage_spin\n"
         ".popsection\n");
#else
# error "walk-leaf.c: no garbage_spin for this architecture"
#endif
