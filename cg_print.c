/* cg_print.c - printing the call graph and the index by name.  */

#include "config.h"
#include "cg_print.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "blurbs.h"
#include "gprof.h"
#include "i18n.h"
#include "support/msort.h"
#include "support/out.h"
#include "support/error.h"
#include "support/alloc.h"
#include "pipeline/par.h"

enum Order { LESS = -1, EQUAL = 0, GREATER = 1 };

/* One caller or callee line of an entry: its arc's values, copied out
   of the arc table together with what the line needs of the symbol at
   the other end (see gather_lines).  */
typedef struct ArcLine
{
  double time, child_time;
  double t;               /* time + child_time, the sort key */
  unsigned long count;
  Arc *arc;
  const Sym *other;       /* the caller or callee the line names */
  unsigned char kind;     /* ArcKind */
} ArcLine;

/* GNU's arc order: self arcs lowest, then arcs inside a cycle (by count),
   then the others by propagated time and count.  Inline: the short
   lists' insertion sorts call it for most lines.  */
static inline int
cmp_line (const ArcLine *l, const ArcLine *r)
{
  if (l->kind == ARC_SELF)
    return LESS;
  if (r->kind == ARC_SELF)
    return GREATER;
  if (l->kind == ARC_IN_CYCLE || r->kind == ARC_IN_CYCLE)
    {
      if (l->kind != r->kind)
        return l->kind == ARC_IN_CYCLE ? LESS : GREATER;
    }
  else if (l->t != r->t)
    return l->t < r->t ? LESS : GREATER;
  if (l->count != r->count)
    return l->count < r->count ? LESS : GREATER;
  return EQUAL;
}

/* GNU sorts the parents and children lists by insertion; for this
   comparator that is a stable sort with equal arcs in creation order,
   i.e. the reverse of the lists' order: callers ascending, callees
   descending, equal arcs by address.  Both are consistent orders, so any
   stable sort gives them.  The sorted order stays in the call graph's
   slices, as in GNU gprof (the orderings of -r see it).  */
static bool
line_before (const ArcLine *x, const ArcLine *y, bool callees)
{
  int c = callees ? cmp_line (y, x) : cmp_line (x, y);

  if (c != EQUAL)
    return c == LESS;
  return x->arc < y->arc;
}

static int
cmp_parent_lines (const void *a, const void *b, void *ctx)
{
  return line_before (a, b, false) ? -1 : 1;
}

static int
cmp_child_lines (const void *a, const void *b, void *ctx)
{
  return line_before (a, b, true) ? -1 : 1;
}

/* Lists this short are sorted by insertion, inline.  */
enum { SHORT_ARCS = 16 };

/* ORD[0 .. N - 1] := the lines of LINE in printing order, and the
   slice ARCS (numbers of arcs in BASE) in the same order.  */
static void
sort_lines (ArcLine *line, ArcLine **ord, const Arc *base, uint32_t *arcs,
            uint32_t n, bool callees)
{
  for (uint32_t i = 0; i < n; i++)
    ord[i] = &line[i];
  if (n > SHORT_ARCS)
    sort_stable_ptrs ((void **) ord, n,
                      callees ? cmp_child_lines : cmp_parent_lines, NULL);
  else
    for (uint32_t i = 1; i < n; i++)
      {
        ArcLine *x = ord[i];
        uint32_t j = i;

        for (; j > 0 && line_before (x, ord[j - 1], callees); j--)
          ord[j] = ord[j - 1];
        ord[j] = x;
      }
  for (uint32_t i = 0; i < n; i++)
    arcs[i] = (uint32_t) (ord[i]->arc - base);
}

