/* cg_arcs.c - arcs, cycles and time propagation.  */

#include "config.h"
#include "cg_arcs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cg_dfn.h"
#include "mach/mach.h"
#include "gprof.h"
#include "i18n.h"
#include "pipeline/par.h"
#include "support/msort.h"
#include "support/error.h"
#include "support/alloc.h"

/* ---- arcs by (parent, child) -------------------------------------------- */

static size_t
arc_hash (size_t parent, size_t child)
{
  uint64_t k = ((uint64_t) parent << 32) ^ child;

  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdULL;
  k ^= k >> 33;
  return (size_t) k;
}

/* The slot where the search for the arc PARENT -> CHILD starts.  */
static size_t
home_slot (const CallGraph *cg, const SymTab *symtab, const Sym *parent,
           const Sym *child)
{
  return arc_hash ((size_t) (parent - symtab->base),
                   (size_t) (child - symtab->base)) & (cg->hash_cap - 1);
}

/* The slot of the arc PARENT -> CHILD, searched from HOME: its own, or
   the free one to fill.  */
static size_t
slot_from (const CallGraph *cg, const Sym *parent, const Sym *child,
           size_t home, bool *found)
{
  size_t mask = cg->hash_cap - 1, s = home;

  for (;; s = (s + 1) & mask)
    {
      uint32_t a = cg->hash[s];

      if (a == 0)
        {
          *found = false;
          return s;
        }
      if (cg->arcs[a - 1].parent == parent && cg->arcs[a - 1].child == child)
        {
          *found = true;
          return s;
        }
    }
}

static void
rehash (CallGraph *cg, const SymTab *symtab, size_t cap)
{
  free (cg->hash);
  cg->hash = gp_calloc (cap, sizeof *cg->hash);
  cg->hash_cap = cap;
  for (size_t i = 0; i < cg->narcs; i++)
    {
      bool found;
      size_t s = slot_from (cg, cg->arcs[i].parent, cg->arcs[i].child,
                            home_slot (cg, symtab, cg->arcs[i].parent,
                                       cg->arcs[i].child), &found);

      cg->hash[s] = (uint32_t) (i + 1);
    }
}

/* A damaged file may claim anything: sized ahead up to 2^24 slots (64
   MiB) at most, beyond which the table grows as arcs come.  */
enum { MAX_EXPECTED_SLOTS = 1 << 24 };

void
cg_expect_arcs (CallGraph *cg, const SymTab *symtab, uint64_t n,
                const Par *par)
{
  size_t cap = cg->hash_cap ? cg->hash_cap : 1024, want;

  while (cap < MAX_EXPECTED_SLOTS && cap / 2 < cg->narcs + n + 1)
    cap *= 2;
  if (cap > cg->hash_cap)
    {
      rehash (cg, symtab, cap);
      par_prefault (par, cg->hash, cap * sizeof *cg->hash);
    }
  /* The arcs too, one a record at most: sized once, where doubling
     would copy them over and over and leave up to half the block
     unused.  */
  want = cg->narcs + n < cap / 2 ? (size_t) (cg->narcs + n) : cap / 2;
  if (want > cg->cap)
    {
      cg->arcs = gp_reallocarray (cg->arcs, want, sizeof *cg->arcs);
      cg->cap = want;
      par_prefault (par, cg->arcs + cg->narcs,
                    (want - cg->narcs) * sizeof *cg->arcs);
    }
}

/* Room in the hash table for N more arcs, so that home slots computed
   now stay valid while they are added.  */
static void
arc_room (CallGraph *cg, const SymTab *symtab, size_t n)
{
  size_t cap = cg->hash_cap ? cg->hash_cap : 1024;

  if (cg->narcs + n < cg->hash_cap / 2)
    return;
  if (cg->narcs + n >= UINT32_MAX - 1)
    gp_die (_("%s: too many call-graph arcs\n"), whoami);
  while (cg->narcs + n >= cap / 2)
    cap *= 2;
  rehash (cg, symtab, cap);
}

/* cg_arc_add, the search starting from HOME (home_slot's) and the table
   having room.  */
static Arc *
arc_add_at (CallGraph *cg, Sym *parent, Sym *child, size_t home,
            unsigned long count)
{
  bool found;
  size_t s = slot_from (cg, parent, child, home, &found);
  Arc *a;

  if (found)
    {
      a = &cg->arcs[cg->hash[s] - 1];
      a->count += count;
      return a;
    }
  if (cg->narcs == cg->cap)
    gp_grow (&cg->arcs, &cg->cap, cg->narcs + 1, sizeof *cg->arcs);
  a = &cg->arcs[cg->narcs++];
  memset (a, 0, sizeof *a);
  a->parent = parent;
  a->child = child;
  a->count = count;
  cg->hash[s] = (uint32_t) cg->narcs;
  return a;
}

Arc *
cg_arc_add (CallGraph *cg, const SymTab *symtab, Sym *parent, Sym *child,
            unsigned long count)
{
  arc_room (cg, symtab, 1);
  return arc_add_at (cg, parent, child, home_slot (cg, symtab, parent, child),
                     count);
}

/* Merging many profile files of one program (gprof -s f1 f2 ...) sees
   the same records again and again, usually in the same order.  Where a
   (from, self) record counts follows from the two addresses alone (its
   arc, or nowhere: outside the symbols, or left out by -k), so:
   - each file's records are kept in order with their arcs, and the next
     file's records are first compared with them, in step;
   - records met before in another order are found in a hash table;
   - counts gather in a compact array per arc, added to the arcs and
     their callees when all files are read.  */
typedef struct Record
{
  vma_t from, self;
  uint32_t arc;           /* arc index + 1; 0 for a record that counts nowhere */
} Record;

typedef struct MemoSlot
{
  Record rec;
  bool used;
} MemoSlot;

typedef struct TallyMemo
{
  MemoSlot *slot;
  size_t cap, n;
  Record *prev, *cur;     /* the last file's records, and this file's */
  size_t nprev, ncur, prev_cap, cur_cap;
  unsigned long *pending; /* counts per arc not yet added */
  size_t pending_cap;
} TallyMemo;

