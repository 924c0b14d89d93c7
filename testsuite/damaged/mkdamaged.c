/* mkdamaged.c - write the damaged inputs that run-damaged.sh feeds to
   gprof, with what gprof must answer for each.

   Usage: mkdamaged DIR
          mkdamaged --big DIR   the huge inputs of run-big.sh instead

   The executables and profile files are made with the fixture
   generator's writers: mkfixture.c is included whole, its main renamed.
   Each case is one line of DIR/cases:

       NAME CHECK STATUS COST ARG...

   CHECK says what is compared:
     exact  exit status STATUS, standard error exactly DIR/NAME.err, and
            nothing on standard output: the message is worked out here
            from the layout of the damaged file;
     gnu    everything GNU gprof 2.40 does (output, messages, status):
            damage that GNU handles well, where the answer is GNU's;
     ok     exit status 0 and no message: a file that is odd but valid,
            where GNU misbehaves (the output is not compared).
   COST is "costly" where GNU gprof would allocate gigabytes, hang or
   crash on the case, or where we deliberately answer otherwise
   (doc/differences.md): run-damaged.sh never compares those with GNU.
   Else "-".  ARG...
   is the command line after "gprof"; every ARG that names a file of DIR
   is an input of the case.

   Every message is GNU's wording, from doc/differences.md where GNU has
   none of its own.  */

int mkfixture_main (int argc, char **argv);
#define main mkfixture_main
#include "../fixtures/mkfixture.c"
#undef main

#include <inttypes.h>
#include <stdbool.h>
#include <unistd.h>

static const char *out_dir;
static FILE *case_list;
static unsigned ncases;

/* ---- cases ------------------------------------------------------------- */

/* One case: NAME, how it is checked, its expected status and (for
   "exact") standard error, whether GNU would allocate gigabytes on it,
   and its command line.  */
static void
add_case (const char *name, const char *check, int status, bool costly,
          const char *err, const char *fmt, ...)
{
  va_list ap;

  fprintf (case_list, "%s %s %d %s ", name, check, status,
           costly ? "costly" : "-");
  va_start (ap, fmt);
  vfprintf (case_list, fmt, ap);
  va_end (ap);
  fputc ('\n', case_list);
  if (err)
    {
      char file[256];

      snprintf (file, sizeof file, "%s.err", name);
      write_file (out_dir, file, err, strlen (err));
    }
  ncases++;
}

/* The text of a message, printf-style, in a buffer of its own.  */
static char *
msg (const char *fmt, ...)
{
  static char bufs[4][1024];
  static int next;
  char *b = bufs[next++ % 4];
  va_list ap;

  va_start (ap, fmt);
  vsnprintf (b, sizeof bufs[0], fmt, ap);
  va_end (ap);
  return b;
}

static void
write_buf (const char *name, const struct buf *b, size_t len)
{
  write_file (out_dir, name, b->p, len < b->len ? len : b->len);
}

/* ---- GNU files: what each byte belongs to ---------------------------- */

enum part { P_HEADER, P_HIST, P_BINS, P_ARC, P_BB_HEAD, P_BB_ENTRIES };

struct segment
{
  size_t start, end;      /* [start, end) of the file */
  enum part part;
  uint32_t nbins;         /* P_BINS: how many */
};

struct layout
{
  struct segment seg[32];
  int n;
};

static void
mark (struct layout *l, size_t start, size_t end, enum part part,
      uint32_t nbins)
{
  if (l->n == 32)
    die ("internal: layout too long");
  l->seg[l->n].start = start;
  l->seg[l->n].end = end;
  l->seg[l->n].part = part;
  l->seg[l->n].nbins = nbins;
  l->n++;
}

/* A histogram record of H, its header and bins marked in L.  */
static void
lay_hist (struct buf *b, struct layout *l, const struct hist *h)
{
  size_t start = b->len;

  put_gnu_hist_header (b, h);
  mark (l, start, b->len, P_HIST, 0);
  start = b->len;
  for (uint32_t i = 0; i < h->nbins; i++)
    put_u16 (b, h->bins[i]);
  mark (l, start, b->len, P_BINS, h->nbins);
}

/* The richest small GNU file: two histogram records over disjoint parts
   of .text, arcs between them, and if WITH_BB (on little-endian targets,
   where GNU reads their count right) a basic-block record.  */
static void
rich_gnu (struct buf *b, struct layout *l, const struct image *img,
          bool with_bb)
{
  static const struct arcdef arcs[] = {
    { "main", 0x04, "f1", 0, 3 }, { "f1", 0x04, "f2", 0, 2 },
    { "f2", 0x08, "leaf", 0, 70000 }, { NULL, 0, NULL, 0, 0 }
  };
  static const struct bbdef bbs[] = {
    { "f1", 0x00, 3 }, { "f1", 0x08, 2 }, { NULL, 0, 0 }
  };
  struct hist h1 = hist_new (where (img, "f1", 0), where (img, "f1", 0x40), 8);
  struct hist h2 = hist_new (where (img, "f3", 0), where (img, "f3", 0x40), 8);
  size_t start;

  hist_hit (&h1, where (img, "f1", 0x04), 7);
  hist_hit (&h1, where (img, "f1", 0x24), 2);
  hist_hit (&h2, where (img, "f3", 0x10), 5);
  put_gnu_header (b, 1);
  mark (l, 0, b->len, P_HEADER, 0);
  lay_hist (b, l, &h1);
  for (const struct arcdef *a = arcs; a->from; a++)
    {
      start = b->len;
      put_gnu_arc (b, where (img, a->from, a->from_off),
                   where (img, a->to, a->to_off), (uint32_t) a->count);
      mark (l, start, b->len, P_ARC, 0);
    }
  if (with_bb && !img->t->big_endian)
    {
      start = b->len;
      put_u8 (b, GMON_TAG_BB_COUNT);
      put_u32 (b, 2);
      mark (l, start, b->len, P_BB_HEAD, 0);
      start = b->len;
      for (const struct bbdef *p = bbs; p->sym; p++)
        {
          put_addr (b, where (img, p->sym, p->off));
          put_addr (b, p->count);
        }
      mark (l, start, b->len, P_BB_ENTRIES, 0);
    }
  lay_hist (b, l, &h2);
  hist_free (&h1);
  hist_free (&h2);
}