static void
print_header (Run *run)
{
  run_separator (run);
  if (!run->opt.bsd_style)
    {
      if (run->opt.print_descriptions)
        out_printf (_("\t\t     Call graph (explanation follows)\n\n"));
      else
        out_printf (_("\t\t\tCall graph\n\n"));
    }
  out_printf (_("\ngranularity: each sample hit covers %ld byte(s)"),
          hist_bytes_per_bin (&run->hist));
  if (run->cg.print_time > 0.0)
    out_printf (_(" for %.2f%% of %.2f seconds\n\n"), 100.0 / run->cg.print_time,
            run->cg.print_time / hist_divisor (&run->hist));
  else
    {
      out_printf (_(" no time propagated\n\n"));
      /* All the numerators are zero then.  */
      run->cg.print_time = 1.0;
    }
  if (run->opt.measured_time)
    cg_measured_print_header (run);
  if (run->opt.bsd_style)
    {
      out_printf ("%6.6s %5.5s %7.7s %11.11s %7.7s/%-7.7s     %-8.8s\n", "", "",
              "", "", _("called"), _("total"), _("parents"));
      out_printf ("%-6.6s %5.5s %7.7s %11.11s %7.7s+%-7.7s %-8.8s\t%5.5s\n",
              _("index"),
              /* xgettext:no-c-format */
              _("%time"), _("self"), _("descendants"),
              _("called"), _("self"), _("name"), _("index"));
      out_printf ("%6.6s %5.5s %7.7s %11.11s %7.7s/%-7.7s     %-8.8s\n", "", "",
              "", "", _("called"), _("total"), _("children"));
      out_printf ("\n");
    }
  else
    out_printf (_("index %% time    self  children    called     name\n"));
}

/* "[N]" (or with other brackets) in BUF, without printf.  */
static const char *
format_tag (char *buf, char open, int n, char close)
{
  char digits[16], *p = digits + sizeof digits;
  unsigned u = (unsigned) n;
  size_t len;

  do
    {
      *--p = (char) ('0' + u % 10);
      u /= 10;
    }
  while (u);
  len = (size_t) (digits + sizeof digits - p);
  buf[0] = open;
  memcpy (buf + 1, p, len);
  buf[len + 1] = close;
  buf[len + 2] = '\0';
  return buf;
}

/* The self and children columns (the latter wider in BSD layout):
   " %7.2f %7.2f" or " %7.2f %11.2f".  */
static void
print_times (const Run *run, double self, double children)
{
  out_char (' ');
  out_fixed (self / hist_divisor (&run->hist), 7, 2);
  out_char (' ');
  out_fixed (children / hist_divisor (&run->hist), run->opt.bsd_style ? 11 : 7, 2);
}

static void
print_blank_times (const Run *run)
{
  out_spaces (run->opt.bsd_style ? 20 : 16);
}

/* "%6.6s %5.5s" of two empty strings: the index and %time columns.  */
static void
print_blank_index (void)
{
  out_spaces (12);
}

/* " %7lu" then "+%-7lu" of the self calls or " %7.7s" of nothing.  */
static void
print_calls (unsigned long ncalls, unsigned long self_calls)
{
  out_char (' ');
  out_ulong (ncalls, 7, false);
  if (self_calls != 0)
    {
      out_char ('+');
      out_ulong (self_calls, 7, true);
    }
  else
    out_spaces (8);
}

/* "%-6.6s %5.1f" of "[index]" and the share of the total time.  */
static void
print_index_pct (const Run *run, const Sym *s)
{
  char buf[32];

  out_field (format_tag (buf, '[', s->index, ']'), 6, true);
  out_char (' ');
  out_fixed (100 * (s->prop_self + s->prop_child) / run->cg.print_time, 5, 1);
}

static void
print_cycle (Run *run, const Sym *cyc)
{
  print_index_pct (run, cyc);
  print_times (run, cyc->prop_self, cyc->prop_child);
  print_calls (cyc->ncalls, cyc->self_calls);
  out_printf (_(" <cycle %d as a whole> [%d]\n"), cyc->cyc_num, cyc->index);
}

/* What a member's order reads of it, gathered once: a big cycle's
   members are symbols all over the table, and the sort compares each
   many times.  */
typedef struct MemberKey
{
  double total;           /* prop_self + prop_child */
  unsigned long calls;    /* ncalls + self_calls */
  Sym *sym;
} MemberKey;

static int
cmp_member (const void *a, const void *b, void *ctx)
{
  const MemberKey *l = a, *r = b;

  if (l->total != r->total)
    return l->total > r->total ? -1 : 1;
  if (l->calls != r->calls)
    return l->calls > r->calls ? -1 : 1;
  return 0;
}

