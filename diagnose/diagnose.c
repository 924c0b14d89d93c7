/* diagnose/diagnose.c - --diagnose: what the profile data can and cannot tell,
   in plain words, and what to do about each problem found.

   Most of what it needs the other stages have built: the symbol table
   with each function's sampled time and call count, the merged
   histogram and the call graph.  Some facts are gone by then, because
   gmon_io merges as it reads: histogram records of one range are added
   up (so a bin that stopped at 65535 in one record no longer shows) and
   arcs whose addresses name no function are dropped.  Those facts are
   gathered while gmon_read reads the files, from each record as the
   file has it (diagnose_watch).  The executable's own symbols tell how
   it was compiled and linked.

   Two things stop a run before the analysis: an executable without
   symbols, and profile files that do not exist or cannot be added up.
   The diagnosis then says what it found and why, and ends with status
   1, as gprof does when it cannot read its input.  */

#include "config.h"
#include "diagnose/diagnose.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "gmon_io.h"
#include "modules.h"
#include "support/msort.h"
#include "gmon_out.h"
#include "gprof.h"
#include "cg_measured.h"
#include "i18n.h"
#include "support/out.h"
#include "support/error.h"
#include "support/alloc.h"

/* Profile addresses are counted in units of two bytes (as in hist.c).  */
#define UNIT 2

/* The largest count a histogram bin holds on disk.  */
#define BIN_MAX 65535

/* Lines are wrapped at this many columns.  */
#define WIDTH 76

/* A count of n random samples varies by about sqrt(n): 100 samples give
   a figure to within 10 %.  A run whose busiest function has fewer is
   too short to rank functions by time.  */
#define ENOUGH_SAMPLES 100

/* Below 4 samples the expected error is 50 % or more.  */
#define NOISE_SAMPLES 4

/* How many functions the tables and lists show.  */
#define LIST_MAX 10

/* A -pg function calls the profiling routine in its prologue, so the
   callee address of an arc (the routine's return address) lies within a
   few instructions of the function's start: 5 to 30 bytes in the code
   gcc generates for x86, aarch64 and the rest.  Far beyond that, the
   address belongs to another layout of the code.  */
#define PROLOGUE_MAX 64

/* glibc and libgmon end the histogram where the executable's code ends
   (etext, or the end of the code segment), rounded up to 4 bytes; a
   larger difference means another build.  */
#define CODE_END_SLACK 16

/* Samples outside every function are normal in small numbers (the
   PLT, start-up code); from this share on they distort the profile.  */
#define OUTSIDE_SHARE 0.01

/* A cycle that holds more than this share of the time makes the call
   graph's times unreliable for most of the program.  */
#define CYCLE_SHARE 0.5
/* An arc whose time, shared to it by calls alone, is more than this
   share of the total decides what the call graph says the program does.  */
#define ARC_SHARE 0.5

/* The PLT's sections: .plt, .plt.sec, .plt.got (x86), .iplt.  */
#define PLT_MAX 4

/* Histogram records of one address range within one file.  Several
   records of one range are how libgmon writes bins beyond 65535: each
   record carries at most 65535 of a bin's count, the last one the
   rest.  */
typedef struct Group
{
  vma_t lowpc, highpc;
  unsigned nbins, nrecords;
  uint16_t *last;               /* the bins of the last record */
} Group;

/* Marks on the bins of the merged histogram, set from single records,
   so that one bin in several files counts once.  */
enum { MARK_AT_LIMIT = 1, MARK_NEAR_LIMIT = 2 };

/* What the records showed as the files were read.  */
typedef struct Scan
{
  const Run *run;
  vma_t code_end;               /* where the code ends; 0 if unknown */
  Group *groups;                /* the ranges of the file being read */
  size_t ngroups, groups_cap;
  unsigned char **marks;        /* per run->hist record, per bin */
  size_t nmarks;
  unsigned long split_ranges;   /* ranges written as several records */
  unsigned long bins_at_limit;  /* 65535 in their range's last record */
  unsigned long bins_near_limit; /* over half of it, in a lone record */
  unsigned long arcs;           /* arc records */
  unsigned long arcs_unmatched; /* naming an address with no function */
  uint64_t calls_unmatched;
  unsigned long arcs_far;       /* callee address far into its function */
  const char *rate_file;        /* the file of the first histogram record */
} Scan;

/* How the executable was built, from its symbols.  */
typedef enum Instrumented { INSTR_NO, INSTR_YES, INSTR_UNKNOWN } Instrumented;

typedef struct Exe
{
  Instrumented instrumented;    /* its code calls mcount (-pg) */
  const char *profiler;         /* the profiling routine it names, or NULL */
  const char *thread_start;     /* pthread_create or the like, or NULL */
  bool glibc_runtime;           /* linked with -pg: glibc starts profiling */
  bool libgmon;                 /* linked with libgmon */
  bool has_code_end;
  vma_t code_end;               /* etext, else the end of the last code */
} Exe;

/* A section of the PLT, the stubs through which a dynamically linked
   program calls into shared libraries.  It has no function symbols, so
   its samples go to the symbol before it, usually _init.  */
typedef struct Plt
{
  const char *name;
  vma_t lo, hi;                 /* in bytes */
  const Sym *charged;           /* the symbol its samples go to, or NULL */
  double samples;
} Plt;

/* The facts the findings are drawn from.  */
typedef struct Facts
{
  Exe exe;
  Scan scan;
  double samples;               /* in the histogram, all files */
  double outside_below, outside_above;  /* outside every function */
  bool hist_disjoint;           /* histogram and functions do not meet */
  Plt plt[PLT_MAX];
  size_t nplt;
  unsigned long idle_funcs;     /* with samples but no calls */
  /* The modules file beside the profile (gmon_out.h), or NULL: the
     samples of each module (mod_samples[0] the program's histogram's),
     and their sum outside the program.  */
  const Modules *mods;
  double *mod_samples;
  double elsewhere;
  bool threads_glibc;           /* threads under glibc's runtime: said */
  int problems;
} Facts;

/* The facts, and how gmon_read shows them the records.  */
typedef struct Diagnosis
{
  GmonWatch watch;
  Run *run;
  Facts facts;
} Diagnosis;

/* ---- wrapped text ------------------------------------------------------- */

/* Columns taken by the N bytes at S: UTF-8 continuation bytes take none,
   so that translations wrap and align by characters.  */
static size_t
columns (const char *s, size_t n)
{
  size_t c = 0;

  for (size_t i = 0; i < n; i++)
    if (((unsigned char) s[i] & 0xc0) != 0x80)
      c++;
  return c;
}

/* Print TEXT as one paragraph wrapped at WIDTH: the first line starts
   with FIRST, the others with INDENT spaces.  A newline in TEXT starts a
   new line.  Messages are single paragraphs without line breaks, so that
   translations need not be wrapped by hand.  */
static void
wrap (const char *first, int indent, const char *text)
{
  const char *p = text;
  size_t col = columns (first, strlen (first));
  bool empty = true;

  out_str (first);
  while (*p)
    {
      size_t len, w;

      if (*p == ' ')
        {
          p++;
          continue;
        }
      if (*p == '\n')
        {
          out_char ('\n');
          out_spaces (indent);
          col = (size_t) indent;
          empty = true;
          p++;
          continue;
        }
      len = strcspn (p, " \n");
      w = columns (p, len);
      if (!empty && col + 1 + w > WIDTH)
        {
          out_char ('\n');
          out_spaces (indent);
          col = (size_t) indent;
          empty = true;
        }
      if (!empty)
        {
          out_char (' ');
          col++;
        }
      out_write (p, len);
      col += w;
      empty = false;
      p += len;
    }
  out_char ('\n');
}

static char * __attribute__ ((format (printf, 1, 0)))
format_v (const char *fmt, va_list ap)
{
  char *s;

  if (vasprintf (&s, fmt, ap) < 0)
    gp_die (_("%s: out of memory\n"), whoami);
  return s;
}

/* Add ITEM to the list *LIST (malloc'ed, or NULL while empty), after SEP.  */
static void
append (char **list, const char *sep, const char *item)
{
  char *longer;

  if (asprintf (&longer, "%s%s%s", *list ? *list : "", *list ? sep : "",
                item) < 0)
    gp_die (_("%s: out of memory\n"), whoami);
  free (*list);
  *list = longer;
}

/* FMT's text wrapped after FIRST, the next lines indented by INDENT.  */
static void
wrap_v (const char *first, int indent, const char *fmt, va_list ap)
{
  char *s = format_v (fmt, ap);

  wrap (first, indent, s);
  free (s);
}

/* A paragraph of a finding or section, indented by two.  */
static void __attribute__ ((format (printf, 1, 2)))
say (const char *fmt, ...)
{
  va_list ap;

  va_start (ap, fmt);
  wrap_v ("  ", 2, fmt, ap);
  va_end (ap);
}

/* One point of a list: "- TEXT".  */
static void __attribute__ ((format (printf, 1, 2)))
point (const char *fmt, ...)
{
  va_list ap;

  va_start (ap, fmt);
  wrap_v ("- ", 2, fmt, ap);
  va_end (ap);
}

