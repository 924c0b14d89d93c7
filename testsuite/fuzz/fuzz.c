/* fuzz.c - the harness the libFuzzer targets share: gprof's stages run
   as main runs them, a way back from exit(), and the release of whatever
   a run left allocated or open (see fuzz.h).  */

/* gprof.c's stages are static: take them in whole, its main renamed so
   that it does not clash with libFuzzer's.  */
int gprof_main (int argc, char **argv);
#define main gprof_main
#include "gprof.c"
#include "modules.h"
#undef main

#include <ctype.h>
#include <dirent.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <gelf.h>
#include <getopt.h>
#include <limits.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "fuzz.h"
#include "pipeline/par.h"
#include "pipeline/pipeline.h"
#include "support/outfile.h"

/* ---- the way back from exit() ---------------------------------------- */

void __real_exit (int status) __attribute__ ((noreturn));
void __wrap_exit (int status) __attribute__ ((noreturn));

static jmp_buf back;
static bool in_run;
static volatile int run_status;

/* A run's exit: what atexit would do for a file being written (a run
   of ours never reaches the end of the process), then back to the
   harness.  */
void
__wrap_exit (int status)
{
  if (!in_run)
    __real_exit (status);
  outfile_abort ();
  run_status = status;
  longjmp (back, 1);
}

/* ---- what a run allocates and opens --------------------------------- */

/* Every block allocated during a run, in an open-addressing hash set, so
   that the blocks a run left behind when it exited can be freed.  */
static void **blocks;
static size_t blocks_cap, nblocks;
static bool tracking;

void *__real_malloc (size_t n);
void *__real_calloc (size_t n, size_t size);
void *__real_realloc (void *p, size_t n);
void __real_free (void *p);
char *__real_strdup (const char *s);
char *__real_strndup (const char *s, size_t n);
void *__wrap_malloc (size_t n);
void *__wrap_calloc (size_t n, size_t size);
void *__wrap_realloc (void *p, size_t n);
void __wrap_free (void *p);
char *__wrap_strdup (const char *s);
char *__wrap_strndup (const char *s, size_t n);

static size_t
slot_of (const void *p)
{
  uintptr_t h = (uintptr_t) p;

  h ^= h >> 17;
  h *= 0x9e3779b97f4a7c15u;
  return (size_t) (h >> 20) & (blocks_cap - 1);
}

static void track (void *p);

static void
grow_blocks (void)
{
  void **old = blocks;
  size_t old_cap = blocks_cap;

  blocks_cap = blocks_cap ? 2 * blocks_cap : 1024;
  blocks = __real_calloc (blocks_cap, sizeof *blocks);
  if (!blocks)
    abort ();
  nblocks = 0;
  for (size_t i = 0; i < old_cap; i++)
    if (old[i])
      track (old[i]);
  __real_free (old);
}

static void
track (void *p)
{
  size_t i;

  if (!p)
    return;
  if (2 * (nblocks + 1) > blocks_cap)
    grow_blocks ();
  for (i = slot_of (p); blocks[i]; i = (i + 1) & (blocks_cap - 1))
    ;
  blocks[i] = p;
  nblocks++;
}

/* Remove P if it is there (linear probing: move the followers back).  */
static void
untrack (void *p)
{
  size_t i, j;

  if (!p || nblocks == 0)
    return;
  for (i = slot_of (p); blocks[i] != p; i = (i + 1) & (blocks_cap - 1))
    if (!blocks[i])
      return;
  blocks[i] = NULL;
  nblocks--;
  for (j = (i + 1) & (blocks_cap - 1); blocks[j]; j = (j + 1) & (blocks_cap - 1))
    {
      void *q = blocks[j];
      size_t home = slot_of (q);

      /* Q may move into the hole at I unless its home lies in (I, J].  */
      if ((j > i && (home <= i || home > j)) || (j < i && home <= i && home > j))
        {
          blocks[i] = q;
          blocks[j] = NULL;
          i = j;
        }
    }
}

void *
__wrap_malloc (size_t n)
{
  void *p = __real_malloc (n);

  if (tracking)
    track (p);
  return p;
}

void *
__wrap_calloc (size_t n, size_t size)
{
  void *p = __real_calloc (n, size);

  if (tracking)
    track (p);
  return p;
}

void *
__wrap_realloc (void *p, size_t n)
{
  void *q = __real_realloc (p, n);

  if (q || n == 0)
    untrack (p);
  if (tracking)
    track (q);
  return q;
}