/* Members most time first, equal ones in chain order (cmp_member is a
   consistent order, so any stable sort gives this): in the array and in
   the chain.  */
static void
sort_members (const CallGraph *cg, Sym *cyc)
{
  size_t n;
  Sym **v = cg_members (cg, cyc, &n), **link;
  MemberKey *key = gp_reallocarray (NULL, n ? n : 1, sizeof *key);
  void **order = gp_reallocarray (NULL, n ? n : 1, sizeof *order);

  for (size_t i = 0; i < n; i++)
    {
      key[i] = (MemberKey) { v[i]->prop_self + v[i]->prop_child,
                             v[i]->ncalls + v[i]->self_calls, v[i] };
      order[i] = &key[i];
    }
  sort_stable_ptrs (order, n, cmp_member, NULL);
  link = &cyc->cyc_next;
  for (size_t i = 0; i < n; i++)
    {
      v[i] = ((MemberKey *) order[i])->sym;
      *link = v[i];
      link = &v[i]->cyc_next;
    }
  *link = NULL;
  free (order);
  free (key);
}

/* ---- names as the call graph prints them ------------------------------ */

static bool
entry_printed (const Run *run, const Sym *s)
{
  if (run->opt.ignore_zeros && s->ncalls == 0 && s->self_calls == 0
      && s->prop_self == 0 && s->prop_child == 0)
    return false;
  return s->print_flag && (!run->opt.line_granularity || s->is_func);
}

/* A symbol's name with its tags and the end of the line ("name <cycle 2>
   [7]\n") reads the same every time the call graph prints it, once per
   call it makes or takes.  So the names of the symbols the call graph
   shows are formatted once, on all threads, before the entries, each
   into a slot of one cache line, beside the symbol's call total (which
   a callee's line also prints): most names are short and copied from
   their slot, where a pointer to text elsewhere, or a second array for
   the totals, cost one more miss per line of a big graph.  */
enum { TAIL_INLINE = 40, TAIL_BUILDERS = 8 };

/* A call total as an arc line ends its "called" column ("%-7lu" and
   the five blanks after it), formatted once per symbol: the lines of a
   big graph print the same few thousand totals over and over.  */
enum { CALLS_TEXT = 15 };

typedef struct CallsText
{
  char text[CALLS_TEXT];
  unsigned char len;      /* 0 if too long: printed the slow way */
} CallsText;

typedef struct Tail
{
  uint32_t len;           /* 0 if not formatted: printed the slow way */
  CallsText calls;        /* the symbol's call total, formatted */
  union
  {
    char text[TAIL_INLINE];       /* len <= TAIL_INLINE */
    const char *ptr;              /* a longer one, in a builder's buffer */
  } u;
} Tail;

_Static_assert (sizeof (Tail) == 64, "a name slot is one cache line");

typedef struct NameTails
{
  const Sym *base;
  size_t n;               /* base[0 .. n - 1]; the last is <indirect child> */
  Tail *tail;             /* per symbol */
  char *long_text[TAIL_BUILDERS];  /* the builders' longer tails */
  /* Per symbol, the calls of its cycle (or its own): a callee line's
     total, without the load of the callee's head.  */
  unsigned long *head_calls;
  /* The parents line of an entry without callers, formatted once: its
     translation and printf cost more than the rest of the entry.  */
  char *spontaneous;
  size_t spontaneous_len;
} NameTails;

/* The tails of base[begin .. end - 1], formatted by one thread.  */
typedef struct TailRange
{
  const Run *run;
  NameTails *t;
  size_t begin, end;
  char **long_text;       /* where the range's buffer goes if it has any */
} TailRange;

static void
format_calls (CallsText *c, unsigned long calls)
{
  char buf[CALLS_TEXT + 2 * OUT_FIELD_SLACK];
  char *end = out_fmt_ulong (buf, calls, 7, true);
  size_t len = (size_t) (end - buf) + 5;

  c->len = 0;
  if (len > CALLS_TEXT)
    return;
  memset (end, ' ', 5);
  memcpy (c->text, buf, len);
  c->len = (unsigned char) len;
}