void
cg_tally_memo_start (CallGraph *cg)
{
  cg->memo = gp_calloc (1, sizeof *cg->memo);
}

static size_t
memo_hash (vma_t from, vma_t self)
{
  uint64_t k = from * 0x9e3779b97f4a7c15ULL ^ self;

  k ^= k >> 31;
  k *= 0xbf58476d1ce4e5b9ULL;
  return (size_t) (k ^ (k >> 29));
}

/* The slot of (FROM, SELF): a used one, or the free one to fill.  */
static MemoSlot *
memo_find (TallyMemo *m, vma_t from, vma_t self)
{
  size_t h;

  if (m->n + 1 > m->cap / 2)
    {
      size_t cap = m->cap ? m->cap * 2 : 4096;
      MemoSlot *slot = gp_calloc (cap, sizeof *slot);

      for (size_t i = 0; i < m->cap; i++)
        if (m->slot[i].used)
          {
            for (h = memo_hash (m->slot[i].rec.from, m->slot[i].rec.self) & (cap - 1);
                 slot[h].used; h = (h + 1) & (cap - 1))
              ;
            slot[h] = m->slot[i];
          }
      free (m->slot);
      m->slot = slot;
      m->cap = cap;
    }
  for (h = memo_hash (from, self) & (m->cap - 1); m->slot[h].used;
       h = (h + 1) & (m->cap - 1))
    if (m->slot[h].rec.from == from && m->slot[h].rec.self == self)
      return &m->slot[h];
  return &m->slot[h];
}

/* The function a call to SYM (or NULL) lands in: with -l a call's
   symbol is a line of one, and a label inside a function stands for the
   function.  NULL if no function starts at or before SYM.  */
static Sym *
callee_function (const SymTab *symtab, Sym *sym)
{
  while (sym && !sym->is_func)
    sym = sym == symtab->base ? NULL : sym - 1;
  return sym;
}

/* Whether there are -k specs: without them (almost always), every arc
   is kept.  */
static bool
arcs_filtered (const Run *run)
{
  return run->ids.table[INCL_ARCS].len != 0
         || run->ids.table[EXCL_ARCS].len != 0;
}

/* Whether -k keeps the arc PARENT -> CHILD.  */
static bool
arc_kept (const Run *run, const Sym *parent, const Sym *child)
{
  const SymSpecs *ids = &run->ids;

  if (!arcs_filtered (run))
    return true;
  return sym_ids_arc_present (ids, INCL_ARCS, parent, child)
         || (ids->table[INCL_ARCS].len == 0
             && !sym_ids_arc_present (ids, EXCL_ARCS, parent, child));
}

/* A batch of arc records, and what resolving them finds: each record's
   arc (index + 1, or 0 when it counts nowhere), and of those that had
   to be looked up (misses), the symbols at their ends (the parent of
   miss K in ends[2 K], its child in ends[2 K + 1]).  */
struct ArcBatch
{
  ArcRecord recs[ARC_BATCH];
  uint32_t target[ARC_BATCH];
  uint32_t miss[ARC_BATCH];
  Sym *ends[2 * ARC_BATCH];
  size_t nmiss;
  const SymTab *symtab;
};

/* Lookups asked for together (their loads overlap), and the number of
   misses from which a batch's lookups are cut into LOOKUP_PIECES jobs.  */
enum { LOOKUP_AHEAD = 64, LOOKUP_SPLIT = 4096, LOOKUP_PIECES = 4 };

static size_t
lookup_pieces (const ArcBatch *b)
{
  return b->nmiss >= LOOKUP_SPLIT ? LOOKUP_PIECES : 1;
}

/* Piece K of the batch's lookups: they only read the symbol table and
   write their own ends.  */
static void
look_up_ends (void *ctx, size_t k)
{
  ArcBatch *b = ctx;
  size_t pieces = lookup_pieces (b);
  size_t begin = b->nmiss * k / pieces, end = b->nmiss * (k + 1) / pieces;

  for (size_t i0 = begin; i0 < end; i0 += LOOKUP_AHEAD)
    {
      size_t e = i0 + LOOKUP_AHEAD < end ? i0 + LOOKUP_AHEAD : end;

      for (size_t i = i0; i < e; i++)
        {
          const ArcRecord *r = &b->recs[b->miss[i]];

          symtab_prefetch (b->symtab, r->from_pc);
          symtab_prefetch (b->symtab, r->self_pc);
        }
      for (size_t i = i0; i < e; i++)
        {
          const ArcRecord *r = &b->recs[b->miss[i]];

          b->ends[2 * i] = symtab_lookup (b->symtab, r->from_pc);
          b->ends[2 * i + 1] = symtab_lookup (b->symtab, r->self_pc);
        }
    }
}

/* The arcs of the misses, whose ends are looked up: found in the hash or
   made, a run at a time: the callees asked for, then the hash slots,
   then the arcs.  */
static void
find_arcs (Run *run, ArcBatch *b)
{
  const SymTab *symtab = &run->symtab;
  CallGraph *cg = &run->cg;
  Sym **ends = b->ends;
  size_t home[LOOKUP_AHEAD];
  bool filtered = arcs_filtered (run);

  for (size_t i0 = 0; i0 < b->nmiss; i0 += LOOKUP_AHEAD)
    {
      size_t e = i0 + LOOKUP_AHEAD < b->nmiss ? i0 + LOOKUP_AHEAD : b->nmiss;

      arc_room (cg, symtab, e - i0);
      for (size_t i = i0; i < e; i++)
        if (ends[2 * i + 1])
          gp_prefetch (&ends[2 * i + 1]->is_func);
      for (size_t i = i0; i < e; i++)
        {
          ends[2 * i + 1] = callee_function (symtab, ends[2 * i + 1]);
          if (ends[2 * i] && ends[2 * i + 1])
            {
              home[i - i0] = home_slot (cg, symtab, ends[2 * i],
                                        ends[2 * i + 1]);
              gp_prefetch (&cg->hash[home[i - i0]]);
            }
        }
      for (size_t i = i0; i < e; i++)
        if (ends[2 * i] && ends[2 * i + 1])
          {
            uint32_t a = cg->hash[home[i - i0]];

            if (a)
              gp_prefetch (&cg->arcs[a - 1]);
          }
      for (size_t i = i0; i < e; i++)
        {
          Sym *parent = ends[2 * i], *child = ends[2 * i + 1];
          uint32_t *target = &b->target[b->miss[i]];

          *target = 0;
          if (parent && child && (!filtered || arc_kept (run, parent, child)))
            *target = (uint32_t) (arc_add_at (cg, parent, child, home[i - i0],
                                              0) - cg->arcs + 1);
        }
    }
}

