/* test_sym_ids.c - symspecs: how "func", "file.c", "123", "file.c:func",
   "file.c:12", ":" and "" are matched, how runs of matching symbols make
   ranges, arc specs "from/to" (and GNU's collapse of two arc specs with
   the same left side, spec §4.10), the default exclusions, and the
   inclusion rule of sym_ids_pass.  */

#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gprof.h"
#include "unit.h"

/* The program: symbols in address order, with their files and lines.  */
enum
{
  START, MAIN, HELPER_M, HELPER_U, UTIL_A, UTIL_B, LONELY, X123, MCOUNT,
  TAIL, LEAD, NSYMS
};
static const struct
{
  const char *name, *file;
  int line;
} prog[NSYMS] = {
  [START] = { "_start", NULL, 0 },
  [MAIN] = { "main", "/p/main.c", 10 },
  [HELPER_M] = { "helper", "/p/main.c", 20 },
  [HELPER_U] = { "helper", "/q/util.c", 5 },
  [UTIL_A] = { "util_a", "/q/util.c", 12 },
  [UTIL_B] = { "util_b", "/q/util.c", 30 },
  [LONELY] = { "lonely", NULL, 0 },
  [X123] = { "x123", "/p/main.c", 40 },
  [MCOUNT] = { "mcount", NULL, 0 },
  [TAIL] = { "tail", "/q/util.c", 50 },
  [LEAD] = { "_lead", "/q/util.c", 60 },
};

typedef struct Spec
{
  const char *text;
  SymTable table;
} Spec;

static Run *
build (const Spec *specs, size_t nspecs, char leading_char)
{
  const char *names[NSYMS];
  Run *run;

  for (int i = 0; i < NSYMS; i++)
    names[i] = prog[i].name;
  run = run_new (NSYMS, names);
  for (int i = 0; i < NSYMS; i++)
    {
      Sym *s = &run->symtab.base[i];

      s->is_static = i == HELPER_M || i == HELPER_U;
      s->line_num = prog[i].line;
      if (prog[i].file)
        s->file = srcfile_lookup_path (&run->files, prog[i].file);
    }
  run->opt.specs = calloc (nspecs + 1, sizeof *run->opt.specs);
  for (size_t k = 0; k < nspecs; k++)
    {
      run->opt.specs[k].spec = specs[k].text;
      run->opt.specs[k].table = specs[k].table;
    }
  run->opt.nspecs = nspecs;
  sym_ids_build (&run->ids, &run->opt, &run->symtab, &run->files,
                 run_text_last (run), leading_char);
  return run;
}

static void
release (Run *run)
{
  sym_ids_free (&run->ids);
  free (run->opt.specs);
  run_free (run);
}

/* Table T as symbol index ranges, "1-2 7".  */
static const char *
ranges (const Run *run, SymTable t)
{
  static char buf[256];
  const SymTab *tab = &run->ids.table[t];
  size_t len = 0;

  buf[0] = '\0';
  for (size_t i = 0; i < tab->len; i++)
    {
      const Sym *first = symtab_lookup (&run->symtab, tab->base[i].addr);
      const Sym *last = symtab_lookup (&run->symtab, tab->base[i].end_addr);
      long a = first ? first - run->symtab.base : -1;
      long b = last ? last - run->symtab.base : -1;

      len += (size_t) snprintf (buf + len, sizeof buf - len, "%s%ld", i ? " " : "", a);
      if (b != a)
        len += (size_t) snprintf (buf + len, sizeof buf - len, "-%ld", b);
    }
  return buf;
}

/* One spec in INCL_FLAT: which symbols it selects.  */
static void
check_spec (const char *spec, const char *want, const char *what)
{
  Spec s = { spec, INCL_FLAT };
  Run *run = build (&s, 1, 0);
  const char *got = ranges (run, INCL_FLAT);

  if (!check (strcmp (got, want) == 0, "spec \"%s\": %s", spec, what))
    printf ("# want \"%s\", got \"%s\"\n", want, got);
  release (run);
}

