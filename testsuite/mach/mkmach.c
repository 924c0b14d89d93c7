/* mkmach.c - write executables of foreign architectures and their profile
   files, to test the static call graph (-c) scanners without a cross
   compiler.

   Usage: mkmach DIR

   For every scenario in the table at the end it writes DIR/NAME (a minimal
   ELF executable) and DIR/NAME.gmon (a GNU-format profile file), and lists
   NAME in DIR/scenarios, one a line.

   The executables hold a .text section of hand-assembled instructions
   (and for some an .init section before it), a .symtab of function
   symbols and the string tables; nothing else is needed by gprof.  Each scenario places its functions and instructions
   with the small assembler below; labels may be used before they are
   defined because every scenario is laid out twice, the second time with
   the addresses found by the first (encodings have fixed sizes, so the
   layout does not change between the passes).

   The profile files have one histogram record (it decides where -c looks
   for calls and which call targets it accepts), a few samples, and a few
   arcs: without arcs gprof prints no call graph at all.  Everything is in
   the executable's byte order and address size.

   Each scenario ends with a function past the end of the histogram: for
   the last symbol of its table GNU gprof reads past the table, both when
   it credits samples and when it scans for calls, so what it does there
   is not worth comparing.  */

#include <elf.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gmon_out.h"

#define TEXT_MAX 0x4000
#define MAX_SYMS 16
#define MAX_ARCS 16
#define MAX_TICKS 16

static void
die (const char *fmt, ...)
{
  va_list ap;

  fputs ("mkmach: ", stderr);
  va_start (ap, fmt);
  vfprintf (stderr, fmt, ap);
  va_end (ap);
  fputc ('\n', stderr);
  exit (1);
}

/* ---- the image being assembled ------------------------------------------ */

typedef struct Target
{
  int elf_class;                /* ELFCLASS32 or ELFCLASS64 */
  int big_endian;
  uint16_t machine;
} Target;

static const Target mips_be = { ELFCLASS32, 1, EM_MIPS };
static const Target mips_le = { ELFCLASS32, 0, EM_MIPS };
static const Target mips64 = { ELFCLASS64, 1, EM_MIPS };
static const Target sparc32 = { ELFCLASS32, 1, EM_SPARC };
static const Target sparc64 = { ELFCLASS64, 1, EM_SPARCV9 };
static const Target alpha = { ELFCLASS64, 0, EM_ALPHA };
static const Target aarch64 = { ELFCLASS64, 0, EM_AARCH64 };
static const Target vax = { ELFCLASS32, 0, EM_VAX };

/* A function symbol.  */
typedef struct Label
{
  const char *name;
  uint64_t addr;
} Label;

typedef struct Image
{
  const Target *t;
  uint64_t vma;                 /* of .text */
  unsigned char text[TEXT_MAX];
  size_t len;
  /* An .init section of that many bytes right before .text, or 0.  */
  size_t init_len;

  Label labels[MAX_SYMS];
  int nlabels;
  const Label *prev;            /* the first pass's labels, or NULL */
  int nprev;

  /* The histogram covers [hist_lo, hist_hi).  */
  uint64_t hist_lo, hist_hi;
  struct { uint64_t from, to; uint32_t count; } arcs[MAX_ARCS];
  int narcs;
  struct { uint64_t pc; unsigned count; } ticks[MAX_TICKS];
  int nticks;
} Image;

static uint64_t
here (const Image *img)
{
  return img->vma + img->len;
}

/* The address of label NAME: from the first pass, 0 during it.  */
static uint64_t
L (const Image *img, const char *name)
{
  if (!img->prev)
    return 0;
  for (int i = 0; i < img->nprev; i++)
    if (strcmp (img->prev[i].name, name) == 0)
      return img->prev[i].addr;
  die ("undefined label %s", name);
  return 0;
}

/* A function symbol at ADDR, e.g. inside the word just written.  */
static void
fn_at (Image *img, const char *name, uint64_t addr)
{
  if (img->nlabels == MAX_SYMS)
    die ("too many labels");
  img->labels[img->nlabels++] = (Label) { name, addr };
}

/* A function symbol at the current position.  */
static void
fn (Image *img, const char *name)
{
  fn_at (img, name, here (img));
}

/* An .init section of LEN bytes (zeros) before .text, holding _init at
   its start, as in a linked program: the code at the start of .text up
   to its first function symbol then belongs to _init.  */
static void
init_section (Image *img, size_t len)
{
  img->init_len = len;
  fn_at (img, "_init", img->vma - len);
}

static void
byte (Image *img, unsigned v)
{
  if (img->len == TEXT_MAX)
    die ("text too long");
  img->text[img->len++] = (unsigned char) v;
}