/* One point of a list within a finding, indented as its paragraphs.  */
static void __attribute__ ((format (printf, 1, 2)))
sub_point (const char *fmt, ...)
{
  va_list ap;

  va_start (ap, fmt);
  wrap_v ("  - ", 4, fmt, ap);
  va_end (ap);
}

/* The first line of a finding: what is wrong.  Counts it.  */
static void __attribute__ ((format (printf, 2, 3)))
problem (Facts *f, const char *fmt, ...)
{
  va_list ap;
  char *s;

  va_start (ap, fmt);
  s = format_v (fmt, ap);
  va_end (ap);
  out_char ('\n');
  wrap ("* ", 2, s);
  free (s);
  f->problems++;
}

/* Advice: "What to do: ...".  */
static void __attribute__ ((format (printf, 1, 2)))
advice (const char *fmt, ...)
{
  va_list ap;
  char *s, *t;

  va_start (ap, fmt);
  s = format_v (fmt, ap);
  va_end (ap);
  if (asprintf (&t, _("What to do: %s"), s) < 0)
    gp_die (_("%s: out of memory\n"), whoami);
  wrap ("  ", 2, t);
  free (t);
  free (s);
}

static void
heading (const char *title)
{
  out_char ('\n');
  out_str (title);
  out_char ('\n');
}

/* The number that picks the plural form of a message about X samples.  */
static unsigned long
plural (double x)
{
  return x < 0.5 ? 0 : (unsigned long) llround (x);
}

/* S right-aligned in WIDTH columns, then a space.  */
static void
field (const char *s, int width)
{
  out_spaces (width - (int) columns (s, strlen (s)));
  out_str (s);
  out_char (' ');
}

/* ---- the executable ----------------------------------------------------- */

/* NAME without its symbol version ("mcount@GLIBC_2.2.5") equals WANT.  */
static bool
name_is (const char *name, const char *want)
{
  size_t n = strlen (want);

  return strncmp (name, want, n) == 0 && (name[n] == '\0' || name[n] == '@');
}

/* The entry of LIST that NAME is, or NULL.  */
static const char *
name_in (const char *name, const char *const *list)
{
  for (; *list; list++)
    if (name_is (name, *list))
      return *list;
  return NULL;
}

/* Whether the executable names a shared library libgmon.so as needed:
   the names of needed libraries are kept in .dynstr.  */
static bool
needs_libgmon (const Core *core)
{
  asection *s = bfd_get_section_by_name (core->abfd, ".dynstr");
  bfd_size_type size;
  char *buf;
  bool found;

  /* A damaged header may claim any size: no more than the file has.  */
  if (!s || (size = bfd_section_size (s)) == 0
      || size > (bfd_size_type) bfd_get_file_size (core->abfd))
    return false;
  buf = gp_malloc (size);
  found = bfd_get_section_contents (core->abfd, s, buf, 0, size)
          && memmem (buf, size, "libgmon.so", 10) != NULL;
  free (buf);
  return found;
}

static void
examine_exe (const Core *core, Exe *exe)
{
  /* The routines -pg code calls, on the targets gcc supports.  */
  static const char *const profilers[] = {
    "mcount", "_mcount", "__mcount", ".mcount", "__fentry__",
    "__gnu_mcount_nc", NULL
  };
  static const char *const etexts[] = { "etext", "_etext", "__etext", NULL };
  static const char *const thread_starts[] = {
    "pthread_create", "thrd_create", NULL
  };
  bool referenced = false, defined = false;

  memset (exe, 0, sizeof *exe);
  for (long i = 0; i < core->nsyms_canonical; i++)
    {
      const asymbol *s = core->syms[i];
      bool undef = bfd_is_und_section (s->section);
      const char *known;

      if ((known = name_in (s->name, profilers)))
        {
          exe->profiler = known;
          if (undef)
            referenced = true;
          else
            defined = true;
        }
      /* gcrt1.o, which -pg links, defines __gmon_start__ and calls
         __monstartup; a plain link only has a weak reference.  */
      else if ((name_is (s->name, "__gmon_start__") && !undef)
               || name_is (s->name, "__monstartup"))
        exe->glibc_runtime = true;
      else if (name_is (s->name, "libgmon_dump") && !undef)
        exe->libgmon = true;
      else if ((known = name_in (s->name, thread_starts)))
        exe->thread_start = known;
      else if (name_in (s->name, etexts) && !undef && !exe->has_code_end)
        {
          exe->has_code_end = true;
          exe->code_end = s->value + bfd_section_vma (s->section);
        }
    }
  /* Without etext (a program not linked with -pg, into which libgmon was
     preloaded) the runtime takes the end of the code segment.  */
  if (!exe->has_code_end)
    for (asection *sec = core->abfd->sections; sec; sec = sec->next)
      if ((bfd_section_flags (sec) & (SEC_CODE | SEC_ALLOC))
          == (SEC_CODE | SEC_ALLOC))
        {
          vma_t end = bfd_section_vma (sec) + bfd_section_size (sec);

          if (end > exe->code_end)
            exe->code_end = end;
          exe->has_code_end = true;
        }
  if (needs_libgmon (core))
    exe->libgmon = true;
  /* A static link defines mcount instead of referring to it.  The C
     library's archive only gives it to a program whose code calls it;
     libgmon's brings it along with the rest of the runtime, and then the
     symbols cannot tell.  */
  if (referenced || (defined && !exe->libgmon))
    exe->instrumented = INSTR_YES;
  else if (defined)
    exe->instrumented = INSTR_UNKNOWN;
  else
    exe->instrumented = INSTR_NO;
}

/* ---- what stops the analysis -------------------------------------------- */

static void
print_title (Run *run)
{
  run_separator (run);
  out_printf (_("Diagnosis of the profile data of %s\n"), run->opt.image);
}

static void
print_summary (const Facts *f)
{
  out_char ('\n');
  if (f->problems)
    out_printf (ngettext ("Summary: %d problem found.\n",
                          "Summary: %d problems found.\n", f->problems),
                f->problems);
  else
    out_printf (_("Summary: no problems found.\n"));
}

/* The findings that keep the profile from being analysed are printed:
   end as gprof ends when it cannot read its input.  */
static void __attribute__ ((noreturn))
stop (const Facts *f)
{
  print_summary (f);
  exit (1);
}

/* The profile files of OPT that do not exist, joined by ", " (malloc'ed),
   and how many; NULL if none.  Other errors are gmon_read's to report.  */
static char *
missing_profiles (const Options *opt, unsigned long *n)
{
  char *list = NULL;

  *n = 0;
  for (size_t i = 0; i < opt->nprofiles; i++)
    {
      const char *name = opt->profiles[i];
      struct stat st;

      if (strcmp (name, "-") == 0 || stat (name, &st) == 0 || errno != ENOENT)
        continue;
      append (&list, ", ", name);
      ++*n;
    }
  return list;
}

/* No profile file: what the executable tells of how it was built, and
   why a program built for profiling writes none.  */
static void
check_missing (const Run *run, Facts *f, const char *missing,
               unsigned long n, bool stripped)
{
  const Exe *exe = &f->exe;
  bool started = exe->glibc_runtime || exe->libgmon;
  const char *prefix = getenv ("GMON_OUT_PREFIX");

  problem (f, ngettext ("The profile file %s does not exist.",
                        "The profile files %s do not exist.", n),
           missing);
  if (stripped)
    say (_("The executable has no symbol table (see below), so it cannot tell whether it was built for profiling: compiled with -pg, its code calls the profiling routine (mcount, _mcount or __fentry__); linked with -pg or with libgmon, it starts profiling and writes the profile at its end."));
  else if (!started && exe->instrumented == INSTR_NO)
    {
      say (_("The executable was not built for profiling: its code never calls the profiling routine (mcount, _mcount or __fentry__), as code compiled with -pg does, and it was linked neither with -pg nor with libgmon, which start profiling and write the profile at the end.  Running it writes no profile."));
      advice (_("compile and link the program with -pg (gcc -pg -o prog *.c), run it to its end, then run gprof where it ran."));
      return;
    }
  else if (!started)
    {
      say (_("The executable was compiled with -pg (its code calls %s) but linked without it: nothing in it starts profiling, and with glibc's runtime such a program writes no profile at all."),
           exe->profiler);
      advice (_("link with -pg as well (gcc -pg -o prog *.o), or with libgmon (-lgmon); or run the program as it is with libgmon preloaded (LD_PRELOAD=libgmon.so), which profiles it."));
      return;
    }
  else if (exe->libgmon)
    say (_("The executable is linked with libgmon, which writes the profile when the program ends."));
  else if (exe->instrumented == INSTR_YES)
    say (_("The executable was compiled and linked with -pg (its code calls %s), so glibc's runtime writes the profile when the program ends."),
         exe->profiler);
  else
    say (_("The executable was linked with -pg, so glibc's runtime writes a profile when the program ends (of samples only: its code was compiled without -pg and counts no calls)."));
  say (_("The usual reasons why there is none:"));
  sub_point (_("The program did not end normally.  The profile is written when it calls exit or returns from main; a program that ends by _exit, by abort, by a crash or by a signal (Ctrl-C, kill, a time limit), or that replaces itself by exec, writes none."));
  sub_point (_("It changed directory (chdir): glibc's runtime writes gmon.out in the directory that is current when the program ends, libgmon in the one it started in."));
  sub_point (_("GMON_OUT_PREFIX was set when it ran: the file is then named PREFIX.PID, after the process id (and libgmon's LIBGMON_OUT gives it a name of its own)."));
  if (prefix && *prefix)
    sub_point (_("GMON_OUT_PREFIX is set here, to %s: look for files named %s.PID."),
               prefix, prefix);
  sub_point (_("It is still running, or ran in another directory: the file is written in the program's current directory, not next to the executable."));
  sub_point (_("It could not write the file: the directory was not writable (the runtime says so on standard error), or glibc's table of calls overflowed, in which case glibc writes no file at all."));
  advice (_("run the program again to its normal end (exit, or a return from main), then run gprof where the file was written, or name the file: gprof --diagnose %s FILE."),
          run->opt.image);
}

