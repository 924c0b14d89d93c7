#!/bin/sh
# threadstart.sh - how long starting many threads that are all alive at
# once takes under libgmon, compared with glibc's gmon.
#
# usage: bench/libgmon/threadstart.sh [BUILDDIR]
#   BUILDDIR: where libgmon was built (default: the current directory).
# environment: RUNS (default 7), THREADS (default 4000), CC.
#
# Each thread calls an instrumented function, then waits on a barrier
# with all the others (threadstart.c); the time is from the first
# pthread_create until all have arrived.  The variants run interleaved;
# the table shows the minimum and the median.  Not part of "make check"
# (testsuite/libgmon/threadstart.sh checks a smaller case).

set -e
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-.}" && pwd)
lib=$build/libgmon/.libs
RUNS=${RUNS:-7} THREADS=${THREADS:-4000} CC=${CC:-gcc}

for f in "$lib/libgmon.a" "$lib/libgmon.so"; do
  [ -e "$f" ] || { echo "threadstart.sh: $f missing: run 'make libgmon/libgmon.la' first" >&2; exit 1; }
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
src=$here/threadstart.c
$CC -O2 -pg -pthread "$src" -o glibc
$CC -O2 -pg -pthread "$src" "$lib/libgmon.a" -o libgmon
export GMON_OUT_PREFIX="$work/gmon"

i=0
while [ $i -lt "$RUNS" ]; do
  echo "glibc-gmon $(./glibc "$THREADS" | sed -n 's/^start //p')" >> times
  echo "libgmon.a $(./libgmon "$THREADS" | sed -n 's/^start //p')" >> times
  echo "libgmon.so-preload $(LD_PRELOAD=$lib/libgmon.so ./glibc "$THREADS" | sed -n 's/^start //p')" >> times
  rm -f "$work"/gmon.*
  i=$((i + 1))
done

echo "starting $THREADS threads that stay alive, $RUNS runs"
echo "machine: $(nproc) CPUs, $(uname -r), $($CC --version | head -n 1)"
awk '
  { t[$1, ++n[$1]] = $2; if (!($1 in seen)) { seen[$1] = 1; order[++k] = $1 } }
  function sortcol(name,   i, j, x, m) {
    m = n[name]
    for (i = 1; i <= m; i++) v[i] = t[name, i]
    for (i = 2; i <= m; i++) { x = v[i]; for (j = i - 1; j >= 1 && v[j] > x; j--) v[j + 1] = v[j]; v[j + 1] = x }
    min[name] = v[1]; med[name] = v[int((m + 1) / 2)]
  }
  END {
    for (i = 1; i <= k; i++) sortcol(order[i])
    printf "%-22s %9s %9s %16s\n", "variant", "min s", "median s", "median/glibc"
    for (i = 1; i <= k; i++) {
      name = order[i]
      printf "%-22s %9.3f %9.3f %15.2fx\n", name, min[name], med[name], med[name] / med["glibc-gmon"]
    }
  }' times
