#!/bin/sh
# dumps.sh ARCH - profiles of a program that runs on (dumps.c): numbered
# snapshots every second under load, each exact to the call and equal
# in GNU gprof and ours, with gprof --since giving the calls between any
# two; kill -9 losing at most the last second; the dump signal; pausing
# and toggling; the last profile on SIGSEGV, SIGBUS, SIGABRT, SIGTERM
# and _exit, the program still dying as it would; a fork child's
# snapshots; and --since refusing what is not a later snapshot of one
# run.  Run through dumps-ARCH.test.
#
# DUMPS_SECONDS (default 10) is how long the 16-thread server runs; the
# others run 2 seconds.

. "$srcdir/testsuite/libgmon/lib.sh"
gm_setup "$1" "dumps-$1"

seconds=${DUMPS_SECONDS:-10}
ours=$GMON_BUILDDIR/gprof
src=$TESTSRC/dumps.c
gm_cc archive -O2 -pg -pthread "$src" "$LIBA" || gm_done
gm_cc glibc -O2 -pg -pthread "$src" || gm_done

# run_model MODEL ARGS...: the program (archive, or glibc's build with
# libgmon.so preloaded); sets prog and status.
run_model () {
  _model=$1
  shift
  if [ "$_model" = archive ]; then
    prog=archive
    gm_run archive "$@"
  else
    prog=glibc
    gm_run_preload glibc "$@"
  fi
  status=$?
}

# ours_calls PROGRAM FILE OPTIONS...: "function calls" lines of our flat
# profile (status 1 and stderr in ours.err if gprof fails).
ours_calls () {
  _p=$1 _f=$2
  shift 2
  "$ours" -b -p "$@" "$_p" "$_f" > ours.flat 2> ours.err || return 1
  awk '/^ *[0-9.]+ +[0-9.]+ +[0-9.]+ / { print $NF, (NF >= 7 ? $4 : 0) }' \
    ours.flat
}

# count_of FUNCTION < CALLS: its calls, 0 if not listed.  (Numbers are
# passed on as the strings they are: mawk prints those beyond 2^31 as
# 4.17633e+09.)
count_of () {
  awk -v f="$1" '$1 == f { n = $2 } END { print n == "" ? 0 : n }'
}

# snap_ns FILE: the time of FILE's snapshot record in ns.
snap_ns () {
  sed -n 's/^time \([0-9]*\)\.\([0-9]*\)$/\1\2/p' "$1.snap"
}

# handled_at NS OUTPUT: the requests the server had handled by time NS.
handled_at () {
  awk -v t="$1" '$1 == "round" && $2 < t { h = $3 } END { print h == "" ? 0 : h }' \
    "$2"
}

# same_as_gnu PROGRAM FILE: GNU gprof and ours print the same (-b: the
# explanations are each program's own words).
same_as_gnu () {
  "$GPROF" -b "$1" "$2" > gnu.txt 2>&1
  "$ours" -b "$1" "$2" > ours.txt 2>&1
  cmp -s gnu.txt ours.txt
}

