#!/bin/sh
# run-big.sh - huge inputs end with an answer or a clear error, quickly.
#
# mkdamaged --big writes a call chain of a million functions (an
# executable and a profile with an arc from each function to the next),
# histograms that claim 2^32 - 1 bins (in a small file, at the head of a
# 2 GB one, and as a 4.4BSD byte count), and 2 GB files of zero bytes.
# The 2 GB files are sparse: they take no room on the disk.  Each run
# must give the expected exit status and message within TIME_LIMIT
# seconds (default 60; a few are enough on an idle machine without the
# sanitizers).  Prints the time each run took.
#
# Environment: GPROF (default ./gprof), MKDAMAGED (default
# ./testsuite/damaged/mkdamaged), TIME_LIMIT.

set -u
LC_ALL=C
export LC_ALL

absolute () {
  case $1 in
    /*) printf '%s\n' "$1" ;;
    *) printf '%s/%s\n' "$(pwd)" "$1" ;;
  esac
}
gprof=$(absolute "${GPROF:-./gprof}")
mkdamaged=$(absolute "${MKDAMAGED:-./testsuite/damaged/mkdamaged}")
limit=${TIME_LIMIT:-60}
for prog in "$gprof" "$mkdamaged"; do
  if [ ! -x "$prog" ]; then
    echo "ERROR: $prog is missing"
    exit 99
  fi
done

work=$(mktemp -d "${TMPDIR:-/tmp}/big.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
mkdir "$work/in" "$work/run" || exit 99
if ! "$mkdamaged" --big "$work/in"; then
  echo "ERROR: mkdamaged --big failed"
  exit 99
fi
ln -s "$work"/in/* "$work/run/" || exit 99
mkdir "$work/run/.bin" && ln -s "$gprof" "$work/run/.bin/gprof" || exit 99

passed=0 failed=0

# big NAME STATUS MESSAGE ARGS...: run gprof ARGS; it must end within the
# limit with STATUS and print MESSAGE (exactly, or nothing if empty) on
# standard error.  A successful run's report is searched for the last
# function of the chain.
big () {
  b_name=$1 b_status=$2 b_msg=$3
  shift 3
  b_start=$(date +%s.%N)
  # The report is only searched, never stored: it is 300 MB for the
  # chain.  The wrapper below records gprof's own exit status.
  (cd "$work/run" &&
   PATH=$work/run/.bin:$PATH timeout -k 5 "$limit" gprof "$@" 2>"$work/err" |
     grep -c 'f1000000' >"$work/found")
  b_end=$(date +%s.%N)
  b_secs=$(echo "$b_end - $b_start" | bc 2>/dev/null || echo "?")
  b_why=
  b_got=$(cat "$work/status" 2>/dev/null)
  if [ "$b_got" != "$b_status" ]; then
    b_why="exit status ${b_got:-none}, expected $b_status"
  elif [ "$(cat "$work/err")" != "$b_msg" ]; then
    b_why="message: $(head -c 300 "$work/err")"
  elif [ "$b_status" = 0 ] && [ "$(cat "$work/found")" = 0 ]; then
    b_why="the report lacks the end of the chain"
  fi
  if [ -z "$b_why" ]; then
    echo "ok $b_name: gprof $* (${b_secs} s)"
    passed=$((passed + 1))
  else
    echo "FAIL $b_name: gprof $* (${b_secs} s): $b_why"
    failed=$((failed + 1))
  fi
  rm -f "$work/status"
}

# gprof's own exit status, recorded by a wrapper the pipeline runs (the
# status of a timed-out run is timeout's 124).
# gprof itself runs from .real, under its own name (messages start with
# it).
mkdir "$work/run/.real" && mv "$work/run/.bin/gprof" "$work/run/.real/gprof" ||
  exit 99
cat >"$work/run/.bin/gprof" <<EOF
#!/bin/sh
PATH="$work/run/.real:\$PATH" gprof "\$@"
echo \$? >"$work/status"
EOF
chmod +x "$work/run/.bin/gprof" || exit 99

big chain 0 "" -b chain.elf chain.gmon
big chain-brief-graph 0 "" -b -q -z chain.elf chain.gmon
big claim 1 "gprof: claim.gmon: unexpected EOF after reading 16 of 4294967295 samples" \
  prog64le.elf claim.gmon
big claim-2g 1 "gprof: claim2g.gmon: unexpected EOF after reading 1073741793 of 4294967295 samples" \
  prog64le.elf claim2g.gmon
big claim-bsd 1 "gprof: file 'claim-bsd.gmon' does not appear to be in gmon.out format" \
  prog64le.elf claim-bsd.gmon
big claim-bsd2g 1 "gprof: unexpected EOF after reading -1/1073741823 bins" \
  prog64le.elf claim-bsd2g.gmon
big zeros 1 "gprof: file 'zeros.gmon' does not appear to be in gmon.out format" \
  prog64le.elf zeros.gmon
big zeros-magic 1 "gprof: file \`zeros.gmon' has bad magic cookie" \
  -O magic prog64le.elf zeros.gmon
big zeros-bsd44 1 "gprof: file \`zeros.gmon' has bad magic cookie" \
  -O 4.4bsd prog64le.elf zeros.gmon
# 256 MB of empty histogram records (41 bytes each), the last one cut.
big header-zeros 1 "gprof: header-zeros.gmon: unexpected end of file" \
  prog64le.elf header-zeros.gmon

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
