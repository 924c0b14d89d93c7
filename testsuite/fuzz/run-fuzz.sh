#!/bin/sh
# run-fuzz.sh - run the libFuzzer targets of testsuite/fuzz.
#
#   run-fuzz.sh [-t SECONDS] [-j JOBS] [-c CORPUS] [-k] [TARGET...]
#
# Run from the top of a build configured with CC=clang --enable-fuzzing,
# after `make fuzz testsuite/fixtures/mkfixture`.  Every target (default:
# all: gmon symfile map options atfile core) runs SECONDS seconds
# (default 30), JOBS targets at a time (default: the CPUs), on the corpus
# CORPUS/NAME (default: a temporary directory), seeded from the fixture
# generator's executables and profiles and from testsuite/fuzz/seeds.
# Inputs that crash, leak the process into exit() or run out of time or
# memory are written to CORPUS/crashes/NAME-*.
#
# Without -k a target stops at its first crash; with -k (for long runs)
# it goes on in libFuzzer's fork mode and keeps every crash found.
#
# Prints one line per target, "NAME: N inputs in S s, C crashes", and
# "N passed, M failed"; exits 1 if any target found a crash.
#
# Environment: FUZZ_OPTS, more libFuzzer options for every target.

set -u

seconds=30
jobs=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
corpus=
keep_going=no
while getopts t:j:c:k opt; do
  case $opt in
    t) seconds=$OPTARG ;;
    j) jobs=$OPTARG ;;
    c) corpus=$OPTARG ;;
    k) keep_going=yes ;;
    *) echo "usage: run-fuzz.sh [-t SECONDS] [-j JOBS] [-c CORPUS] [-k] [TARGET...]" >&2
       exit 2 ;;
  esac
done
shift $((OPTIND - 1))
targets=${*:-gmon symfile map options atfile core}

here=$(cd "$(dirname "$0")" && pwd)
build=$(pwd)
for t in $targets; do
  if [ ! -x "$build/testsuite/fuzz/fuzz_$t" ]; then
    echo "ERROR: testsuite/fuzz/fuzz_$t is missing (configure with CC=clang --enable-fuzzing, make fuzz)"
    exit 99
  fi
done
if [ ! -x "$build/testsuite/fixtures/mkfixture" ]; then
  echo "ERROR: testsuite/fixtures/mkfixture is missing (make testsuite/fixtures/mkfixture)"
  exit 99
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/fuzz.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
if [ -z "$corpus" ]; then
  corpus=$work/corpus
fi
mkdir -p "$corpus/crashes" "$work/fixtures" || exit 99
corpus=$(cd "$corpus" && pwd)
"$build/testsuite/fixtures/mkfixture" "$work/fixtures" || exit 99
FUZZ_FIXTURES=$work/fixtures
export FUZZ_FIXTURES
# Two programs with DWARF 4 and 5, small enough to be inputs, for the
# core target (which seeds from every fixture *.elf).
for v in 4 5; do
  gcc -O2 -gdwarf-$v -nostdlib -static -fno-asynchronous-unwind-tables \
    -Wl,-e,main -Wl,--build-id=none -o "$FUZZ_FIXTURES/dwarf$v.elf" \
    "$here/dwarf_seed.c" 2>/dev/null &&
    objcopy --remove-section=.comment "$FUZZ_FIXTURES/dwarf$v.elf" 2>/dev/null
done

