/* export/pprof.c - --export=pprof: the profile in pprof's format, a
   gzipped protocol buffer (export/profile.proto) that go tool pprof,
   speedscope and the services built on pprof read.

   The samples are the stacks of model_stacks, those of --export=folded
   (recorded by libgmon, or synthesized from the call graph: a comment
   says which), valued in ticks and in nanoseconds of CPU time.  The
   innermost frame of each is the line its ticks fell on (with -l: the
   function's ticks are shared over its lines), the frames above it
   functions at their first line.  The call counts are a third value,
   calls: a sample per arc, the stack [callee, caller] (at the calling
   line with -l) valued by the count and 0 in the other two, so that
   their totals stay the flat profile's.  doc/exports.md says how pprof
   shows them.

   The messages are protobuf-c's, made from the .proto at build time;
   zlib compresses them on their way to stdout.  The samples, most of the
   profile, go out as they come, each as a Profile of one sample: encoded
   messages that follow each other are one message whose repeated fields
   are theirs together, so that the file is the Profile of all the
   samples and, last, the rest (locations, functions, strings).  */

#include "config.h"
#include "export/internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#define ZLIB_CONST
#include <zlib.h>
#include "export/profile.pb-c.h"
#include "i18n.h"
#include "support/alloc.h"
#include "support/error.h"
#include "support/out.h"

typedef Perftools__Profiles__Profile Profile;
typedef Perftools__Profiles__ValueType ValueType;
typedef Perftools__Profiles__Sample Sample;
typedef Perftools__Profiles__Mapping Mapping;
typedef Perftools__Profiles__Location Location;
typedef Perftools__Profiles__Line Line;
typedef Perftools__Profiles__Function Function;

/* The values of each sample, in the order of Profile.sample_type.  */
enum { VALUE_SAMPLES, VALUE_CPU, VALUE_CALLS, NVALUES };

/* The string table: each text once, found by its hash.  */
typedef struct Strings
{
  const char **text;      /* text[0] is "", as the format wants */
  size_t n, cap;
  uint32_t *slot;         /* open addressing: a text's index, 0 if free */
  size_t nslots;
  char **owned;           /* the texts made here, to free */
  size_t nowned, owned_cap;
} Strings;

/* The compressed output: protobuf-c writes into it (base.append), and
   deflate takes what it gathered in IN when IN is full.  */
typedef struct Gzip
{
  ProtobufCBuffer base;   /* first: protobuf-c hands us its address */
  z_stream z;
  size_t nin;
  uint8_t in[1 << 16];
} Gzip;

typedef struct Pprof
{
  Model *m;
  double ns_per_tick;     /* 0 when the sampling rate is unknown */
  Strings str;
  /* Functions and locations are made at their first use: these map a
     frame to its Function id, and a location key (a symbol, or
     m->nsyms + a frame past the nodes) to its Location id; 0 before.  */
  uint64_t *fn_of, *loc_of;
  Function *fn;
  size_t nfn, fn_cap;
  Location *loc;
  Line *line;             /* one per location */
  size_t nloc, loc_cap, line_cap;
  Gzip *gz;
  /* Each node's lines with ticks, tick_sym[tick_first[v] ..], and their
     ticks: where its samples fall (one symbol without -l).  tick_left
     is what the stacks have not yet taken of each, node_left the sum.  */
  uint32_t *tick_first, *tick_sym;
  double *tick_w, *tick_left;
  uint64_t *node_left;
  uint64_t *part, *extra; /* scratch: a sample's ticks over its lines */
  uint64_t *frame_ids;    /* scratch: a stack's locations, innermost first */
  size_t frame_ids_cap;
  bool any_file, any_line;
} Pprof;

/* ---- strings ------------------------------------------------------------ */

static size_t
str_hash (const char *s)
{
  uint64_t h = 0xcbf29ce484222325ULL;   /* FNV-1a */

  for (; *s; s++)
    h = (h ^ (unsigned char) *s) * 0x100000001b3ULL;
  return (size_t) h;
}

