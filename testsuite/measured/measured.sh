#!/bin/sh
# measured.sh ARCH - the call stacks libgmon records beside gmon.out and
# gprof --measured-time: programs built so that each caller's calls cost
# a known share of a callee's time (progs.c), measured within 3 points
# of it (or of the samples' sampling error, when that is larger) where
# gprof's proportional rule says 50%, in two threads; a chain deeper
# than the stacks' depth; LIBGMON_STACKS=0; stacks left by another run;
# a damaged stacks file; -s keeping the stacks.  GNU gprof still reads
# every gmon.out as ours does without the option.  Run through
# measured-ARCH.test.

. "$srcdir/testsuite/libgmon/lib.sh"
gm_setup "$1" "measured-$1"
OURS=$GMON_BUILDDIR/gprof
eval "extra=\$GMON_CFLAGS_$gm_arch"

# Each of the program's two threads runs this many CPU seconds: some
# 1500 signals (CPU timers fire at the kernel's ticks, 250 a second
# here), whose sampling error on a 75% share is about 1.1 points on a
# quiet machine, several on a loaded one (late signals carry many
# periods to one place).
seconds=3

gm_cc progs -O2 -pg -fno-optimize-sibling-calls -pthread $extra \
  "$GMON_SRCDIR/testsuite/measured/progs.c" "$LIBA" || gm_done

# run MODE [VAR=VALUE...]: the program in directory MODE (its gmon.out);
# a FAIL and status 1 if it fails.
run () {
  _mode=$1
  shift
  rm -rf "$_mode" && mkdir "$_mode" && cd "$_mode" || return 1
  env "$@" $RUN ../progs "$_mode" "$seconds" > out 2> err
  _status=$?
  cd ..
  if [ $_status -ne 0 ]; then
    fail "$_mode: exit status $_status: $(cat "$_mode/err")"
    return 1
  fi
}

# graph MODE [FILE]: our call graph with --measured-time of MODE/FILE
# (gmon.out), in MODE/measured.
graph () {
  "$OURS" -b -q --measured-time progs "$1/${2:-gmon.out}" > "$1/measured" \
    2> "$1/gprof.err" && [ ! -s "$1/gprof.err" ] && return 0
  fail "$1: gprof --measured-time: $(cat "$1/gprof.err")"
  return 1
}

# dispersion FILE: the dispersion D of FILE's samples (gmon_out.h) times
# 65536, or 65536 when its header has none.
dispersion () {
  if [ "$(od -A n -c -j 8 -N 4 "$1" | tr -d ' ')" = disp ]; then
    od -A n -t u4 -j 12 -N 4 "$1" | tr -d ' '
  else
    echo 65536
  fi
}

# share MODE CALLEE A WA B WB [LEAST]: A's and B's calls of CALLEE cost
# WA and WB each: prints PASS if A's share of the time the two bring CALLEE's
# callers (self plus children) is the share of the cost A's calls make,
# within 3 points or, if the samples allow no better, within four times
# their sampling error (binomial, times the dispersion of clumped
# samples); or, with LEAST, at least LEAST percent.  Under an emulator
# (RUN: qemu-user, which delivers timer signals only between the blocks
# of code it translates, so that samples land late and in clumps of 30
# periods) within 20 points: still far from the proportional rule's 50%.
# FAIL otherwise, with the figures.
share () {
  _n=$(sed -n 's/^measured times: from the call stacks of \([0-9]*\) .*/\1/p' \
	 "$1/measured")
  _d=$(dispersion "$1/gmon.out")
  awk -v callee="$2" -f "$GMON_SRCDIR/testsuite/measured/parents.awk" \
      "$1/measured" \
    | awk -v a="$3" -v wa="$4" -v b="$5" -v wb="$6" -v least="${7:-101}" \
	       -v n="${_n:-0}" -v d="$_d" -v callee="$2" -v emulated="${RUN:+1}" '
	$1 == a { ta = $2; ca = $3 }
	$1 == b { tb = $2; cb = $3 }
	END {
	  if (ta + tb <= 0 || ca + cb <= 0 || n <= 0) {
	    print "FAIL no time or calls of " a " or " b; exit
	  }
	  got = 100 * ta / (ta + tb)
	  p = wa * ca / (wa * ca + wb * cb)
	  err = 100 * sqrt (p * (1 - p) * (d / 65536) / n)
	  bound = 4 * err > 3 ? 4 * err : 3
	  if (emulated && bound < 20)
	    bound = 20
	  ok = (got - 100 * p <= bound && 100 * p - got <= bound) || got >= least
	  printf "%s %s gets %.1f%% of %s'"'"'s time, its calls %.1f%% of the cost" \
		 " (bound %.1f points: %d samples, dispersion %.1f)\n",
		 ok ? "PASS" : "FAIL", a, got, callee, 100 * p, bound, n,
		 d / 65536
	}'
}

