# lib.sh - shared by the export tests (sourced, not run).
#
# The tests run from the top build directory (automake's test driver does
# that).  ex_profile builds prog.cc with g++ -pg and runs it once for all
# the tests (under a lock: make check runs them in parallel); ex_npm
# finds the npm packages a test needs, which tools/setup installed.
# Work goes to testsuite/work/export/, which is kept for inspection.

set -u
here=$(cd "$(dirname "$0")" && pwd)
GPROF=${GPROF:-$PWD/gprof}
top_work=$PWD/testsuite/work/export
mkdir -p "$top_work"
status=0

pass () { echo "PASS: $*"; }
fail () { echo "FAIL: $*"; status=1; }
skip () { echo "SKIP: $*"; exit 77; }
ex_done () { exit $status; }

# ex_profile: sets prog, gmon and ticks (the samples in the histogram).
ex_profile () {
  command -v g++ >/dev/null || skip "no g++"
  command -v python3 >/dev/null || skip "no python3"
  prog_dir=$top_work/prog
  mkdir -p "$prog_dir"
  (
    flock 9
    if [ ! -f "$prog_dir/gmon.out" ] || [ "$here/prog.cc" -nt "$prog_dir/gmon.out" ]; then
      cd "$prog_dir" && rm -f gmon.out &&
        g++ -O0 -g -pg -o prog "$here/prog.cc" && ./prog
    fi
  ) 9>"$top_work/prog.lock" || { echo "FAIL: cannot build and run prog.cc"; exit 1; }
  prog=$prog_dir/prog
  gmon=$prog_dir/gmon.out
  ticks=$(python3 "$here/check.py" ticks "$gmon") || exit 1
  echo "prog.cc profiled: $ticks samples in the histogram"
}

# ex_npm PACKAGE@VERSION...: find them among the global npm packages
# (tools/setup check installs tools/npm-packages.txt) and set NODE_PATH;
# skips when node or one of them is missing.  Nothing is downloaded.
ex_npm () {
  command -v node >/dev/null || skip "no node"
  command -v npm >/dev/null || skip "no npm"
  NODE_PATH=$(npm root -g) || skip "npm root -g failed"
  for p in "$@"; do
    grep -qs "\"version\": *\"${p##*@}\"" "$NODE_PATH/${p%@*}/package.json" ||
      skip "npm package $p is not installed (tools/setup check installs it)"
  done
  export NODE_PATH
}

# ex_export NAME FORMAT [OPTION...]: our gprof's export of the profile
# into $work/NAME; fails the test if gprof fails.
ex_export () {
  _name=$1
  _format=$2
  shift 2
  if "$GPROF" --export="$_format" "$@" "$prog" "$gmon" >"$work/$_name" 2>"$work/$_name.err" &&
     [ ! -s "$work/$_name.err" ]; then
    return 0
  fi
  fail "gprof --export=$_format $*: status or messages:"
  cat "$work/$_name.err"
  return 1
}

# ex_work NAME: a fresh directory for the test's files.
ex_work () {
  work=$top_work/$1
  rm -rf "$work"
  mkdir -p "$work"
}
