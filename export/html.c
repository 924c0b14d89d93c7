/* export/html.c - --export=html: one page that needs nothing else (no
   network): a sortable flat profile, a call-graph view where clicking a
   function shows its neighbourhood (drawn and as tables), search, a
   flame graph of the stacks (recorded or synthesized: model_stacks; the
   summary says which) and, with -l, each function's
   lines as heat over its source.  The page's script
   (export/html_asset.c) draws everything from the profile data, embedded
   as JSON.  */

#include "config.h"
#include "export/internal.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "support/out.h"
#include "support/alloc.h"
#include "support/msort.h"

/* With -l the page shows the source text of a function's lines when the
   file is readable now: the lines with samples and SOURCE_CONTEXT lines
   either side, each cut at SOURCE_LINE_MAX bytes, for the functions with
   the most samples first until SOURCE_LINES_MAX lines are taken; so the
   text adds at most about a megabyte to the page.  */
enum
{
  SOURCE_CONTEXT = 3,
  SOURCE_LINE_MAX = 200,
  SOURCE_LINES_MAX = 5000,
  SOURCE_FILE_MAX = 64 << 20    /* larger files are not read */
};

typedef struct LineRange
{
  int first, last;
} LineRange;

typedef struct SrcLine
{
  int line;
  size_t text;            /* offset of its text (NUL-terminated) */
} SrcLine;

/* The lines of a node's source to embed: planned as ranges, then read.  */
typedef struct Excerpt
{
  size_t first_range, nranges;
  size_t first_line, nlines;
  bool granted;           /* within the page's budget */
  bool over_budget;       /* wanted, but beyond it */
} Excerpt;

typedef struct Source
{
  Excerpt *ex;            /* per node */
  LineRange *range;
  size_t nranges, range_cap;
  SrcLine *line;
  size_t nlines, line_cap;
  char *text;
  size_t ntext, text_cap;
} Source;

typedef struct Page
{
  Model *m;
  uint32_t *id;           /* node -> position among the functions shown + 1 */
  uint32_t *frame_index;  /* frame -> position in "frames" + 1 */
  uint32_t *frame_order;
  uint32_t nframes;
  uint64_t *weights;
  size_t nstacks, cap;
  Source src;             /* with -l */
} Page;

static void
key (const char *k)
{
  out_str (",\"");
  out_str (k);
  out_str ("\":");
}

/* ---- source excerpts (-l) ------------------------------------------------ */

static int
compare_ints (const void *a, const void *b)
{
  int x = *(const int *) a, y = *(const int *) b;

  return (x > y) - (x < y);
}

/* Plan node V's excerpt: its lines with samples (in its own file),
   widened by the context and merged into ranges.  Returns the number of
   lines the ranges cover.  LINES is scratch space.  */
static size_t
plan_excerpt (Page *pg, uint32_t v, int **lines, size_t *cap)
{
  Model *m = pg->m;
  Source *src = &pg->src;
  const ExNode *n = &m->node[v];
  Excerpt *ex = &src->ex[v];
  size_t nlines = 0, covered = 0;

  for (uint32_t i = n->first_sym; i < n->first_sym + n->nsyms; i++)
    {
      const Sym *s = model_sym (m, i);

      if (m->sym_ticks[i] && s->file == n->sym->file && s->line_num > 0)
        {
          gp_grow (lines, cap, nlines + 1, sizeof **lines);
          (*lines)[nlines++] = s->line_num;
        }
    }
  if (nlines > 1)         /* *lines is still NULL when none was found */
    qsort (*lines, nlines, sizeof **lines, compare_ints);
  ex->first_range = src->nranges;
  for (size_t j = 0; j < nlines; j++)
    {
      int line = (*lines)[j];
      int first = line > SOURCE_CONTEXT ? line - SOURCE_CONTEXT : 1;
      int last = line < INT_MAX - SOURCE_CONTEXT ? line + SOURCE_CONTEXT : INT_MAX;

      if (ex->nranges && first <= src->range[src->nranges - 1].last)
        src->range[src->nranges - 1].last = last;
      else
        {
          gp_grow (&src->range, &src->range_cap, src->nranges + 1,
                   sizeof *src->range);
          src->range[src->nranges++] = (LineRange) { first, last };
          ex->nranges++;
        }
    }
  for (size_t r = ex->first_range; r < src->nranges; r++)
    covered += (size_t) (src->range[r].last - src->range[r].first) + 1;
  return covered;
}

