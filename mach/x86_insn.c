/* x86_insn.c - the length of an x86 instruction, from its encoding.

   Only the structure is read: prefixes, the opcode and its map, the
   ModRM byte with SIB and displacement, and the immediate.  What the
   instruction does, and whether this processor has it, does not matter
   for where the next one starts.  The lengths are objdump's (libopcodes,
   AMD64 rules: a 0x66 prefix shortens a near branch's displacement in
   64-bit mode), and so are its ways with odd bytes where compiled code
   has them; only encodings that objdump calls "(bad)" and these rules
   do not know may get another length.  */

#include "config.h"
#include "mach/x86_insn.h"

/* Operand forms, one letter per opcode:
   .  nothing after the opcode       m  ModRM
   b  8-bit immediate                M  ModRM, 8-bit immediate
   z  16/32-bit immediate            Z  ModRM, 16/32-bit immediate
   v  16/32/64-bit immediate (mov)   w  16-bit immediate
   e  16 + 8 bits (enter)            o  address-sized offset (mov moffs)
   p  far pointer                    j  near branch displacement
   3  ModRM, 32-bit immediate        r  ModRM, always a register form
   x  decided in the code  */
static const char one_byte[256 + 1] =
  "mmmmbz..mmmmbz.x"  /* 00 */
  "mmmmbz..mmmmbz.."  /* 10 */
  "mmmmbz..mmmmbz.."  /* 20 */
  "mmmmbz..mmmmbz.."  /* 30 */
  "................"  /* 40 */
  "................"  /* 50 */
  "..xm....zZbM...."  /* 60 */
  "bbbbbbbbbbbbbbbb"  /* 70 */
  "MZMMmmmmmmmmmmmx"  /* 80 */
  "..........p....."  /* 90 */
  "oooo....bz......"  /* a0 */
  "bbbbbbbbvvvvvvvv"  /* b0 */
  "MMw.xxMZe.w..b.."  /* c0 */
  "mmmmbb..mmmmmmmm"  /* d0 */
  "bbbbbbbbjjpb...."  /* e0 */
  "......xx......mm"; /* f0 */

static const char two_byte[256 + 1] =
  "mmmm.........m.x"  /* 0f 00 */
  "mmmmmmmmmmmmmmmm"  /* 0f 10 */
  "rrrrmmmmmmmmmmmm"  /* 0f 20 */
  "........x.x....."  /* 0f 30 */
  "mmmmmmmmmmmmmmmm"  /* 0f 40 */
  "mmmmmmmmmmmmmmmm"  /* 0f 50 */
  "mmmmmmmmmmmmmmmm"  /* 0f 60 */
  "MMMMmmm.xmmmmmmm"  /* 0f 70 */
  "jjjjjjjjjjjjjjjj"  /* 0f 80 */
  "mmmmmmmmmmmmmmmm"  /* 0f 90 */
  "...mMm.....mMmmm"  /* 0f a0 */
  "mmmmmmmmmmMmmmmm"  /* 0f b0 */
  "mmMmMMMm........"  /* 0f c0 */
  "mmmmmmmmmmmmmmmm"  /* 0f d0 */
  "mmmmmmmmmmmmmmmm"  /* 0f e0 */
  "mmmmmmmmmmmmmmmm"; /* 0f f0 */

/* What the decoding has seen so far.  */
typedef struct Insn
{
  const unsigned char *code;
  size_t avail, len;
  bool mode64, opsize16, addr_alt, rex_w;
  bool lone;              /* objdump stops after the first opcode byte */
  unsigned char rep;      /* the last 0xf2 or 0xf3 prefix, or 0 */
} Insn;

static bool
take (Insn *in, size_t n)
{
  if (in->avail - in->len < n)
    return false;
  in->len += n;
  return true;
}

static int
peek (const Insn *in)
{
  return in->len < in->avail ? in->code[in->len] : -1;
}

/* Whether 0x8f followed by B starts an XOP instruction (its map, 8-10,
   where pop has its ModRM byte), rather than pop.  */
static bool
is_xop (int b)
{
  return (b & 0x1f) >= 8 && (b & 0x1f) <= 10;
}

