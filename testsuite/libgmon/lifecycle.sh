#!/bin/sh
# lifecycle.sh - profiling across a program's life, in both link models:
# constructors, atexit handlers and destructors are profiled; moncontrol
# stops and resumes; libgmon_dump and libgmon_reset work; an explicit
# _mcleanup writes at once; fork children start from zero under their
# own name; exec'd programs are not killed by an inherited timer, nor
# fork children that reset their signals before exec;
# short-lived threads are all counted; a table grows past 2048 arcs.

. "$srcdir/testsuite/libgmon/lib.sh"
gm_setup "" lifecycle

src=$TESTSRC/lifecycle.c
inc=-I$GMON_SRCDIR/libgmon
gm_cc life-archive -O2 -pg -pthread "$inc" "$src" "$LIBA" || gm_done
gm_cc life-preload -O2 -pg -pthread "$inc" "$src" || gm_done

for model in archive preload; do
  prog=life-$model
  # gm_life MODE: run one scenario; 0 if the program succeeded.
  gm_life () {
    rm -f gmon.out gmon.out.* early.gmon
    if [ $model = archive ]; then gm_run $prog "$1"; else gm_run_preload $prog "$1"; fi
    status=$?
    [ $status -eq 0 ] && return 0
    fail "$model $1: exit status $status: $(cat $prog.err)"
    return 1
  }

  gm_life basic && gm_quiet $prog "$model basic" \
    && gm_expect_calls $prog gmon.out "$model basic" "a 10" "c 3"

  gm_life dtor && gm_expect_calls $prog gmon.out \
    "$model constructor, atexit handler and destructor" \
    "a 10" "c 3" "d 7" "e 5"

  gm_life moncontrol && gm_expect_calls $prog gmon.out "$model moncontrol" \
    "a 20" "b 0"

  gm_life dump && gm_expect_calls $prog early.gmon "$model libgmon_dump" \
    "a 10" && gm_expect_calls $prog gmon.out "$model after libgmon_dump" "a 20"

  gm_life reset && gm_expect_calls $prog gmon.out "$model libgmon_reset" \
    "a 5" "c 0"

  gm_life mcleanup && gm_expect_calls $prog gmon.out \
    "$model explicit _mcleanup then _exit" "a 10"

  if gm_life fork; then
    child=$(sed -n 's/^child //p' $prog.out)
    gm_expect_calls $prog gmon.out "$model fork: parent" "a 20" "b 0"
    gm_expect_calls $prog "gmon.out.$child" "$model fork: child from zero" \
      "a 0" "b 20" "c 0"
  fi

  gm_life exec && pass "$model exec: the exec'd CPU-bound program ran to the end"

  if gm_life spawn; then
    killed=$(sed -n 's/^spawn killed //p' $prog.out)
    [ "$killed" = 0 ] \
      && pass "$model 50 fork children reset their signals, burn CPU and exec" \
      || fail "$model spawn: ${killed:-?} of 50 children killed: $(sort $prog.err | uniq -c | head -3)"
    gm_expect_calls $prog gmon.out "$model spawn: parent" "a 50"
  fi

  gm_life threads && gm_quiet $prog "$model threads" \
    && gm_expect_calls $prog gmon.out "$model 200 short-lived threads" \
      "a 2000"
done

# The summary (LIBGMON_VERBOSE) counts every thread that made calls.
LIBGMON_VERBOSE=1 gm_run life-archive threads
threads=$(sed -n 's/.*: \([0-9]*\) threads,.*/\1/p' life-archive.err)
[ "$threads" = 201 ] && pass "summary counts 201 threads" \
  || fail "summary: '$(cat life-archive.err)'"

# More arcs than the first table holds (2048 slots, grown at half load).
awk 'BEGIN {
  for (i = 0; i < 3000; i++)
    printf "__attribute__ ((noinline)) void f%d (void) { __asm__ volatile (\"\"); }\n", i
  print "int main (void) {"
  for (i = 0; i < 3000; i++) printf "  f%d ();\n", i
  print "  return 0; }" }' > many.c
gm_cc many -O1 -pg many.c "$LIBA" || gm_done
rm -f gmon.out
if gm_run many; then
  gm_quiet many "3000 arcs"
  if gm_calls many gmon.out many.calls; then
    n=$(awk '$2 == 1' many.calls | wc -l)
    [ "$n" -eq 3000 ] && pass "3000 arcs (glibc writes no file at all here)" \
      || fail "3000 arcs: only $n functions with one call"
  fi
else
  fail "many: exit status $?"
fi
gm_done