# check_snapshots WHAT OUTPUT: every snapshot in the directory holds the
# calls the server had made when it was taken, GNU gprof reads it as we
# do, and --since between pairs of them gives the calls in between.
# Sets snaps to their names, in order.
check_snapshots () {
  _what=$1 _out=$2
  snaps=$(ls gmon.out.*[0-9] 2>/dev/null)
  _bad= _n=0
  for _f in $snaps; do
    _n=$((_n + 1))
    _want=$(handled_at "$(snap_ns "$_f")" "$_out")
    if ! ours_calls $prog "$_f" > calls.txt; then
      _bad="$_bad $_f: $(cat ours.err);"
      continue
    fi
    _h=$(count_of handle < calls.txt) _pa=$(count_of parse < calls.txt)
    _r=$(count_of respond < calls.txt)
    [ "$_h $_pa $_r" = "$_want $((2 * _want)) $_want" ] \
      || _bad="$_bad $_f: handle $_h parse $_pa respond $_r (want $_want);"
    same_as_gnu $prog "$_f" || _bad="$_bad $_f: GNU gprof differs;"
  done
  if [ -n "$_bad" ]; then
    fail "$_what: snapshots:$_bad"
  else
    pass "$_what: $_n snapshots each exact to the call, and as GNU gprof reads them"
  fi
  # Consecutive pairs, and the first with every later one.
  set -- $snaps
  _first=$1 _prev= _bad= _pairs=0
  for _f; do
    for _e in $_prev $_first; do
      [ "$_e" != "$_f" ] || continue
      _want=$(( $(handled_at "$(snap_ns "$_f")" "$_out") \
                - $(handled_at "$(snap_ns "$_e")" "$_out") ))
      _pairs=$((_pairs + 1))
      if ! ours_calls $prog "$_f" --since="$_e" > calls.txt; then
        _bad="$_bad --since=$_e $_f: $(cat ours.err);"
        continue
      fi
      _h=$(count_of handle < calls.txt) _pa=$(count_of parse < calls.txt)
      [ "$_h $_pa" = "$_want $((2 * _want))" ] \
        || _bad="$_bad --since=$_e $_f: handle $_h parse $_pa (want $_want);"
    done
    _prev=$_f
  done
  if [ -n "$_bad" ]; then
    fail "$_what: --since:$_bad"
  else
    pass "$_what: --since of $_pairs pairs gives the calls in between"
  fi
}

# ---- (a) a server under load, a snapshot a second ---------------------

for t in 1 2 4 8 16 preload; do
  model=archive s=2
  [ $t = 16 ] && s=$seconds
  [ $t = preload ] && model=preload t=4
  rm -f gmon.out*
  LIBGMON_INTERVAL=1 run_model $model server $t $s
  ended=$(date +%s%N)
  what="$model T=$t ${s}s"
  if [ $status -ne 0 ]; then
    fail "$what: exit status $status: $(cat $prog.err)"
    continue
  fi
  gm_quiet $prog "$what"
  start=$(sed -n 's/^start //p' $prog.out)
  # One snapshot at each whole second the program lived through: at
  # least its planned seconds, more if a loaded machine kept it alive
  # past the next one, never more than the seconds that passed.
  n=0
  for f in gmon.out.*[0-9]; do
    [ "$(snap_ns "$f")" -gt "$start" ] && n=$((n + 1))
  done
  lived=$((ended / 1000000000 - start / 1000000000))
  [ $n -ge $s ] && [ $n -le $lived ] && pass "$what: $n snapshots" \
    || fail "$what: $n snapshots in ${s}s ($lived whole seconds passed): $(ls gmon.out.*[0-9])"
  check_snapshots "$what" $prog.out
  last=$(awk '$1 == "round" { h = $3 } END { print h }' $prog.out)
  gm_expect_calls $prog gmon.out "$what: the exit profile" \
    "handle $last" "respond $last"
  if [ $t = 1 ] || [ $t = 2 ]; then
    mkdir run$t && mv gmon.out.* run$t/
  fi
done

# ---- (b) kill -9 at a random moment ------------------------------------

rm -f gmon.out*
LIBGMON_INTERVAL=1 $RUN ./archive server 4 60 > kill.out 2> kill.err &
pid=$!
sleep "$(awk 'BEGIN { srand (); printf "%.2f", 2 + 2 * rand () }')"
killed=$(date +%s%N)
kill -9 $pid
wait $pid
status=$?
prog=archive
if [ $status -ne 137 ]; then
  fail "kill -9: exit status $status: $(cat kill.err)"
else
  last=$(ls gmon.out.*[0-9] | tail -n 1)
  lost=$((killed - $(snap_ns "$last")))
  # The interval, and a little for the writer to wake and write.
  if [ $lost -ge 0 ] && [ $lost -lt 1250000000 ]; then
    pass "kill -9: the last snapshot $lost ns before the kill"
  else
    fail "kill -9 at $killed: last snapshot $last, $lost ns before"
  fi
  check_snapshots "kill -9" kill.out