/* objdump takes an encoding it does not know for a one-instruction
   "(bad)" that ends after its opcode: the ModRM byte and what follows it
   start the next instruction.  Its tables of valid encodings are large;
   these are the ones compiled code is near (data after a function, and
   padding), so that the sweeps stay in step there too.  */
static bool
bad_one_byte (int op, int modrm, bool mode64)
{
  int reg = (modrm >> 3) & 7, mod = modrm >> 6;

  switch (op)
    {
    case 0x06: case 0x07: case 0x0e: case 0x16: case 0x17: case 0x1e:
    case 0x1f: case 0x27: case 0x2f: case 0x37: case 0x3f: case 0x60:
    case 0x61: case 0x82: case 0x9a: case 0xce: case 0xd4: case 0xd5:
    case 0xd6: case 0xea:
      return mode64;  /* not in 64-bit mode */
    case 0x8d: return mod == 3;                    /* lea of a register */
    case 0x8f: return !is_xop (modrm) && reg != 0;  /* pop */
    case 0xc6: return reg != 0 && modrm != 0xf8;   /* mov, xabort */
    case 0xc7: return reg != 0 && modrm != 0xf8;   /* mov, xbegin */
    case 0xfe: return reg > 1;                     /* inc, dec */
    case 0xff: return reg == 7 || ((reg == 3 || reg == 5) && mod == 3);
    default: return false;
    }
}

static bool
bad_two_byte (int op, int modrm, unsigned char rep)
{
  int reg = (modrm >> 3) & 7, mod = modrm >> 6;

  switch (op)
    {
    case 0x00: return reg > 5;
    case 0x24: case 0x26: return true;
    case 0xb8: return rep != 0xf3;                 /* popcnt */
    case 0xc7: return reg == 0 || (reg < 6 && mod == 3);
    default: return false;
    }
}

/* The ModRM byte, SIB byte and displacement.  */
static bool
take_modrm (Insn *in)
{
  int m = peek (in), mod, rm;

  if (m < 0)
    return false;
  mod = m >> 6;
  rm = m & 7;
  in->len++;
  if (mod == 3)
    return true;
  if (!in->mode64 && in->addr_alt)
    {
      /* 16-bit addressing: no SIB.  */
      if (mod == 0)
        return rm == 6 ? take (in, 2) : true;
      return take (in, mod == 1 ? 1 : 2);
    }
  if (rm == 4)
    {
      int sib = peek (in);

      if (sib < 0)
        return false;
      in->len++;
      if (mod == 0 && (sib & 7) == 5)
        return take (in, 4);
    }
  if (mod == 0)
    return rm == 5 ? take (in, 4) : true;
  return take (in, mod == 1 ? 1 : 4);
}

/* A 16/32-bit immediate or near branch displacement: 16 bits with a
   0x66 prefix, unless REX.W makes the operand 64 bits (whose immediate
   stays 32).  In 64-bit mode this is AMD64's rule for branches too, as
   objdump's.  */
static size_t
immz (const Insn *in)
{
  return in->opsize16 && !in->rex_w ? 2 : 4;
}

/* The operands of a one-letter form.  */
static bool
take_form (Insn *in, char form)
{
  switch (form)
    {
    case '.': return true;
    case 'm': return take_modrm (in);
    case 'b': return take (in, 1);
    case 'M': return take_modrm (in) && take (in, 1);
    case 'z': return take (in, immz (in));
    case 'Z': return take_modrm (in) && take (in, immz (in));
    case '3': return take_modrm (in) && take (in, 4);
    case 'v': return take (in, in->rex_w ? 8 : immz (in));
    case 'w': return take (in, 2);
    case 'e': return take (in, 3);
    case 'o':
      if (in->mode64)
        return take (in, in->addr_alt ? 4 : 8);
      return take (in, in->addr_alt ? 2 : 4);
    case 'p': return take (in, in->opsize16 ? 4 : 6);
    case 'j': return take (in, immz (in));
    case 'r':
      /* mov to or from a control or debug register: the mod bits are
         ignored.  */
      return take (in, 1);
    default: return false;
    }
}

/* The form of an opcode of a VEX, EVEX or XOP map (1 = 0f, 2 = 0f38,
   3 = 0f3a, 5 and 6 the EVEX FP16 maps, 8-10 the XOP maps).  */