void
__wrap_free (void *p)
{
  untrack (p);
  __real_free (p);
}

char *
__wrap_strdup (const char *s)
{
  char *p = __real_strdup (s);

  if (tracking)
    track (p);
  return p;
}

char *
__wrap_strndup (const char *s, size_t n)
{
  char *p = __real_strndup (s, n);

  if (tracking)
    track (p);
  return p;
}

/* Streams, BFDs, libelf and libdw handles opened during a run.  libdw
   and libelf allocate inside their shared libraries, where the
   allocation wrappers do not reach: only their own end frees it.  */
enum { MAX_OPEN = 64 };
static FILE *files[MAX_OPEN];
static bfd *bfds[MAX_OPEN];
static Elf *elfs[MAX_OPEN];
static Dwarf *dwarfs[MAX_OPEN];

FILE *__real_fopen (const char *name, const char *mode);
FILE *__real_fdopen (int fd, const char *mode);
int __real_fclose (FILE *f);
bfd *__real_bfd_openr (const char *name, const char *target);
bfd_boolean __real_bfd_close (bfd *abfd);
FILE *__wrap_fopen (const char *name, const char *mode);
FILE *__wrap_fdopen (int fd, const char *mode);
int __wrap_fclose (FILE *f);
bfd *__wrap_bfd_openr (const char *name, const char *target);
bfd_boolean __wrap_bfd_close (bfd *abfd);
Elf *__real_elf_begin (int fd, Elf_Cmd cmd, Elf *ref);
int __real_elf_end (Elf *elf);
Elf *__wrap_elf_begin (int fd, Elf_Cmd cmd, Elf *ref);
int __wrap_elf_end (Elf *elf);
Dwarf *__real_dwarf_begin_elf (Elf *elf, Dwarf_Cmd cmd, Elf_Scn *scngrp);
int __real_dwarf_end (Dwarf *dwarf);
Dwarf *__wrap_dwarf_begin_elf (Elf *elf, Dwarf_Cmd cmd, Elf_Scn *scngrp);
int __wrap_dwarf_end (Dwarf *dwarf);

static void
remember (void **set, void *p)
{
  if (!p || !tracking)
    return;
  for (int i = 0; i < MAX_OPEN; i++)
    if (!set[i])
      {
        set[i] = p;
        return;
      }
}

static void
forget (void **set, void *p)
{
  for (int i = 0; i < MAX_OPEN; i++)
    if (set[i] == p)
      set[i] = NULL;
}

FILE *
__wrap_fopen (const char *name, const char *mode)
{
  FILE *f = __real_fopen (name, mode);

  remember ((void **) files, f);
  return f;
}

FILE *
__wrap_fdopen (int fd, const char *mode)
{
  FILE *f = __real_fdopen (fd, mode);

  remember ((void **) files, f);
  return f;
}

int
__wrap_fclose (FILE *f)
{
  forget ((void **) files, f);
  return __real_fclose (f);
}

bfd *
__wrap_bfd_openr (const char *name, const char *target)
{
  bfd *abfd = __real_bfd_openr (name, target);

  remember ((void **) bfds, abfd);
  return abfd;
}

bfd_boolean
__wrap_bfd_close (bfd *abfd)
{
  forget ((void **) bfds, abfd);
  return __real_bfd_close (abfd);
}

Elf *
__wrap_elf_begin (int fd, Elf_Cmd cmd, Elf *ref)
{
  Elf *elf = __real_elf_begin (fd, cmd, ref);

  remember ((void **) elfs, elf);
  return elf;
}

int
__wrap_elf_end (Elf *elf)
{
  forget ((void **) elfs, elf);
  return __real_elf_end (elf);
}

Dwarf *
__wrap_dwarf_begin_elf (Elf *elf, Dwarf_Cmd cmd, Elf_Scn *scngrp)
{
  Dwarf *dwarf = __real_dwarf_begin_elf (elf, cmd, scngrp);

  remember ((void **) dwarfs, dwarf);
  return dwarf;
}

int
__wrap_dwarf_end (Dwarf *dwarf)
{
  forget ((void **) dwarfs, dwarf);
  return __real_dwarf_end (dwarf);
}

/* libbfd's DWARF reader keeps a few blocks of its line tables past
   bfd_close (when BFD answers for DWARF our own reader does not model):
   not ours to fix.  */
const char *__lsan_default_suppressions (void);

const char *
__lsan_default_suppressions (void)
{
  return "leak:libbfd\n";
}

