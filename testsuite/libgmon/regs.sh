#!/bin/sh
# regs.sh ARCH - programs compute the same results with and without
# profiling: every argument register survives the mcount/__fentry__
# call, in the stub's fast and slow paths, in both link models, at -O0
# and -O2, with -mfentry where the architecture has it.  Run through
# regs-ARCH.test.

. "$srcdir/testsuite/libgmon/lib.sh"
gm_setup "$1" "regs-$1"

src=$TESTSRC/regs.c
# Floating-point results may differ between optimisation levels (x87
# excess precision, fused multiply-add), so each level has its reference.
for o in O0 O2; do
  gm_cc ref-$o -$o "$src" || gm_done
  gm_run ref-$o || fail "reference program ref-$o failed"
done

# name | compiler flags | libraries | how to run
variants="archive-O2|-O2 -pg|$LIBA|run
archive-O0|-O0 -pg|$LIBA|run
preload-O2|-O2 -pg||preload"
case $gm_arch in
  x86_64) variants="$variants
fentry-O2|-O2 -pg -mfentry|$LIBA|run
fentry-preload|-O2 -pg -mfentry||preload" ;;
  i386) variants="$variants
fentry-O2|-O2 -pg -mfentry -fno-pie -no-pie|$LIBA|run
fentry-preload|-O2 -pg -mfentry -fno-pie -no-pie||preload" ;;
esac

echo "$variants" | {
  while IFS='|' read -r name flags libs how; do
    rm -f gmon.out
    # $flags and $libs are split on purpose.
    gm_cc "$name" $flags "$src" $libs || continue
    if [ "$how" = preload ]; then gm_run_preload "$name"; else gm_run "$name"; fi
    status=$?
    # The flags start with the optimisation level: -O0 or -O2.
    ref=ref${flags%% *}
    if [ $status -ne 0 ]; then
      fail "$name: exit status $status"
    elif ! cmp -s "$ref.out" "$name.out"; then
      fail "$name: results differ from the unprofiled program:"
      diff "$ref.out" "$name.out" | sed 's/^/  | /'
    else
      pass "$name: same results as without -pg"
    fi
    gm_quiet "$name" "$name"
    # Three iterations, two call sites each for f6i8d and sum_va.
    gm_expect_calls "$name" gmon.out "$name: counts" \
      "f6i8d 6" "sum_va 6" "ten 3" "inner.0 6" "outer 3"
  done
  gm_done
}