static void
put_uint (unsigned char *p, uint64_t v, int size, int big_endian)
{
  for (int i = 0; i < size; i++)
    p[big_endian ? size - 1 - i : i] = (unsigned char) (v >> (8 * i));
}

static void
word (Image *img, uint32_t v)
{
  unsigned char b[4];

  put_uint (b, v, 4, img->t->big_endian);
  for (int i = 0; i < 4; i++)
    byte (img, b[i]);
}

/* Fill with FILL words up to offset OFF of .text.  */
static void
org (Image *img, size_t off, uint32_t fill)
{
  while (img->len + 4 <= off)
    word (img, fill);
  while (img->len < off)
    byte (img, 0);
}

static void
arc (Image *img, uint64_t from, uint64_t to, uint32_t count)
{
  if (img->narcs == MAX_ARCS)
    die ("too many arcs");
  img->arcs[img->narcs].from = from;
  img->arcs[img->narcs].to = to;
  img->arcs[img->narcs++].count = count;
}

static void
tick (Image *img, uint64_t pc, unsigned count)
{
  if (img->nticks == MAX_TICKS)
    die ("too many samples");
  img->ticks[img->nticks].pc = pc;
  img->ticks[img->nticks++].count = count;
}

/* ---- output --------------------------------------------------------------- */

typedef struct Buf
{
  unsigned char *p;
  size_t len, cap;
  const Target *t;
} Buf;

static void
put (Buf *b, const void *src, size_t n)
{
  if (b->len + n > b->cap)
    {
      b->cap = (b->len + n) * 2;
      b->p = realloc (b->p, b->cap);
      if (!b->p)
        die ("out of memory");
    }
  memcpy (b->p + b->len, src, n);
  b->len += n;
}

static void
put_n (Buf *b, uint64_t v, int size)
{
  unsigned char tmp[8];

  put_uint (tmp, v, size, b->t->big_endian);
  put (b, tmp, (size_t) size);
}

static void
put_addr (Buf *b, uint64_t v)
{
  put_n (b, v, b->t->elf_class == ELFCLASS64 ? 8 : 4);
}

static void
put_zeros (Buf *b, size_t n)
{
  static const unsigned char zeros[64];

  while (n > 0)
    {
      size_t k = n < sizeof zeros ? n : sizeof zeros;
      put (b, zeros, k);
      n -= k;
    }
}

static void
align (Buf *b, size_t a)
{
  put_zeros (b, (a - b->len % a) % a);
}

static void
write_file (const char *dir, const char *name, const char *suffix, const Buf *b)
{
  char path[4096];
  FILE *f;

  snprintf (path, sizeof path, "%s/%s%s", dir, name, suffix);
  f = fopen (path, "wb");
  if (!f || fwrite (b->p, 1, b->len, f) != b->len || fclose (f) != 0)
    die ("cannot write %s", path);
}

/* Section header fields, in the order both ELF classes list them (the
   64-bit one only widens flags, addr, offset, size and entsize).  */
static void
put_shdr (Buf *b, uint32_t name, uint32_t type, uint64_t flags,
          uint64_t addr, uint64_t offset, uint64_t size, uint32_t link,
          uint32_t info, uint64_t addralign, uint64_t entsize)
{
  put_n (b, name, 4);
  put_n (b, type, 4);
  put_addr (b, flags);
  put_addr (b, addr);
  put_addr (b, offset);
  put_addr (b, size);
  put_n (b, link, 4);
  put_n (b, info, 4);
  put_addr (b, addralign);
  put_addr (b, entsize);
}

static void
put_sym (Buf *b, uint32_t name, uint64_t value, uint16_t shndx)
{
  unsigned char info = ELF32_ST_INFO (STB_GLOBAL, STT_FUNC);

  put_n (b, name, 4);
  if (b->t->elf_class == ELFCLASS64)
    {
      put (b, &info, 1);
      put_zeros (b, 1);         /* st_other */
      put_n (b, shndx, 2);
      put_n (b, value, 8);
      put_n (b, 0, 8);          /* st_size */
    }
  else
    {
      put_n (b, value, 4);
      put_n (b, 0, 4);          /* st_size */
      put (b, &info, 1);
      put_zeros (b, 1);
      put_n (b, shndx, 2);
    }
}

