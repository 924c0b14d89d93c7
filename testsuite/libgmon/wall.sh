#!/bin/sh
# wall.sh ARCH - wall-clock sampling (LIBGMON_CLOCK=wall): time spent
# blocked lands under the function that waits, and the program behaves
# as without it: its sleeps last as long as asked, no system call fails
# with EINTR, its own signal handler and mask are untouched.  Run
# through wall-ARCH.test.

. "$srcdir/testsuite/libgmon/lib.sh"
gm_setup "$1" "wall-$1"
unset LIBGMON_CLOCK LIBGMON_STACKS LIBGMON_DUMP_SIGNAL LIBGMON_INTERVAL
OURS=$GMON_BUILDDIR/gprof
# The i386 build needs the host's asm headers (errno.h).
eval "extra=\$GMON_CFLAGS_$gm_arch"

gm_cc wallprog -O2 -pg -pthread $extra "$TESTSRC/wallprog.c" "$LIBA" \
  || gm_done

# self_seconds FILE: "function seconds" lines of GNU gprof's flat
# profile of FILE (which GNU gprof must read cleanly) into FILE.self.
self_seconds () {
  gm_gprof wallprog "$1" -b -p > "$1.flat" || return 1
  awk '/^ *[0-9.]+ +[0-9.]+ +[0-9.]+ / { print $NF, $3 }' "$1.flat" \
    > "$1.self"
}

# in_bounds FILE function:seconds:tolerance...: whether each function's
# self time is that many seconds, give or take; the misses in $_bad.
in_bounds () {
  _f=$1
  shift
  _bad=
  for _want in "$@"; do
    set -- $(echo "$_want" | tr : ' ')
    _got=$(awk -v f="$1" '$1 == f { print $2 }' "$_f.self")
    awk -v g="${_got:-0}" -v w="$2" -v t="$3" \
      'BEGIN { exit !(g >= w - t && g <= w + t) }' \
      || _bad="$_bad $1=${_got:-0} (want $2 +- $3)"
  done
  [ -z "$_bad" ]
}

# within FILE WHAT function:seconds:tolerance...: in_bounds as a test
# result.
within () {
  _f=$1 _what=$2
  shift 2
  if in_bounds "$_f" "$@"; then
    pass "$_what"
  else
    fail "$_what:$_bad"
  fi
}

# three MODE: run the three threads (MODE wall or cpu) into gmon.out and
# its .self; false if the run or GNU gprof fails.
three () {
  rm -f gmon.out gmon.out.stacks gmon.out.self
  if [ "$1" = wall ]; then
    LIBGMON_CLOCK=wall gm_run wallprog three
  else
    gm_run wallprog three
  fi && self_seconds gmon.out
}

# The three threads, on wall time: 1 s computing, 4 s reading a pipe,
# 2 s in nanosleep, each within 5% and each under the thread's start
# function in the stacks (the folded export of our gprof).  The times
# are judged on one more run if the first misses: on a machine loaded
# past its CPUs the kernel's CPU-time timers can miss a thread for long
# stretches (sampling.sh), which a wrong measurement survives twice.
wall_want="spin_caller:1.00:0.05 read_caller:4.00:0.20 sleep_caller:2.00:0.10"
first=
if three wall && ! in_bounds gmon.out $wall_want; then
  first=$_bad
  three wall
fi
if [ -s gmon.out.self ]; then
  gm_quiet wallprog "wall three"
  within gmon.out "wall: 1 s computing, 4 s reading, 2 s sleeping${first:+ (in a second run; the first:$first)}" \
    $wall_want
  "$OURS" --export=folded wallprog gmon.out > folded 2> folded.err
  for f in spin_caller read_caller sleep_caller; do
    n=$(awk -F'[; ]' -v f=$f '$1 == "three_thread" && $2 == f && NF == 3 {
          print $3 }' folded)
    if [ "${n:-0}" -gt 900 ]; then
      pass "wall: $f's $n samples under three_thread"
    else
      fail "wall: $f not under three_thread: $(cat folded folded.err)"
    fi
  done
  cp gmon.out wall.gmon