static void
test_parsing (void)
{
  check_spec ("helper", "2-3", "a name matches statics in every file, "
              "adjacent ones in one range");
  check_spec ("util.c", "3-5 9-10", "a file: its symbols, runs as ranges");
  check_spec ("main.c", "1-2 7", "a file matched by its basename");
  check_spec ("20", "2", "a line number alone");
  check_spec ("util.c:helper", "3", "file:function");
  check_spec ("main.c:helper", "2", "file:function, the other file");
  check_spec ("util.c:12", "4", "file:line");
  check_spec ("main.c:12", "", "file:line that does not exist");
  check_spec ("main.c:", "1-2 7", "file: with nothing after the colon");
  check_spec (":helper", "2-3", ":function without a file");
  check_spec ("nofile.c", "", "an unknown file matches nothing");
  check_spec ("nofile.c:main", "", "a function in an unknown file");
  check_spec ("q/util.c:helper", "", "a file with a directory never matches");
  check_spec ("a:b:main", "", "the last colon splits");
  check_spec ("nosuch", "", "an unknown function");
  check_spec ("lead", "", "without a leading char, names compare whole");
}

/* Specs that match the first symbol of the table, and those that match
   everything; in a child process, as they may crash.  A spec matching
   everything in EXCL_FLAT makes one range of the whole table, beside
   the default exclusion's range of mcount; that range, starting later,
   hides the whole one from the symbols after mcount (as GNU gprof's
   lookup does: "-P:" on a program with a static _gprof_mcount still
   lists the functions after it).  */
static bool
all_of (const char *spec)
{
  Spec s = { spec, EXCL_FLAT };
  Run *run = build (&s, 1, 0);
  bool ok = strcmp (ranges (run, EXCL_FLAT), "0-10 8") == 0;

  for (int i = 0; i < NSYMS; i++)
    ok &= sym_ids_pass (&run->ids, INCL_FLAT, sym_addr (i)) == (i > MCOUNT);
  if (!ok)
    printf ("# got \"%s\"\n", ranges (run, EXCL_FLAT));
  release (run);
  return ok;
}

static bool
colon_matches_all (void)
{
  return all_of (":");
}

static bool
empty_matches_all (void)
{
  return all_of ("");
}

static bool
first_symbol (void)
{
  Spec s = { "_start", INCL_FLAT };
  Run *run = build (&s, 1, 0);
  bool ok = strcmp (ranges (run, INCL_FLAT), "0") == 0;

  if (!ok)
    printf ("# got \"%s\"\n", ranges (run, INCL_FLAT));
  release (run);
  return ok;
}

static void
test_first_and_all (void)
{
  check (isolated (first_symbol), "a spec matching the first symbol");
  check (isolated (colon_matches_all), "spec \":\" matches every symbol");
  check (isolated (empty_matches_all), "an empty spec matches every symbol");
}

static void
test_leading_char (void)
{
  Spec s = { "lead", INCL_FLAT };
  Run *run = build (&s, 1, '_');

  check (strcmp (ranges (run, INCL_FLAT), "10") == 0,
         "the target's leading char is skipped in symbol names");
  release (run);
}

static void
test_several_specs (void)
{
  static const Spec specs[] = {
    { "helper", INCL_FLAT }, { "main", INCL_FLAT }, { "tail", INCL_GRAPH },
    { "util_b", EXCL_GRAPH },
  };
  Run *run = build (specs, 4, 0);

  check (sym_ids_pass (&run->ids, INCL_FLAT, sym_addr (MAIN))
         && sym_ids_pass (&run->ids, INCL_FLAT, sym_addr (HELPER_M))
         && sym_ids_pass (&run->ids, INCL_FLAT, sym_addr (HELPER_U))
         && !sym_ids_pass (&run->ids, INCL_FLAT, sym_addr (START))
         && !sym_ids_pass (&run->ids, INCL_FLAT, sym_addr (UTIL_A)),
         "two specs of one table cover what both match");
  check (strcmp (ranges (run, INCL_GRAPH), "9") == 0
         && strcmp (ranges (run, EXCL_GRAPH), "5 8") == 0,
         "each spec goes to its own table (with mcount in EXCL_GRAPH)");
  release (run);
}

