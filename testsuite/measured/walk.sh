#!/bin/sh
# walk.sh ARCH - libgmon's walk of the frame-pointer chain at samples
# where a frame is unusable (walk.c): a leaf that keeps no frame, a
# frame pointer set to hostile values, libc code (qsort calling back
# into the program, memcpy and memset), each once in the main thread
# and in four threads at once.  Each run must exit 0, every sample in
# the program must have a stack, none cut, and every frame of every
# stack must lie in one of the program's functions (nm), the stack a
# subsequence of a chain of calls the program really makes
# (walkcheck.awk, from the stacks decoded by walkread.c).  GNU gprof
# still reads every gmon.out as ours does.  Run through walk-ARCH.test.
#
# What the walk gives (the stacks by function, heaviest first, are
# printed below each run):
# - frameless: leaf() leaves the frame pointer as its caller, a() or
#   b(), set it, so the walk goes on from that caller's record, whose
#   return address is into run_mode(): main;run_mode;leaf.  The caller
#   is skipped, as with perf's frame-pointer unwinding, but for samples
#   on leaf's ret (the return address on top of the stack on x86, in
#   the link register on aarch64): main;run_mode;b;leaf.
# - garbage: garbage_spin alone, the walk refusing the value at once;
#   decoy_ok;garbage_spin for a word holding its own address and for a
#   record whose next one lies below it (a planted true return address,
#   one after a call, is all the walk can tell from a real one: the next
#   record is then refused); garbage_spin alone for a record whose
#   "return address" points into the program but follows no call
#   (not-return); the whole chain at the instructions that save and
#   restore the frame pointer.  decoy_bad's return address lies where the walk
#   must not go (the heap, below the planted record): it never shows
#   in garbage_spin's stacks (a sample in garbage_setup's own calls of
#   the decoys, rare, shows them where they really are).
#   Each value alone is run too, to see where it stops the walk.
# - libc: cmp alone, and cmp_leaf alone: cmp's record holds a return
#   address into libc, and cmp_leaf's frame pointer is whatever qsort
#   left in it (glibc 2.36 on x86-64: a small count), which the walk
#   refuses or follows to no return address in the program.  Samples in memcpy and memset are not the program's
#   (the summary line's "elsewhere") and get no stack.
# On i386, functions call get_pc_thunk, which keeps no frame: a sample
# in it skips its caller, or keeps it when on its ret.

. "$srcdir/testsuite/libgmon/lib.sh"
gm_setup "$1" "walk-$1"
OURS=$GMON_BUILDDIR/gprof
NM=${GPROF%gprof}nm
eval "extra=\$GMON_CFLAGS_$gm_arch"
SRC=$GMON_SRCDIR/testsuite/measured
seconds=1

gm_cc walk-leaf.o -c -O2 -fomit-frame-pointer $extra "$SRC/walk-leaf.c" \
  || gm_done
gm_cc walk.o -c -O2 -pg -fno-optimize-sibling-calls -pthread $extra \
  "$SRC/walk.c" || gm_done
gm_cc walk -pg -pthread $extra walk.o walk-leaf.o "$LIBA" || gm_done
gm_cc walkread -O2 $extra "$SRC/walkread.c" || gm_done
# The program's functions, and its own among them (not the crt files',
# libgmon's or i386's get_pc_thunk).
if ! "$NM" -n -S --synthetic --defined-only walk > walk.syms 2> nm.err \
   || ! "$NM" --defined-only walk.o walk-leaf.o > own.syms 2>> nm.err; then
  fail "$NM: $(cat nm.err)"
  gm_done
fi
awk 'NF == 3 && $2 ~ /^[TtWw]$/ && $3 !~ /get_pc_thunk/ { print $3 }' \
  own.syms > own.names

# chains MODE ROOT: the chains of calls of MODE run from ROOT (main or
# run_thread), outermost first, a line each.
chains () {
  echo main
  case $1 in
    frameless)
      echo "$2 run_mode a leaf"
      echo "$2 run_mode b leaf"
      ;;
    garbage)
      echo "$2 run_mode garbage_setup decoy_ok note_return"
      echo "$2 run_mode garbage_setup decoy_bad note_return"
      echo "$2 run_mode garbage garbage_spin"
      echo "decoy_ok garbage_spin"
      ;;
    libc)
      echo "$2 run_mode sorter cmp"
      echo "$2 run_mode sorter cmp_leaf"
      echo "$2 run_mode copier"
      ;;
  esac
  echo "$2 run_mode cpu_seconds"
}