static void
build_tails (void *ctx, size_t k)
{
  TailRange *r = (TailRange *) ctx + k;
  Tail *tail = r->t->tail;
  size_t len;
  bool any_long = false;
  char *text;

  /* Printed into one buffer, which may move as it grows: the offsets
     are kept in the slots meanwhile.  */
  out_capture_begin ();
  for (size_t i = r->begin; i < r->end; i++)
    {
      const Sym *s = &r->t->base[i];
      size_t at = out_captured ();

      tail[i].len = 0;
      r->t->head_calls[i] = s->cyc_head->ncalls;
      format_calls (&tail[i].calls, s->cyc_head->ncalls);
      if (!entry_printed (r->run, s) && s->nparents == 0 && s->nchildren == 0)
        continue;
      print_name (&r->run->names, s);
      out_char ('\n');
      tail[i].len = (uint32_t) (out_captured () - at);
      tail[i].u.ptr = (const char *) (uintptr_t) at;
    }
  text = out_capture_end (&len);
  for (size_t i = r->begin; i < r->end; i++)
    {
      size_t at = (uintptr_t) tail[i].u.ptr;

      if (tail[i].len == 0)
        continue;
      if (tail[i].len <= TAIL_INLINE)
        memcpy (tail[i].u.text, text + at, tail[i].len);
      else
        {
          tail[i].u.ptr = text + at;
          any_long = true;
        }
    }
  if (any_long)
    *r->long_text = text;
  else
    free (text);
}

static void
tails_init (NameTails *t, const Run *run)
{
  const char *format = _(" %7.7s %7.7s     <spontaneous>\n");
  int blanks = 12 + (run->opt.bsd_style ? 20 : 16);
  int len = snprintf (NULL, 0, format, "", "");
  unsigned npieces;
  TailRange range[TAIL_BUILDERS];

  memset (t, 0, sizeof *t);
  t->base = run->symtab.base;
  t->n = run->symtab.len + 1;
  /* Each slot in a cache line of its own.  */
  if (posix_memalign ((void **) &t->tail, 64, t->n * sizeof *t->tail) != 0)
    gp_die (_("%s: out of memory\n"), whoami);
  t->head_calls = gp_reallocarray (NULL, t->n, sizeof *t->head_calls);
  npieces = t->n < 4096 ? 1 : TAIL_BUILDERS;
  for (unsigned k = 0; k < npieces; k++)
    range[k] = (TailRange) { run, t, t->n * k / npieces,
                             t->n * (k + 1) / npieces, &t->long_text[k] };
  par_jobs (run->par, npieces, build_tails, range);

  if (len < 0)
    gp_die ("%s: %s\n", whoami, strerror (errno));
  t->spontaneous_len = (size_t) blanks + (size_t) len;
  t->spontaneous = gp_malloc (t->spontaneous_len + 1);
  memset (t->spontaneous, ' ', (size_t) blanks);
  snprintf (t->spontaneous + blanks, (size_t) len + 1, format, "", "");
}

static void
tails_free (NameTails *t)
{
  free (t->tail);
  free (t->head_calls);
  for (unsigned k = 0; k < TAIL_BUILDERS; k++)
    free (t->long_text[k]);
  free (t->spontaneous);
}

/* S's place in T, or T->n or more for a symbol outside the table (a
   cycle header): computed on the integers for that reason.  */
static size_t
tail_index (const NameTails *t, const Sym *s)
{
  return ((uintptr_t) s - (uintptr_t) t->base) / sizeof *s;
}

/* Print S's name, tags and newline.  */
static void
print_tail (const Run *run, const NameTails *t, const Sym *s)
{
  size_t i = tail_index (t, s);
  const Tail *tail = i < t->n ? &t->tail[i] : NULL;

  if (tail && tail->len > 0 && tail->len <= TAIL_INLINE)
    {
      /* A fixed-size copy is cheaper than memcpy's call.  */
      out_reserve (TAIL_INLINE);
      memcpy (out_pos, tail->u.text, TAIL_INLINE);
      out_pos += tail->len;
    }
  else if (tail && tail->len > 0)
    out_write (tail->u.ptr, tail->len);
  else
    {
      print_name (&run->names, s);
      out_char ('\n');
    }
}