/* The build ID of the executable, in hex (malloc'ed), or NULL.  */
static char *
build_id (const Core *core)
{
  const struct bfd_build_id *id = core->abfd->build_id;
  char *hex;

  if (!id || id->size == 0)
    return NULL;
  hex = gp_malloc (2 * id->size + 1);
  for (bfd_size_type i = 0; i < id->size; i++)
    sprintf (hex + 2 * i, "%02x", id->data[i]);
  return hex;
}

/* An executable without a symbol table, and where its symbols may be.  */
static void
check_stripped (const Run *run, Facts *f)
{
  char *id = build_id (run->core), *files = NULL;

  for (size_t i = 0; i < run->opt.nprofiles; i++)
    append (&files, " ", run->opt.profiles[i]);
  problem (f, _("The executable %s has no symbol table: it was stripped."),
           run->opt.image);
  say (_("gprof credits samples and calls to functions by their symbols.  Without them no sample and no call can be credited to any function, so the profile cannot be analysed with this file."));
  if (id)
    {
      char *path;

      if (asprintf (&path, "/usr/lib/debug/.build-id/%.2s/%s.debug", id,
                    id + 2) < 0)
        gp_die (_("%s: out of memory\n"), whoami);
      say (_("Its build ID is %s.  Its symbols may have been kept in a separate debug file named after the build ID, %s: a distribution installs it with the program's debug package, and debuginfod-find debuginfo %s fetches it where a debuginfod server is set up."),
           id, path, id);
      if (access (path, R_OK) == 0)
        say (_("That file exists on this system."));
      advice (_("give gprof the executable as the build made it, before it was stripped, or the debug file in its place: gprof --diagnose %s %s.  A debug file holds the symbol table and the addresses of the code, which is all gprof needs.  To keep one when stripping a program: objcopy --only-keep-debug prog prog.debug, then strip prog."),
              path, files);
      free (path);
    }
  else
    {
      say (_("It has no build ID, so no separate debug file can be matched to it."));
      advice (_("give gprof the executable as the build made it, before it was stripped.  To keep the symbols when stripping a program: objcopy --only-keep-debug prog prog.debug, then strip prog, and give gprof prog.debug in its place."));
    }
  free (files);
  free (id);
}

/* Two files whose histograms cannot be added up: of other rates, or
   dividing the code into bins of other sizes.  FIRST's record fixed the
   run's rate and scale.  */
static void __attribute__ ((noreturn))
refuse_files (Diagnosis *d, const char *file, vma_t lowpc, vma_t highpc,
              unsigned nbins, unsigned rate)
{
  Run *run = d->run;
  Facts *f = &d->facts;
  const Histograms *h = &run->hist;
  const HistRecord *r0 = &h->rec[0];
  const char *first = f->scan.rate_file ? f->scan.rate_file
                                        : run->opt.profiles[0];

  gp_assert (h->n > 0);

  print_title (run);
  heading (_("Findings"));
  if (rate != h->hz)
    {
      problem (f, _("%s and %s were sampled at different rates, %u and %u samples a second: gprof cannot add them up."),
               first, file, h->hz, rate);
      say (_("A sample stands for one period of its file's rate, so samples taken at different rates do not add up, and gprof refuses these files together (without --diagnose it stops with an error message)."));
      if ((h->hz == 100 && rate == 1000) || (h->hz == 1000 && rate == 100))
        say (_("100 samples a second is the rate of glibc's runtime, 1000 the default of libgmon: the runs were probably profiled by different runtimes."));
    }
  else
    {
      problem (f, _("%s and %s divide the code into histogram bins of different sizes: gprof cannot add them up."),
               first, file);
      say (_("Their histograms: %s from 0x%llx to 0x%llx in %u bins, %s from 0x%llx to 0x%llx in %u bins.  The runtimes size the histogram from the program's code: glibc's runtime and libgmon cover different ranges of it, and another build has other code."),
           first, (unsigned long long) r0->lowpc,
           (unsigned long long) r0->highpc, r0->nbins, file,
           (unsigned long long) lowpc, (unsigned long long) highpc, nbins);
    }
  advice (_("analyse each file on its own (gprof %s %s, then gprof %s %s).  To add up runs, profile them all with one runtime, one build and one rate: libgmon's rate is set with LIBGMON_HZ (LIBGMON_HZ=100 is glibc's), but runs of glibc's runtime and of libgmon cannot be added up even at one rate, as their histograms cover different ranges of the code."),
          run->opt.image, first, run->opt.image, file);
  stop (f);
}

/* ---- the records, as the files are read --------------------------------- */

/* Whether ADDR lies in one of the executable's functions.  Past the end
   of the code the symbol table still answers with its last symbol.  */
static const Sym *
function_at (const Scan *sc, vma_t addr)
{
  if (sc->code_end && addr >= sc->code_end)
    return NULL;
  return symtab_lookup (&sc->run->symtab, addr);
}

/* One arc record: does it name functions, and is the callee address
   where -pg code calls mcount?  */
static void
watch_arc (void *ctx, vma_t from, vma_t self, uint64_t count)
{
  Scan *sc = &((Diagnosis *) ctx)->facts.scan;
  const Sym *parent = function_at (sc, from);
  const Sym *child = function_at (sc, self);

  sc->arcs++;
  if (!parent || !child)
    {
      sc->arcs_unmatched++;
      sc->calls_unmatched += count;
      return;
    }
  /* With -l the symbol is a line: the function is the one before it.  */
  while (!child->is_func && child > sc->run->symtab.base)
    child--;
  if (self - child->addr >= PROLOGUE_MAX)
    sc->arcs_far++;
}

/* A histogram record: the bins of the last record of each range of the
   file are kept, to be marked when the file ends.  */
static void
watch_hist (void *ctx, vma_t lowpc, vma_t highpc, unsigned nbins,
            const uint16_t *bins)
{
  Scan *sc = &((Diagnosis *) ctx)->facts.scan;
  Group *g = NULL;

  for (size_t i = 0; i < sc->ngroups && !g; i++)
    if (sc->groups[i].lowpc == lowpc && sc->groups[i].highpc == highpc)
      g = &sc->groups[i];
  if (!g)
    {
      gp_grow (&sc->groups, &sc->groups_cap, sc->ngroups + 1,
               sizeof *sc->groups);
      g = &sc->groups[sc->ngroups++];
      g->lowpc = lowpc;
      g->highpc = highpc;
      g->nbins = nbins;
      g->nrecords = 0;
      g->last = gp_calloc (nbins ? nbins : 1, sizeof *g->last);
    }
  /* gmon_read reads as many bins for every record of a range.  */
  memcpy (g->last, bins, (nbins < g->nbins ? nbins : g->nbins)
                         * sizeof *g->last);
  g->nrecords++;
}

/* A histogram record's header, before gmon_read checks it: a record that
   cannot be added to another file's is explained here, not refused with
   a bare error.  Records of one file that do not agree are the reader's
   to refuse (a damaged file).  */
static void
watch_hist_header (void *ctx, const char *filename, vma_t lowpc,
                   vma_t highpc, unsigned nbins, unsigned rate)
{
  Diagnosis *d = ctx;
  Scan *sc = &d->facts.scan;
  const Histograms *h = &d->run->hist;
  const char *first;

  if (h->n == 0)
    {
      sc->rate_file = filename;
      return;
    }
  /* An old BSD file, which has no rate, was the first.  */
  first = sc->rate_file ? sc->rate_file : d->run->opt.profiles[0];
  if (strcmp (first, filename) == 0)
    return;
  if (rate != h->hz
      || (nbins > 0 && hist_scale_differs (h, lowpc, highpc, nbins)))
    refuse_files (d, filename, lowpc, highpc, nbins, rate);
}

/* The marks of merged histogram record R, made when first needed.  */
static unsigned char *
marks_of (Scan *sc, size_t r)
{
  const Histograms *h = &sc->run->hist;

  if (r >= sc->nmarks)
    {
      sc->marks = gp_reallocarray (sc->marks, h->n, sizeof *sc->marks);
      while (sc->nmarks < h->n)
        sc->marks[sc->nmarks++] = NULL;
    }
  if (!sc->marks[r])
    sc->marks[r] = gp_calloc (h->rec[r].nbins ? h->rec[r].nbins : 1, 1);
  return sc->marks[r];
}