static void
write_elf (const char *dir, const char *name, const Image *img)
{
  static const char shstrtab[] = "\0.text\0.symtab\0.strtab\0.shstrtab\0.init";
  enum { SH_TEXT = 1, SH_SYMTAB = 7, SH_STRTAB = 15, SH_SHSTRTAB = 23,
         SH_INIT = 33 };
  /* Section numbers: the .init section, if any, comes last.  */
  enum { TEXT_INDEX = 1, INIT_INDEX = 5 };
  const int is64 = img->t->elf_class == ELFCLASS64;
  const size_t ehsize = is64 ? 64 : 52, shentsize = is64 ? 64 : 40;
  const size_t symentsize = is64 ? 24 : 16;
  Buf b = { NULL, 0, 0, img->t }, strtab = { NULL, 0, 0, img->t };
  size_t text_off, init_off, symtab_off, strtab_off, shstrtab_off, shoff;
  int nsyms = 1;
  unsigned char ident[EI_NIDENT] = { ELFMAG0, ELFMAG1, ELFMAG2, ELFMAG3 };

  ident[EI_CLASS] = (unsigned char) img->t->elf_class;
  ident[EI_DATA] = img->t->big_endian ? ELFDATA2MSB : ELFDATA2LSB;
  ident[EI_VERSION] = EV_CURRENT;
  put (&b, ident, sizeof ident);
  put_n (&b, ET_EXEC, 2);
  put_n (&b, img->t->machine, 2);
  put_n (&b, EV_CURRENT, 4);
  put_addr (&b, img->vma);      /* e_entry */
  put_addr (&b, 0);             /* e_phoff */
  put_addr (&b, 0);             /* e_shoff, patched below */
  put_n (&b, 0, 4);             /* e_flags */
  put_n (&b, ehsize, 2);
  put_n (&b, 0, 2);             /* e_phentsize */
  put_n (&b, 0, 2);             /* e_phnum */
  put_n (&b, shentsize, 2);
  put_n (&b, img->init_len ? 6 : 5, 2); /* e_shnum */
  put_n (&b, 4, 2);             /* e_shstrndx */

  align (&b, 16);
  text_off = b.len;
  put (&b, img->text, img->len);
  init_off = b.len;
  put_zeros (&b, img->init_len);

  put_zeros (&strtab, 1);
  align (&b, 8);
  symtab_off = b.len;
  put_zeros (&b, symentsize);   /* symbol 0 */
  for (int i = 0; i < img->nlabels; i++)
    {
      uint64_t addr = img->labels[i].addr;

      put_sym (&b, (uint32_t) strtab.len, addr, addr < img->vma ? INIT_INDEX : TEXT_INDEX);
      put (&strtab, img->labels[i].name, strlen (img->labels[i].name) + 1);
      nsyms++;
    }
  strtab_off = b.len;
  put (&b, strtab.p, strtab.len);
  shstrtab_off = b.len;
  put (&b, shstrtab, sizeof shstrtab);

  align (&b, 8);
  shoff = b.len;
  put_shdr (&b, 0, SHT_NULL, 0, 0, 0, 0, 0, 0, 0, 0);
  put_shdr (&b, SH_TEXT, SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, img->vma,
            text_off, img->len, 0, 0, 4, 0);
  put_shdr (&b, SH_SYMTAB, SHT_SYMTAB, 0, 0, symtab_off,
            (uint64_t) nsyms * symentsize, 3, 1, 8, symentsize);
  put_shdr (&b, SH_STRTAB, SHT_STRTAB, 0, 0, strtab_off, strtab.len,
            0, 0, 1, 0);
  put_shdr (&b, SH_SHSTRTAB, SHT_STRTAB, 0, 0, shstrtab_off,
            sizeof shstrtab, 0, 0, 1, 0);
  if (img->init_len)
    put_shdr (&b, SH_INIT, SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR,
              img->vma - img->init_len, init_off, img->init_len, 0, 0, 1, 0);
  put_uint (b.p + (is64 ? 40 : 32), shoff, is64 ? 8 : 4, img->t->big_endian);

  write_file (dir, name, "", &b);
  free (b.p);
  free (strtab.p);
}