static size_t
str_slot (const Strings *st, const char *s)
{
  size_t i = str_hash (s) & (st->nslots - 1);

  while (st->slot[i] && strcmp (st->text[st->slot[i]], s) != 0)
    i = (i + 1) & (st->nslots - 1);
  return i;
}

static void
str_rehash (Strings *st)
{
  free (st->slot);
  st->nslots = st->nslots ? st->nslots * 2 : 1024;
  st->slot = gp_calloc (st->nslots, sizeof *st->slot);
  for (size_t i = 1; i < st->n; i++)
    st->slot[str_slot (st, st->text[i])] = (uint32_t) i;
}

/* The index of S in the table, added if new (a copy when COPY, else S
   itself, which must outlive the export).  */
static int64_t
str_id (Strings *st, const char *s, bool copy)
{
  size_t i;

  if (!*s)
    return 0;
  if (2 * (st->n + 1) > st->nslots)
    str_rehash (st);
  i = str_slot (st, s);
  if (st->slot[i])
    return st->slot[i];
  gp_assert (st->n < UINT32_MAX);
  if (copy)
    {
      gp_grow (&st->owned, &st->owned_cap, st->nowned + 1, sizeof *st->owned);
      s = st->owned[st->nowned++] = gp_strdup (s);
    }
  gp_grow (&st->text, &st->cap, st->n + 1, sizeof *st->text);
  st->text[st->n] = s;
  st->slot[i] = (uint32_t) st->n;
  return (int64_t) st->n++;
}

static void
str_init (Strings *st)
{
  memset (st, 0, sizeof *st);
  gp_grow (&st->text, &st->cap, 1, sizeof *st->text);
  st->text[st->n++] = "";
  str_rehash (st);
}

static void
str_free (Strings *st)
{
  for (size_t i = 0; i < st->nowned; i++)
    free (st->owned[i]);
  free (st->owned);
  free (st->text);
  free (st->slot);
}

/* ---- functions and locations ------------------------------------------- */

static uint64_t
function_of (Pprof *p, uint32_t frame)
{
  const Model *m = p->m;
  const Sym *sym;
  Function *f;
  char buf[32];

  if (p->fn_of[frame])
    return p->fn_of[frame];
  gp_grow (&p->fn, &p->fn_cap, p->nfn + 1, sizeof *p->fn);
  f = &p->fn[p->nfn];
  perftools__profiles__function__init (f);
  f->id = p->fn_of[frame] = ++p->nfn;
  /* pprof simplifies a name equal to its system name as if it were
     demangled C++ ("<cycle 1>" would become ""): the names made up here
     (cycles, the frame of the stacks cut short, "<indirect child>" and
     the samples outside the functions) have no system name.  */
  if (frame >= m->nnodes)
    {
      f->name = str_id (&p->str, model_frame_name (m, frame, buf), true);
      return f->id;
    }
  sym = m->node[frame].sym;
  f->name = str_id (&p->str, m->node[frame].name, false);
  if (sym->name && m->node[frame].first_sym < m->run->symtab.len)
    f->system_name = str_id (&p->str, sym->name, false);
  if (sym->file)
    {
      f->filename = str_id (&p->str, sym->file->name, false);
      p->any_file = true;
    }
  if (sym->line_num > 0)
    {
      f->start_line = sym->line_num;
      p->any_line = true;
    }
  return f->id;
}

/* A new location in function FN at LINE (0: unknown); returns it, valid
   until the next one is made.  */
static Location *
new_location (Pprof *p, uint64_t fn, int line)
{
  Location *l;

  gp_grow (&p->loc, &p->loc_cap, p->nloc + 1, sizeof *p->loc);
  gp_grow (&p->line, &p->line_cap, p->nloc + 1, sizeof *p->line);
  perftools__profiles__line__init (&p->line[p->nloc]);
  p->line[p->nloc].function_id = fn;
  p->line[p->nloc].line = line > 0 ? line : 0;
  l = &p->loc[p->nloc];
  perftools__profiles__location__init (l);
  l->id = ++p->nloc;
  return l;
}

