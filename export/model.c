/* export/model.c - the function-level model the graph exports share
   (see export/internal.h), and its stacks: those libgmon recorded, or
   those synthesized from the call graph.  */

#include "config.h"
#include "export/internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "support/alloc.h"
#include "support/error.h"

/* Bounds the stack expansion, in items weighed (a function's own time or
   an arc): a graph with many paths (a DAG expands exponentially) stops
   here, the rest of its time going to the truncation frame.  */
enum { EX_MAX_STEPS = 1 << 23 };

/* ---- nodes and arcs ------------------------------------------------------ */

const char *
ex_sym_name (const Run *run, Sym *sym)
{
  char *d;

  if (!sym->name)
    return "<unknown>";
  if (!run->names.demangle)
    return sym->name;
  if (!sym->shown_name)
    {
      /* Kept in the symbol, as print_name_only keeps it.  */
      d = names_demangle (&run->names, sym->name);
      sym->shown_name = d ? d : sym->name;
    }
  return sym->shown_name;
}

uint32_t
ex_sym_module (const Run *run, const Sym *sym)
{
  return run->modules ? (uint32_t) modules_of (run->modules, sym->addr) : 0;
}

const char *
ex_module_name (const Run *run, uint32_t k)
{
  if (!run->modules)
    return NULL;
  return k == 0 ? path_basename (run->opt.image) : run->modules->mod[k].name;
}

const char *
ex_module_path (const Run *run, uint32_t k)
{
  return k == 0 || !run->modules ? run->opt.image : run->modules->mod[k].path;
}

vma_t
ex_sym_address (const Run *run, const Sym *sym)
{
  if (!run->modules)
    return sym->addr;
  return sym->addr - run->modules->mod[ex_sym_module (run, sym)].offset;
}

/* The histogram's samples that no symbol got.  */
static double
outside_samples (const Run *run)
{
  double inside = 0;

  if (!(run->gmon_input & INPUT_HISTOGRAM))
    return 0;
  for (size_t i = 0; i < run->symtab.len; i++)
    inside += run->symtab.base[i].hist_time;
  return run->hist.total_time - inside;
}

/* With -l the symbols are lines: a function's node gathers its first
   line and the lines up to the next function.  The call graph's
   "<indirect child>" (after the last symbol) is a node when used, and
   the samples outside the symbols are the last.  */
static void
build_nodes (Model *m)
{
  SymTab *st = &m->run->symtab;
  bool lines = m->run->opt.line_granularity;
  size_t nsyms = st->len + (st->base && st->base[st->len].name ? 1 : 0);
  double outside = outside_samples (m->run);

  /* Fractions of a sample are the histogram's rounding, not samples.  */
  m->has_outside = outside > 1e-6;
  m->nsyms = (uint32_t) nsyms + m->has_outside;
  m->node_of_sym = gp_calloc (m->nsyms + 1, sizeof *m->node_of_sym);
  m->node = gp_calloc (m->nsyms + 1, sizeof *m->node);
  m->nnodes = 0;
  if (m->has_outside)
    {
      m->outside.name = "<outside functions>";
      m->outside.hist_time = outside;
      m->outside.is_func = m->outside.print_flag = true;
    }
  for (uint32_t i = 0; i < m->nsyms; i++)
    {
      Sym *s = model_sym (m, i);

      if (m->nnodes == 0 || !lines || s->is_func || i >= st->len)
        {
          ExNode *n = &m->node[m->nnodes++];

          n->sym = s;
          n->first_sym = i;
          if (i < st->len)
            n->module = ex_sym_module (m->run, s);
        }
      m->node[m->nnodes - 1].nsyms++;
      m->node_of_sym[i] = m->nnodes - 1;
    }
}

static void
build_arcs (Model *m)
{
  const CallGraph *cg = &m->run->cg;
  const Sym *base = m->run->symtab.base;

  m->narcs = (uint32_t) cg->narcs;
  m->arc = gp_calloc (m->narcs + 1, sizeof *m->arc);
  for (uint32_t i = 0; i < m->narcs; i++)
    {
      const Arc *a = &cg->arcs[i];
      ExArc *x = &m->arc[i];

      x->from = m->node_of_sym[a->parent - base];
      x->to = m->node_of_sym[a->child - base];
      x->site = a->parent;
      x->count = a->count;
      if (x->from == x->to)
        m->node[x->to].self_calls += a->count;
      else
        m->node[x->to].calls += a->count;
    }
}