/* One histogram record over [lo, hi) in 4-byte bins, then the arcs.  */
static void
write_gmon (const char *dir, const char *name, const Image *img)
{
  uint64_t lo = img->hist_lo, hi = img->hist_hi;
  uint32_t nbins = (uint32_t) ((hi - lo) / 4);
  Buf b = { NULL, 0, 0, img->t };
  char dimen[GMON_HIST_DIMEN_LEN] = "seconds";
  unsigned char tag;

  put (&b, GMON_MAGIC, GMON_MAGIC_LEN);
  put_n (&b, GMON_VERSION, 4);
  put_zeros (&b, GMON_HEADER_SIZE - GMON_MAGIC_LEN - 4);

  tag = GMON_TAG_TIME_HIST;
  put (&b, &tag, 1);
  put_addr (&b, lo);
  put_addr (&b, hi);
  put_n (&b, nbins, 4);
  put_n (&b, 100, 4);           /* samples per second */
  put (&b, dimen, sizeof dimen);
  put (&b, "s", 1);
  for (uint32_t i = 0; i < nbins; i++)
    {
      unsigned count = 0;

      for (int k = 0; k < img->nticks; k++)
        if ((img->ticks[k].pc - lo) / 4 == i)
          count += img->ticks[k].count;
      put_n (&b, count, 2);
    }

  tag = GMON_TAG_CG_ARC;
  for (int i = 0; i < img->narcs; i++)
    {
      put (&b, &tag, 1);
      put_addr (&b, img->arcs[i].from);
      put_addr (&b, img->arcs[i].to);
      put_n (&b, img->arcs[i].count, 4);
    }
  write_file (dir, name, ".gmon", &b);
  free (b.p);
}

/* ---- MIPS ------------------------------------------------------------------ */

#define MIPS_NOP 0x00000000
#define MIPS_JR_RA 0x03e00008

static void
mips_jal (Image *img, uint64_t target)
{
  word (img, 0x0c000000 | (uint32_t) ((target >> 2) & 0x03ffffff));
}

static void
mips_jalr (Image *img, unsigned rd, unsigned rs)
{
  word (img, rs << 21 | rd << 11 | 0x09);
}

static void
build_mips (Image *img)
{
  fn (img, "main");
  mips_jal (img, L (img, "helper"));         /* forward */
  word (img, MIPS_NOP);
  mips_jalr (img, 31, 25);                   /* jalr $t9: indirect */
  word (img, MIPS_NOP);
  mips_jal (img, L (img, "helper") + 4);     /* into a function: no symbol */
  mips_jal (img, L (img, "outside"));        /* beyond the histogram */
  word (img, 0x04110000 | (uint32_t) ((L (img, "leaf") - here (img) - 4) >> 2 & 0xffff)); /* bal: not looked for */
  word (img, 0x08000000 | (uint32_t) (L (img, "leaf") >> 2 & 0x03ffffff)); /* j: not a call */
  word (img, MIPS_JR_RA);
  word (img, MIPS_NOP);

  fn (img, "helper");
  mips_jal (img, L (img, "main"));           /* backward */
  word (img, 0x0320fc09);                    /* jalr.hb $t9: GNU ignores bits 10..6 */
  mips_jal (img, L (img, "leaf"));
  word (img, MIPS_JR_RA);
  word (img, MIPS_NOP);

  fn (img, "leaf");
  mips_jal (img, L (img, "leaf"));           /* recursion */
  word (img, MIPS_JR_RA);
  word (img, MIPS_NOP);
  mips_jal (img, L (img, "helper"));         /* a literal word that reads as a jal */
  word (img, MIPS_NOP);

  /* A function at an address that is no multiple of 4: GNU reads the
     words from its first byte on.  */
  word (img, MIPS_NOP);
  byte (img, 0);
  byte (img, 0);
  fn (img, "odd");
  mips_jal (img, L (img, "main"));
  mips_jalr (img, 2, 25);                    /* jalr $v0,$t9: not a call to GNU */
  word (img, MIPS_JR_RA);
  byte (img, 0);
  byte (img, 0);

  fn (img, "last");
  mips_jalr (img, 31, 4);
  mips_jal (img, L (img, "odd"));            /* odd rounded down: no symbol */
  mips_jal (img, L (img, "main"));
  word (img, MIPS_JR_RA);
  word (img, MIPS_NOP);
  img->hist_lo = img->vma;
  img->hist_hi = here (img);

  fn (img, "outside");
  word (img, MIPS_JR_RA);
  word (img, MIPS_NOP);

  tick (img, L (img, "main") + 4, 3);
  tick (img, L (img, "helper"), 2);
  tick (img, L (img, "leaf"), 1);
  arc (img, L (img, "main") + 8, L (img, "helper"), 2);
  arc (img, L (img, "helper") + 8, L (img, "leaf"), 1);
}

/* Across the boundary of a 256 MiB region: JAL keeps the top bits of the
   PC, and GNU takes them from the JAL itself, not from its delay slot.  */
