/* gmon_io.c - profile data files.

   Nothing in a file says its byte order or address size: both come from
   the executable (Core).  Every read is checked; counts are checked
   against what is left of the file before anything is allocated.  */

#include "config.h"
#include "gmon_io.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "gmon_out.h"
#include "gprof.h"
#include "i18n.h"
#include "since.h"
#include "support/out.h"
#include "support/outfile.h"
#include "support/error.h"
#include "support/alloc.h"

enum { READ_BUF = 1 << 16 };

/* The most histogram records of different ranges gprof takes.  */
enum { MAX_HIST_RECORDS = 1024 };

/* A profile file read through a buffer of our own: a big profile has
   millions of records of a few bytes each.  Read ahead, the buffer
   starts out holding the file's first bytes, or all of it (F is NULL
   then).  */
typedef struct Reader
{
  FILE *f;
  const char *name;
  const Core *core;
  uint64_t size;          /* UINT64_MAX when unknown (a pipe) */
  uint64_t pos;           /* file offset of the next byte to hand out */
  unsigned char *buf;
  size_t at, end;         /* the unread part of buf */
  GmonAhead *ahead;       /* what was read ahead, or NULL */
  bool said_rate0;        /* warned of a histogram rate of 0 */
  /* --since: the arcs are kept aside (the earlier snapshot), or reduced
     by those kept (the later one); NULL: counted as they are.  */
  SinceArcs *keep, *less;
} Reader;

static const bool host_big_endian = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;

/* An N-byte unsigned number (N = 2, 4 or 8) in the byte order BIG.  */
static uint64_t
decode (const unsigned char *p, int n, bool big)
{
  uint16_t v16;
  uint32_t v32;
  uint64_t v64;

  switch (n)
    {
    case 2:
      memcpy (&v16, p, 2);
      return big == host_big_endian ? v16 : __builtin_bswap16 (v16);
    case 4:
      memcpy (&v32, p, 4);
      return big == host_big_endian ? v32 : __builtin_bswap32 (v32);
    default:
      memcpy (&v64, p, 8);
      return big == host_big_endian ? v64 : __builtin_bswap64 (v64);
    }
}

/* Make N bytes available in the buffer, if the file has them.  */
static bool
rd_fill (Reader *r, size_t n)
{
  if (r->end - r->at >= n)
    return true;
  if (!r->f)
    return false;
  memmove (r->buf, r->buf + r->at, r->end - r->at);
  r->end -= r->at;
  r->at = 0;
  r->end += fread (r->buf + r->end, 1, READ_BUF - r->end, r->f);
  return r->end >= n;
}

/* Position the reader at OFFSET of the file.  */
static bool
rd_seek (Reader *r, uint64_t offset)
{
  if (!r->f)
    {
      /* The buffer holds the whole file from its start.  As with a
         file, a place past its end is where reading finds nothing.  */
      r->at = offset < r->size ? (size_t) offset : (size_t) r->size;
      r->pos = offset;
      return true;
    }
  if (fseeko (r->f, (off_t) offset, SEEK_SET) != 0)
    return false;
  r->at = r->end = 0;
  r->pos = offset;
  return true;
}

static bool
rd_bytes (Reader *r, void *out, size_t n)
{
  if (!rd_fill (r, n))
    return false;
  memcpy (out, r->buf + r->at, n);
  r->at += n;
  r->pos += n;
  return true;
}

/* The next byte, or EOF.  */
static int
rd_byte (Reader *r)
{
  if (!rd_fill (r, 1))
    return EOF;
  r->pos++;
  return r->buf[r->at++];
}

/* If the next byte is C, consume it and say so.  */
static bool
rd_next_is (Reader *r, int c)
{
  if (!rd_fill (r, 1) || r->buf[r->at] != c)
    return false;
  r->at++;
  r->pos++;
  return true;
}

static bool
rd_uint (Reader *r, int n, uint64_t *v)
{
  if (!rd_fill (r, (size_t) n))
    return false;
  *v = decode (r->buf + r->at, n, r->core->big_endian);
  r->at += (size_t) n;
  r->pos += (uint64_t) n;
  return true;
}

static bool
rd_32 (Reader *r, uint32_t *v)
{
  uint64_t x;

  if (!rd_uint (r, 4, &x))
    return false;
  *v = (uint32_t) x;
  return true;
}

/* An address as read from the file: 32-bit ones sign-extended where
   the target's addresses are.  */
static vma_t
file_vma (const Reader *r, uint64_t x)
{
  if (r->core->vma_bytes == 4 && r->core->sign_extend_vma)
    x = (uint64_t) (int64_t) (int32_t) (uint32_t) x;
  return x;
}

static bool
rd_vma (Reader *r, vma_t *v)
{
  uint64_t x;

  if (!rd_uint (r, r->core->vma_bytes, &x))
    return false;
  *v = file_vma (r, x);
  return true;
}

/* Bytes left to read, or UINT64_MAX if unknown.  */
static uint64_t
rd_left (const Reader *r)
{
  if (r->size == UINT64_MAX)
    return UINT64_MAX;
  return r->pos <= r->size ? r->size - r->pos : 0;
}

/* The N 16-bit bins at P, in the byte order BIG: stored in RAW and
   added into SUM, each if not NULL.  Loops without a test inside, as a
   profile's bins are most of its bytes.  */
static void
add_bins (uint64_t *sum, uint16_t *raw, const unsigned char *p, size_t n,
          bool big)
{
  bool swap = big != host_big_endian;

  if (raw)
    {
      memcpy (raw, p, 2 * n);
      if (swap)
        for (size_t i = 0; i < n; i++)
          raw[i] = __builtin_bswap16 (raw[i]);
      if (sum)
        for (size_t i = 0; i < n; i++)
          sum[i] += raw[i];
    }
  else if (swap)
    for (size_t i = 0; i < n; i++)
      {
        uint16_t v;

        memcpy (&v, p + 2 * i, 2);
        sum[i] += __builtin_bswap16 (v);
      }
  else
    for (size_t i = 0; i < n; i++)
      {
        uint16_t v;

        memcpy (&v, p + 2 * i, 2);
        sum[i] += v;
      }
}

/* Read N 16-bit bins into RAW and SUM as add_bins does; returns how
   many were read before the end of the file.  */