/* Group the arc indexes by caller (out) and by callee (in).  */
static void
group_arcs (Model *m)
{
  uint32_t next_out = 0, next_in = 0;

  for (uint32_t i = 0; i < m->narcs; i++)
    {
      m->node[m->arc[i].from].nout++;
      m->node[m->arc[i].to].nin++;
    }
  for (uint32_t v = 0; v < m->nnodes; v++)
    {
      m->node[v].first_out = next_out;
      m->node[v].first_in = next_in;
      next_out += m->node[v].nout;
      next_in += m->node[v].nin;
      m->node[v].nout = m->node[v].nin = 0;
    }
  m->out = gp_calloc (m->narcs + 1, sizeof *m->out);
  m->in = gp_calloc (m->narcs + 1, sizeof *m->in);
  for (uint32_t i = 0; i < m->narcs; i++)
    {
      ExNode *from = &m->node[m->arc[i].from], *to = &m->node[m->arc[i].to];

      m->out[from->first_out + from->nout++] = i;
      m->in[to->first_in + to->nin++] = i;
    }
}

/* ---- strongly connected components (Tarjan, without recursion) ---------- */

typedef struct Tarjan
{
  uint32_t *index, *low, *stack, *call_v, *call_next;
  bool *on_stack;
  uint32_t counter, sp, depth;
} Tarjan;

static void
tarjan_visit (Tarjan *t, uint32_t v)
{
  t->index[v] = t->low[v] = ++t->counter;
  t->stack[t->sp++] = v;
  t->on_stack[v] = true;
  t->call_v[t->depth] = v;
  t->call_next[t->depth++] = 0;
}

/* V's component is complete: pop it off the stack.  */
static void
tarjan_pop_component (Model *m, Tarjan *t, uint32_t v)
{
  uint32_t w;

  do
    {
      w = t->stack[--t->sp];
      t->on_stack[w] = false;
      m->node[w].scc = m->nscc;
    }
  while (w != v);
  m->nscc++;
}

static void
tarjan_from (Model *m, Tarjan *t, uint32_t root)
{
  tarjan_visit (t, root);
  while (t->depth > 0)
    {
      uint32_t v = t->call_v[t->depth - 1];
      ExNode *n = &m->node[v];

      if (t->call_next[t->depth - 1] < n->nout)
        {
          uint32_t w = m->arc[m->out[n->first_out
                                     + t->call_next[t->depth - 1]++]].to;

          if (!t->index[w])
            tarjan_visit (t, w);
          else if (t->on_stack[w] && t->index[w] < t->low[v])
            t->low[v] = t->index[w];
          continue;
        }
      if (t->low[v] == t->index[v])
        tarjan_pop_component (m, t, v);
      if (--t->depth > 0)
        {
          uint32_t u = t->call_v[t->depth - 1];

          if (t->low[v] < t->low[u])
            t->low[u] = t->low[v];
        }
    }
}

static void
find_sccs (Model *m)
{
  uint32_t n = m->nnodes;
  Tarjan t = { 0 };

  t.index = gp_calloc (n + 1, sizeof *t.index);
  t.low = gp_calloc (n + 1, sizeof *t.low);
  t.stack = gp_calloc (n + 1, sizeof *t.stack);
  t.call_v = gp_calloc (n + 1, sizeof *t.call_v);
  t.call_next = gp_calloc (n + 1, sizeof *t.call_next);
  t.on_stack = gp_calloc (n + 1, sizeof *t.on_stack);
  m->nscc = 0;
  for (uint32_t v = 0; v < n; v++)
    if (!t.index[v])
      tarjan_from (m, &t, v);
  free (t.index);
  free (t.low);
  free (t.stack);
  free (t.call_v);
  free (t.call_next);
  free (t.on_stack);

  m->scc_first = gp_calloc (m->nscc + 2, sizeof *m->scc_first);
  m->scc_member = gp_calloc (n + 1, sizeof *m->scc_member);
  for (uint32_t v = 0; v < n; v++)
    m->scc_first[m->node[v].scc + 1]++;
  for (uint32_t k = 0; k < m->nscc; k++)
    m->scc_first[k + 1] += m->scc_first[k];
  {
    uint32_t *fill = gp_calloc (m->nscc + 1, sizeof *fill);

    for (uint32_t v = 0; v < n; v++)
      {
        uint32_t k = m->node[v].scc;

        m->scc_member[m->scc_first[k] + fill[k]++] = v;
      }
    free (fill);
  }
  for (uint32_t i = 0; i < m->narcs; i++)
    m->arc[i].inner = m->node[m->arc[i].from].scc == m->node[m->arc[i].to].scc;
}

/* Order each function's arcs out by the callee's component, so that
   the stack expansion meets the calls into one component together (with
   -l a function has an arc per calling line) and merges them.  */
static void
order_out_by_callee (Model *m)
{
  for (uint32_t v = 0; v < m->nnodes; v++)
    m->node[v].nout = 0;
  for (uint32_t k = 0; k < m->nscc; k++)
    for (uint32_t i = m->scc_first[k]; i < m->scc_first[k + 1]; i++)
      {
        const ExNode *callee = &m->node[m->scc_member[i]];

        for (uint32_t j = 0; j < callee->nin; j++)
          {
            uint32_t a = m->in[callee->first_in + j];
            ExNode *caller = &m->node[m->arc[a].from];

            m->out[caller->first_out + caller->nout++] = a;
          }
      }
}