# seed TARGET: add the starting inputs of TARGET to its corpus.  The
# settings bytes in front of files are those the targets' comments
# describe.
seed () {
  s_dir=$corpus/$1
  mkdir -p "$s_dir" || exit 99
  case $1 in
    gmon)
      for s_file in "$FUZZ_FIXTURES"/*.gmon; do
        case $s_file in
          *32be*) s_image='\003' ;;
          *32le*) s_image='\001' ;;
          *64be*) s_image='\002' ;;
          *) s_image='\000' ;;
        esac
        { printf "$s_image\\020\\200"; cat "$s_file"; } \
          >"$s_dir/seed-${s_file##*/}"
      done
      ;;
    core)
      for s_file in "$FUZZ_FIXTURES"/*.elf; do
        { printf '\000'; cat "$s_file"; } >"$s_dir/seed-${s_file##*/}"
        { printf '\001'; cat "$s_file"; } >"$s_dir/seed-l-${s_file##*/}"
      done
      ;;
    symfile)
      for s_image in prog64le classify dups; do
        { printf '\000'; nm "$FUZZ_FIXTURES/$s_image.elf"; } \
          >"$s_dir/seed-$s_image" 2>/dev/null
      done
      ;;
    map)
      cp "$here"/seeds/map/* "$s_dir/" || exit 99
      (cd "$FUZZ_FIXTURES" && nm --print-file-name prog64le.elf classify.elf) \
        >"$s_dir/seed-nm" 2>/dev/null
      ;;
    *)
      cp "$here/seeds/$1"/* "$s_dir/" || exit 99
      ;;
  esac
}

# run_target TARGET: fuzz it; leave its summary line in $work/TARGET.result.
run_target () {
  r_log=$work/$1.log
  seed "$1"
  mkdir -p "$work/cwd-$1" || exit 99
  if [ $keep_going = yes ]; then
    r_mode="-fork=1 -ignore_crashes=1 -ignore_ooms=1 -ignore_timeouts=1"
  else
    r_mode=
  fi
  # -s and -y write into the current directory: a scratch one.  An input
  # of 8 KB that makes gprof allocate a gigabyte is a finding.  libbfd
  # asks malloc for absurd sizes on damaged DWARF (2^61 bytes) and copes
  # with a null answer: AddressSanitizer must give it one rather than
  # stop (ours over a gigabyte are still caught by -malloc_limit_mb).
  # shellcheck disable=SC2086 # option lists
  (cd "$work/cwd-$1" &&
   ASAN_OPTIONS="allocator_may_return_null=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}" \
   nice "$build/testsuite/fuzz/fuzz_$1" $r_mode -max_total_time="$seconds" \
     -timeout=10 -malloc_limit_mb=1024 -rss_limit_mb=2560 -max_len=8192 \
     -artifact_prefix="$corpus/crashes/$1-" ${FUZZ_OPTS:-} \
     "$corpus/$1" >"$r_log" 2>&1 </dev/null)
  r_status=$?
  # "Done N runs in S second(s)" at the end of a plain run; fork mode
  # prints "#N: ... time: Ss" lines as it goes.
  r_runs=$(sed -n 's/^Done \([0-9]*\) runs in \([0-9]*\) second.*/\1 \2/p' "$r_log" | tail -1)
  if [ -z "$r_runs" ]; then
    r_runs=$(grep -a '^#[0-9]*: ' "$r_log" | tail -1 |
             sed 's/^#\([0-9]*\):.* time: \([0-9]*\)s.*/\1 \2/')
  fi
  r_crashes=$(find "$corpus/crashes" -name "$1-*" | wc -l)
  set -- "$1" ${r_runs:-0 0}
  echo "$1: $2 inputs in $3 s, $r_crashes crashes (status $r_status)" \
    >"$work/$1.result"
  if [ "$r_crashes" -gt 0 ] || { [ $r_status -ne 0 ] && [ $keep_going = no ]; }; then
    grep -a -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error)' "$r_log" | head -5 \
      >>"$work/$1.result"
    echo "FAIL" >>"$work/$1.result"
  fi
}

# JOBS targets side by side.
running=0
for t in $targets; do
  run_target "$t" &
  running=$((running + 1))
  if [ $running -ge "$jobs" ]; then
    wait
    running=0
  fi
done
wait

passed=0 failed=0
for t in $targets; do
  if [ ! -f "$work/$t.result" ]; then
    echo "$t: no result"
    failed=$((failed + 1))
  elif grep -q '^FAIL' "$work/$t.result"; then
    grep -v '^FAIL' "$work/$t.result"
    failed=$((failed + 1))
  else
    cat "$work/$t.result"
    passed=$((passed + 1))
  fi
done
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