/* DIR/NAME opened for reading, or NULL.  */
static FILE *
open_in (const char *dir, const char *name)
{
  char *path = gp_malloc (strlen (dir) + strlen (name) + 2);
  FILE *f;

  sprintf (path, "%s/%s", dir, name);
  f = fopen (path, "rb");
  free (path);
  return f;
}

/* A source file's text, NUL-terminated, or NULL when it cannot be read
   (or is not a plain file, or too large): the page then shows line
   numbers only.  It is looked for where -A looks (as named; a relative
   name in the -I directories; its last part there), but quietly.  */
static char *
read_source (const Run *run, const char *name, size_t *len)
{
  const Options *opt = &run->opt;
  const char *base = strrchr (name, '/');
  FILE *f = fopen (name, "rb");
  struct stat st;
  char *text = NULL;

  for (size_t i = 0; !f && name[0] != '/' && i < opt->nsearch_dirs; i++)
    f = open_in (opt->search_dirs[i], name);
  for (size_t i = 0; !f && base && i < opt->nsearch_dirs; i++)
    f = open_in (opt->search_dirs[i], base + 1);
  if (!f)
    return NULL;
  if (fstat (fileno (f), &st) == 0 && S_ISREG (st.st_mode)
      && st.st_size <= SOURCE_FILE_MAX)
    {
      text = gp_malloc ((size_t) st.st_size + 1);
      *len = fread (text, 1, (size_t) st.st_size, f);
      text[*len] = '\0';
      if (ferror (f))
        {
          free (text);
          text = NULL;
        }
    }
  fclose (f);
  return text;
}

/* Line LINE's text, from P up to its newline or END, into the text kept:
   without a carriage return, cut at SOURCE_LINE_MAX bytes (between UTF-8
   sequences, marked with an ellipsis).  */
static void
keep_line (Source *src, int line, const char *p, const char *end)
{
  const char *nl = memchr (p, '\n', (size_t) (end - p));
  size_t len = (size_t) ((nl ? nl : end) - p);
  bool cut;

  if (len && p[len - 1] == '\r')
    len--;
  cut = len > SOURCE_LINE_MAX;
  if (cut)
    for (len = SOURCE_LINE_MAX; len && ((unsigned char) p[len] & 0xc0) == 0x80;)
      len--;
  gp_grow (&src->line, &src->line_cap, src->nlines + 1, sizeof *src->line);
  src->line[src->nlines++] = (SrcLine) { line, src->ntext };
  gp_grow (&src->text, &src->text_cap, src->ntext + len + 4, 1);
  memcpy (src->text + src->ntext, p, len);
  src->ntext += len;
  if (cut)
    {
      memcpy (src->text + src->ntext, "\xe2\x80\xa6", 3);
      src->ntext += 3;
    }
  src->text[src->ntext++] = '\0';
}

/* Keep the planned lines of NODES[0 .. N), all of them in the file TEXT
   (LEN bytes).  */
static void
take_lines (Page *pg, ExNode **nodes, size_t n, const char *text, size_t len)
{
  Source *src = &pg->src;
  const char *end = text + len;
  size_t *start = NULL, cap = 0, nstarts = 0;

  /* start[k]: where line k + 1 begins.  */
  for (const char *p = text; p < end;)
    {
      const char *nl = memchr (p, '\n', (size_t) (end - p));

      gp_grow (&start, &cap, nstarts + 1, sizeof *start);
      start[nstarts++] = (size_t) (p - text);
      p = nl ? nl + 1 : end;
    }
  for (size_t i = 0; i < n; i++)
    {
      Excerpt *ex = &src->ex[nodes[i] - pg->m->node];

      ex->first_line = src->nlines;
      for (size_t r = ex->first_range; r < ex->first_range + ex->nranges; r++)
        for (int line = src->range[r].first;
             line <= src->range[r].last && (size_t) line <= nstarts; line++)
          keep_line (src, line, text + start[line - 1], end);
      ex->nlines = src->nlines - ex->first_line;
    }
  free (start);
}

