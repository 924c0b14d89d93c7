#!/bin/sh
# run.sh - how much a call-heavy program slows down under libgmon,
# compared with running it unprofiled and with glibc's gmon.
#
# usage: bench/libgmon/run.sh [BUILDDIR]
#   BUILDDIR: where libgmon was built (default: the current directory);
#   libgmon.a and libgmon.so are taken from BUILDDIR/libgmon/.libs.
# environment: RUNS (default 11), ITER (iterations per thread, default
#   30000000), THREADS (for the multi-thread rows, default 4), CC.
#
# Every variant runs RUNS times, interleaved, so that a noisy neighbour
# hurts them all alike; the table shows the minimum and the median wall
# time.  Single-thread runs are pinned to one CPU when taskset exists.
# Not part of "make check": timings on shared machines are too noisy for
# a pass/fail test.

set -e
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-.}" && pwd)
lib=$build/libgmon/.libs
RUNS=${RUNS:-11} ITER=${ITER:-30000000} THREADS=${THREADS:-4} CC=${CC:-gcc}

for f in "$lib/libgmon.a" "$lib/libgmon.so"; do
  [ -e "$f" ] || { echo "run.sh: $f missing: run 'make libgmon/libgmon.la' first" >&2; exit 1; }
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
src=$here/callheavy.c
$CC -O2 -pthread "$src" -o base
$CC -O2 -pg -pthread "$src" -o glibc
$CC -O2 -pg -pthread "$src" "$lib/libgmon.a" -o libgmon
pin=
command -v taskset >/dev/null 2>&1 && pin="taskset -c 1"
# The profiles are not looked at; keep them out of the way and quiet.
export GMON_OUT_PREFIX="$work/gmon"

# variant name, thread count, command...
variants='
unprofiled|1|./base
glibc-gmon|1|./glibc
libgmon.a|1|./libgmon
libgmon.so-preload|1|env LD_PRELOAD=LIB/libgmon.so ./glibc
unprofiled-Tthreads|T|./base
glibc-gmon-Tthreads|T|./glibc
libgmon.a-Tthreads|T|./libgmon
libgmon.so-preload-Tthreads|T|env LD_PRELOAD=LIB/libgmon.so ./glibc
'

now () { date +%s%N; }

i=0
while [ $i -lt "$RUNS" ]; do
  echo "$variants" | while IFS='|' read -r name t cmd; do
    [ -n "$name" ] || continue
    name=$(echo "$name" | sed "s/T/$THREADS/")
    cmd=$(echo "$cmd" | sed "s|LIB|$lib|")
    if [ "$t" = 1 ]; then p=$pin; n=1; else p=; n=$THREADS; fi
    start=$(now)
    $p $cmd "$n" "$ITER" >/dev/null
    end=$(now)
    echo "$name $(( (end - start) / 1000 ))" >> times
  done
  i=$((i + 1))
done

echo "call-heavy loop: $ITER iterations x 3 instrumented calls per thread, $RUNS runs"
echo "machine: $(nproc) CPUs, $(uname -r), $($CC --version | head -n 1)"
awk -v threads="$THREADS" '
  { t[$1, ++n[$1]] = $2 / 1e6; if (!($1 in seen)) { seen[$1] = 1; order[++k] = $1 } }
  function sortcol(name,   i, j, x, m) {
    m = n[name]
    for (i = 1; i <= m; i++) v[i] = t[name, i]
    for (i = 2; i <= m; i++) { x = v[i]; for (j = i - 1; j >= 1 && v[j] > x; j--) v[j + 1] = v[j]; v[j + 1] = x }
    min[name] = v[1]; med[name] = v[int((m + 1) / 2)]
  }
  END {
    for (i = 1; i <= k; i++) sortcol(order[i])
    printf "%-30s %9s %9s %14s %14s\n", "variant", "min s", "median s", "min/unprof.", "min/glibc"
    for (i = 1; i <= k; i++) {
      name = order[i]
      base = index(name, "threads") ? "unprofiled-" threads "threads" : "unprofiled"
      gl = index(name, "threads") ? "glibc-gmon-" threads "threads" : "glibc-gmon"
      printf "%-30s %9.3f %9.3f %13.2fx %13.2fx\n", name, min[name], med[name], min[name] / min[base], min[name] / min[gl]
    }
  }' times