/* What the memo knows of the batch's N records: their targets, and in
   b->miss the records it has not met.  Record I of this batch is record
   M->NCUR + I of this file.  */
static void
memo_look_up (TallyMemo *m, ArcBatch *b, size_t n)
{
  b->nmiss = 0;
  for (size_t i = 0; i < n; i++)
    {
      const ArcRecord *r = &b->recs[i];
      size_t at = m->ncur + i;
      MemoSlot *seen;

      if (at < m->nprev && m->prev[at].from == r->from_pc
          && m->prev[at].self == r->self_pc)
        b->target[i] = m->prev[at].arc;
      else if ((seen = memo_find (m, r->from_pc, r->self_pc))->used)
        b->target[i] = seen->rec.arc;
      else
        b->miss[b->nmiss++] = (uint32_t) i;
    }
}

/* The records looked up are met now; and every record of the batch, in
   order, is this file's for the next file to follow.  */
static void
memo_learn (TallyMemo *m, const ArcBatch *b, size_t n)
{
  for (size_t k = 0; k < b->nmiss; k++)
    {
      const ArcRecord *r = &b->recs[b->miss[k]];
      MemoSlot *seen = memo_find (m, r->from_pc, r->self_pc);

      if (!seen->used)
        {
          seen->used = true;
          seen->rec = (Record) { r->from_pc, r->self_pc, b->target[b->miss[k]] };
          m->n++;
        }
    }
  gp_grow (&m->cur, &m->cur_cap, m->ncur + n, sizeof *m->cur);
  for (size_t i = 0; i < n; i++)
    m->cur[m->ncur + i] = (Record) { b->recs[i].from_pc, b->recs[i].self_pc,
                                     b->target[i] };
  m->ncur += n;
}

static void
count_arc (Arc *a, unsigned long count)
{
  a->count += count;
  a->child->ncalls += count;
}

/* Add the batch's counts: to the arcs and their callees, or when merging
   files to the memo's sums per arc, which go to the arcs at the end.  */
static void
add_counts (CallGraph *cg, const ArcBatch *b, size_t n)
{
  TallyMemo *m = cg->memo;

  if (m && m->pending_cap < cg->narcs)
    {
      size_t old = m->pending_cap;

      gp_grow (&m->pending, &m->pending_cap, cg->narcs, sizeof *m->pending);
      memset (m->pending + old, 0, (m->pending_cap - old) * sizeof *m->pending);
    }
  for (size_t i = 0; i < n; i++)
    if (b->target[i] && m)
      m->pending[b->target[i] - 1] += b->recs[i].count;
    else if (b->target[i])
      count_arc (&cg->arcs[b->target[i] - 1], b->recs[i].count);
}

ArcRecord *
cg_tally_buffer (CallGraph *cg)
{
  /* Written before it is read: not cleared, so that a small profile
     touches only the pages it uses.  */
  if (!cg->batch)
    cg->batch = gp_malloc (sizeof *cg->batch);
  return cg->batch->recs;
}

void
cg_tally_batch (Run *run, size_t n)
{
  CallGraph *cg = &run->cg;
  ArcBatch *b = cg->batch;

  gp_assert (n <= ARC_BATCH);
  if (cg->memo)
    memo_look_up (cg->memo, b, n);
  else
    {
      b->nmiss = n;
      for (size_t i = 0; i < n; i++)
        b->miss[i] = (uint32_t) i;
    }
  b->symtab = &run->symtab;
  par_jobs (run->par, lookup_pieces (b), look_up_ends, b);
  find_arcs (run, b);
  if (cg->memo)
    memo_learn (cg->memo, b, n);
  add_counts (cg, b, n);
}

void
cg_tally (Run *run, vma_t from_pc, vma_t self_pc, unsigned long count)
{
  ArcRecord *r = cg_tally_buffer (&run->cg);

  r[0] = (ArcRecord) { from_pc, self_pc, count };
  cg_tally_batch (run, 1);
}

void
cg_tally_file_done (CallGraph *cg)
{
  TallyMemo *m = cg->memo;
  Record *t;
  size_t cap;

  if (!m)
    return;
  t = m->prev;
  cap = m->prev_cap;
  m->prev = m->cur;
  m->prev_cap = m->cur_cap;
  m->nprev = m->ncur;
  m->cur = t;
  m->cur_cap = cap;
  m->ncur = 0;
}

void
cg_tally_finish (CallGraph *cg)
{
  TallyMemo *m = cg->memo;

  /* Freed now, the buffers serve the analysis's arrays.  */
  free (cg->batch);
  cg->batch = NULL;
  if (!m)
    return;
  for (size_t i = 0; i < cg->narcs && i < m->pending_cap; i++)
    {
      cg->arcs[i].count += m->pending[i];
      cg->arcs[i].child->ncalls += m->pending[i];
    }
  free (m->slot);
  free (m->prev);
  free (m->cur);
  free (m->pending);
  free (m);
  cg->memo = NULL;
}

void
cg_free (CallGraph *cg)
{
  cg_tally_finish (cg);
  free (cg->arcs);
  free (cg->hash);
  free (cg->batch);
  free (cg->arc_time);
  free (cg->children);
  free (cg->child_index);
  free (cg->parent_index);
  free (cg->parents);
  free (cg->cycles);
  free (cg->cycle_of);
  free (cg->members);
  free (cg->member_start);
  free (cg->time_sorted);
  free (cg->place);
  memset (cg, 0, sizeof *cg);
}

Sym *
cg_indirect_child (SymTab *symtab)
{
  Sym *s = &symtab->base[symtab->len];

  if (!s->name)
    {
      s->name = "<indirect child>";
      s->prop_fract = 1.0;
      s->cyc_head = s;
    }
  return s;
}