# expect MODE CALLEE A WA B WB [LEAST]: share, judged on MODE's run and,
# if that fails, on one more.  On a machine loaded past its CPUs the
# kernel's ticks can keep missing a thread and then report its time in
# clumps (sampling.sh), which biases a run beyond the sampling error;
# a measurement that is really wrong fails both.
expect () {
  _msg=$(share "$@")
  case $_msg in
    PASS*) pass "$1: ${_msg#PASS }"; return ;;
  esac
  _first=${_msg#FAIL }
  run "$1" && has_stacks "$1" && graph "$1" || return
  _msg=$(share "$@")
  case $_msg in
    PASS*) pass "$1: ${_msg#PASS } (in a second run; the first: $_first)" ;;
    *) fail "$1: ${_msg#FAIL }, and in the run before: $_first; see $work/$1" ;;
  esac
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

# Each program runs in two threads: the samples of both have stacks.
if run easyhard && has_stacks easyhard && graph easyhard; then
  expect easyhard work hard 1990000 easy 10000 99
  if grep -q "from the call stacks of \([0-9]*\) of \1 samples" \
       easyhard/measured; then
    pass "easyhard: every sample of the two threads has a stack"
  else
    fail "easyhard: $(grep 'call stacks of' easyhard/measured)"
  fi
  same_as_gnu easyhard
fi

if run recursive && has_stacks recursive && graph recursive; then
  expect recursive rec heavy 3 light 1
  same_as_gnu recursive
fi

if run mutual && has_stacks mutual && graph mutual; then
  expect mutual even big 3 small 1
  same_as_gnu mutual
fi

# The rest needs no precise shares: shorter runs.
seconds=0.5

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
  # and is the usual one but for those lines.
  "$OURS" -b -q progs easyhard/gmon.out > easyhard/usual
  if sed '/^measured times: none/,/^$/d' easyhard/measured \
     | cmp -s - easyhard/usual; then
    pass "without stacks, the call graph is the proportional one"
  else
    fail "without stacks, the call graph differs from the usual one"
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

# A damaged stacks file ends the run with a message, as a damaged
# profile does.
if run easyhard; then
  head -c 12 easyhard/gmon.out.stacks > cut.stacks
  mv cut.stacks easyhard/gmon.out.stacks
  "$OURS" -b -q --measured-time progs easyhard/gmon.out > /dev/null \
    2> easyhard/gprof.err
  status=$?
  if [ $status = 1 ] && grep -q "gmon.out.stacks: unexpected end of file" \
       easyhard/gprof.err; then
    pass "a cut stacks file: $(cat easyhard/gprof.err)"
  else
    fail "a cut stacks file: status $status, $(cat easyhard/gprof.err)"
  fi
fi

# -s adds up the stacks with the profiles: gmon.sum.stacks.
if run recursive && mv recursive sum1 && run recursive; then
  if "$OURS" -s progs sum1/gmon.out recursive/gmon.out > /dev/null \
       2> sum.err && [ -s gmon.sum.stacks ]; then
    mkdir sum && mv gmon.sum gmon.sum.stacks sum/
    if graph sum gmon.sum \
       && grep -q "from the call stacks of \([0-9]*\) of \1 samples" \
            sum/measured; then
      pass "-s: gmon.sum.stacks holds the stacks of both runs"
    else
      fail "-s: $(grep 'call stacks' sum/measured)"
    fi
    same_as_gnu sum gmon.sum
  else
    fail "-s wrote no gmon.sum.stacks: $(cat sum.err)"
  fi
fi

gm_done