static unsigned
rd_bins (Reader *r, uint64_t *sum, uint16_t *raw, unsigned n)
{
  unsigned done = 0;

  gp_assert (sum || raw);
  while (done < n && rd_fill (r, 2))
    {
      size_t avail = (r->end - r->at) / 2;
      size_t k = n - done < avail ? n - done : avail;

      add_bins (sum ? sum + done : NULL, raw ? raw + done : NULL,
                r->buf + r->at, k, r->core->big_endian);
      done += (unsigned) k;
      r->at += 2 * k;
      r->pos += 2 * k;
    }
  return done;
}

static void
die_eof (const Reader *r)
{
  gp_die (_("%s: %s: unexpected end of file\n"), whoami, r->name);
}

/* ---- reading ahead -------------------------------------------------------

   The first profile file does not need the symbols until its arcs: its
   start (the whole of most files) can be read into memory, and its first
   histogram's bins added up, before (pipeline.c: beside) the symbols.
   Nothing here reports an error: a file that cannot be read so is read
   the usual way.  */

/* What is read ahead: the file up to AHEAD_MAX, or further to the end
   of the histogram it opens with, up to AHEAD_HIST_MAX.  The rest of a
   bigger file is read as its records are counted rather than held in
   memory.  */
enum { AHEAD_MAX = 16 << 20, AHEAD_HIST_MAX = 256 << 20 };

struct GmonAhead
{
  const Core *core;
  const char *filename;
  unsigned char *data;    /* the first LEN bytes of the file, or NULL */
  size_t len;
  uint64_t size;          /* the file's */
  FILE *rest;             /* open after those bytes, if the file has more */
  /* The file's first record, if a histogram: the offset of its bins,
     their number, and their counts (NULL if not read).  */
  uint64_t bins_at;
  unsigned nbins;
  uint16_t *bins;
};

/* Room for the header of a GNU file and of a histogram record.  */
enum { FIRST_HIST_HEADER = GMON_HEADER_SIZE + 1 + 2 * 8 + 4 + 4
                           + GMON_HIST_DIMEN_LEN + 1 };

/* If the N bytes at P start a GNU file with a histogram record: where
   its bins start and how many there are.  */
static bool
first_hist (const unsigned char *p, size_t n, const Core *core,
            uint64_t *bins_at, uint32_t *nbins)
{
  uint64_t tag_at = GMON_HEADER_SIZE;
  uint64_t nbins_at = tag_at + 1 + 2 * (uint64_t) core->vma_bytes;

  *bins_at = nbins_at + 4 + 4 + GMON_HIST_DIMEN_LEN + 1;
  if (n < *bins_at || memcmp (p, GMON_MAGIC, GMON_MAGIC_LEN) != 0
      || p[tag_at] != GMON_TAG_TIME_HIST)
    return false;
  *nbins = (uint32_t) decode (p + nbins_at, 4, core->big_endian);
  return true;
}

/* How much of the file F to read ahead.  */
static size_t
ahead_len (const GmonAhead *a, FILE *f)
{
  unsigned char head[FIRST_HIST_HEADER];
  ssize_t got = pread (fileno (f), head, sizeof head, 0);
  uint64_t len = AHEAD_MAX, bins_at;
  uint32_t nbins;

  if (got > 0 && first_hist (head, (size_t) got, a->core, &bins_at, &nbins)
      && bins_at + 2 * (uint64_t) nbins > len)
    len = bins_at + 2 * (uint64_t) nbins;
  if (len > AHEAD_HIST_MAX)
    len = AHEAD_MAX;
  return (size_t) (a->size < len ? a->size : len);
}

/* The bins of the histogram record that opens a GNU file.  */
static void
ahead_first_bins (GmonAhead *a)
{
  uint64_t bins_at;
  uint32_t nbins;

  if (!first_hist (a->data, a->len, a->core, &bins_at, &nbins)
      || nbins == 0 || nbins > (a->len - bins_at) / 2)
    return;
  a->bins = malloc (nbins * sizeof *a->bins);
  if (!a->bins)
    return;
  add_bins (NULL, a->bins, a->data + bins_at, nbins, a->core->big_endian);
  a->bins_at = bins_at;
  a->nbins = nbins;
}

static void
ahead_run (GmonAhead *a)
{
  struct stat st;
  FILE *f;

  /* Only regular files: opening a FIFO would wait for a writer, and
     take its data from the reading gmon_read does after all.  */
  if (stat (a->filename, &st) != 0 || !S_ISREG (st.st_mode)
      || !(f = fopen (a->filename, "rb")))
    return;
  if (fstat (fileno (f), &st) != 0 || st.st_size <= 0)
    {
      fclose (f);
      return;
    }
  a->size = (uint64_t) st.st_size;
  a->len = ahead_len (a, f);
  /* The buffer goes on serving the reader, which needs READ_BUF.  */
  a->data = malloc (a->len > READ_BUF ? a->len : READ_BUF);
  if (!a->data || fread (a->data, 1, a->len, f) != a->len)
    {
      free (a->data);
      a->data = NULL;
    }
  else if (a->len < a->size)
    {
      a->rest = f;
      f = NULL;
    }
  else if (fgetc (f) != EOF)
    {
      /* A file still growing is read the usual way, to its end.  */
      free (a->data);
      a->data = NULL;
    }
  if (f)
    fclose (f);
  if (a->data)
    ahead_first_bins (a);
}

GmonAhead *
gmon_ahead_read (const Core *core, const char *filename)
{
  GmonAhead *a;

  if (strcmp (filename, "-") == 0 || core->vma_bytes == 0)
    return NULL;
  a = gp_calloc (1, sizeof *a);
  a->core = core;
  a->filename = filename;
  ahead_run (a);
  if (a->data)
    return a;
  free (a);
  return NULL;
}

/* What was read ahead of FILENAME; NULL if nothing was.  */
static GmonAhead *
ahead_take (Run *run, const char *filename)
{
  GmonAhead *a = run->ahead;

  if (!a || strcmp (a->filename, filename) != 0)
    return NULL;
  run->ahead = NULL;
  return a;
}

static void
ahead_free (GmonAhead *a)
{
  if (!a)
    return;
  if (a->rest)
    fclose (a->rest);
  free (a->data);
  free (a->bins);
  free (a);
}

/* ---- GNU format records ------------------------------------------------ */