/* ---- assembling ----------------------------------------------------------- */

/* The layout of one or both sides: each symbol's children and parents,
   newest first as GNU's prepended lists, with the symbol index of the
   other end beside each.  The counting and placing go through arrays of
   4 bytes a symbol, which stay in the caches where the symbols (160
   bytes) would not.  Both sides at once share the passes over the arcs
   and the symbols.  */
typedef struct Layout
{
  CallGraph *cg;
  SymTab *symtab;
  bool children, parents;       /* the sides to lay out */
} Layout;

static void
lay_out (const Layout *l)
{
  CallGraph *cg = l->cg;
  Sym *base = l->symtab->base;
  size_t n = l->symtab->len + 1;  /* with the pseudo-symbol */
  size_t narcs = cg->narcs ? cg->narcs : 1;
  bool kids = l->children, dads = l->parents;
  /* Per symbol: first its number of arcs on a side, then where its next
     one goes.  */
  uint32_t *at_child = kids ? gp_calloc (n, sizeof *at_child) : NULL;
  uint32_t *at_parent = dads ? gp_calloc (n, sizeof *at_parent) : NULL;
  uint32_t next_child = 0, next_parent = 0;

  if (kids)
    {
      cg->children = gp_reallocarray (NULL, narcs, sizeof *cg->children);
      cg->child_index = gp_reallocarray (NULL, narcs, sizeof *cg->child_index);
    }
  if (dads)
    {
      cg->parents = gp_reallocarray (NULL, narcs, sizeof *cg->parents);
      cg->parent_index = gp_reallocarray (NULL, narcs,
                                          sizeof *cg->parent_index);
    }
  for (size_t a = 0; a < cg->narcs; a++)
    {
      if (kids)
        at_child[cg->arcs[a].parent - base]++;
      if (dads)
        at_parent[cg->arcs[a].child - base]++;
    }
  for (size_t i = 0; i < n; i++)
    {
      if (kids)
        {
          uint32_t count = at_child[i];

          base[i].nchildren = count;
          base[i].first_child = next_child;
          at_child[i] = next_child;
          next_child += count;
        }
      if (dads)
        {
          uint32_t count = at_parent[i];

          base[i].nparents = count;
          base[i].first_parent = next_parent;
          at_parent[i] = next_parent;
          next_parent += count;
        }
    }
  for (size_t a = cg->narcs; a-- > 0;)
    {
      Arc *arc = &cg->arcs[a];
      uint32_t pi = (uint32_t) (arc->parent - base);
      uint32_t ci = (uint32_t) (arc->child - base);

      if (kids)
        {
          uint32_t k = at_child[pi]++;

          cg->child_index[k] = ci;
          cg->children[k] = (uint32_t) a;
        }
      if (dads)
        {
          uint32_t k = at_parent[ci]++;

          cg->parent_index[k] = pi;
          cg->parents[k] = (uint32_t) a;
        }
    }
  free (at_child);
  free (at_parent);
}

/* From a million arcs on, each side on a thread of its own: they read
   the arcs and write apart.  Below that a thread's start and the sorts
   already running in the background (see analyse) cost more than it
   saves.  */
enum { SLICES_SPLIT = 1 << 20 };

static void
lay_out_side (void *ctx, size_t k)
{
  lay_out ((Layout *) ctx + k);
}

static void
build_slices (const Par *par, CallGraph *cg, SymTab *symtab)
{
  Layout both = { cg, symtab, true, true };
  Layout sides[2] = { { cg, symtab, true, false }, { cg, symtab, false, true } };

  if (cg->narcs < SLICES_SPLIT)
    {
      lay_out (&both);
      return;
    }
  par_jobs (par, 2, lay_out_side, sides);
}

/* Number the cycles in address order of their heads and give each a
   header symbol.  The members are also listed in one array
   (cg_members), from the search's lists: the chains through the
   symbols would be a cache miss per member to walk.  */
static void
cycle_link (CallGraph *cg, SymTab *symtab, const DfnCycles *found)
{
  int num = 0;
  size_t nmembers = 0;

  cg->ncycles = 0;
  for (size_t i = 0; i < symtab->len; i++)
    if (found->at[i] != DFN_END)
      cg->ncycles++;
  cg->cycles = gp_calloc ((size_t) cg->ncycles + 1, sizeof *cg->cycles);
  cg->member_start = gp_calloc ((size_t) cg->ncycles + 1,
                                sizeof *cg->member_start);
  cg->members = gp_reallocarray (NULL, found->nmember + 1, sizeof *cg->members);
  /* The passes over all arcs ask for the cycles of both ends: 4 bytes a
     symbol stay in the caches, the symbols themselves do not.  */
  cg->cycle_of = gp_calloc (symtab->len + 1, sizeof *cg->cycle_of);
  for (size_t i = 0; i < symtab->len; i++)
    {
      Sym *cyc;

      if (found->at[i] == DFN_END)
        continue;
      cyc = &cg->cycles[num++];
      cyc->print_flag = true;
      cyc->cyc_num = num;
      cyc->cyc_head = cyc;
      cyc->cyc_next = &symtab->base[i];
      for (const uint32_t *k = &found->member[found->at[i]]; *k != DFN_END; k++)
        {
          Sym *m = &symtab->base[*k];

          cg->members[nmembers++] = m;
          cg->cycle_of[*k] = (uint32_t) num;
          m->cyc_num = num;
          m->cyc_head = cyc;
        }
      cg->member_start[num] = nmembers;
    }
}

/* Each arc's kind, and each cycle's calls from outside it and among its
   members (not counting calls to oneself): one pass in the arcs' order,
   where following each member's callers would load the arcs one miss
   after another.  The sums are of integers: the order does not matter.  */
static void
arc_kinds (CallGraph *cg, const SymTab *st)
{
  for (size_t a = 0; a < cg->narcs; a++)
    {
      Arc *arc = &cg->arcs[a];
      uint32_t pc = cg->cycle_of[arc->parent - st->base];
      uint32_t cc = cg->cycle_of[arc->child - st->base];

      if (arc->parent == arc->child)
        {
          arc->kind = ARC_SELF;
          continue;
        }
      arc->kind = cc != 0 && pc == cc ? ARC_IN_CYCLE : ARC_NORMAL;
      if (cc == 0)
        continue;
      if (pc == cc)
        cg->cycles[cc - 1].self_calls += arc->count;
      else
        cg->cycles[cc - 1].ncalls += arc->count;
    }
}