/* The rich file cut after every one of its bytes.  A cut between
   records leaves a valid file (GNU's answer); a cut inside one is
   reported as GNU reports it.  With -l, so that the basic blocks are
   read, not warned about.  */
static void
cut_series_gnu (const char *series, const char *image)
{
  const struct image *img = find_image (image);
  struct buf b = buf_new (img->t);
  struct layout l = { .n = 0 };

  /* The whole file, and one without basic blocks, for the cases that
     damage something else.  */
  {
    char good[64];
    struct buf plain = buf_new (img->t);
    struct layout ignored = { .n = 0 };

    rich_gnu (&plain, &ignored, img, false);
    snprintf (good, sizeof good, "plain-%s.gmon", image);
    write_buf (good, &plain, plain.len);
    buf_free (&plain);
  }
  rich_gnu (&b, &l, img, true);
  {
    char good[64];

    snprintf (good, sizeof good, "good-%s.gmon", image);
    write_buf (good, &b, b.len);
  }
  for (size_t cut = 0; cut < b.len; cut++)
    {
      char name[64], file[80];
      const struct segment *s = NULL;

      snprintf (name, sizeof name, "%s-%03zu", series, cut);
      snprintf (file, sizeof file, "%s.gmon", name);
      write_buf (file, &b, cut);
      for (int i = 0; i < l.n; i++)
        if (cut >= l.seg[i].start && cut < l.seg[i].end)
          s = &l.seg[i];
      if (!s || (cut == s->start && s->part != P_HEADER && s->part != P_BINS
                 && s->part != P_BB_ENTRIES))
        {
          add_case (name, "gnu", 0, false, NULL, "-b -l -i -p -q %s.elf %s",
                    image, file);
          continue;
        }
      switch (s->part)
        {
        case P_HEADER:
          add_case (name, "exact", 1, false,
                    msg ("%s: file too short to be a gmon file\n", file),
                    "-b -l %s.elf %s", image, file);
          break;
        case P_BINS:
          add_case (name, "exact", 1, false,
                    msg ("gprof: %s: unexpected EOF after reading %zu of %u samples\n",
                         file, (cut - s->start) / 2, s->nbins),
                    "-b -l %s.elf %s", image, file);
          break;
        case P_BB_ENTRIES:
          /* GNU says perror() here, with whatever errno was left:
             none, in the C locale.  */
          add_case (name, "exact", 1, false,
                    msg ("%s: Success\n", file),
                    "-b -l %s.elf %s", image, file);
          break;
        default:
          add_case (name, "exact", 1, false,
                    msg ("gprof: %s: unexpected end of file\n", file),
                    "-b -l %s.elf %s", image, file);
          break;
        }
    }
  buf_free (&b);
}

/* A small BSD file (four bins, two arcs) cut after every byte.  */
static void
cut_series_bsd (const char *series, const char *image, enum bsd_kind kind)
{
  const struct image *img = find_image (image);
  struct buf b = buf_new (img->t);
  size_t v = img->t->is64 ? 8 : 4;
  size_t hdr = bsd_header_size (img->t, kind), full;
  uint32_t nbins = 4;

  put_small_bsd (&b, img, kind, nbins);
  full = hdr + 2 * nbins;
  for (size_t cut = 0; cut <= b.len; cut++)
    {
      char name[64], file[80];
      const char *err = NULL;

      snprintf (name, sizeof name, "%s-%03zu", series, cut);
      snprintf (file, sizeof file, "%s.gmon", name);
      write_buf (file, &b, cut);
      /* GNU reads 20 bytes first, then the header fields one by one:
         the two addresses, the byte count, the 4.4BSD version (even in
         an old file) and the 4.4BSD rate.  */
      if (cut < 20 || cut < 2 * v + 8
          || (kind == BSD_44 && cut < 2 * v + 12))
        err = msg ("%s: file too short to be a gmon file\n", file);
      else if (cut < full)
        {
          long got = cut > hdr ? (long) (cut - hdr) / 2 : 0;

          err = msg ("gprof: unexpected EOF after reading %ld/%u bins\n",
                     got - 1, nbins);
        }
      if (err)
        add_case (name, "exact", 1, false, err, "-b %s.elf %s", image, file);
      else
        add_case (name, "gnu", 0, false, NULL, "-b -i -p -q %s.elf %s",
                  image, file);
    }
  buf_free (&b);
}

/* ---- GNU files: absurd values and flipped bits ------------------------- */

/* A GNU file with one histogram record over f1 (16 bins, or as
   claimed), for the value cases; returns the offset of the record's
   tag.  */