/* The location of symbol I (the function, or with -l one of its lines)
   of node V: in its module's mapping (the program's, mapping 1), at the
   symbol's address; another module's at its address in the process,
   from its recorded load bias.  */
static uint64_t
sym_location (Pprof *p, uint32_t v, uint32_t i)
{
  if (!p->loc_of[i])
    {
      const Sym *s = model_sym (p->m, i);
      uint64_t fn = function_of (p, v);
      Location *l = new_location (p, fn, s->line_num);

      if (!model_is_outside (p->m, v))
        {
          uint32_t k = p->m->node[v].module;

          l->mapping_id = k + 1;
          l->address = s->addr;
          if (k > 0)
            l->address = p->m->run->modules->mod[k].base
                         + ex_sym_address (p->m->run, s);
        }
      p->loc_of[i] = l->id;
    }
  return p->loc_of[i];
}

/* The location of a frame of a stack: a function at its first line, a
   cycle, or the truncation frame.  */
static uint64_t
frame_location (Pprof *p, uint32_t frame)
{
  const Model *m = p->m;
  uint32_t key;

  if (frame < m->nnodes)
    return sym_location (p, frame, m->node[frame].first_sym);
  key = m->nsyms + (frame - m->nnodes);
  if (!p->loc_of[key])
    {
      uint64_t fn = function_of (p, frame);

      p->loc_of[key] = new_location (p, fn, 0)->id;
    }
  return p->loc_of[key];
}

/* ---- gzipped output ----------------------------------------------------- */

/* Compress what is in Z's input to stdout; with Z_FINISH, to the end.  */
static void
gzip_run (z_stream *z, int flush)
{
  unsigned char chunk[1 << 14];
  int rc;

  do
    {
      z->next_out = chunk;
      z->avail_out = sizeof chunk;
      rc = deflate (z, flush);
      gp_assert (rc != Z_STREAM_ERROR);
      out_write ((const char *) chunk, sizeof chunk - z->avail_out);
    }
  while (flush == Z_FINISH ? rc != Z_STREAM_END : z->avail_out == 0);
}

static void
gzip_flush_in (Gzip *g)
{
  g->z.next_in = g->in;
  g->z.avail_in = (uInt) g->nin;
  gzip_run (&g->z, Z_NO_FLUSH);
  g->nin = 0;
}

/* protobuf-c appends a few bytes at a time: gathered first, since each
   call into deflate has its cost.  */
static void
gzip_append (ProtobufCBuffer *buffer, size_t len, const uint8_t *data)
{
  Gzip *g = (Gzip *) buffer;

  while (len > 0)
    {
      size_t n = sizeof g->in - g->nin;

      if (n > len)
        n = len;
      memcpy (g->in + g->nin, data, n);
      g->nin += n;
      data += n;
      len -= n;
      if (g->nin == sizeof g->in)
        gzip_flush_in (g);
    }
}

/* Speed over size, as Go writes its own profiles: a big program's
   profile is mostly distinct numbers.  */
static Gzip *
gzip_open (void)
{
  Gzip *g = gp_calloc (1, sizeof *g);
  /* windowBits 15 + 16: a gzip header and trailer around the deflate
     stream; its time stamp stays 0, so equal profiles give equal files.  */
  int rc = deflateInit2 (&g->z, Z_BEST_SPEED, Z_DEFLATED, 15 + 16, 8,
                         Z_DEFAULT_STRATEGY);

  if (rc != Z_OK)
    gp_die (_("%s: --export=pprof: zlib: %s\n"), whoami, zError (rc));
  g->base.append = gzip_append;
  return g;
}

static void
gzip_close (Gzip *g)
{
  gzip_flush_in (g);
  gzip_run (&g->z, Z_FINISH);
  deflateEnd (&g->z);
  free (g);
}

