/* export/callgrind.c - --export=callgrind: the format that
   callgrind_annotate and KCachegrind read.  Costs are ticks (samples):
   each function's own on the lines they fell on (with -l) or on its
   first line, and on each call the callee's inclusive ticks that gprof's
   rule gives that call, so that a function's calls in add up to its own
   ticks and those of its calls out.  Calls inside a cycle cost 0.  With
   the call stacks libgmon records, the calls cost what the stacks
   measured instead (ticks of a function that no call carries are then
   those whose stacks held no caller); a desc: line says which.  */

#include "config.h"
#include "export/internal.h"

#include <stdlib.h>
#include "support/out.h"
#include "support/alloc.h"

/* Names are compressed: "fn=(N) name" the first time, "fn=(N)" after;
   files likewise in their own space.  */
typedef struct Names
{
  uint32_t *fn_id;        /* per node, 0 before its first use */
  uint32_t next_fn;
  const SourceFile **file_key;  /* open addressing, by pointer */
  uint32_t *file_id;
  size_t file_cap, nfiles;
} Names;

/* A name on one line: newlines would end the record.  */
static void
cg_text (const char *s)
{
  for (; *s; s++)
    out_char (*s == '\n' || *s == '\r' ? ' ' : *s);
}

static size_t
file_slot (const Names *nm, const SourceFile *f)
{
  size_t h = ((uintptr_t) f >> 4) * 0x9e3779b97f4a7c15ULL;

  for (h &= nm->file_cap - 1; nm->file_key[h] && nm->file_key[h] != f;
       h = (h + 1) & (nm->file_cap - 1))
    ;
  return h;
}

static void
grow_files (Names *nm)
{
  const SourceFile **key = nm->file_key;
  uint32_t *id = nm->file_id;
  size_t cap = nm->file_cap;

  nm->file_cap = cap ? cap * 2 : 64;
  nm->file_key = gp_calloc (nm->file_cap, sizeof *nm->file_key);
  nm->file_id = gp_calloc (nm->file_cap, sizeof *nm->file_id);
  for (size_t i = 0; i < cap; i++)
    if (key[i])
      {
        size_t s = file_slot (nm, key[i]);

        nm->file_key[s] = key[i];
        nm->file_id[s] = id[i];
      }
  free (key);
  free (id);
}

/* Functions without a known file are in "???", as valgrind names it.  */
static SourceFile no_file;

/* "fl=(N) name" or "fl=(N)" after TAG ("fl", "cfl").  */
static void
write_file (Names *nm, const char *tag, const SourceFile *f)
{
  size_t s;

  if (!f)
    f = &no_file;
  if (nm->nfiles + 1 > nm->file_cap / 2)
    grow_files (nm);
  s = file_slot (nm, f);
  out_printf ("%s=", tag);
  if (nm->file_key[s])
    {
      out_printf ("(%u)\n", nm->file_id[s]);
      return;
    }
  nm->file_key[s] = f;
  nm->file_id[s] = (uint32_t) ++nm->nfiles;
  out_printf ("(%u) ", nm->file_id[s]);
  cg_text (f == &no_file ? "???" : f->name);
  out_char ('\n');
}

static void
write_fn (const Model *m, Names *nm, const char *tag, uint32_t v)
{
  bool known = nm->fn_id[v] != 0;

  if (!known)
    nm->fn_id[v] = ++nm->next_fn;
  out_str (tag);
  out_str ("=(");
  ex_json_uint (nm->fn_id[v]);
  if (known)
    {
      out_str (")\n");
      return;
    }
  out_str (") ");
  cg_text (m->node[v].name);
  out_char ('\n');
}

/* "LINE TICKS\n" */
static void
write_cost (int line, uint64_t ticks)
{
  out_int (line);
  out_char (' ');
  ex_json_uint (ticks);
  out_char ('\n');
}

