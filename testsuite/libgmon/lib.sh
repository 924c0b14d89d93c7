# lib.sh - shared by the libgmon test scripts (sourced, not run).
#
# The scripts run from the top build directory (automake's test driver
# does that) with $srcdir set.  gm_setup reads
# testsuite/work/libgmon/config.sh, which libgmon/local.mk generates,
# picks the tools for one architecture and moves into a fresh work
# directory.  Results are printed as PASS:, FAIL: and SKIP: lines;
# gm_done exits 0, 1 or 77 accordingly.  Helpers keep their variables
# under the _gm prefix: sh has no local variables, and the scripts' own
# must not be clobbered.

# gm_setup ARCH TESTNAME (ARCH "" is the configured architecture)
gm_setup () {
  gm_arch=$1
  gm_test=$2
  config=./testsuite/work/libgmon/config.sh
  if [ ! -f "$config" ]; then
    echo "SKIP: $config missing (run the tests through make check)"
    exit 77
  fi
  . "$config"
  [ -n "$gm_arch" ] || gm_arch=$GMON_ARCH
  if [ -z "$gm_arch" ]; then
    echo "SKIP: libgmon does not support this architecture"
    exit 77
  fi
  eval "CC=\$GMON_CC_$gm_arch RUN=\$GMON_RUN_$gm_arch GPROF=\$GMON_GPROF_$gm_arch"
  if [ -z "$CC" ] || [ -z "$GPROF" ]; then
    echo "SKIP: this machine cannot build, run and analyse $gm_arch programs"
    exit 77
  fi
  if [ "$gm_arch" = "$GMON_ARCH" ]; then
    gm_runtime=$GMON_BUILDDIR/libgmon/.libs
  else
    gm_runtime=$GMON_BUILDDIR/testsuite/libgmon/$gm_arch
  fi
  LIBA=$gm_runtime/libgmon.a
  LIBSO=$gm_runtime/libgmon.so
  TESTSRC=$GMON_SRCDIR/testsuite/libgmon
  work=$GMON_BUILDDIR/testsuite/work/libgmon/$gm_test
  rm -rf "$work"
  mkdir -p "$work"
  cd "$work" || exit 1
  gm_failures=0
  # A profile of the test itself must not end up anywhere: only the
  # variables a check sets explicitly apply.
  unset GMON_OUT_PREFIX LIBGMON_OUT LIBGMON_FORMAT LIBGMON_HZ \
	LIBGMON_SIGNAL LIBGMON_VERBOSE
}

pass () { echo "PASS: $gm_test: $*"; }
fail () { echo "FAIL: $gm_test: $*"; gm_failures=$((gm_failures + 1)); }
skip () { echo "SKIP: $gm_test: $*"; }

# gm_done: exit with the automake status; keep the work directory of a
# failed test for inspection.
gm_done () {
  if [ "$gm_failures" -ne 0 ]; then
    echo "$gm_failures check(s) failed; files kept in $work"
    exit 1
  fi
  cd / && rm -rf "$work"
  exit 0
}

# gm_cc OUTPUT ARGS...: compile and link; a failure is a FAIL and returns 1.
gm_cc () {
  _gm_out=$1
  shift
  if $CC "$@" -o "$_gm_out" > "$_gm_out.cc.log" 2>&1; then
    return 0
  fi
  fail "cannot build $_gm_out: $CC $*"
  sed 's/^/  | /' "$_gm_out.cc.log"
  return 1
}

# gm_run PROGRAM ARGS...: run under the architecture's runner; stdout to
# PROGRAM.out, stderr to PROGRAM.err.  Returns the program's status.
gm_run () {
  _gm_prog=$1
  shift
  $RUN "./$_gm_prog" "$@" > "$_gm_prog.out" 2> "$_gm_prog.err"
}

# gm_run_preload PROGRAM ARGS...: the same with libgmon.so preloaded (qemu
# must get LD_PRELOAD through -E, or it would preload it into itself).
gm_run_preload () {
  _gm_prog=$1
  shift
  if [ -n "$RUN" ]; then
    $RUN -E LD_PRELOAD="$LIBSO" "./$_gm_prog" "$@" \
      > "$_gm_prog.out" 2> "$_gm_prog.err"
  else
    LD_PRELOAD=$LIBSO "./$_gm_prog" "$@" > "$_gm_prog.out" 2> "$_gm_prog.err"
  fi
}

# gm_gprof PROGRAM FILE OPTIONS...: GNU gprof's report on stdout; a FAIL if
# gprof fails or complains (every file libgmon writes must read cleanly).
gm_gprof () {
  _gm_prog=$1 _gm_file=$2
  shift 2
  if "$GPROF" "$@" "$_gm_prog" "$_gm_file" 2> gprof.err \
     && [ ! -s gprof.err ]; then
    return 0
  fi
  fail "gprof $* $_gm_prog $_gm_file: $(cat gprof.err)"
  return 1
}

# gm_calls PROGRAM FILE OUTPUT: "function calls" lines from the flat
# profile (functions without calls get 0), sorted by name, into OUTPUT.
gm_calls () {
  gm_gprof "$1" "$2" -b -p > "$2.flat" || return 1
  awk '/^ *[0-9.]+ +[0-9.]+ +[0-9.]+ / {
	 print $NF, (NF >= 7 ? $4 : 0) }' "$2.flat" | sort > "$3"
}

# gm_expect_calls PROGRAM FILE WHAT "f1 N1" "f2 N2"...: PASS if every
# function has exactly that many calls in the profile.
gm_expect_calls () {
  _gm_p=$1 _gm_f=$2 _gm_what=$3
  shift 3
  if [ ! -f "$_gm_f" ]; then
    fail "$_gm_what: no $_gm_f written; stderr: $(cat "$_gm_p.err" 2>/dev/null)"
    return
  fi
  gm_calls "$_gm_p" "$_gm_f" calls.txt || return
  _gm_bad=
  for _gm_want in "$@"; do
    _gm_fn=${_gm_want% *} _gm_n=${_gm_want#* }
    _gm_got=$(awk -v f="$_gm_fn" '$1 == f { print $2 }' calls.txt)
    [ "${_gm_got:-0}" = "$_gm_n" ] \
      || _gm_bad="$_gm_bad $_gm_fn=${_gm_got:-0} (want $_gm_n)"
  done
  if [ -n "$_gm_bad" ]; then
    fail "$_gm_what:$_gm_bad"
  else
    pass "$_gm_what: $*"
  fi
}

# gm_quiet PROGRAM WHAT: PASS if the run printed no libgmon message
# (libgmon only speaks when something was lost or could not be written).
gm_quiet () {
  if grep -q '^libgmon:' "$1.err"; then
    fail "$2: libgmon reported: $(grep '^libgmon:' "$1.err")"
  fi
}
