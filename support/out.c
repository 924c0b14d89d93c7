/* support/out.c - printf-compatible output without printf.  */

#include "config.h"
#include "support/out.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <math.h>
#include <unistd.h>
#include <sys/uio.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include "i18n.h"
#include "support/error.h"
#include "support/alloc.h"

/* A thread's buffer is its own 64 KiB (out_store), handed to stdout
   when full; or, while out_capture_begin is in force, one in memory that
   grows; or, while the thread prints a batch for par_print, a
   chain of 64 KiB chunks kept until the batch's turn to go out comes.  */
typedef enum OutMode { OUT_DIRECT, OUT_CAPTURE, OUT_CHAIN } OutMode;

struct OutChunk
{
  OutChunk *next;
  size_t len;
  char data[OUT_BUF];
};

static _Thread_local char out_store[OUT_BUF];
static _Thread_local char *out_base;
static _Thread_local OutMode out_mode;
_Thread_local char *out_pos, *out_end;
/* OUT_CHAIN: the batch's chunks so far, the last being written.  */
static _Thread_local OutChunk *chain_first, *chain_last;

/* The first error writing to stdout (0: none), for out_close.  */
static int out_errno;

static void
note_error (int err)
{
  int none = 0;

  __atomic_compare_exchange_n (&out_errno, &none, err, false,
                               __ATOMIC_RELAXED, __ATOMIC_RELAXED);
}

/* The N pieces of IOV straight to file descriptor 1: going through
   stdio would copy every byte once more.  False after an error (noted
   for out_close), to stop writing.  */
static bool
write_iov (struct iovec *iov, int n)
{
  if (fflush (stdout) != 0)
    note_error (errno);
  while (n > 0)
    {
      ssize_t w = writev (STDOUT_FILENO, iov, n);

      if (w < 0 && errno == EINTR)
        continue;
      if (w <= 0)
        {
          note_error (w < 0 ? errno : EIO);
          return false;
        }
      /* Skip what went out, which may end within a piece.  */
      while (n > 0 && (size_t) w >= iov->iov_len)
        {
          w -= (ssize_t) iov->iov_len;
          iov++;
          n--;
        }
      if (n > 0)
        {
          iov->iov_base = (char *) iov->iov_base + w;
          iov->iov_len -= (size_t) w;
        }
    }
  return true;
}

static void
write_stdout (const char *s, size_t n)
{
  struct iovec iov = { (void *) s, n };

  if (n > 0)
    write_iov (&iov, 1);
}

/* Grow the kept buffer to more than N free bytes.  */
static void
keep_room (size_t n)
{
  size_t used = (size_t) (out_pos - out_base);
  size_t cap = (size_t) (out_end - out_base);

  if (cap == 0)
    cap = 4 * OUT_BUF;
  while (cap - used <= n)
    {
      if (cap > SIZE_MAX / 2)
        gp_die (_("%s: out of memory\n"), whoami);
      cap *= 2;
    }
  out_base = gp_realloc (out_base, cap);
  out_pos = out_base + used;
  out_end = out_base + cap;
}

/* Chunks written out wait here for the next batches: they are reused
   while still in the caches, and fresh memory costs a page fault every
   4 KiB.  */
static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static OutChunk *pool;

static OutChunk *
chunk_get (void)
{
  OutChunk *c;

  pthread_mutex_lock (&pool_lock);
  c = pool;
  if (c)
    pool = c->next;
  pthread_mutex_unlock (&pool_lock);
  if (!c)
    c = gp_malloc (sizeof *c);
  c->next = NULL;
  c->len = 0;
  return c;
}

static void
chunks_put (OutChunk *first)
{
  OutChunk *last = first;

  if (!first)
    return;
  while (last->next)
    last = last->next;
  pthread_mutex_lock (&pool_lock);
  last->next = pool;
  pool = first;
  pthread_mutex_unlock (&pool_lock);
}

static void
pool_free (void)
{
  while (pool)
    {
      OutChunk *c = pool;

      pool = c->next;
      free (c);
    }
}

/* Close the chain's last chunk and write on in a new one.  */
static void
chain_grow (void)
{
  OutChunk *c = chunk_get ();

  if (chain_last)
    {
      chain_last->len = (size_t) (out_pos - chain_last->data);
      chain_last->next = c;
    }
  else
    chain_first = c;
  chain_last = c;
  out_base = out_pos = c->data;
  out_end = c->data + OUT_BUF;
}

void
out_flush (void)
{
  if (out_mode == OUT_CAPTURE)
    {
      keep_room (OUT_BUF);
      return;
    }
  if (out_mode == OUT_CHAIN)
    {
      chain_grow ();
      return;
    }
  if (out_pos)
    write_stdout (out_base, (size_t) (out_pos - out_base));
  out_base = out_pos = out_store;
  out_end = out_store + OUT_BUF;
}

