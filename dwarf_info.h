/* dwarf_info.h - the entries of .debug_info read directly: the units,
   and of each entry the attributes that place code and name it.

   dwarf_src.c walks every entry of every unit once; libdw's entry by
   entry interface cost it three times as much on a big program.  Only
   what a line-number lookup needs is decoded; every other attribute is
   stepped over by its form.  Reads never pass a section's end: bad data
   makes the reader fail, and its user fall back to BFD.  */

#ifndef GPROF_DWARF_INFO_H
#define GPROF_DWARF_INFO_H

#include <gelf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct DwiSection
{
  const unsigned char *p;
  size_t size;
} DwiSection;

/* The debugging sections, uncompressed.  */
typedef struct DwiSections
{
  DwiSection info, abbrev, line, str, line_str, str_offsets, addr, ranges,
             rnglists;
  bool big_endian;
  bool has_types;         /* .debug_types: type units, not read here */
} DwiSections;

/* Find them in ELF (also in the old .zdebug_ form).  False on a read
   error.  */
bool dwi_sections (Elf *elf, DwiSections *s);

/* The string at OFFSET of string section SEC, or NULL if none ends
   inside it.  */
const char *dwi_string_at (const DwiSection *sec, uint64_t offset);

/* What an entry says of itself.  Offsets are into .debug_info.  */
typedef struct DwiEntry
{
  uint64_t offset;
  unsigned tag;
  bool has_children;
  bool has_low, has_high, high_is_offset, has_ranges;
  bool ranges_indexed;                /* DW_AT_ranges by DW_FORM_rnglistx */
  uint64_t low, high, ranges;         /* ranges: resolved list offset */
  const char *name, *linkage_name, *comp_dir;
  bool has_origin, has_specification;
  uint64_t origin, specification;
  bool has_stmt_list;
  uint64_t stmt_list;
  int language;                       /* -1 without DW_AT_language */
  bool split;                         /* names a .dwo file */
} DwiEntry;

typedef struct DwiAbbrevs DwiAbbrevs;

typedef struct DwiUnit
{
  uint64_t offset, end;               /* its header; past its last byte */
  uint64_t first_entry;
  unsigned version, unit_type, addr_size, offset_size;
  DwiAbbrevs *abbrevs;
  uint64_t base;                      /* DW_AT_low_pc of the unit entry */
  uint64_t str_offsets_base, addr_base, rnglists_base;
  DwiEntry entry;                     /* the unit's own entry */
} DwiUnit;

typedef struct DwiReader
{
  const DwiSections *s;
  DwiUnit *units;
  size_t nunits;
} DwiReader;

/* Read the unit headers, their abbreviations and their own entries.
   False on bad data (R is then empty).  */
bool dwi_open (DwiReader *r, const DwiSections *s);
void dwi_close (DwiReader *r);

/* Every entry of unit U after its own, in order; FN is called for those
   whose tag WANTED accepts.  False on bad data.  */
bool dwi_walk (const DwiReader *r, const DwiUnit *u, bool (*wanted) (unsigned),
               void (*fn) (void *, const DwiUnit *, const DwiEntry *),
               void *ctx);

/* The entry at OFFSET and its unit; false if there is none.  */
bool dwi_entry_at (const DwiReader *r, uint64_t offset, DwiEntry *e,
                   const DwiUnit **unit);

/* FN (CTX, LOW, HIGH) for each range of E (of unit U): its DW_AT_ranges
   list, then its low and high pc.  False on bad data.  */
bool dwi_ranges (const DwiReader *r, const DwiUnit *u, const DwiEntry *e,
                 void (*fn) (void *, uint64_t, uint64_t), void *ctx);

#endif
