/* export/stacks.c - --export=folded and --export=speedscope: the stacks
   of model_stacks, those libgmon recorded beside the profile or, without
   them, the call graph expanded into stacks.  Both count ticks; they add
   up to the samples of the functions shown.  Speedscope's profile name
   says which stacks it has; the folded format has no place for it.  */

#include "config.h"
#include "export/internal.h"

#include <stdlib.h>
#include "support/out.h"
#include "support/alloc.h"

/* ---- folded: "root;caller;callee ticks" per line --------------------- */

/* A frame of a folded line: ';' separates frames and the line ends at a
   newline, so neither may appear in a name.  */
static void
folded_frame (const char *s)
{
  for (; *s; s++)
    out_char (*s == ';' ? ':' : *s == '\n' || *s == '\r' ? ' ' : *s);
}

static void
folded_stack (void *ctx, const uint32_t *frames, size_t depth, uint64_t ticks)
{
  const Model *m = ctx;
  char buf[32];

  for (size_t i = 0; i < depth; i++)
    {
      if (i)
        out_char (';');
      folded_frame (model_frame_name (m, frames[i], buf));
    }
  out_printf (" %llu\n", (unsigned long long) ticks);
}

void
export_folded (Run *run)
{
  Model m;

  model_build (&m, run);
  model_stacks (&m, run->opt.export_max_depth, folded_stack, &m);
  model_free (&m);
}

/* ---- speedscope: its JSON file format, one sampled profile ------------ */

typedef struct Speedscope
{
  const Model *m;
  uint32_t *index;        /* frame -> position in shared.frames, or 0 */
  uint32_t *order;        /* the frames used, in order of first use */
  uint32_t nused;
  uint64_t *ticks;        /* the weight of each sample */
  size_t nsamples, cap;
} Speedscope;

static void
speedscope_stack (void *ctx, const uint32_t *frames, size_t depth,
                  uint64_t ticks)
{
  Speedscope *sp = ctx;

  out_str (sp->nsamples ? ",[" : "[");
  for (size_t i = 0; i < depth; i++)
    {
      uint32_t f = frames[i];

      if (!sp->index[f])
        {
          sp->order[sp->nused++] = f;
          sp->index[f] = sp->nused;
        }
      out_printf (i ? ",%u" : "%u", sp->index[f] - 1);
    }
  out_char (']');
  gp_grow (&sp->ticks, &sp->cap, sp->nsamples + 1, sizeof *sp->ticks);
  sp->ticks[sp->nsamples++] = ticks;
}

/* Weights in microseconds when the rate is known, else in samples.  */
static void
write_weights (const Run *run, const Speedscope *sp, double *sum)
{
  double us = run->hist.hz > 0 ? 1e6 / run->hist.hz : 1;

  out_str ("],\"weights\":[");
  *sum = 0;
  for (size_t i = 0; i < sp->nsamples; i++)
    {
      if (i)
        out_char (',');
      ex_json_number ((double) sp->ticks[i] * us);
      *sum += (double) sp->ticks[i] * us;
    }
  out_str ("]");
}

static void
write_frames (const Run *run, const Speedscope *sp)
{
  char buf[32];

  out_str ("\"shared\":{\"frames\":[");
  for (uint32_t i = 0; i < sp->nused; i++)
    {
      uint32_t f = sp->order[i];

      out_str (i ? ",{\"name\":" : "{\"name\":");
      ex_json_string (model_frame_name (sp->m, f, buf), false);
      if (f < sp->m->nnodes && sp->m->node[f].sym->file)
        {
          const Sym *s = sp->m->node[f].sym;

          out_str (",\"file\":");
          ex_json_string (s->file->name, false);
          if (s->line_num > 0)
            out_printf (",\"line\":%d", s->line_num);
        }
      out_char ('}');
    }
  out_str ("]}");
}

void
export_speedscope (Run *run)
{
  Model m;
  Speedscope sp = { 0 };
  double sum;

  model_build (&m, run);
  sp.m = &m;
  sp.index = gp_calloc (model_nframes (&m), sizeof *sp.index);
  sp.order = gp_calloc (model_nframes (&m), sizeof *sp.order);
  out_str ("{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\","
           "\"exporter\":\"" PACKAGE_STRING "\",\"name\":");
  ex_json_string (run->opt.image, false);
  out_str (",\"activeProfileIndex\":0,\"profiles\":[{\"type\":\"sampled\","
           "\"name\":");
  out_str (m.measured ? "\"stacks measured by libgmon\""
                      : "\"stacks synthesized from the call graph\"");
  out_str (",\"unit\":");
  out_str (run->hist.hz > 0 ? "\"microseconds\"" : "\"none\"");
  out_str (",\"startValue\":0,\"samples\":[");
  model_stacks (&m, run->opt.export_max_depth, speedscope_stack, &sp);
  write_weights (run, &sp, &sum);
  out_str (",\"endValue\":");
  ex_json_number (sum);
  out_str ("}],");
  write_frames (run, &sp);
  out_str ("}\n");
  free (sp.index);
  free (sp.order);
  free (sp.ticks);
  model_free (&m);
}
