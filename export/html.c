/* export/html.c - --export=html: one page that needs nothing else (no
   network): a sortable flat profile, a call-graph view where clicking a
   function shows its callers and callees, search, and a flame graph of
   the synthesized stacks.  The page's script (export/html_asset.c) draws
   everything from the profile data, embedded as JSON.  */

#include "config.h"
#include "export/internal.h"

#include <stdlib.h>
#include "support/out.h"
#include "support/alloc.h"

typedef struct Page
{
  Model *m;
  uint32_t *id;           /* node -> position among the functions shown + 1 */
  uint32_t *frame_index;  /* frame -> position in "frames" + 1 */
  uint32_t *frame_order;
  uint32_t nframes;
  uint64_t *weights;
  size_t nstacks, cap;
} Page;

static void
key (const char *k)
{
  out_str (",\"");
  out_str (k);
  out_str ("\":");
}

/* With -l: [line, ticks] of the function's lines that have ticks.  */
static void
function_lines (Model *m, const ExNode *n)
{
  bool first = true;

  key ("lines");
  out_char ('[');
  for (uint32_t i = n->first_sym; i < n->first_sym + n->nsyms; i++)
    if (m->sym_ticks[i])
      {
        out_printf ("%s[%d,%llu]", first ? "" : ",", model_sym (m, i)->line_num,
                    (unsigned long long) m->sym_ticks[i]);
        first = false;
      }
  out_char (']');
}

static void
functions (Page *pg)
{
  Model *m = pg->m;
  uint32_t next = 0;

  out_str (",\"functions\":[");
  for (uint32_t v = 0; v < m->nnodes; v++)
    {
      const ExNode *n = &m->node[v];

      if (!n->visible)
        continue;
      pg->id[v] = ++next;
      out_str (next > 1 ? ",\n{\"name\":" : "\n{\"name\":");
      ex_json_string (n->name, true);
      if (n->sym->file)
        {
          key ("file");
          ex_json_string (n->sym->file->name, true);
          key ("line");
          out_printf ("%d", n->sym->line_num);
        }
      key ("self");
      ex_json_number (n->self);
      key ("total");
      ex_json_number (n->total);
      out_printf (",\"calls\":%lu,\"self_calls\":%lu,\"cycle\":%d", n->calls,
                  n->self_calls, n->cycle);
      if (m->run->opt.line_granularity)
        function_lines (m, n);
      out_char ('}');
    }
  out_char (']');
}

/* [caller, callee, calls, samples carried] between functions shown.  */
static void
arcs (const Page *pg)
{
  const Model *m = pg->m;
  bool first = true;

  out_str (",\"arcs\":[");
  for (uint32_t i = 0; i < m->narcs; i++)
    {
      const ExArc *a = &m->arc[i];

      if (!pg->id[a->from] || !pg->id[a->to])
        continue;
      out_printf ("%s[%u,%u,%lu,", first ? "" : ",", pg->id[a->from] - 1,
                  pg->id[a->to] - 1, a->count);
      ex_json_number (a->time);
      out_char (']');
      first = false;
    }
  out_char (']');
}

static void
page_stack (void *ctx, const uint32_t *frames, size_t depth, uint64_t ticks)
{
  Page *pg = ctx;

  out_str (pg->nstacks ? ",[" : "[");
  for (size_t i = 0; i < depth; i++)
    {
      if (!pg->frame_index[frames[i]])
        {
          pg->frame_order[pg->nframes++] = frames[i];
          pg->frame_index[frames[i]] = pg->nframes;
        }
      out_printf (i ? ",%u" : "%u", pg->frame_index[frames[i]] - 1);
    }
  out_char (']');
  gp_grow (&pg->weights, &pg->cap, pg->nstacks + 1, sizeof *pg->weights);
  pg->weights[pg->nstacks++] = ticks;
}

static void
stacks (Page *pg)
{
  char buf[32];

  out_str (",\"stacks\":[");
  model_stacks (pg->m, pg->m->run->opt.export_max_depth, page_stack, pg);
  out_str ("],\"weights\":[");
  for (size_t i = 0; i < pg->nstacks; i++)
    out_printf (i ? ",%llu" : "%llu", (unsigned long long) pg->weights[i]);
  out_str ("],\"frames\":[");
  for (uint32_t i = 0; i < pg->nframes; i++)
    {
      if (i)
        out_char (',');
      ex_json_string (model_frame_name (pg->m, pg->frame_order[i], buf), true);
    }
  out_char (']');
}

static void
profile_data (Page *pg)
{
  const Run *run = pg->m->run;

  out_str ("{\"program\":");
  ex_json_string (run->opt.image, true);
  out_printf (",\"hz\":%u,\"lines\":%s,\"total\":", run->hist.hz,
              run->opt.line_granularity ? "true" : "false");
  ex_json_number (pg->m->total);
  key ("ticks");
  ex_json_uint (pg->m->visible_ticks);
  functions (pg);
  arcs (pg);
  stacks (pg);
  out_str ("}");
}

void
export_html (Run *run)
{
  Model m;
  Page pg = { 0 };

  model_build (&m, run);
  pg.m = &m;
  pg.id = gp_calloc (m.nnodes + 1, sizeof *pg.id);
  pg.frame_index = gp_calloc (model_nframes (&m), sizeof *pg.frame_index);
  pg.frame_order = gp_calloc (model_nframes (&m), sizeof *pg.frame_order);
  out_str ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
           "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
           "<title>gprof: ");
  ex_html_text (run->opt.image);
  out_str ("</title>\n<style>\n");
  out_str (export_html_css);
  out_str ("</style>\n</head>\n<body>\n<header>\n<h1>Profile of <code>");
  ex_html_text (run->opt.image);
  out_str ("</code></h1>\n<p id=\"summary\"></p>\n"
           "<div class=\"bar\"><nav>"
           "<button data-tab=\"flat\">Flat profile</button>"
           "<button data-tab=\"graph\">Call graph</button>"
           "<button data-tab=\"flame\">Flame graph</button></nav>"
           "<input id=\"search\" type=\"search\" placeholder=\"Search functions\" "
           "aria-label=\"Search functions\"></div>\n</header>\n<main>\n"
           "<section id=\"flat\"></section>\n"
           "<section id=\"graph\" hidden></section>\n"
           "<section id=\"flame\" hidden></section>\n</main>\n"
           "<script type=\"application/json\" id=\"profile-data\">");
  profile_data (&pg);
  out_str ("</script>\n<script>\n");
  out_str (export_html_js);
  out_str ("</script>\n</body>\n</html>\n");
  free (pg.id);
  free (pg.frame_index);
  free (pg.frame_order);
  free (pg.weights);
  model_free (&m);
}