static void
build_mips_region (Image *img)             /* at 0x0fffffe0 */
{
  fn (img, "below");
  word (img, MIPS_NOP);
  mips_jal (img, L (img, "below"));
  while (here (img) < 0x0ffffff8)
    word (img, MIPS_NOP);
  mips_jalr (img, 31, 25);
  mips_jal (img, L (img, "above"));          /* at 0x0ffffffc: region 0 */
  word (img, MIPS_NOP);                      /* at 0x10000000 */
  word (img, MIPS_JR_RA);

  fn (img, "above");
  mips_jal (img, L (img, "above"));
  mips_jal (img, L (img, "below"));          /* region 1 */
  word (img, MIPS_JR_RA);
  word (img, MIPS_NOP);
  img->hist_lo = img->vma;
  img->hist_hi = here (img);

  fn (img, "outside");
  word (img, MIPS_JR_RA);
  word (img, MIPS_NOP);

  tick (img, L (img, "below"), 2);
  tick (img, L (img, "above"), 1);
  arc (img, L (img, "above") + 4, L (img, "below"), 1);
}

/* Calls in the code at the start of .text, before main: _init's, for
   _init is the symbol before it (see init_section).  _init starts 2
   bytes past a multiple of 4, and GNU steps from there: it reads .text
   at that misalignment, where the first call is placed.  */
static void
build_mips_init (Image *img)
{
  init_section (img, 0x22);
  byte (img, 0);
  byte (img, 0);
  mips_jal (img, L (img, "helper"));
  mips_jalr (img, 31, 25);
  byte (img, 0);
  byte (img, 0);
  mips_jal (img, L (img, "main"));           /* aligned: read astride */
  word (img, MIPS_JR_RA);

  fn (img, "main");
  mips_jal (img, L (img, "helper"));
  word (img, MIPS_NOP);
  word (img, MIPS_JR_RA);
  word (img, MIPS_NOP);

  fn (img, "helper");
  mips_jal (img, L (img, "main"));
  word (img, MIPS_JR_RA);
  word (img, MIPS_NOP);
  img->hist_lo = img->vma - 0x40;
  img->hist_hi = here (img);

  fn (img, "outside");
  word (img, MIPS_JR_RA);
  word (img, MIPS_NOP);

  tick (img, img->vma + 4, 1);
  tick (img, L (img, "main"), 2);
  arc (img, L (img, "main") + 4, L (img, "helper"), 1);
}

/* ---- SPARC ------------------------------------------------------------------ */

#define SPARC_NOP 0x01000000
#define SPARC_SAVE 0x9de3bfa0           /* save %sp, -96, %sp */
#define SPARC_RET 0x81c7e008            /* jmpl %i7 + 8, %g0 */
#define SPARC_RESTORE 0x81e80000
#define SPARC_RETL 0x81c3e008           /* jmpl %o7 + 8, %g0 */

/* CALL TARGET, as an assembler encodes it: a word displacement.  */
static void
sparc_call (Image *img, uint64_t target)
{
  word (img, 0x40000000 | (uint32_t) ((target - here (img)) >> 2 & 0x3fffffff));
}

/* A word in instruction format OP (1 = CALL, 2 = arithmetic, 3 = load
   and store) whose low 30 bits are DEST - PC: what GNU reads as a call
   to DEST, whatever the format.  */
static void
sparc_gnu_call (Image *img, uint32_t op, uint64_t dest)
{
  word (img, op << 30 | (uint32_t) ((dest - here (img)) & 0x3fffffff));
}

static void
build_sparc (Image *img)
{
  fn (img, "main");
  word (img, SPARC_SAVE);
  sparc_call (img, L (img, "far"));     /* GNU: to quarter, see far */
  word (img, SPARC_NOP);
  sparc_call (img, L (img, "helper"));  /* GNU: into main, no symbol */
  word (img, SPARC_NOP);
  sparc_gnu_call (img, 2, L (img, "tiny"));
  sparc_gnu_call (img, 1, L (img, "helper") + 4); /* no function start */
  sparc_gnu_call (img, 1, L (img, "outside"));    /* beyond the histogram */
  /* ba helper: format 0 is never a call.  */
  word (img, 0x10800000 | (uint32_t) ((L (img, "helper") - here (img)) >> 2 & 0x3fffff));
  word (img, SPARC_RET);
  word (img, SPARC_RESTORE);

  org (img, 0x40, SPARC_NOP);
  fn (img, "quarter");
  word (img, SPARC_RETL);
  word (img, SPARC_NOP);

  fn (img, "tiny");
  sparc_gnu_call (img, 3, L (img, "quarter"));    /* backward */
  sparc_gnu_call (img, 1, L (img, "main"));
  sparc_gnu_call (img, 1, L (img, "tiny"));       /* itself */
  word (img, SPARC_RETL);
  word (img, SPARC_NOP);

  fn (img, "helper");
  word (img, SPARC_SAVE);
  sparc_call (img, L (img, "tiny"));
  word (img, SPARC_NOP);
  word (img, SPARC_RET);
  word (img, SPARC_RESTORE);
  /* A function at an address that is no multiple of 4, in the middle of
     a word that helper's scan reads: GNU starts odd's at the next
     multiple.  */
  sparc_gnu_call (img, 1, L (img, "main"));
  fn_at (img, "odd", here (img) - 2);
  sparc_gnu_call (img, 1, L (img, "tiny"));
  word (img, SPARC_RETL);
  word (img, SPARC_NOP);

  /* far is where the call in main really goes; GNU, without scaling the
     displacement, sees a call to main + 4 + (far - main - 4) / 4.  */
  org (img, 0x04 + (0x40 - 0x04) * 4, SPARC_NOP);
  fn (img, "far");
  sparc_gnu_call (img, 2, L (img, "far") - 0x20);  /* negative, no symbol */
  word (img, SPARC_RETL);
  word (img, SPARC_NOP);
  img->hist_lo = img->vma;
  img->hist_hi = here (img);

  fn (img, "outside");
  word (img, SPARC_RETL);
  word (img, SPARC_NOP);

  tick (img, L (img, "main") + 4, 3);
  tick (img, L (img, "helper"), 2);
  tick (img, L (img, "tiny"), 1);
  arc (img, L (img, "main") + 12, L (img, "helper"), 2);
  arc (img, L (img, "helper") + 4, L (img, "tiny"), 1);
}

