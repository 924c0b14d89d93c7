/* export/dot.c - --export=dot: a Graphviz call graph drawn as gprof2dot
   draws one, so that it looks as its users expect: a box per function
   with its name, total %, (self %) and calls; arrows labelled with the
   share of the total they carry and the calls; both coloured from blue
   (little) to red (much); cycles drawn as clusters.  */

#include "config.h"
#include "export/internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "support/out.h"
#include "support/alloc.h"

/* dot refuses quoted strings past 16 KiB; names are cut well before.  */
enum { MAX_LABEL_NAME = 4096 };

/* A label, quoted: backslashes and quotes escaped, newlines as "\n",
   bytes that are not UTF-8 (dot's default charset) as '?'.  */
static void
dot_name (const char *s)
{
  const unsigned char *p = (const unsigned char *) s;
  size_t used = 0;

  while (*p && used < MAX_LABEL_NAME)
    {
      size_t n = ex_utf8_length (p);

      if (n == 0 || *p == '\r')
        {
          out_char ('?');
          p++;
        }
      else if (*p == '\n')
        {
          out_str ("\\n");
          p++;
        }
      else
        {
          if (*p == '"' || *p == '\\')
            out_char ('\\');
          out_write ((const char *) p, n);
          p += n;
        }
      used += n ? n : 1;
    }
  if (*p)
    out_str ("...");
}

/* The temperature colour of a weight from 0 to 1: hue, saturation and
   lightness go from dark blue (2/3, 0.8, 0.25) to red (0, 1, 0.5).  */
static void
dot_color (double weight)
{
  double h, s, l, q, p, rgb[3];

  if (!(weight > 0))
    weight = 0;
  if (weight > 1)
    weight = 1;
  h = 2.0 / 3.0 * (1 - weight);
  s = 0.8 + 0.2 * weight;
  l = 0.25 + 0.25 * weight;
  q = l < 0.5 ? l * (1 + s) : l + s - l * s;
  p = 2 * l - q;
  for (int i = 0; i < 3; i++)
    {
      double t = h + (1 - i) / 3.0;

      t -= floor (t);
      if (t < 1 / 6.0)
        rgb[i] = p + (q - p) * 6 * t;
      else if (t < 1 / 2.0)
        rgb[i] = q;
      else if (t < 2 / 3.0)
        rgb[i] = p + (q - p) * (2 / 3.0 - t) * 6;
      else
        rgb[i] = p;
    }
  out_printf ("\"#%02x%02x%02x\"", (int) lround (rgb[0] * 255),
              (int) lround (rgb[1] * 255), (int) lround (rgb[2] * 255));
}

typedef struct Dot
{
  const Model *m;
  double total;           /* the samples that make 100% */
  double node_min, edge_min;  /* thresholds as weights */
  bool *shown;
} Dot;

static double
weight_of (const Dot *d, double samples)
{
  return d->total > 0 ? samples / d->total : 0;
}

static void
write_node (const Dot *d, uint32_t v)
{
  const ExNode *n = &d->m->node[v];
  double w = weight_of (d, n->total);

  out_printf ("\t%u [color=", v);
  dot_color (w);
  out_str (", fontcolor=\"#ffffff\", fontsize=\"10.00\", label=\"");
  dot_name (n->name);
  out_printf ("\\n%.2f%%\\n(%.2f%%)", 100 * w, 100 * weight_of (d, n->self));
  if (n->calls + n->self_calls != 0)
    out_printf ("\\n%lu×", n->calls + n->self_calls);
  out_str ("\"];\n");
}

/* The functions shown: those of the call graph (not the samples outside
   it) that take at least the node threshold of the time.  */
static void
choose_nodes (Dot *d)
{
  const Model *m = d->m;

  d->shown = gp_calloc (m->nnodes + 1, sizeof *d->shown);
  for (uint32_t v = 0; v < m->nnodes; v++)
    d->shown[v] = m->node[v].visible && !model_is_outside (m, v)
                  && weight_of (d, m->node[v].total) >= d->node_min;
}