static size_t
claim_file (struct buf *b, const struct image *img, uint32_t version,
            uint32_t claim)
{
  struct hist h = hist_new (where (img, "f1", 0), where (img, "f1", 0x40), 16);
  size_t tag;

  hist_hit (&h, where (img, "f1", 0x04), 7);
  put_gnu_header (b, version);
  tag = b->len;
  h.nbins = claim;
  put_gnu_hist_header (b, &h);
  for (uint32_t i = 0; i < 16; i++)
    put_u16 (b, h.bins[i]);
  hist_free (&h);
  return tag;
}

static void
value_cases (const char *image, const char *tg)
{
  static const uint32_t claims[] = {
    0xffffffff, 0xfffffffe, 0x80000001, 0x80000000, 0x7fffffff,
    0x40000000, 0x10000000, 0x01000000, 0x00010000, 17
  };
  static const uint32_t versions[] = {
    2, 3, 0x100, 0x10000, 0x01000000, 0x7fffffff, 0x80000000, 0xffffffff
  };
  static const unsigned tags[] = { 3, 4, 5, 7, 0x2a, 0x7f, 0x80, 0xfe, 0xff };
  const struct image *img = find_image (image);
  char name[64], file[80];
  size_t v = img->t->is64 ? 8 : 4;

  /* Histograms that claim more bins than the file holds: GNU allocates
     them all first (gigabytes for the big claims).  */
  for (size_t i = 0; i < COUNT (claims); i++)
    {
      struct buf b = buf_new (img->t);

      claim_file (&b, img, 1, claims[i]);
      snprintf (name, sizeof name, "claim-%s-%08x", tg, claims[i]);
      snprintf (file, sizeof file, "%s.gmon", name);
      write_buf (file, &b, b.len);
      add_case (name, "exact", 1, claims[i] >= 0x01000000,
                msg ("gprof: %s: unexpected EOF after reading 16 of %u samples\n",
                     file, claims[i]),
                "-b %s.elf %s", image, file);
      buf_free (&b);
    }

  for (size_t i = 0; i < COUNT (versions); i++)
    {
      struct buf b = buf_new (img->t);

      claim_file (&b, img, versions[i], 16);
      snprintf (name, sizeof name, "version-%s-%08x", tg, versions[i]);
      snprintf (file, sizeof file, "%s.gmon", name);
      write_buf (file, &b, b.len);
      add_case (name, "exact", 1, false,
                msg ("gprof: file `%s' has unsupported version %d\n", file,
                     (int) versions[i]),
                "-b %s.elf %s", image, file);
      buf_free (&b);
    }

  /* Records with an unknown tag, first and after a good record.  */
  for (size_t i = 0; i < COUNT (tags); i++)
    for (int after = 0; after < 2; after++)
      {
        struct buf b = buf_new (img->t);

        if (after)
          claim_file (&b, img, 1, 16);
        else
          put_gnu_header (&b, 1);
        put_u8 (&b, tags[i]);
        put_zeros (&b, 40);
        snprintf (name, sizeof name, "tag-%s-%u%s", tg, tags[i],
                  after ? "-after" : "");
        snprintf (file, sizeof file, "%s.gmon", name);
        write_buf (file, &b, b.len);
        add_case (name, "exact", 1, false,
                  msg ("gprof: %s: found bad tag %u (file corrupted?)\n", file,
                       tags[i]),
                  "-b %s.elf %s", image, file);
        buf_free (&b);
      }

  /* 1025 records over different ranges, one bin each: more than gprof
     takes (doc/differences.md; GNU takes minutes for a few hundred
     thousand, and is not asked here).  */
  {
    struct buf b = buf_new (img->t);
    struct hist h = hist_new (0, 4, 1);

    put_gnu_header (&b, 1);
    for (uint64_t k = 0; k < 1025; k++)
      {
        h.low = where (img, "main", 0) + 4 * k;
        h.high = h.low + 4;
        put_gnu_hist (&b, &h);
      }
    snprintf (name, sizeof name, "hist-many-%s", tg);
    snprintf (file, sizeof file, "%s.gmon", name);
    write_buf (file, &b, b.len);
    add_case (name, "exact", 1, true,
              msg ("gprof: %s: more than 1024 histogram records (file corrupted?)\n",
                   file),
              "-b %s.elf %s", image, file);
    hist_free (&h);
    buf_free (&b);
  }

  /* Every bit of the magic, the version and the bin count flipped.  */
  for (int bit = 0; bit < 32; bit++)
    {
      struct buf b = buf_new (img->t);
      size_t tag = claim_file (&b, img, 1, 16);
      uint32_t version = 1u ^ (1u << bit), nbins = 16u ^ (1u << bit);
      /* What follows the record's header: its 16 bins.  */
      const size_t left = b.len - (tag + 25 + 2 * v);

      /* The magic: no longer a GNU file, so read as an old BSD one,
         whose byte count (the spare bytes, 0) is below its header's
         size.  */
      b.p[bit / 8] ^= (unsigned char) (1u << (bit % 8));
      snprintf (name, sizeof name, "flip-%s-magic-%02d", tg, bit);
      snprintf (file, sizeof file, "%s.gmon", name);
      write_buf (file, &b, b.len);
      add_case (name, "exact", 1, true,
                msg ("gprof: file '%s' does not appear to be in gmon.out format\n",
                     file),
                "-b %s.elf %s", image, file);
      b.p[bit / 8] ^= (unsigned char) (1u << (bit % 8));

      /* The version (4 bytes at offset 4, in the target's byte order).  */
      buf_free (&b);
      b = buf_new (img->t);
      claim_file (&b, img, version, 16);
      snprintf (name, sizeof name, "flip-%s-version-%02d", tg, bit);
      snprintf (file, sizeof file, "%s.gmon", name);
      write_buf (file, &b, b.len);
      if (version == 0)
        add_case (name, "gnu", 0, false, NULL, "-b %s.elf %s", image, file);
      else
        add_case (name, "exact", 1, false,
                  msg ("gprof: file `%s' has unsupported version %d\n", file,
                       (int) version),
                  "-b %s.elf %s", image, file);

      /* The bin count.  Fewer bins leave the rest to be read as records,
         GNU's business; more than the file holds is an error.  */
      buf_free (&b);
      b = buf_new (img->t);
      claim_file (&b, img, 1, nbins);
      snprintf (name, sizeof name, "flip-%s-nbins-%02d", tg, bit);
      snprintf (file, sizeof file, "%s.gmon", name);
      write_buf (file, &b, b.len);
      if (nbins < 16)
        add_case (name, "gnu", 0, false, NULL, "-b %s.elf %s", image, file);
      else
        add_case (name, "exact", 1, nbins >= 0x01000000,
                  msg ("gprof: %s: unexpected EOF after reading %zu of %u samples\n",
                       file, left / 2, nbins),
                  "-b %s.elf %s", image, file);
      buf_free (&b);
    }
}

