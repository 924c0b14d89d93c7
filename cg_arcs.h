/* cg_arcs.h - the call graph: arcs between symbols, cycles, and the
   propagation of time from callees to callers.

   While profile files are read, arcs are merged through a hash table on
   (parent, child).  cg_assemble then lays them out as slices: each
   symbol's children and parents are contiguous runs of Arc pointers, in
   the order GNU gprof's lists have (most recently created first).  */

#ifndef GPROF_CG_ARCS_H
#define GPROF_CG_ARCS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "support/error.h"
#include "symtab.h"

struct Run;
struct Par;
typedef struct ArcBatch ArcBatch;

/* How an arc sorts among a function's callers or callees.  */
typedef enum ArcKind
{
  ARC_SELF,               /* a call to itself */
  ARC_IN_CYCLE,           /* between two members of one cycle */
  ARC_NORMAL
} ArcKind;

typedef struct Arc
{
  Sym *parent, *child;
  unsigned long count;
  bool has_been_placed;     /* -r/-R orderings */
  unsigned char kind;       /* ArcKind, set once the cycles are known */
  bool measured;            /* times from call stacks (cg_measured_apply) */
} Arc;

/* The time propagated along an arc: the callee's own (self) and that of
   what it calls (children).  Kept beside the arcs and made by
   cg_assemble: the arcs are the biggest array while the profile is
   read, and the times are needed only later, when the memory of the
   read buffer and the arc hash is free again.  */
typedef struct ArcTime
{
  double self, children;
} ArcTime;

typedef struct CallGraph
{
  Arc *arcs;              /* in creation order, self arcs included */
  size_t narcs, cap;
  uint32_t *hash;         /* arc index + 1 per slot, 0 when empty */
  size_t hash_cap;
  struct TallyMemo *memo; /* when merging files: where each record went */
  ArcBatch *batch;        /* cg_tally_batch's records */

  /* Built by cg_assemble and cg_propagate.  */
  /* Arc numbers (places in arcs), 4 bytes where a pointer takes 8:
     a symbol's are children[first_child ...], parents[first_parent ...].  */
  uint32_t *children;
  uint32_t *parents;
  ArcTime *arc_time;      /* of arcs[k], from cg_assemble; zero until
                             propagated */
  Sym **top_sorted;       /* from cg_assemble to cg_propagate */
  /* Until cg_propagate ends (the printing reorders the slices): the symbol
     index of children[k]->child and of parents[k]->parent, so that
     passes over all arcs need not load the arcs.  */
  uint32_t *child_index, *parent_index;
  Sym *cycles;            /* cycle header N at cycles[N - 1] */
  int ncycles;
  uint32_t *cycle_of;     /* cycle number of base[i], 0 if in none */
  Sym **members;          /* every cycle's members, in chain order */
  size_t *member_start;   /* cycle N's from members[member_start[N - 1]] */
  Sym **time_sorted;      /* symbols and cycles, most time first */
  /* -r/-R (cg_order.c): each symbol's neighbours in its placement
     chain, by symbol index; NULL until an ordering is printed.  */
  struct PlaceLink *place;
  size_t ntime_sorted;
  double print_time;      /* total of the propagated self times */
} CallGraph;

/* Record one arc record of a profile file: a batch of one.  */
void cg_tally (struct Run *run, vma_t from_pc, vma_t self_pc,
               unsigned long count);

/* Arc records in batches: the one way records are counted.  A reader
   fills the buffer cg_tally_buffer gives (ARC_BATCH records at most) and
   hands N of them over with cg_tally_batch.  Each record's arc is found
   (when merging files, the memo of records met before answers first),
   then the counts are added.  A big profile's records lead anywhere in
   memory: a batch's lookups are asked for ahead, and cut into jobs for
   run->par.  */
typedef struct ArcRecord
{
  vma_t from_pc, self_pc;
  unsigned long count;
} ArcRecord;

enum { ARC_BATCH = 16384 };
ArcRecord *cg_tally_buffer (CallGraph *cg);
void cg_tally_batch (struct Run *run, size_t n);

/* Several profile files are to be read: remember where each (from, self)
   record went, so that the same record in later files costs one lookup.
   cg_tally_file_done after each file, cg_tally_finish after the last
   (counts are only complete then).  */
void cg_tally_memo_start (CallGraph *cg);
void cg_tally_file_done (CallGraph *cg);
void cg_tally_finish (CallGraph *cg);

/* Up to N more arcs may come (a file's size allows that many records):
   size the arc table for them now rather than growing it step by step,
   moving every arc each time.  */
void cg_expect_arcs (CallGraph *cg, const SymTab *symtab, uint64_t n,
                     const struct Par *par);
/* The arc PARENT -> CHILD, created with COUNT or increased by it.  */
Arc *cg_arc_add (CallGraph *cg, const SymTab *symtab, Sym *parent, Sym *child,
                 unsigned long count);

/* The pseudo-symbol that calls through a register lead to (-c on some
   architectures); it lives just after the last symbol of SYMTAB.  */
Sym *cg_indirect_child (SymTab *symtab);

/* Count each symbol's calls to itself apart from the others (GNU's
   self_calls): the call counts are final from here on.  */
void cg_take_self_calls (struct Run *run);

/* Then order the graph, find its cycles and which symbols print and
   pass their time on (cg_assemble); then, once every symbol's own time
   is known, propagate the times (cg_propagate); then sort the entries
   into the call graph's order and number them (cg_order: time_sorted,
   each symbol's index).  cg_assemble reads no symbol's time: the
   samples may be assigned meanwhile.  */
void cg_assemble (struct Run *run);
void cg_propagate (struct Run *run);
void cg_order (struct Run *run);

/* A symbol's arc numbers, valid after cg_assemble.  */
static inline uint32_t *
cg_children (const CallGraph *cg, const Sym *s)
{
  return cg->children + s->first_child;
}

static inline uint32_t *
cg_parents (const CallGraph *cg, const Sym *s)
{
  return cg->parents + s->first_parent;
}

/* S's K-th callee's and caller's arcs.  */
static inline Arc *
cg_child (const CallGraph *cg, const Sym *s, uint32_t k)
{
  return &cg->arcs[cg->children[s->first_child + k]];
}

static inline Arc *
cg_parent (const CallGraph *cg, const Sym *s, uint32_t k)
{
  return &cg->arcs[cg->parents[s->first_parent + k]];
}

/* The times propagated along A, one of CG's arcs (from cg_assemble).  */
static inline ArcTime *
cg_arc_time (const CallGraph *cg, const Arc *a)
{
  gp_assert (cg->arc_time != NULL && a >= cg->arcs && a < cg->arcs + cg->narcs);
  return &cg->arc_time[a - cg->arcs];
}

/* Cycle CYC's N members, in the order of its chain (cyc_next).  */
static inline Sym **
cg_members (const CallGraph *cg, const Sym *cyc, size_t *n)
{
  size_t c = (size_t) cyc->cyc_num - 1;

  *n = cg->member_start[c + 1] - cg->member_start[c];
  return cg->members + cg->member_start[c];
}

void cg_free (CallGraph *cg);

#endif