static void
read_hist_record (Run *run, Reader *r)
{
  vma_t lowpc, highpc;
  uint32_t nbins, rate;
  char dimen[GMON_HIST_DIMEN_LEN];
  char abbrev;
  HistRecord *rec;
  unsigned to_read, got;
  uint16_t *raw;

  if (!rd_vma (r, &lowpc) || !rd_vma (r, &highpc) || !rd_32 (r, &nbins)
      || !rd_32 (r, &rate) || !rd_bytes (r, dimen, sizeof dimen)
      || !rd_bytes (r, &abbrev, 1))
    die_eof (r);
  /* GNU gprof divides by a rate of 0 and prints infinite times; we count
     in ticks, as GNU does for BSD files without a rate.  */
  if (rate == 0)
    {
      if (nbins > 0 && !r->said_rate0)
        {
          gp_warn (_("%s: %s: sampling rate 0: time is in ticks, not seconds\n"),
                   whoami, r->name);
          r->said_rate0 = true;
        }
      rate = 1;
    }
  if (run->watch)
    run->watch->hist_header (run->watch->ctx, r->name, lowpc, highpc, nbins,
                             rate);
  rec = hist_check_record (&run->hist, r->name, lowpc, highpc, nbins, rate,
                           dimen, abbrev);
  /* Bins of a repeated range add into the earlier record: as many bins
     as it has are read.  */
  to_read = rec ? rec->nbins : nbins;
  if ((uint64_t) to_read * 2 > rd_left (r))
    gp_die (_("%s: %s: unexpected EOF after reading %u of %u samples\n"),
            whoami, r->name, (unsigned) (rd_left (r) / 2), to_read);
  /* Every record is compared with every other, and every symbol with
     every record: a damaged file of millions of tiny records would take
     hours, as it does GNU gprof.  Real profiles have a handful.  */
  if (!rec && run->hist.n >= MAX_HIST_RECORDS)
    gp_die (_("%s: %s: more than %d histogram records (file corrupted?)\n"),
            whoami, r->name, MAX_HIST_RECORDS);
  /* The bins this file opens with may have been read already.  */
  if (!rec && r->ahead && r->ahead->bins && r->pos == r->ahead->bins_at
      && nbins == r->ahead->nbins && !run->watch)
    {
      hist_new_record (&run->hist, lowpc, highpc, nbins, r->ahead->bins);
      r->ahead->bins = NULL;
      r->at += 2 * (size_t) nbins;
      r->pos += 2 * (uint64_t) nbins;
      return;
    }
  if (!rec)
    {
      rec = hist_new_record (&run->hist, lowpc, highpc, nbins, NULL);
      got = rd_bins (r, NULL, rec->once, to_read);
      raw = NULL;
    }
  else
    {
      raw = run->watch ? gp_reallocarray (NULL, to_read + 1, sizeof *raw) : NULL;
      got = rd_bins (r, hist_sums (rec), raw, to_read);
    }
  if (got < to_read)
    gp_die (_("%s: %s: unexpected EOF after reading %u of %u samples\n"),
            whoami, r->name, got, to_read);
  if (run->watch)
    run->watch->hist (run->watch->ctx, lowpc, highpc, to_read,
                      raw ? raw : rec->once);
  free (raw);
}

/* The fields of an arc record: two addresses and a 32-bit count.  Most
   records lie whole in the buffer and are decoded in place.  */
static bool
rd_arc (Reader *r, ArcRecord *a)
{
  int vb = r->core->vma_bytes;
  size_t len = 2 * (size_t) vb + 4;
  vma_t from, self;
  uint32_t count;

  if (r->end - r->at >= len)
    {
      const unsigned char *p = r->buf + r->at;
      bool big = r->core->big_endian;

      a->from_pc = file_vma (r, decode (p, vb, big));
      a->self_pc = file_vma (r, decode (p + vb, vb, big));
      a->count = (uint32_t) decode (p + 2 * vb, 4, big);
      r->at += len;
      r->pos += len;
      return true;
    }
  if (!rd_vma (r, &from) || !rd_vma (r, &self) || !rd_32 (r, &count))
    return false;
  a->from_pc = from;
  a->self_pc = self;
  a->count = count;
  return true;
}

/* The N arc records read into BATCH: shown to the watch and counted,
   or for --since, kept aside or reduced first.  */
static void
tally_arcs (Run *run, const Reader *r, ArcRecord *batch, size_t n)
{
  if (r->keep)
    {
      since_arcs_keep (r->keep, batch, n);
      return;
    }
  if (r->less)
    n = since_arcs_subtract (r->less, batch, n);
  if (run->watch)
    for (size_t i = 0; i < n; i++)
      run->watch->arc (run->watch->ctx, batch[i].from_pc, batch[i].self_pc,
                       batch[i].count);
  if (n > 0)
    cg_tally_batch (run, n);
}

/* An arc record, and those that follow it without another record in
   between: tallied in batches (cg_tally_batch).  Returns how many were
   read.  */
static unsigned
read_arc_records (Run *run, Reader *r)
{
  size_t total = 0, n;
  uint64_t left = rd_left (r);

  /* Records of a tag, two addresses and a count take the rest of the
     file at most.  */
  if (left != UINT64_MAX && !r->keep)
    cg_expect_arcs (&run->cg, &run->symtab,
                    left / (uint64_t) (1 + 2 * r->core->vma_bytes + 4) + 1,
                    run->par);
  do
    {
      ArcRecord *batch = cg_tally_buffer (&run->cg);

      n = 0;
      do
        if (!rd_arc (r, &batch[n++]))
          die_eof (r);
      while (n < ARC_BATCH && rd_next_is (r, GMON_TAG_CG_ARC));
      total += n;
      tally_arcs (run, r, batch, n);
    }
  while (n == ARC_BATCH && rd_next_is (r, GMON_TAG_CG_ARC));
  return (unsigned) total;
}

/* Skip a NUL-terminated string (old version-0 basic-block records).  */
static void
skip_string (Reader *r)
{
  int c;

  while ((c = rd_byte (r)) != EOF && c != '\0')
    ;
}

static void
read_bb_record (Run *run, Reader *r)
{
  uint32_t nblocks;

  if (!rd_32 (r, &nblocks))
    die_eof (r);
  /* GNU gprof converts this count from the target's byte order twice,
     which swaps it back when host and target orders differ.  */
  if (host_big_endian != r->core->big_endian)
    nblocks = __builtin_bswap32 (nblocks);
  if (run->gmon_file_version == 0)
    skip_string (r);
  for (uint32_t b = 0; b < nblocks; b++)
    {
      vma_t addr, ncalls;

      if (run->gmon_file_version == 0)
        {
          /* Version 0 stored host-native values and source names.  */
          uint64_t host_ncalls, host_addr;
          int line;

          if (!rd_bytes (r, &host_ncalls, sizeof host_ncalls)
              || !rd_bytes (r, &host_addr, sizeof host_addr))
            goto truncated;
          skip_string (r);
          skip_string (r);
          if (!rd_bytes (r, &line, sizeof line))
            goto truncated;
          ncalls = host_ncalls;
          addr = host_addr;
        }
      else if (!rd_vma (r, &addr) || !rd_vma (r, &ncalls))
        goto truncated;
      bb_record (run, addr, (unsigned long) ncalls);
    }
  return;

truncated:
  perror (r->name);
  gp_exit_failure ();
}