/* Calls in the code at the start of .text, before main: _init's (see
   init_section).  _init starts 2 bytes past a multiple of 4; GNU rounds
   up and reads .text from its start.  */
static void
build_sparc_init (Image *img)
{
  init_section (img, 0x22);
  sparc_gnu_call (img, 1, L (img, "helper"));
  word (img, SPARC_NOP);
  sparc_gnu_call (img, 1, L (img, "main"));
  word (img, SPARC_RETL);

  fn (img, "main");
  word (img, SPARC_SAVE);
  sparc_gnu_call (img, 1, L (img, "helper"));
  word (img, SPARC_NOP);
  word (img, SPARC_RET);
  word (img, SPARC_RESTORE);

  fn (img, "helper");
  word (img, SPARC_RETL);
  word (img, SPARC_NOP);
  img->hist_lo = img->vma - 0x40;
  img->hist_hi = here (img);

  fn (img, "outside");
  word (img, SPARC_RETL);
  word (img, SPARC_NOP);

  tick (img, img->vma + 4, 1);
  tick (img, L (img, "main"), 2);
  arc (img, L (img, "main") + 4, L (img, "helper"), 1);
}

/* ---- Alpha ------------------------------------------------------------------ */

#define ALPHA_NOP 0x47ff041f            /* bis $31, $31, $31 */
#define ALPHA_RET 0x6bfa8001            /* ret $31, ($26), 1 */
#define ALPHA_JSR 0x6b5b4000            /* jsr $26, ($27) */
#define ALPHA_JSR_COROUTINE 0x6b5bc000  /* jsr_coroutine $26, ($27) */
#define ALPHA_JMP 0x6bfb0000            /* jmp $31, ($27) */

/* BSR $26, TARGET, as an assembler encodes it: a word displacement.  */
static void
alpha_bsr (Image *img, uint64_t target)
{
  word (img, 0xd3400000 | (uint32_t) ((target - here (img) - 4) >> 2 & 0x1fffff));
}

/* A BSR that GNU, which does not scale the displacement, reads as a call
   to DEST.  */
static void
alpha_gnu_bsr (Image *img, uint64_t dest)
{
  word (img, 0xd3400000 | (uint32_t) ((dest - here (img) - 4) & 0x1fffff));
}