/* The sanitizer's view of the heap: libbfd's DWARF reader builds splay
   trees with libiberty's xmalloc, which is ours (tracked), and frees them
   with the C library's free, which we do not see, when its BFD closes.  */
int __sanitizer_get_ownership (const volatile void *p) __attribute__ ((weak));

static bool
still_allocated (const void *p)
{
  return !__sanitizer_get_ownership || __sanitizer_get_ownership (p);
}

/* Close and free what the run left.  */
static void
release_run (void)
{
  tracking = false;
  /* A Dwarf reads its Elf's data: ended first.  */
  for (int i = 0; i < MAX_OPEN; i++)
    if (dwarfs[i])
      __wrap_dwarf_end (dwarfs[i]);
  for (int i = 0; i < MAX_OPEN; i++)
    {
      if (elfs[i])
        __wrap_elf_end (elfs[i]);
      if (bfds[i])
        __wrap_bfd_close (bfds[i]);
      if (files[i])
        __wrap_fclose (files[i]);
    }
  for (size_t i = 0; i < blocks_cap; i++)
    if (blocks[i])
      {
        if (still_allocated (blocks[i]))
          __real_free (blocks[i]);
        blocks[i] = NULL;
      }
  nblocks = 0;
  /* One big run must not make every later release sweep a big table.  */
  if (blocks_cap > 4096)
    {
      __real_free (blocks);
      blocks = NULL;
      blocks_cap = 0;
    }
}

/* ---- running gprof ----------------------------------------------------- */

static FILE *quiet;       /* stderr during a run, unless FUZZ_VERBOSE */

/* The fixture directory, absolute: runs happen in another directory.  */
static char *fixtures;

/* -y writes NAME-ann files, -s gmon.sum, both into the current
   directory, and a relative source name of the DWARF is opened from
   there: each run happens in a scratch directory of its own, emptied
   after the run, and the process goes back to where it was between
   runs, where libFuzzer reads and writes its corpus.  */
static int home_fd = -1, scratch_fd = -1;
static char scratch[PATH_MAX];

static void
remove_scratch (void)
{
  if (scratch[0])
    rmdir (scratch);
}

/* Remove whatever a run left in the scratch directory.  */
static void
empty_scratch (void)
{
  int fd = dup (scratch_fd);
  DIR *d = fd >= 0 ? fdopendir (fd) : NULL;
  struct dirent *e;

  if (!d)
    abort ();
  while ((e = readdir (d)))
    if (strcmp (e->d_name, ".") != 0 && strcmp (e->d_name, "..") != 0
        && unlinkat (scratch_fd, e->d_name, 0) != 0)
      abort ();
  closedir (d);
  /* The copy shares its offset with scratch_fd: rewound for the next.  */
  lseek (scratch_fd, 0, SEEK_SET);
}