/* Two specs of one table whose runs overlap, given in both orders: each
   run grows its own range, and a lookup sees only the range that starts
   last at or below the address (GNU's binary search), so UTIL_B, inside
   the first range but past the end of the second, is not in the table.  */
static void
test_overlapping_runs (void)
{
  static const Spec specs[2][2] = {
    { { "util_a", INCL_FLAT }, { "util.c", INCL_FLAT } },
    { { "util.c", INCL_FLAT }, { "util_a", INCL_FLAT } },
  };

  for (int order = 0; order < 2; order++)
    {
      Run *run = build (specs[order], 2, 0);
      const char *got = ranges (run, INCL_FLAT);

      if (!check (strcmp (got, "3-5 4 9-10") == 0,
                  "overlapping runs (order %d): a range per run", order))
        printf ("# want \"3-5 4 9-10\", got \"%s\"\n", got);
      check (sym_ids_pass (&run->ids, INCL_FLAT, sym_addr (HELPER_U))
             && sym_ids_pass (&run->ids, INCL_FLAT, sym_addr (UTIL_A))
             && !sym_ids_pass (&run->ids, INCL_FLAT, sym_addr (UTIL_B)),
             "overlapping runs (order %d): the later range hides the "
             "earlier one", order);
      release (run);
    }
}

static void
test_default_exclusions (void)
{
  Run *run = build (NULL, 0, 0);
  bool ok = true;

  for (int t = 0; t < NUM_SYM_TABLES; t++)
    {
      bool excl = t == EXCL_FLAT || t == EXCL_GRAPH || t == EXCL_TIME;

      ok &= strcmp (ranges (run, (SymTable) t), excl ? "8" : "") == 0;
    }
  check (ok, "mcount is excluded from the flat profile, graph and time");
  check (!sym_ids_pass (&run->ids, INCL_FLAT, sym_addr (MCOUNT))
         && sym_ids_pass (&run->ids, INCL_FLAT, sym_addr (MAIN))
         && sym_ids_pass (&run->ids, INCL_ANNO, sym_addr (MCOUNT)),
         "pass: all but the excluded when nothing is included");
  release (run);
}

static void
test_pass_rule (void)
{
  static const Spec specs[] = {
    { "helper", INCL_TIME }, { "helper", EXCL_TIME }, { "util.c", EXCL_GRAPH },
    { "nosuch", INCL_EXEC },
  };
  Run *run = build (specs, 4, 0);
  const SymSpecs *ids = &run->ids;

  check (sym_ids_pass (ids, INCL_TIME, sym_addr (HELPER_U))
         && !sym_ids_pass (ids, INCL_TIME, sym_addr (MAIN)),
         "pass: included wins over excluded, and only the included pass");
  check (!sym_ids_pass (ids, INCL_GRAPH, sym_addr (UTIL_A))
         && sym_ids_pass (ids, INCL_GRAPH, sym_addr (MAIN)),
         "pass: excluded fail when nothing is included");
  check (sym_ids_pass (ids, INCL_EXEC, sym_addr (MAIN))
         && ids->table[INCL_EXEC].len == 0,
         "pass: an include spec that matches nothing includes everything");
  check (sym_ids_pass (ids, INCL_GRAPH, sym_addr (HELPER_U) - 1)
         && !sym_ids_pass (ids, INCL_GRAPH, sym_addr (UTIL_A) + 5),
         "pass: by address, anywhere inside a symbol's range");
  release (run);
}

/* ---- arc specs ---------------------------------------------------------- */

static bool
arc_in (const Run *run, SymTable t, int from, int to)
{
  return sym_ids_arc_present (&run->ids, t, &run->symtab.base[from],
                              &run->symtab.base[to]);
}

