#!/bin/sh
# output.sh - where profiles go: gmon.out by default, GMON_OUT_PREFIX as
# glibc names it (with its fallback to gmon.out), the LIBGMON_OUT
# pattern, names relative to the starting directory, no temporary file
# left behind, a one-line message when a profile cannot be written, and
# the summary and rate settings.

. "$srcdir/testsuite/libgmon/lib.sh"
gm_setup "" output

gm_cc life -O2 -pg -pthread -I"$GMON_SRCDIR/libgmon" \
  "$TESTSRC/lifecycle.c" "$LIBA" || gm_done

# gm_out MODE [NAME]: run the program in a clean directory; sets $pid.
gm_out () {
  rm -rf gmon.out* pfx.* prof-* f-* sub missing same.gmon ./*.tmp.*
  mkdir sub
  gm_run life "$@"
  status=$?
  pid=$(sed -n 's/^pid //p' life.out)
  [ $status -eq 0 ] || fail "life $*: exit status $status: $(cat life.err)"
}

# gm_no_tmp WHAT: no temporary file was left behind.
gm_no_tmp () {
  if ls ./*.tmp.* sub/*.tmp.* > /dev/null 2>&1; then
    fail "$1: temporary files left: $(ls ./*.tmp.* sub/*.tmp.* 2>/dev/null)"
  fi
}

echo stale > gmon.out
gm_out basic
gm_quiet life default
gm_expect_calls life gmon.out "default name gmon.out (replacing an old one)" \
  "a 10"
gm_no_tmp default

GMON_OUT_PREFIX=pfx gm_out basic
if [ -f "pfx.$pid" ] && [ ! -e gmon.out ]; then
  gm_expect_calls life "pfx.$pid" "GMON_OUT_PREFIX=pfx writes pfx.<pid>" "a 10"
else
  fail "GMON_OUT_PREFIX=pfx: $(ls)"
fi

GMON_OUT_PREFIX=missing/pfx gm_out basic
if grep -q "^libgmon: cannot write .*missing/pfx.$pid: .*; wrote .*gmon.out instead" life.err; then
  gm_expect_calls life gmon.out "GMON_OUT_PREFIX in a missing directory falls back to gmon.out" "a 10"
else
  fail "GMON_OUT_PREFIX=missing/pfx: stderr: $(cat life.err)"
fi

LIBGMON_OUT='prof-%e-%p-%t.%%' gm_out basic
name="prof-life-$pid-$pid.%"
if [ -f "$name" ]; then
  gm_expect_calls life "$name" "LIBGMON_OUT=prof-%e-%p-%t.%% gives $name" "a 10"
else
  fail "LIBGMON_OUT pattern: want $name, have: $(ls)"
fi

LIBGMON_OUT=missing/x gm_out basic
if grep -q '^libgmon: cannot write .*missing/x: No such file or directory; profile lost' life.err; then
  pass "an unwritable name: one line on stderr, exit status 0"
else
  fail "LIBGMON_OUT=missing/x: stderr: $(cat life.err)"
fi
gm_no_tmp "unwritable name"

gm_out chdir
if [ -f gmon.out ] && [ ! -e sub/gmon.out ]; then
  gm_expect_calls life gmon.out "relative names start from the starting directory" "a 10"
else
  fail "chdir: gmon.out not in the starting directory: $(ls . sub)"
fi

LIBGMON_OUT=f-%p gm_out fork
child=$(sed -n 's/^child //p' life.out)
if [ -f "f-$pid" ] && [ -f "f-$child" ]; then
  gm_expect_calls life "f-$child" "fork child with %p in the pattern: f-<pid>" "b 20"
else
  fail "fork with LIBGMON_OUT=f-%p: $(ls)"
fi

LIBGMON_VERBOSE=1 gm_out basic
if grep -Eq '^libgmon: .*gmon.out: 1 threads, [0-9]+ arc records, [0-9]+ calls.*; [0-9]+ samples at 1000 Hz' life.err; then
  pass "LIBGMON_VERBOSE=1 prints the summary"
else
  fail "LIBGMON_VERBOSE=1: stderr: $(cat life.err)"
fi

LIBGMON_HZ=abc gm_out basic
if grep -q '^libgmon: ignoring LIBGMON_HZ=abc' life.err && [ -f gmon.out ]; then
  pass "a bad LIBGMON_HZ is reported and ignored"
else
  fail "LIBGMON_HZ=abc: stderr: $(cat life.err)"
fi

# Only signals that nothing else needs may carry the samples: a fault
# signal would loop on the faulting instruction, SIGINT would no longer
# stop the program.
for sig in SEGV SIGINT 11 2 TERM CHLD; do
  LIBGMON_SIGNAL=$sig gm_out basic
  if grep -q "^libgmon: ignoring LIBGMON_SIGNAL=$sig " life.err \
     && [ -f gmon.out ]; then
    pass "LIBGMON_SIGNAL=$sig is reported and ignored"
  else
    fail "LIBGMON_SIGNAL=$sig: stderr: $(cat life.err)"
  fi
done
rm -f gmon.out
# In a background job SIGINT comes ignored, and stays so in the program.
ignored=$(sed -n 's/^SigIgn:[[:space:]]*//p' /proc/$$/status 2>/dev/null)
if [ -n "$ignored" ] && [ $(( (0x$ignored >> 1) & 1 )) -eq 1 ]; then
  skip "LIBGMON_SIGNAL=2: SIGINT is ignored here"
else
  LIBGMON_SIGNAL=2 gm_run life sigint
  status=$?
  if [ $status -eq $((128 + 2)) ] || [ $status -eq 2 ]; then
    pass "LIBGMON_SIGNAL=2 (SIGINT): SIGINT still stops the program"
  else
    fail "LIBGMON_SIGNAL=2: exit status $status: $(cat life.err)"
  fi
fi
for sig in USR1 SIGUSR2 VTALRM RTMIN+3; do
  LIBGMON_SIGNAL=$sig gm_out basic
  gm_quiet life "LIBGMON_SIGNAL=$sig"
  gm_expect_calls life gmon.out "LIBGMON_SIGNAL=$sig is accepted" "a 10"
done

# Concurrent dumps to one name: every one must succeed and leave a whole
# file (the temporary names must not collide).
gm_out dumps same.gmon
failures=$(sed -n 's/^dump failures //p' life.out)
if [ "$failures" = 0 ]; then
  gm_expect_calls life same.gmon "1600 concurrent dumps to one name" "a 80"
else
  fail "concurrent dumps: ${failures:-no} failures: $(sort -u life.err | head -3)"
fi
gm_no_tmp "concurrent dumps"

# Any legal name works: a last component of 246 and 255 bytes, in a
# directory whose path is over 3,500 bytes long.
deep=$(awk 'BEGIN { for (i = 0; i < 14; i++) { for (j = 0; j < 250; j++) printf "d"; printf "/" } }')
for n in 246 255; do
  long=$(awk -v n=$n 'BEGIN { for (i = 0; i < n; i++) printf "x" }')
  rm -rf d* x* short.gmon deep.gmon
  mkdir -p "$deep"
  LIBGMON_OUT=$long gm_run life basic
  LIBGMON_OUT=$deep$long gm_run life dump
  # (Read through short names: gm_calls adds a suffix.)
  if mv "$long" short.gmon && mv "$deep$long" deep.gmon; then
    gm_expect_calls life short.gmon "a name of $n bytes" "a 10"
    gm_expect_calls life deep.gmon "a name of $n bytes in a deep directory" "a 20"
  else
    fail "a name of $n bytes: not written: $(cat life.err)"
  fi
  if find . -name '*.tmp.*' | grep -q .; then
    fail "a name of $n bytes: temporary files left"
  fi
done
rm -rf d* x* short.gmon deep.gmon

LIBGMON_HZ=100 gm_out basic
if gm_gprof life gmon.out -b -p > hz.flat \
   && grep -q 'Each sample counts as 0.01 seconds' hz.flat; then
  pass "LIBGMON_HZ=100: the file says 100 Hz"
else
  fail "LIBGMON_HZ=100: $(head -3 hz.flat)"
fi

LIBGMON_HZ=0 gm_out basic
gm_quiet life "LIBGMON_HZ=0"
gm_expect_calls life gmon.out "LIBGMON_HZ=0: call graph only" "a 10"
gm_done