/* ---- samples ------------------------------------------------------------ */

/* A sample out: a Profile of this one sample.  */
static void
add_sample (Pprof *p, uint64_t *ids, size_t n, uint64_t ticks,
            unsigned long calls)
{
  Profile one;
  Sample sample, *sample_ptr = &sample;
  int64_t value[NVALUES];

  value[VALUE_SAMPLES] = (int64_t) ticks;
  value[VALUE_CPU] = llround ((double) ticks * p->ns_per_tick);
  value[VALUE_CALLS] = (int64_t) calls;
  perftools__profiles__sample__init (&sample);
  sample.n_location_id = n;
  sample.location_id = ids;
  sample.n_value = NVALUES;
  sample.value = value;
  perftools__profiles__profile__init (&one);
  one.n_sample = 1;
  one.sample = &sample_ptr;
  protobuf_c_message_pack_to_buffer (&one.base, &p->gz->base);
}

/* Each node's lines that have ticks (one symbol without -l).  */
static void
gather_tick_lines (Pprof *p)
{
  const Model *m = p->m;
  size_t n = 0, most = 1;

  p->tick_first = gp_calloc (m->nnodes + 1, sizeof *p->tick_first);
  p->tick_sym = gp_calloc (m->nsyms + 1, sizeof *p->tick_sym);
  p->tick_w = gp_calloc (m->nsyms + 1, sizeof *p->tick_w);
  p->tick_left = gp_calloc (m->nsyms + 1, sizeof *p->tick_left);
  p->node_left = gp_calloc (m->nnodes + 1, sizeof *p->node_left);
  for (uint32_t v = 0; v < m->nnodes; v++)
    {
      const ExNode *node = &m->node[v];

      p->tick_first[v] = (uint32_t) n;
      for (uint32_t i = node->first_sym; i < node->first_sym + node->nsyms; i++)
        if (m->sym_ticks[i])
          {
            p->tick_sym[n] = i;
            p->tick_w[n] = p->tick_left[n] = (double) m->sym_ticks[i];
            p->node_left[v] += m->sym_ticks[i];
            n++;
          }
      if (n - p->tick_first[v] > most)
        most = n - p->tick_first[v];
    }
  p->tick_first[m->nnodes] = (uint32_t) n;
  p->part = gp_calloc (most, sizeof *p->part);
  p->extra = gp_calloc (most, sizeof *p->extra);
}

/* Share TICKS of node V's own over its N lines (from FIRST), into
   p->part.  Each stack takes its share of what the stacks before it left
   of each line, so that the lines end up with their ticks exactly, as in
   the flat profile; should the stacks hand out more than the node has
   (their rounding), the rest goes by the lines' ticks.  */
static void
split_over_lines (Pprof *p, uint32_t v, uint32_t first, uint32_t n,
                  uint64_t ticks)
{
  uint64_t taken = ticks < p->node_left[v] ? ticks : p->node_left[v];

  if (taken == p->node_left[v])
    for (uint32_t j = 0; j < n; j++)
      p->part[j] = (uint64_t) p->tick_left[first + j];
  else
    ex_apportion (taken, p->tick_left + first, n, p->part);
  for (uint32_t j = 0; j < n; j++)
    {
      /* A share of what is left is no more than what is left.  */
      gp_assert ((double) p->part[j] <= p->tick_left[first + j]);
      p->tick_left[first + j] -= (double) p->part[j];
    }
  p->node_left[v] -= taken;
  if (ticks > taken)
    {
      ex_apportion (ticks - taken, p->tick_w + first, n, p->extra);
      for (uint32_t j = 0; j < n; j++)
        p->part[j] += p->extra[j];
    }
}

/* A stack (root first): a sample per line its ticks fell on, its frames
   innermost first.  */