/* A symbol's fields that printing its entry reads, and its name slot,
   asked for ahead.  */
GP_PREFETCHER
prefetch_sym (const NameTails *t, const Sym *s)
{
  size_t i = tail_index (t, s);

  sym_prefetch (s);
  if (i < t->n)
    gp_prefetch (&t->tail[i]);
}

/* Members lie anywhere in memory: asked for this many lines ahead.  */
enum { MEMBERS_AHEAD = 8 };

static void
print_members (Run *run, const NameTails *tails, const Sym *cyc)
{
  size_t n;
  Sym **members = cg_members (&run->cg, cyc, &n);

  for (size_t i = 0; i < n; i++)
    {
      const Sym *m = members[i];

      if (i + MEMBERS_AHEAD < n)
        prefetch_sym (tails, members[i + MEMBERS_AHEAD]);
      print_blank_index ();
      print_times (run, m->prop_self, m->prop_child);
      print_calls (m->ncalls, m->self_calls);
      out_spaces (5);
      print_tail (run, tails, m);
    }
}

/* One caller or callee line: a count alone for calls within a cycle or
   to itself, else the propagated times and count/total.  */
/* The columns of an arc line built straight into the output buffer:
   most of a big call graph's lines are these.  False, with nothing
   written, for values printf must format (print_arc_line then takes the
   general way).  */
static bool
build_arc_columns (const Run *run, const ArcLine *l, bool inside,
                   const NameTails *tails, size_t total_at)
{
  const CallsText *total_text = &tails->tail[total_at].calls;
  int children_width = run->opt.bsd_style ? 11 : 7;
  char *p;

  /* About 100 columns at most, and a field's slack.  */
  out_reserve (128 + OUT_FIELD_SLACK);
  p = out_pos;
  memset (p, ' ', 12);
  p += 12;
  if (inside)
    {
      /* " %7.7s %7.7s" (or %11.11s), " %7lu %7.7s     " */
      memset (p, ' ', (size_t) (2 + 7 + children_width));
      p += 2 + 7 + children_width;
      *p++ = ' ';
      p = out_fmt_ulong (p, l->count, 7, false);
      memset (p, ' ', 13);
      p += 13;
    }
  else
    {
      /* " %7.2f %7.2f" (or %11.2f), " %7lu/%-7lu     " */
      *p++ = ' ';
      if (!(p = out_fmt_fixed (p, l->time / hist_divisor (&run->hist), 7, 2)))
        return false;
      *p++ = ' ';
      if (!(p = out_fmt_fixed (p, l->child_time / hist_divisor (&run->hist),
                               children_width, 2)))
        return false;
      *p++ = ' ';
      p = out_fmt_ulong (p, l->count, 7, false);
      *p++ = '/';
      if (total_text->len > 0)
        {
          /* A fixed-size copy is cheaper than memcpy's call.  */
          memcpy (p, total_text->text, CALLS_TEXT);
          p += total_text->len;
        }
      else
        {
          p = out_fmt_ulong (p, tails->head_calls[total_at], 7, true);
          memset (p, ' ', 5);
          p += 5;
        }
    }
  out_pos = p;
  return true;
}

/* TOTAL_OF is the symbol whose (cycle's) calls the line shows as the
   total: the entry's symbol on a caller line, the callee's on a callee
   line.  */
static void
print_arc_line (Run *run, const NameTails *tails, const ArcLine *l,
                const Sym *total_of)
{
  bool inside = l->kind != ARC_NORMAL;
  size_t at = tail_index (tails, total_of);

  if (build_arc_columns (run, l, inside, tails, at))
    {
      print_tail (run, tails, l->other);
      return;
    }
  print_blank_index ();
  if (inside)
    {
      /* " %7lu %7.7s     " */
      print_blank_times (run);
      out_char (' ');
      out_ulong (l->count, 7, false);
      out_spaces (13);
    }
  else
    {
      /* " %7lu/%-7lu     " */
      print_times (run, l->time, l->child_time);
      out_char (' ');
      out_ulong (l->count, 7, false);
      out_char ('/');
      out_ulong (tails->head_calls[at], 7, true);
      out_spaces (5);
    }
  print_tail (run, tails, l->other);
}