static void
read_gnu (Run *run, Reader *r, const unsigned char *hdr, unsigned counts[3])
{
  uint32_t version = (uint32_t) decode (hdr + 4, 4, r->core->big_endian);
  int tag;

  if (version != GMON_VERSION && version != 0)
    gp_die (_("%s: file `%s' has unsupported version %d\n"), whoami, r->name,
            (int) version);
  run->gmon_file_version = (int) version;
  if (memcmp (hdr + 8, GMON_DISP_TAG, 4) == 0)
    {
      uint32_t flags = (uint32_t) decode (hdr + 16, 4, r->core->big_endian);

      double d = (double) decode (hdr + 12, 4, r->core->big_endian)
                 / GMON_DISP_ONE;

      if (d > run->hist.dispersion)
        run->hist.dispersion = d;
      hist_set_clock (&run->hist, r->name, (flags & GMON_FLAG_WALL) != 0);
    }
  else
    hist_set_clock (&run->hist, r->name, 0);
  while ((tag = rd_byte (r)) != EOF)
    {
      switch (tag)
        {
        case GMON_TAG_TIME_HIST:
          counts[0]++;
          run->gmon_input |= INPUT_HISTOGRAM;
          read_hist_record (run, r);
          break;
        case GMON_TAG_CG_ARC:
          counts[1] += read_arc_records (run, r);
          run->gmon_input |= INPUT_CALL_GRAPH;
          break;
        case GMON_TAG_BB_COUNT:
          counts[2]++;
          run->gmon_input |= INPUT_BB_COUNTS;
          read_bb_record (run, r);
          break;
        default:
          gp_die (_("%s: %s: found bad tag %d (file corrupted?)\n"), whoami,
                  r->name, tag);
        }
    }
}

/* ---- BSD formats ---------------------------------------------------------- */

/* The clock rate of old BSD files, which do not record it.  */
static unsigned
host_hz (void)
{
  long hz = sysconf (_SC_CLK_TCK);

  if (hz <= 0)
    {
      gp_warn (_("time is in ticks, not seconds\n"));
      return 1;
    }
  return (unsigned) hz;
}

static void
read_bsd (Run *run, Reader *r, unsigned counts[3])
{
  Histograms *h = &run->hist;
  int vb = r->core->vma_bytes;
  vma_t lowpc, highpc;
  uint32_t ncnt, version, header_size;
  int64_t samp_bytes;
  unsigned nbins, got;
  HistRecord *rec;
  uint16_t *raw;

  if (!rd_seek (r, 0))
    {
      perror (r->name);
      gp_exit_failure ();
    }
  if (!rd_vma (r, &lowpc) || !rd_vma (r, &highpc) || !rd_32 (r, &ncnt)
      || !rd_32 (r, &version))
    gp_die (_("%s: file too short to be a gmon file\n"), r->name);
  if (version == GMON_BSD44_VERSION)
    {
      uint32_t rate;

      if (!rd_32 (r, &rate))
        gp_die (_("%s: file too short to be a gmon file\n"), r->name);
      if (run->watch)
        run->watch->hist_header (run->watch->ctx, r->name, lowpc, highpc,
                                 (unsigned) ((ncnt - GMON_BSD44_HDR_SIZE
                                              ((uint32_t) vb)) / 2), rate);
      if (h->n == 0)
        h->hz = rate;
      else if (h->hz != rate)
        gp_die (_("%s: profiling rate incompatible with first gmon file\n"),
                r->name);
      header_size = GMON_BSD44_HDR_SIZE ((uint32_t) vb);
    }
  else
    {
      if (run->opt.file_format == FF_BSD44)
        gp_die (_("%s: file `%s' has bad magic cookie\n"), whoami, r->name);
      header_size = GMON_BSD_OLD_HDR_SIZE ((uint32_t) vb);
    }
  if (!rd_seek (r, header_size))
    {
      perror (r->name);
      gp_exit_failure ();
    }

  /* GNU keeps the size of the bins in an int: 2 GiB or more is
     negative there, and so not a profile.  */
  samp_bytes = (int64_t) (uint32_t) (ncnt - header_size);
  if (samp_bytes > INT32_MAX)
    samp_bytes -= (int64_t) 1 << 32;
  nbins = samp_bytes > 0 ? (unsigned) (samp_bytes / 2) : 0;
  if (h->n > 0 && (lowpc != h->rec[0].lowpc || highpc != h->rec[0].highpc
                   || nbins != h->rec[0].nbins))
    gp_die (_("%s: incompatible with first gmon file\n"), r->name);
  /* GNU gprof goes on with a negative size here and tries to allocate
     gigabytes; such a file is not a profile.  */
  if (samp_bytes < 0 || lowpc > highpc)
    gp_die (_("%s: file '%s' does not appear to be in gmon.out format\n"),
            whoami, r->name);
  if ((uint64_t) nbins * 2 > rd_left (r))
    gp_die (_("%s: unexpected EOF after reading %d/%d bins\n"), whoami,
            (int) (rd_left (r) / 2) - 1, (int) nbins);
  raw = NULL;
  if (h->n == 0)
    {
      rec = hist_new_record (h, lowpc, highpc, nbins, NULL);
      h->scale = hist_record_scale (lowpc, highpc, nbins);
      got = rd_bins (r, NULL, rec->once, nbins);
    }
  else
    {
      rec = &h->rec[0];
      raw = run->watch ? gp_reallocarray (NULL, nbins + 1, sizeof *raw) : NULL;
      got = rd_bins (r, hist_sums (rec), raw, nbins);
    }
  if (nbins > 0)
    counts[0]++;
  if (got < nbins)
    gp_die (_("%s: unexpected EOF after reading %d/%d bins\n"), whoami,
            (int) got - 1, (int) nbins);
  if (run->watch)
    run->watch->hist (run->watch->ctx, lowpc, highpc, nbins,
                      raw ? raw : rec->once);
  free (raw);

  /* Then arcs until the end, in batches; a partial last one is
     ignored.  */
  for (bool more = true; more;)
    {
      ArcRecord *batch = cg_tally_buffer (&run->cg);
      size_t n = 0;
      vma_t from, self;
      uint64_t count;

      while (n < ARC_BATCH && (more = rd_vma (r, &from) && rd_vma (r, &self)
                                      && rd_uint (r, vb, &count)))
        batch[n++] = (ArcRecord) { from, self, (unsigned long) count };
      counts[1] += (unsigned) n;
      tally_arcs (run, r, batch, n);
    }
  if (h->hz == 0)
    h->hz = host_hz ();
  run->gmon_input |= INPUT_HISTOGRAM | INPUT_CALL_GRAPH;
}

