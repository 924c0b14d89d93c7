#!/bin/sh
# threads.sh ARCH - exact call counts with 1 to 16 threads, and with a
# signal handler counting the same arc as the code it interrupts, with
# the program linked with libgmon.a and with libgmon.so preloaded into a
# program linked against glibc's gmon.  Run through threads-ARCH.test.

. "$srcdir/testsuite/libgmon/lib.sh"
gm_setup "$1" "threads-$1"

# Fewer calls under qemu, which is some 20 times slower.
n=200000
[ -n "$RUN" ] && n=50000

gm_cc archive -O2 -pg -pthread "$TESTSRC/threads.c" "$LIBA" || gm_done
gm_cc glibc -O2 -pg -pthread "$TESTSRC/threads.c" || gm_done

for t in 1 2 4 8 16; do
  for model in archive preload; do
    rm -f gmon.out
    if [ $model = archive ]; then
      prog=archive
      gm_run archive "$t" "$n"
    else
      prog=glibc
      gm_run_preload glibc "$t" "$n"
    fi
    status=$?
    if [ $status -ne 0 ]; then
      fail "$model T=$t: exit status $status: $(cat $prog.err)"
      continue
    fi
    gm_quiet $prog "$model T=$t"
    gm_expect_calls $prog gmon.out "$model T=$t N=$n" \
      "mid $((t * n))" "leaf $((2 * t * n))"
  done
done

# The arc g -> h counted both by a loop and by a SIGALRM handler that
# interrupts it (lifecycle.c, mode signals): the stubs' increment must
# not lose a count to the handler (incq on x86-64, add/adc on i386, an
# exclusive load/store pair on aarch64).
gm_cc life-archive -O2 -pg -pthread -I"$GMON_SRCDIR/libgmon" \
  "$TESTSRC/lifecycle.c" "$LIBA" || gm_done
gm_cc life-glibc -O2 -pg -pthread -I"$GMON_SRCDIR/libgmon" \
  "$TESTSRC/lifecycle.c" || gm_done
for model in archive preload; do
  rm -f gmon.out
  if [ $model = archive ]; then
    prog=life-archive
    gm_run $prog signals
  else
    prog=life-glibc
    gm_run_preload $prog signals
  fi
  status=$?
  if [ $status -ne 0 ]; then
    fail "$model signals: exit status $status: $(cat $prog.err)"
    continue
  fi
  calls=$(sed -n 's/^calls //p' $prog.out)
  # A handler that interrupts libgmon's own slow path (a table growing,
  # a sample being taken) loses the calls that miss the table, and
  # libgmon says how many: rare, allowed.  A count lost without a word
  # is the failure this looks for.
  lost=$(sed -n 's/^libgmon: .*; LOST [0-9]* calls (\([0-9]*\) in signal handlers interrupting libgmon, 0 for lack of memory).*/\1/p' $prog.err)
  if [ -z "$lost" ]; then
    gm_quiet $prog "$model signals"
    gm_expect_calls $prog gmon.out \
      "$model calls from a loop and from its signal handler" \
      "g $calls" "h $calls"
  elif [ -f gmon.out ] && gm_calls $prog gmon.out calls.txt; then
    g=$(awk '$1 == "g" { print $2 }' calls.txt)
    h=$(awk '$1 == "h" { print $2 }' calls.txt)
    short=$(( (calls - ${g:-0}) + (calls - ${h:-0}) ))
    if [ "${g:-0}" -le "$calls" ] && [ "${h:-0}" -le "$calls" ] \
       && [ "$short" -le "$lost" ]; then
      pass "$model calls from a loop and from its signal handler: g $g h $h of $calls, $lost reported lost"
    else
      fail "$model calls from a loop and from its signal handler: g=$g h=$h (want $calls, $lost reported lost)"
    fi
  else
    fail "$model signals: no profile; stderr: $(cat $prog.err)"
  fi
done

# For comparison only (not a check): glibc's own gmon on the same run.
rm -f gmon.out
if gm_run glibc 4 "$n" && gm_calls glibc gmon.out glibc.calls; then
  leaf=$(awk '$1 == "leaf" { print $2 }' glibc.calls)
  echo "NOTE: glibc's gmon, T=4: leaf ${leaf:-0} of $((8 * n)) calls counted"
fi
gm_done
