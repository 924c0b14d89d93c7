/* export/export.c - --export=FORMAT: the analysis written for other tools
   instead of the text reports.  This file picks the writer and holds the
   escaping the writers share; the model is in export/model.c and each
   format in a file of its own in export/.  */

#include "config.h"
#include "export/export.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include "export/internal.h"
#include "i18n.h"
#include "support/out.h"
#include "support/error.h"

static const struct
{
  const char *name;
  void (*write) (Run *run);
} formats[] = {
  { "dot", export_dot },
  { "callgrind", export_callgrind },
  { "folded", export_folded },
  { "speedscope", export_speedscope },
  { "pprof", export_pprof },
  { "json", export_json },
  { "html", export_html },
};
enum { NFORMATS = sizeof formats / sizeof formats[0] };

static int
find_format (const char *name)
{
  for (int i = 0; i < NFORMATS; i++)
    if (strcmp (formats[i].name, name) == 0)
      return i;
  return -1;
}

bool
export_check_format (const char *name)
{
  if (find_format (name) >= 0)
    return true;
  fprintf (stderr, _("%s: --export=%s: unknown format (known: "), whoami, name);
  for (int i = 0; i < NFORMATS; i++)
    fprintf (stderr, "%s%s", i ? ", " : "", formats[i].name);
  fprintf (stderr, ")\n");
  return false;
}

void
export_write (Run *run)
{
  int f = find_format (run->opt.export_format);

  if (f >= 0)
    formats[f].write (run);
}

/* ---- escaping ----------------------------------------------------------- */

/* The length of the valid UTF-8 sequence at S, or 0 if it is not one:
   symbol names are bytes, and JSON must be UTF-8.  */
size_t
ex_utf8_length (const unsigned char *s)
{
  size_t n;
  unsigned cp;

  if (s[0] < 0x80)
    return 1;
  if (s[0] >= 0xc2 && s[0] <= 0xdf)
    n = 2, cp = s[0] & 0x1f;
  else if (s[0] >= 0xe0 && s[0] <= 0xef)
    n = 3, cp = s[0] & 0x0f;
  else if (s[0] >= 0xf0 && s[0] <= 0xf4)
    n = 4, cp = s[0] & 0x07;
  else
    return 0;
  for (size_t i = 1; i < n; i++)
    {
      if ((s[i] & 0xc0) != 0x80)
        return 0;
      cp = cp << 6 | (s[i] & 0x3f);
    }
  /* Overlong forms, surrogates and values past U+10FFFF.  */
  if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff))
      || (cp >= 0xd800 && cp <= 0xdfff))
    return 0;
  return n;
}

void
ex_json_string (const char *s, bool for_html)
{
  const unsigned char *p = (const unsigned char *) s;

  out_char ('"');
  while (*p)
    {
      size_t n = ex_utf8_length (p);

      if (n == 0)
        {
          out_str ("\\ufffd");
          p++;
        }
      else if (*p == '"' || *p == '\\')
        {
          out_char ('\\');
          out_char ((char) *p++);
        }
      else if (*p < 0x20 || (for_html && (*p == '<' || *p == '>' || *p == '&')))
        /* Inside a page's <script>, "</script>" must not appear.  */
        out_printf ("\\u%04x", *p++);
      else
        {
          out_write ((const char *) p, n);
          p += n;
        }
    }
  out_char ('"');
}

void
ex_json_number (double v)
{
  if (!isfinite (v))
    out_str ("null");
  else if (v == floor (v) && fabs (v) < 1e15)
    {
      /* "%.0f" of a whole number below 1e15: its digits, exactly; minus
         zero keeps its sign.  */
      if (v == 0 && signbit (v))
        out_str ("-0");
      else
        out_int ((long long) v);
    }
  else
    out_printf ("%.12g", v);
}

/* The numbers of an export are most of its bytes: written without
   printf's format parsing.  */
void
ex_json_uint (uint64_t v)
{
  char digits[24], *end = digits + sizeof digits, *p = out_utoa (v, end);

  out_write (p, (size_t) (end - p));
}

void
ex_html_text (const char *s)
{
  for (; *s; s++)
    switch (*s)
      {
      case '&': out_str ("&amp;"); break;
      case '<': out_str ("&lt;"); break;
      case '>': out_str ("&gt;"); break;
      case '"': out_str ("&quot;"); break;
      case '\'': out_str ("&#39;"); break;
      default: out_char (*s);
      }
}