/* A file was read: mark the bins of the merged histogram that reached
   the limit in its records.  */
static void
watch_file_end (void *ctx)
{
  Scan *sc = &((Diagnosis *) ctx)->facts.scan;
  const Histograms *h = &sc->run->hist;

  for (size_t i = 0; i < sc->ngroups; i++)
    {
      const Group *g = &sc->groups[i];

      if (g->nrecords > 1)
        sc->split_ranges++;
      for (size_t r = 0; r < h->n; r++)
        {
          unsigned char *marks;

          if (h->rec[r].lowpc != g->lowpc || h->rec[r].highpc != g->highpc)
            continue;
          marks = marks_of (sc, r);
          for (unsigned b = 0; b < g->nbins && b < h->rec[r].nbins; b++)
            if (g->last[b] == BIN_MAX)
              marks[b] |= MARK_AT_LIMIT;
            else if (g->nrecords == 1 && g->last[b] > BIN_MAX / 2)
              marks[b] |= MARK_NEAR_LIMIT;
        }
      free (g->last);
    }
  sc->ngroups = 0;
}

/* Count the marked bins, once every file was read.  */
static void
count_marks (Scan *sc)
{
  const Histograms *h = &sc->run->hist;

  for (size_t r = 0; r < sc->nmarks; r++)
    {
      for (unsigned b = 0; sc->marks[r] && b < h->rec[r].nbins; b++)
        if (sc->marks[r][b] & MARK_AT_LIMIT)
          sc->bins_at_limit++;
        else if (sc->marks[r][b] & MARK_NEAR_LIMIT)
          sc->bins_near_limit++;
      free (sc->marks[r]);
    }
  free (sc->marks);
  free (sc->groups);
  sc->marks = NULL;
  sc->groups = NULL;
  sc->nmarks = 0;
}

/* ---- facts from the merged data ------------------------------------------ */

/* The sections of the PLT, and the symbols their samples go to.  */
static void
find_plt (const Run *run, Facts *f)
{
  for (asection *sec = run->core->abfd->sections;
       sec && f->nplt < PLT_MAX; sec = sec->next)
    {
      const char *name = bfd_section_name (sec);
      Plt *p;

      if ((strncmp (name, ".plt", 4) != 0 || (name[4] && name[4] != '.'))
          && strcmp (name, ".iplt") != 0)
        continue;
      if (bfd_section_size (sec) == 0)
        continue;
      p = &f->plt[f->nplt++];
      p->name = name;
      p->lo = bfd_section_vma (sec);
      p->hi = p->lo + bfd_section_size (sec);
      p->charged = symtab_lookup (&run->symtab, p->lo);
    }
}

/* The share of a bin's COUNT samples, over [LO, HI) in units, that lies
   in [FROM, TO).  */
static double
overlap (double count, vma_t lo, vma_t hi, vma_t from, vma_t to)
{
  vma_t a = lo > from ? lo : from, b = hi < to ? hi : to;

  return a < b ? count * (double) (b - a) / (double) (hi - lo) : 0.0;
}

/* The histogram's samples, and those outside every function: the ones
   the flat profile counts in its total but credits to no symbol.  Of
   those, the ones below the first symbol are told apart by address; the
   rest lie beyond the last one.  */
static void
count_samples (const Run *run, Facts *f)
{
  const Histograms *h = &run->hist;
  const SymTab *st = &run->symtab;
  vma_t first = st->len ? st->base[0].addr : 0;
  vma_t last = st->len ? st->base[st->len - 1].end_addr : 0;
  double credited = 0.0, outside;
  bool meets = false;

  for (size_t r = 0; r < h->n; r++)
    {
      const HistRecord *rec = &h->rec[r];

      if (st->len && rec->lowpc <= last && rec->highpc > first)
        meets = true;
      for (unsigned i = 0; i < rec->nbins; i++)
        {
          double count = (double) hist_count (rec, i);
          vma_t lo, hi;

          hist_bin_units (h, rec, i, &lo, &hi);
          if (count == 0)
            continue;
          f->samples += count;
          f->outside_below += overlap (count, lo, hi, 0, first / UNIT);
          for (size_t p = 0; p < f->nplt; p++)
            f->plt[p].samples += overlap (count, lo, hi, f->plt[p].lo / UNIT,
                                          f->plt[p].hi / UNIT);
        }
    }
  f->hist_disjoint = h->n > 0 && !meets;

  /* Samples credited to symbols left out by -P and the like leave the
     total too (see hist.c), so this holds whatever the options.  */
  for (size_t i = 0; i < st->len; i++)
    credited += st->base[i].hist_time;
  outside = h->total_time - credited;
  /* Below half a sample the difference is rounding.  */
  if (outside < 0.5)
    f->outside_below = outside = 0.0;
  f->outside_above = outside > f->outside_below
                     ? outside - f->outside_below : 0.0;
}

/* The modules beside the profile: run->modules with --whole-process,
   else read here for the diagnosis alone (one profile file), and their
   samples.  */
static void
count_module_samples (Run *run, Facts *f)
{
  const Modules *m = run->modules;

  if (!m && run->opt.nprofiles == 1)
    m = modules_read (run->opt.profiles[0]);
  if (!m)
    return;
  f->mods = m;
  f->mod_samples = gp_calloc (m->n, sizeof *f->mod_samples);
  f->mod_samples[0] = f->samples;
  for (size_t i = 0; i < m->nbins; i++)
    {
      f->mod_samples[m->bins[i].pc.module] += (double) m->bins[i].count;
      f->elsewhere += (double) m->bins[i].count;
    }
}

/* Does SYM stand for main, which is always called from outside the
   profiled code (the C library's start-up)?  */
static bool
is_main (const Run *run, const Sym *sym)
{
  const char *name = sym->name;

  if (run->core->leading_char && name[0] == run->core->leading_char)
    name++;
  return strcmp (name, "main") == 0;
}

/* Functions by sampled time, most first; equal times by address.  */
static int
cmp_time (const void *a, const void *b)
{
  const Sym *l = *(const Sym *const *) a, *r = *(const Sym *const *) b;

  if (l->hist_time != r->hist_time)
    return l->hist_time < r->hist_time ? 1 : -1;
  return (l->addr > r->addr) - (l->addr < r->addr);
}

/* The functions with samples, most first, and how many.  */
static const Sym **
sampled_functions (const Run *run, size_t *n)
{
  const Sym **v = gp_reallocarray (NULL, run->symtab.len, sizeof *v);

  *n = 0;
  for (size_t i = 0; i < run->symtab.len; i++)
    if (run->symtab.base[i].hist_time > 0.0)
      v[(*n)++] = &run->symtab.base[i];
  qsort (v, *n, sizeof *v, cmp_time);
  return v;
}

/* The name of SYM as the reports print it, malloc'ed.  */
static char *
shown_name (const Run *run, const Sym *sym)
{
  char *d = names_demangle (&run->names, sym->name);

  return d ? d : gp_strdup (sym->name);
}

/* ---- the report --------------------------------------------------------- */

/* Which runtime wrote the profile, as far as the executable and the file
   tell.  */
typedef enum Runtime
{
  RUNTIME_LIBGMON,              /* linked with it, or a split histogram */
  RUNTIME_LIBGMON_RATE,         /* 1000 samples a second, its default */
  RUNTIME_GLIBC_RATE,           /* 100 a second, glibc's */
  RUNTIME_UNKNOWN
} Runtime;

static Runtime
guess_runtime (const Run *run, const Facts *f)
{
  bool hist = run->gmon_input & INPUT_HISTOGRAM;

  if (f->exe.libgmon || f->scan.split_ranges > 0)
    return RUNTIME_LIBGMON;
  if (hist && run->hist.hz == 1000)
    return RUNTIME_LIBGMON_RATE;
  if (hist && run->hist.hz == 100)
    return RUNTIME_GLIBC_RATE;
  return RUNTIME_UNKNOWN;
}