/* ---- BSD files: absurd headers ------------------------------------------ */

static void
bsd_value_cases (const char *image, const char *tg)
{
  static const uint32_t ncnts[] = { 0xffffffff, 0x80000000, 0x7fffffff, 0x10000 };
  const struct image *img = find_image (image);
  size_t hdr = bsd_header_size (img->t, BSD_44);
  uint64_t low = where (img, "f1", 0), high = where (img, "f1", 0x10);
  char name[64], file[80];

  /* A byte count far beyond the file (four bins there).  GNU keeps the
     bins' size in an int: from 2 GiB on it is negative, not a profile
     (and GNU, as below, first allocates for the negative size: costly).  */
  for (size_t i = 0; i < COUNT (ncnts); i++)
    {
      struct buf b = buf_new (img->t);
      uint32_t span = ncnts[i] - (uint32_t) hdr;
      bool negative = span > 0x7fffffffu;
      uint32_t nbins = span / 2;

      put_bsd_header (&b, BSD_44, low, high, ncnts[i], 100);
      put_zeros (&b, 8);
      snprintf (name, sizeof name, "bsd-ncnt-%s-%08x", tg, ncnts[i]);
      snprintf (file, sizeof file, "%s.gmon", name);
      write_buf (file, &b, b.len);
      add_case (name, "exact", 1, negative || nbins >= 0x01000000,
                negative
                ? msg ("gprof: file '%s' does not appear to be in gmon.out "
                       "format\n", file)
                : msg ("gprof: unexpected EOF after reading 3/%d bins\n",
                       (int) nbins),
                "-b %s.elf %s", image, file);
      buf_free (&b);
    }

  /* A byte count below the header's own size, and an inverted range:
     not a profile (GNU goes on with a negative size: 16 GB).  */
  for (int k = 0; k < 3; k++)
    {
      struct buf b = buf_new (img->t);

      if (k == 0)
        put_bsd_header (&b, BSD_44, low, high, (uint32_t) hdr - 2, 100);
      else if (k == 1)
        put_bsd_header (&b, BSD_44, low, high, 0, 100);
      else
        put_bsd_header (&b, BSD_44, high, low, (uint32_t) hdr + 8, 100);
      put_zeros (&b, 8);
      snprintf (name, sizeof name, "bsd-header-%s-%d", tg, k);
      snprintf (file, sizeof file, "%s.gmon", name);
      write_buf (file, &b, b.len);
      add_case (name, "exact", 1, k < 2,
                msg ("gprof: file '%s' does not appear to be in gmon.out format\n",
                     file),
                "-b %s.elf %s", image, file);
      buf_free (&b);
    }

  /* The formats forced the wrong way round.  */
  {
    struct buf b = buf_new (img->t);

    put_small_bsd (&b, img, BSD_44, 4);
    snprintf (name, sizeof name, "bsd-as-magic-%s", tg);
    snprintf (file, sizeof file, "%s.gmon", name);
    write_buf (file, &b, b.len);
    add_case (name, "exact", 1, false,
              msg ("gprof: file `%s' has bad magic cookie\n", file),
              "-b -O magic %s.elf %s", image, file);
    buf_free (&b);
    b = buf_new (img->t);
    put_small_bsd (&b, img, BSD_OLD, 4);
    snprintf (name, sizeof name, "oldbsd-as-44-%s", tg);
    snprintf (file, sizeof file, "%s.gmon", name);
    write_buf (file, &b, b.len);
    add_case (name, "exact", 1, false,
              msg ("gprof: file `%s' has bad magic cookie\n", file),
              "-b -O 4.4bsd %s.elf %s", image, file);
    buf_free (&b);
  }
}

/* ---- files of the wrong kind ------------------------------------------- */