/* The propagation visits the symbols in topological order, which is
   any order in the table: each visit would wait for its symbol (160
   bytes, three cache lines), its slice, then each arc and the symbol at
   its other end.  These are asked for in three steps ahead of the
   visit, each step once what it reads has come.  */
enum { SYM_AHEAD = 16, SLICE_AHEAD = 8, ARC_AHEAD = 4, ENDS_ASKED = 16 };

/* The start of the N-entry slice at K of SLICES and of its other ends'
   indices (ENDS).  */
GP_PREFETCHER
prefetch_slice (const uint32_t *slices, const uint32_t *ends, uint32_t k,
                uint32_t n)
{
  if (n > 0)
    {
      gp_prefetch (&slices[k]);
      gp_prefetch (&ends[k]);
    }
}

/* The first arcs of a slice (N entries at K) and the lines of the
   symbols at their other ends that the two passes read: hist_time and
   ncalls, prop_fract up to cyc_num (print_flag among them), and
   cyc_head.  Arcs within CYCLE (if not 0), which the propagation passes
   over, are not asked for.  */
GP_PREFETCHER
prefetch_arcs (const CallGraph *cg, const Sym *base, const uint32_t *slices,
               const uint32_t *ends, uint32_t k, uint32_t n, uint32_t cycle)
{
  for (uint32_t j = k; j < k + n && j < k + ENDS_ASKED; j++)
    {
      const Sym *end = &base[ends[j]];

      if (cycle != 0 && cg->cycle_of[ends[j]] == cycle)
        continue;
      gp_prefetch (&cg->arcs[slices[j]]);
      gp_prefetch (&end->hist_time);
      gp_prefetch (&end->prop_fract);
      gp_prefetch (&end->cyc_head);
    }
}

/* A symbol (or a cycle, through its members) takes its print flag and
   its propagation fraction from its callers.  */
static void
inherit_flags (const CallGraph *cg, Sym *child)
{
  Sym *head = child->cyc_head, **members;
  size_t n;

  if (child == head)
    {
      /* Summed in registers: through the symbol, each step would wait
         for the store before (the callers' fields might be the same).  */
      bool flag = false;
      double fract = 0.0;

      for (uint32_t k = 0; k < child->nparents; k++)
        {
          Arc *a = cg_parent (cg, child, k);

          if (a->parent == child)
            continue;
          flag |= a->parent->print_flag;
          /* An arc that was never called (a static one) carries nothing.  */
          if (child->ncalls != 0)
            fract += a->parent->prop_fract
                     * ((double) a->count / (double) child->ncalls);
        }
      child->print_flag = flag;
      child->prop_fract = fract;
      return;
    }
  members = cg_members (cg, head, &n);
  head->print_flag = false;
  head->prop_fract = 0.0;
  for (size_t i = 0; i < n; i++)
    for (uint32_t k = 0; k < members[i]->nparents; k++)
      {
        Arc *a;

        if (cg->cycle_of[cg->parent_index[members[i]->first_parent + k]]
            == (uint32_t) head->cyc_num)
          continue;
        a = cg_parent (cg, members[i], k);
        head->print_flag |= a->parent->print_flag;
        if (head->ncalls != 0)
          head->prop_fract += a->parent->prop_fract
                              * ((double) a->count / (double) head->ncalls);
      }
  for (size_t i = 0; i < n; i++)
    {
      members[i]->print_flag = head->print_flag;
      members[i]->prop_fract = head->prop_fract;
    }
}

/* From the callers down: which symbols are printed, and which share of
   each symbol's time is propagated (-e/-f/-E/-F and friends).  */
static void
propagate_flags (Run *run, Sym **top_sorted, size_t n)
{
  const SymSpecs *ids = &run->ids;
  const CallGraph *cg = &run->cg;
  const Sym *base = run->symtab.base;
  Sym *old_head = NULL;

  for (size_t i = n; i-- > 0;)
    {
      Sym *child = top_sorted[i];

      if (i >= SYM_AHEAD)
        sym_prefetch (top_sorted[i - SYM_AHEAD]);
      if (i >= SLICE_AHEAD)
        {
          const Sym *s = top_sorted[i - SLICE_AHEAD];

          prefetch_slice (cg->parents, cg->parent_index, s->first_parent,
                          s->nparents);
        }
      if (i >= ARC_AHEAD)
        {
          const Sym *s = top_sorted[i - ARC_AHEAD];

          /* A cycle's callers are taken at once, through its members.  */
          if (s->cyc_head == s)
            prefetch_arcs (cg, base, cg->parents, cg->parent_index,
                           s->first_parent, s->nparents, 0);
        }
      if (child->cyc_head != old_head)
        {
          old_head = child->cyc_head;
          inherit_flags (cg, child);
        }
      if (!child->print_flag)
        child->print_flag = sym_ids_pass (ids, INCL_GRAPH, child->addr);
      else if (!sym_ids_in (ids, INCL_GRAPH, child->addr)
               && sym_ids_in (ids, EXCL_GRAPH, child->addr))
        child->print_flag = false;

      if (child->prop_fract == 0.0)
        {
          if (sym_ids_pass (ids, INCL_TIME, child->addr))
            child->prop_fract = 1.0;
        }
      else if (!sym_ids_in (ids, INCL_TIME, child->addr)
               && sym_ids_in (ids, EXCL_TIME, child->addr))
        child->prop_fract = 0.0;
    }
}

static void
cycle_time (CallGraph *cg)
{
  for (int c = 0; c < cg->ncycles; c++)
    {
      Sym *cyc = &cg->cycles[c], **members;
      size_t n;

      members = cg_members (cg, cyc, &n);
      for (size_t i = 0; i < n; i++)
        if (members[i]->prop_fract != 0.0)
          cyc->hist_time += members[i]->hist_time;
      cyc->prop_self = cyc->prop_fract * cyc->hist_time;
    }
}

