/* cg_print.c - printing the call graph and the index by name.  */

#include "config.h"
#include "cg_print.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "blurbs.h"
#include "gprof.h"
#include "i18n.h"
#include "msort.h"
#include "util.h"

enum Order { LESS = -1, EQUAL = 0, GREATER = 1 };

static bool
in_same_cycle (const Sym *a, const Sym *b)
{
  return a->cyc_num != 0 && a->cyc_num == b->cyc_num;
}

/* GNU's arc order: self arcs lowest, then arcs inside a cycle (by count),
   then the others by propagated time and count.  */
static int
cmp_arc (const Arc *l, const Arc *r)
{
  bool l_intra, r_intra;
  double lt, rt;

  if (l->parent == l->child)
    return LESS;
  if (r->parent == r->child)
    return GREATER;
  l_intra = in_same_cycle (l->parent, l->child);
  r_intra = in_same_cycle (r->parent, r->child);
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

static void
print_header (Run *run)
{
  run_separator (run);
  if (!run->opt.bsd_style)
    {
      if (run->opt.print_descriptions)
        printf (_("\t\t     Call graph (explanation follows)\n\n"));
      else
        printf (_("\t\t\tCall graph\n\n"));
    }
  printf (_("\ngranularity: each sample hit covers %ld byte(s)"),
          hist_bytes_per_bin (&run->hist));
  if (run->cg.print_time > 0.0)
    printf (_(" for %.2f%% of %.2f seconds\n\n"), 100.0 / run->cg.print_time,
            run->cg.print_time / run->hist.hz);
  else
    {
      printf (_(" no time propagated\n\n"));
      /* All the numerators are zero then.  */
      run->cg.print_time = 1.0;
    }
  if (run->opt.bsd_style)
    {
      printf ("%6.6s %5.5s %7.7s %11.11s %7.7s/%-7.7s     %-8.8s\n", "", "",
              "", "", _("called"), _("total"), _("parents"));
      printf ("%-6.6s %5.5s %7.7s %11.11s %7.7s+%-7.7s %-8.8s\t%5.5s\n",
              _("index"), _("%time"), _("self"), _("descendants"),
              _("called"), _("self"), _("name"), _("index"));
      printf ("%6.6s %5.5s %7.7s %11.11s %7.7s/%-7.7s     %-8.8s\n", "", "",
              "", "", _("called"), _("total"), _("children"));
      printf ("\n");
    }
  else
    printf (_("index %% time    self  children    called     name\n"));
}

/* The self and children columns (the latter wider in BSD layout).  */
static void
print_times (const Run *run, double self, double children)
{
  printf (run->opt.bsd_style ? " %7.2f %11.2f" : " %7.2f %7.2f",
          self / run->hist.hz, children / run->hist.hz);
}

static void
print_blank_times (const Run *run)
{
  printf (run->opt.bsd_style ? " %7.7s %11.11s" : " %7.7s %7.7s", "", "");
}

static void
print_cycle (Run *run, const Sym *cyc)
{
  char buf[32];

  snprintf (buf, sizeof buf, "[%d]", cyc->index);
  printf ("%-6.6s %5.1f", buf,
          100 * (cyc->prop_self + cyc->prop_child) / run->cg.print_time);
  print_times (run, cyc->prop_self, cyc->prop_child);
  printf (" %7lu", cyc->ncalls);
  if (cyc->self_calls != 0)
    printf ("+%-7lu", cyc->self_calls);
  else
    printf (" %7.7s", "");
  printf (_(" <cycle %d as a whole> [%d]\n"), cyc->cyc_num, cyc->index);
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

/* Members most time first, equal ones in chain order.  */
static void
sort_members (Sym *cyc)
{
  size_t n = 0, i = 0;
  Sym **v, **link;

  for (Sym *m = cyc->cyc_next; m; m = m->cyc_next)
    n++;
  v = gp_reallocarray (NULL, n ? n : 1, sizeof *v);
  for (Sym *m = cyc->cyc_next; m; m = m->cyc_next)
    v[i++] = m;
  msort_ptrs ((void **) v, n, cmp_member, NULL);
  link = &cyc->cyc_next;
  for (i = 0; i < n; i++)
    {
      *link = v[i];
      link = &v[i]->cyc_next;
    }
  *link = NULL;
  free (v);
}

static void
print_members (Run *run, Sym *cyc)
{
  sort_members (cyc);
  for (Sym *m = cyc->cyc_next; m; m = m->cyc_next)
    {
      printf ("%6.6s %5.5s", "", "");
      print_times (run, m->prop_self, m->prop_child);
      printf (" %7lu", m->ncalls);
      if (m->self_calls != 0)
        printf ("+%-7lu", m->self_calls);
      else
        printf (" %7.7s", "");
      printf ("     ");
      print_name (&run->names, m);
      putchar ('\n');
    }
}

/* One caller or callee line: a count alone for calls within a cycle or
   to itself, else the propagated times and count/total.  */
static void
print_arc_line (Run *run, const Arc *a, const Sym *other, bool inside,
                unsigned long total)
{
  printf ("%6.6s %5.5s", "", "");
  if (inside)
    {
      print_blank_times (run);
      printf (" %7lu %7.7s     ", a->count, "");
    }
  else
    {
      print_times (run, a->time, a->child_time);
      printf (" %7lu/%-7lu     ", a->count, total);
    }
  print_name (&run->names, other);
  putchar ('\n');
}

static void
print_parents (Run *run, Sym *child)
{
  Arc **parents = cg_parents (&run->cg, child);
  const Sym *head = child->cyc_head ? child->cyc_head : child;

  if (child->nparents == 0)
    {
      printf ("%6.6s %5.5s", "", "");
      print_blank_times (run);
      printf (_(" %7.7s %7.7s     <spontaneous>\n"), "", "");
      return;
    }
  msort_ptrs ((void **) parents, child->nparents, cmp_parents, NULL);
  for (uint32_t k = 0; k < child->nparents; k++)
    {
      Arc *a = parents[k];

      print_arc_line (run, a, a->parent,
                      a->parent == child || in_same_cycle (child, a->parent),
                      head->ncalls);
    }
}

static void
print_children (Run *run, Sym *parent)
{
  Arc **children = cg_children (&run->cg, parent);

  msort_ptrs ((void **) children, parent->nchildren, cmp_children, NULL);
  for (uint32_t k = 0; k < parent->nchildren; k++)
    {
      Arc *a = children[k];

      print_arc_line (run, a, a->child,
                      a->child == parent || in_same_cycle (a->child, parent),
                      a->child->cyc_head->ncalls);
    }
}

static void
print_line (Run *run, const Sym *s)
{
  char buf[32];

  snprintf (buf, sizeof buf, "[%d]", s->index);
  printf ("%-6.6s %5.1f", buf,
          100 * (s->prop_self + s->prop_child) / run->cg.print_time);
  print_times (run, s->prop_self, s->prop_child);
  if (s->ncalls + s->self_calls != 0)
    {
      printf (" %7lu", s->ncalls);
      if (s->self_calls != 0)
        printf ("+%-7lu ", s->self_calls);
      else
        printf (" %7.7s ", "");
    }
  else
    printf (" %7.7s %7.7s ", "", "");
  print_name (&run->names, s);
  putchar ('\n');
}

void
cg_print (Run *run)
{
  const CallGraph *cg = &run->cg;

  if (run->opt.print_descriptions && run->opt.bsd_style)
    blurb_call_graph_bsd ();
  print_header (run);
  for (size_t i = 0; i < cg->ntime_sorted; i++)
    {
      Sym *s = cg->time_sorted[i];

      if ((run->opt.ignore_zeros && s->ncalls == 0 && s->self_calls == 0
           && s->prop_self == 0 && s->prop_child == 0)
          || !s->print_flag || (run->opt.line_granularity && !s->is_func))
        continue;
      if (!s->name && s->cyc_num != 0)
        {
          print_cycle (run, s);
          print_members (run, s);
        }
      else
        {
          print_parents (run, s);
          print_line (run, s);
          print_children (run, s);
        }
      if (run->opt.bsd_style)
        putchar ('\n');
      printf ("-----------------------------------------------\n");
      if (run->opt.bsd_style)
        putchar ('\n');
    }
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

  snprintf (tag, sizeof tag, s->print_flag ? "[%d]" : "(%d)", s->index);
  if (is_cycle)
    snprintf (cycle, sizeof cycle, _("<cycle %d>"), s->cyc_num);
  if (run->opt.bsd_style)
    {
      printf ("%6.6s %-19.19s", tag, is_cycle ? cycle : s->name);
      return;
    }
  *col += (int) strlen (tag);
  for (; *col < starting_col + 5; ++*col)
    putchar (' ');
  printf (" %s ", tag);
  if (is_cycle)
    {
      *col += printf ("%s", cycle);
      return;
    }
  *col += print_name_only (&run->names, s);
  if (!run->opt.line_granularity && s->is_static && s->file)
    {
      const char *file = names_file (&run->names, s->file);

      printf (" (%s)", file);
      *col += (int) strlen (file) + 3;
    }
}

void
cg_print_index (Run *run)
{
  const SymTab *st = &run->symtab;
  size_t nnames = 0, total, rows;
  int column_width = (run->opt.output_width - 1) / 3;
  Sym **v = gp_reallocarray (NULL, st->len + (size_t) run->cg.ncycles + 1,
                             sizeof *v);

  for (size_t i = 0; i < st->len; i++)
    {
      Sym *s = &st->base[i];

      if (run->opt.ignore_zeros && s->ncalls == 0 && s->hist_time == 0)
        continue;
      v[nnames++] = s;
    }
  msort_ptrs ((void **) v, nnames, cmp_name, NULL);
  total = nnames;
  for (int c = 0; c < run->cg.ncycles; c++)
    v[total++] = &run->cg.cycles[c];

  printf ("\f\n");
  printf (_("Index by function name\n\n"));
  rows = (total + 2) / 3;
  for (size_t i = 0; i < rows; i++)
    {
      int col = 0, starting_col = 0;

      for (size_t j = i; j < total; j += rows)
        {
          print_index_entry (run, v[j], j >= nnames, &col, starting_col);
          starting_col += column_width;
        }
      putchar ('\n');
    }
  free (v);
}