static void
build_alpha (Image *img)
{
  /* pre begins before the histogram.  */
  fn (img, "pre");
  word (img, ALPHA_NOP);
  word (img, ALPHA_NOP);
  word (img, ALPHA_NOP);
  word (img, ALPHA_RET);

  fn (img, "main");
  alpha_gnu_bsr (img, L (img, "helper"));
  alpha_gnu_bsr (img, L (img, "twin2") + 8);   /* GNU's "dest - 8" */
  /* pre starts outside the histogram: only pre + 8 is a call to it.  */
  alpha_gnu_bsr (img, L (img, "pre") + 4);
  alpha_gnu_bsr (img, L (img, "pre") + 8);
  alpha_gnu_bsr (img, L (img, "pre") + 12);
  alpha_gnu_bsr (img, L (img, "twin") + 8);    /* but twin2 starts at twin + 4 */
  alpha_gnu_bsr (img, L (img, "edge") + 8);    /* edge + 8 is past the histogram */
  alpha_gnu_bsr (img, L (img, "outside"));
  alpha_bsr (img, L (img, "helper"));          /* the real thing */
  word (img, ALPHA_JSR);
  word (img, 0xc3e00000 | (uint32_t) ((L (img, "helper") - here (img) - 4) >> 2 & 0x1fffff)); /* br */
  word (img, ALPHA_RET);

  fn (img, "helper");
  word (img, ALPHA_NOP);
  word (img, ALPHA_NOP);
  word (img, ALPHA_NOP);
  alpha_gnu_bsr (img, L (img, "main"));        /* backward */
  alpha_gnu_bsr (img, L (img, "main") + 8);
  word (img, 0x6b5b4123);                      /* jsr with another hint */
  word (img, ALPHA_RET);

  fn (img, "twin");
  word (img, ALPHA_JSR_COROUTINE);
  fn (img, "twin2");
  word (img, ALPHA_NOP);
  word (img, ALPHA_NOP);
  word (img, ALPHA_RET);

  /* A function at an address that is no multiple of 4, in the middle of
     a word that twin2's scan reads: GNU starts odd's at the next
     multiple.  */
  alpha_gnu_bsr (img, L (img, "helper"));
  fn_at (img, "odd", here (img) - 2);
  alpha_gnu_bsr (img, L (img, "twin"));
  word (img, ALPHA_RET);

  fn (img, "edge");
  word (img, ALPHA_JMP);                       /* neither JMP nor RET is a call */
  word (img, ALPHA_RET);
  img->hist_lo = L (img, "pre") + 4;
  img->hist_hi = here (img);

  fn (img, "outside");
  word (img, ALPHA_NOP);
  word (img, ALPHA_RET);

  tick (img, L (img, "main") + 4, 3);
  tick (img, L (img, "helper"), 2);
  tick (img, L (img, "twin2"), 1);
  arc (img, L (img, "main") + 4, L (img, "helper"), 2);
  arc (img, L (img, "helper") + 4, L (img, "twin2"), 1);
}

/* Calls in the code at the start of .text, before main: _init's (see
   init_section).  _init starts 2 bytes past a multiple of 4; GNU rounds
   up and reads .text from its start.  */
static void
build_alpha_init (Image *img)
{
  init_section (img, 0x22);
  alpha_gnu_bsr (img, L (img, "helper"));
  word (img, ALPHA_JSR);
  alpha_gnu_bsr (img, L (img, "main"));
  word (img, ALPHA_RET);

  fn (img, "main");
  alpha_gnu_bsr (img, L (img, "helper"));
  word (img, ALPHA_RET);

  fn (img, "helper");
  word (img, ALPHA_NOP);
  word (img, ALPHA_RET);
  img->hist_lo = img->vma - 0x40;
  img->hist_hi = here (img);

  fn (img, "outside");
  word (img, ALPHA_NOP);
  word (img, ALPHA_RET);

  tick (img, img->vma + 4, 1);
  tick (img, L (img, "main"), 2);
  arc (img, L (img, "main"), L (img, "helper"), 1);
}

/* ---- AArch64 ------------------------------------------------------------- */

#define AARCH64_NOP 0xd503201f
#define AARCH64_RET 0xd65f03c0

/* BL TARGET, or B TARGET (GNU takes both for calls).  */
static void
aarch64_branch (Image *img, bool link, uint64_t target)
{
  word (img, (link ? 0x94000000 : 0x14000000)
        | (uint32_t) ((target - here (img)) >> 2 & 0x03ffffff));
}

/* Calls in the code at the start of .text, before main: _init's (see
   init_section).  _init starts 2 bytes past a multiple of 4, and GNU
   steps from there: it reads .text at that misalignment, where the first
   calls are placed (to odd, at the same misalignment, as a branch read
   there can only reach).  The programs compilers make are in
   testsuite/cross and testsuite/staticcg.  */
static void
build_aarch64_init (Image *img)
{
  init_section (img, 0x22);
  byte (img, 0);
  byte (img, 0);
  aarch64_branch (img, true, L (img, "odd"));
  aarch64_branch (img, false, L (img, "odd"));
  byte (img, 0);
  byte (img, 0);
  aarch64_branch (img, true, L (img, "main"));  /* aligned: read astride */
  word (img, AARCH64_RET);

  fn (img, "main");
  aarch64_branch (img, true, L (img, "helper"));
  word (img, AARCH64_RET);

  fn (img, "helper");
  word (img, AARCH64_NOP);
  word (img, AARCH64_RET);
  byte (img, 0);
  byte (img, 0);
  fn (img, "odd");
  word (img, AARCH64_RET);
  byte (img, 0);
  byte (img, 0);
  img->hist_lo = img->vma - 0x40;
  img->hist_hi = here (img);

  fn (img, "outside");
  word (img, AARCH64_NOP);
  word (img, AARCH64_RET);

  tick (img, img->vma + 4, 1);
  tick (img, L (img, "main"), 2);
  arc (img, L (img, "main"), L (img, "helper"), 1);
}