/* ---- call stacks beside a profile ----------------------------------------

   "<profile>.stacks" (gmon_out.h), read when options_parse says so
   (read_stacks): for --measured-time, the exports, --diagnose and -s.
   Its nodes join the run's tree of stacks, so that the stacks of all
   the files add up as their histograms do.  */

void
stacks_bad (const StacksIn *in, const char *what)
{
  gp_die (_("%s: %s: %s (file corrupted?)\n"), whoami, in->name, what);
}

uint64_t
stacks_leb (StacksIn *in)
{
  uint64_t v = 0;

  for (unsigned shift = 0; shift < 64; shift += 7)
    {
      unsigned char b;

      if (in->at == in->len)
        stacks_bad (in, _("unexpected end of file"));
      b = in->p[in->at++];
      v |= (uint64_t) (b & 0x7f) << shift;
      if (b < 0x80)
        return v;
    }
  stacks_bad (in, _("number too long"));
}

bool
gmon_file_hash (const char *filename, uint64_t *hash)
{
  FILE *f = fopen (filename, "rb");
  unsigned char *buf;
  size_t n;

  if (!f)
    return false;
  buf = gp_malloc (READ_BUF);
  *hash = GMON_STACKS_HASH_INIT;
  while ((n = fread (buf, 1, READ_BUF, f)) > 0)
    *hash = gmon_stacks_hash (*hash, buf, n);
  free (buf);
  n = (size_t) ferror (f);
  fclose (f);
  return n == 0;
}

/* The most frames a stack may have: libgmon keeps at most 128.  */
enum { MAX_STACK_DEPTH = 4096 };

static void
read_stacks_nodes (Run *run, StacksIn *in, unsigned depth)
{
  CallStacks *cs = &run->stacks;
  uint64_t n = stacks_leb (in);
  uint32_t *node, *level;
  vma_t mask = run->core->vma_bytes == 8 ? UINT64_MAX : UINT32_MAX;

  /* Each node takes three bytes at least.  */
  if (n > (in->len - in->at) / 3)
    stacks_bad (in, _("more nodes than the file holds"));
  node = gp_reallocarray (NULL, n ? n : 1, sizeof *node);
  level = gp_reallocarray (NULL, n ? n : 1, sizeof *level);
  for (uint64_t i = 0; i < n; i++)
    {
      uint64_t up = stacks_leb (in);
      uint64_t pc = stacks_leb (in);
      uint64_t weight = stacks_leb (in);
      uint32_t parent = STACK_ROOT;

      if (up > i)
        stacks_bad (in, _("a node's parent is not before it"));
      level[i] = up ? level[i - up] + 1 : 1;
      if (level[i] > depth)
        stacks_bad (in, _("a stack deeper than the file's bound"));
      if (up)
        parent = node[i - up];
      node[i] = cg_stacks_node (cs, parent, (vma_t) pc & mask);
      cs->weight[node[i]] += weight;
    }
  free (level);
  free (node);
}

bool
side_file_read (const char *filename, const char *suffix, const char *magic,
                unsigned version, const char *not_used, StacksIn *in,
                uint64_t *hash)
{
  size_t len = strlen (filename), slen = strlen (suffix);
  char *name = gp_malloc (len + slen + 1);
  size_t mlen = strlen (magic);
  struct stat st;
  FILE *f;

  memcpy (name, filename, len);
  memcpy (name + len, suffix, slen + 1);
  *in = (StacksIn) { name, NULL, 0, 0 };
  if (!(f = fopen (name, "rb")))
    {
      if (errno != ENOENT)
        gp_warn (not_used, whoami, name, strerror (errno));
      free (name);
      in->name = NULL;
      return false;
    }
  if (fstat (fileno (f), &st) != 0 || !S_ISREG (st.st_mode)
      || (uint64_t) st.st_size > SIZE_MAX / 2)
    stacks_bad (in, _("not a regular file"));
  in->len = (size_t) st.st_size;
  in->p = gp_malloc (in->len ? in->len : 1);
  if (fread ((void *) in->p, 1, in->len, f) != in->len)
    stacks_bad (in, _("unexpected end of file"));
  fclose (f);
  if (in->len < mlen || memcmp (in->p, magic, mlen) != 0)
    stacks_bad (in, _("bad magic cookie"));
  in->at = mlen;
  if (stacks_leb (in) != version)
    stacks_bad (in, _("unsupported version"));
  *hash = stacks_leb (in);
  return true;
}

/* Add the stacks beside FILENAME, if there are any that go with it.  */
static void
read_stacks_beside (Run *run, const char *filename)
{
  CallStacks *cs = &run->stacks;
  StacksIn in;
  uint64_t hash, profile_hash, depth, dropped, cut;

  if (!side_file_read (filename, GMON_STACKS_SUFFIX, GMON_STACKS_MAGIC,
                       GMON_STACKS_VERSION,
                       _("%s: %s: %s: the call stacks are not used\n"),
                       &in, &hash))
    return;
  depth = stacks_leb (&in);
  dropped = stacks_leb (&in);
  cut = stacks_leb (&in);
  if (depth == 0 || depth > MAX_STACK_DEPTH)
    stacks_bad (&in, _("bad depth"));
  /* A run without stacks leaves those of an earlier run behind.  */
  if (!gmon_file_hash (filename, &profile_hash) || profile_hash != hash)
    gp_warn (_("%s: %s: not the call stacks of %s (written by another run):"
               " not used\n"), whoami, in.name, filename);
  else
    {
      read_stacks_nodes (run, &in, (unsigned) depth);
      if (in.at != in.len)
        stacks_bad (&in, _("bytes after the last node"));
      cs->dropped += dropped;
      cs->cut += cut;
      if (depth > cs->depth)
        cs->depth = (unsigned) depth;
      cs->files++;
    }
  free ((void *) in.p);
  free ((void *) in.name);
}