else
  fail "wall three: no profile: $(cat wallprog.err)"
fi

# The same on CPU time (the default): the blocked threads get nothing.
if three cpu; then
  within gmon.out "cpu: 1 s computing, nothing blocked" \
    spin_caller:1.00:0.05 read_caller:0:0.02 sleep_caller:0:0.02
  cp gmon.out cpu.gmon
else
  fail "cpu three: no profile: $(cat wallprog.err)"
fi

# Our report says which clock; GNU's line stays for CPU time; gprof -s
# keeps the clock; a wall and a CPU profile are not added, and the
# message names both.
if [ -f wall.gmon ] && [ -f cpu.gmon ]; then
  "$OURS" -b -p wallprog wall.gmon > wall.flat 2>&1
  "$OURS" -b -p wallprog cpu.gmon > cpu.flat 2>&1
  "$OURS" -s wallprog wall.gmon wall.gmon > sum.err 2>&1
  "$OURS" -b -p wallprog gmon.sum > sum.flat 2>&1
  line='Each sample counts as 0.001 seconds'
  if grep -qx "$line of wall-clock time." wall.flat \
     && grep -qx "$line of wall-clock time." sum.flat \
     && grep -qx "$line." cpu.flat; then
    pass "the report names the clock, also after gprof -s"
  else
    fail "clock line: $(cat wall.flat cpu.flat sum.err sum.flat | head -20)"
  fi
  for order in "wall.gmon cpu.gmon" "cpu.gmon wall.gmon"; do
    set -- $order
    if "$OURS" -b -p wallprog "$1" "$2" > mix.out 2> mix.err; then
      fail "gprof $1 $2: added a wall and a CPU profile"
    elif grep -q "$1" mix.err && grep -q "$2" mix.err; then
      pass "gprof $1 $2: refused, naming both: $(cat mix.err)"
    else
      fail "gprof $1 $2: the message does not name both: $(cat mix.err)"
    fi
  done
  if "$OURS" -s wallprog wall.gmon cpu.gmon > mix.out 2> mix.err; then
    fail "gprof -s added a wall and a CPU profile"
  else
    pass "gprof -s refuses a wall and a CPU profile"
  fi
fi

# A 3-second nanosleep lasts 3 s within 1%; the snapshot record beside
# the profile says which clock its samples measure.
rm -f gmon.out gmon.out.snap
LIBGMON_CLOCK=wall LIBGMON_DUMP_SIGNAL=USR2 gm_run wallprog sleep 3
ns=$(sed -n 's/^slept //p' wallprog.out)
if awk -v n="${ns:-0}" 'BEGIN { exit !(n >= 3e9 && n <= 3.03e9) }'; then
  pass "wall: nanosleep of 3 s took $ns ns"
else
  fail "wall: nanosleep of 3 s took ${ns:-?} ns: $(cat wallprog.err)"
fi
if grep -qx 'clock wall' gmon.out.snap 2>/dev/null; then
  pass "wall: the snapshot record says clock wall"
else
  fail "wall: no 'clock wall' in gmon.out.snap: $(cat gmon.out.snap)"
fi

# No system call fails with EINTR, in any of the blocking kinds.
rm -f gmon.out
LIBGMON_CLOCK=wall gm_run wallprog eintr
if grep -q '^EINTR' wallprog.out || ! grep -qx done wallprog.out; then
  fail "wall: system calls interrupted: $(cat wallprog.out wallprog.err)"
else
  pass "wall: no EINTR in read, write, nanosleep, poll, select," \
    "epoll_wait, sem_timedwait, pthread_cond_timedwait, mutex"
fi

# The program's own SIGALRM handler gets its 100 alarms a second, and
# the signal it blocked stays blocked.
rm -f gmon.out
LIBGMON_CLOCK=wall gm_run wallprog handlers
alarms=$(sed -n 's/^alarms //p' wallprog.out)
if [ "${alarms:-0}" -ge 80 ] && grep -qx 'masked 1' wallprog.out; then
  pass "wall: the program's handler got $alarms alarms, its mask kept"
else
  fail "wall: handler and mask: $(cat wallprog.out wallprog.err)"
fi

gm_done