/* Without -l the cycles are gprof's, and so are their numbers; with -l
   gprof's cycles are among lines, so the function-level ones are
   numbered here, in address order.  */
static bool
take_gprof_cycle_numbers (Model *m)
{
  int count = 0;

  if (m->run->opt.line_granularity)
    return false;
  for (uint32_t k = 0; k < m->nscc; k++)
    {
      int num;

      if (!model_scc_is_cycle (m, k))
        continue;
      num = m->node[m->scc_member[m->scc_first[k]]].sym->cyc_num;
      for (uint32_t i = m->scc_first[k]; i < m->scc_first[k + 1]; i++)
        if (num == 0 || m->node[m->scc_member[i]].sym->cyc_num != num)
          return false;
      count++;
    }
  return count == m->run->cg.ncycles;
}

static void
number_cycles (Model *m)
{
  bool gnu = take_gprof_cycle_numbers (m);
  int *num_of_scc = gp_calloc (m->nscc + 1, sizeof *num_of_scc);

  m->ncycles = 0;
  for (uint32_t v = 0; v < m->nnodes; v++)
    {
      uint32_t k = m->node[v].scc;

      if (!model_scc_is_cycle (m, k))
        continue;
      if (!num_of_scc[k])
        {
          m->ncycles++;
          num_of_scc[k] = gnu ? m->node[v].sym->cyc_num : m->ncycles;
        }
      m->node[v].cycle = num_of_scc[k];
    }
  free (num_of_scc);
}

/* ---- time ------------------------------------------------------------- */

/* Calls into component K from outside it.  */
static double
scc_calls_in (const Model *m, uint32_t k)
{
  double calls = 0;

  for (uint32_t i = m->scc_first[k]; i < m->scc_first[k + 1]; i++)
    {
      const ExNode *n = &m->node[m->scc_member[i]];

      for (uint32_t j = 0; j < n->nin; j++)
        if (!m->arc[m->in[n->first_in + j]].inner)
          calls += (double) m->arc[m->in[n->first_in + j]].count;
    }
  return calls;
}

/* gprof's propagation fractions, callers first: a function counts the
   share of its time that its callers count, weighted by their calls;
   -F (INCL_TIME) starts a count at zero, -E (EXCL_TIME) stops it.
   Without call-graph data all the time counts, as in the flat profile.  */
static void
set_fractions (Model *m, const double *calls_in)
{
  const SymSpecs *ids = &m->run->ids;

  for (uint32_t k = m->nscc; k-- > 0;)
    {
      double inherited = 0;

      for (uint32_t i = m->scc_first[k]; i < m->scc_first[k + 1]; i++)
        {
          const ExNode *n = &m->node[m->scc_member[i]];

          for (uint32_t j = 0; j < n->nin && calls_in[k] > 0; j++)
            {
              const ExArc *a = &m->arc[m->in[n->first_in + j]];

              if (!a->inner)
                inherited += m->node[a->from].fract * (double) a->count
                             / calls_in[k];
            }
        }
      for (uint32_t i = m->scc_first[k]; i < m->scc_first[k + 1]; i++)
        {
          ExNode *n = &m->node[m->scc_member[i]];
          vma_t addr = n->sym->addr;

          n->fract = inherited;
          if (!(m->run->gmon_input & INPUT_CALL_GRAPH))
            n->fract = 1.0;
          else if (n->fract == 0.0)
            n->fract = sym_ids_pass (ids, INCL_TIME, addr) ? 1.0 : 0.0;
          else if (!sym_ids_in (ids, INCL_TIME, addr)
                   && sym_ids_in (ids, EXCL_TIME, addr))
            n->fract = 0.0;
        }
    }
}

/* Each function's own samples (its lines' with -l), counted by its
   fraction; the ticks apportioned over all symbols at once.  */
static void
set_self (Model *m)
{
  double *w = gp_calloc (m->nsyms + 1, sizeof *w);

  m->total = 0;
  for (uint32_t v = 0; v < m->nnodes; v++)
    {
      ExNode *n = &m->node[v];

      n->self = 0;
      for (uint32_t i = n->first_sym; i < n->first_sym + n->nsyms; i++)
        {
          w[i] = n->fract * model_sym (m, i)->hist_time;
          n->self += w[i];
        }
      m->total += n->self;
    }
  m->sym_ticks = gp_calloc (m->nsyms + 1, sizeof *m->sym_ticks);
  m->total_ticks = (uint64_t) llround (m->total);
  ex_apportion (m->total_ticks, w, m->nsyms, m->sym_ticks);
  for (uint32_t v = 0; v < m->nnodes; v++)
    {
      ExNode *n = &m->node[v];

      n->self_ticks = 0;
      for (uint32_t i = n->first_sym; i < n->first_sym + n->nsyms; i++)
        n->self_ticks += m->sym_ticks[i];
    }
  free (w);
}