static char
map_form (unsigned map, int op, bool vex)
{
  switch (map)
    {
    case 1:
      if (vex && op == 0x77)
        return '.';  /* vzeroupper, vzeroall */
      if ((op >= 0x70 && op <= 0x73) || op == 0xc2 || (op >= 0xc4 && op <= 0xc6))
        return 'M';
      return 'm';
    case 2: case 5: case 6: case 9:
      return 'm';
    case 3: case 8:
      return 'M';
    case 10:
      return '3';
    default:
      return 0;
    }
}

/* Whether OP is an instruction of XOP map MAP (AMD's, few).  */
static bool
xop_known (unsigned map, int op)
{
  static const char *const maps[3] = {
    /* map 8: 85-8f, 95-9f, a2, a3, a6, b6, c0-c3, cc-cf, ec-ef */
    "\x85\x86\x87\x8e\x8f\x95\x96\x97\x9e\x9f\xa2\xa3\xa6\xb6"
    "\xc0\xc1\xc2\xc3\xcc\xcd\xce\xcf\xec\xed\xee\xef",
    /* map 9 */
    "\x01\x02\x12\x80\x81\x82\x83\x90\x91\x92\x93\x94\x95\x96\x97"
    "\x98\x99\x9a\x9b\xc1\xc2\xc3\xc6\xc7\xcb\xd1\xd2\xd3\xd6\xd7"
    "\xdb\xe1\xe2\xe3",
    /* map 10 */
    "\x10\x12",
  };

  if (map < 8 || map > 10)
    return false;
  for (const char *p = maps[map - 8]; *p; p++)
    if ((unsigned char) *p == op)
      return true;
  return false;
}

/* A VEX (C4, C5), EVEX (62) or XOP (8F) prefix at in->len - 1 and what
   follows it.  */
static bool
take_vex (Insn *in, int escape)
{
  unsigned map;
  int op;
  const unsigned char *p = in->code + in->len;

  switch (escape)
    {
    case 0xc5:
      if (!take (in, 1))
        return false;
      map = 1;
      break;
    case 0xc4:
    case 0x8f:
      if (!take (in, 2))
        return false;
      map = p[0] & 0x1f;
      in->rex_w = p[1] & 0x80;
      break;
    default:  /* 0x62 */
      if (!take (in, 3))
        return false;
      map = p[0] & 0x07;
      in->rex_w = p[1] & 0x80;
      /* Reserved bits that objdump checks before the opcode.  */
      if ((p[0] & 0x08) || map == 0 || map == 4 || map == 7)
        {
          in->lone = true;
          return true;
        }
      if (!(p[1] & 0x04))
        {
          in->len -= 2;  /* "(bad)" after the first payload byte */
          return true;
        }
      break;
    }
  if ((op = peek (in)) < 0)
    return false;
  in->len++;
  if (escape == 0x8f && !xop_known (map, op))
    return true;  /* "(bad)" */
  return take_form (in, map_form (map, op, escape != 0x62));
}

/* The 3DNow! opcodes, which follow their operands (0f 0f ModRM ... op).  */
static bool
is_3dnow (int op)
{
  static const unsigned char ops[] = {
    0x0c, 0x0d, 0x1c, 0x1d, 0x8a, 0x8e, 0x90, 0x94, 0x96, 0x97, 0x9a, 0x9e,
    0xa0, 0xa4, 0xa6, 0xa7, 0xaa, 0xae, 0xb0, 0xb4, 0xb6, 0xb7, 0xbb, 0xbf
  };

  for (size_t i = 0; i < sizeof ops; i++)
    if (ops[i] == op)
      return true;
  return false;
}

