/* dwarf_bytes.h - reading the numbers and strings of DWARF sections,
   within bounds: a read past the end yields 0 and marks the cursor
   failed, and the caller checks once at the end.  */

#ifndef GPROF_DWARF_BYTES_H
#define GPROF_DWARF_BYTES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct Cursor
{
  const unsigned char *p, *end;
  bool big_endian;
  bool ok;
} Cursor;

static inline Cursor
cursor_at (const unsigned char *start, const unsigned char *end,
           bool big_endian)
{
  return (Cursor) { start, end, big_endian, true };
}

static inline void
cursor_fail (Cursor *c)
{
  c->ok = false;
  c->p = c->end;
}

/* An N-byte number (N at most 8) in the section's byte order.  */
static inline uint64_t
get (Cursor *c, size_t n)
{
  uint64_t v = 0;

  if (n > 8 || (size_t) (c->end - c->p) < n)
    {
      cursor_fail (c);
      return 0;
    }
  for (size_t i = 0; i < n; i++)
    v |= (uint64_t) c->p[i] << (8 * (c->big_endian ? n - 1 - i : i));
  c->p += n;
  return v;
}

static inline void
skip (Cursor *c, uint64_t n)
{
  if (n > (uint64_t) (c->end - c->p))
    cursor_fail (c);
  else
    c->p += n;
}

static inline uint64_t
uleb (Cursor *c)
{
  uint64_t v = 0;
  unsigned shift = 0;

  while (c->p < c->end)
    {
      unsigned char b = *c->p++;

      if (shift < 64)
        v |= (uint64_t) (b & 0x7f) << shift;
      shift += 7;
      if (!(b & 0x80))
        return v;
    }
  cursor_fail (c);
  return v;
}

static inline int64_t
sleb (Cursor *c)
{
  uint64_t v = 0;
  unsigned shift = 0;

  while (c->p < c->end)
    {
      unsigned char b = *c->p++;

      if (shift < 64)
        v |= (uint64_t) (b & 0x7f) << shift;
      shift += 7;
      if (!(b & 0x80))
        {
          if (shift < 64 && (b & 0x40))
            v |= ~(uint64_t) 0 << shift;
          return (int64_t) v;
        }
    }
  cursor_fail (c);
  return 0;
}

/* A NUL-terminated string in place.  */
static inline const char *
cstring (Cursor *c)
{
  const unsigned char *s = c->p;
  const unsigned char *nul = memchr (s, 0, (size_t) (c->end - s));

  if (!nul)
    {
      cursor_fail (c);
      return NULL;
    }
  c->p = nul + 1;
  return (const char *) s;
}

#endif