/* What was read: the files, the histogram, the call graph.  */
static void
print_data (const Run *run, const Facts *f)
{
  const Histograms *h = &run->hist;

  heading (_("What the profile holds"));
  if (run->opt.nprofiles == 1)
    say (_("Executable: %s.  Profile data: %s."), run->opt.image,
         run->opt.profiles[0]);
  else
    say (ngettext ("Executable: %s.  Profile data: %s and %lu more file, added up.",
                   "Executable: %s.  Profile data: %s and %lu more files, added up.",
                   (unsigned long) (run->opt.nprofiles - 1)),
         run->opt.image, run->opt.profiles[0],
         (unsigned long) (run->opt.nprofiles - 1));
  if (run->gmon_input & INPUT_HISTOGRAM)
    {
      /* The bytes a bin covers, exactly (the flat profile's granularity
         line rounds them down).  */
      double bin_bytes = h->rec[0].nbins
        ? (double) (h->rec[0].highpc - h->rec[0].lowpc) / h->rec[0].nbins
        : 0.0;

      if (h->hz > 0)
        say (ngettext ("Histogram: %.0f sample taken %d times a second, %.2f seconds of CPU time in the program's own code; one bin for every %.0f bytes of code.",
                       "Histogram: %.0f samples taken %d times a second, %.2f seconds of CPU time in the program's own code; one bin for every %.0f bytes of code.",
                       plural (f->samples)),
             f->samples, h->hz, f->samples / h->hz, bin_bytes);
      else
        say (ngettext ("Histogram: %.0f sample, at a rate the file does not give; one bin for every %.0f bytes of code.",
                       "Histogram: %.0f samples, at a rate the file does not give; one bin for every %.0f bytes of code.",
                       plural (f->samples)),
             f->samples, bin_bytes);
    }
  else
    say (_("Histogram: none."));
  if (run->gmon_input & INPUT_CALL_GRAPH)
    {
      uint64_t calls = 0;

      for (size_t i = 0; i < run->cg.narcs; i++)
        calls += run->cg.arcs[i].count;
      say (ngettext ("Call graph: %llu calls along %lu arc from one function to another.",
                     "Call graph: %llu calls along %lu arcs from one function to another.",
                     (unsigned long) run->cg.narcs),
           (unsigned long long) calls, (unsigned long) run->cg.narcs);
    }
  else
    say (_("Call graph: none."));
  if (run->gmon_input & INPUT_BB_COUNTS)
    say (_("Basic-block counts: present."));
}

/* The expected error of each function's time: the square-root rule.  */
static void
print_precision (const Run *run, const Facts *f, const Sym **by_time, size_t n)
{
  const Histograms *h = &run->hist;
  size_t noisy = 0;
  bool ticks;
  /* Seconds to the sampling period: 2 decimals at 100 a second, 3 at
     1000.  */
  int prec = h->hz > 100 ? (int) ceil (log10 (h->hz)) : 2;

  if (h->hz <= 0 || n == 0)
    return;
  heading (_("How precise the times are"));
  say (_("Times are measured by sampling: %d times a second the program counter is looked at, and the function it points into is credited one sample, %g seconds.  How many samples land in a function varies from run to run by about the square root of their number: a function with n samples is known to within about +/- sqrt(n) samples, or +/- 100/sqrt(n) percent.  100 samples give +/- 10%%, 10000 give +/- 1%%.  Call counts are counted, not sampled."),
       h->hz, 1.0 / h->hz);
  out_char ('\n');
  field (_("samples"), 10);
  field (_("seconds"), 10);
  field (_("+/- seconds"), 12);
  field (_("+/- %"), 7);
  out_char (' ');
  out_str (_("function"));
  out_char ('\n');
  for (size_t i = 0; i < n; i++)
    {
      double s = by_time[i]->hist_time;

      if (s < NOISE_SAMPLES)
        noisy++;
      if (i >= LIST_MAX)
        continue;
      out_printf ("%10.0f %10.*f %12.*f %7.1f  ", s, prec, s / h->hz, prec,
                  sqrt (s * h->dispersion) / h->hz,
                  100.0 * sqrt (h->dispersion / s));
      print_name_only (&run->names, by_time[i]);
      out_char ('\n');
    }
  if (n > LIST_MAX)
    say (ngettext ("... and %lu more function with fewer samples.",
                   "... and %lu more functions with fewer samples.",
                   (unsigned long) (n - LIST_MAX)),
         (unsigned long) (n - LIST_MAX));
  /* libgmon's CPU-time timers fire on the kernel's tick and weight a
     signal by the periods it covers: fewer independent samples.  */
  ticks = guess_runtime (run, f) <= RUNTIME_LIBGMON_RATE && h->hz > 250;
  if (ticks || noisy || h->dispersion > 1)
    out_char ('\n');
  if (h->dispersion > 1)
    say (_("The profile records that its samples came in clumps: each timer signal stood for %.1f sampling periods on average (libgmon's timers fire on the kernel's clock tick), so a count of n samples varies by about sqrt(%.1f n).  The errors above account for it."),
         h->dispersion, h->dispersion);
  else if (ticks)
    say (_("libgmon's timers fire on the kernel's clock tick, often 250 times a second, and a signal that stands for several periods counts as that many samples: the errors can then be up to twice those above."));
  if (noisy)
    say (ngettext ("%lu function has fewer than %d samples: its time is known to +/- 50%% or worse, mostly noise.",
                   "%lu functions have fewer than %d samples: their times are known to +/- 50%% or worse, mostly noise.",
                   (unsigned long) noisy),
         (unsigned long) noisy, NOISE_SAMPLES);
}

/* Whether most samples fell outside the program, in the modules that
   the report leaves out (no --whole-process).  */
static bool
most_elsewhere (const Run *run, const Facts *f)
{
  return f->mods && !run->opt.whole_process && f->elsewhere > f->samples;
}

/* Whether there are samples at all, and the run's length against the
   sampling period.  */
static void
check_length (const Run *run, Facts *f, const Sym **by_time, size_t n)
{
  const Histograms *h = &run->hist;

  if (!(run->gmon_input & (INPUT_HISTOGRAM | INPUT_CALL_GRAPH)))
    {
      problem (f, _("The profile holds neither samples nor call counts."));
      say (_("Only its header was written, perhaps with basic-block counts (which gprof -l -C shows): the runtime had nothing to record, or the file was cut short."));
      advice (_("check that the program was compiled and linked with -pg and ended normally, by exit or by returning from main."));
      return;
    }
  if (!(run->gmon_input & INPUT_HISTOGRAM))
    {
      problem (f, _("There is no histogram: the profile has call counts but no times."));
      say (_("The program ran without sampling its program counter.  libgmon does so when LIBGMON_HZ=0; other runtimes when their timer could not be started.  The flat profile and every time in the call graph are then missing; the call counts are complete."));
      advice (_("run the program again with sampling on (unset LIBGMON_HZ, or give it a rate such as 1000)."));
      return;
    }
  /* The samples libgmon took in shared libraries explain an empty or
     thin histogram: check_modules says so, not "run longer".  */
  if (most_elsewhere (run, f))
    return;
  if (f->samples == 0)
    {
      problem (f, _("The histogram is empty: not one sample fell in the program's code."));
      say (_("Either the run was shorter than one sampling period (%g seconds), or its time went where the histogram does not look: into shared libraries (the C library, for one), into the kernel (system calls), or into waiting, which is not CPU time at all.  With libgmon, LIBGMON_HZ=0 also turns sampling off."),
           h->hz > 0 ? 1.0 / h->hz : 0.0);
      advice (_("run the program longer, or on more work; to see the time spent in library code, link the program statically (-static) so that the libraries are part of its code."));
      return;
    }
  if (n > 0 && by_time[0]->hist_time < ENOUGH_SAMPLES && h->hz > 0)
    {
      char *busiest = shown_name (run, by_time[0]);

      problem (f, _("The run was too short to measure times: even the busiest function has fewer than %d samples."),
               ENOUGH_SAMPLES);
      say (ngettext ("The program ran for %.2f seconds of CPU time, %.0f sampling period of %g seconds.",
                     "The program ran for %.2f seconds of CPU time, %.0f sampling periods of %g seconds.",
                     plural (f->samples)),
           f->samples / h->hz, f->samples, 1.0 / h->hz);
      say (ngettext ("Its busiest function, %s, has %.0f sample, so its time is known only to +/- %.0f%%; the others' times are rougher still, and their order in the flat profile may be chance.",
                     "Its busiest function, %s, has %.0f samples, so its time is known only to +/- %.0f%%; the others' times are rougher still, and their order in the flat profile may be chance.",
                     plural (by_time[0]->hist_time)),
           busiest, by_time[0]->hist_time, 100.0 / sqrt (by_time[0]->hist_time));
      advice (_("make each function you care about collect at least %d samples (+/- 10%%), that is %.1f seconds of its own time at this rate: run the program longer or on more work, or add up several runs by giving all their profile files to gprof at once."),
              ENOUGH_SAMPLES, (double) ENOUGH_SAMPLES / h->hz);
      free (busiest);
    }
}

static void
check_outside (Facts *f)
{
  double outside = f->outside_below + f->outside_above;

  if (outside <= 0.0 || f->hist_disjoint)
    return;
  if (outside < OUTSIDE_SHARE * f->samples)
    {
      heading (_("Samples outside every function"));
      say (ngettext ("%.0f sample (%.2f%% of all) fell outside every function of the executable: too few to matter.",
                     "%.0f samples (%.2f%% of all) fell outside every function of the executable: too few to matter.",
                     plural (outside)),
           outside, 100.0 * outside / f->samples);
      return;
    }
  problem (f, ngettext ("%.0f sample, %.1f%% of all, fell outside every function of the executable.",
                        "%.0f samples, %.1f%% of all, fell outside every function of the executable.",
                        plural (outside)),
           outside, 100.0 * outside / f->samples);
  say (_("%.0f of them lie below the first function, %.0f beyond the end of the last one.  The flat profile counts them in the total, so every function's share of the time looks smaller than it is, but credits them to no function."),
       f->outside_below, f->outside_above);
  say (_("Code without a symbol is the usual reason: the PLT, start-up code, a stripped or partly stripped executable.  Many such samples can also mean that the profile was written by another build of the program (see below if so)."));
  advice (_("give gprof the very executable that wrote the profile, with its symbol table (not stripped)."));
}

