/* test_x86_insn.c - instruction lengths, as objdump (libopcodes 2.40)
   gives them for the same bytes: compiled code's usual encodings in
   64-bit and 32-bit mode, and the odd cases the sweep of -c meets
   (fwait with x87, prefixes standing alone, "(bad)", bytes cut off by
   the end of the range).  testsuite/staticcg/run-x86-insn.sh compares
   whole programs with objdump itself.  */

#include "config.h"
#include <stdio.h>
#include <string.h>
#include "mach/x86_insn.h"
#include "unit.h"

typedef struct Case
{
  const char *hex;        /* the bytes, and no more */
  bool mode64;
  size_t len;             /* objdump's length */
} Case;

static const Case cases[] = {
    { "90", 1, 1 },  /* nop */
    { "c3", 1, 1 },  /* ret */
    { "f3c3", 1, 2 },  /* repz ret */
    { "e800000000", 1, 5 },  /* call   0x00000005 */
    { "66e80000", 1, 4 },  /* callw  0x00000004 */
    { "e9ffffffff", 1, 5 },  /* jmp    0x00000004 */
    { "eb00", 1, 2 },  /* jmp    0x00000002 */
    { "0f8400000000", 1, 6 },  /* je     0x00000006 */
    { "660f840000", 1, 5 },  /* je     0x00000005 */
    { "4889e5", 1, 3 },  /* mov    %rsp,%rbp */
    { "488b0500000000", 1, 7 },  /* mov    0x0(%rip),%rax        # 0x00000007 */
    { "488b04c500000000", 1, 8 },  /* mov    0x0(,%rax,8),%rax */
    { "8b442408", 1, 4 },  /* mov    0x8(%rsp),%eax */
    { "8b8424c8000000", 1, 7 },  /* mov    0xc8(%rsp),%eax */
    { "c744240801000000", 1, 8 },  /* movl   $0x1,0x8(%rsp) */
    { "48c7c0ffffffff", 1, 7 },  /* mov    $0xffffffffffffffff,%rax */
    { "48b88877665544332211", 1, 10 },  /* movabs $0x1122334455667788,%rax */
    { "b801000000", 1, 5 },  /* mov    $0x1,%eax */
    { "66b80100", 1, 4 },  /* mov    $0x1,%ax */
    { "6a01", 1, 2 },  /* push   $0x1 */
    { "6801000000", 1, 5 },  /* push   $0x1 */
    { "c6000a", 1, 3 },  /* movb   $0xa,(%rax) */
    { "6683f801", 1, 4 },  /* cmp    $0x1,%ax */
    { "80fa7f", 1, 3 },  /* cmp    $0x7f,%dl */
    { "f6c101", 1, 3 },  /* test   $0x1,%cl */
    { "f7c001000000", 1, 6 },  /* test   $0x1,%eax */
    { "f7d8", 1, 2 },  /* neg    %eax */
    { "ff1500000000", 1, 6 },  /* call   *0x0(%rip)        # 0x00000006 */
    { "ff24c500000000", 1, 7 },  /* jmp    *0x0(,%rax,8) */
    { "c8100000", 1, 4 },  /* enter  $0x10,$0x0 */
    { "c20800", 1, 3 },  /* ret    $0x8 */
    { "a18877665544332211", 1, 9 },  /* movabs 0x1122334455667788,%eax */
    { "67a144332211", 1, 6 },  /* addr32 mov 0x11223344,%eax */
    { "0f1f440000", 1, 5 },  /* nopl   0x0(%rax,%rax,1) */
    { "660f1f440000", 1, 6 },  /* nopw   0x0(%rax,%rax,1) */
    { "662e0f1f840000000000", 1, 10 },  /* cs nopw 0x0(%rax,%rax,1) */
    { "66662e0f1f840000000000", 1, 11 },  /* data16 cs nopw 0x0(%rax,%rax,1) */
    { "f30f1efa", 1, 4 },  /* endbr64 */
    { "0fa2", 1, 2 },  /* cpuid */
    { "0f05", 1, 2 },  /* syscall */
    { "0f0b", 1, 2 },  /* ud2 */
    { "0fafc1", 1, 3 },  /* imul   %ecx,%eax */
    { "0fb6c0", 1, 3 },  /* movzbl %al,%eax */
    { "0fbae001", 1, 4 },  /* bt     $0x1,%eax */
    { "0fc8", 1, 2 },  /* bswap  %eax */
    { "660f6fc1", 1, 4 },  /* movdqa %xmm1,%xmm0 */
    { "f20f100500000000", 1, 8 },  /* movsd  0x0(%rip),%xmm0        # 0x00000008 */
    { "660f3a0fc108", 1, 6 },  /* palignr $0x8,%xmm1,%xmm0 */
    { "660f3800c1", 1, 5 },  /* pshufb %xmm1,%xmm0 */
    { "c5f877", 1, 3 },  /* vzeroupper */
    { "c5fc77", 1, 3 },  /* vzeroall */
    { "c5f9efc0", 1, 4 },  /* vpxor  %xmm0,%xmm0,%xmm0 */
    { "c4e27d18c0", 1, 5 },  /* vbroadcastss %xmm0,%ymm0 */
    { "c4e3fd00c01b", 1, 6 },  /* vpermq $0x1b,%ymm0,%ymm0 */
    { "c5fa7e0500000000", 1, 8 },  /* vmovq  0x0(%rip),%xmm0        # 0x00000008 */
    { "62f17c48100000", 1, 6 },  /* vmovups (%rax),%zmm0 */
    { "62f17c4010c0", 1, 6 },  /* vmovups %zmm0,%zmm0 */
    { "62f1fd4873d008", 1, 7 },  /* vpsrlq $0x8,%zmm0,%zmm0 */
    { "62f37d480fc000", 1, 7 },  /* vpalignr $0x0,%zmm0,%zmm0,%zmm0 */
    { "8fe8789500112233", 1, 6 },  /* vpmacsww %xmm1,(%rax),%xmm0,%xmm0 */
    { "8fea78100011223344", 1, 9 },  /* bextr  $0x44332211,(%rax),%eax */
    { "0f0fc0bf", 1, 4 },  /* pavgusb %mm0,%mm0 */
    { "9bd93c24", 1, 4 },  /* fstcw  (%rsp) */
    { "9bdd7df0", 1, 4 },  /* fstsw  -0x10(%rbp) */
    { "9b90", 1, 1 },  /* fwait */
    { "669b90", 1, 2 },  /* data16 fwait */
    { "489bd9f0", 1, 1 },  /* rex.W */
    { "4866906690", 1, 1 },  /* rex.W */
    { "f048", 1, 1 },  /* lock */
    { "ffff00", 1, 1 },  /* (bad) */
    { "8dc0", 1, 1 },  /* (bad) */
    { "820011", 1, 1 },  /* (bad) */
    { "0f0070", 1, 2 },  /* (bad) */
    { "0fb80000", 1, 2 },  /* (bad) */
    { "0fc700", 1, 2 },  /* (bad) */
    { "0fa7c0", 1, 3 },  /* xstore-rng */
    { "0fa600", 1, 1 },  /* montmul (bad) */
    { "660f0fc000", 1, 2 },  /* (bad) */
    { "62ca0000000000", 1, 1 },  /* (bad) */
    { "62f17848100000", 1, 2 },  /* (bad) */
    { "d9ee", 1, 2 },  /* fldz */
    { "dd442408", 1, 4 },  /* fldl   0x8(%rsp) */
    { "df2c24", 1, 3 },  /* fildll (%rsp) */
    { "f00fb111", 1, 4 },  /* lock cmpxchg %edx,(%rcx) */
    { "f3a4", 1, 2 },  /* rep movsb %ds:(%rsi),%es:(%rdi) */
    { "f348a5", 1, 3 },  /* rep movsq %ds:(%rsi),%es:(%rdi) */
    { "64488b042528000000", 1, 9 },  /* mov    %fs:0x28,%rax */
    { "6448c7042500000000ffffffff", 1, 13 },  /* movq   $0xffffffffffffffff,%fs:0x0 */
    { "2e", 1, 1 },  /* cs */
    { "ff", 1, 1 },  /* .byte 0xff */
    { "66480500000000", 1, 7 },  /* data16 add $0x0,%rax */
    { "6648c7c000000000", 1, 8 },  /* data16 mov $0x0,%rax */
    { "6648f7c000000000", 1, 8 },  /* data16 test $0x0,%rax */
    { "6648680000000000", 1, 7 },  /* data16 rex.W push $0x0 */
    { "66480f8400000000", 1, 8 },  /* data16 rex.W je 0x00000008 */
    { "0f2087", 1, 3 },  /* mov    %cr0,%rdi */
    { "0f23873295", 1, 3 },  /* mov    %rdi,%db0 */
    { "9b4344f1", 1, 1 },  /* rex.XB */
    { "90", 0, 1 },  /* nop */
    { "e800000000", 0, 5 },  /* call   0x00000005 */
    { "66e80000", 0, 4 },  /* callw  0x00000004 */
    { "0f8400000000", 0, 6 },  /* je     0x00000006 */
    { "8b442404", 0, 4 },  /* mov    0x4(%esp),%eax */
    { "8b048500000000", 0, 7 },  /* mov    0x0(,%eax,4),%eax */
    { "c744240401000000", 0, 8 },  /* movl   $0x1,0x4(%esp) */
    { "b801000000", 0, 5 },  /* mov    $0x1,%eax */
    { "66b80100", 0, 4 },  /* mov    $0x1,%ax */
    { "a144332211", 0, 5 },  /* mov    0x11223344,%eax */
    { "67a14433", 0, 4 },  /* addr16 mov 0x3344,%eax */
    { "6766a11122", 0, 5 },  /* addr16 mov 0x2211,%ax */
    { "9a112233445566", 0, 7 },  /* lcall  $0x6655,$0x44332211 */
    { "ea112233445566", 0, 7 },  /* ljmp   $0x6655,$0x44332211 */
    { "62c0", 0, 1 },  /* .byte 0x62 */
    { "6200", 0, 2 },  /* bound  %eax,(%eax) */
    { "c400", 0, 2 },  /* les    (%eax),%eax */
    { "c5f877", 0, 3 },  /* vzeroupper */
    { "c4e27d18c0", 0, 5 },  /* vbroadcastss %xmm0,%ymm0 */
    { "8fc0", 0, 2 },  /* pop    %eax */
    { "40", 0, 1 },  /* inc    %eax */
    { "48c3", 0, 1 },  /* dec    %eax */
    { "d40a", 0, 2 },  /* aam    $0xa */
    { "60", 0, 1 },  /* pusha */
    { "61", 0, 1 },  /* popa */
    { "0f1f440000", 0, 5 },  /* nopl   0x0(%eax,%eax,1) */
    { "f30f1efb", 0, 4 },  /* endbr32 */
    { "9bd93c24", 0, 4 },  /* fstcw  (%esp) */
    { "8d4c2404", 0, 4 },  /* lea    0x4(%esp),%ecx */
    { "ff742404", 0, 4 },  /* push   0x4(%esp) */
};