/* Charge each child's time to PARENT (base[I]) in proportion to the
   calls.  PARENT's own sums are kept in registers (see inherit_flags):
   no arc of the loop reads them, as a child that is PARENT or in its
   cycle is passed over.  */
static void
propagate_time (const CallGraph *cg, Sym *parent, size_t i)
{
  uint32_t cycle = cg->cycle_of[i];
  double child_sum = parent->child_time, prop_sum = parent->prop_child;
  Sym *head = parent->cyc_head;

  if (parent->prop_fract == 0.0)
    return;
  for (uint32_t k = 0; k < parent->nchildren; k++)
    {
      Arc *a;
      Sym *child;
      double time, child_time, share, prop_share;

      /* Nothing goes along a call within a cycle: known without loading
         the arc or the callee.  */
      if (cycle != 0
          && cg->cycle_of[cg->child_index[parent->first_child + k]] == cycle)
        continue;
      a = cg_child (cg, parent, k);
      child = a->child;
      if (a->count == 0 || child == parent || child->prop_fract == 0)
        continue;
      if (child->cyc_head != child)
        {
          if (parent->cyc_num == child->cyc_num)
            continue;
          if (parent->top_order <= child->top_order)
            fprintf (stderr, _("[propagate] toporder botches\n"));
          child = child->cyc_head;
        }
      else if (parent->top_order <= child->top_order)
        {
          fprintf (stderr, _("[propagate] toporder botches\n"));
          continue;
        }
      if (child->ncalls == 0)
        continue;

      time = child->hist_time * ((double) a->count / (double) child->ncalls);
      child_time = child->child_time
                   * ((double) a->count / (double) child->ncalls);
      share = time + child_time;
      child_sum += share;
      /* What the fraction leaves out is lost on the way up.  */
      prop_share = parent->prop_fract * share;
      prop_sum += prop_share;
      *cg_arc_time (cg, a) = (ArcTime) { time * parent->prop_fract,
                                         child_time * parent->prop_fract };
      /* The cycle's sums run over all its members' arcs, in order.  */
      if (head != parent)
        {
          head->child_time += share;
          head->prop_child += prop_share;
        }
    }
  parent->child_time = child_sum;
  parent->prop_child = prop_sum;
}

/* What the call graph's order reads of a symbol, gathered once: the
   sort's comparisons touch these 40 bytes in one array, not the
   symbols' cache lines scattered over the table.  */
typedef struct TotalKey
{
  double total;           /* prop_self + prop_child */
  unsigned long ncalls;
  const char *name;
  Sym *sym;
  char first;             /* name[0], or 0 without a name */
  bool cycle;             /* a cycle header */
  uint32_t rank;          /* sort_plain_zeros: the name's place */
} TotalKey;

static TotalKey
total_key (Sym *s)
{
  return (TotalKey) { s->prop_self + s->prop_child, s->ncalls, s->name, s,
                      s->name ? s->name[0] : 0, !s->name && s->cyc_num != 0,
                      0 };
}

/* The call graph's order: most total time first; at equal times cycles,
   then names without a leading underscore, more calls, and by name.  */
static int
cmp_total (const void *a, const void *b, void *ctx)
{
  const TotalKey *l = a, *r = b;
  double diff = l->total - r->total;

  if (diff < 0.0)
    return 1;
  if (diff > 0.0)
    return -1;
  if (l->cycle)
    return -1;
  if (r->cycle)
    return 1;
  if (!l->name)
    return -1;
  if (!r->name)
    return 1;
  if (l->first != '_' && r->first == '_')
    return -1;
  if (l->first == '_' && r->first != '_')
    return 1;
  if (l->ncalls > r->ncalls)
    return -1;
  if (l->ncalls < r->ncalls)
    return 1;
  return l->name == r->name ? 0 : strcmp (l->name, r->name);
}

/* ---- the call graph's order ------------------------------------------

   A merge sort with cmp_total, as GNU's qsort, gives the order of a
   stable sort by those keys: cmp_total says "left first" for two cycles
   or two unnamed symbols of equal time, and a merge sort's left run
   holds the earlier elements.  So the keys can be sorted in groups.
   With -l most symbols are lines without time (total 0), and the lines
   of a function share its name: those are ordered by counting instead,
   on the rank of their name among the distinct names.  */

/* A named symbol (not a cycle) with a total of exactly 0: cmp_total puts
   it after every key with time or cycle or no name, before any negative
   total, and among its kind orders by underscore, calls and name.  */
static bool
plain_zero (const TotalKey *k)
{
  return k->total == 0.0 && !k->cycle && k->name;
}

static int
cmp_more_calls (const void *a, const void *b, void *ctx)
{
  const TotalKey *l = a, *r = b;

  (void) ctx;
  return l->ncalls > r->ncalls ? -1 : l->ncalls < r->ncalls;
}

/* A distinct name string, with its first 8 bytes as a number that
   orders as strcmp does.  */
typedef struct UniqName
{
  uint64_t prefix;
  const char *name;
  uint32_t id;
} UniqName;

static int
cmp_uniq (const void *a, const void *b, void *ctx)
{
  const UniqName *l = a, *r = b;

  (void) ctx;
  return prefixed_name_cmp (l->prefix, l->name, r->prefix, r->name);
}

/* The distinct names: an open-addressing table of name pointers, the
   slot holding the name's number.  */
typedef struct NameSet
{
  const char **name;
  uint32_t *id;
  size_t cap, n;
} NameSet;

static size_t
nameset_slot (const NameSet *set, const char *name)
{
  size_t mask = set->cap - 1;
  size_t h = (size_t) (((uintptr_t) name >> 3) * 0x9e3779b97f4a7c15u) & mask;

  while (set->name[h] && set->name[h] != name)
    h = (h + 1) & mask;
  return h;
}

static uint32_t
nameset_id (NameSet *set, const char *name)
{
  size_t h;

  if (2 * (set->n + 1) > set->cap)
    {
      NameSet bigger = { gp_calloc (set->cap * 2, sizeof *bigger.name),
                         gp_calloc (set->cap * 2, sizeof *bigger.id),
                         set->cap * 2, set->n };

      for (size_t i = 0; i < set->cap; i++)
        if (set->name[i])
          {
            size_t k = nameset_slot (&bigger, set->name[i]);

            bigger.name[k] = set->name[i];
            bigger.id[k] = set->id[i];
          }
      free (set->name);
      free (set->id);
      *set = bigger;
    }
  h = nameset_slot (set, name);
  if (!set->name[h])
    {
      set->name[h] = name;
      set->id[h] = (uint32_t) set->n++;
    }
  return set->id[h];
}

