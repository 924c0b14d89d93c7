#!/bin/sh
# calibrate.sh - how often gprof --diff calls a change significant: on
# pairs of runs of one deterministic program (it should almost never),
# and on pairs where one function was made slower (it should whenever
# the change is large enough for the samples).
#
# usage: bench/diff/calibrate.sh GPROF LIBGMON_A
# environment: RUNS (30: every pair of them is compared), TRIALS (20),
#   SLOWER (0.05: hot's slowdown), SCALE (1: the work; hot gets about
#   1300 samples at SCALE 1 with libgmon's 1000 Hz), LEVEL (99).
# Not part of make check: at SCALE 1 a run takes about 2 s of CPU.
set -e
gprof=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
lib=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
here=$(cd "$(dirname "$0")" && pwd)
RUNS=${RUNS:-30} TRIALS=${TRIALS:-20} SLOWER=${SLOWER:-0.05}
SCALE=${SCALE:-1} LEVEL=${LEVEL:-99}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
unset GMON_OUT_PREFIX LIBGMON_OUT LIBGMON_HZ
gcc -O1 -pg "$here/work.c" -o work "$lib" -lpthread

i=1
while [ $i -le "$RUNS" ]; do
  ./work 0 "$SCALE"; mv gmon.out base.$i; i=$((i + 1))
done
i=1
while [ $i -le "$TRIALS" ]; do
  ./work "$SLOWER" "$SCALE"; mv gmon.out slow.$i; i=$((i + 1))
done

significant () {
  "$gprof" --diff-level="$LEVEL" --diff="$1" work "$2" | grep -c ' \* ' || true
}
pairs=0 flagged=0 i=1
while [ $i -le "$RUNS" ]; do
  j=$((i + 1))
  while [ $j -le "$RUNS" ]; do
    pairs=$((pairs + 1))
    [ "$(significant base.$i base.$j)" -eq 0 ] || flagged=$((flagged + 1))
    j=$((j + 1))
  done
  i=$((i + 1))
done
found=0 i=1
while [ $i -le "$TRIALS" ]; do
  "$gprof" --diff-level="$LEVEL" --diff=base.$(( (i - 1) % RUNS + 1 )) work slow.$i |
    grep -q ' \* hot$' && found=$((found + 1))
  i=$((i + 1))
done

echo "work scale $SCALE, hot slower by $SLOWER, level $LEVEL%"
"$gprof" --diagnose work base.1 | grep -A1 -e '^ *samples' | tail -n 1 |
  sed 's/^/hot in one run (samples, s, +\/- s, +\/- %): /'
echo "unchanged: $flagged of $pairs pairs called different"
echo "slower: flagged in $found of $TRIALS trials"