static void
wrong_kind_cases (void)
{
  static const char text[] =
    "This is a text file, not a profile: it says so at some length.\n";
  struct buf b = buf_new (&t64le);

  write_file (out_dir, "text.txt", text, strlen (text));
  write_file (out_dir, "short.txt", "hello\n", 6);
  write_file (out_dir, "empty.gmon", "", 0);
  /* A text file read as an old BSD profile: its "range" is inverted.  */
  add_case ("kind-text-profile", "gnu", 1, false, NULL,
            "-b prog64le.elf text.txt");
  add_case ("kind-short-profile", "exact", 1, false,
            "short.txt: file too short to be a gmon file\n",
            "-b prog64le.elf short.txt");
  add_case ("kind-empty-profile", "exact", 1, false,
            "empty.gmon: file too short to be a gmon file\n",
            "-b prog64le.elf empty.gmon");
  add_case ("kind-image-as-profile", "gnu", 1, false, NULL,
            "-b prog64le.elf prog32le.elf");
  add_case ("kind-profile-as-image", "exact", 1, false,
            "gprof: plain-prog64le.gmon: not in executable format\n",
            "-b plain-prog64le.gmon plain-prog64le.gmon");
  add_case ("kind-text-image", "exact", 1, false,
            "gprof: text.txt: not in executable format\n",
            "-b text.txt plain-prog64le.gmon");
  add_case ("kind-empty-image", "exact", 1, false,
            "gprof: empty.gmon: not in executable format\n",
            "-b empty.gmon plain-prog64le.gmon");
  add_case ("kind-missing-profile", "exact", 1, false,
            "missing.gmon: No such file or directory\n",
            "-b prog64le.elf missing.gmon");
  add_case ("kind-missing-image", "exact", 1, false,
            "missing.elf: No such file or directory\n",
            "-b missing.elf plain-prog64le.gmon");
  buf_free (&b);
}

/* ---- broken executables ---------------------------------------------- */

/* Read NAME's ELF section header fields of section INDEX (64-bit LE).  */
static size_t
shdr_at (const unsigned char *p, unsigned index)
{
  uint64_t shoff;

  memcpy (&shoff, p + 40, 8);
  return (size_t) shoff + 64 * index;
}

static void
put_le (unsigned char *p, uint64_t v, int n)
{
  for (int i = 0; i < n; i++)
    p[i] = (unsigned char) (v >> (8 * i));
}

/* prog64le.elf, cut and with damaged header fields.  Its sections:
   null, .init, .text, .data, .symtab, .strtab, .shstrtab.  */
static void
executable_cases (void)
{
  const struct image *img = find_image ("prog64le");
  struct buf elf = build_elf (img);
  static const size_t cuts[] = { 1, 4, 16, 52, 63, 64, 0x80, 0x440, 0x1040 };
  char name[64], file[80];

  for (size_t i = 0; i < COUNT (cuts); i++)
    {
      snprintf (name, sizeof name, "elf-cut-%04zx", cuts[i]);
      snprintf (file, sizeof file, "%s.elf", name);
      write_buf (file, &elf, cuts[i]);
      add_case (name, "gnu", 1, false, NULL, "-b %s plain-prog64le.gmon", file);
    }
  /* Cut inside the symbol table, the string table and the section
     headers: offsets taken from the section headers themselves.  */
  for (unsigned sec = 4; sec <= 6; sec++)
    {
      uint64_t off;

      memcpy (&off, elf.p + shdr_at (elf.p, sec) + 24, 8);
      snprintf (name, sizeof name, "elf-cut-sec%u", sec);
      snprintf (file, sizeof file, "%s.elf", name);
      write_buf (file, &elf, (size_t) off + 3);
      add_case (name, "gnu", 1, false, NULL, "-b %s plain-prog64le.gmon", file);
    }
  snprintf (file, sizeof file, "elf-cut-shdrs.elf");
  write_buf (file, &elf, shdr_at (elf.p, 3) + 10);
  add_case ("elf-cut-shdrs", "gnu", 1, false, NULL,
            "-b elf-cut-shdrs.elf plain-prog64le.gmon");

  /* Damaged fields: FIELD of section SEC (or of the ELF header when SEC
     is -1) set to VALUE.  */
  static const struct
  {
    const char *name;
    int sec;
    size_t field, size;
    uint64_t value;
    const char *opts;
  } fields[] = {
    { "shoff-huge", -1, 40, 8, 0x7fffffffffff0000, "" },
    { "shoff-past", -1, 40, 8, 0x100000, "" },
    { "shnum-max", -1, 60, 2, 0xffff, "" },
    { "shentsize-0", -1, 58, 2, 0, "" },
    { "shstrndx-bad", -1, 62, 2, 0xfff0, "" },
    { "symtab-size-huge", 4, 32, 8, 0x7fffffff0, "" },
    { "symtab-size-odd", 4, 32, 8, 0x61, "" },
    { "symtab-offset-past", 4, 24, 8, 0x10000000, "" },
    { "symtab-link-bad", 4, 40, 4, 0x77, "" },
    { "symtab-entsize-0", 4, 56, 8, 0, "" },
    { "strtab-offset-past", 5, 24, 8, 0x10000000, "" },
    { "strtab-size-huge", 5, 32, 8, 0x7fffffff0, "" },
    { "strtab-size-0", 5, 32, 8, 0, "" },
    { "text-offset-past", 2, 24, 8, 0x10000000, "-c" },
  };
  for (size_t i = 0; i < COUNT (fields); i++)
    {
      unsigned char *p = xrealloc (NULL, elf.len);
      size_t at;

      memcpy (p, elf.p, elf.len);
      at = fields[i].sec < 0 ? fields[i].field
                             : shdr_at (elf.p, (unsigned) fields[i].sec) + fields[i].field;
      put_le (p + at, fields[i].value, (int) fields[i].size);
      snprintf (name, sizeof name, "elf-%s", fields[i].name);
      snprintf (file, sizeof file, "%s.elf", name);
      write_file (out_dir, file, p, elf.len);
      add_case (name, "gnu", 1, false, NULL, "-b %s %s plain-prog64le.gmon",
                fields[i].opts, file);
      free (p);
    }

  /* Its one function past the end of .text: with -l, the symbol table
     ends up empty, which the diagnosis read before its start.  */
  add_case ("elf-past-code-diagnose", "ok", 0, false, NULL,
            "--diagnose -l pastcode.elf plain-prog64le.gmon");

  /* .text claiming more than the file: GNU allocates it for -c, and
     walks all of it for -l (doc/differences.md).  */
  static const uint64_t text_sizes[] = { 0x100000000, 0x10000000000, 0xffffffffffff0 };
  for (size_t i = 0; i < COUNT (text_sizes); i++)
    {
      unsigned char *p = xrealloc (NULL, elf.len);

      memcpy (p, elf.p, elf.len);
      put_le (p + shdr_at (elf.p, 2) + 32, text_sizes[i], 8);
      snprintf (name, sizeof name, "elf-text-%" PRIx64, text_sizes[i]);
      snprintf (file, sizeof file, "%s.elf", name);
      write_file (out_dir, file, p, elf.len);
      add_case (name, "exact", 0, true,
                msg ("BFD: warning: %s has a section extending past end of file\n"
                     "bfd_get_section_contents: file truncated\n"
                     "gprof: can't do -c\n", file),
                "-b -c -p %s plain-prog64le.gmon", file);
      free (p);
    }
  buf_free (&elf);
}