/* ---- reading a file ----------------------------------------------------- */

static void
read_file (Run *run, const char *filename, SinceArcs *keep, SinceArcs *less)
{
  Reader r = { 0 };
  unsigned char hdr[GMON_HEADER_SIZE];
  unsigned counts[3] = { 0, 0, 0 };
  struct stat st;
  bool magic;
  FileFormat ff = run->opt.file_format;

  r.name = filename;
  r.core = run->core;
  r.size = UINT64_MAX;
  r.keep = keep;
  r.less = less;
  if ((r.ahead = ahead_take (run, filename)))
    {
      r.f = r.ahead->rest;
      r.buf = r.ahead->data;
      r.end = r.ahead->len;
      r.size = r.ahead->size;
    }
  else
    {
      r.buf = gp_malloc (READ_BUF);
      if (strcmp (filename, "-") == 0)
        r.f = stdin;
      else if (!(r.f = fopen (filename, "rb")))
        {
          perror (filename);
          gp_exit_failure ();
        }
      if (fstat (fileno (r.f), &st) == 0 && S_ISREG (st.st_mode))
        r.size = (uint64_t) st.st_size;
    }

  if (!rd_bytes (&r, hdr, sizeof hdr))
    gp_die (_("%s: file too short to be a gmon file\n"), filename);
  magic = memcmp (hdr, GMON_MAGIC, GMON_MAGIC_LEN) == 0;
  if (ff == FF_MAGIC || (ff == FF_AUTO && magic))
    {
      if (!magic)
        gp_die (_("%s: file `%s' has bad magic cookie\n"), whoami, filename);
      read_gnu (run, &r, hdr, counts);
    }
  else if (ff == FF_AUTO || ff == FF_BSD || ff == FF_BSD44)
    {
      /* The BSD headers have no clock: CPU time.  */
      hist_set_clock (&run->hist, filename, 0);
      read_bsd (run, &r, counts);
    }
  else
    gp_die (_("%s: don't know how to deal with file format %d\n"), whoami,
            (int) ff);
  if (run->watch)
    run->watch->file_end (run->watch->ctx);
  if (run->opt.read_stacks && strcmp (filename, "-") != 0)
    read_stacks_beside (run, filename);
  if (r.ahead)
    ahead_free (r.ahead);
  else
    {
      if (r.f != stdin)
        fclose (r.f);
      free (r.buf);
    }

  if (run->opt.output_style & STYLE_GMON_INFO)
    {
      out_printf (_("File `%s' (version %d) contains:\n"), filename,
              run->gmon_file_version);
      out_printf (counts[0] == 1 ? _("\t%d histogram record\n")
                             : _("\t%d histogram records\n"), counts[0]);
      out_printf (counts[1] == 1 ? _("\t%d call-graph record\n")
                             : _("\t%d call-graph records\n"), counts[1]);
      out_printf (counts[2] == 1 ? _("\t%d basic-block count record\n")
                             : _("\t%d basic-block count records\n"), counts[2]);
      run->first_output = false;
    }
}

void
gmon_read (Run *run, const char *filename)
{
  read_file (run, filename, NULL, NULL);
}

void
gmon_read_kept (Run *base, const char *filename, SinceArcs *arcs)
{
  read_file (base, filename, arcs, NULL);
}

void
gmon_read_less (Run *run, const char *filename, SinceArcs *arcs)
{
  read_file (run, filename, NULL, arcs);
}

/* ---- snapshot records ----------------------------------------------------

   "<profile>.snap" (gmon_out.h): lines of "key value".  */

/* Records are a few lines; anything much bigger is not one.  */
enum { SNAP_MAX = 4096 };

static void __attribute__ ((noreturn))
snap_bad (const char *name, const char *what)
{
  gp_die (_("%s: %s: %s (not a snapshot record?)\n"), whoami, name, what);
}

/* The number in BASE (10 or 16) that is all of S.  */
static bool
snap_number (const char *s, int base, uint64_t *v)
{
  char *end;

  if (!(*s >= '0' && *s <= '9') && !(base == 16 && *s >= 'a' && *s <= 'f'))
    return false;
  errno = 0;
  *v = strtoull (s, &end, base);
  return errno == 0 && *end == '\0';
}

/* "seconds.nanoseconds", nine digits of them.  */
static bool
snap_time (char *s, GmonSnap *snap)
{
  char *dot = strchr (s, '.');

  if (!dot || strlen (dot + 1) != 9)
    return false;
  *dot = '\0';
  return snap_number (s, 10, &snap->sec) && snap_number (dot + 1, 10,
                                                         &snap->nsec);
}

bool
gmon_read_snap (const char *filename, GmonSnap *snap)
{
  size_t len = strlen (filename);
  char *name = gp_malloc (len + sizeof GMON_SNAP_SUFFIX);
  char *text = gp_malloc (SNAP_MAX + 1);
  FILE *f;
  size_t n;
  unsigned seen = 0;
  uint64_t hash = 0, profile_hash;
  char *line, *next;

  memcpy (name, filename, len);
  memcpy (name + len, GMON_SNAP_SUFFIX, sizeof GMON_SNAP_SUFFIX);
  memset (snap, 0, sizeof *snap);
  if (!(f = fopen (name, "rb")))
    {
      if (errno != ENOENT)
        gp_die ("%s: %s: %s\n", whoami, name, strerror (errno));
      free (text);
      free (name);
      return false;
    }
  n = fread (text, 1, SNAP_MAX + 1, f);
  if (ferror (f))
    gp_die ("%s: %s: %s\n", whoami, name, strerror (errno));
  fclose (f);
  if (n > SNAP_MAX)
    snap_bad (name, _("too long"));
  text[n] = '\0';
  if (n == 0 || text[n - 1] != '\n' || strlen (text) != n)
    snap_bad (name, _("not lines of text"));
  for (line = text; *line; line = next)
    {
      char *value;

      next = strchr (line, '\n');
      *next++ = '\0';
      if (line == text)
        {
          if (strcmp (line, GMON_SNAP_HEADER) != 0)
            snap_bad (name, _("bad first line"));
          continue;
        }
      if (!(value = strchr (line, ' ')))
        snap_bad (name, _("a line without a value"));
      *value++ = '\0';
      /* The keys a reader needs; others are for people, or later.  */
      if (strcmp (line, "run") == 0 && snap_number (value, 16, &snap->run))
        seen |= 1;
      else if (strcmp (line, "seq") == 0
               && snap_number (value, 10, &snap->seq))
        seen |= 2;
      else if (strcmp (line, "time") == 0 && snap_time (value, snap))
        seen |= 4;
      else if (strcmp (line, "clock") == 0 && *value
               && strlen (value) < sizeof snap->clock)
        {
          strcpy (snap->clock, value);
          seen |= 8;
        }
      else if (strcmp (line, "profile") == 0
               && snap_number (value, 16, &hash))
        seen |= 16;
      else if (strcmp (line, "run") == 0 || strcmp (line, "seq") == 0
               || strcmp (line, "time") == 0 || strcmp (line, "clock") == 0
               || strcmp (line, "profile") == 0)
        snap_bad (name, _("a bad value"));
    }
  if (seen != 31)
    snap_bad (name, _("run, seq, time, clock or profile missing"));
  snap->current = gmon_file_hash (filename, &profile_hash) && profile_hash == hash;
  free (text);
  free (name);
  return true;
}

