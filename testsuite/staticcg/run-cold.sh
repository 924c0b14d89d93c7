#!/bin/sh
# run-cold.sh - -c scans the code before .text's first function.  gcc -O2
# moves the unlikely paths of functions into .cold parts, which the linker
# puts at the start of .text, ahead of every function symbol: gprof
# charges that code to _init (the symbol before it, in .init), and GNU
# gprof lists the calls it finds there as _init's.  C and C++ programs
# (coldparts.c, coldparts.cc) for x86-64, i386 and, cross-compiled and run
# under qemu-user, AArch64, are profiled; for each report below ours must
# be GNU's byte for byte (stdout, stderr, exit status).
#
# The option sets all have -b: the blurbs are our own.  -z only comes
# with -f _init, since GNU misses backward calls on x86 (doc/differences.md)
# and the C runtime's functions have one; i386 is built without PIE, whose
# calls to __x86.get_pc_thunk.* are backward too.
set -u
set -f   # option sets are split into words, never globbed
here=$(cd "$(dirname "$0")" && pwd)
gprof=${GPROF:-$PWD/gprof}
ref=${GNU_GPROF:-/usr/bin/gprof}
LC_ALL=C
export LC_ALL
[ -x "$ref" ] && command -v nm >/dev/null || exit 77
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 99
# Both run as "gprof": the name starts every diagnostic.
mkdir gnu ours && ln -s "$ref" gnu/gprof && ln -s "$gprof" ours/gprof || exit 99

aarch64_cc=
for c in aarch64-linux-gnu-gcc-12 aarch64-linux-gnu-gcc; do
  command -v "$c" >/dev/null && command -v qemu-aarch64 >/dev/null && { aarch64_cc=$c; break; }
done

# The builds, one a line: NAME|COMPILER|FLAGS|SOURCE|RUNNER.
cat >flavours.txt <<EOF
c-x86-64|gcc|-O2|coldparts.c|
c-i386|gcc|-m32 -O2 -fno-pie -no-pie|coldparts.c|
c++-x86-64|g++|-O2|coldparts.cc|
c++-i386|g++|-m32 -O2 -fno-pie -no-pie|coldparts.cc|
c-aarch64|${aarch64_cc:-none}|-O2|coldparts.c|qemu-aarch64 -L /usr/aarch64-linux-gnu
EOF
# The reports compared.
cat >sets.txt <<'EOF'
-b
-b -c
-b -c -q
-b -c -p
-b -c -q -z -f _init
EOF
passed=0 failed=0
while IFS='|' read -r name cc flags src runner; do
  mkdir "$name" || exit 99
  # shellcheck disable=SC2086
  if ! command -v "$cc" >/dev/null ||
     ! "$cc" $flags -freorder-blocks-and-partition -pg "$here/$src" -o "$name/prog" 2>/dev/null; then
    echo "skip $name: cannot build"
    continue
  fi
  if ! nm "$name/prog" | grep -q '\.cold$'; then
    echo "skip $name: $cc made no .cold parts"
    continue
  fi
  # shellcheck disable=SC2086
  (cd "$name" && $runner ./prog >/dev/null </dev/null)
  if [ $? -eq 126 ]; then
    echo "skip $name: this machine cannot run it"
    continue
  fi
  if [ ! -f "$name/gmon.out" ]; then
    echo "FAIL $name: no profile"
    failed=$((failed + 1))
    continue
  fi
  # What this is about: GNU finds calls of _init, in the .cold parts.
  (cd "$name" && PATH=$work/gnu:$PATH gprof -b -c -q prog gmon.out </dev/null) |
    grep -q ' 0/[0-9]*  *_init \[' ||
    { echo "FAIL $name: GNU gprof finds no call in the .cold parts"; failed=$((failed + 1)); continue; }
  while read -r opts; do
    for who in gnu ours; do
      # shellcheck disable=SC2086
      (cd "$name" && PATH=$work/$who:$PATH gprof $opts prog gmon.out \
         >"../$who.out" 2>"../$who.err" </dev/null
       echo $? >"../$who.status")
    done
    if cmp -s gnu.out ours.out && cmp -s gnu.err ours.err && cmp -s gnu.status ours.status; then
      echo "ok   $name: gprof $opts"
      passed=$((passed + 1))
    else
      echo "FAIL $name: gprof $opts"
      for part in out err status; do
        diff -u "gnu.$part" "ours.$part" | sed -n '3,22s/^/  /p'
      done
      failed=$((failed + 1))
    fi
  done <sets.txt
done <flavours.txt
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
