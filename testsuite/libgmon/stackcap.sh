#!/bin/sh
# stackcap.sh - the table of call stacks keeps a million distinct stacks
# on 64-bit targets, and their file stays within 16 MB: stackfill.c puts
# a million paths of a 20-deep binary recursion under an 8-frame prefix
# in through the handler's insertion; the stacks file libgmon writes and
# the one gprof -s writes from what it read hold each with its weight
# (stackread.c decodes them on its own).  Past the table's 1,048,576
# stacks, the rest are dropped, counted and reported on the summary
# line.  Run through stackcap.test.

. "$srcdir/testsuite/libgmon/lib.sh"
gm_setup "" stackcap
OURS=$GMON_BUILDDIR/gprof
case $gm_arch in
  x86_64 | aarch64) ;;
  *)
    echo "SKIP: $gm_arch keeps fewer stacks (doc/libgmon.md, Call stacks)"
    exit 77
    ;;
esac

gm_cc stackfill -O2 -pg -pthread -I"$GMON_SRCDIR/libgmon" \
  "$TESTSRC/stackfill.c" "$LIBA" || gm_done
gm_cc stackread -O2 "$TESTSRC/stackread.c" || gm_done

# field NAME FILE: the number after NAME on FILE's line.
field () {
  awk -v k="$1" '{ for (i = 1; i < NF; i++)
                     if ($i == k) { print $(i + 1); exit } }' "$2"
}

# fill COUNT LEVELS STEP: stackfill in a fresh directory fill-COUNT-STEP
# (cd there); status 1 and a FAIL if it fails.
fill () {
  cd "$work" && rm -rf "fill-$1-$3" && mkdir "fill-$1-$3" \
    && cd "fill-$1-$3" || return 1
  gm_run ../stackfill "$@" && return 0
  fail "stackfill $*: $(cat ../stackfill.err)"
  return 1
}

# read FILE LEVELS: stackread's line for FILE, in FILE.read.
read_back () {
  ../stackread "$1" "$2" $(sed -n 's/^frames //p' ../stackfill.out) \
    > "$1.read" 2>&1 && return 0
  fail "$1: $(cat "$1.read")"
  return 1
}

# same FILE WHAT: FILE.read found what stackfill kept, with their weight
# and the weight it dropped.
same () {
  _k=$(field kept ../stackfill.out) _w=$(field weight ../stackfill.out)
  _d=$(field dropped ../stackfill.out)
  if [ "$(field found "$1.read")" = "$_k" ] \
     && [ "$(field weight "$1.read")" = "$_w" ] \
     && [ "$(field dropped "$1.read")" = "$_d" ]; then
    pass "$2: $_k stacks of $_w periods, each its own weight; $_d dropped"
  else
    fail "$2: stackfill: $(tail -n 1 ../stackfill.out); $1: $(cat "$1.read")"
  fi
}

# A million stacks, in the order a recursion's samples come (STEP 1)
# and out of it.
for step in 1 40503; do
  fill 1000000 20 $step || continue
  what="a million stacks (step $step)"
  if [ "$(field kept ../stackfill.out)" != 1000000 ]; then
    fail "$what: stackfill: $(tail -n 1 ../stackfill.out)"
    continue
  fi
  gm_quiet ../stackfill "$what"
  size=$(wc -c < gmon.out.stacks)
  if [ "$size" -le 16000000 ]; then
    pass "$what: gmon.out.stacks is $size bytes"
  else
    fail "$what: gmon.out.stacks is $size bytes, over 16 MB"
  fi
  read_back gmon.out.stacks 20 && same gmon.out.stacks "$what: libgmon's file"
  if "$OURS" -s ../stackfill gmon.out 2> gprof.err && [ ! -s gprof.err ]; then
    read_back gmon.sum.stacks 20 \
      && same gmon.sum.stacks "$what: read and written again by gprof -s"
  else
    fail "$what: gprof -s: $(cat gprof.err)"
  fi
done

# More than the table holds: it keeps exactly its capacity, and the
# summary line reports the periods of the stacks it turned down.
if fill 1200000 21 1; then
  kept=$(field kept ../stackfill.out) dropped=$(field dropped ../stackfill.out)
  if [ "$kept" = 1048576 ] && [ "$dropped" -gt 0 ]; then
    pass "1.2 million stacks: the table keeps 1048576"
  else
    fail "1.2 million stacks: $(tail -n 1 ../stackfill.out)"
  fi
  if grep -q "^libgmon: .*; stacks: 0 samples cut at 32 frames, $dropped without a stack" \
       ../stackfill.err; then
    pass "1.2 million stacks: the summary line reports $dropped dropped"
  else
    fail "1.2 million stacks: want $dropped dropped reported: $(cat ../stackfill.err)"
  fi
  read_back gmon.out.stacks 21 \
    && same gmon.out.stacks "1.2 million stacks: libgmon's file"
fi
cd "$work" || exit 1
gm_done