int
out_close (void)
{
  out_flush ();
  /* A closed stdout is no error: nothing was written to it.  */
  if (fcntl (STDOUT_FILENO, F_GETFD) < 0 && errno == EBADF)
    return out_errno;
  bool failed = ferror (stdout);

  if (fclose (stdout) != 0)
    note_error (errno);
  else if (failed)
    note_error (EIO);
  return out_errno;
}

void
out_write_big (const char *s, size_t n)
{
  if (out_mode == OUT_CAPTURE)
    {
      keep_room (n);
      memcpy (out_pos, s, n);
      out_pos += n;
      return;
    }
  if (out_mode == OUT_CHAIN)
    {
      while (n > 0)
        {
          size_t k = (size_t) (out_end - out_pos);

          if (k == 0)
            {
              chain_grow ();
              continue;
            }
          if (k > n)
            k = n;
          memcpy (out_pos, s, k);
          out_pos += k;
          s += k;
          n -= k;
        }
      return;
    }
  out_flush ();
  write_stdout (s, n);
}

/* The thread's buffer from before a capture or a chain.  */
static _Thread_local char *saved_base, *saved_pos, *saved_end;

static void
set_aside (OutMode mode)
{
  saved_base = out_base;
  saved_pos = out_pos;
  saved_end = out_end;
  out_mode = mode;
  out_base = out_pos = out_end = NULL;
}

static void
take_back (void)
{
  out_mode = OUT_DIRECT;
  out_base = saved_base;
  out_pos = saved_pos;
  out_end = saved_end;
}

void
out_capture_begin (void)
{
  set_aside (OUT_CAPTURE);
}

size_t
out_captured (void)
{
  return out_pos ? (size_t) (out_pos - out_base) : 0;
}

char *
out_capture_end (size_t *len)
{
  char *buf = out_base;

  *len = out_captured ();
  take_back ();
  return buf;
}

/* Write the N bytes at S padded to WIDTH (on the left unless LEFT).  */
static void
out_padded (const char *s, size_t n, int width, bool left)
{
  size_t pad = width > (int) n ? (size_t) width - n : 0;

  if (n > 32 || pad > 32)
    {
      /* Long names and absurd widths: the general way.  */
      if (!left)
        out_spaces ((int) pad);
      out_write (s, n);
      if (left)
        out_spaces ((int) pad);
      return;
    }
  /* Numbers and tags: blank a fixed 64 bytes (cheap), then place the
     text in them.  */
  out_reserve (64);
  memset (out_pos, ' ', 64);
  memcpy (out_pos + (left ? 0 : pad), s, n);
  out_pos += n + pad;
}

void
out_field (const char *s, int width, bool left)
{
  out_padded (s, strnlen (s, (size_t) width), width, left);
}

const char out_digit_pairs[] =
  "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
  "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
  "8081828384858687888990919293949596979899";

const unsigned long long out_powers_of_ten[] = {
  1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL, 10000000ULL,
  100000000ULL, 1000000000ULL, 10000000000ULL, 100000000000ULL,
  1000000000000ULL, 10000000000000ULL, 100000000000000ULL,
  1000000000000000ULL, 10000000000000000ULL
};

/* Two digits per division, in 32 bits (cheaper) once V fits them.  */
char *
out_utoa (unsigned long long v, char *end)
{
  uint32_t x;

  while (v > UINT32_MAX)
    {
      unsigned d = (unsigned) (v % 100);

      v /= 100;
      end -= 2;
      memcpy (end, out_digit_pairs + 2 * d, 2);
    }
  x = (uint32_t) v;
  while (x >= 100)
    {
      uint32_t d = x % 100;

      x /= 100;
      end -= 2;
      memcpy (end, out_digit_pairs + 2 * d, 2);
    }
  if (x >= 10)
    {
      end -= 2;
      memcpy (end, out_digit_pairs + 2 * x, 2);
    }
  else
    *--end = (char) ('0' + x);
  return end;
}

void
out_ulong (unsigned long v, int width, bool left)
{
  char digits[24], *end = digits + sizeof digits, *p = out_utoa (v, end);

  out_padded (p, (size_t) (end - p), width, left);
}

int
out_int (long long v)
{
  char digits[24], *end = digits + sizeof digits, *p;
  unsigned long long u = v < 0 ? -(unsigned long long) v : (unsigned long long) v;

  p = out_utoa (u, end);
  if (v < 0)
    *--p = '-';
  out_write (p, (size_t) (end - p));
  return (int) (end - p);
}

int
out_hex (unsigned long long v)
{
  char digits[24], *end = digits + sizeof digits, *p = end;

  do
    {
      *--p = "0123456789abcdef"[v & 15];
      v >>= 4;
    }
  while (v);
  out_write (p, (size_t) (end - p));
  return (int) (end - p);
}

/* X * SCALE rounded to nearest, ties to even, on the exact product, as
   glibc rounds it, for 0 <= X < 1e12, when the rounded product T lies
   within a hair of a half: fused multiply-adds give the exact sign of
   X * SCALE - candidate.  */