/* With measured stacks the call graph carries what the stacks measured
   (cg_measured_apply; gprof's rule where they have no data): the model
   takes its times as they are, the nodes being the call graph's symbols
   (the stacks are not used with -l).  A function's children time is the
   call graph's too, not the sum of its arcs': its samples under calls
   that are not arcs (a tail call's) count.  */
static void
take_measured_times (Model *m)
{
  const ArcTime *times = m->run->cg.arc_time;

  gp_assert (!m->run->opt.line_granularity);
  for (uint32_t v = 0; v < m->nnodes; v++)
    m->node[v].total = m->node[v].self + m->node[v].sym->prop_child;
  for (uint32_t i = 0; i < m->narcs; i++)
    {
      ExArc *a = &m->arc[i];

      if (a->inner)
        continue;
      a->time = times[i].self + times[i].children;
    }
}

/* gprof's rule, callees first: an arc into component K brings its
   caller K's time (uncounted by fractions) times count / calls into K,
   counted by the caller's fraction.  Arcs inside a cycle carry nothing;
   a function whose time is not counted passes none on.  */
static void
propagate (Model *m, const double *calls_in)
{
  double *uncounted = gp_calloc (m->nscc + 1, sizeof *uncounted);

  for (uint32_t k = 0; k < m->nscc; k++)
    for (uint32_t i = m->scc_first[k]; i < m->scc_first[k + 1]; i++)
      {
        ExNode *n = &m->node[m->scc_member[i]];

        n->total = n->self;
        if (n->fract == 0.0)
          continue;
        uncounted[k] += n->self / n->fract;
        for (uint32_t j = 0; j < n->nout; j++)
          {
            ExArc *a = &m->arc[m->out[n->first_out + j]];
            uint32_t c = m->node[a->to].scc;
            double share;

            if (a->inner || a->count == 0 || m->node[a->to].fract == 0.0
                || calls_in[c] == 0)
              continue;
            share = uncounted[c] * (double) a->count / calls_in[c];
            uncounted[k] += share;
            a->time = share * n->fract;
            n->total += a->time;
          }
      }
  free (uncounted);
}

/* The same in ticks, callees first: a component's ticks are its
   members' own and those of the arcs out of it; they are then shared
   among the arcs into it by their times.  */
static void
propagate_ticks (Model *m)
{
  double *w = NULL;
  uint64_t *part = NULL;
  size_t cap = 0, part_cap = 0;

  m->scc_ticks = gp_calloc (m->nscc + 1, sizeof *m->scc_ticks);
  for (uint32_t k = 0; k < m->nscc; k++)
    {
      uint64_t ticks = 0;
      double time = 0, arriving = 0;
      size_t nin = 0;

      for (uint32_t i = m->scc_first[k]; i < m->scc_first[k + 1]; i++)
        {
          ExNode *n = &m->node[m->scc_member[i]];

          n->total_ticks = n->self_ticks;
          for (uint32_t j = 0; j < n->nout; j++)
            if (!m->arc[m->out[n->first_out + j]].inner)
              n->total_ticks += m->arc[m->out[n->first_out + j]].ticks;
          ticks += n->total_ticks;
          time += n->total;
          for (uint32_t j = 0; j < n->nin; j++)
            if (!m->arc[m->in[n->first_in + j]].inner)
              {
                gp_grow (&w, &cap, nin + 1, sizeof *w);
                w[nin++] = m->arc[m->in[n->first_in + j]].time;
                arriving += m->arc[m->in[n->first_in + j]].time;
              }
        }
      m->scc_ticks[k] = ticks;
      if (nin == 0 || time <= 0)
        continue;
      /* What arrives is normally all of it; with -E/-F it may be less.  */
      {
        double share = arriving < time ? arriving / time : 1.0;
        uint64_t due = (uint64_t) llround ((double) ticks * share);
        size_t x = 0;

        gp_grow (&part, &part_cap, nin, sizeof *part);
        ex_apportion (due > ticks ? ticks : due, w, nin, part);
        for (uint32_t i = m->scc_first[k]; i < m->scc_first[k + 1]; i++)
          {
            ExNode *n = &m->node[m->scc_member[i]];

            for (uint32_t j = 0; j < n->nin; j++)
              if (!m->arc[m->in[n->first_in + j]].inner)
                m->arc[m->in[n->first_in + j]].ticks = part[x++];
          }
      }
    }
  free (w);
  free (part);
}

/* The call graph's entries (or, without call-graph data, the flat
   profile's rows), less those -z would leave out.  */
static void
set_visible (Model *m)
{
  const Run *run = m->run;
  bool graph = run->gmon_input & INPUT_CALL_GRAPH;

  m->visible_ticks = 0;
  for (uint32_t v = 0; v < m->nnodes; v++)
    {
      ExNode *n = &m->node[v];
      bool empty = n->calls == 0 && n->self_calls == 0 && n->total == 0
                   && n->self == 0;

      if (graph)
        n->visible = n->sym->print_flag
                     && (n->sym->is_func || !run->opt.line_granularity);
      else
        n->visible = sym_ids_pass (&run->ids, INCL_FLAT, n->sym->addr);
      if (run->opt.ignore_zeros && empty)
        n->visible = false;
      if (n->visible)
        m->visible_ticks += n->self_ticks;
    }
}

