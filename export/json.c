/* export/json.c - --export=json: what the text reports hold, as JSON:
   the flat profile (lines with -l), the call graph with its cycles, and
   what the numbers mean (doc/exports.md, doc/export-schema.json).  The
   values are gprof's own, not the model's: this is the text reports in
   another form, the call graph's times measured from the call stacks
   libgmon records when the profile has them ("stacks").  */

#include "config.h"
#include "export/internal.h"

#include <stdlib.h>
#include <string.h>
#include "support/msort.h"
#include "support/out.h"
#include "support/alloc.h"

typedef struct Json
{
  Run *run;
  double unit;            /* samples per time unit: hz, or 1 without one */
} Json;

static void
key (const char *k)
{
  out_char (',');
  ex_json_string (k, false);
  out_char (':');
}

static void
time_field (const Json *j, const char *k, double samples)
{
  key (k);
  ex_json_number (samples / j->unit);
}

/* Name, mangled name when it differs, address, file and line.  */
static void
sym_fields (const Json *j, Sym *s)
{
  const char *shown = ex_sym_name (j->run, s);

  out_str ("\"name\":");
  ex_json_string (shown, false);
  if (s->name && strcmp (shown, s->name) != 0)
    {
      key ("mangled");
      ex_json_string (s->name, false);
    }
  out_str (",\"address\":\"0x");
  out_hex (ex_sym_address (j->run, s));
  out_char ('"');
  if (j->run->modules && s->name)
    {
      key ("module");
      ex_json_string (ex_module_name (j->run, ex_sym_module (j->run, s)),
                      false);
    }
  if (s->file)
    {
      key ("file");
      ex_json_string (s->file->name, false);
      out_str (",\"line\":");
      out_int (s->line_num);
    }
}

/* The flat profile's order: most time, most calls, then by name.  */
static int
cmp_flat (const void *a, const void *b, void *ctx)
{
  const Sym *l = a, *r = b;

  if (l->hist_time != r->hist_time)
    return l->hist_time < r->hist_time ? 1 : -1;
  if (l->ncalls != r->ncalls)
    return l->ncalls < r->ncalls ? 1 : -1;
  return sym_name_cmp (l, r);
}

/* With -l each row is a line: name the function it belongs to.  */
static void
function_of_line (const Json *j, Sym *s)
{
  Sym *f = s;

  while (f > j->run->symtab.base && !f->is_func)
    f--;
  key ("function");
  ex_json_string (ex_sym_name (j->run, f), false);
}

static void
flat_row (const Json *j, Sym *s, double *cumulative, bool first)
{
  const Histograms *h = &j->run->hist;

  *cumulative += s->hist_time;
  out_str (first ? "\n{" : ",\n{");
  sym_fields (j, s);
  if (j->run->opt.line_granularity)
    function_of_line (j, s);
  key ("percent");
  ex_json_number (h->total_time > 0 ? 100 * s->hist_time / h->total_time : 0);
  time_field (j, "cumulative", *cumulative);
  time_field (j, "self", s->hist_time);
  key ("calls");
  if (s->ncalls)
    {
      out_printf ("%lu", s->ncalls);
      time_field (j, "self_per_call", s->hist_time / (double) s->ncalls);
      time_field (j, "total_per_call",
                  (s->hist_time + s->child_time) / (double) s->ncalls);
    }
  else
    out_str ("null");
  if (s->index)
    out_printf (",\"index\":%d", s->index);
  out_char ('}');
}

static void
flat_profile (const Json *j)
{
  SymTab *st = &j->run->symtab;
  Sym **v = gp_reallocarray (NULL, st->len + 1, sizeof *v);
  size_t n = 0;
  double cumulative = 0;

  for (size_t i = 0; i < st->len; i++)
    {
      Sym *s = &st->base[i];

      if (!sym_ids_pass (&j->run->ids, INCL_FLAT, s->addr)
          || (j->run->opt.ignore_zeros && s->ncalls == 0 && s->hist_time == 0))
        continue;
      v[n++] = s;
    }
  msort_ptrs ((void **) v, n, cmp_flat, NULL);
  key ("flat_profile");
  out_char ('[');
  for (size_t i = 0; i < n; i++)
    flat_row (j, v[i], &cumulative, i == 0);
  out_str ("]");
  free (v);
}

/* ---- call graph ------------------------------------------------------- */

