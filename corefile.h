/* corefile.h - the executable, read through BFD: its symbols, its .text
   and the source position of addresses.  */

#ifndef GPROF_COREFILE_H
#define GPROF_COREFILE_H

#include <bfd.h>
#include "options.h"
#include "symtab.h"

typedef struct RawStrtab RawStrtab;
typedef struct Dws Dws;

/* -R: which object file each function comes from ("file.o:... T func"
   lines, as nm --print-file-name writes them).  */
typedef struct FunctionMap
{
  char *file_name;
  char *function_name;
  bool is_first;          /* the first function listed for its file */
} FunctionMap;

typedef struct Core
{
  const char *filename;
  bfd *abfd;
  asection *text;
  vma_t text_vma, text_size;
  asymbol **syms;               /* BFD's symbols, then synthetic ones */
  long nsyms;
  long nsyms_canonical;         /* the ELF .symtab ones, index i = ELF i+1 */
  asymbol *synthetic;

  /* How profile files for this executable are encoded.  */
  int vma_bytes;                /* 4 or 8 (0 until an error ends the run) */
  bool big_endian;
  bool sign_extend_vma;

  char leading_char;            /* prefix the target puts on C names */
  bool may_have_lines;          /* BFD might find line information */
  bool has_func_syms;           /* symbols carry a "function" flag */
  int min_insn_size;

  RawStrtab *strtab;            /* the ELF string table as stored */
  FunctionMap *map;             /* -R, sorted by function name */
  size_t nmap;
  unsigned char *text_space;    /* .text contents, for -c */
  char *symfile_names;          /* -S: the names of its symbols */
  Dws *dws;                     /* our answers for core_src_info, or NULL */
  const struct Par *par;        /* for the DWARF's independent halves */
  bool src_prepared;            /* dws has been tried */
} Core;

#ifdef GPROF_TESTING
/* For testsuite/lines only (built with GPROF_TESTING): core_src_info
   asks BFD even where our reading of the DWARF answers.  */
extern bool core_src_bfd_only;
#endif

/* Open IMAGE and learn its byte order, address size and text section;
   exits with GNU's messages on error.  PAR runs the independent pieces
   of the reading that follows.  */
Core *core_open (const char *image, const struct Par *par);
/* Read the symbols of CORE's executable, and MAP_FILE (-R) if not
   NULL; exits with GNU's messages on error.  */
void core_read_symbols (Core *core, const char *map_file);
void core_close (Core *core);

/* Build the symbol table: one Sym per function (GNU's symbol classes),
   one per source line in addition with -l, or the -S file's.  */
void core_create_function_syms (Core *core, const Options *opt,
                                SymTab *symtab, SourceFiles *files);
/* EXHAUSTIVE asks BFD about every instruction unit, as GNU does; the
   result must be the same (the tests check that it is).  */
void core_create_line_syms (Core *core, const Options *opt,
                            SymTab *symtab, SourceFiles *files,
                            bool exhaustive);
void core_create_syms_from (Core *core, const char *file, SymTab *symtab);

/* Read the contents of .text, for -c.  On failure says so and leaves
   text_space NULL (-c then finds nothing).  */
void core_read_text_space (Core *core);

/* Source position of ADDR: true with FILE, FUNC and LINE all known.
   If NAME_ONCE is not NULL, it tells that the next question at ADDR or
   after it would get another name (see dws_find).  */
bool core_src_info (Core *core, vma_t addr, const char **file,
                    const char **func, int *line, bool *name_once);

/* From core_src_dry_run (CORE, true) to core_src_dry_run (CORE, false),
   core_src_info's questions leave no trace on later answers (which
   depend on earlier questions: see dws_find).  False, and nothing
   changes, where that cannot be (BFD answers).  */
bool core_src_dry_run (Core *core, bool on);

/* The last address of .text (GNU gives the last symbol this end).  */
vma_t core_text_last (const Core *core);

/* The raw string table only serves the reading of the symbols: freed
   once they are read (25 bytes a symbol).  A core kept to read symbols
   again (the fuzz targets') is not told.  */
void core_free_strtab (Core *core);

/* Give SYMTAB's names memory of their own (symtab->name_store) and close
   the executable: BFD's symbols take about 100 bytes each, and once the
   table is built only -c and the diagnosis read the file again.  */
void core_close_bfd (Core *core, SymTab *symtab);

#endif
