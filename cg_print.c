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
#include "msort.h"
#include "out.h"
#include "util.h"

enum Order { LESS = -1, EQUAL = 0, GREATER = 1 };

/* GNU's arc order: self arcs lowest, then arcs inside a cycle (by count),
   then the others by propagated time and count.  */
static int
cmp_arc (const Arc *l, const Arc *r)
{
  bool l_intra, r_intra;
  double lt, rt;

  if (l->kind == ARC_SELF)
    return LESS;
  if (r->kind == ARC_SELF)
    return GREATER;
  l_intra = l->kind == ARC_IN_CYCLE;
  r_intra = r->kind == ARC_IN_CYCLE;
  if (l_intra)
    {
      if (!r_intra)
        return LESS;
      if (l->count < r->count)
        return LESS;
      if (l->count > r->count)
        return GREATER;
      return EQUAL;
    }
  if (r_intra)
    return GREATER;
  lt = l->time + l->child_time;
  rt = r->time + r->child_time;
  if (lt < rt)
    return LESS;
  if (lt > rt)
    return GREATER;
  if (l->count < r->count)
    return LESS;
  if (l->count > r->count)
    return GREATER;
  return EQUAL;
}

/* GNU sorts the parents and children lists by insertion; for this
   comparator that is a stable sort with equal arcs in creation order,
   i.e. the reverse of the lists' order.  The sorted order stays, as in
   GNU gprof (the orderings of -r see it).  */
static int
cmp_parents (const void *a, const void *b, void *ctx)
{
  int c = cmp_arc (a, b);

  if (c != EQUAL)
    return c;
  return (const Arc *) a < (const Arc *) b ? -1 : 1;
}

static int
cmp_children (const void *a, const void *b, void *ctx)
{
  int c = cmp_arc (b, a);

  if (c != EQUAL)
    return c;
  return (const Arc *) a < (const Arc *) b ? -1 : 1;
}

/* Short lists (most functions' callers and callees) sorted on their
   keys, read from the arcs once into a local array, with the comparison
   inline: the same order as sort_stable_ptrs with cmp_parents or
   cmp_children, which are consistent orders (equal arcs go by address),
   so any stable sort gives it.  */
enum { SHORT_ARCS = 16 };

typedef struct ArcKey
{
  Arc *arc;
  double t;               /* time + child_time */
  unsigned long count;
  int kind;
} ArcKey;

/* cmp_arc on keys.  */
static int
cmp_key (const ArcKey *l, const ArcKey *r)
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

/* Whether X goes before Y: callers by cmp_parents, callees by
   cmp_children.  */
static bool
key_before (const ArcKey *x, const ArcKey *y, bool callees)
{
  int c = callees ? cmp_key (y, x) : cmp_key (x, y);

  if (c != EQUAL)
    return c == LESS;
  return x->arc < y->arc;
}

static void
sort_arcs (Arc **v, uint32_t n, bool callees)
{
  ArcKey key[SHORT_ARCS];

  if (n > SHORT_ARCS)
    {
      sort_stable_ptrs ((void **) v, n, callees ? cmp_children : cmp_parents,
                        NULL);
      return;
    }
  for (uint32_t i = 0; i < n; i++)
    key[i] = (ArcKey) { v[i], v[i]->time + v[i]->child_time, v[i]->count,
                        v[i]->kind };
  for (uint32_t i = 1; i < n; i++)
    {
      ArcKey x = key[i];
      uint32_t j = i;

      for (; j > 0 && key_before (&x, &key[j - 1], callees); j--)
        key[j] = key[j - 1];
      key[j] = x;
    }
  for (uint32_t i = 0; i < n; i++)
    v[i] = key[i].arc;
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
            run->cg.print_time / run->hist.hz);
  else
    {
      out_printf (_(" no time propagated\n\n"));
      /* All the numerators are zero then.  */
      run->cg.print_time = 1.0;
    }
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
  out_fixed (self / run->hist.hz, 7, 2);
  out_char (' ');
  out_fixed (children / run->hist.hz, run->opt.bsd_style ? 11 : 7, 2);
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