static void
pprof_stack (void *ctx, const uint32_t *frames, size_t depth, uint64_t ticks)
{
  Pprof *p = ctx;
  uint32_t leaf = frames[depth - 1], first, n;
  uint64_t *ids;

  gp_grow (&p->frame_ids, &p->frame_ids_cap, depth, sizeof *p->frame_ids);
  ids = p->frame_ids;
  for (size_t i = 0; i < depth; i++)
    ids[i] = frame_location (p, frames[depth - 1 - i]);
  if (leaf >= p->m->nnodes)
    {
      add_sample (p, ids, depth, ticks, 0);
      return;
    }
  first = p->tick_first[leaf];
  n = p->tick_first[leaf + 1] - first;
  /* The stacks hand out a node's own ticks: it has some.  */
  gp_assert (n > 0);
  if (n == 1)
    p->part[0] = ticks;
  else
    split_over_lines (p, leaf, first, n, ticks);
  for (uint32_t j = 0; j < n; j++)
    if (p->part[j])
      {
        ids[0] = sym_location (p, leaf, p->tick_sym[first + j]);
        add_sample (p, ids, depth, p->part[j], 0);
      }
}

/* A sample per arc of the call graph: [callee, caller].  The call graph
   shows the arcs between functions it may print, also those whose own
   entry it leaves out for want of calls and time (main, when the profile
   has no histogram).  */
static void
add_calls (Pprof *p)
{
  const Model *m = p->m;
  const Sym *base = m->run->symtab.base;

  for (uint32_t i = 0; i < m->narcs; i++)
    {
      const ExArc *a = &m->arc[i];
      uint64_t ids[2];

      if (a->count == 0 || !m->node[a->from].sym->print_flag
          || !m->node[a->to].sym->print_flag)
        continue;
      ids[0] = frame_location (p, a->to);
      ids[1] = sym_location (p, a->from, (uint32_t) (a->site - base));
      add_sample (p, ids, 2, 0, a->count);
    }
}

/* The program's mapping (id 1): where its symbols lie, and that the
   profile names its functions, so that pprof looks nothing up.  With
   --whole-process, mapping K + 1 is module K's: its code where it was
   loaded, its path and its build-id in hex.  */
static void
set_mapping (Pprof *p, Mapping *map, uint32_t k)
{
  const Run *run = p->m->run;
  const SymTab *st = &run->symtab;

  perftools__profiles__mapping__init (map);
  map->id = k + 1;
  if (k > 0)
    {
      const Module *mod = &run->modules->mod[k];
      char *hex = gp_malloc (2 * mod->build_id_len + 1);

      map->memory_start = mod->base + mod->lo;
      map->memory_limit = mod->base + mod->hi;
      for (size_t i = 0; i < mod->build_id_len; i++)
        sprintf (hex + 2 * i, "%02x", mod->build_id[i]);
      hex[2 * mod->build_id_len] = '\0';
      map->build_id = str_id (&p->str, hex, true);
      free (hex);
    }
  else if (st->len > 0)
    {
      /* The program's symbols end where the first module's start.  */
      size_t last = st->len - 1;

      if (run->modules && run->modules->n > 1)
        while (last > 0 && ex_sym_module (run, &st->base[last]) != 0)
          last--;
      map->memory_start = st->base[0].addr;
      map->memory_limit = st->base[last].end_addr + 1;
    }
  map->filename = str_id (&p->str, ex_module_path (run, k), false);
  map->has_functions = true;
  map->has_filenames = p->any_file;
  map->has_line_numbers = p->any_line;
}