static void
check_call_graph (const Run *run, Facts *f)
{
  const Exe *exe = &f->exe;

  if (exe->instrumented == INSTR_YES && !exe->glibc_runtime && !exe->libgmon)
    {
      problem (f, _("The executable was compiled with -pg but linked without it."));
      say (_("Its functions call the profiling routine, but its start-up never switches profiling on: with glibc's runtime such a program writes no profile at all.  This profile was therefore written by something else: a preloaded libgmon.so (LD_PRELOAD), or another build of the program.  With libgmon all is well; otherwise check that the profile belongs to this executable."));
      advice (_("link with -pg as well (gcc -pg -o prog *.o), or with libgmon (-lgmon)."));
    }
  if (!(run->gmon_input & INPUT_HISTOGRAM) || (run->gmon_input & INPUT_CALL_GRAPH))
    return;
  if (exe->instrumented == INSTR_NO)
    {
      problem (f, _("There is no call-graph data: the program was linked with -pg, but its code was compiled without it."));
      say (_("No function of the executable calls the profiling routine (mcount), so no call was counted; only the sampling, which the -pg link sets up, ran.  The flat profile's times are right, but it has no calls column and there is no call graph."));
      advice (_("compile every source file with -pg too, not just the link (gcc -pg -c file.c)."));
    }
  else if (exe->instrumented == INSTR_UNKNOWN)
    {
      problem (f, _("There is no call-graph data."));
      say (_("libgmon is linked into the executable statically, profiling routine and all, so its symbols cannot tell whether the code was compiled with -pg.  Either it was not, or no call from one profiled function to another was recorded."));
      advice (_("compile every source file with -pg, not just the link; compile with -fno-inline to see calls that optimisation removes."));
    }
  else
    {
      problem (f, _("There is no call-graph data, although the code was compiled with -pg."));
      say (_("Only calls from one profiled function to another are recorded.  The program made none: its functions may have been inlined into main (optimisation), and main's own call comes from the C library, outside the profiled code.  Or the calls were lost by the runtime."));
      advice (_("compile with -fno-inline (or less optimisation) to see the calls, and check the runtime's messages on standard error."));
    }
}

/* Most samples first (pointers into Facts.mod_samples; equal ones
   stay in module order).  */
static int
cmp_module (const void *a, const void *b, void *ctx)
{
  const double *l = a, *r = b;

  (void) ctx;
  if (*l != *r)
    return *l < *r ? 1 : -1;
  return 0;
}

enum { MODULES_SHOWN = 5 };

/* Where the time went, module by module, from the modules file beside
   the profile; and, when most of it is outside the program and the
   report leaves it out, that --whole-process shows it.  */
static void
check_modules (const Run *run, Facts *f)
{
  const Modules *m = f->mods;
  double total = f->mod_samples ? f->mod_samples[0] + f->elsewhere : 0;
  double **order;

  if (!m || total <= 0)
    return;
  heading (_("Time by module"));
  say (_("libgmon recorded the samples taken in every module of the process (%s): of %.0f samples, %.1f%% fell in the program's own code, %.1f%% in %lu other modules."),
       m->filename, total, 100.0 * f->mod_samples[0] / total,
       100.0 * f->elsewhere / total, (unsigned long) (m->n - 1));
  order = gp_reallocarray (NULL, m->n, sizeof *order);
  for (size_t i = 0; i < m->n; i++)
    order[i] = &f->mod_samples[i];
  sort_stable_ptrs ((void **) order, m->n, cmp_module, NULL);
  for (size_t k = 0; k < m->n && k < MODULES_SHOWN && *order[k] > 0; k++)
    {
      size_t i = (size_t) (order[k] - f->mod_samples);

      out_printf ("    %10.0f  %5.1f%%  %s\n", *order[k], 100.0 * *order[k] / total,
                  i == 0 ? path_basename (run->opt.image) : m->mod[i].name);
    }
  say (_("(samples, share of all, module.)"));
  free (order);
  if (most_elsewhere (run, f))
    {
      problem (f, _("Most of the time, %.1f%%, went outside the program's own code, into shared libraries or plugins that this report leaves out."),
               100.0 * f->elsewhere / total);
      say (_("The flat profile and the call graph cover the executable alone: a thin or empty histogram here says where the time did not go, not that the run was too short."));
      advice (_("run gprof --whole-process to see every module's functions, their time and their calls."));
    }
}

/* SYM's samples less the PLT's that are charged to it.  */
static double
own_samples (const Facts *f, const Sym *sym)
{
  double t = sym->hist_time;

  for (size_t p = 0; p < f->nplt; p++)
    if (f->plt[p].charged == sym)
      t -= f->plt[p].samples;
  return t;
}

/* Samples in the PLT: charged to the symbol before it (_init), they
   look like a function that runs long and is never called.  */
static void
check_plt (const Run *run, Facts *f)
{
  double plt = 0.0;
  const Sym *charged = NULL;
  char *where = NULL, *name;

  for (size_t p = 0; p < f->nplt; p++)
    if (f->plt[p].samples > 0.0)
      {
        append (&where, ", ", f->plt[p].name);
        plt += f->plt[p].samples;
        if (!charged)
          charged = f->plt[p].charged;
      }
  /* Below half a sample, a bin shared with the code beside the PLT.  */
  if (plt < 0.5)
    {
      free (where);
      return;
    }
  name = charged ? shown_name (run, charged) : NULL;
  if (plt < OUTSIDE_SHARE * f->samples)
    {
      heading (_("Samples in the PLT"));
      say (ngettext ("%.0f sample (%.2f%% of all) fell in the PLT (%s), the stubs through which the program calls shared libraries: too few to matter.",
                     "%.0f samples (%.2f%% of all) fell in the PLT (%s), the stubs through which the program calls shared libraries: too few to matter.",
                     plural (plt)),
           plt, 100.0 * plt / f->samples, where);
      if (name)
        say (_("gprof credits them to %s, the symbol before the PLT."), name);
      free (name);
      free (where);
      return;
    }
  if (name)
    problem (f, ngettext ("%.0f sample, %.1f%% of all, fell in the PLT (%s), and gprof credits it to %s.",
                          "%.0f samples, %.1f%% of all, fell in the PLT (%s), and gprof credits them to %s.",
                          plural (plt)),
             plt, 100.0 * plt / f->samples, where, name);
  else
    problem (f, ngettext ("%.0f sample, %.1f%% of all, fell in the PLT (%s), outside every function.",
                          "%.0f samples, %.1f%% of all, fell in the PLT (%s), outside every function.",
                          plural (plt)),
             plt, 100.0 * plt / f->samples, where);
  say (_("The PLT holds the stubs through which a dynamically linked program calls the functions of shared libraries (printf, malloc and the like).  It has no function symbols of its own, so gprof credits its samples to the symbol before it."));
  if (name)
    say (_("%s did not run that long, and it is not a function compiled without -pg: these samples are time spent in the stubs, on the way into the libraries."),
         name);
  say (_("The time spent inside the shared libraries is not in the profile at all: the histogram covers the executable's own code only.  Many samples in the PLT mean many calls into the libraries, and probably much more time inside them."));
  if (f->mods && !run->opt.whole_process)
    advice (_("read these samples as time in calls to shared libraries; gprof --whole-process shows the time inside the libraries too, from the modules file libgmon wrote beside the profile."));
  else if (!f->mods)
    advice (_("read these samples as time in calls to shared libraries.  To measure the libraries' own time, link the program statically (gcc -pg -static), which puts their code into the executable, where it is sampled (but its calls are not counted, as the libraries are not compiled with -pg): neither glibc's runtime nor libgmon profiles shared libraries.  Or make fewer library calls where the program is busiest."));
  free (name);
  free (where);
}

/* A function with samples of its own but no calls: main and the PLT's
   samples aside.  */
static bool
is_idle (const Run *run, const Facts *f, const Sym *sym)
{
  return sym->is_func && sym->ncalls == 0 && !is_main (run, sym)
         && own_samples (f, sym) >= 0.5;
}

static void
check_idle_functions (const Run *run, Facts *f, const Sym **by_time, size_t n)
{
  size_t shown = 0;

  if (!(run->gmon_input & INPUT_CALL_GRAPH))
    return;
  for (size_t i = 0; i < n; i++)
    if (is_idle (run, f, by_time[i]))
      f->idle_funcs++;
  if (f->idle_funcs == 0)
    return;
  problem (f, ngettext ("%lu function has samples but no recorded calls.",
                        "%lu functions have samples but no recorded calls.",
                        f->idle_funcs),
           f->idle_funcs);
  for (size_t i = 0; i < n && shown < LIST_MAX; i++)
    if (is_idle (run, f, by_time[i]))
      {
        out_printf ("    %10.0f  ", own_samples (f, by_time[i]));
        print_name_only (&run->names, by_time[i]);
        out_char ('\n');
        shown++;
      }
  say (_("(samples, then the function; main is left out, as it is always called from outside.)  A function shows no calls when it was compiled without -pg (code from a library linked statically, or a file built without the option), or when it is only called from outside the profiled code: thread start routines, signal handlers, callbacks that a library calls (a qsort comparison, say).  Its own time in the flat profile is right, but the call graph cannot say who called it or pass its time on to them."));
  advice (_("compile these functions with -pg if their callers matter; for thread routines and callbacks nothing is missing but the caller."));
}