/* Cycles first, each as a cluster of its members, then the others.  */
static void
write_nodes (const Dot *d)
{
  const Model *m = d->m;

  for (uint32_t k = 0; k < m->nscc; k++)
    {
      bool open = false;

      if (!model_scc_is_cycle (m, k))
        continue;
      for (uint32_t i = m->scc_first[k]; i < m->scc_first[k + 1]; i++)
        {
          uint32_t v = m->scc_member[i];

          if (!d->shown[v])
            continue;
          if (!open)
            out_printf ("\tsubgraph cluster_cycle%d {\n\t\tgraph [label=\"<cycle %d>\", "
                        "style=\"dashed,rounded\", color=\"#808080\", fontcolor=\"#404040\"];\n",
                        m->node[v].cycle, m->node[v].cycle);
          open = true;
          out_char ('\t');
          write_node (d, v);
        }
      if (open)
        out_str ("\t}\n");
    }
  for (uint32_t v = 0; v < m->nnodes; v++)
    if (d->shown[v] && m->node[v].cycle == 0)
      write_node (d, v);
}

typedef struct Edge
{
  uint32_t to;
  unsigned long count;
  double time;
  bool inner;
} Edge;

static void
write_edge (const Dot *d, uint32_t from, const Edge *e)
{
  double w = weight_of (d, e->time);
  double pen = w * 4.0 > 0.5 ? w * 4.0 : 0.5;

  out_printf ("\t%u -> %u [arrowsize=\"%.2f\", color=", from, e->to,
              0.5 * sqrt (pen));
  dot_color (w);
  out_str (", fontcolor=");
  dot_color (w);
  out_str (", fontsize=\"10.00\", label=\"");
  if (!e->inner)
    out_printf ("%.2f%%\\n", 100 * w);
  out_printf ("%lu×\", labeldistance=\"%.2f\", penwidth=\"%.2f\"];\n",
              e->count, pen, pen);
}

/* The arcs between two shown functions, those from one function to
   another merged (with -l there is one per calling line).  Arcs within
   a cycle and self calls carry no time and are always drawn: they make
   the cycle.  */
static void
write_edges (const Dot *d)
{
  const Model *m = d->m;
  uint32_t *slot = gp_calloc (m->nnodes + 1, sizeof *slot);
  Edge *edges = NULL;
  size_t cap = 0;

  for (uint32_t v = 0; v < m->nnodes; v++)
    {
      const ExNode *n = &m->node[v];
      size_t ne = 0;

      if (!d->shown[v])
        continue;
      for (uint32_t j = 0; j < n->nout; j++)
        {
          const ExArc *a = &m->arc[m->out[n->first_out + j]];
          Edge *e;

          if (!d->shown[a->to])
            continue;
          if (!slot[a->to])
            {
              gp_grow (&edges, &cap, ne + 1, sizeof *edges);
              memset (&edges[ne], 0, sizeof *edges);
              edges[ne].to = a->to;
              edges[ne].inner = a->inner;
              slot[a->to] = (uint32_t) ++ne;
            }
          e = &edges[slot[a->to] - 1];
          e->count += a->count;
          e->time += a->time;
        }
      for (size_t i = 0; i < ne; i++)
        {
          slot[edges[i].to] = 0;
          if (edges[i].inner || weight_of (d, edges[i].time) >= d->edge_min)
            write_edge (d, v, &edges[i]);
        }
    }
  free (edges);
  free (slot);
}

void
export_dot (Run *run)
{
  Model m;
  Dot d;

  model_build (&m, run);
  d.m = &m;
  /* The call graph's total, as the text report's percentages.  */
  d.total = m.total;
  if (m.has_outside)
    d.total -= m.node[m.nnodes - 1].self;
  d.node_min = run->opt.export_node_threshold / 100;
  d.edge_min = run->opt.export_edge_threshold / 100;
  if (d.total <= 0)
    /* No time (a profile of calls only): the thresholds would hide all.  */
    d.node_min = d.edge_min = 0;
  choose_nodes (&d);
  out_str ("digraph {\n"
           "\ttooltip=\" \"\n"
           "\tgraph [fontname=Arial, nodesep=0.125, ranksep=0.25];\n"
           "\tnode [fontcolor=white, fontname=Arial, height=0, shape=box, "
           "style=filled, width=0];\n"
           "\tedge [fontname=Arial];\n");
  write_nodes (&d);
  write_edges (&d);
  out_str ("}\n");
  free (d.shown);
  model_free (&m);
}