static bool
in_same_cycle (const Sym *a, const Sym *b)
{
  return a->cyc_num != 0 && a->cyc_num == b->cyc_num;
}

/* A caller or callee line: calls within a cycle or to itself have a
   count only; the others the time they carry and count/total.  */
static void
arc_entry (const Json *j, const Arc *a, Sym *other, bool inner,
           unsigned long total, bool first)
{
  out_str (first ? "{" : ",{");
  sym_fields (j, other);
  out_str (",\"index\":");
  out_int (other->index);
  out_str (other->print_flag ? ",\"printed\":true" : ",\"printed\":false");
  if (other->cyc_num)
    {
      out_str (",\"cycle\":");
      out_int (other->cyc_num);
    }
  out_str (",\"count\":");
  ex_json_uint (a->count);
  if (!inner)
    {
      const ArcTime *at = cg_arc_time (&j->run->cg, a);

      out_str (",\"total\":");
      ex_json_uint (total);
      time_field (j, "self", at->self);
      time_field (j, "children", at->children);
    }
  out_char ('}');
}

static void
entry_times (const Json *j, const Sym *s)
{
  key ("percent");
  ex_json_number (100 * (s->prop_self + s->prop_child) / j->run->cg.print_time);
  time_field (j, "self", s->prop_self);
  time_field (j, "children", s->prop_child);
  out_str (",\"calls\":");
  ex_json_uint (s->ncalls);
  out_str (",\"self_calls\":");
  ex_json_uint (s->self_calls);
}

/* An entry's arcs, the symbols at their other ends and those symbols'
   names (and a callee's cycle head, for the total) lie anywhere in
   memory: asked for this many lines ahead, each level once the one
   before it has come.  */
enum { ARC_AHEAD = 8, OTHER_AHEAD = 4, NAME_AHEAD = 2, ENTRY_AHEAD = 4 };

/* Entry S's first arcs on both sides, for when its turn comes.  */
GP_PREFETCHER
prefetch_entry (const CallGraph *cg, const Sym *s)
{
  for (uint32_t k = 0; k < s->nparents && k < ARC_AHEAD; k++)
    gp_prefetch (cg_parent (cg, s, k));
  for (uint32_t k = 0; k < s->nchildren && k < ARC_AHEAD; k++)
    gp_prefetch (cg_child (cg, s, k));
}

/* S's K-th caller or callee arc.  */
static Arc *
side_arc (const CallGraph *cg, const Sym *s, uint32_t k, bool callees)
{
  return callees ? cg_child (cg, s, k) : cg_parent (cg, s, k);
}

/* What the lines after S's K-th caller (callee) line will load.  */
GP_PREFETCHER
prefetch_lines (const CallGraph *cg, const Sym *s, uint32_t k, bool callees)
{
  uint32_t n = callees ? s->nchildren : s->nparents;
  const Arc *a;
  const Sym *other;

  if (k + ARC_AHEAD < n)
    gp_prefetch (side_arc (cg, s, k + ARC_AHEAD, callees));
  if (k + OTHER_AHEAD < n)
    {
      a = side_arc (cg, s, k + OTHER_AHEAD, callees);
      sym_prefetch (callees ? a->child : a->parent);
    }
  if (k + NAME_AHEAD < n)
    {
      a = side_arc (cg, s, k + NAME_AHEAD, callees);
      other = callees ? a->child : a->parent;
      gp_prefetch (other->name);
      /* A callee line's total is its cycle's calls.  */
      if (callees)
        gp_prefetch (&other->cyc_head->ncalls);
    }
}

static void
function_entry (const Json *j, Sym *s)
{
  const CallGraph *cg = &j->run->cg;

  out_str ("{\"kind\":\"function\",\"index\":");
  out_int (s->index);
  out_char (',');
  sym_fields (j, s);
  if (s->cyc_num)
    {
      out_str (",\"cycle\":");
      out_int (s->cyc_num);
    }
  entry_times (j, s);
  out_printf (",\"spontaneous\":%s,\"callers\":[",
              s->nparents == 0 ? "true" : "false");
  for (uint32_t k = 0; k < s->nparents; k++)
    {
      Arc *a = cg_parent (cg, s, k);

      prefetch_lines (cg, s, k, false);
      arc_entry (j, a, a->parent,
                 a->parent == s || in_same_cycle (s, a->parent),
                 s->cyc_head->ncalls, k == 0);
    }
  out_str ("],\"callees\":[");
  for (uint32_t k = 0; k < s->nchildren; k++)
    {
      Arc *a = cg_child (cg, s, k);

      prefetch_lines (cg, s, k, true);
      arc_entry (j, a, a->child,
                 a->child == s || in_same_cycle (s, a->child),
                 a->child->cyc_head->ncalls, k == 0);
    }
  out_str ("]}");
}