/* A threaded program under glibc's runtime, which loses calls.  */
static void
check_threads (const Run *run, Facts *f)
{
  const Exe *exe = &f->exe;

  if (!exe->thread_start || exe->libgmon || !exe->glibc_runtime
      || guess_runtime (run, f) != RUNTIME_GLIBC_RATE)
    return;
  f->threads_glibc = true;
  problem (f, _("The program can run threads (it calls %s), and the profile looks written by glibc's runtime, which loses calls when threads run at once."),
           exe->thread_start);
  say (_("glibc's -pg runtime counts calls in one table for the whole process, and skips every call that comes while another thread is counting one: with several busy threads, half of the calls or more can be missing, without notice, and which ones depends on timing.  The call counts are then too low, and the call graph, which shares each function's time out among its callers by their calls, is skewed with them."));
  say (_("The samples are sound: one process-wide timer samples whichever thread is running, so every thread's time in the program's own code is in the flat profile, though nothing tells the threads apart.  Thread start routines have samples but no calls, as the thread library calls them."));
  advice (_("profile with libgmon, which counts each thread's calls in a table of its own and loses none: link with it (gcc -pg -o prog *.c -lgmon), or run the program as it is with LD_PRELOAD=libgmon.so."));
}

/* SYM's name as -k and the other options that name symbols take it.  */
static const char *
spec_name (const Run *run, const Sym *sym)
{
  const char *name = sym->name;

  if (run->core->leading_char && name[0] == run->core->leading_char)
    name++;
  return name;
}

/* The place of SYM's share unit in count_callers: its own, or its
   cycle's.  */
static size_t
unit_index (const Run *run, const Sym *sym)
{
  return sym->cyc_num ? run->symtab.len + (size_t) sym->cyc_num - 1
                      : (size_t) (sym - run->symtab.base);
}

/* How to get the call graph's times measured instead of shared by
   calls: libgmon's call stacks, and why this profile has none (or none
   that reach far enough).  */
static void
stacks_advice (const Run *run, const Facts *f)
{
  const CallStacks *cs = &run->stacks;
  Runtime rt = guess_runtime (run, f);

  if (cs->files > 0 && cs->cut > 0)
    advice (_("the call stacks beside the profile were cut at %u frames in %llu samples, and these calls lie beyond: run again with a larger LIBGMON_STACKS (at most 128), then use gprof --measured-time."),
            cs->depth, (unsigned long long) cs->cut);
  else if (cs->files > 0)
    advice (_("the call stacks beside the profile hold none of these calls' samples: the code they ran kept no frame pointer to follow.  Compile it with -fno-omit-frame-pointer, run again, and use gprof --measured-time."));
  else if (rt == RUNTIME_LIBGMON || rt == RUNTIME_LIBGMON_RATE)
    advice (_("libgmon records the call stack of every sample in a file beside the profile (gmon.out.stacks), but none was found: keep that file with the profile, and do not set LIBGMON_STACKS=0.  gprof --measured-time then prints the call graph with measured times, and the exports use the real stacks."));
  else
    advice (_("profile with libgmon (link with -lgmon, or run with LD_PRELOAD=libgmon.so), which records the call stack of every sample beside the profile.  gprof --measured-time then prints the call graph with measured times, and the exports use the real stacks."));
}

/* Cycles that hold most of the time: the call graph shares their time
   out by a rule that is most likely wrong there.  */
static void
check_cycles (const Run *run, Facts *f)
{
  const CallGraph *cg = &run->cg;

  if (!(run->gmon_input & INPUT_CALL_GRAPH) || cg->print_time <= 0.0)
    return;
  for (int c = 0; c < cg->ncycles; c++)
    {
      const Sym *cyc = &cg->cycles[c];
      double share = (cyc->prop_self + cyc->prop_child) / cg->print_time;
      const Arc *weakest = NULL;
      char *list = NULL, *from, *to;
      Sym **members;
      size_t n;

      if (share <= CYCLE_SHARE)
        continue;
      members = cg_members (cg, cyc, &n);
      for (size_t i = 0; i < n; i++)
        {
          char *name = shown_name (run, members[i]);

          for (uint32_t k = 0; k < members[i]->nchildren; k++)
            {
              const Arc *a = cg_child (cg, members[i], k);

              if (a->kind == ARC_IN_CYCLE
                  && (!weakest || a->count < weakest->count))
                weakest = a;
            }
          if (i < LIST_MAX)
            append (&list, ", ", name);
          free (name);
        }
      /* A cycle is a loop of calls between its members.  */
      gp_assert (weakest && list);
      problem (f, ngettext ("Cycle %d (%lu function that call each other in a loop) takes %.0f%% of the time.",
                            "Cycle %d (%lu functions that call each other in a loop) takes %.0f%% of the time.",
                            (unsigned long) n),
               cyc->cyc_num, (unsigned long) n, 100.0 * share);
      if (n > LIST_MAX)
        say (ngettext ("Its members: %s and %lu more.",
                       "Its members: %s and %lu more.",
                       (unsigned long) (n - LIST_MAX)),
             list, (unsigned long) (n - LIST_MAX));
      else
        say (_("Its members: %s."), list);
      say (_("Within a cycle gprof cannot tell which call led to how much time, so it treats the cycle as one function, <cycle %d as a whole> in the call graph.  Calls between its members pass no time on: a member's children time leaves out all it calls within the cycle.  And the cycle's total time is shared out among its callers outside it in proportion to their calls into it, as if every call took equally long.  For these functions and their callers, the call graph's times are unreliable, however long the run."),
           cyc->cyc_num);
      if (run->stacks.files > 0)
        say (_("The call stacks beside the profile measure how the cycle's time divides among its callers: gprof --measured-time prints the call graph with those times, and the flame graph exports (--export=folded, speedscope, html) show the real stacks within the cycle."));
      from = shown_name (run, weakest->parent);
      to = shown_name (run, weakest->child);
      advice (_("trust the flat profile for these functions: each one's self time is measured, and so is the cycle's total in the call graph.  To see how the time divides, break the loop: in the program, or in the analysis with gprof's -k CALLER/CALLEE, which leaves one arc and its calls out.  In this cycle the arc with the fewest calls is %s -> %s (%lu calls): -k %s/%s.  If it was the only way around the loop, the cycle is gone, at the price of those calls."),
              from, to, weakest->count, spec_name (run, weakest->parent),
              spec_name (run, weakest->child));
      if (run->stacks.files == 0)
        stacks_advice (run, f);
      free (from);
      free (to);
      free (list);
    }
}

/* How many arcs from outside share each function's or cycle's time: a
   function's at [i], cycle N's at [symtab.len + N - 1].  */
static uint32_t *
count_callers (const Run *run)
{
  const CallGraph *cg = &run->cg;
  uint32_t *callers = gp_calloc (run->symtab.len + (size_t) cg->ncycles + 1,
                                 sizeof *callers);

  for (size_t k = 0; k < cg->narcs; k++)
    if (cg->arcs[k].kind == ARC_NORMAL)
      callers[unit_index (run, cg->arcs[k].child)]++;
  return callers;
}

/* The arc with the most time that gprof's rule alone gave it: its callee
   has other callers, among which the callee's time was shared by calls,
   and no call stack measured it.  When it holds most of the time, the
   call graph's picture of the program rests on a guess.  */
static void
check_shared_arcs (const Run *run, Facts *f)
{
  const CallGraph *cg = &run->cg;
  const Arc *worst = NULL;
  double worst_time = 0.0;
  uint32_t *callers;
  const Sym *unit;
  char *from, *to;

  if (!(run->gmon_input & INPUT_CALL_GRAPH) || cg->print_time <= 0.0)
    return;
  callers = count_callers (run);
  for (size_t k = 0; k < cg->narcs; k++)
    {
      const Arc *a = &cg->arcs[k];
      double t = cg->arc_time[k].self + cg->arc_time[k].children;

      if (a->kind == ARC_NORMAL && !a->measured
          && callers[unit_index (run, a->child)] > 1
          && (!worst || t > worst_time))
        {
          worst = a;
          worst_time = t;
        }
    }
  free (callers);
  if (!worst || worst_time <= ARC_SHARE * cg->print_time)
    return;
  unit = worst->child->cyc_head;
  from = shown_name (run, worst->parent);
  to = shown_name (run, worst->child);
  problem (f, _("The call graph gives %.0f%% of the time to the calls from %s to %s, by gprof's rule alone."),
           100.0 * worst_time / cg->print_time,
           from, to);
  say (_("%s%s has other callers too.  gprof shares its time (%.0f%% of the total, with what it calls) among them in proportion to their calls, %lu of %lu from %s, as if every call took equally long.  No measurement backs that share: if %s's calls are cheaper or dearer than the others', the call graph points to the wrong place."),
       to, unit != worst->child ? _(" (with its cycle)") : "",
       100.0 * (unit->prop_self + unit->prop_child) / cg->print_time,
       worst->count, unit->ncalls,
       from, from);
  stacks_advice (run, f);
  free (from);
  free (to);
}