/* The rest of an instruction of the 0f map, from its second byte.  */
static bool
take_two_byte (Insn *in)
{
  int op = peek (in), modrm;

  if (op < 0)
    return false;
  in->len++;
  modrm = peek (in);
  if (modrm >= 0 && bad_two_byte (op, modrm, in->rep))
    return true;
  switch (op)
    {
    case 0x0f:
      if (!take_modrm (in) || !take (in, 1))
        return false;
      in->lone = !is_3dnow (in->code[in->len - 1]);
      return true;
    case 0x38:
      return take (in, 1) && take_modrm (in);
    case 0x3a:
      return take (in, 1) && take_modrm (in) && take (in, 1);
    case 0xa6:
    case 0xa7:
      /* VIA PadLock: a few register forms.  */
      if (modrm < 0)
        return false;
      if ((op == 0xa6 && (modrm == 0xc0 || modrm == 0xc8 || modrm == 0xd0))
          || (op == 0xa7 && modrm >= 0xc0 && modrm <= 0xe8 && (modrm & 7) == 0))
        return take (in, 1);
      in->lone = (modrm >> 6) != 3;
      return true;
    case 0x78:
      /* SSE4a extrq/insertq with two immediates; else vmread.  */
      if (in->opsize16 || in->rep == 0xf2)
        return take_modrm (in) && take (in, 2);
      return take_modrm (in);
    default:
      return take_form (in, two_byte[op]);
    }
}

static bool
is_legacy_prefix (int b)
{
  switch (b)
    {
    case 0x66: case 0x67: case 0xf0: case 0xf2: case 0xf3:
    case 0x2e: case 0x36: case 0x3e: case 0x26: case 0x64: case 0x65:
      return true;
    default:
      return false;
    }
}

/* The instruction after the prefixes, the opcode being at in->len.  */
static bool
take_opcode (Insn *in)
{
  int op = peek (in), next;

  in->len++;
  next = peek (in);
  if (next >= 0 && bad_one_byte (op, next, in->mode64))
    return true;
  switch (op)
    {
    case 0x0f:
      return take_two_byte (in);
    case 0xc4: case 0xc5: case 0x62:
      /* Outside 64-bit mode these are LES, LDS and BOUND unless the
         next byte could not be their ModRM (a register operand).  */
      if (next < 0)
        return false;
      if (!in->mode64 && (next >> 6) != 3)
        return take_modrm (in);
      return take_vex (in, op);
    case 0x8f:
      if (next < 0)
        return false;
      return is_xop (next) ? take_vex (in, op) : take_modrm (in);
    case 0xf6: case 0xf7:
      /* Group 3: test (/0, /1) has an immediate, the others none.  */
      if (!take_modrm (in))
        return false;
      if (((next >> 3) & 7) > 1)
        return true;
      return take (in, op == 0xf6 ? 1 : immz (in));
    default:
      return take_form (in, one_byte[op]);
    }
}

size_t
x86_insn_length (const unsigned char *code, size_t avail, bool mode64,
                 size_t *opcode_at)
{
  Insn in = { .code = code, .avail = avail, .mode64 = mode64 };
  size_t fwait_end = 0;
  int op;

  *opcode_at = 0;
  if (avail == 0)
    return 0;
  /* fwait (0x9b) goes with the prefixes: objdump shows it with the x87
     instruction that follows, and alone (with the prefixes before it)
     when none does.  */
  while ((op = peek (&in)) >= 0 && (is_legacy_prefix (op) || op == 0x9b))
    {
      if (op == 0x66)
        in.opsize16 = true;
      else if (op == 0x67)
        in.addr_alt = true;
      else if (op == 0xf2 || op == 0xf3)
        in.rep = (unsigned char) op;
      else if (op == 0x9b && !fwait_end)
        fwait_end = in.len + 1;
      in.len++;
      /* Fifteen bytes at most: objdump stops at fourteen prefixes.  */
      if (in.len == 14)
        return 14;
    }
  if (mode64 && op >= 0x40 && op <= 0x4f)
    {
      in.rex_w = op & 8;
      in.len++;
      op = peek (&in);
      /* A REX prefix not right before the opcode stands alone (after an
         fwait, which stands alone first).  */
      if (op >= 0 && (is_legacy_prefix (op) || op == 0x9b
                      || (op >= 0x40 && op <= 0x4f)))
        return fwait_end ? fwait_end : in.len;
    }
  if (fwait_end && !(op >= 0xd8 && op <= 0xdf))
    return fwait_end;
  *opcode_at = in.len;
  /* Cut off by the end of the bytes: objdump shows the first byte alone
     and goes on from the next.  */
  if (op < 0 || !take_opcode (&in))
    {
      *opcode_at = 0;
      return 1;
    }
  return in.lone ? *opcode_at + 1 : in.len;
}