fi

# ---- (d) the dump signal -----------------------------------------------

# field FILE KEY: a field of FILE's snapshot record.
field () {
  sed -n "s/^$2 //p" "$1.snap"
}

for model in archive preload; do
  rm -f gmon.out*
  LIBGMON_DUMP_SIGNAL=SIGUSR2 run_model $model signal
  if [ $status -ne 0 ]; then
    fail "$model dump signal: exit status $status: $(cat $prog.err)"
    continue
  fi
  gm_quiet $prog "$model dump signal"
  s1=$(ls gmon.out.*.00000001.*[0-9]) s2=$(ls gmon.out.*.00000002.*[0-9])
  gm_expect_calls $prog "$s1" "$model dump signal: snapshot 1" \
    "a 10" "b 0" "c 0"
  gm_expect_calls $prog "$s2" "$model dump signal: snapshot 2" \
    "a 10" "b 5" "c 0"
  gm_expect_calls $prog gmon.out "$model dump signal: at exit" \
    "a 10" "b 5" "c 3"
  records="$(field "$s1" seq) $(field "$s1" why) $(field "$s2" seq)"
  records="$records $(field "$s2" why) $(field gmon.out seq)"
  records="$records $(field gmon.out why) $(field gmon.out clock)"
  runs=$(for f in "$s1" "$s2" gmon.out; do field "$f" run; done | sort -u \
         | wc -l)
  [ "$records $runs" = "1 signal 2 signal 3 exit cpu 1" ] \
    && pass "$model dump signal: records 1, 2, 3 of one run" \
    || fail "$model dump signal: records: $records, $runs runs"
  ours_calls $prog gmon.out --since="$s1" > calls.txt \
    && [ "$(count_of a < calls.txt) $(count_of b < calls.txt) $(count_of c < calls.txt)" = "0 5 3" ] \
    && pass "$model dump signal: --since" \
    || fail "$model dump signal: --since: $(cat ours.err calls.txt)"
done

# ---- (e) pausing and toggling ------------------------------------------

# spin_time FILE: spin's seconds in the flat profile.
spin_time () {
  gm_gprof $prog "$1" -b -p | awk '$NF == "spin" { t = $3 } END { print t + 0 }'
}

for model in archive preload; do
  rm -f gmon.out*
  LIBGMON_TOGGLE_SIGNAL=USR1 run_model $model toggle
  if [ $status -ne 0 ]; then
    fail "$model toggle: exit status $status: $(cat $prog.err)"
  else
    gm_expect_calls $prog gmon.out "$model toggled off and on" \
      "a 10" "b 0" "spin 0" "c 5"
    t=$(spin_time gmon.out)
    [ "$t" = 0 ] && pass "$model no samples while off" \
      || fail "$model toggle: $t s sampled while off"
  fi
  rm -f gmon.out*
  LIBGMON_START=paused LIBGMON_TOGGLE_SIGNAL=USR1 run_model $model toggle
  if [ $status -ne 0 ]; then
    fail "$model paused: exit status $status: $(cat $prog.err)"
  else
    gm_expect_calls $prog gmon.out "$model started paused, toggled on and off" \
      "a 0" "b 20" "spin 1" "c 0"
    t=$(spin_time gmon.out)
    awk -v t="$t" 'BEGIN { exit !(t >= 0.2) }' \
      && pass "$model sampled while on: spin $t s of 0.3" \
      || fail "$model paused: spin sampled $t s of 0.3"
  fi
done

# ---- (c) the last profile when the program dies ------------------------