static int
more_samples (const void *a, const void *b, void *ctx)
{
  const ExNode *x = a, *y = b;

  (void) ctx;
  if (x->self_ticks != y->self_ticks)
    return x->self_ticks > y->self_ticks ? -1 : 1;
  return (x > y) - (x < y);
}

static int
same_file_together (const void *a, const void *b, void *ctx)
{
  uintptr_t x = (uintptr_t) ((const ExNode *) a)->sym->file;
  uintptr_t y = (uintptr_t) ((const ExNode *) b)->sym->file;

  (void) ctx;
  return (x > y) - (x < y);
}

/* The excerpts: planned for the functions with the most samples first
   while the budget lasts, then read one file at a time.  */
static void
read_excerpts (Page *pg)
{
  Model *m = pg->m;
  Source *src = &pg->src;
  ExNode **order = gp_calloc (m->nnodes + 1, sizeof *order);
  size_t n = 0, granted = 0, budget = SOURCE_LINES_MAX, cap = 0;
  int *lines = NULL;

  src->ex = gp_calloc (m->nnodes + 1, sizeof *src->ex);
  for (uint32_t v = 0; v < m->nnodes; v++)
    if (m->node[v].visible && m->node[v].self_ticks && m->node[v].sym->file)
      order[n++] = &m->node[v];
  msort_ptrs ((void **) order, n, more_samples, NULL);
  for (size_t i = 0; i < n; i++)
    {
      Excerpt *ex = &src->ex[order[i] - m->node];
      size_t covered = plan_excerpt (pg, (uint32_t) (order[i] - m->node),
                                     &lines, &cap);

      if (covered && covered <= budget)
        {
          budget -= covered;
          ex->granted = true;
          order[granted++] = order[i];
        }
      else
        {
          ex->over_budget = covered > 0;
          src->nranges = ex->first_range;
          ex->nranges = 0;
        }
    }
  msort_ptrs ((void **) order, granted, same_file_together, NULL);
  for (size_t i = 0, j; i < granted; i = j)
    {
      size_t len;
      char *text = read_source (m->run, order[i]->sym->file->name, &len);

      for (j = i + 1; j < granted && order[j]->sym->file == order[i]->sym->file;)
        j++;
      if (text)
        take_lines (pg, order + i, j - i, text, len);
      free (text);
    }
  free (lines);
  free (order);
}

/* ---- the data ------------------------------------------------------------ */

/* With -l: [line, ticks] of the function's lines that have ticks, with
   the file as a third element for a line in another file (code inlined
   from a header); then its source excerpt as [line, text], or why there
   is none.  */
static void
function_lines (Page *pg, uint32_t v)
{
  Model *m = pg->m;
  const ExNode *n = &m->node[v];
  const Excerpt *ex = &pg->src.ex[v];
  bool first = true;

  key ("lines");
  out_char ('[');
  for (uint32_t i = n->first_sym; i < n->first_sym + n->nsyms; i++)
    if (m->sym_ticks[i])
      {
        const Sym *s = model_sym (m, i);

        out_printf ("%s[%d,%llu", first ? "" : ",", s->line_num,
                    (unsigned long long) m->sym_ticks[i]);
        if (s->file != n->sym->file)
          {
            out_char (',');
            ex_json_string (s->file ? s->file->name : "", true);
          }
        out_char (']');
        first = false;
      }
  out_char (']');
  if (ex->nlines)
    {
      key ("src");
      out_char ('[');
      for (size_t i = 0; i < ex->nlines; i++)
        {
          const SrcLine *l = &pg->src.line[ex->first_line + i];

          out_printf ("%s[%d,", i ? "," : "", l->line);
          ex_json_string (pg->src.text + l->text, true);
          out_char (']');
        }
      out_char (']');
    }
  else if (ex->granted || ex->over_budget)
    {
      key ("src_missing");
      out_str (ex->granted ? "\"unreadable\"" : "\"budget\"");
    }
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
      if (m->run->modules)
        {
          key ("module");
          ex_json_string (ex_module_name (m->run, n->module), true);
        }
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
        function_lines (pg, v);
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
  key ("stack_kind");
  out_str (pg->m->measured ? "\"measured\"" : "\"synthesized\"");
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
  if (run->opt.line_granularity)
    read_excerpts (&pg);
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
  free (pg.src.ex);
  free (pg.src.range);
  free (pg.src.line);
  free (pg.src.text);
  model_free (&m);
}