unsigned long long
out_round_near_tie (double x, double scale, unsigned long long t)
{
  double n = (double) t, r;

  if (fma (x, scale, -n) < 0)
    n -= 1;
  else if (fma (x, scale, -(n + 1)) >= 0)
    n += 1;
  r = fma (x, scale, -(n + 0.5));
  if (r > 0 || (r == 0 && fmod (n, 2.0) == 1.0))
    n += 1;
  return (unsigned long long) n;
}

/* out_fmt_ulong's other cases: left-justified, wider than 16, or a
   number wider than its field.  */
char *
out_fmt_ulong_general (char *p, unsigned long v, int width, bool left)
{
  /* Room for 16 bytes read from the first digit.  */
  char digits[40], *end = digits + 24, *d;
  int len;

  d = out_utoa (v, end);
  len = (int) (end - d);
  if (left && width <= 16 && len <= 16)
    {
      memcpy (p, d, 16);        /* digits, then what follows them */
      memset (p + len, ' ', 16);
      return p + (width > len ? width : len);
    }
  for (; !left && width > len; width--)
    *p++ = ' ';
  memcpy (p, d, (size_t) len);
  p += len;
  for (; left && width > len; width--)
    *p++ = ' ';
  return p;
}

/* "%W.Pf" of X (|X| < 1e12) the general way: negative values, wide
   fields, numbers wider than their field.  */
char *
out_fmt_fixed_general (char *p, double x, int width, int prec,
                       unsigned long long n)
{
  char digits[40], *end = digits + sizeof digits, *d = end;
  int len;

  for (int i = 0; i < prec; i++)
    {
      *--d = (char) ('0' + n % 10);
      n /= 10;
    }
  if (prec > 0)
    *--d = '.';
  d = out_utoa (n, d);
  /* glibc keeps the sign of negative values that round to zero.  */
  if (signbit (x))
    *--d = '-';
  len = (int) (end - d);
  for (; width > len; width--)
    *p++ = ' ';
  memcpy (p, d, (size_t) len);
  return p + len;
}

void
out_fixed_printf (double x, int width, int prec)
{
  out_printf ("%*.*f", width, prec, x);
}

static int
out_vprintf (const char *fmt, va_list ap)
{
  char small[256], *big;
  va_list copy;
  int n;

  va_copy (copy, ap);
  n = vsnprintf (small, sizeof small, fmt, copy);
  va_end (copy);
  if (n < 0)
    return n;
  if ((size_t) n < sizeof small)
    {
      out_write (small, (size_t) n);
      return n;
    }
  /* A batch of par_print must stay in order: no stdio then.  */
  big = out_mode != OUT_DIRECT ? gp_malloc ((size_t) n + 1)
                               : malloc ((size_t) n + 1);
  if (!big)
    {
      /* Too large to format in memory: let stdio do it.  */
      out_flush ();
      return vprintf (fmt, ap);
    }
  vsnprintf (big, (size_t) n + 1, fmt, ap);
  out_write (big, (size_t) n);
  free (big);
  return n;
}

int
out_printf (const char *fmt, ...)
{
  va_list ap;
  int n;

  va_start (ap, fmt);
  n = out_vprintf (fmt, ap);
  va_end (ap);
  return n;
}

int
out_fprintf (FILE *f, const char *fmt, ...)
{
  va_list ap;
  int n;

  va_start (ap, fmt);
  n = f == stdout ? out_vprintf (fmt, ap) : vfprintf (f, fmt, ap);
  va_end (ap);
  return n;
}

/* ---- output into chunks, for the parallel printer ------------------------ */

void
out_chain_begin (void)
{
  set_aside (OUT_CHAIN);
  chain_first = chain_last = NULL;
  chain_grow ();
}

OutChunk *
out_chain_end (size_t *len)
{
  OutChunk *first = chain_first;

  chain_last->len = (size_t) (out_pos - chain_last->data);
  *len = 0;
  for (OutChunk *c = first; c; c = c->next)
    *len += c->len;
  take_back ();
  chain_first = chain_last = NULL;
  return first;
}

/* Up to this many chunks (4 MiB) go to stdout in one system call: the
   kernel copies big writes into a file's pages faster than small ones.  */
enum { WRITE_CHUNKS = 64 };

void
out_write_chains (OutChunk *const *chains, size_t n)
{
  struct iovec iov[WRITE_CHUNKS];
  int k = 0;

  for (size_t i = 0; i < n; i++)
    for (const OutChunk *c = chains[i]; c; c = c->next)
      {
        if (c->len == 0)
          continue;
        if (k == WRITE_CHUNKS)
          {
            if (!write_iov (iov, k))
              return;
            k = 0;
          }
        iov[k++] = (struct iovec) { (void *) c->data, c->len };
      }
  if (k > 0)
    write_iov (iov, k);
}

void
out_chain_release (OutChunk *chain)
{
  chunks_put (chain);
}

void
out_chunks_free (void)
{
  pool_free ();
}

void
out_print_job (const OutJob *job)
{
  void *state = job->state_new ? job->state_new (job->ctx) : NULL;

  job->print (job->ctx, state, 0, job->n);
  if (job->state_free)
    job->state_free (job->ctx, state);
}