void
model_build (Model *m, Run *run)
{
  double *calls_in;

  memset (m, 0, sizeof *m);
  m->run = run;
  build_nodes (m);
  build_arcs (m);
  group_arcs (m);
  find_sccs (m);
  order_out_by_callee (m);
  number_cycles (m);
  calls_in = gp_calloc (m->nscc + 1, sizeof *calls_in);
  for (uint32_t k = 0; k < m->nscc; k++)
    calls_in[k] = scc_calls_in (m, k);
  set_fractions (m, calls_in);
  set_self (m);
  m->measured = ex_stacks_measured (run);
  if (m->measured)
    take_measured_times (m);
  else
    propagate (m, calls_in);
  free (calls_in);
  propagate_ticks (m);
  set_visible (m);
  for (uint32_t v = 0; v < m->nnodes; v++)
    m->node[v].name = ex_sym_name (run, m->node[v].sym);
}

void
model_free (Model *m)
{
  free (m->node);
  free (m->node_of_sym);
  free (m->arc);
  free (m->out);
  free (m->in);
  free (m->scc_first);
  free (m->scc_member);
  free (m->scc_ticks);
  free (m->sym_ticks);
  memset (m, 0, sizeof *m);
}

const char *
model_frame_name (const Model *m, uint32_t frame, char *buf)
{
  if (frame < m->nnodes)
    return m->node[frame].name;
  if (frame == model_truncated_frame (m))
    return "[truncated]";
  snprintf (buf, 32, "<cycle %d>", (int) (frame - m->nnodes) + 1);
  return buf;
}

/* ---- apportioning ------------------------------------------------------ */

typedef struct Remainder
{
  double r;
  size_t i;
} Remainder;

static int
cmp_remainder (const void *a, const void *b)
{
  const Remainder *l = a, *r = b;

  if (l->r != r->r)
    return l->r > r->r ? -1 : 1;
  return l->i < r->i ? -1 : l->i > r->i;
}

/* Rearrange REM[0 .. N - 1] so that its first K places hold the K
   remainders cmp_remainder orders first, in any order: a quickselect,
   where sorting all of them cost n log n at every expansion of a big
   component.  cmp_remainder is a strict order (ties go by index), so
   the K are the same ones a sort would put first.  */
static void
select_first (Remainder *rem, size_t n, size_t k)
{
  size_t lo = 0, hi = n;

  while (lo < k && k < hi)
    {
      Remainder pivot = rem[lo + (hi - lo) / 2], t;
      size_t lt = lo, i = lo, gt = hi;

      /* [lo, lt) before the pivot, [lt, gt) the pivot, [gt, hi) after.  */
      while (i < gt)
        {
          int c = cmp_remainder (&rem[i], &pivot);

          if (c < 0)
            {
              t = rem[lt];
              rem[lt++] = rem[i];
              rem[i++] = t;
            }
          else if (c > 0)
            {
              t = rem[--gt];
              rem[gt] = rem[i];
              rem[i] = t;
            }
          else
            i++;
        }
      if (k <= lt)
        hi = lt;
      else if (k >= gt)
        lo = gt;
      else
        return;
    }
}

void
ex_apportion (uint64_t total, const double *w, size_t n, uint64_t *part)
{
  double sum = 0;
  uint64_t given = 0;
  Remainder *rem;
  size_t nrem = 0;

  for (size_t i = 0; i < n; i++)
    {
      part[i] = 0;
      if (w[i] > 0)
        sum += w[i];
    }
  if (sum <= 0 || total == 0)
    return;
  rem = gp_reallocarray (NULL, n, sizeof *rem);
  for (size_t i = 0; i < n; i++)
    if (w[i] > 0)
      {
        double ideal = w[i] / sum * (double) total;
        double whole = floor (ideal);

        part[i] = (uint64_t) whole;
        given += part[i];
        rem[nrem].r = ideal - whole;
        rem[nrem++].i = i;
      }
  if (given < total)
    {
      /* One more for each in the order of the remainders, round after
         round (rounding can leave more to give than there are
         remainders): a whole round for every one, then one for the REST
         first ones, which need only be found, not sorted.  */
      uint64_t left = total - given, rounds = left / nrem;
      size_t rest = (size_t) (left % nrem);

      for (size_t j = 0; rounds > 0 && j < nrem; j++)
        part[rem[j].i] += rounds;
      select_first (rem, nrem, rest);
      for (size_t j = 0; j < rest; j++)
        part[rem[j].i]++;
    }
  else if (given > total)
    {
      /* Taken back from the smallest remainders up (rare).  */
      qsort (rem, nrem, sizeof *rem, cmp_remainder);
      for (size_t j = nrem; given > total && j-- > 0;)
        if (part[rem[j].i] > 0)
          {
            part[rem[j].i]--;
            given--;
          }
    }
  free (rem);
}