for model in archive preload; do
  for how in segv:139 bus:135 abort:134 term:143 _exit:3 _Exit:3 own:7; do
    want=${how#*:} how=${how%:*}
    rm -f gmon.out*
    run_model $model $how
    what="$model $how"
    if [ $status -ne "$want" ]; then
      fail "$what: exit status $status, want $want: $(cat $prog.err)"
      continue
    fi
    gm_expect_calls $prog gmon.out "$what: exit status $status and a profile" \
      "a 10"
    same_as_gnu $prog gmon.out \
      || fail "$what: GNU gprof and ours differ: $(diff gnu.txt ours.txt)"
  done
  # A disposition the program inherited is kept: SIGTERM ignored.
  rm -f gmon.out*
  (trap '' TERM; run_model $model term; exit $status)
  status=$?
  [ $model = archive ] && prog=archive || prog=glibc
  [ $status -eq 0 ] && grep -q survived $prog.out \
    && gm_expect_calls $prog gmon.out "$model SIGTERM ignored: still ignored" \
      "a 10" \
    || fail "$model SIGTERM ignored: exit status $status"
  rm -f gmon.out*
  LIBGMON_CRASH_DUMP=0 run_model $model segv
  [ $status -eq 139 ] && [ ! -f gmon.out ] \
    && pass "$model LIBGMON_CRASH_DUMP=0: no profile on SIGSEGV" \
    || fail "$model LIBGMON_CRASH_DUMP=0: status $status, $(ls)"
done

# ---- a fork child's snapshots ------------------------------------------

rm -f gmon.out*
# qemu-user (7.2) aborts when the child of a process with threads starts
# one.
[ -z "$RUN" ] && LIBGMON_DUMP_SIGNAL=USR2 run_model archive fork
child=$(sed -n 's/^child //p' archive.out)
if [ -n "$RUN" ]; then
  skip "fork child: qemu-user cannot start a thread in a fork child"
elif [ $status -ne 0 ]; then
  fail "fork: exit status $status: $(cat archive.err)"
else
  snap=$(ls gmon.out.$child.00000001.*[0-9])
  gm_expect_calls archive "$snap" "fork child: its snapshot" "a 10"
  [ "$(field "$snap" run)" != "$(field gmon.out run)" ] \
    && [ "$(field "gmon.out.$child" run)" = "$(field "$snap" run)" ] \
    && pass "fork child: a run of its own" \
    || fail "fork child: runs $(field "$snap" run) $(field gmon.out run)"
fi

# ---- (f) --since refuses what is not a later snapshot of the run -------

# refused WHAT WORDS EARLIER LATER: gprof --since=EARLIER exits 1 naming
# both files, with WORDS in its message.
refused () {
  "$ours" -b --since="$3" archive "$4" > /dev/null 2> since.err
  _st=$?
  if [ $_st -eq 1 ] && grep -q "$2" since.err && grep -qF "$3" since.err \
     && grep -qF "$4" since.err; then
    pass "--since refuses $1"
  else
    fail "--since refuses $1: status $_st: $(cat since.err)"
  fi
}
refused_one () {
  "$ours" -b --since="$3" archive "$4" > /dev/null 2> since.err
  _st=$?
  [ $_st -eq 1 ] && grep -q "$2" since.err && pass "--since refuses $1" \
    || fail "--since refuses $1: status $_st: $(cat since.err)"
}

set -- run1/gmon.out.*[0-9]
a1=$1
set -- run2/gmon.out.*[0-9]
b1=$1 b2=$2
refused "another run" "different runs" "$a1" "$b2"
refused "the wrong order" "is snapshot 1" "$b2" "$b1"
refused "the same file" "same file" "$b1" "$b1"
# A copy of a later snapshot, numbered as an earlier one.
for s in "" .snap .stacks; do cp "$b2$s" "early$s"; done
sed -i 's/^seq .*/seq 0/' early.snap
refused "larger counts" "more calls from" early "$b1"
cp "$b1" norecord
refused_one "a profile without a record" "no snapshot record" norecord "$b2"
cp "$b1" stale && cp "$b2.snap" stale.snap
refused_one "another profile's record" "is not the record" stale "$b2"

gm_done
