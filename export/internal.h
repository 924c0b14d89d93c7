/* export/internal.h - what the --export writers share.

   The text reports work on symbols; with -l a symbol is a source line,
   and the call graph's times then stop at the first line of each
   function.  The graph exports (dot, callgrind, folded, speedscope,
   pprof, html) want functions, so they work on a model of their own: one node
   per function (its lines gathered with -l), the arcs between them, the
   strongly connected components (cycles), and the time carried up the
   arcs by gprof's rule (a callee's time goes to its callers in
   proportion to the calls).  Without -l the model's numbers are the
   call graph's.  Integer costs (ticks) are apportioned with largest
   remainders so that they add up exactly.

   When the profile has the call stacks libgmon records beside it (and
   the options use them: options_parse's apply_stacks), the call graph's
   arcs carry the times measured from them, and so do the model's; the
   stack exports then give the recorded stacks, not synthesized ones,
   and every export says which it has.  */

#ifndef GPROF_EXPORT_INTERNAL_H
#define GPROF_EXPORT_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "gprof.h"
#include "modules.h"

typedef struct ExNode
{
  Sym *sym;               /* the function's symbol (its first line with -l) */
  const char *name;       /* as shown: demangled unless --no-demangle */
  uint32_t first_sym, nsyms;  /* its symbols, consecutive in the symtab */
  uint32_t scc;           /* its strongly connected component */
  uint32_t first_out, nout;   /* its arcs, in Model.out */
  uint32_t first_in, nin;     /* the arcs into it, in Model.in */
  int cycle;              /* cycle number, 0 when in none */
  uint32_t module;        /* --whole-process: its module, 0 the program */
  double fract;           /* share of its time counted (-E/-F/-e/-f) */
  double self, total;     /* samples: its own, with its callees' */
  uint64_t self_ticks, total_ticks;
  unsigned long calls, self_calls;
  bool visible;           /* shown in the call graph (or flat profile) */
} ExNode;

typedef struct ExArc
{
  uint32_t from, to;      /* nodes */
  const Sym *site;        /* the calling symbol: a line with -l */
  unsigned long count;
  bool inner;             /* a self call or one inside a cycle */
  double time;            /* samples of the callee it brings its caller */
  uint64_t ticks;
} ExArc;

typedef struct Model
{
  Run *run;
  ExNode *node;
  uint32_t nnodes;
  uint32_t *node_of_sym;  /* symtab index -> node */
  ExArc *arc;
  uint32_t narcs;
  uint32_t *out, *in;     /* arc indexes grouped by caller, by callee */
  uint32_t nscc;          /* numbered callees first (reverse topological) */
  uint32_t *scc_first;    /* members of k: scc_member[scc_first[k] ..] */
  uint32_t *scc_member;
  uint64_t *scc_ticks;    /* inclusive ticks of each component */
  uint64_t *sym_ticks;    /* each symbol's own ticks (lines with -l) */
  int ncycles;
  double total;           /* samples counted: the call graph's total */
  uint64_t total_ticks;   /* the same in ticks */
  uint64_t visible_ticks; /* own ticks of the visible functions */
  /* Samples the histogram has outside every symbol (in the PLT, say):
     a pseudo-function, the last node, so that the ticks add up to the
     histogram's.  It is in no call graph.  */
  Sym outside;
  bool has_outside;
  uint32_t nsyms;         /* symbols in nodes, the pseudo-function's included */
  bool measured;          /* arcs and stacks from the recorded stacks */
} Model;

/* Whether the exports use the call stacks recorded beside the profile:
   they are there, and the options apply them to the call graph.  */
static inline bool
ex_stacks_measured (const Run *run)
{
  return run->opt.apply_stacks && run->stacks.files > 0;
}

/* Frames of the stacks: node ids, then one per cycle ("<cycle N>",
   synthesized stacks only), then the frame that stands for cut-off
   stacks.  */