/* Entries are gathered and printed this many at a time.  */
enum { ENTRY_BATCH = 16 };

/* A thread's lines of the entries it is about to print (see
   gather_lines), and room to sort one list of them.  */
typedef struct Gathered
{
  ArcLine *line;
  size_t cap;
  ArcLine **ord;
  size_t ord_cap;
  size_t first[ENTRY_BATCH + 1];  /* entry K's lines from first[K] */
} Gathered;

static void
print_parents (Run *run, const NameTails *tails, Gathered *g, Sym *child,
               ArcLine *line)
{
  if (child->nparents == 0)
    {
      out_write (tails->spontaneous, tails->spontaneous_len);
      return;
    }
  sort_lines (line, g->ord, run->cg.arcs, cg_parents (&run->cg, child),
              child->nparents, false);
  for (uint32_t k = 0; k < child->nparents; k++)
    print_arc_line (run, tails, g->ord[k], child);
}

static void
print_children (Run *run, const NameTails *tails, Gathered *g, Sym *parent,
                ArcLine *line)
{
  sort_lines (line, g->ord, run->cg.arcs, cg_children (&run->cg, parent),
              parent->nchildren, true);
  for (uint32_t k = 0; k < parent->nchildren; k++)
    print_arc_line (run, tails, g->ord[k], g->ord[k]->other);
}

static void
print_line (Run *run, const NameTails *tails, const Sym *s)
{
  print_index_pct (run, s);
  print_times (run, s->prop_self, s->prop_child);
  if (s->ncalls + s->self_calls != 0)
    {
      print_calls (s->ncalls, s->self_calls);
      out_char (' ');
    }
  else
    out_spaces (17);  /* " %7.7s %7.7s " */
  print_tail (run, tails, s);
}

static bool
is_cycle_header (const Sym *s)
{
  return !s->name && s->cyc_num != 0;
}

/* What the threads printing the entries share, read only.  */
typedef struct Entries
{
  Run *run;
  NameTails tails;
} Entries;

static bool
entry_has_lines (const Run *run, const Sym *s)
{
  return entry_printed (run, s) && !is_cycle_header (s);
}

/* The arc lines of the entries SORTED[0 .. N - 1] into G.  Each entry's
   callers and callees are arcs anywhere in memory, and so are the
   symbols at their other ends: loaded as each line is printed, one after
   another, waiting for them took most of a big graph's printing time.
   Here each level of pointers is one pass over all the batch's lines
   that asks for the next level's memory, so that the loads of a pass
   overlap.  */
static void
gather_lines (const Run *run, const NameTails *tails, Gathered *g,
              Sym *const *sorted, size_t n)
{
  const CallGraph *cg = &run->cg;
  size_t nlines = 0, k;

  for (size_t e = 0; e < n; e++)
    {
      const Sym *s = sorted[e];

      g->first[e] = nlines;
      if (!entry_has_lines (run, s))
        continue;
      nlines += (size_t) s->nparents + s->nchildren;
      gp_prefetch (cg_parents (cg, s));
      gp_prefetch (cg_children (cg, s));
    }
  g->first[n] = nlines;
  gp_grow (&g->line, &g->cap, nlines, sizeof *g->line);
  gp_grow (&g->ord, &g->ord_cap, nlines, sizeof *g->ord);

  /* The arcs.  */
  for (size_t e = 0; e < n; e++)
    {
      const Sym *s = sorted[e];

      if (g->first[e] == g->first[e + 1])
        continue;
      for (uint32_t i = 0; i < s->nparents; i++)
        gp_prefetch (cg_parent (cg, s, i));
      for (uint32_t i = 0; i < s->nchildren; i++)
        gp_prefetch (cg_child (cg, s, i));
    }
  /* Their values; the names and call totals of their other ends, which
     are symbols of the table (the pseudo-symbol included), never cycle
     headers: every one has a slot.  */
  k = 0;
  for (size_t e = 0; e < n; e++)
    {
      const Sym *s = sorted[e];

      if (g->first[e] == g->first[e + 1])
        continue;
      for (uint32_t side = 0; side < 2; side++)
        {
          uint32_t narcs = side ? s->nchildren : s->nparents;

          for (uint32_t i = 0; i < narcs; i++, k++)
            {
              Arc *a = side ? cg_child (cg, s, i) : cg_parent (cg, s, i);
              const Sym *other = side ? a->child : a->parent;
              const ArcTime *t = cg_arc_time (cg, a);
              size_t at = tail_index (tails, other);

              g->line[k] = (ArcLine) { t->self, t->children,
                                       t->self + t->children, a->count,
                                       a, other, a->kind };
              gp_prefetch (&tails->tail[at]);
            }
        }
    }
}