/* The rest of the profile, after the samples.  */
static void
write_rest (Pprof *p)
{
  Profile prof;
  ValueType type[NVALUES], period_type, *type_ptr[NVALUES];
  size_t nmap = p->m->run->modules ? p->m->run->modules->n : 1;
  Mapping *map = gp_calloc (nmap, sizeof *map);
  Mapping **map_ptr = gp_calloc (nmap, sizeof *map_ptr);
  Location **loc_ptr = gp_calloc (p->nloc + 1, sizeof *loc_ptr);
  Line **line_ptr = gp_calloc (p->nloc + 1, sizeof *line_ptr);
  Function **fn_ptr = gp_calloc (p->nfn + 1, sizeof *fn_ptr);
  static const char *const names[NVALUES][2] = {
    { "samples", "count" }, { "cpu", "nanoseconds" }, { "calls", "count" }
  };
  int64_t comment[2];

  perftools__profiles__profile__init (&prof);
  for (int i = 0; i < NVALUES; i++)
    {
      perftools__profiles__value_type__init (&type[i]);
      type[i].type = str_id (&p->str, names[i][0], false);
      type[i].unit = str_id (&p->str, names[i][1], false);
      type_ptr[i] = &type[i];
    }
  prof.n_sample_type = NVALUES;
  prof.sample_type = type_ptr;
  /* pprof would show the last type, calls, first.  */
  prof.default_sample_type = type[VALUE_CPU].type;
  perftools__profiles__value_type__init (&period_type);
  period_type.type = type[VALUE_CPU].type;
  period_type.unit = type[VALUE_CPU].unit;
  prof.period_type = &period_type;
  prof.period = llround (p->ns_per_tick);

  for (size_t i = 0; i < p->nloc; i++)
    {
      line_ptr[i] = &p->line[i];
      p->loc[i].n_line = 1;
      p->loc[i].line = &line_ptr[i];
      loc_ptr[i] = &p->loc[i];
    }
  prof.n_location = p->nloc;
  prof.location = loc_ptr;
  for (size_t i = 0; i < p->nfn; i++)
    fn_ptr[i] = &p->fn[i];
  prof.n_function = p->nfn;
  prof.function = fn_ptr;
  for (uint32_t k = 0; k < nmap; k++)
    {
      set_mapping (p, &map[k], k);
      map_ptr[k] = &map[k];
    }
  prof.n_mapping = nmap;
  prof.mapping = map_ptr;
  comment[0] = str_id (&p->str, PACKAGE_STRING " --export=pprof", false);
  comment[1] = str_id (&p->str,
                       p->m->measured
                       ? "measured stacks: the call stacks libgmon recorded"
                         " beside the profile (see doc/exports.md)"
                       : "synthesized stacks: gprof records calls, not"
                         " stacks; a function's time goes to its callers in"
                         " proportion to their calls (see doc/exports.md)",
                       false);
  prof.n_comment = 2;
  prof.comment = comment;
  /* Last: every string is in the table now.  */
  prof.n_string_table = p->str.n;
  prof.string_table = (char **) p->str.text;

  protobuf_c_message_pack_to_buffer (&prof.base, &p->gz->base);
  free (loc_ptr);
  free (line_ptr);
  free (fn_ptr);
  free (map_ptr);
  free (map);
}

void
export_pprof (Run *run)
{
  Model m;
  Pprof p = { 0 };

  model_build (&m, run);
  p.m = &m;
  p.ns_per_tick = run->hist.hz > 0 ? 1e9 / run->hist.hz : 0;
  str_init (&p.str);
  p.fn_of = gp_calloc (model_nframes (&m), sizeof *p.fn_of);
  p.loc_of = gp_calloc (m.nsyms + model_nframes (&m) - m.nnodes,
                        sizeof *p.loc_of);
  gather_tick_lines (&p);
  p.gz = gzip_open ();
  model_stacks (&m, run->opt.export_max_depth, pprof_stack, &p);
  add_calls (&p);
  write_rest (&p);
  gzip_close (p.gz);
  str_free (&p.str);
  free (p.fn_of);
  free (p.loc_of);
  free (p.fn);
  free (p.loc);
  free (p.line);
  free (p.tick_first);
  free (p.tick_sym);
  free (p.tick_w);
  free (p.tick_left);
  free (p.node_left);
  free (p.part);
  free (p.extra);
  free (p.frame_ids);
  model_free (&m);
}