enum { EX_MAX_DEPTH_DEFAULT = 64 };

void model_build (Model *m, Run *run);
/* SYM's name as the reports show it (demangled unless --no-demangle).  */
const char *ex_sym_name (const Run *run, Sym *sym);
/* --whole-process: the module SYM lies in (0, the program, without),
   and the name of module K (the last part of its path; the
   executable's for 0), or NULL without --whole-process's modules.  */
uint32_t ex_sym_module (const Run *run, const Sym *sym);
const char *ex_module_name (const Run *run, uint32_t k);
/* Module K's path (the executable's as given for 0).  */
const char *ex_module_path (const Run *run, uint32_t k);
/* SYM's address in its module's file: its own without --whole-process
   (the other modules' symbols lie at synthetic addresses, modules.h).  */
vma_t ex_sym_address (const Run *run, const Sym *sym);
void model_free (Model *m);

/* Symbol I of the nodes: the symtab's, or the pseudo-function.  */
static inline Sym *
model_sym (Model *m, uint32_t i)
{
  return m->has_outside && i == m->nsyms - 1 ? &m->outside
                                               : &m->run->symtab.base[i];
}

static inline bool
model_is_outside (const Model *m, uint32_t v)
{
  return m->node[v].sym == &m->outside;
}

/* Components with at least two members are cycles.  */
static inline bool
model_scc_is_cycle (const Model *m, uint32_t k)
{
  return m->scc_first[k + 1] - m->scc_first[k] > 1;
}

static inline uint32_t
model_cycle_frame (const Model *m, int cycle)
{
  return m->nnodes + (uint32_t) cycle - 1;
}

static inline uint32_t
model_truncated_frame (const Model *m)
{
  return m->nnodes + (uint32_t) m->ncycles;
}

static inline uint32_t
model_nframes (const Model *m)
{
  return m->nnodes + (uint32_t) m->ncycles + 1;
}

/* A frame's name; cycle names go into BUF (at least 32 bytes).  */
const char *model_frame_name (const Model *m, uint32_t frame, char *buf);

/* Called with each stack (frames root first) and its ticks, a stack
   once; the innermost frame's ticks are its own.  */
typedef void (*StackFn) (void *ctx, const uint32_t *frames, size_t depth,
                         uint64_t ticks);

/* The stacks, their ticks adding up to visible_ticks; hidden functions
   are left out, and a stack deeper than MAX_DEPTH frames keeps its
   outermost ones and ends in the truncation frame.  Measured (the
   recorded stacks): each function's own ticks go to the stacks that end
   in it, by their samples, the rest to the function alone; recursion
   stays as repeated frames.  Synthesized: the call graph expanded from
   its roots, each arc taking its share of the callee by gprof's rule;
   cycles are one frame each (with the member below), and expansion
   also stops after a fixed number of steps.  */
void model_stacks (Model *m, int max_depth, StackFn fn, void *ctx);

/* Split TOTAL into integers proportional to W (largest remainders): they
   add up to TOTAL, and zero weights get nothing.  */
void ex_apportion (uint64_t total, const double *w, size_t n, uint64_t *part);

/* Seconds of N samples, or -1 when the sampling rate is unknown.  */
double ex_seconds (const Run *run, double samples);

/* The length of the valid UTF-8 sequence at S, or 0 if it is none.  */
size_t ex_utf8_length (const unsigned char *s);

/* Output helpers, through out.h.  */
void ex_json_string (const char *s, bool for_html);
void ex_json_number (double v);
void ex_json_uint (uint64_t v);
void ex_html_text (const char *s);

/* The writers.  */
void export_dot (Run *run);
void export_callgrind (Run *run);
void export_folded (Run *run);
void export_speedscope (Run *run);
void export_pprof (Run *run);
void export_json (Run *run);
void export_html (Run *run);

/* The html page's style and script (export/html_asset.c).  */
extern const char export_html_css[];
extern const char export_html_js[];

#endif