# weight_of RUN PATTERN: the periods of RUN's stacks whose path matches
# PATTERN (an extended regular expression).
weight_of () {
  awk -v re="$2" '$1 == "stack" && $3 ~ re { w += $2 } END { print w + 0 }' \
    "$1/check"
}

# check MODE THREADS [VALUE]: run MODE (garbage with VALUE only) in
# directory MODE-THREADS (garbage-VALUE) and check it.
check () {
  _r=$1-${3:-$2}
  rm -rf "$_r" && mkdir "$_r" || return
  (cd "$_r" && LIBGMON_VERBOSE=1 $RUN ../walk "$1" "$seconds" "$2" $3 \
     > out 2> err)
  _status=$?
  if [ $_status -ne 0 ]; then
    fail "$_r: exit status $_status: $(cat "$_r/err")"
    return
  fi
  if [ ! -s "$_r/gmon.out.stacks" ]; then
    fail "$_r: no gmon.out.stacks: $(cat "$_r/err")"
    return
  fi
  if ! $RUN ./walkread "$_r/gmon.out.stacks" > "$_r/stacks" 2>&1; then
    fail "$_r: $(cat "$_r/stacks")"
    return
  fi
  if [ "$(sed -n '1s/^depth [0-9]* //p' "$_r/stacks")" = "dropped 0 cut 0" ]
  then
    pass "$_r: every sample in the program has a stack, none cut"
  else
    fail "$_r: $(head -n 1 "$_r/stacks"); $(cat "$_r/err")"
  fi
  [ "$2" = 0 ] && _root=main || _root=run_thread
  chains "$1" "$_root" > "$_r/chains"
  if awk -f "$SRC/walkcheck.awk" "$_r/chains" walk.syms own.names \
       "$_r/stacks" > "$_r/check"; then
    pass "$_r: stacks ($(grep -c '^stack' "$_r/check") distinct) hold" \
      "only the program's functions, in the order of real calls"
  else
    fail "$_r: stacks outside the program or its chains of calls:"
    grep -v '^stack' "$_r/check" | sed 's/^/  | /'
  fi
  # The stacks by function that weigh most, for the record.
  awk '$1 == "stack" { w[$3] += $2 } END { for (p in w) print w[p], p }' \
    "$_r/check" | sort -nr | head -n 6 | sed 's/^/  | /'

  case $1 in
    frameless) _in=leaf ;;
    garbage) _in=garbage_spin ;;
    libc) _in="cmp cmp_leaf" ;;
  esac
  for _f in $_in; do
    _w=$(weight_of "$_r" "(^|;)$_f\$")
    if [ "$_w" -gt 0 ]; then
      pass "$_r: $_f has stacks of $_w periods"
    else
      fail "$_r: no stack ends in $_f"
    fi
  done
  # Where each hostile value alone stops the walk: after the planted
  # record for the two that hold one, at once for the others, which
  # then show no decoy at all.
  case $3 in
    self | out-of-order) _want='decoy_ok;garbage_spin' ;;
    ?*) _want=garbage_spin ;;
    *) _want= ;;
  esac
  if [ -n "$_want" ]; then
    if [ "$(weight_of "$_r" "^$_want\$")" -gt 0 ] \
       && { [ "$_want" != garbage_spin ] \
            || [ "$(weight_of "$_r" 'decoy.*garbage_spin')" = 0 ]; }; then
      pass "$_r: the walk ends as it must: $_want"
    else
      fail "$_r: no stack $_want, or a decoy where none must be"
    fi
  fi
  # The time in memcpy and memset is outside the program.
  if [ "$1" = libc ]; then
    if grep -q ' [1-9][0-9]* elsewhere' "$_r/err"; then
      pass "$_r: $(sed -n 's/.*in libgmon, \([0-9]*\) elsewhere.*/\1/p' \
        "$_r/err") samples outside the program (libc)"
    else
      fail "$_r: no samples outside the program: $(cat "$_r/err")"
    fi
  fi

  if gm_gprof walk "$_r/gmon.out" -b > "$_r/gnu" \
     && "$OURS" -b walk "$_r/gmon.out" > "$_r/ours" 2>&1 \
     && cmp -s "$_r/gnu" "$_r/ours"; then
    pass "$_r: GNU gprof reads gmon.out and prints what ours prints"
  else
    fail "$_r: GNU gprof's report differs from ours"
  fi
}

for mode in frameless garbage libc; do
  check $mode 0
  check $mode 4
done
# Some 75 signals for each hostile value alone.
seconds=0.3
for value in zero one odd unmapped self heap below-sp out-of-order \
	     stack-end not-return; do
  check garbage 0 $value
done
gm_done