/* Sort the N plain-zero keys at V (in table order) as a stable sort by
   cmp_total would.  False, with V untouched, if the names of
   neighbours mostly differ: the merge sort is then as fast.  */
static bool
sort_plain_zeros (TotalKey **v, size_t n)
{
  NameSet set;
  const char *last = NULL;
  uint32_t last_id = 0, nrank = 0, *rank_of;
  size_t ncalled = 0, k = 0, changes = 0;
  UniqName *uniq, **by_name;
  uint64_t *prefix;
  TotalKey **tmp;
  size_t *count;

  /* The lines of a function come together and share its name.  */
  for (size_t i = 1; i < n; i++)
    changes += v[i]->name != v[i - 1]->name;
  if (changes > n / 2)
    return false;
  /* Each key's name number (in rank, for now).  */
  set = (NameSet) { gp_calloc (64, sizeof *set.name),
                    gp_calloc (64, sizeof *set.id), 64, 0 };
  for (size_t i = 0; i < n; i++)
    {
      if (v[i]->name != last)
        {
          last = v[i]->name;
          last_id = nameset_id (&set, last);
        }
      v[i]->rank = last_id;
    }
  /* The names in strcmp order; equal strings at different addresses
     share a rank.  */
  uniq = gp_reallocarray (NULL, set.n ? set.n : 1, sizeof *uniq);
  by_name = gp_reallocarray (NULL, set.n ? set.n : 1, sizeof *by_name);
  prefix = gp_reallocarray (NULL, set.n ? set.n : 1, sizeof *prefix);
  for (size_t i = 0, u = 0; i < set.cap; i++)
    if (set.name[i])
      {
        prefix[u] = sym_name_prefix (set.name[i]);
        uniq[u] = (UniqName) { prefix[u], set.name[i], set.id[i] };
        by_name[u] = &uniq[u];
        u++;
      }
  msort_ranked ((void **) by_name, prefix, NULL, set.n, cmp_uniq, NULL);
  rank_of = gp_reallocarray (NULL, set.n ? set.n : 1, sizeof *rank_of);
  for (size_t u = 0; u < set.n; u++)
    {
      if (u > 0 && cmp_uniq (by_name[u - 1], by_name[u], NULL) != 0)
        nrank++;
      rank_of[by_name[u]->id] = nrank;
    }
  nrank++;

  /* Least significant key first, each pass stable: the name's rank
     (counting), calls (most first), then the leading underscore.  */
  tmp = gp_reallocarray (NULL, n ? n : 1, sizeof *tmp);
  count = gp_calloc ((size_t) nrank + 1, sizeof *count);
  for (size_t i = 0; i < n; i++)
    {
      v[i]->rank = rank_of[v[i]->rank];
      count[v[i]->rank + 1]++;
    }
  for (size_t r = 0; r < nrank; r++)
    count[r + 1] += count[r];
  for (size_t i = 0; i < n; i++)
    tmp[count[v[i]->rank]++] = v[i];
  for (size_t i = 0; i < n; i++)
    if (tmp[i]->ncalls)
      v[ncalled++] = tmp[i];
  msort_ptrs ((void **) v, ncalled, cmp_more_calls, NULL);
  for (size_t i = 0, z = ncalled; i < n; i++)
    if (!tmp[i]->ncalls)
      v[z++] = tmp[i];
  for (size_t i = 0; i < n; i++)
    if (v[i]->first != '_')
      tmp[k++] = v[i];
  for (size_t i = 0; i < n; i++)
    if (v[i]->first == '_')
      tmp[k++] = v[i];
  memcpy (v, tmp, n * sizeof *v);
  free (count);
  free (tmp);
  free (rank_of);
  free (prefix);
  free (by_name);
  free (uniq);
  free (set.name);
  free (set.id);
  return true;
}

/* The N keys of V (no NaN among their totals) as the merge sort with
   cmp_total orders them, which is a stable sort's order (see above).  */
static void
sort_by_rank (TotalKey **v, size_t n)
{
  uint64_t *rank = gp_reallocarray (NULL, n ? n : 1, sizeof *rank);

  for (size_t i = 0; i < n; i++)
    rank[i] = rank_descending (v[i]->total);
  msort_ranked ((void **) v, rank, NULL, n, cmp_total, NULL);
  free (rank);
}

/* The N keys of ORDER sorted as msort_ptrs with cmp_total sorts them:
   the plain zeros apart when that pays.  */
static void
sort_keys (TotalKey **order, size_t n)
{
  TotalKey **zeros;
  size_t nzero = 0, nother = 0, before = 0;

  /* A NaN total compares equal to every total: no groups then.  */
  for (size_t i = 0; i < n; i++)
    if (order[i]->total != order[i]->total)
      {
        msort_ptrs ((void **) order, n, cmp_total, NULL);
        return;
      }
  zeros = gp_reallocarray (NULL, n ? n : 1, sizeof *zeros);
  for (size_t i = 0; i < n; i++)
    if (plain_zero (order[i]))
      zeros[nzero++] = order[i];
  if (nzero == 0 || !sort_plain_zeros (zeros, nzero))
    {
      free (zeros);
      sort_by_rank (order, n);
      return;
    }
  for (size_t i = 0; i < n; i++)
    if (!plain_zero (order[i]))
      order[nother++] = order[i];
  sort_by_rank (order, nother);
  while (before < nother && !(order[before]->total < 0.0))
    before++;
  memmove (order + before + nzero, order + before,
           (nother - before) * sizeof *order);
  memcpy (order + before, zeros, nzero * sizeof *order);
  free (zeros);
}

