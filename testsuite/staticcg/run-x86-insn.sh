#!/bin/sh
# run-x86-insn.sh - mach/x86_insn.c measures every instruction of
# compiled x86 code as objdump does: the sweep of -c then stays on the
# instructions objdump shows.  Swept: test programs built at several
# optimization levels and instruction sets, 64-bit and 32-bit, and
# gprof itself.  Runs from the top build directory.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$PWD
compare=$top/testsuite/staticcg/x86_vs_objdump
[ -x "$compare" ] || { echo "no libopcodes: skipped"; exit 77; }
command -v gcc >/dev/null || exit 77
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

files="$top/gprof"
for flavour in "O0:-O0" "O2:-O2" "O3:-O3 -march=x86-64-v3" \
               "avx512:-O3 -march=skylake-avx512" "Os:-Os -fno-pie -no-pie" \
               "m32:-m32 -O2" "m32-O0:-m32 -O0"; do
  name=${flavour%%:*} flags=${flavour#*:}
  # shellcheck disable=SC2086
  if gcc $flags -g -pg "$here/calls.c" -o "$work/calls-$name" 2>/dev/null; then
    files="$files $work/calls-$name"
  else
    echo "skip calls-$name: cannot build"
  fi
done
# shellcheck disable=SC2086
"$compare" $files