/* ---- stacks ------------------------------------------------------------ */

typedef struct Expander
{
  Model *m;
  StackFn fn;
  void *ctx;
  uint32_t *frames;
  size_t depth, max_depth;
  uint64_t steps_left;
  /* Every component's items (each member's own ticks, then its arcs
     out), laid out once, component K's from first_item[K]: a big
     component is expanded many times, and its arcs lie anywhere.  */
  size_t *first_item;
  double *weight;         /* the ticks each item shares in */
  uint32_t *callee;       /* an arc's callee component */
  bool *inner;            /* an arc within its component */
  /* Scratch shared by all levels, as a stack: a level uses the slots
     from its base up and gives them back on return.  */
  uint64_t *part;
  size_t cap, top;
} Expander;

static void
emit (Expander *e, uint64_t ticks)
{
  if (ticks)
    e->fn (e->ctx, e->frames, e->depth, ticks);
}

static void
emit_truncated (Expander *e, uint64_t ticks)
{
  e->frames[e->depth++] = model_truncated_frame (e->m);
  emit (e, ticks);
  e->depth--;
}

/* The items of every component, in component order.  */
static void
lay_out_items (Expander *e)
{
  const Model *m = e->m;
  size_t n = 0;

  e->first_item = gp_reallocarray (NULL, (size_t) m->nscc + 1,
                                   sizeof *e->first_item);
  for (uint32_t k = 0; k < m->nscc; k++)
    {
      e->first_item[k] = n;
      for (uint32_t i = m->scc_first[k]; i < m->scc_first[k + 1]; i++)
        n += 1 + m->node[m->scc_member[i]].nout;
    }
  e->first_item[m->nscc] = n;
  e->weight = gp_reallocarray (NULL, n ? n : 1, sizeof *e->weight);
  e->callee = gp_calloc (n ? n : 1, sizeof *e->callee);
  e->inner = gp_calloc (n ? n : 1, sizeof *e->inner);
  n = 0;
  for (uint32_t k = 0; k < m->nscc; k++)
    for (uint32_t i = m->scc_first[k]; i < m->scc_first[k + 1]; i++)
      {
        const ExNode *node = &m->node[m->scc_member[i]];

        e->weight[n++] = (double) node->self_ticks;
        for (uint32_t j = 0; j < node->nout; j++, n++)
          {
            const ExArc *a = &m->arc[m->out[node->first_out + j]];

            e->weight[n] = a->inner ? 0.0 : (double) a->ticks;
            e->callee[n] = m->node[a->to].scc;
            e->inner[n] = a->inner;
          }
      }
}

static void expand (Expander *e, uint32_t k, uint64_t ticks);

/* One member of a component: its frame (if shown), its own ticks, and
   its callees below it.  Its items are *ITEM on in the scratch, and
   *ITEM + AT in the laid-out items.  */
static void
expand_member (Expander *e, uint32_t v, size_t *item, size_t at)
{
  const ExNode *n = &e->m->node[v];
  uint64_t share = 0;

  if (n->visible)
    {
      e->frames[e->depth++] = v;
      emit (e, e->part[(*item)++]);
    }
  else
    (*item)++;  /* a hidden function's own time is left out */
  for (uint32_t j = 0; j < n->nout; j++)
    {
      size_t p = *item + at;
      uint32_t callee = e->callee[p];

      share += e->part[(*item)++];
      if (j + 1 < n->nout && e->callee[p + 1] == callee)
        continue;  /* more calls into the same component follow */
      if (!e->inner[p])
        expand (e, callee, share);
      share = 0;
    }
  if (n->visible)
    e->depth--;
}

static void
expand (Expander *e, uint32_t k, uint64_t ticks)
{
  Model *m = e->m;
  size_t base = e->top, item, n;
  bool cycle = model_scc_is_cycle (m, k);

  if (ticks == 0)
    return;
  n = e->first_item[k + 1] - e->first_item[k];
  if (e->depth >= e->max_depth || e->steps_left < n)
    {
      emit_truncated (e, ticks);
      return;
    }
  e->steps_left -= n;
  if (base + n > e->cap)
    {
      e->cap = (base + n) * 2;
      e->part = gp_reallocarray (e->part, e->cap, sizeof *e->part);
    }
  ex_apportion (ticks, e->weight + e->first_item[k], n, e->part + base);
  e->top = base + n;
  if (cycle)
    e->frames[e->depth++] = model_cycle_frame (m, m->node[m->scc_member[m->scc_first[k]]].cycle);
  item = base;
  for (uint32_t i = m->scc_first[k]; i < m->scc_first[k + 1]; i++)
    expand_member (e, m->scc_member[i], &item, e->first_item[k] - base);
  if (cycle)
    e->depth--;
  e->top = base;
}