/* ---- writing the sum ------------------------------------------------------ */

typedef struct Writer
{
  FILE *f;
  const Core *core;
  const char *name;       /* for messages */
  uint64_t hash;          /* of the bytes written (gmon_out.h) */
} Writer;

/* As GNU gprof, with perror; the temporary file goes (outfile.c).  */
static void
die_write (const Writer *w)
{
  perror (w->name);
  gp_exit_failure ();
}

static void
wr_bytes (Writer *w, const void *p, size_t n)
{
  if (n && fwrite (p, 1, n, w->f) != n)
    die_write (w);
  w->hash = gmon_stacks_hash (w->hash, p, n);
}

static void
wr_uint (Writer *w, uint64_t v, int n)
{
  unsigned char b[8];

  for (int i = 0; i < n; i++)
    b[w->core->big_endian ? n - 1 - i : i] = (unsigned char) (v >> (8 * i));
  wr_bytes (w, b, (size_t) n);
}

static void
wr_vma (Writer *w, vma_t v)
{
  wr_uint (w, v, w->core->vma_bytes);
}

static void
wr_byte (Writer *w, int c)
{
  unsigned char b = (unsigned char) c;

  wr_bytes (w, &b, 1);
}

/* Records needed for VALUE when one holds at most LIMIT: at least one.
   Readers add up records of the same histogram range, arc or block, so
   a count too wide for its field is split over several (GNU gprof cuts
   it to the field's width instead).  */
static uint64_t
nrecords (uint64_t value, uint64_t limit)
{
  return value <= limit ? 1 : value / limit + (value % limit != 0);
}

/* The part of VALUE that record K of nrecords (VALUE, LIMIT) holds: the
   limit in each but the last, the rest in that one.  */
static uint64_t
record_part (uint64_t value, uint64_t limit, uint64_t k)
{
  if (value / limit > k)
    return limit;
  return value / limit == k ? value % limit : 0;
}

/* Record K of REC's bins: each bin's K-th piece of 16 bits' worth.  */
static void
wr_bins (Writer *w, const HistRecord *rec, uint64_t k)
{
  for (unsigned i = 0; i < rec->nbins; i++)
    wr_uint (w, record_part (hist_count (rec, i), UINT16_MAX, k), 2);
}

/* How many records REC's biggest bin needs.  */
static uint64_t
hist_nrecords (const HistRecord *rec)
{
  uint64_t max = 0;

  for (unsigned i = 0; i < rec->nbins; i++)
    if (hist_count (rec, i) > max)
      max = hist_count (rec, i);
  return nrecords (max, UINT16_MAX);
}

/* The most arc records that split counts may add to a sum (1.4 MB of
   them).  Records read hold 32-bit counts, except those of 64-bit BSD
   files: one of those may hold 2^64 - 1, 2^32 records' worth.  */
enum { MAX_SPLIT_ARCS = 1 << 16 };

/* The arc records a sum in FORMAT needs beyond one an arc; dies when
   they would be more than MAX_SPLIT_ARCS, before anything is written.  */
static void
check_arc_records (const Run *run, const char *name, bool tagged)
{
  uint64_t limit = tagged || run->core->vma_bytes == 4 ? UINT32_MAX
                                                       : UINT64_MAX;
  uint64_t extra = 0;

  for (size_t a = 0; a < run->cg.narcs; a++)
    {
      extra += nrecords (run->cg.arcs[a].count, limit) - 1;
      if (extra > MAX_SPLIT_ARCS)
        gp_die (_("%s: %s: call counts too large for the format: "
                  "an arc of %lu calls\n"), whoami, name,
                run->cg.arcs[a].count);
    }
}

/* Each symbol's arcs as a child list of GNU's: newest first.  The
   addresses written are the symbols', not the original call sites.  */
static void
wr_arcs (Writer *w, const Run *run, bool tagged)
{
  const CallGraph *cg = &run->cg;
  size_t n = run->symtab.len;
  size_t *start = gp_calloc (n + 1, sizeof *start);
  size_t *order = gp_reallocarray (NULL, cg->narcs ? cg->narcs : 1, sizeof *order);

  for (size_t a = 0; a < cg->narcs; a++)
    start[(size_t) (cg->arcs[a].parent - run->symtab.base) + 1]++;
  for (size_t i = 0; i < n; i++)
    start[i + 1] += start[i];
  for (size_t a = cg->narcs; a-- > 0;)
    order[start[(size_t) (cg->arcs[a].parent - run->symtab.base)]++] = a;
  for (size_t k = 0; k < cg->narcs; k++)
    {
      const Arc *arc = &cg->arcs[order[k]];
      int width = tagged || w->core->vma_bytes == 4 ? 4 : 8;
      uint64_t limit = width == 4 ? UINT32_MAX : UINT64_MAX;

      for (uint64_t r = 0; r < nrecords (arc->count, limit); r++)
        {
          if (tagged)
            wr_byte (w, GMON_TAG_CG_ARC);
          wr_vma (w, arc->parent->addr);
          wr_vma (w, arc->child->addr);
          wr_uint (w, record_part (arc->count, limit, r), width);
        }
    }
  free (order);
  free (start);
}