/* An entry's lines, to share the entries out among threads.  */
static size_t
entry_weight (void *ctx, size_t i)
{
  const Run *run = ((const Entries *) ctx)->run;
  const Sym *s = run->cg.time_sorted[i];
  size_t lines = 2, n;

  if (!entry_printed (run, s))
    return 0;
  if (!is_cycle_header (s))
    return lines + s->nparents + s->nchildren;
  cg_members (&run->cg, s, &n);
  return lines + n;
}

static void *
gathered_new (void *ctx)
{
  Gathered *g = gp_calloc (1, sizeof *g);

  /* Never null, even for entries without a line: their lines start at
     g->line + 0.  */
  gp_grow (&g->line, &g->cap, 1, sizeof *g->line);
  gp_grow (&g->ord, &g->ord_cap, 1, sizeof *g->ord);
  return g;
}

static void
gathered_free (void *ctx, void *state)
{
  Gathered *g = state;

  free (g->line);
  free (g->ord);
  free (g);
}

static void
print_entries (void *ctx, void *state, size_t begin, size_t end)
{
  const Entries *e = ctx;
  Run *run = e->run;
  Sym *const *sorted = run->cg.time_sorted;
  const NameTails *tails = &e->tails;
  Gathered *g = state;

  for (size_t i = begin; i < end && i < begin + ENTRY_BATCH; i++)
    prefetch_sym (tails, sorted[i]);
  for (size_t i = begin; i < end; i += ENTRY_BATCH)
    {
      size_t n = end - i < ENTRY_BATCH ? end - i : ENTRY_BATCH;

      /* The next batch's symbols, for its gathering.  */
      for (size_t k = i + n; k < end && k < i + n + ENTRY_BATCH; k++)
        prefetch_sym (tails, sorted[k]);
      gather_lines (run, tails, g, sorted + i, n);
      for (size_t k = 0; k < n; k++)
        {
          Sym *s = sorted[i + k];
          ArcLine *line = g->line + g->first[k];

          if (!entry_printed (run, s))
            continue;
          if (is_cycle_header (s))
            {
              print_cycle (run, s);
              print_members (run, tails, s);
            }
          else
            {
              print_parents (run, tails, g, s, line);
              print_line (run, tails, s);
              print_children (run, tails, g, s, line + s->nparents);
            }
          if (run->opt.bsd_style)
            out_char ('\n');
          out_str ("-----------------------------------------------\n");
          if (run->opt.bsd_style)
            out_char ('\n');
        }
    }
}

void
cg_print (Run *run)
{
  Entries e = { .run = run };
  OutJob job = {
    .n = run->cg.ntime_sorted, .ctx = &e, .weight = entry_weight,
    .print = print_entries, .state_new = gathered_new,
    .state_free = gathered_free
  };

  if (run->opt.print_descriptions && run->opt.bsd_style)
    blurb_call_graph_bsd ();
  print_header (run);
  /* Before the entries are shared out: a big cycle's sort can use the
     threads then.  */
  for (int c = 0; c < run->cg.ncycles; c++)
    if (entry_printed (run, &run->cg.cycles[c]))
      sort_members (&run->cg, &run->cg.cycles[c]);
  tails_init (&e.tails, run);
  par_print (run->par, &job);
  tails_free (&e.tails);
  if (run->opt.print_descriptions && !run->opt.bsd_style)
    blurb_call_graph ();
}