/* ---- -S, -R, @FILE and symspecs --------------------------------------- */

static void
text_file (const char *name, const char *text)
{
  write_file (out_dir, name, text, strlen (text));
}

static void
option_file_cases (void)
{
  char *big;
  size_t n;

  /* -S: an nm-style symbol file.  */
  text_file ("sym-empty.txt", "");
  text_file ("sym-garbage.txt", "\x01\x02 \xff T \x80\n\n\n  x\n");
  text_file ("sym-badaddr.txt",
             "fffffffffffffffffffff T f1\n"
             "-1 T f2\n0x401100 t spin\n");
  /* An address that does not parse: GNU gives the symbol one of its own
     choosing, no message.  */
  text_file ("sym-noaddr.txt", "0x401100 t spin\nzzzz T main\n");
  add_case ("symfile-missing", "exact", 1, false,
            "gprof: could not open missing.txt.\n",
            "-b -S missing.txt prog64le.elf plain-prog64le.gmon");
  add_case ("symfile-empty", "exact", 1, false,
            "gprof: file `sym-empty.txt' has no symbols\n",
            "-b -S sym-empty.txt prog64le.elf plain-prog64le.gmon");
  add_case ("symfile-garbage", "gnu", 1, false, NULL,
            "-b -S sym-garbage.txt prog64le.elf plain-prog64le.gmon");
  add_case ("symfile-badaddr", "gnu", 0, false, NULL,
            "-b -S sym-badaddr.txt prog64le.elf plain-prog64le.gmon");
  add_case ("symfile-noaddr", "ok", 0, false, NULL,
            "-b -S sym-noaddr.txt prog64le.elf plain-prog64le.gmon");
  /* A line of 5000 characters, read in pieces.  */
  big = xrealloc (NULL, 6000);
  memset (big, 'a', 5000);
  memcpy (big, "0000000000401000 T ", 19);
  strcpy (big + 5000, "\n0000000000401040 T f1\n");
  text_file ("sym-long.txt", big);
  add_case ("symfile-long-line", "gnu", 0, false, NULL,
            "-b -S sym-long.txt prog64le.elf plain-prog64le.gmon");
  /* 20000 symbols at the same address and a descending run.  */
  n = 20000;
  big = xrealloc (big, n * 40);
  big[0] = '\0';
  for (size_t i = 0, len = 0; i < n; i++)
    len += (size_t) sprintf (big + len, "%016zx T s%zu\n",
                             i % 2 ? (size_t) 0x401040 : 0x401400 - i / 8, i);
  text_file ("sym-many.txt", big);
  add_case ("symfile-many", "gnu", 0, false, NULL,
            "-b -S sym-many.txt prog64le.elf plain-prog64le.gmon");

  /* -R: the function map.  */
  text_file ("map-empty.txt", "");
  text_file ("map-nocolon.txt", "just words\n");
  text_file ("map-nospace.txt", "a.o:main\n");
  text_file ("map-nosyms.txt", "No symbols in a.o\nNo symbols in b.o\n");
  text_file ("map-colon-eof.txt", "a.o:");
  memset (big, 'x', 3000);
  strcpy (big + 3000, ".o:0000 T main\n");
  text_file ("map-long.txt", big);
  add_case ("map-missing", "exact", 1, false,
            "gprof: could not open missing.txt.\n",
            "-b -R missing.txt prog64le.elf plain-prog64le.gmon");
  /* GNU crashes on the next two, and on map-colon-eof and map-long
     below (doc/differences.md).  */
  add_case ("map-empty", "ok", 0, true, NULL,
            "-b -R map-empty.txt prog64le.elf plain-prog64le.gmon");
  add_case ("map-nospace", "exact", 1, true,
            "gprof: unable to parse mapping file map-nospace.txt.\n",
            "-b -R map-nospace.txt prog64le.elf plain-prog64le.gmon");
  add_case ("map-nocolon", "gnu", 1, false, NULL,
            "-b -R map-nocolon.txt prog64le.elf plain-prog64le.gmon");
  add_case ("map-nosyms", "gnu", 0, false, NULL,
            "-b -R map-nosyms.txt prog64le.elf plain-prog64le.gmon");
  add_case ("map-colon-eof", "exact", 1, true,
            "gprof: unable to parse mapping file map-colon-eof.txt.\n",
            "-b -R map-colon-eof.txt prog64le.elf plain-prog64le.gmon");
  /* GNU overflows its buffer on a file name this long, and crashes.  */
  add_case ("map-long", "exact", 1, true,
            "gprof: unable to parse mapping file map-long.txt.\n",
            "-b -R map-long.txt prog64le.elf plain-prog64le.gmon");
  free (big);

  /* @FILE (libiberty): missing files stay arguments, quotes.  */
  text_file ("args-quotes.txt", "-b 'prog64le.elf' \"plain-prog64le.gmon\"\n");
  text_file ("args-unbalanced.txt", "-b \"prog64le.elf plain-prog64le.gmon\n");
  text_file ("args-self.txt", "@args-self.txt\n");
  text_file ("args-empty.txt", "");
  add_case ("atfile-missing", "exact", 1, false,
            "@missing.txt: No such file or directory\n", "@missing.txt");
  add_case ("atfile-quotes", "gnu", 0, false, NULL, "@args-quotes.txt");
  add_case ("atfile-unbalanced", "gnu", 1, false, NULL, "@args-unbalanced.txt");
  add_case ("atfile-empty", "gnu", 1, false, NULL,
            "@args-empty.txt -b prog64le.elf plain-prog64le.gmon");
  add_case ("atfile-self", "gnu", 1, false, NULL, "@args-self.txt");

  /* For run-sum.sh: a valid profile whose gmon.sum takes 16 KB, a
     histogram of 8192 bins over .init and .text.  */
  {
    const struct image *img = find_image ("prog64le");
    struct buf b = buf_new (img->t);
    struct hist h = hist_new (img->base, section_vma (img, SEC_TEXT) + TEXT_SIZE,
                              8192);

    hist_add_samples (&h, img, prog_samples);
    put_gnu_header (&b, 1);
    put_gnu_hist (&b, &h);
    put_gnu_arcs (&b, img, prog_arcs);
    write_file (out_dir, "wide-prog64le.gmon", b.p, b.len);
    hist_free (&h);
    buf_free (&b);
  }

  /* Odd symspecs.  */
  {
    static const char *const specs[] = {
      "-p:", "-q/", "-k/", "-k//", "-n:0", "-Nprog.c:", "-e.",
      "-fx.c:99999999999999999999", "-F:main", "-A:", "-C::::", "-Qmain/"
    };

    for (size_t i = 0; i < COUNT (specs); i++)
      {
        char name[32];

        snprintf (name, sizeof name, "symspec-%02zu", i);
        add_case (name, "gnu", 0, false, NULL,
                  "-b %s prog64le.elf plain-prog64le.gmon", specs[i]);
      }
  }
}


