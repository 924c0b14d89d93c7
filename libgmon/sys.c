/* sys.c - system calls, the registry lock, memory and string helpers.

   These run inside mcount's slow path, the sampling handler and the
   writer, which may be entered from a signal handler.  So: no malloc, no
   stdio, no libc locks, and errno is preserved.  libc's syscall() is a
   plain assembler trampoline that touches no vector register, which is
   why it is the one libc function used here.  */

#define _GNU_SOURCE
#include <errno.h>
#include <linux/futex.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "internal.h"

__thread int gm_busy __attribute__ ((tls_model ("initial-exec")));

long
gm_syscall (long nr, long a, long b, long c, long d, long e, long f)
{
  int saved = errno;
  long r = syscall (nr, a, b, c, d, e, f);
  if (r == -1)
    r = -errno;
  errno = saved;
  return r;
}

int
gm_gettid (void)
{
  return (int) gm_syscall (SYS_gettid, 0, 0, 0, 0, 0, 0);
}

int
gm_getpid (void)
{
  return (int) gm_syscall (SYS_getpid, 0, 0, 0, 0, 0, 0);
}

void *
gm_map (size_t size)
{
  long r;
#ifdef SYS_mmap2
  /* 32-bit kernels: mmap2 (the old mmap takes a parameter block).  */
  r = gm_syscall (SYS_mmap2, 0, (long) size, PROT_READ | PROT_WRITE,
                  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
#else
  r = gm_syscall (SYS_mmap, 0, (long) size, PROT_READ | PROT_WRITE,
                  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
#endif
  /* Addresses may look negative on 32-bit; errors are -4095 .. -1.  */
  if ((unsigned long) r >= (unsigned long) -4095)
    return NULL;
  return (void *) r;
}

void
gm_unmap (void *p, size_t size)
{
  /* munmap of a mapping we created cannot fail except for a bug; there is
     nothing better to do than keep the memory.  */
  (void) gm_syscall (SYS_munmap, (long) p, (long) size, 0, 0, 0, 0);
}

/* ---- the lock: 0 free, 1 locked, 2 locked with waiters --------------- */

static int gm_lock_word;

void
gm_lock (void)
{
  int c = 0;
  if (__atomic_compare_exchange_n (&gm_lock_word, &c, 1, 0, __ATOMIC_ACQUIRE,
                                   __ATOMIC_RELAXED))
    return;
  if (c != 2)
    c = __atomic_exchange_n (&gm_lock_word, 2, __ATOMIC_ACQUIRE);
  while (c != 0)
    {
      /* EAGAIN (the word changed) and EINTR both mean: look again.  */
      (void) gm_syscall (SYS_futex, (long) &gm_lock_word,
                         FUTEX_WAIT_PRIVATE, 2, 0, 0, 0);
      c = __atomic_exchange_n (&gm_lock_word, 2, __ATOMIC_ACQUIRE);
    }
}

void
gm_unlock (void)
{
  /* FUTEX_WAKE on our own aligned word cannot fail.  */
  if (__atomic_exchange_n (&gm_lock_word, 0, __ATOMIC_RELEASE) == 2)
    (void) gm_syscall (SYS_futex, (long) &gm_lock_word, FUTEX_WAKE_PRIVATE,
                       1, 0, 0, 0);
}

void
gm_lock_reinit (void)
{
  __atomic_store_n (&gm_lock_word, 0, __ATOMIC_RELAXED);
}

/* ---- strings and memory ---------------------------------------------- */

size_t
gm_strlen (const char *s)
{
  size_t n = 0;
  while (s[n])
    n++;
  return n;
}

int
gm_append (char *buf, size_t cap, size_t *len, const char *s)
{
  size_t n = gm_strlen (s);
  if (*len + n + 1 > cap)
    return 0;
  for (size_t i = 0; i < n; i++)
    buf[*len + i] = s[i];
  *len += n;
  buf[*len] = '\0';
  return 1;
}

int
gm_append_uint (char *buf, size_t cap, size_t *len, unsigned long long v)
{
  char digits[24];
  size_t i = sizeof digits - 1;
  digits[i] = '\0';
  do
    {
      digits[--i] = (char) ('0' + v % 10);
      v /= 10;
    }
  while (v != 0);
  return gm_append (buf, cap, len, digits + i);
}

int
gm_write_all (int fd, const void *buf, size_t len)
{
  const char *p = buf;
  while (len > 0)
    {
      long r = gm_syscall (SYS_write, fd, (long) p, (long) len, 0, 0, 0);
      if (r == -EINTR)
        continue;
      if (r < 0)
        return (int) r;
      if (r == 0)
        return -EIO;
      p += r;
      len -= (size_t) r;
    }
  return 0;
}

void
gm_memzero (void *p, size_t n)
{
  /* A plain loop: the build flags keep gcc from turning it into a memset
     call (-fno-tree-loop-distribute-patterns).  */
  unsigned char *c = p;
  for (size_t i = 0; i < n; i++)
    c[i] = 0;
}
