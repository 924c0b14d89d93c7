#!/bin/sh
# fixtures.sh - write the files the fuzz targets read besides their input
# (FUZZ_FIXTURES names the directory):
#
#   testsuite/fuzz/fixtures.sh DIR
#
# Run from the top of the build, after `make testsuite/fixtures/mkfixture`.
# DIR gets the fixture generator's executables and profiles, and four
# programs small enough to be inputs (under 8 KB) with line information:
# dwarf_seed.c built by gcc with DWARF 4 (dwarf4.elf) and 5 (dwarf5.elf,
# and sections.elf with -ffunction-sections) and by clang with DWARF 5
# (clang5.elf, with its index forms), each with
# a profile of its own (NAME.gmon: histogram, arcs and basic-block counts
# at its own addresses); and dynamic.elf, built by gcc as a dynamic
# executable that names libgmon.so as needed (in .dynstr, which the
# diagnosis reads), with its profile.  Their DWARF names the source relatively
# (src/dwarf_seed.c), so that -A finds it only through the search path:
# the targets set GPROF_PATH to DIR, where dwarf_seed.c is copied.

set -u

if [ $# -ne 1 ]; then
  echo "usage: fixtures.sh DIR" >&2
  exit 2
fi
dir=$1
here=$(cd "$(dirname "$0")" && pwd)
build=$(pwd)

mkdir -p "$dir" || exit 99
dir=$(cd "$dir" && pwd)
"$build/testsuite/fixtures/mkfixture" "$dir" || exit 99
cp "$here/dwarf_seed.c" "$dir/dwarf_seed.c" || exit 99

# le VALUE BYTES: VALUE as BYTES bytes, little-endian.
le () {
  le_v=$1 le_n=$2 le_out=
  while [ "$le_n" -gt 0 ]; do
    le_out="$le_out$(printf '\\%03o' $((le_v & 255)))"
    le_v=$((le_v >> 8))
    le_n=$((le_n - 1))
  done
  printf "$le_out"
}

# gmon ELF: a GNU profile of ELF (64-bit little-endian) on stdout: a
# histogram over .text with a few samples, the call main -> work and a
# recursive one, and basic-block counts at lines of work.
gmon () {
  g_main=$(nm "$1" | awk '$3 == "main" { print $1 }')
  g_work=$(nm "$1" | awk '$3 == "work" { print $1 }')
  g_text=$(size -A -d "$1" | awk '$1 == ".text" { print $3, $2 }')
  [ -n "$g_main" ] && [ -n "$g_work" ] && [ -n "$g_text" ] || return 1
  g_main=$((0x$g_main)) g_work=$((0x$g_work))
  set -- $g_text
  g_low=$1 g_high=$((($1 + $2 + 3) / 4 * 4))
  g_nbins=$(((g_high - g_low) / 2))
  printf 'gmon'; le 1 4; le 0 12
  printf '\000'; le $g_low 8; le $g_high 8; le $g_nbins 4; le 100 4
  printf 'seconds\000\000\000\000\000\000\000\000s'
  g_i=0
  while [ $g_i -lt $g_nbins ]; do
    case $g_i in
      0) le 3 2 ;; 5) le 40 2 ;; 9) le 7 2 ;; 12) le 1 2 ;; *) le 0 2 ;;
    esac
    g_i=$((g_i + 1))
  done
  printf '\001'; le $((g_main + 4)) 8; le $g_work 8; le 1 4
  printf '\001'; le $((g_work + 16)) 8; le $g_work 8; le 6 4
  printf '\002'; le 4 4
  le $g_work 8; le 1 8
  le $((g_work + 4)) 8; le 7 8
  le $((g_work + 16)) 8; le 7 8
  le $g_main 8; le 1 8
}

# build CC DWARF NAME [LINK...]: dwarf_seed.c as DIR/NAME.elf (static
# unless LINK says otherwise), and its profile.
build () {
  b_cc=$1 b_dwarf=$2 b_name=$3
  shift 3
  (cd "$here" &&
   $b_cc -O2 -gdwarf-$b_dwarf -nostdlib -fno-asynchronous-unwind-tables \
     -fdebug-prefix-map="$here"=src -Wl,-e,main -Wl,--build-id=none \
     "${@:--static}" -o "$dir/$b_name.elf" dwarf_seed.c) &&
    objcopy --remove-section=.comment "$dir/$b_name.elf" &&
    gmon "$dir/$b_name.elf" >"$dir/$b_name.gmon" || {
      echo "ERROR: fixtures.sh: cannot build $b_name.elf with $b_cc" >&2
      exit 99
    }
}

build gcc 4 dwarf4
build gcc 5 dwarf5
build clang 5 clang5
# Each function in a section of its own: line-table sequences that meet,
# which libdw's sorted rows make us tell apart (dwarf_src.c add_rows).
build gcc 5 sections -static -ffunction-sections
# A libgmon.so of nothing, only to be named.
stub=$dir/stub.$$
mkdir -p "$stub" && : >"$stub/empty.c" &&
  gcc -shared -nostdlib -o "$stub/libgmon.so" "$stub/empty.c" || exit 99
build gcc 5 dynamic -Wl,-z,noseparate-code -Wl,-z,norelro \
  -Wl,--hash-style=gnu -Wl,--no-as-needed -L"$stub" -lgmon
rm -rf "$stub"