void
cg_order (Run *run)
{
  CallGraph *cg = &run->cg;
  SymTab *st = &run->symtab;
  size_t n = st->len, total = n + (size_t) cg->ncycles;
  TotalKey *key = gp_reallocarray (NULL, total ? total : 1, sizeof *key);
  /* The keys are sorted through the array that then takes the symbols.  */
  void **order = gp_reallocarray (NULL, total ? total : 1, sizeof *order);

  for (size_t i = 0; i < n; i++)
    key[i] = total_key (&st->base[i]);
  for (int c = 0; c < cg->ncycles; c++)
    key[n + (size_t) c] = total_key (&cg->cycles[c]);
  for (size_t i = 0; i < total; i++)
    order[i] = &key[i];
  sort_keys ((TotalKey **) order, total);
  cg->ntime_sorted = total;
  cg->time_sorted = (Sym **) order;
  for (size_t i = 0; i < total; i++)
    {
      cg->time_sorted[i] = ((TotalKey *) order[i])->sym;
      cg->time_sorted[i]->index = (int) (i + 1);
    }
  free (key);
}

void
cg_take_self_calls (Run *run)
{
  CallGraph *cg = &run->cg;

  /* A symbol has one arc to itself at most: one pass over the arcs
     rather than a search per symbol.  */
  for (size_t a = 0; a < cg->narcs; a++)
    if (cg->arcs[a].parent == cg->arcs[a].child)
      {
        cg->arcs[a].parent->ncalls -= cg->arcs[a].count;
        cg->arcs[a].parent->self_calls = cg->arcs[a].count;
      }
}

/* Every arc is in its parent's children and its child's parents, once,
   and the slices tile the arrays (the pseudo-symbol after the last
   included).  */
static void
check_slices (const CallGraph *cg, const SymTab *st)
{
#ifdef GP_ASSERTIONS
  size_t children = 0, parents = 0;

  for (size_t i = 0; i <= st->len; i++)
    {
      const Sym *s = &st->base[i];

      gp_assert (s->first_child == children && s->first_parent == parents);
      children += s->nchildren;
      parents += s->nparents;
      for (uint32_t k = 0; k < s->nchildren; k++)
        gp_assert (cg->children[s->first_child + k] < cg->narcs
                   && cg_child (cg, s, k)->parent == s);
      for (uint32_t k = 0; k < s->nparents; k++)
        gp_assert (cg->parents[s->first_parent + k] < cg->narcs
                   && cg_parent (cg, s, k)->child == s);
    }
  gp_assert (children == cg->narcs && parents == cg->narcs);
#else
  (void) cg;
  (void) st;
#endif
}

/* The numbering's promise to the propagation: a caller comes after its
   callees in topological order, but within a cycle or to itself.  */
static void
check_top_order (const CallGraph *cg)
{
#ifdef GP_ASSERTIONS
  for (size_t a = 0; a < cg->narcs; a++)
    {
      const Sym *p = cg->arcs[a].parent, *c = cg->arcs[a].child;

      gp_assert (p == c || (p->cyc_num != 0 && p->cyc_num == c->cyc_num)
                 || p->top_order > c->top_order);
    }
#else
  (void) cg;
#endif
}

void
cg_assemble (Run *run)
{
  CallGraph *cg = &run->cg;
  SymTab *st = &run->symtab;
  size_t n = st->len;
  DfnCycles cycles;

  /* Arcs that -c adds below have no calls to subtract.  */
  for (size_t i = 0; i < n; i++)
    {
      Sym *s = &st->base[i];

      s->child_time = 0.0;
      s->prop_fract = s->prop_self = s->prop_child = 0.0;
      s->print_flag = false;
      s->top_order = 0;
      s->cyc_num = 0;
      s->cyc_head = s;
      s->cyc_next = NULL;
      if (run->opt.ignore_direct_calls)
        /* GNU scans up to the next symbol (past the table for the last).  */
        mach_find_call (run, s, s->addr, i + 1 < n ? s[1].addr : s->end_addr + 1);
    }
  /* No more arcs come (those of -c came above): the hash goes before the
     slices and the numbering take their memory.  */
  free (cg->hash);
  cg->hash = NULL;
  cg->hash_cap = 0;
  cg->arc_time = gp_calloc (cg->narcs ? cg->narcs : 1, sizeof *cg->arc_time);
  build_slices (run->par, cg, st);
  check_slices (cg, st);
  cg->top_sorted = cg_dfn_number (st, cg, &cycles);
  cycle_link (cg, st, &cycles);
  free (cycles.member);
  free (cycles.at);
  /* Kinds known once, so that sorting the arcs never has to look at both
     ends' symbols again.  */
  arc_kinds (cg, st);

  propagate_flags (run, cg->top_sorted, n);
}

void
cg_propagate (Run *run)
{
  CallGraph *cg = &run->cg;
  SymTab *st = &run->symtab;
  size_t n = st->len;
  Sym **top_sorted = cg->top_sorted;
  double *prop_self = gp_reallocarray (NULL, n ? n : 1, sizeof *prop_self);

  check_top_order (cg);
  cycle_time (cg);
  for (size_t i = 0; i < n; i++)
    {
      Sym *s = top_sorted[i];

      if (i + SYM_AHEAD < n)
        sym_prefetch (top_sorted[i + SYM_AHEAD]);
      if (i + SLICE_AHEAD < n)
        {
          const Sym *p = top_sorted[i + SLICE_AHEAD];

          prefetch_slice (cg->children, cg->child_index, p->first_child,
                          p->nchildren);
        }
      if (i + ARC_AHEAD < n)
        {
          const Sym *p = top_sorted[i + ARC_AHEAD];

          if (p->prop_fract != 0.0)
            prefetch_arcs (cg, st->base, cg->children, cg->child_index,
                           p->first_child, p->nchildren,
                           cg->cycle_of[p - st->base]);
        }
      s->prop_self = prop_self[i] = s->hist_time * s->prop_fract;
      propagate_time (cg, s, (size_t) (s - st->base));
    }
  /* Summed from the callers down, as GNU does: the percentages depend
     on the order of the additions.  */
  for (size_t i = n; i-- > 0;)
    cg->print_time += prop_self[i];
  free (prop_self);
  free (top_sorted);
  cg->top_sorted = NULL;
  free (cg->child_index);
  free (cg->parent_index);
  cg->child_index = cg->parent_index = NULL;
}