/* Signs that the profile was written by another program or build.  */
static void
check_belongs (const Run *run, Facts *f)
{
  const Histograms *h = &run->hist;
  const Scan *sc = &f->scan;
  vma_t highpc = 0;
  bool end_off, far;

  for (size_t i = 0; i < h->n; i++)
    if (h->rec[i].highpc > highpc)
      highpc = h->rec[i].highpc;
  end_off = h->n > 0 && f->exe.has_code_end
            && (highpc < f->exe.code_end
                || highpc >= f->exe.code_end + CODE_END_SLACK);
  /* Most callee addresses far from the start of their function.  */
  far = sc->arcs > sc->arcs_unmatched
        && sc->arcs_far * 2 > sc->arcs - sc->arcs_unmatched;
  if (!f->hist_disjoint && !end_off && sc->arcs_unmatched == 0 && !far)
    return;
  problem (f, _("The profile does not seem to belong to this executable."));
  if (f->hist_disjoint)
    say (_("The histogram covers addresses 0x%llx to 0x%llx, where the executable has no function at all: none of its samples can be credited."),
         (unsigned long long) h->rec[0].lowpc,
         (unsigned long long) highpc);
  else if (end_off)
    say (_("The histogram ends at 0x%llx, but this executable's code ends at 0x%llx: the runtime sizes the histogram from the code of the program it ran in."),
         (unsigned long long) highpc, (unsigned long long) f->exe.code_end);
  if (sc->arcs_unmatched)
    say (ngettext ("%lu of %lu arc records (%llu calls) names an address where the executable has no function: gprof drops such an arc, or charges it to the last symbol when the address lies past the code.",
                   "%lu of %lu arc records (%llu calls) name addresses where the executable has no function: gprof drops such arcs, or charges them to the last symbol when the address lies past the code.",
                   sc->arcs_unmatched),
         sc->arcs_unmatched, sc->arcs, (unsigned long long) sc->calls_unmatched);
  if (far)
    say (_("%lu of %lu arcs lead to addresses deep inside functions, where -pg code never calls the profiling routine (it does so in the first bytes of a function)."),
         sc->arcs_far, sc->arcs - sc->arcs_unmatched);
  say (_("A profile is only meaningful with the executable that wrote it: after a rebuild the addresses in gmon.out point at other code, and the report credits time and calls to the wrong functions."));
  advice (_("run the current executable again for a new profile, or analyse the profile with the executable it came from."));
}

static void
check_bins (const Run *run, Facts *f)
{
  const Scan *sc = &f->scan;

  if (sc->bins_at_limit)
    {
      problem (f, ngettext ("%lu histogram bin holds 65535 samples, the most a bin can hold.",
                            "%lu histogram bins hold 65535 samples, the most a bin can hold.",
                            sc->bins_at_limit),
               sc->bins_at_limit);
      say (_("A runtime that stops counting there (libgmon does, writing the BSD format, and says so on standard error) loses every sample beyond it: the code in those bins ran longer than the profile shows."));
      advice (_("use the GNU format, in which libgmon splits large counts over several records (LIBGMON_FORMAT=gnu, the default), or profile shorter runs and give all their files to gprof at once."));
    }
  else if (sc->bins_near_limit && guess_runtime (run, f) != RUNTIME_LIBGMON)
    {
      problem (f, ngettext ("%lu histogram bin holds more than half of the 65535 samples a bin can hold.",
                            "%lu histogram bins hold more than half of the 65535 samples a bin can hold.",
                            sc->bins_near_limit),
               sc->bins_near_limit);
      say (_("glibc's runtime does not stop at 65535: a bin that passes it starts again from 0, without notice.  With counts this high, other bins may have done so, and then show 65536 samples (%g seconds) less each time."),
           run->hist.hz > 0 ? 65536.0 / run->hist.hz : 0.0);
      advice (_("profile shorter runs and give all their files to gprof at once, or use libgmon, which splits large counts over several records."));
    }
}

/* Threads, and the limits of what any profile can say.  */
static void
print_limits (const Run *run, const Facts *f)
{
  Runtime rt = guess_runtime (run, f);

  heading (_("What the profile cannot tell"));
  point (_("Threads: the profile file has no record of threads.  It cannot show how many ran, which of them a sample or a call came from, or whether any of them lost samples or calls."));
  if (rt == RUNTIME_LIBGMON || rt == RUNTIME_LIBGMON_RATE)
    point (_("This profile looks written by libgmon (%s).  libgmon counts each thread's calls in a table of its own, so none are lost to other threads, and samples each thread on its own CPU clock.  A thread that never calls profiled code is not sampled, and a thread whose sampling timer could not be set up has no samples: libgmon then says so in its line on standard error at exit (\"sampling timers could not be set up\", \"LOST\" for calls).  LIBGMON_VERBOSE=1 prints that line every time."),
           rt == RUNTIME_LIBGMON
           ? _("the executable is linked with it, or the histogram is split as only libgmon writes it")
           : _("1000 samples a second is its default rate"));
  else if (rt == RUNTIME_GLIBC_RATE)
    {
      /* A threaded program was told already.  */
      if (!f->threads_glibc)
        point (_("This profile looks written by glibc's runtime (100 samples a second).  If the program ran several threads: one process-wide timer samples whichever thread is running, so all threads' time is there, but a call made while another thread is being counted is dropped.  With several busy threads half of the calls or more can be missing from the counts and the call graph, and nothing in the file shows it.  libgmon counts every call of every thread (link with -lgmon, or preload libgmon.so)."));
    }
  else
    point (_("Which runtime wrote the profile cannot be told from it.  With glibc's runtime, calls made by several threads at once are partly lost; libgmon counts them all and reports on standard error at exit what it could not record."));
  if (f->idle_funcs)
    point (_("If the program ran threads, their start routines are among the functions listed above with samples but no calls: the thread library calls them from outside the profiled code."));
  if (run->stacks.files > 0)
    point (_("Time in the call graph: the call stacks beside the profile cover %.0f of its %.0f samples, and measure how a function's time divides among its callers.  gprof --measured-time prints the call graph with those times, and the exports use them; without the option, the text call graph shares that time in proportion to calls, as GNU gprof does."),
           run->stacks.report.stacked, run->hist.total_time);
  else
    point (_("Time in the call graph: only a function's own (self) time is measured.  The time of its children is shared out to its callers in proportion to their calls, as if every call took equally long; when some callers make the expensive calls, those figures are wrong."));
  point (_("Time outside the program: the histogram covers the executable's own code only.  Time in shared libraries, in the kernel and spent waiting does not appear anywhere."));
}

void
diagnose_inputs (Run *run)
{
  Facts f = { 0 };
  bool stripped = run->core->nsyms_canonical == 0
                  && !run->opt.external_symbol_table;
  unsigned long nmissing;
  char *missing = missing_profiles (&run->opt, &nmissing);

  if (!stripped && !missing)
    return;
  examine_exe (run->core, &f.exe);
  print_title (run);
  heading (_("Findings"));
  if (missing)
    check_missing (run, &f, missing, nmissing, stripped);
  if (stripped)
    check_stripped (run, &f);
  free (missing);
  stop (&f);
}

void
diagnose_watch (Run *run)
{
  Diagnosis *d = gp_calloc (1, sizeof *d);
  Scan *sc = &d->facts.scan;

  examine_exe (run->core, &d->facts.exe);
  sc->run = run;
  sc->code_end = d->facts.exe.has_code_end ? d->facts.exe.code_end : 0;
  d->run = run;
  d->watch.ctx = d;
  d->watch.hist = watch_hist;
  d->watch.hist_header = watch_hist_header;
  d->watch.arc = watch_arc;
  d->watch.file_end = watch_file_end;
  run->watch = &d->watch;
}

void
diagnose_print (Run *run)
{
  Diagnosis *d = (Diagnosis *) run->watch;
  Facts f = d->facts;
  size_t n;
  const Sym **by_time;

  count_marks (&f.scan);
  find_plt (run, &f);
  count_samples (run, &f);
  count_module_samples (run, &f);
  by_time = sampled_functions (run, &n);

  print_title (run);
  print_data (run, &f);
  if (run->gmon_input & INPUT_HISTOGRAM)
    print_precision (run, &f, by_time, n);

  heading (_("Findings"));
  check_length (run, &f, by_time, n);
  check_modules (run, &f);
  check_outside (&f);
  check_plt (run, &f);
  check_call_graph (run, &f);
  check_idle_functions (run, &f, by_time, n);
  check_threads (run, &f);
  check_cycles (run, &f);
  check_shared_arcs (run, &f);
  check_belongs (run, &f);
  check_bins (run, &f);
  if (f.problems == 0)
    say (_("None: the data has none of the problems this diagnosis looks for."));

  print_limits (run, &f);
  print_summary (&f);
  if (f.mods != run->modules)
    modules_free ((Modules *) f.mods);
  free (f.mod_samples);
  free (by_time);
  run->watch = NULL;
  free (d);
}