static size_t
unhex (const char *hex, unsigned char *out, size_t room)
{
  size_t n = 0;
  unsigned v;

  while (hex[0] && hex[1] && n < room && sscanf (hex, "%2x", &v) == 1)
    {
      out[n++] = (unsigned char) v;
      hex += 2;
    }
  return n;
}

/* A call rel32 is found where -c looks for it: its opcode after the
   prefixes, and the displacement ending the instruction.  */
static void
check_call_opcode (void)
{
  static const struct { const char *hex; bool mode64; size_t op; } calls[] = {
    { "e800000000", true, 0 },
    { "2ee800000000", true, 1 },
    { "41e800000000", true, 1 },
    { "e800000000", false, 0 },
  };

  for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++)
    {
      unsigned char b[16];
      size_t n = unhex (calls[i].hex, b, sizeof b), op = 99;
      size_t len = x86_insn_length (b, n, calls[i].mode64, &op);

      check (len == n && op == calls[i].op && b[op] == 0xe8,
             "call %s: length %zu, opcode at %zu", calls[i].hex, len, op);
    }
}

/* On any bytes: at least one byte and never past the end, so that a
   sweep always moves on and stays within its range; the opcode inside.  */
static void
check_random_bytes (void)
{
  Rng rng;
  unsigned char b[64];
  unsigned long bad = 0, sweeps = 20000;

  rng_seed (&rng, unit_seed ());
  for (unsigned long k = 0; k < sweeps; k++)
    {
      size_t n = 1 + rng_below (&rng, sizeof b);
      bool mode64 = k & 1;

      for (size_t i = 0; i < n; i++)
        b[i] = (unsigned char) rng_next (&rng);
      for (size_t off = 0; off < n;)
        {
          size_t op, len = x86_insn_length (b + off, n - off, mode64, &op);

          if (len == 0 || len > n - off || op >= len)
            {
              bad++;
              break;
            }
          off += len;
        }
    }
  check (bad == 0, "%lu random sweeps: every length within the bytes (%lu not)",
         sweeps, bad);
}

int
main (void)
{
  unsigned char b[32];
  size_t op;

  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    {
      size_t n = unhex (cases[i].hex, b, sizeof b);
      size_t len = x86_insn_length (b, n, cases[i].mode64, &op);

      check (len == cases[i].len, "%s (%s-bit): length %zu, objdump %zu",
             cases[i].hex, cases[i].mode64 ? "64" : "32", len, cases[i].len);
    }
  check (x86_insn_length (b, 0, true, &op) == 0, "no bytes: length 0");
  memset (b, 0x66, sizeof b);
  check (x86_insn_length (b, sizeof b, true, &op) == 14,
         "objdump stops at fourteen prefixes");
  check_call_opcode ();
  check_random_bytes ();
  return check_done ();
}