/* ---- huge inputs (mkdamaged --big DIR, for run-big.sh) ------------------ */

enum { CHAIN = 1000000 };

/* chain.elf: main and CHAIN functions f0000001... 16 bytes apart in a
   .text without contents (SHT_NOBITS), so the file stays small.  */
static void
write_chain_elf (const char *dir, struct symdef *syms)
{
  static const struct image chain_img = {
    "chain", IMG_ELF, &t64le, 0x401000, NULL, ".text"
  };
  struct image img = chain_img;
  const struct target *t = &t64le;
  struct section_out sec[6];
  uint32_t name_off[6];
  struct buf out = buf_new (t);
  unsigned n = 0, i;
  uint64_t off;

  img.syms = syms;
  sec[n++] = section (t, "", SHT_NULL, 0, 0, 0);
  sec[n++] = section (t, ".init", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR,
                      section_vma (&img, SEC_INIT), 4);
  sec[n++] = section (t, ".text", SHT_NOBITS, SHF_ALLOC | SHF_EXECINSTR,
                      section_vma (&img, SEC_TEXT), 16);
  put_zeros (&sec[SEC_INIT].data, INIT_SIZE);
  sec[n] = section (t, ".symtab", SHT_SYMTAB, 0, 0, 8);
  sec[n].link = n + 1;
  sec[n].entsize = sizeof (Elf64_Sym);
  sec[n + 1] = section (t, ".strtab", SHT_STRTAB, 0, 0, 1);
  sec[n].info = fill_symtab (&img, &sec[n].data, &sec[n + 1].data);
  n += 2;
  sec[n++] = section (t, ".shstrtab", SHT_STRTAB, 0, 0, 1);
  for (i = 0; i < n; i++)
    {
      name_off[i] = sec[n - 1].data.len;
      put_string (&sec[n - 1].data, sec[i].name);
    }
  off = sizeof (Elf64_Ehdr);
  for (i = 1; i < n; i++)
    {
      off = round_up (off, 8);
      sec[i].offset = off;
      if (sec[i].type != SHT_NOBITS)
        off += sec[i].data.len;
    }
  off = round_up (off, 8);
  put_elf_header (&out, section_vma (&img, SEC_TEXT), off, n, n - 1);
  for (i = 1; i < n; i++)
    if (sec[i].type != SHT_NOBITS)
      {
        pad_to (&out, sec[i].offset);
        put_bytes (&out, sec[i].data.p, sec[i].data.len);
      }
  pad_to (&out, off);
  /* The .text header says how big it is: a NOBITS section's data.len.  */
  put_zeros (&sec[SEC_TEXT].data, 16 * (size_t) (CHAIN + 1));
  for (i = 0; i < n; i++)
    {
      put_section_header (&out, &sec[i], name_off[i]);
      buf_free (&sec[i].data);
    }
  write_file (dir, "chain.elf", out.p, out.len);
  buf_free (&out);
}