static void
synthesized_stacks (Model *m, int max_depth, StackFn fn, void *ctx)
{
  Expander e = { 0 };

  e.m = m;
  e.fn = fn;
  e.ctx = ctx;
  e.max_depth = max_depth > 0 ? (size_t) max_depth : 1;
  /* Each level may add a cycle and a member frame; the truncation
     frame comes last.  */
  e.frames = gp_calloc (e.max_depth + 3, sizeof *e.frames);
  e.steps_left = EX_MAX_STEPS;
  lay_out_items (&e);
  for (uint32_t k = m->nscc; k-- > 0;)
    {
      uint64_t arriving = 0;

      for (uint32_t i = m->scc_first[k]; i < m->scc_first[k + 1]; i++)
        {
          const ExNode *n = &m->node[m->scc_member[i]];

          for (uint32_t j = 0; j < n->nin; j++)
            if (!m->arc[m->in[n->first_in + j]].inner)
              arriving += m->arc[m->in[n->first_in + j]].ticks;
        }
      if (m->scc_ticks[k] > arriving)
        expand (&e, k, m->scc_ticks[k] - arriving);
    }
  free (e.frames);
  free (e.first_item);
  free (e.weight);
  free (e.callee);
  free (e.inner);
  free (e.part);
}

/* ---- measured stacks ---------------------------------------------------

   The stacks libgmon recorded (run->stacks), their frames mapped to the
   model's functions: a tree of frames like CallStacks', whose "pc"s are
   frames of the model, each node weighted by the ticks of the stacks
   ending there.  Frames outside every symbol and those of hidden
   functions are left out; recursion stays as repeated frames; frames
   past the depth bound become one truncation frame.

   The ticks are the flat profile's: a function's own ticks go to the
   stacks whose innermost frame is in it, by their samples (largest
   remainders), as many as they hold; the rest (samples without a stack,
   and those the histogram counts where the stacks do not) go to the
   one-frame stack of the function.  */

typedef struct Measured
{
  Model *m;
  CallStacks tree;        /* frames of the model */
  uint32_t *depth;        /* per node of the tree: its frames */
  size_t depth_cap;
  size_t max_depth;
} Measured;

/* An innermost frame of the recorded stacks: its function and the node
   of the tree its ticks go to.  */
typedef struct Leaf
{
  uint32_t v, node;
  uint64_t samples;
} Leaf;

static int
cmp_leaf (const void *a, const void *b)
{
  const Leaf *l = a, *r = b;

  if (l->v != r->v)
    return l->v < r->v ? -1 : 1;
  return (l->node > r->node) - (l->node < r->node);
}

/* The tree's node of FRAME under UP (STACK_ROOT: a root), or the
   truncation frame there when UP is as deep as stacks may go (or is
   it).  */
static uint32_t
tree_node (Measured *ms, uint32_t up, uint32_t frame)
{
  uint32_t cut = model_truncated_frame (ms->m), n, d = 1;

  if (up != STACK_ROOT)
    {
      if (ms->tree.pc[up] == cut)
        return up;
      d = ms->depth[up] + 1;
      if (d > ms->max_depth)
        frame = cut;
    }
  n = cg_stacks_node (&ms->tree, up, frame);
  gp_grow (&ms->depth, &ms->depth_cap, ms->tree.n, sizeof *ms->depth);
  ms->depth[n] = d;
  return n;
}

/* Each recorded node's node in the tree (STACK_ROOT while no frame of
   its stack is kept) and the stacks' innermost frames, sorted by
   function, into *LEAVES.  */
static size_t
map_stacks (Measured *ms, Leaf **leaves)
{
  const Model *m = ms->m;
  const CallStacks *cs = &m->run->stacks;
  uint32_t *sym_of = gp_reallocarray (NULL, cs->n ? cs->n : 1,
                                      sizeof *sym_of);
  uint32_t *node_of = gp_reallocarray (NULL, cs->n ? cs->n : 1,
                                       sizeof *node_of);
  size_t nleaves = 0, cap = 0;

  *leaves = NULL;
  cg_stacks_symbols (cs, &m->run->symtab, true, sym_of);
  for (size_t i = 0; i < cs->n; i++)
    {
      /* Parents come first: their nodes are known.  */
      uint32_t up = cs->up[i] == STACK_ROOT ? STACK_ROOT : node_of[cs->up[i]];
      uint32_t v = sym_of[i] == STACK_NO_SYM ? UINT32_MAX
                                             : m->node_of_sym[sym_of[i]];
      bool kept = v != UINT32_MAX && m->node[v].visible;

      node_of[i] = kept ? tree_node (ms, up, v) : up;
      /* A sample outside the functions shown is not theirs to share.  */
      if (cs->weight[i] == 0 || !kept || m->node[v].self_ticks == 0)
        continue;
      gp_grow (leaves, &cap, nleaves + 1, sizeof **leaves);
      (*leaves)[nleaves].v = v;
      (*leaves)[nleaves].node = node_of[i];
      (*leaves)[nleaves++].samples = cs->weight[i];
    }
  free (sym_of);
  free (node_of);
  if (nleaves > 0)
    qsort (*leaves, nleaves, sizeof **leaves, cmp_leaf);
  return nleaves;
}

