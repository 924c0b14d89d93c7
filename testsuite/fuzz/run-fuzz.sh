#!/bin/sh
# run-fuzz.sh - run the libFuzzer targets of testsuite/fuzz.
#
#   run-fuzz.sh [-t SECONDS] [-j JOBS] [-c CORPUS] [-k] [TARGET...]
#
# Run from the top of the build, after `make fuzz
# testsuite/fixtures/mkfixture` (which needs clang and libFuzzer).
# Every target (default: all: gmon symfile map options atfile core side) runs
# SECONDS seconds (default 30), JOBS targets at a time (default: the
# CPUs), on the corpus CORPUS/NAME (default: a temporary directory),
# seeded from the fixtures (testsuite/fuzz/fixtures.sh: the fixture
# generator's executables and profiles, and small programs with DWARF)
# and from testsuite/fuzz/seeds.  Inputs that crash, leak, call exit()
# outside a run or run out of time or memory are written to
# CORPUS/crashes/NAME-*.
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
targets=${*:-gmon symfile map options atfile core side}

here=$(cd "$(dirname "$0")" && pwd)
build=$(pwd)
for t in $targets; do
  if [ ! -x "$build/testsuite/fuzz/fuzz_$t" ]; then
    echo "ERROR: testsuite/fuzz/fuzz_$t is missing (make fuzz: clang and libFuzzer)"
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
"$here/fixtures.sh" "$work/fixtures" || exit 99
FUZZ_FIXTURES=$work/fixtures
export FUZZ_FIXTURES

# le VALUE BYTES: VALUE as BYTES bytes, little-endian.
le () {
  le_v=$1 le_n=$2 le_out=
  while [ "$le_n" -gt 0 ]; do
    le_out="$le_out$(printf '\\%03o' $((le_v & 255)))"
    le_v=$((le_v >> 8))
    le_n=$((le_n - 1))
  done
  printf "$le_out"
}

# leb VALUE: VALUE as an unsigned LEB128 (the side files' numbers).
leb () {
  leb_v=$1 leb_out=
  while [ "$leb_v" -ge 128 ]; do
    leb_out="$leb_out$(printf '\\%03o' $(((leb_v & 127) | 128)))"
    leb_v=$((leb_v >> 7))
  done
  printf "$leb_out$(printf '\\%03o' "$leb_v")"
}

# The programs with line information (fixtures.sh), each with its own
# profile: the seeds that reach -A and -y (and, dynamic, the diagnosis's
# reading of .dynstr).
dwarf_images="dwarf4 dwarf5 clang5 dynamic"

# seed TARGET: add the starting inputs of TARGET to its corpus.  The
# settings bytes in front of files are those the targets' comments
# describe.
seed () {
  s_dir=$corpus/$1
  mkdir -p "$s_dir" || exit 99
  case $1 in
    gmon)
      # Bytes 0-4: executable, -l; -b; the split; no writer; the
      # fixture executables.
      for s_file in "$FUZZ_FIXTURES"/*.gmon; do
        case $s_file in
          *32be*) s_image='\003' ;;
          *32le*) s_image='\001' ;;
          *64be*) s_image='\002' ;;
          *) s_image='\000' ;;
        esac
        case ${s_file##*/} in
          dwarf4.gmon|dwarf5.gmon|clang5.gmon|classify.gmon) continue ;;
        esac
        { printf "$s_image\\020\\200\\000\\000"; cat "$s_file"; } \
          >"$s_dir/seed-${s_file##*/}"
      done
      # Every writer on a profile with all kinds of records, and on one
      # of the fixtures' symbol classes (classify.elf: byte 4 bit 0 and
      # executable 3).
      for s_w in 1 2 3 4 5 6 7 71 135; do
        { printf '\000\000\000'; le $s_w 1; printf '\000'
          cat "$FUZZ_FIXTURES/gnu-64le.gmon"; } >"$s_dir/seed-w$s_w-gnu-64le"
        { printf '\003\000\000'; le $s_w 1; printf '\001'
          cat "$FUZZ_FIXTURES/classify.gmon"; } >"$s_dir/seed-w$s_w-classify"
      done
      # The programs with DWARF (executables 0-2 of the second set), -l,
      # -z, -A -y -x, and each export.
      s_i=0
      for s_image in dwarf4 dwarf5 clang5; do
        for s_w in 56 184 1 2 3 4 5 6 7; do
          { le $((16 + s_i)) 1; printf '\004\000'; le $s_w 1; printf '\001'
            cat "$FUZZ_FIXTURES/$s_image.gmon"; } >"$s_dir/seed-w$s_w-$s_image"
        done
        s_i=$((s_i + 1))
      done
      ;;
    core)
      # Bytes 0-4: -l or nothing; no writer; nothing; no profile of ours.
      for s_file in "$FUZZ_FIXTURES"/*.elf; do
        { printf '\000\000\000\000\000'; cat "$s_file"; } >"$s_dir/seed-${s_file##*/}"
        { printf '\001\000\000\000\000'; cat "$s_file"; } >"$s_dir/seed-l-${s_file##*/}"
      done
      # The programs with DWARF and their profiles: -A -y (-x), every
      # export and the diagnosis, with -l and without; -s.
      for s_image in $dwarf_images; do
        s_size=$(wc -c <"$FUZZ_FIXTURES/$s_image.gmon")
        for s_opts in 1:24:0 1:56:0 17:184:0 0:8:0 1:1:0 1:2:0 1:3:0 1:4:0 \
                      1:5:0 1:6:0 1:7:0 0:5:0 0:7:0 0:71:0 1:0:2 0:0:13; do
          IFS=: read -r s_0 s_1 s_2 <<EOF_OPTS
