#!/bin/sh
# sampling.sh - every thread is sampled on its own CPU clock: the flat
# profile charges each thread's function with that thread's CPU time
# (glibc's process-wide ITIMER_PROF is off by up to 25% per thread here),
# with the default signal and with LIBGMON_SIGNAL=RTMIN+1; fork children
# are not sampled.

. "$srcdir/testsuite/libgmon/lib.sh"
gm_setup "" sampling

gm_cc spin -O1 -pg -pthread "$TESTSRC/spin.c" "$LIBA" || gm_done

# gm_check_times FILE TRUTH: each function's self seconds in the flat
# profile of FILE against the CPU time the program measured (in TRUTH,
# as spin.out has it); sets $bad and $all for the messages.  Within
# max (0.04 s, 15%): the samples fall on scheduler ticks (4 ms at 250 Hz)
# and the loop reads its clock through a system call now and then; on a
# loaded machine a 0.1 s thread was seen 3 samples (0.03 s) short.
gm_check_times () {
  gm_gprof spin "$1" -b -p > "$1.flat" || return
  bad= all=
  while read -r fn truth; do
    got=$(awk -v f="$fn" '$NF == f { print $3 }' "$1.flat")
    ok=$(awk -v t="$truth" -v g="${got:-0}" 'BEGIN {
	   d = g - t; if (d < 0) d = -d; tol = t * 0.15; if (tol < 0.04) tol = 0.04
	   print (d <= tol) }')
    [ "$ok" = 1 ] || bad="$bad $fn: ${got:-0} s sampled, $truth s used;"
    all="$all $fn $truth/${got:-0}"
  done < "$2"
  [ -z "$bad" ]
}
# gm_compare FILE TRUTH WHAT: the same, as a test result.
gm_compare () {
  if gm_check_times "$1" "$2"; then
    pass "$3: CPU seconds used/sampled:$all"
  else
    fail "$3:$bad"
  fi
}
# Four spinning threads on a loaded two-CPU machine once lost half of a
# 0.2 s thread's samples (CI's parallel tests beside two fuzzers): a run
# that misses is made once more, and the second run decides.
for sig in PROF RTMIN+1; do
  first=
  for attempt in 1 2; do
    rm -f gmon.out
    if ! LIBGMON_SIGNAL=$sig gm_run spin; then
      fail "SIG$sig: exit status $?: $(cat spin.err)"
      break
    fi
    gm_quiet spin "SIG$sig"
    if gm_check_times gmon.out spin.out; then
      pass "4 threads, SIG$sig: CPU seconds used/sampled:$all${first:+ (first run:$first)}"
      break
    fi
    first=$bad
    [ $attempt = 2 ] && fail "4 threads, SIG$sig: twice:$first"
  done
done

# Fork children are not sampled (a timer there could kill a child that
# resets its signals before exec, lifecycle.sh): their file has the call
# graph and an empty histogram.
rm -f gmon.out gmon.out.*
if gm_run spin fork; then
  child=$(sed -n 's/^child //p' spin.out)
  echo "spin_child 0" > child.truth
  gm_compare "gmon.out.$child" child.truth "fork child: not sampled"
else
  fail "fork: exit status $?: $(cat spin.err)"
fi
gm_done