/* ---- VAX -------------------------------------------------------------------- */

/* The multi-target BFD has no VAX support: it reads this as plain
   elf32-little of unknown architecture, and -c says it cannot scan it.  */
static void
build_vax (Image *img)
{
  fn (img, "main");
  byte (img, 0);                /* entry mask */
  byte (img, 0);
  byte (img, 0xfb);             /* calls $0, b^helper */
  byte (img, 0x00);
  byte (img, 0xaf);
  byte (img, (unsigned) (L (img, "helper") - here (img) - 1) & 0xff);
  byte (img, 0x04);             /* ret */
  fn (img, "helper");
  byte (img, 0);
  byte (img, 0);
  byte (img, 0x04);
  byte (img, 0x01);             /* nop */
  img->hist_lo = img->vma;
  img->hist_hi = here (img);

  fn (img, "outside");
  byte (img, 0);
  byte (img, 0);
  byte (img, 0x04);
  byte (img, 0x01);

  tick (img, L (img, "main") + 2, 3);
  tick (img, L (img, "helper"), 1);
  arc (img, L (img, "main") + 6, L (img, "helper"), 2);
}

/* ---- the scenarios ---------------------------------------------------------- */

typedef struct Scenario
{
  const char *name;
  const Target *t;
  uint64_t vma;
  void (*build) (Image *img);
} Scenario;

static const Scenario scenarios[] = {
  { "mips-be", &mips_be, 0x400000, build_mips },
  { "mips-le", &mips_le, 0x400000, build_mips },
  /* kseg0: MIPS ELF32 addresses are sign-extended to 64 bits, and GNU
     compares the histogram's bounds with a 32-bit address, so it finds
     no direct call at all, only the JALRs.  */
  { "mips-kseg0", &mips_be, 0x80001000, build_mips },
  { "mips64", &mips64, 0x400000, build_mips },
  { "mips-region", &mips_le, 0x0fffffe0, build_mips_region },
  { "sparc32", &sparc32, 0x10000, build_sparc },
  { "sparc64", &sparc64, 0x100000, build_sparc },
  { "alpha", &alpha, 0x10000, build_alpha },
  /* Where Alpha programs are linked: beyond 4 GiB, which GNU's 32-bit
     histogram test never accepts, so only the JSRs are found.  */
  { "alpha-high", &alpha, 0x120000000, build_alpha },
  /* Code before the first function of .text, where the linker puts the
     .cold parts of functions.  */
  { "mips-init", &mips_be, 0x400000, build_mips_init },
  { "mips-le-init", &mips_le, 0x400000, build_mips_init },
  { "sparc-init", &sparc32, 0x10000, build_sparc_init },
  { "alpha-init", &alpha, 0x10000, build_alpha_init },
  { "aarch64-init", &aarch64, 0x400000, build_aarch64_init },
  { "vax-unsupported", &vax, 0x10000, build_vax },
};

int
main (int argc, char **argv)
{
  char path[4096];
  FILE *list;

  if (argc != 2)
    {
      fputs ("usage: mkmach DIR\n", stderr);
      return 2;
    }
  snprintf (path, sizeof path, "%s/scenarios", argv[1]);
  list = fopen (path, "w");
  if (!list)
    die ("cannot write %s", path);
  for (size_t i = 0; i < sizeof scenarios / sizeof scenarios[0]; i++)
    {
      const Scenario *s = &scenarios[i];
      static Image first, img;

      memset (&first, 0, sizeof first);
      first.t = s->t;
      first.vma = s->vma;
      s->build (&first);
      memset (&img, 0, sizeof img);
      img.t = s->t;
      img.vma = s->vma;
      img.prev = first.labels;
      img.nprev = first.nlabels;
      s->build (&img);
      if (img.len != first.len)
        die ("%s: the layout changed between the passes", s->name);
      if (img.hist_hi <= img.hist_lo)
        die ("%s: no histogram", s->name);
      write_elf (argv[1], s->name, &img);
      write_gmon (argv[1], s->name, &img);
      fprintf (list, "%s\n", s->name);
    }
  if (fclose (list) != 0)
    die ("cannot write %s", path);
  return 0;
}