static void
test_arcs (void)
{
  {
    Spec s = { "main/helper", EXCL_ARCS };
    Run *run = build (&s, 1, 0);

    check (arc_in (run, EXCL_ARCS, MAIN, HELPER_M)
           && arc_in (run, EXCL_ARCS, MAIN, HELPER_U)
           && !arc_in (run, EXCL_ARCS, MAIN, UTIL_A)
           && !arc_in (run, EXCL_ARCS, UTIL_A, HELPER_U)
           && !arc_in (run, INCL_ARCS, MAIN, HELPER_M),
           "arc spec from/to: exactly those arcs");
    check (strcmp (ranges (run, EXCL_ARCS), "1") == 0,
           "arc spec: its left side in the table");
    release (run);
  }
  {
    Spec s = { "main.c/util.c:util_a", EXCL_ARCS };
    Run *run = build (&s, 1, 0);

    check (arc_in (run, EXCL_ARCS, MAIN, UTIL_A)
           && arc_in (run, EXCL_ARCS, HELPER_M, UTIL_A)
           && arc_in (run, EXCL_ARCS, X123, UTIL_A)
           && !arc_in (run, EXCL_ARCS, UTIL_B, UTIL_A)
           && !arc_in (run, EXCL_ARCS, MAIN, UTIL_B),
           "arc spec: a file on the left, every range of it");
    release (run);
  }
  {
    Spec s = { "main/util.c", INCL_ARCS };
    Run *run = build (&s, 1, 0);

    check (arc_in (run, INCL_ARCS, MAIN, HELPER_U)
           && arc_in (run, INCL_ARCS, MAIN, UTIL_B)
           && arc_in (run, INCL_ARCS, MAIN, TAIL)
           && !arc_in (run, INCL_ARCS, MAIN, HELPER_M)
           && !arc_in (run, INCL_ARCS, MAIN, LONELY),
           "arc spec: a file on the right");
    release (run);
  }
}

/* Two arc specs with the same left side: GNU keeps only the later one
   (its table merges entries that start at the same address).  */
static void
test_arc_collapse (void)
{
  {
    static const Spec specs[] = {
      { "main/util_a", EXCL_ARCS }, { "main/util_b", EXCL_ARCS },
    };
    Run *run = build (specs, 2, 0);

    check (arc_in (run, EXCL_ARCS, MAIN, UTIL_B)
           && !arc_in (run, EXCL_ARCS, MAIN, UTIL_A),
           "same left side twice: only the later arc spec counts");
    release (run);
  }
  {
    static const Spec specs[] = {
      { "main/util_b", EXCL_ARCS }, { "main/util_a", EXCL_ARCS },
    };
    Run *run = build (specs, 2, 0);

    check (arc_in (run, EXCL_ARCS, MAIN, UTIL_A)
           && !arc_in (run, EXCL_ARCS, MAIN, UTIL_B),
           "same left side twice, swapped: again the later one");
    release (run);
  }
  {
    static const Spec specs[] = {
      { "main/util_a", EXCL_ARCS }, { "x123/util_b", EXCL_ARCS },
    };
    Run *run = build (specs, 2, 0);

    check (arc_in (run, EXCL_ARCS, MAIN, UTIL_A)
           && arc_in (run, EXCL_ARCS, X123, UTIL_B),
           "different left sides: both arc specs count");
    release (run);
  }
  {
    static const Spec specs[] = {
      { "main/util_a", INCL_ARCS }, { "main/util_b", EXCL_ARCS },
    };
    Run *run = build (specs, 2, 0);

    check (arc_in (run, INCL_ARCS, MAIN, UTIL_A)
           && arc_in (run, EXCL_ARCS, MAIN, UTIL_B),
           "the same left side in two tables: both count");
    release (run);
  }
}

int
main (void)
{
  test_parsing ();
  test_first_and_all ();
  test_leading_char ();
  test_several_specs ();
  test_overlapping_runs ();
  test_default_exclusions ();
  test_pass_rule ();
  test_arcs ();
  test_arc_collapse ();
  return check_done ();
}
