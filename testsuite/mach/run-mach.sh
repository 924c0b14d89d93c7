#!/bin/sh
# run-mach.sh - compare the static call graph (-c) of our gprof with GNU
# gprof's on executables of other architectures.
#
# mkmach writes minimal MIPS (32-bit in both byte orders, and 64-bit),
# SPARC (32- and 64-bit), Alpha and AArch64 executables with hand-assembled
# code, and their profile files (see the scenario table in mkmach.c); and
# a VAX one, which BFD here cannot tell from plain ELF, for -c's "not
# supported" message.  For every scenario and
# option set, GNU gprof and ours run on them under LC_ALL=C, both invoked
# as "gprof", and their standard output, standard error and exit status
# must be identical.  This needs a GNU gprof built with every BFD target
# (binutils-multiarch); with another the test is skipped.
#
# Environment:
#   GPROF      the gprof to test (default: ./gprof, run from the build dir)
#   GNU_GPROF  the reference (default: /usr/bin/gprof)
#   MKMACH     the generator (default: ./testsuite/mach/mkmach)
#   KEEP       a directory to keep the inputs and all runs in
#
# Prints "ok NAME: gprof OPTIONS" or "FAIL NAME: gprof OPTIONS" with a
# short diff per comparison, then "N passed, M failed"; exits 1 if
# anything failed, 77 if GNU gprof cannot read the inputs.

set -u
set -f   # option sets are split into words, never globbed

LC_ALL=C
LANG=C
export LC_ALL LANG
unset GPROF_PATH POSIXLY_CORRECT LANGUAGE LC_MESSAGES 2>/dev/null

ref=${GNU_GPROF:-/usr/bin/gprof}
if [ ! -x "$ref" ]; then
  echo "SKIP: no GNU gprof at $ref"
  exit 77
fi

absolute () {
  case $1 in
    /*) printf '%s\n' "$1" ;;
    *) printf '%s/%s\n' "$(pwd)" "$1" ;;
  esac
}
cand=$(absolute "${GPROF:-./gprof}")
mkmach=$(absolute "${MKMACH:-./testsuite/mach/mkmach}")
for prog in "$cand" "$mkmach"; do
  if [ ! -x "$prog" ]; then
    echo "ERROR: $prog is missing (build it, or set GPROF / MKMACH)"
    exit 99
  fi
done

if [ -n "${KEEP:-}" ]; then
  work=$KEEP
  rm -rf "$work"
  mkdir -p "$work" || exit 99
else
  work=$(mktemp -d "${TMPDIR:-/tmp}/mach.XXXXXX") || exit 99
  trap 'rm -rf "$work"' EXIT
  trap 'exit 130' INT TERM
fi
inputs=$work/inputs
mkdir "$inputs" "$work/gnu" "$work/ours" || exit 99
"$mkmach" "$inputs" || {
  echo "ERROR: mkmach failed"
  exit 99
}
# Both run as "gprof": the name starts every diagnostic.
ln -s "$ref" "$work/gnu/gprof" && ln -s "$cand" "$work/ours/gprof" || exit 99

# run_gprof WHO OPTS NAME: run WHO's gprof in the inputs directory, stdout,
# stderr and exit status to $work/WHO.{out,err,status}.  No option set
# writes a file there.
run_gprof () {
  # shellcheck disable=SC2086 # $2 is a list of words
  (cd "$inputs" && PATH=$work/$1:$PATH gprof $2 "$3" "$3.gmon" \
     >"$work/$1.out" 2>"$work/$1.err" </dev/null
   echo $? >"$work/$1.status")
}

# A single-target GNU gprof does not know these executables.
run_gprof gnu "-b -c -q" mips-be
if [ "$(cat "$work/gnu.status")" != 0 ] ||
   ! grep -q '<indirect child>' "$work/gnu.out"; then
  echo "SKIP: $ref cannot analyse MIPS executables (no multi-target BFD?)"
  sed 's/^/  /' "$work/gnu.err"
  exit 77
fi

# The call-graph reports and what else uses the arcs -c adds: the index
# (-b), the listing of unused functions (-z), the traditional layout (-T),
# the function ordering (-r) and call-graph exclusions.
option_sets () {
  cat <<'EOF'
-b -c -q
-b -c
-b -c -T
-c -z -b
-b -c -q -z -T
-b -c -r
-b -c -P
-b -c -q -E helper
EOF
}

while read -r name; do
  option_sets | while read -r opts; do
    run_gprof gnu "$opts" "$name"
    run_gprof ours "$opts" "$name"
    if cmp -s "$work/gnu.out" "$work/ours.out" &&
       cmp -s "$work/gnu.err" "$work/ours.err" &&
       cmp -s "$work/gnu.status" "$work/ours.status"; then
      echo "ok $name: gprof $opts"
    else
      echo "FAIL $name: gprof $opts"
      for part in out err status; do
        diff -u "$work/gnu.$part" "$work/ours.$part" | sed -n '3,22s/^/  /p'
      done
    fi
  done
done <"$inputs/scenarios" >"$work/results"

cat "$work/results"
passed=$(grep -c '^ok ' "$work/results")
failed=$(grep -c '^FAIL ' "$work/results")
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ] || exit 1
exit 0