/* The function's own ticks: per line with -l, else on its first line.  */
static void
write_self (Model *m, const ExNode *n)
{
  if (!m->run->opt.line_granularity)
    {
      write_cost (n->sym->line_num, n->self_ticks);
      return;
    }
  for (uint32_t i = n->first_sym; i < n->first_sym + n->nsyms; i++)
    if (m->sym_ticks[i] || i == n->first_sym)
      write_cost (model_sym (m, i)->line_num, m->sym_ticks[i]);
}

/* A function's calls lead anywhere in memory: the arc, the callee's
   node, then its symbol and the calling site's are asked for this many
   calls ahead, each once the one before has come.  */
enum { ARC_AHEAD = 8, NODE_AHEAD = 4, SYM_AHEAD = 2 };

static void
write_calls (const Model *m, Names *nm, const ExNode *n)
{
  const uint32_t *out = m->out + n->first_out;

  for (uint32_t j = 0; j < n->nout; j++)
    {
      const ExArc *a = &m->arc[out[j]];
      const ExNode *callee = &m->node[a->to];

      if (j + ARC_AHEAD < n->nout)
        gp_prefetch (&m->arc[out[j + ARC_AHEAD]]);
      if (j + NODE_AHEAD < n->nout)
        gp_prefetch (&m->node[m->arc[out[j + NODE_AHEAD]].to]);
      if (j + SYM_AHEAD < n->nout)
        {
          const ExArc *ahead = &m->arc[out[j + SYM_AHEAD]];

          gp_prefetch (m->node[ahead->to].sym);
          gp_prefetch (ahead->site);
          gp_prefetch (&nm->fn_id[ahead->to]);
        }
      /* Every call names its callee's object: readers differ on
         whether a cob= line holds for the calls after it.  */
      if (m->run->modules)
        {
          out_str ("cob=");
          cg_text (ex_module_path (m->run, callee->module));
          out_char ('\n');
        }
      if (callee->sym->file != n->sym->file)
        write_file (nm, "cfl", callee->sym->file);
      write_fn (m, nm, "cfn", a->to);
      /* "calls=COUNT CALLEE_LINE\nSITE_LINE TICKS\n" */
      out_str ("calls=");
      ex_json_uint (a->count);
      out_char (' ');
      out_int (callee->sym->line_num);
      out_char ('\n');
      write_cost (a->site->line_num, a->inner ? 0 : a->ticks);
    }
}

void
export_callgrind (Run *run)
{
  Model m;
  Names nm = { 0 };
  const SourceFile *file = NULL;
  bool first = true;
  uint32_t module = 0;

  model_build (&m, run);
  nm.fn_id = gp_calloc (m.nnodes + 1, sizeof *nm.fn_id);
  out_str ("# callgrind format\nversion: 1\ncreator: " PACKAGE_STRING
           " --export=callgrind\ncmd: ");
  cg_text (run->opt.image);
  out_str (m.measured
           ? "\ndesc: Call costs: measured from the call stacks libgmon"
             " recorded\n"
           : "\ndesc: Call costs: synthesized from the calls by gprof's"
             " rule (no call stacks recorded)\n");
  out_str ("positions: line\n");
  if (run->hist.hz > 0)
    out_printf ("event: Ticks : samples of the program counter, %d per second\n",
                run->hist.hz);
  out_printf ("events: Ticks\nsummary: %llu\n\nob=",
              (unsigned long long) m.visible_ticks);
  cg_text (run->opt.image);
  out_char ('\n');
  for (uint32_t v = 0; v < m.nnodes; v++)
    {
      const ExNode *n = &m.node[v];

      if (!n->visible)
        continue;
      /* --whole-process: the functions of each module under its ob=.  */
      if (n->module != module)
        {
          module = n->module;
          out_str ("ob=");
          cg_text (ex_module_path (run, module));
          out_char ('\n');
        }
      if (first || n->sym->file != file)
        write_file (&nm, "fl", n->sym->file);
      first = false;
      file = n->sym->file;
      write_fn (&m, &nm, "fn", v);
      write_self (&m, n);
      write_calls (&m, &nm, n);
    }
  out_printf ("\ntotals: %llu\n", (unsigned long long) m.visible_ticks);
  free (nm.fn_id);
  free (nm.file_key);
  free (nm.file_id);
  model_free (&m);
}