/* ---- the index ------------------------------------------------------------ */

static int
cmp_name (const void *a, const void *b, void *ctx)
{
  return listed_name_cmp (a, b);
}

static void
print_index_entry (Run *run, const Sym *s, bool is_cycle, int *col,
                   int starting_col)
{
  char tag[32], cycle[64];

  format_tag (tag, s->print_flag ? '[' : '(', s->index, s->print_flag ? ']' : ')');
  if (is_cycle)
    snprintf (cycle, sizeof cycle, _("<cycle %d>"), s->cyc_num);
  if (run->opt.bsd_style)
    {
      out_printf ("%6.6s %-19.19s", tag, is_cycle ? cycle : s->name);
      return;
    }
  *col += (int) strlen (tag);
  if (*col < starting_col + 5)
    {
      out_spaces (starting_col + 5 - *col);
      *col = starting_col + 5;
    }
  out_char (' ');
  out_str (tag);
  out_char (' ');
  if (is_cycle)
    {
      out_str (cycle);
      *col += (int) strlen (cycle);
      return;
    }
  *col += print_name_only (&run->names, s);
  if (!run->opt.line_granularity && s->is_static && s->file)
    {
      const char *file = names_file (&run->names, s->file);

      out_printf (" (%s)", file);
      *col += (int) strlen (file) + 3;
    }
}

/* The index's rows, printed by par_print: row I has entries I,
   I + rows and I + 2 * rows of the names.  */
typedef struct IndexRows
{
  Run *run;
  Sym **name;
  size_t nnames, total, rows;
  int column_width;
} IndexRows;

static void
print_index_rows (void *ctx, void *state, size_t begin, size_t end)
{
  const IndexRows *ix = ctx;

  for (size_t i = begin; i < end; i++)
    {
      int col = 0, starting_col = 0;

      /* The rows' symbols lie anywhere: each column's are asked for
         ahead, and their names once they have come.  */
      if (i + SYM_LOAD_AHEAD < end)
        for (size_t j = i + SYM_LOAD_AHEAD; j < ix->total; j += ix->rows)
          sym_prefetch (ix->name[j]);
      if (i + SYM_LOAD_AHEAD / 2 < end)
        for (size_t j = i + SYM_LOAD_AHEAD / 2; j < ix->nnames; j += ix->rows)
          gp_prefetch (ix->name[j]->name);

      for (size_t j = i; j < ix->total; j += ix->rows)
        {
          print_index_entry (ix->run, ix->name[j], j >= ix->nnames, &col,
                             starting_col);
          starting_col += ix->column_width;
        }
      out_char ('\n');
    }
}

Sym **
cg_index_order (const Run *run, size_t *n)
{
  ListedKey *key = symtab_listed_keys (&run->symtab, run->opt.ignore_zeros, n);
  ListedKey **v = listed_pointers (key, *n);
  uint64_t *prefix = gp_reallocarray (NULL, *n ? *n : 1, sizeof *prefix);
  Sym **order;

  for (size_t i = 0; i < *n; i++)
    prefix[i] = v[i]->prefix;
  msort_ranked ((void **) v, prefix, NULL, *n, cmp_name, NULL);
  order = listed_to_syms (v, *n);
  free (prefix);
  free (key);
  return order;
}

void
cg_print_index (Run *run, Sym **v, size_t n)
{
  IndexRows ix = { .run = run, .column_width = (run->opt.output_width - 1) / 3 };

  ix.nnames = n;
  /* The cycles after the names.  */
  v = gp_reallocarray (v, ix.nnames + (size_t) run->cg.ncycles + 1, sizeof *v);
  ix.total = ix.nnames;
  for (int c = 0; c < run->cg.ncycles; c++)
    v[ix.total++] = &run->cg.cycles[c];
  ix.name = v;
  ix.rows = (ix.total + 2) / 3;

  out_printf ("\f\n");
  out_printf (_("Index by function name\n\n"));
  par_print (run->par, &(OutJob) { .n = ix.rows, .ctx = &ix, .print = print_index_rows });
  free (v);
}