$s_opts
EOF_OPTS
          { le "$s_0" 1; le "$s_1" 1; le "$s_2" 1; le "$s_size" 2
            cat "$FUZZ_FIXTURES/$s_image.elf" "$FUZZ_FIXTURES/$s_image.gmon"
          } >"$s_dir/seed-$s_0-$s_1-$s_2-$s_image"
        done
      done
      ;;
    symfile)
      for s_image in prog64le classify dups; do
        { printf '\000\000'; nm "$FUZZ_FIXTURES/$s_image.elf"; } \
          >"$s_dir/seed-$s_image" 2>/dev/null
      done
      for s_w in 1 2 3 4 5 6 7 71; do
        { printf '\000'; le $s_w 1; nm "$FUZZ_FIXTURES/prog64le.elf"; } \
          >"$s_dir/seed-w$s_w-prog64le" 2>/dev/null
      done
      ;;
    map)
      for s_file in "$here"/seeds/map/*; do
        { printf '\000'; cat "$s_file"; } >"$s_dir/${s_file##*/}" || exit 99
      done
      { printf '\000'
        (cd "$FUZZ_FIXTURES" && nm --print-file-name prog64le.elf classify.elf)
      } >"$s_dir/seed-nm" 2>/dev/null
      for s_w in 1 5 7 71; do
        { le $s_w 1; cat "$here/seeds/map/files"; } >"$s_dir/seed-w$s_w-files"
      done
      ;;
    side)
      # Stacks after the hash (byte 0 bit 1 clear): depth 8, none
      # dropped or cut, main then main -> fib -> fib, at the fixture's
      # addresses; read by --measured-time, -s, the folded and json
      # exports and the diagnosis.
      s_main=$((0x$(nm "$FUZZ_FIXTURES/prog64le.elf" | awk '$3 == "main" { print $1 }')))
      s_fib=$((0x$(nm "$FUZZ_FIXTURES/prog64le.elf" | awk '$3 == "fib" { print $1 }')))
      for s_opts in 4:0 8:0 0:3 0:5 0:7 6:0; do
        IFS=: read -r s_0 s_1 <<EOF_OPTS
$s_opts
EOF_OPTS
        { le "$s_0" 1; le "$s_1" 1
          leb 8; leb 0; leb 0; leb 3
          leb 0; leb $((s_main + 8)); leb 2
          leb 1; leb $((s_main + 12)); leb 0
          leb 1; leb $((s_fib + 4)); leb 5
        } >"$s_dir/seed-stacks-$s_0-$s_1"
      done
      # Modules after the hash (byte 0 bit 4): the program and a library
      # that is nowhere, a bin in the library and a call into it; with
      # --whole-process alone, the diagnosis, the json and callgrind
      # exports; the diagnosis without --whole-process (bit 5).
      for s_opts in 16:0 16:7 16:5 16:2 48:7; do
        IFS=: read -r s_0 s_1 <<EOF_OPTS
$s_opts
EOF_OPTS
        { le "$s_0" 1; le "$s_1" 1
          leb 2
          leb 0; leb 1; leb 0; leb 4198400; leb 4199424
          leb 4; printf prog; leb 0
          leb 0; leb 1; leb 139637976727552; leb 4096; leb 8192
          leb 20; printf /nonexistent/libz.so; leb 2; printf '\022\064'
          leb 1; leb 1; leb 6144; leb 5
          leb 1; leb 0; leb $((s_main + 8)); leb 1; leb 4112; leb 3
        } >"$s_dir/seed-modules-$s_0-$s_1"
      done
      # Two snapshots of one run, then the same with a clock each.
      for s_clock in cpu:cpu cpu:wall; do
        { printf '\001\000'
          printf 'gmon snapshot 1\nrun 1f\nseq 1\ntime 1.000000000\nclock %s\n\000' "${s_clock%:*}"
          printf 'gmon snapshot 1\nrun 1f\nseq 2\ntime 2.500000000\nclock %s\n' "${s_clock#*:}"
        } >"$s_dir/seed-snap-${s_clock#*:}"
      done
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
  case $1 in
    options|atfile) r_dict=-dict=$here/options.dict ;;
    core) r_dict=-dict=$here/core.dict ;;
    *) r_dict= ;;
  esac
  if [ $keep_going = yes ]; then
    r_mode="-fork=1 -ignore_crashes=1 -ignore_ooms=1 -ignore_timeouts=1"
  else
    r_mode=
  fi
  # -s and -y write into a scratch directory of the target's own (fuzz.c),
  # in TMPDIR: $work, removed at the end.  An input
  # of 8 KB that makes gprof allocate a gigabyte is a finding.  libbfd
  # asks malloc for absurd sizes on damaged DWARF (2^61 bytes) and copes
  # with a null answer: AddressSanitizer must give it one rather than
  # stop (ours over a gigabyte are still caught by -malloc_limit_mb).
  # shellcheck disable=SC2086 # option lists
  (cd "$work/cwd-$1" &&
   TMPDIR=$work ASAN_OPTIONS="allocator_may_return_null=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}" \
   nice "$build/testsuite/fuzz/fuzz_$1" $r_mode -max_total_time="$seconds" \
     -timeout=10 -malloc_limit_mb=1024 -rss_limit_mb=2560 -max_len=8192 \
     $r_dict -artifact_prefix="$corpus/crashes/$1-" ${FUZZ_OPTS:-} \
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