static void
init_once (void)
{
  static bool done;
  const char *dir, *tmp;
  int null;

  if (done)
    return;
  done = true;
  whoami = "gprof";
  xmalloc_set_program_name (whoami);
  /* One thread: a run leaves by longjmp from exit() and has its blocks
     tracked in a set without a lock, so a second thread (gp_task_start
     and the printers start them) would outlive its run or race on the
     set.  With GPROF_THREADS=1 their work runs in line.  */
  setenv ("GPROF_THREADS", "1", 1);
  /* Reports go to file descriptor 1; libFuzzer writes to 2.  */
  null = open ("/dev/null", O_WRONLY);
  if (null < 0 || dup2 (null, STDOUT_FILENO) < 0)
    abort ();
  close (null);
  if (!getenv ("FUZZ_VERBOSE"))
    quiet = __real_fopen ("/dev/null", "w");
  dir = getenv ("FUZZ_FIXTURES");
  if (dir)
    {
      fixtures = realpath (dir, NULL);
      if (!fixtures)
        {
          perror (dir);
          abort ();
        }
      /* -A finds the source of the DWARF seeds (dwarf_seed.c, copied
         there) by the last part of its name, whatever its directory:
         the search path of every run, before any -I.  */
      setenv ("GPROF_PATH", fixtures, 1);
    }
  tmp = getenv ("TMPDIR");
  snprintf (scratch, sizeof scratch, "%s/gprof-fuzz.XXXXXX",
            tmp && *tmp ? tmp : "/tmp");
  home_fd = open (".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (!mkdtemp (scratch) || home_fd < 0
      || (scratch_fd = open (scratch, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
    {
      perror ("fuzz: scratch directory");
      abort ();
    }
  atexit (remove_scratch);
}

/* Runs change directory; libFuzzer writes the input of a crash, a
   time-out or a leak to -artifact_prefix (default: the current
   directory) when it happens, so a relative prefix would put it in the
   scratch directory, which nobody keeps.  libFuzzer lets this function
   change its arguments: relative prefixes and paths are made absolute.  */
int LLVMFuzzerInitialize (int *argc, char ***argv);

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  static const char *const path_flags[] = {
    "-artifact_prefix=", "-exact_artifact_path=", NULL
  };
  static char cwd[PATH_MAX];
  /* Kept: libFuzzer copies the arguments and drops the array, which
     LeakSanitizer would then report at exit.  */
  static char **args;
  bool has_prefix = false;
  int n = 0;

  if (!getcwd (cwd, sizeof cwd - 1))
    abort ();
  strcat (cwd, "/");
  args = __real_malloc ((size_t) (*argc + 2) * sizeof *args);
  if (!args)
    abort ();
  for (int i = 0; i < *argc; i++)
    {
      const char *a = (*argv)[i];
      const char *const *f;

      for (f = path_flags; *f; f++)
        if (strncmp (a, *f, strlen (*f)) == 0)
          break;
      if (i > 0 && *f)
        {
          const char *v = a + strlen (*f);

          if (f == path_flags)
            has_prefix = true;
          if (v[0] != '/')
            {
              char *abs = __real_malloc (strlen (a) + strlen (cwd) + 1);

              if (!abs)
                abort ();
              sprintf (abs, "%s%s%s", *f, cwd, v);
              a = abs;
            }
        }
      args[n++] = (char *) a;
    }
  if (!has_prefix)
    {
      char *abs = __real_malloc (strlen (path_flags[0]) + strlen (cwd) + 1);

      if (!abs)
        abort ();
      sprintf (abs, "%s%s", path_flags[0], cwd);
      args[n++] = abs;
    }
  args[n] = NULL;
  *argc = n;
  *argv = args;
  return 0;
}

/* ---- known findings, set aside on request ------------------------------ */

/* pipeline_symbols for a core kept across runs: it keeps its BFD and
   raw tables for the next run, and has its .text read already.  */
static void
read_kept_symbols (Run *run)
{
  const Options *opt = &run->opt;

  names_init (&run->names, opt, run->core->leading_char);
  if (opt->external_symbol_table)
    core_create_syms_from (run->core, opt->external_symbol_table, &run->symtab);
  else if (opt->line_granularity)
    core_create_line_syms (run->core, opt, &run->symtab, &run->files, false);
  else
    core_create_function_syms (run->core, opt, &run->symtab, &run->files);
  if (opt->whole_process)
    modules_load (run);
  sym_ids_build (&run->ids, opt, &run->symtab, &run->files,
                 core_text_last (run->core), run->core->leading_char);
}

int
fuzz_gprof (int argc, char **argv, Core *core, const char *profile,
            unsigned flags)
{
  static Run run;
  FILE *saved_stderr = stderr;
  /* A core kept across runs gets, during a run, pointers to blocks that
     release_run frees (the -S names, say): it leaves as it came.  */
  Core saved_core;

  if (core)
    saved_core = *core;

  init_once ();
  memset (&run, 0, sizeof run);
  optind = 0;             /* glibc's getopt starts afresh */
  run_status = 0;
  if (fchdir (scratch_fd) != 0)
    abort ();
  if (quiet)
    stderr = quiet;
  tracking = true;
  in_run = true;
  /* main's stages, in main's order.  */
  if (setjmp (back) == 0)
    {
      if (flags & FUZZ_EXPAND)
        expandargv (&argc, &argv);
      pipeline_start (&run, 1);
      run.first_output = true;
      hist_init (&run.hist);
      options_parse (&run.opt, argc, argv);
      /* -w 1000000000 asks for lines a gigabyte wide, and gets them, from
         GNU as from us: not a finding, only time lost.  */
      if (run.opt.output_width > 4096)
        exit (1);
      if (profile)
        {
          run.opt.profiles[0] = profile;
          run.opt.nprofiles = 1;
        }
      if (run.opt.export_format && !export_check_format (run.opt.export_format))
        exit (1);
      run.core = core;
      if (core)
        read_kept_symbols (&run);
      else
        pipeline_symbols (&run);
      pipeline_profiles (&run);
      pipeline_analyse (&run);
      pipeline_reports (&run);
    }
  in_run = false;
  out_flush ();
  release_run ();
  if (core)
    *core = saved_core;
  fflush (stderr);
  stderr = saved_stderr;
  if (fchdir (home_fd) != 0)
    abort ();
  empty_scratch ();
  return run_status;
}

/* ---- inputs ----------------------------------------------------------- */

const char *
fuzz_file (int slot, const uint8_t *data, size_t size)
{
  static int fd[4] = { -1, -1, -1, -1 };
  static char path[4][32];

  if (fd[slot] < 0)
    {
      fd[slot] = memfd_create ("fuzz", 0);
      if (fd[slot] < 0)
        abort ();
      snprintf (path[slot], sizeof path[slot], "/proc/self/fd/%d", fd[slot]);
    }
  if (ftruncate (fd[slot], 0) != 0
      || (size && pwrite (fd[slot], data, size, 0) != (ssize_t) size))
    abort ();
  return path[slot];
}

const char *
fuzz_scratch_file (int slot, const char *name, const uint8_t *data,
                   size_t size)
{
  static char path[4][PATH_MAX];
  int fd;

  init_once ();
  snprintf (path[slot], sizeof path[slot], "%s/%s", scratch, name);
  fd = open (path[slot], O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0 || (size && write (fd, data, size) != (ssize_t) size))
    abort ();
  close (fd);
  return path[slot];
}

const char *
fuzz_fixture (const char *name)
{
  char *path;

  init_once ();
  if (!fixtures)
    {
      fprintf (stderr, "FUZZ_FIXTURES must name a directory that "
               "testsuite/fuzz/fixtures.sh wrote\n");
      abort ();
    }
  path = __real_malloc (strlen (fixtures) + strlen (name) + 2);
  if (!path)
    abort ();
  sprintf (path, "%s/%s", fixtures, name);
  return path;
}

Core *
fuzz_image (const char *name)
{
  static struct { char name[32]; Core *core; } images[16];
  int i;

  init_once ();
  for (i = 0; i < 16 && images[i].core; i++)
    if (strcmp (images[i].name, name) == 0)
      return images[i].core;
  if (i == 16)
    abort ();
  snprintf (images[i].name, sizeof images[i].name, "%s", name);
  /* Outside a run: an error here is the fixtures', and ends the process.  */
  images[i].core = core_open (fuzz_fixture (name), &par_serial);
  core_read_symbols (images[i].core, NULL);
  core_read_text_space (images[i].core);
  return images[i].core;
}

int
fuzz_words (const uint8_t *data, size_t size, char **argv, int max)
{
  static char *copy;
  int argc = 0;
  size_t start = 0;

  free (copy);
  copy = malloc (size + 1);
  if (!copy)
    abort ();
  memcpy (copy, data, size);
  copy[size] = '\0';
  argv[argc++] = (char *) "gprof";
  for (size_t i = 0; i <= size && argc < max; i++)
    if (i == size || copy[i] == '\0' || copy[i] == '\n')
      {
        copy[i] = '\0';
        if (i > start)
          argv[argc++] = copy + start;
        start = i + 1;
      }
  argv[argc] = NULL;
  return argc;
}

int
fuzz_writer_options (unsigned bits, char **argv, int argc)
{
  static const char *const what[8] = {
    NULL, "--export=dot", "--export=callgrind", "--export=folded",
    "--export=speedscope", "--export=json", "--export=html", "--diagnose"
  };

  if (what[bits & 7])
    argv[argc++] = (char *) what[bits & 7];
  if (bits & 0x08)
    {
      argv[argc++] = (char *) "-A";
      /* An empty part and the scratch directory, before GPROF_PATH's.  */
      argv[argc++] = (char *) "-I:.";
    }
  if (bits & 0x10)
    argv[argc++] = (char *) "-y";
  if (bits & 0x20)
    argv[argc++] = (char *) "-x";
  if (bits & 0x40)
    {
      argv[argc++] = (char *) "--export-node-threshold=0";
      argv[argc++] = (char *) "--export-edge-threshold=0";
      argv[argc++] = (char *) "--export-max-depth=2";
    }
  if (bits & 0x80)
    {
      argv[argc++] = (char *) "-t1";
      argv[argc++] = (char *) "-m2";
      argv[argc++] = (char *) "-L";
      argv[argc++] = (char *) "--inline-file-names";
    }
  argv[argc] = NULL;
  return argc;
}