static void
cycle_entry (const Json *j, Sym *cyc)
{
  out_printf ("{\"kind\":\"cycle\",\"index\":%d,\"cycle\":%d", cyc->index,
              cyc->cyc_num);
  entry_times (j, cyc);
  out_str (",\"members\":[");
  for (Sym *m = cyc->cyc_next; m; m = m->cyc_next)
    {
      out_str (m == cyc->cyc_next ? "{" : ",{");
      sym_fields (j, m);
      out_printf (",\"index\":%d", m->index);
      time_field (j, "self", m->prop_self);
      time_field (j, "children", m->prop_child);
      out_printf (",\"calls\":%lu,\"self_calls\":%lu}", m->ncalls,
                  m->self_calls);
    }
  out_str ("]}");
}

/* The entries the text call graph prints, in its order.  */
static void
call_graph (const Json *j)
{
  const CallGraph *cg = &j->run->cg;
  const Options *opt = &j->run->opt;
  bool first = true;

  if (cg->print_time <= 0)
    /* As in the text report: every share is then 0.  */
    j->run->cg.print_time = 1.0;
  key ("call_graph");
  out_str ("[");
  for (size_t i = 0; i < cg->ntime_sorted; i++)
    {
      Sym *s = cg->time_sorted[i];

      if (i + 2 * ENTRY_AHEAD < cg->ntime_sorted)
        sym_prefetch (cg->time_sorted[i + 2 * ENTRY_AHEAD]);
      if (i + ENTRY_AHEAD < cg->ntime_sorted)
        prefetch_entry (cg, cg->time_sorted[i + ENTRY_AHEAD]);

      if ((opt->ignore_zeros && s->ncalls == 0 && s->self_calls == 0
           && s->prop_self == 0 && s->prop_child == 0)
          || !s->print_flag || (opt->line_granularity && !s->is_func))
        continue;
      out_str (first ? "\n" : ",\n");
      first = false;
      if (!s->name && s->cyc_num != 0)
        cycle_entry (j, s);
      else
        function_entry (j, s);
    }
  out_str ("]");
}

/* Whether the call graph's times come from the call stacks libgmon
   recorded and, if so, how many arcs' they measured and how many kept
   gprof's rule for want of stack data.  */
static void
stacks_fields (const Run *run)
{
  const MeasuredReport *r = &run->stacks.report;

  key ("stacks");
  if (!ex_stacks_measured (run))
    {
      out_str ("\"synthesized\"");
      return;
    }
  out_printf ("\"measured\",\"arcs\":{\"measured\":%zu,\"shared\":%zu}",
              r->arcs_measured, r->arcs_shared);
}

void
export_json (Run *run)
{
  Json j = { run, run->hist.hz > 0 ? run->hist.hz : 1.0 };
  bool hist = run->gmon_input & INPUT_HISTOGRAM;
  bool graph = run->gmon_input & INPUT_CALL_GRAPH;

  out_str ("{\"format\":\"gprof-export\",\"version\":1,\"creator\":\""
           PACKAGE_STRING "\"");
  key ("program");
  ex_json_string (run->opt.image, false);
  key ("profiles");
  out_char ('[');
  for (size_t i = 0; i < run->opt.nprofiles; i++)
    {
      if (i)
        out_char (',');
      ex_json_string (run->opt.profiles[i], false);
    }
  out_printf ("],\"granularity\":\"%s\",\"time_unit\":\"%s\",\"hz\":%u",
              run->opt.line_granularity ? "line" : "function",
              run->hist.hz > 0 ? "seconds" : "samples", run->hist.hz);
  out_printf (",\"bytes_per_sample\":%ld", hist_bytes_per_bin (&run->hist));
  time_field (&j, "total_time", run->hist.total_time);
  time_field (&j, "call_graph_time", graph ? run->cg.print_time : 0);
  stacks_fields (run);
  if (hist)
    flat_profile (&j);
  if (graph)
    call_graph (&j);
  out_str ("}\n");
}