/* chain.gmon: a histogram over the first functions and one arc from each
   function to the next: a call chain CHAIN deep.  */
static void
write_chain_gmon (const char *dir)
{
  struct buf b = buf_new (&t64le);
  uint64_t text = 0x401000 + TEXT_OFF;
  struct hist h = hist_new (text, text + 0x10000, 0x4000);

  for (uint32_t i = 0; i < 0x4000; i++)
    h.bins[i] = (uint16_t) (i % 7);
  put_gnu_header (&b, 1);
  put_gnu_hist (&b, &h);
  for (uint64_t i = 0; i < CHAIN; i++)
    put_gnu_arc (&b, text + 16 * i + 4, text + 16 * (i + 1), 1 + (uint32_t) (i % 3));
  write_file (dir, "chain.gmon", b.p, b.len);
  hist_free (&h);
  buf_free (&b);
}

/* A file of SIZE bytes that starts with the LEN bytes at P and holds no
   data after them (a hole: nothing is written to the disk).  */
static void
write_sparse (const char *dir, const char *name, const void *p, size_t len,
              uint64_t size)
{
  char *path = path_in (dir, name);
  FILE *f = fopen (path, "wb");

  if (!f || (len && fwrite (p, 1, len, f) != len) || fflush (f) != 0
      || ftruncate (fileno (f), (off_t) size) != 0 || fclose (f) != 0)
    die ("%s: %s", path, strerror (errno));
  free (path);
}

static int
big_inputs (const char *dir)
{
  struct symdef *syms = xrealloc (NULL, (CHAIN + 3) * sizeof *syms);
  char *names = xrealloc (NULL, (size_t) (CHAIN + 1) * 10);
  const struct image *img = find_image ("prog64le");
  struct buf b = buf_new (&t64le);
  size_t i;

  /* The chain: main, then f0000001 ... f1000000.  */
  syms[0] = (struct symdef) GLOBAL ("main", SEC_TEXT, 0, STT_FUNC);
  for (i = 1; i <= CHAIN; i++)
    {
      sprintf (names + 10 * i, "f%07zu", i);
      syms[i] = (struct symdef) GLOBAL (names + 10 * i, SEC_TEXT,
                                        (uint32_t) (16 * i), STT_FUNC);
    }
  syms[CHAIN + 1] = (struct symdef) END_SYMS;
  write_chain_elf (dir, syms);
  write_chain_gmon (dir);
  free (syms);
  free (names);

  write_image (dir, img);
  /* A histogram that claims 2^32 - 1 bins, in a small file and at the
     head of a 2 GB one (a hole: it holds a quarter of them).  */
  claim_file (&b, img, 1, 0xffffffff);
  write_file (dir, "claim.gmon", b.p, b.len);
  write_sparse (dir, "claim2g.gmon", b.p, b.len, (uint64_t) 2 << 30);
  buf_free (&b);
  /* 4.4BSD: a byte count of 2^32 - 1 (negative in GNU's int: not a
     profile), and the largest that is not: 2^31 - 1 bytes of bins.  */
  b = buf_new (&t64le);
  put_bsd_header (&b, BSD_44, where (img, "f1", 0), where (img, "f1", 0x10),
                  0xffffffff, 100);
  write_file (dir, "claim-bsd.gmon", b.p, b.len);
  buf_free (&b);
  b = buf_new (&t64le);
  put_bsd_header (&b, BSD_44, where (img, "f1", 0), where (img, "f1", 0x10),
                  0x7fffffffu + (uint32_t) bsd_header_size (&t64le, BSD_44),
                  100);
  write_file (dir, "claim-bsd2g.gmon", b.p, b.len);
  buf_free (&b);
  /* 2 GB of zero bytes, and 256 MB of zeros after a GNU header: empty
     histogram records, the last one cut.  */
  write_sparse (dir, "zeros.gmon", NULL, 0, (uint64_t) 2 << 30);
  b = buf_new (&t64le);
  put_gnu_header (&b, 1);
  write_sparse (dir, "header-zeros.gmon", b.p, b.len, (uint64_t) 256 << 20);
  buf_free (&b);
  return 0;
}

int
main (int argc, char **argv)
{
  char *list_path;
  size_t i;

  if (argc == 3 && strcmp (argv[1], "--big") == 0)
    return big_inputs (argv[2]);
  if (argc != 2)
    {
      fprintf (stderr, "usage: mkdamaged [--big] DIR\n");
      return 2;
    }
  out_dir = argv[1];
  list_path = path_in (out_dir, "cases");
  case_list = fopen (list_path, "w");
  if (!case_list)
    die ("%s: %s", list_path, strerror (errno));

  for (i = 0; i < COUNT (images); i++)
    write_image (out_dir, &images[i]);
  cut_series_gnu ("cut-gnu64le", "prog64le");
  cut_series_gnu ("cut-gnu32be", "prog32be");
  cut_series_gnu ("cut-gnu32le", "prog32le");
  cut_series_bsd ("cut-bsd44-64le", "prog64le", BSD_44);
  cut_series_bsd ("cut-bsd-32be", "prog32be", BSD_OLD);
  value_cases ("prog64le", "64le");
  value_cases ("prog32be", "32be");
  bsd_value_cases ("prog64le", "64le");
  bsd_value_cases ("prog32be", "32be");
  wrong_kind_cases ();
  executable_cases ();
  option_file_cases ();

  if (ferror (case_list) || fclose (case_list) != 0)
    die ("%s: write error", list_path);
  free (list_path);
  printf ("%u cases\n", ncases);
  return 0;
}
