#!/bin/sh
# run-limits.sh - gprof runs under a memory limit that the run fits in.
#
# gp_memory_init grows the heap 64 MB ahead; under ulimit -v or -d that
# would fail where the analysis itself fits, so it leaves the heap alone
# there.  A profile of 3000 functions (bench/mkcase.py) needs under
# 20 MB: with each limit at 40 MB gprof must print what it prints
# without one.  Skipped for sanitizer builds, whose shadow memory needs
# terabytes of address space.
#
# Environment: GPROF (default ./gprof).

srcdir=${srcdir:-.}
GPROF=${GPROF:-./gprof}
LIMIT_KB=40000
work=testsuite/work/limits
pass=0 fail=0

command -v python3 >/dev/null && command -v as >/dev/null \
  && command -v ld >/dev/null || { echo "skip: needs python3, as and ld"; exit 77; }
if grep -q __asan_init "$GPROF" || grep -q __tsan_init "$GPROF"; then
  echo "skip: a sanitizer build"
  exit 77
fi
rm -rf "$work" && mkdir -p "$work" || exit 99
python3 "$srcdir/bench/mkcase.py" "$work" --functions 3000 --arcs 15000 \
  --shape random --seed 7 >/dev/null || exit 99
gprof=$(cd "$(dirname "$GPROF")" && pwd)/$(basename "$GPROF")
(cd "$work" && LC_ALL=C "$gprof" -b prog gmon.out > out.free) || exit 99

for limit in v d; do
  (cd "$work" && ulimit -$limit $LIMIT_KB \
     && GPROF_THREADS=1 LC_ALL=C "$gprof" -b prog gmon.out > "out.$limit" 2> "err.$limit")
  status=$?
  if [ $status = 0 ] && [ ! -s "$work/err.$limit" ] \
     && cmp -s "$work/out.free" "$work/out.$limit"; then
    echo "ok ulimit -$limit $LIMIT_KB: the same report"
    pass=$((pass + 1))
  else
    echo "FAIL ulimit -$limit $LIMIT_KB: status $status, $(head -c 200 "$work/err.$limit")"
    fail=$((fail + 1))
  fi
done
echo "$pass passed, $fail failed"
[ $fail = 0 ]
