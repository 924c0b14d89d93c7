#!/bin/sh
# run-probes.sh - build programs of several kinds with -g and check -l's
# source positions (check_probes.c): our own reading of the DWARF must
# answer as BFD does at every byte, and the line symbols found asking
# only where the answer may change must be those of the walk over every
# byte.  Programs written +PATH below must be read by our own reader.
set -u
here=$(cd "$(dirname "$0")" && pwd)
checker=${CHECK_PROBES:-./testsuite/lines/check_probes}
[ -x "$checker" ] || { echo "check_probes not built"; exit 99; }
command -v gcc >/dev/null || exit 77
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cat > "$work/inl.c" <<'SRC'
#include <stdio.h>
static inline int sq (int x) { return x * x; }
static int helper (int n) { int s = 0; for (int i = 0; i < n; i++) s += sq (i); return s; }
__attribute__ ((noinline)) int cold_path (int n) { if (n > 100) { puts ("big"); return 1; } return 0; }
int main (int argc, char **argv) { (void) argv; return helper (argc * 1000) + cold_path (argc); }
SRC
cat > "$work/cxx.cc" <<'SRC'
#include <vector>
#include <algorithm>
namespace geo { template <typename T> T area (const std::vector<T> &v) { T s = 0; for (T x : v) s += x * x; return s; } }
struct Shape { virtual ~Shape () {} virtual double size () const = 0; };
struct Sq : Shape { double a; Sq (double x) : a (x) {} double size () const override { return a * a; } };
int main () { std::vector<int> v {3, 1, 2}; std::sort (v.begin (), v.end ()); Sq s (2); return geo::area (v) + (int) s.size (); }
SRC
cat > "$work/asm.s" <<'SRC'
	.file 1 "asm.s"
	.text
	.globl main
	.type main, @function
main:
	.loc 1 7
	xor %eax, %eax
	.loc 1 8
	nop
	ret
	.size main, .-main
label_inside:
	.loc 1 12
	ret
SRC

# Two files and a header in a subdirectory, a GNU C nested function.
mkdir -p "$work/src/sub" "$work/obj"
cat > "$work/src/sub/util.h" <<'SRC'
static inline int twice (int x) { return 2 * x; }
int from_b (int);
SRC
cat > "$work/src/a.c" <<'SRC'
#include <stdio.h>
#include "sub/util.h"
int nest (int n) { int inner (int k) { return k + n; } int s = 0; for (int i = 0; i < n; i++) s += inner (i); return s; }
int main (int argc, char **argv) { (void) argv; printf ("%d\n", twice (argc) + from_b (argc) + nest (argc)); return 0; }
SRC
cat > "$work/src/b.c" <<'SRC'
#include "sub/util.h"
static int hidden (int x) { return twice (x) + 1; }
int from_b (int x) { return hidden (x) * twice (x); }
int unused_func (int x) { return x * 3; }
SRC
# C++ functions the DWARF names without a linkage name (extern "C",
# main), which BFD checks against the symbols, inlined or not.
cat > "$work/ext.cc" <<'SRC'
#include <cstdio>
#include <functional>
extern "C" int plain_c (int x) { return x * 7; }
extern "C" int caller_c (int x) { return plain_c (x) + plain_c (x + 1); }
namespace { int anon (int x) { return x + 1; } }
template <typename F> int apply (F f, int x) { return f (x); }
struct K { int v; int get () const { return v; } };
int main (int argc, char **) {
  auto lam = [argc] (int y) { return y * argc + anon (y); };
  std::function<int(int)> fn = lam;
  K k { argc };
  std::printf ("%d\n", apply (lam, 3) + fn (2) + caller_c (argc) + k.get ());
  return 0;
}
SRC