static int
cmp_member (const void *a, const void *b, void *ctx)
{
  const Sym *l = a, *r = b;
  double lt = l->prop_self + l->prop_child, rt = r->prop_self + r->prop_child;

  if (lt != rt)
    return lt > rt ? -1 : 1;
  if (l->ncalls + l->self_calls != r->ncalls + r->self_calls)
    return l->ncalls + l->self_calls > r->ncalls + r->self_calls ? -1 : 1;
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

  sort_stable_ptrs ((void **) v, n, cmp_member, NULL);
  link = &cyc->cyc_next;
  for (size_t i = 0; i < n; i++)
    {
      *link = v[i];
      link = &v[i]->cyc_next;
    }
  *link = NULL;
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
   into a 32-byte slot: most are short and copied from their slot, one
   cache line, where a pointer to text elsewhere cost a second miss per
   line of a big graph.  */
enum { TAIL_INLINE = 28, TAIL_BUILDERS = 8 };

typedef struct Tail
{
  uint32_t len;           /* 0 if not formatted: printed the slow way */
  union
  {
    char text[TAIL_INLINE];       /* len <= TAIL_INLINE */
    const char *ptr;              /* a longer one, in a builder's buffer */
  } u;
} Tail;

typedef struct NameTails
{
  const Sym *base;
  size_t n;               /* base[0 .. n - 1]; the last is <indirect child> */
  Tail *tail;             /* per symbol */
  char *long_text[TAIL_BUILDERS];  /* the builders' longer tails */
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
build_tails (void *arg)
{
  TailRange *r = arg;
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
  unsigned nthreads = gp_threads ();
  TailRange range[TAIL_BUILDERS];
  GpTask task[TAIL_BUILDERS];

  memset (t, 0, sizeof *t);
  t->base = run->symtab.base;
  t->n = run->symtab.len + 1;
  /* Slots on 32-byte boundaries, so that none straddles two lines.  */
  if (posix_memalign ((void **) &t->tail, 64, t->n * sizeof *t->tail) != 0)
    gp_die (_("%s: out of memory\n"), whoami);
  if (nthreads > TAIL_BUILDERS)
    nthreads = TAIL_BUILDERS;
  if (t->n < 4096)
    nthreads = 1;
  for (unsigned k = 0; k < nthreads; k++)
    range[k] = (TailRange) { run, t, t->n * k / nthreads,
                             t->n * (k + 1) / nthreads, &t->long_text[k] };
  for (unsigned k = 1; k < nthreads; k++)
    gp_task_start (&task[k], build_tails, &range[k]);
  build_tails (&range[0]);
  for (unsigned k = 1; k < nthreads; k++)
    gp_task_wait (&task[k]);

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

static void
print_members (Run *run, const NameTails *tails, const Sym *cyc)
{
  size_t n;
  Sym **members = cg_members (&run->cg, cyc, &n);

  for (size_t i = 0; i < n; i++)
    {
      const Sym *m = members[i];

      print_blank_index ();
      print_times (run, m->prop_self, m->prop_child);
      print_calls (m->ncalls, m->self_calls);
      out_spaces (5);
      print_tail (run, tails, m);
    }
}

/* One caller or callee line: a count alone for calls within a cycle or
   to itself, else the propagated times and count/total.  */
/* The columns of an arc line built in memory and written at once: most
   of a big call graph's lines are these.  False for values printf must
   format (print_arc_line then takes the general way).  */
static bool
build_arc_columns (const Run *run, const Arc *a, bool inside,
                   unsigned long total)
{
  /* About 100 columns at most, and a field's slack.  */
  char line[128 + OUT_FIELD_SLACK], *p = line;
  int children_width = run->opt.bsd_style ? 11 : 7;

  memset (p, ' ', 12);
  p += 12;
  if (inside)
    {
      /* " %7.7s %7.7s" (or %11.11s), " %7lu %7.7s     " */
      memset (p, ' ', (size_t) (2 + 7 + children_width));
      p += 2 + 7 + children_width;
      *p++ = ' ';
      p = out_fmt_ulong (p, a->count, 7, false);
      memset (p, ' ', 13);
      p += 13;
    }
  else
    {
      /* " %7.2f %7.2f" (or %11.2f), " %7lu/%-7lu     " */
      *p++ = ' ';
      if (!(p = out_fmt_fixed (p, a->time / run->hist.hz, 7, 2)))
        return false;
      *p++ = ' ';
      if (!(p = out_fmt_fixed (p, a->child_time / run->hist.hz,
                               children_width, 2)))
        return false;
      *p++ = ' ';
      p = out_fmt_ulong (p, a->count, 7, false);
      *p++ = '/';
      p = out_fmt_ulong (p, total, 7, true);
      memset (p, ' ', 5);
      p += 5;
    }
  out_write (line, (size_t) (p - line));
  return true;
}

static void
print_arc_line (Run *run, const NameTails *tails, const Arc *a, const Sym *other,
                bool inside, unsigned long total)
{
  if (build_arc_columns (run, a, inside, total))
    {
      print_tail (run, tails, other);
      return;
    }
  print_blank_index ();
  if (inside)
    {
      /* " %7lu %7.7s     " */
      print_blank_times (run);
      out_char (' ');
      out_ulong (a->count, 7, false);
      out_spaces (13);
    }
  else
    {
      /* " %7lu/%-7lu     " */
      print_times (run, a->time, a->child_time);
      out_char (' ');
      out_ulong (a->count, 7, false);
      out_char ('/');
      out_ulong (total, 7, true);
      out_spaces (5);
    }
  print_tail (run, tails, other);
}

static void
print_parents (Run *run, const NameTails *tails, Sym *child)
{
  Arc **parents = cg_parents (&run->cg, child);
  const Sym *head = child->cyc_head ? child->cyc_head : child;

  if (child->nparents == 0)
    {
      out_write (tails->spontaneous, tails->spontaneous_len);
      return;
    }
  sort_arcs (parents, child->nparents, false);
  for (uint32_t k = 0; k < child->nparents; k++)
    {
      Arc *a = parents[k];

      print_arc_line (run, tails, a, a->parent,
                      a->kind != ARC_NORMAL,
                      head->ncalls);
    }
}

static void
print_children (Run *run, const NameTails *tails, Sym *parent)
{
  Arc **children = cg_children (&run->cg, parent);

  sort_arcs (children, parent->nchildren, true);
  for (uint32_t k = 0; k < parent->nchildren; k++)
    {
      Arc *a = children[k];

      print_arc_line (run, tails, a, a->child,
                      a->kind != ARC_NORMAL,
                      a->child->cyc_head->ncalls);
    }
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

/* Each entry's callers and callees are records anywhere in memory: on a
   big graph, waiting for them takes most of the time, not formatting.
   So the loads are asked for a few entries ahead, one level of pointers
   per entry (the symbol, its arc slices, the arcs, the symbols at their
   ends with their name slots), and overlap instead of coming one after
   another.  */
enum { PREFETCH_AHEAD = 4 };

static void
prefetch_tail (const NameTails *t, const Sym *s)
{
  size_t i = tail_index (t, s);

  if (i < t->n)
    __builtin_prefetch (&t->tail[i]);
}

static void
prefetch_arcs (const NameTails *t, Arc *const *arcs, uint32_t n, int level)
{
  for (uint32_t k = 0; k < n; k++)
    if (level == 0)
      __builtin_prefetch (arcs[k]);
    else
      {
        __builtin_prefetch (arcs[k]->parent);
        __builtin_prefetch (arcs[k]->child);
        prefetch_tail (t, arcs[k]->parent);
        prefetch_tail (t, arcs[k]->child);
      }
}

/* Entries before END only: those after may be another thread's, whose
   arc lists are being sorted.  */
static void
prefetch_entry (const CallGraph *cg, const NameTails *t, size_t i, size_t end)
{
  Sym *const *sorted = cg->time_sorted;
  size_t n = end;

  if (i + PREFETCH_AHEAD < n)
    __builtin_prefetch (sorted[i + PREFETCH_AHEAD]);
  if (i + 3 < n)
    {
      __builtin_prefetch (cg_parents (cg, sorted[i + 3]));
      __builtin_prefetch (cg_children (cg, sorted[i + 3]));
    }
  for (int ahead = 2; ahead >= 1; ahead--)
    if (i + (size_t) ahead < n)
      {
        const Sym *s = sorted[i + (size_t) ahead];

        prefetch_arcs (t, cg_parents (cg, s), s->nparents, 2 - ahead);
        prefetch_arcs (t, cg_children (cg, s), s->nchildren, 2 - ahead);
      }
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

static void
print_entries (void *ctx, void *state, size_t begin, size_t end)
{
  const Entries *e = ctx;
  Run *run = e->run;
  const CallGraph *cg = &run->cg;
  const NameTails *tails = &e->tails;

  for (size_t i = begin; i < end; i++)
    {
      Sym *s = cg->time_sorted[i];

      prefetch_entry (cg, tails, i, end);
      if (!entry_printed (run, s))
        continue;
      if (is_cycle_header (s))
        {
          print_cycle (run, s);
          print_members (run, tails, s);
        }
      else
        {
          print_parents (run, tails, s);
          print_line (run, tails, s);
          print_children (run, tails, s);
        }
      if (run->opt.bsd_style)
        out_char ('\n');
      out_str ("-----------------------------------------------\n");
      if (run->opt.bsd_style)
        out_char ('\n');
    }
}

void
cg_print (Run *run)
{
  Entries e = { .run = run };
  OutJob job = {
    .n = run->cg.ntime_sorted, .ctx = &e, .weight = entry_weight,
    .print = print_entries
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
  out_print_items (&job);
  tails_free (&e.tails);
  if (run->opt.print_descriptions && !run->opt.bsd_style)
    blurb_call_graph ();
}

/* ---- the index ------------------------------------------------------------ */

static int
cmp_name (const void *a, const void *b, void *ctx)
{
  return sym_name_cmp (a, b);
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

/* The index's rows, printed by out_print_items: row I has entries I,
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

      for (size_t j = i; j < ix->total; j += ix->rows)
        {
          print_index_entry (ix->run, ix->name[j], j >= ix->nnames, &col,
                             starting_col);
          starting_col += ix->column_width;
        }
      out_char ('\n');
    }
}

void
cg_index_order_start (Run *run)
{
  size_t n;
  Sym **v = symtab_listed (&run->symtab, run->opt.ignore_zeros, &n);

  run->index_order = msort_start ((void **) v, n, cmp_name, NULL);
}

void
cg_print_index (Run *run)
{
  IndexRows ix = { .run = run, .column_width = (run->opt.output_width - 1) / 3 };
  Sym **v;

  if (!run->index_order)
    cg_index_order_start (run);
  v = (Sym **) msort_finish (run->index_order, &ix.nnames);
  run->index_order = NULL;
  /* The cycles after the names.  */
  v = gp_reallocarray (v, ix.nnames + (size_t) run->cg.ncycles + 1, sizeof *v);
  ix.total = ix.nnames;
  for (int c = 0; c < run->cg.ncycles; c++)
    v[ix.total++] = &run->cg.cycles[c];
  ix.name = v;
  ix.rows = (ix.total + 2) / 3;

  out_printf ("\f\n");
  out_printf (_("Index by function name\n\n"));
  out_print_items (&(OutJob) { .n = ix.rows, .ctx = &ix, .print = print_index_rows });
  free (v);
}