/* Each shown function's own ticks onto the tree (its weights).  */
static void
share_ticks (Measured *ms, const Leaf *leaf, size_t nleaves)
{
  Model *m = ms->m;
  double *w = gp_reallocarray (NULL, nleaves ? nleaves : 1, sizeof *w);
  uint64_t *part = gp_reallocarray (NULL, nleaves ? nleaves : 1,
                                    sizeof *part);
  uint64_t given = 0;
  size_t i = 0;

  for (uint32_t v = 0; v < m->nnodes; v++)
    {
      uint64_t ticks = m->node[v].self_ticks, samples = 0, taken;
      size_t first = i;

      for (; i < nleaves && leaf[i].v == v; i++)
        {
          w[i - first] = (double) leaf[i].samples;
          samples += leaf[i].samples;
        }
      if (!m->node[v].visible || ticks == 0)
        continue;
      taken = samples < ticks ? samples : ticks;
      ex_apportion (taken, w, i - first, part);
      for (size_t j = first; j < i; j++)
        ms->tree.weight[leaf[j].node] += part[j - first];
      if (ticks > taken)
        {
          /* tree_node may grow the arrays: the index first.  */
          uint32_t own = tree_node (ms, STACK_ROOT, v);
          ms->tree.weight[own] += ticks - taken;
        }
      given += ticks;
    }
  gp_assert (i == nleaves);
  gp_assert (given == m->visible_ticks);
  free (w);
  free (part);
}

/* A node of the tree by its parent, then its frame: KEY sorts so.  */
typedef struct Child
{
  uint64_t key;
  uint32_t node;
} Child;

static int
cmp_child (const void *a, const void *b)
{
  const Child *l = a, *r = b;

  return (l->key > r->key) - (l->key < r->key);
}

/* The tree's stacks, depth first, parents before their children and
   children in frame (address) order: without recursion, each level
   keeps its place among its parent's children.  */
static void
emit_tree (Measured *ms, StackFn fn, void *ctx)
{
  const CallStacks *t = &ms->tree;
  size_t n = t->n;
  Child *child = gp_reallocarray (NULL, n ? n : 1, sizeof *child);
  size_t *first = gp_calloc (n + 2, sizeof *first);
  size_t *pos = gp_calloc (ms->max_depth + 2, sizeof *pos);
  size_t *end = gp_calloc (ms->max_depth + 2, sizeof *end);
  uint32_t *frames = gp_calloc (ms->max_depth + 2, sizeof *frames);
  size_t depth = 0;

  /* Node X's children are child[first[X + 1] .. first[X + 2]), the
     roots child[first[0] .. first[1]).  */
  for (size_t i = 0; i < n; i++)
    {
      uint64_t up = t->up[i] == STACK_ROOT ? 0 : (uint64_t) t->up[i] + 1;

      child[i].key = up << 32 | (uint64_t) t->pc[i];
      child[i].node = (uint32_t) i;
      first[up + 1]++;
    }
  qsort (child, n, sizeof *child, cmp_child);
  for (size_t x = 0; x <= n; x++)
    first[x + 1] += first[x];
  pos[0] = first[0];
  end[0] = first[1];
  for (;;)
    {
      uint32_t x;

      if (pos[depth] == end[depth])
        {
          if (depth == 0)
            break;
          depth--;
          continue;
        }
      x = child[pos[depth]++].node;
      gp_assert (depth < ms->max_depth + 1);
      frames[depth] = (uint32_t) t->pc[x];
      if (t->weight[x])
        fn (ctx, frames, depth + 1, t->weight[x]);
      depth++;
      pos[depth] = first[x + 1];
      end[depth] = first[x + 2];
    }
  free (child);
  free (first);
  free (pos);
  free (end);
  free (frames);
}

static void
measured_stacks (Model *m, int max_depth, StackFn fn, void *ctx)
{
  Measured ms = { 0 };
  Leaf *leaves;
  size_t nleaves;

  ms.m = m;
  ms.max_depth = max_depth > 0 ? (size_t) max_depth : 1;
  nleaves = map_stacks (&ms, &leaves);
  share_ticks (&ms, leaves, nleaves);
  emit_tree (&ms, fn, ctx);
  free (leaves);
  free (ms.depth);
  cg_stacks_free (&ms.tree);
}

void
model_stacks (Model *m, int max_depth, StackFn fn, void *ctx)
{
  if (m->measured)
    measured_stacks (m, max_depth, fn, ctx);
  else
    synthesized_stacks (m, max_depth, fn, ctx);
}

/* ---- small output helpers ---------------------------------------------- */

double
ex_seconds (const Run *run, double samples)
{
  return run->hist.hz > 0 ? samples / run->hist.hz : -1.0;
}
