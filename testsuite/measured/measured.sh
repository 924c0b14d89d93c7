#!/bin/sh
# measured.sh ARCH - the call stacks libgmon records beside gmon.out and
# gprof --measured-time: programs built to give each caller a known
# share of a callee's time (progs.c), measured within 3 points of it
# where gprof's proportional rule says 50%; a chain deeper than the
# stacks' depth; threads; LIBGMON_STACKS=0; stacks left by another run;
# -s keeping the stacks.  GNU gprof still reads every gmon.out as ours
# does without the option.  Run through measured-ARCH.test.

. "$srcdir/testsuite/libgmon/lib.sh"
gm_setup "$1" "measured-$1"
OURS=$GMON_BUILDDIR/gprof
eval "extra=\$GMON_CFLAGS_$gm_arch"

# Time enough for some 1000 samples, less under qemu.
n=10
[ -n "$RUN" ] && n=2

gm_cc progs -O2 -pg -fno-optimize-sibling-calls -pthread $extra \
  "$GMON_SRCDIR/testsuite/measured/progs.c" "$LIBA" || gm_done

# run MODE [VAR=VALUE...]: the program in directory MODE (its gmon.out);
# a FAIL and status 1 if it fails.
run () {
  _mode=$1
  shift
  rm -rf "$_mode" && mkdir "$_mode" && cd "$_mode" || return 1
  env "$@" $RUN ../progs "$_mode" "$n" > out 2> err
  _status=$?
  cd ..
  if [ $_status -ne 0 ]; then
    fail "$_mode: exit status $_status: $(cat "$_mode/err")"
    return 1
  fi
}

# graph MODE: our call graph with --measured-time, in MODE/measured.
graph () {
  "$OURS" -b -q --measured-time progs "$1/gmon.out" > "$1/measured" \
    2> "$1/gprof.err" && [ ! -s "$1/gprof.err" ] && return 0
  fail "$1: gprof --measured-time: $(cat "$1/gprof.err")"
  return 1
}

# share MODE CALLEE CALLER: CALLER's percentage of the time CALLEE's
# callers get (self plus children) in MODE/measured.
share () {
  awk -v callee="$2" -f "$GMON_SRCDIR/testsuite/measured/parents.awk" \
    "$1/measured" \
  | awk -v caller="$3" '{ t += $2; if ($1 == caller) c += $2 }
	END { if (t > 0) printf "%.1f\n", 100 * c / t; else print "none" }'
}

# expect MODE CALLEE CALLER LOW HIGH: CALLER's share within [LOW, HIGH].
expect () {
  _got=$(share "$1" "$2" "$3")
  if awk -v g="$_got" -v lo="$4" -v hi="$5" \
       'BEGIN { exit !(g != "none" && g >= lo && g <= hi) }'; then
    pass "$1: $3 gets $_got% of $2's time (want $4..$5)"
  else
    fail "$1: $3 gets $_got% of $2's time (want $4..$5); see $work/$1"
  fi
}

# same_as_gnu MODE [FILE]: GNU gprof's flat profile and call graph of
# the profile are ours without the option.
same_as_gnu () {
  _f=${2:-gmon.out}
  if gm_gprof progs "$1/$_f" -b > "$1/gnu" \
     && "$OURS" -b progs "$1/$_f" > "$1/ours" 2>&1 \
     && cmp -s "$1/gnu" "$1/ours"; then
    pass "$1: GNU gprof reads $_f and prints what ours prints"
  else
    fail "$1: GNU gprof's report of $_f differs from ours"
  fi
}

# has_stacks MODE: PASS if gmon.out.stacks was written.
has_stacks () {
  if [ -s "$1/gmon.out.stacks" ]; then
    return 0
  fi
  fail "$1: no gmon.out.stacks; stderr: $(cat "$1/err")"
  return 1
}

if run easyhard && has_stacks easyhard && graph easyhard; then
  expect easyhard work hard 99 100
  same_as_gnu easyhard
fi

if run recursive && has_stacks recursive && graph recursive; then
  expect recursive rec heavy 72 78
  expect recursive rec light 22 28
  same_as_gnu recursive
fi

if run mutual && has_stacks mutual && graph mutual; then
  expect mutual even big 72 78
  expect mutual even small 22 28
  same_as_gnu mutual
fi

# Threads: the samples of both threads, all with stacks.
if run threads LIBGMON_VERBOSE=1 && has_stacks threads && graph threads; then
  expect threads work hard 99 100
  if grep -q "from the call stacks of \([0-9]*\) of \1 samples" \
       threads/measured; then
    pass "threads: every sample has a stack"
  else
    fail "threads: $(grep 'call stacks of' threads/measured)"
  fi
  same_as_gnu threads
fi

# A chain of 100 calls, stacks of at most 8 frames: cut and counted.
if run deep LIBGMON_STACKS=8 LIBGMON_VERBOSE=1 && has_stacks deep \
   && graph deep; then
  if grep -q "stacks: [1-9][0-9]* samples cut at 8 frames" deep/err \
     && grep -q "([1-9][0-9]* cut at 8 frames)" deep/measured; then
    pass "deep: the stacks cut at 8 frames are counted"
  else
    fail "deep: no stacks cut: $(cat deep/err); $(grep cut deep/measured)"
  fi
  same_as_gnu deep
fi

# LIBGMON_STACKS=0: no stacks file, and the call graph says so.
if run easyhard LIBGMON_STACKS=0; then
  if [ -e easyhard/gmon.out.stacks ]; then
    fail "LIBGMON_STACKS=0 wrote gmon.out.stacks"
  else
    pass "LIBGMON_STACKS=0 writes no stacks"
  fi
  if graph easyhard && grep -q "^measured times: none" easyhard/measured; then
    pass "without stacks, the call graph says no time is measured"
  else
    fail "without stacks: $(head -n 8 easyhard/measured)"
  fi
fi

# Stacks of an earlier run beside a new gmon.out are not used.
if run easyhard && mv easyhard/gmon.out.stacks stale.stacks \
   && run easyhard LIBGMON_STACKS=0; then
  mv stale.stacks easyhard/gmon.out.stacks
  if "$OURS" -b -q --measured-time progs easyhard/gmon.out \
       > easyhard/measured 2> easyhard/gprof.err \
     && grep -q "not the call stacks of" easyhard/gprof.err \
     && grep -q "^measured times: none" easyhard/measured; then
    pass "stacks of another run are not used"
  else
    fail "stale stacks: $(cat easyhard/gprof.err)"
  fi
fi

# -s adds up the stacks with the profiles: gmon.sum.stacks.
if run recursive && mv recursive sum1 && run recursive; then
  if "$OURS" -s progs sum1/gmon.out recursive/gmon.out > /dev/null \
       2> sum.err && [ -s gmon.sum.stacks ]; then
    mkdir sum && mv gmon.sum gmon.sum.stacks sum/
    if graph sum \
       && grep -q "from the call stacks of \([0-9]*\) of \1 samples" \
            sum/measured; then
      pass "-s: gmon.sum.stacks holds the stacks of both runs"
      expect sum rec heavy 72 78
    else
      fail "-s: $(grep 'call stacks' sum/measured)"
    fi
    same_as_gnu sum gmon.sum
  else
    fail "-s wrote no gmon.sum.stacks: $(cat sum.err)"
  fi
fi

gm_done