built=""
# build [+]NAME COMMAND...: + if our own reader must take it.
build () {
  name=${1#+}; mark=${1%"$name"}; shift
  if "$@" -o "$work/$name" 2>/dev/null; then built="$built $mark$work/$name"; fi
}
build +inl-O0 gcc -O0 -g -pg "$work/inl.c"
build +inl-O2 gcc -O2 -g -pg "$work/inl.c"
build +inl-O3-sections gcc -O3 -g -ffunction-sections -pg "$work/inl.c"
build +inl-dwarf4 gcc -O2 -gdwarf-4 -pg "$work/inl.c"
build +inl-m32 gcc -m32 -O2 -g -pg "$work/inl.c"
build +cxx-O2 g++ -O2 -g -pg "$work/cxx.cc"
build +asm gcc -g -nostdlib -Wl,-e,main "$work/asm.s"
# Relative names from another directory, DWARF 4 and 5.
for v in "rel-O2 -O2 -g" "rel-O0-dwarf4 -O0 -gdwarf-4"; do
  # shellcheck disable=SC2086
  set -- $v
  ( cd "$work/obj" && gcc "$2" "$3" -pg -I../src ../src/a.c ../src/b.c \
      -o "$work/$1" 2>/dev/null ) && built="$built +$work/$1"
done
build +abs-O3 gcc -O3 -g -pg -I"$work/src" "$work/src/a.c" "$work/src/b.c"
# Functions the linker dropped stay in the DWARF at address 0.
build +gc-sections gcc -O2 -g -pg -ffunction-sections -Wl,--gc-sections \
  -I"$work/src" "$work/src/a.c" "$work/src/b.c"
build +compressed gcc -O2 -g -gz -pg -I"$work/src" "$work/src/a.c" "$work/src/b.c"
build +no-pie gcc -no-pie -O2 -g -pg -I"$work/src" "$work/src/a.c" "$work/src/b.c"
build +m32-O1 gcc -m32 -O1 -g -pg -I"$work/src" "$work/src/a.c" "$work/src/b.c"
build +ext-O0 g++ -O0 -g -pg "$work/ext.cc"
build +ext-O2 g++ -O2 -g -pg "$work/ext.cc"
build +ext-O3 g++ -O3 -g -pg "$work/ext.cc"
build +ext-O1-dwarf4 g++ -O1 -gdwarf-4 -pg "$work/ext.cc"
# DWARF our reader does not answer for, where BFD answers at the
# boundaries it finds: a language it does not model (the unit of inl.c
# relabelled Fortran 90, whose names BFD checks against the symbols),
# and split DWARF (the functions in .dwo files BFD does not read).
if gcc -O2 -g -pg -S -dA -o "$work/inl.s" "$work/inl.c" 2>/dev/null; then
  sed 's/^\([[:space:]]*\.byte[[:space:]]*\)0x1d\([[:space:]]*# DW_AT_language\)/\10x8\2/' \
    "$work/inl.s" > "$work/fortran.s"
  grep -q '0x8[[:space:]]*# DW_AT_language' "$work/fortran.s" &&
    build fortran-unit gcc -pg "$work/fortran.s"
fi
( cd "$work" && gcc -O2 -g -gsplit-dwarf -pg inl.c -o split-dwarf 2>/dev/null ) &&
  built="$built $work/split-dwarf"
# Type units, in .debug_types (DWARF 4) or .debug_info (DWARF 5).
build types-dwarf4 g++ -O2 -gdwarf-4 -fdebug-types-section -pg "$work/ext.cc"
build types-dwarf5 g++ -O2 -gdwarf-5 -fdebug-types-section -pg "$work/ext.cc"
# Another producer: clang's DWARF 5 indexes its strings, addresses and
# ranges (the ranges of inlined calls by index, which BFD does not
# read as we would: left to BFD).
if command -v clang >/dev/null; then
  build +clang-O0-dwarf4 clang -O0 -gdwarf-4 -pg "$work/inl.c"
  build clang-O2 clang -O2 -g -pg "$work/inl.c"
  build +clangxx-O2 clang++ -O2 -g -pg "$work/ext.cc"
fi
# Programs of this project, compiled with -g: bigger real code.  Built
# with AddressSanitizer, their data-only files get module constructors
# with lines but units without ranges, which BFD searches last: not
# modelled, BFD answers there.
for exe in ./gprof ./testsuite/fixtures/mkfixture; do
  if [ -x "$exe" ]; then
    if nm "$exe" 2>/dev/null | grep -q __asan_init; then
      built="$built $exe"
    else
      built="$built +$exe"
    fi
  fi
done
[ -n "$built" ] || exit 77
# shellcheck disable=SC2086
"$checker" $built