static void
write_gnu (Writer *w, const Run *run)
{
  static const unsigned char spare[12];
  const Histograms *h = &run->hist;

  wr_bytes (w, GMON_MAGIC, GMON_MAGIC_LEN);
  wr_uint (w, GMON_VERSION, 4);
  if (h->dispersion > 1 || h->wall)
    {
      double d = h->dispersion * GMON_DISP_ONE;

      wr_bytes (w, GMON_DISP_TAG, 4);
      wr_uint (w, d < UINT32_MAX ? (uint32_t) d : UINT32_MAX, 4);
      wr_uint (w, h->wall ? GMON_FLAG_WALL : 0, 4);
    }
  else
    wr_bytes (w, spare, sizeof spare);
  if (run->gmon_input & INPUT_HISTOGRAM)
    for (size_t i = 0; i < h->n; i++)
      for (uint64_t k = 0; k < hist_nrecords (&h->rec[i]); k++)
        {
          wr_byte (w, GMON_TAG_TIME_HIST);
          wr_vma (w, h->rec[i].lowpc);
          wr_vma (w, h->rec[i].highpc);
          wr_uint (w, h->rec[i].nbins, 4);
          wr_uint (w, h->hz, 4);
          wr_bytes (w, h->dimension, GMON_HIST_DIMEN_LEN);
          wr_byte (w, h->dimen_abbrev);
          wr_bins (w, &h->rec[i], k);
        }
  if (run->gmon_input & INPUT_CALL_GRAPH)
    wr_arcs (w, run, true);
  if (run->gmon_input & INPUT_BB_COUNTS)
    {
      uint64_t limit = w->core->vma_bytes == 4 ? UINT32_MAX : UINT64_MAX;
      uint64_t total = 0;

      for (size_t i = 0; i < run->symtab.len; i++)
        for (int j = 0; run->symtab.base[i].bb && j < NBBS
                        && run->symtab.base[i].bb->addr[j]; j++)
          total += nrecords (run->symtab.base[i].bb->calls[j], limit);
      /* At most 10 blocks a symbol, split in two or three pieces.  */
      if (total > UINT32_MAX)
        gp_die (_("%s: %s: too many basic-block counts for one record\n"),
                whoami, w->name);
      wr_byte (w, GMON_TAG_BB_COUNT);
      wr_uint (w, total, 4);
      for (size_t i = 0; i < run->symtab.len; i++)
        {
          const BBCounts *bb = run->symtab.base[i].bb;

          for (int j = 0; bb && j < NBBS && bb->addr[j]; j++)
            for (uint64_t r = 0; r < nrecords (bb->calls[j], limit); r++)
              {
                wr_vma (w, bb->addr[j]);
                wr_vma (w, record_part (bb->calls[j], limit, r));
              }
        }
    }
}

static void
write_bsd (Writer *w, const Run *run)
{
  static const unsigned char spare[12];
  const Histograms *h = &run->hist;
  const HistRecord *rec = &h->rec[0];
  uint32_t vb = (uint32_t) w->core->vma_bytes;

  /* The BSD formats have one histogram: no second record to carry what
     does not fit in 16 bits.  */
  if (hist_nrecords (rec) > 1)
    gp_die (_("%s: %s: a histogram bin holds more than the 65535 samples "
              "the BSD format can hold (use the GNU format)\n"),
            whoami, w->name);
  wr_vma (w, rec->lowpc);
  wr_vma (w, rec->highpc);
  /* The old header cannot hold a rate: it is used only when the rate is
     the one a reader will assume.  */
  if (run->opt.file_format == FF_BSD44 || h->hz != host_hz ())
    {
      wr_uint (w, rec->nbins * 2 + GMON_BSD44_HDR_SIZE (vb), 4);
      wr_uint (w, GMON_BSD44_VERSION, 4);
      wr_uint (w, h->hz, 4);
      wr_bytes (w, spare, sizeof spare);
    }
  else
    wr_uint (w, rec->nbins * 2 + GMON_BSD_OLD_HDR_SIZE (vb), 4);
  wr_bins (w, rec, 0);
  wr_arcs (w, run, false);
}

static void
wr_leb (Writer *w, uint64_t v)
{
  unsigned char b[10];
  size_t n = 0;

  while (v >= 0x80)
    {
      b[n++] = (unsigned char) (v | 0x80);
      v >>= 7;
    }
  b[n++] = (unsigned char) v;
  wr_bytes (w, b, n);
}

/* The stacks read, beside the sum FILENAME whose bytes hash to
   PROFILE_HASH.  */
static void
write_stacks (const Run *run, const char *filename, uint64_t profile_hash)
{
  const CallStacks *cs = &run->stacks;
  size_t len = strlen (filename);
  char *name = gp_malloc (len + sizeof GMON_STACKS_SUFFIX);
  Writer w = { 0 };
  int err;

  memcpy (name, filename, len);
  memcpy (name + len, GMON_STACKS_SUFFIX, sizeof GMON_STACKS_SUFFIX);
  w.core = run->core;
  w.name = name;
  if (!(w.f = outfile_open (name)))
    die_write (&w);
  wr_bytes (&w, GMON_STACKS_MAGIC, GMON_STACKS_MAGIC_LEN);
  wr_leb (&w, GMON_STACKS_VERSION);
  wr_leb (&w, profile_hash);
  wr_leb (&w, cs->depth);
  wr_leb (&w, cs->dropped);
  wr_leb (&w, cs->cut);
  wr_leb (&w, cs->n);
  for (size_t i = 0; i < cs->n; i++)
    {
      wr_leb (&w, cs->up[i] == STACK_ROOT ? 0 : i - cs->up[i]);
      wr_leb (&w, cs->pc[i]);
      wr_leb (&w, cs->weight[i]);
    }
  if ((err = outfile_close (w.f)) != 0)
    {
      errno = err;
      die_write (&w);
    }
  free (name);
}

void
gmon_write (Run *run, const char *filename)
{
  Writer w = { 0 };
  FileFormat ff = run->opt.file_format;
  int err;

  w.core = run->core;
  w.name = filename;
  w.hash = GMON_STACKS_HASH_INIT;
  if (ff != FF_AUTO && ff != FF_MAGIC
      && !((ff == FF_BSD || ff == FF_BSD44) && run->hist.n > 0))
    gp_die (_("%s: don't know how to deal with file format %d\n"), whoami,
            (int) ff);
  if (run->gmon_input & INPUT_CALL_GRAPH)
    check_arc_records (run, filename, ff == FF_AUTO || ff == FF_MAGIC);
  if (!(w.f = outfile_open (filename)))
    die_write (&w);
  if (ff == FF_AUTO || ff == FF_MAGIC)
    write_gnu (&w, run);
  else
    write_bsd (&w, run);
  if ((err = outfile_close (w.f)) != 0)
    {
      errno = err;
      die_write (&w);
    }
  if (run->stacks.files > 0)
    write_stacks (run, filename, w.hash);
}
