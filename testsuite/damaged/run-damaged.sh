#!/bin/sh
# run-damaged.sh - feed gprof damaged inputs and check each answer.
#
#   run-damaged.sh              every case (what `make check` runs)
#   run-damaged.sh PATTERN...   only the cases whose names match
#
# mkdamaged writes the inputs and the list of cases (see mkdamaged.c for
# the three kinds of check: exact, gnu and ok).  Every case runs in a
# directory of its own holding only its inputs, with a time limit; it
# fails on a wrong exit status, a wrong or extra message, any output with
# an "exact" check, a file left behind, or a run over the time limit (a
# hang).  A sanitizer report is a wrong message, so the sanitizer build
# runs the same checks.
#
# Environment:
#   GPROF      the gprof to test (default: ./gprof, run from the build dir);
#              GPROF=/usr/bin/gprof checks the expectations against GNU
#              (cases it would need gigabytes for are skipped)
#   GNU_GPROF  the reference for "gnu" cases (default: /usr/bin/gprof;
#              missing: those cases are skipped)
#   MKDAMAGED  the generator (default: ./testsuite/damaged/mkdamaged)
#   TIME_LIMIT seconds per run (default 60)
#   KEEP       a directory to keep the inputs and runs in
#   JOBS       how many cases to run at once (default: the CPUs)
#
# Prints "ok NAME" or "FAIL NAME: what", then "N passed, M failed".

set -u
set -f
patterns=$*

LC_ALL=C
LANG=C
export LC_ALL LANG
unset GPROF_PATH POSIXLY_CORRECT LANGUAGE LC_MESSAGES 2>/dev/null

absolute () {
  case $1 in
    /*) printf '%s\n' "$1" ;;
    *) printf '%s/%s\n' "$(pwd)" "$1" ;;
  esac
}
cand=$(absolute "${GPROF:-./gprof}")
ref=${GNU_GPROF:-/usr/bin/gprof}
mkdamaged=$(absolute "${MKDAMAGED:-./testsuite/damaged/mkdamaged}")
limit=${TIME_LIMIT:-60}
for prog in "$cand" "$mkdamaged"; do
  if [ ! -x "$prog" ]; then
    echo "ERROR: $prog is missing (build it, or set GPROF / MKDAMAGED)"
    exit 99
  fi
done
[ -x "$ref" ] || ref=
cand_is_gnu=no
if [ -n "$ref" ] && cmp -s "$cand" "$ref"; then
  cand_is_gnu=yes
fi

if [ -n "${KEEP:-}" ]; then
  work=$(absolute "$KEEP")
  if [ -e "$work" ] && [ ! -f "$work/inputs/cases" ]; then
    echo "ERROR: KEEP=$KEEP exists and is not a directory of this script"
    exit 99
  fi
  rm -rf "$work"
  mkdir -p "$work" || exit 99
else
  work=$(mktemp -d "${TMPDIR:-/tmp}/damaged.XXXXXX") || exit 99
  trap 'rm -rf "$work"' EXIT
  trap 'exit 130' INT TERM
fi
inputs=$work/inputs
mkdir "$inputs" "$work/runs" "$work/logs" "$work/queues" || exit 99
if ! "$mkdamaged" "$inputs" >/dev/null; then
  echo "ERROR: mkdamaged failed"
  exit 99
fi

# run DIR GPROF ARGS...: run GPROF as "gprof" in the fresh directory DIR,
# where the inputs among ARGS are linked; stdout, stderr, the exit status
# and the names of the files left in DIR/.run.
run () {
  r_dir=$1 r_bin=$2
  shift 2
  mkdir -p "$r_dir/.run" || exit 99
  ln -s "$r_bin" "$r_dir/.run/gprof" || exit 99
  for r_word in "$@"; do
    r_word=${r_word#@}
    if [ -f "$inputs/$r_word" ] && [ ! -e "$r_dir/$r_word" ]; then
      ln -s "$inputs/$r_word" "$r_dir/$r_word" || exit 99
    fi
  done
  # @FILE names more inputs: link every text input of the same prefix.
  case " $* " in
    *" @"*)
      for r_file in "$inputs"/args-* "$inputs"/prog64le.elf "$inputs"/good-*.gmon; do
        [ -e "$r_dir/${r_file##*/}" ] || ln -s "$r_file" "$r_dir/${r_file##*/}"
      done
      ;;
  esac
  ls -A "$r_dir" | grep -v '^\.run$' | sort >"$r_dir/.run/before"
  (cd "$r_dir" && PATH=$r_dir/.run:$PATH timeout -k 5 "$limit" gprof "$@" \
     >.run/stdout 2>.run/stderr </dev/null
   echo $? >.run/status)
  ls -A "$r_dir" | grep -v '^\.run$' | sort >"$r_dir/.run/after"
}

# check NAME CHECK STATUS COST ARGS...: one case; prints its result line.
check () {
  c_name=$1 c_check=$2 c_status=$3 c_cost=$4
  shift 4
  c_dir=$work/runs/$c_name
  if [ $cand_is_gnu = yes ] && { [ "$c_cost" = costly ] || [ "$c_check" != exact ]; }; then
    echo "skip $c_name: not an expectation to check against GNU"
    return
  fi
  run "$c_dir/cand" "$cand" "$@"
  c_got=$c_dir/cand/.run
  c_why=
  if [ "$(cat "$c_got/status")" = 124 ] || [ "$(cat "$c_got/status")" = 137 ]; then
    c_why="no answer within $limit s"
  elif ! cmp -s "$c_got/before" "$c_got/after"; then
    c_why="files left behind: $(comm -13 "$c_got/before" "$c_got/after" | tr '\n' ' ')"
  else
    case $c_check in
      exact)
        if [ "$(cat "$c_got/status")" != "$c_status" ]; then
          c_why="exit status $(cat "$c_got/status"), expected $c_status"
        elif ! cmp -s "$inputs/$c_name.err" "$c_got/stderr"; then
          c_why="standard error differs:
$(diff "$inputs/$c_name.err" "$c_got/stderr" | head -8)"
        elif [ -s "$c_got/stdout" ] && [ "$c_status" != 0 ]; then
          c_why="printed a report: $(head -c 200 "$c_got/stdout")"
        fi
        ;;
      ok)
        if [ "$(cat "$c_got/status")" != 0 ] || [ -s "$c_got/stderr" ]; then
          c_why="exit status $(cat "$c_got/status"): $(head -c 300 "$c_got/stderr")"
        fi
        ;;
      gnu)
        if [ -z "$ref" ]; then
          echo "skip $c_name: no GNU gprof"
          return
        fi
        run "$c_dir/gnu" "$ref" "$@"
        c_ref=$c_dir/gnu/.run
        case $(cat "$c_ref/status") in
          124 | 137 | 13[0-9] | 1[4-9][0-9])
            c_why="GNU gprof fails here (status $(cat "$c_ref/status")): make it an exact case"
            ;;
        esac
        for c_part in status stdout stderr; do
          if [ -z "$c_why" ] && ! cmp -s "$c_ref/$c_part" "$c_got/$c_part"; then
            c_why="$c_part differs from GNU's:
$(diff "$c_ref/$c_part" "$c_got/$c_part" | head -8)"
          fi
        done
        ;;
    esac
  fi
  if [ -n "$c_why" ]; then
    echo "FAIL $c_name: gprof $*"
    printf '%s\n' "$c_why" | sed 's/^/  /'
  else
    echo "ok $c_name"
    rm -rf "$c_dir"
  fi
}

selected () {
  [ $# -eq 1 ] && return 0
  s_name=$1
  shift
  for s_pattern in "$@"; do
    # shellcheck disable=SC2254 # patterns are wanted here
    case $s_name in $s_pattern) return 0 ;; esac
  done
  return 1
}

jobs=${JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)}
count=0
while read -r line; do
  # shellcheck disable=SC2086 # the first word is the name
  set -- $line
  # shellcheck disable=SC2086 # patterns are a list of words
  selected "$1" $patterns || continue
  count=$((count + 1))
  echo "$line" >>"$work/queues/$((count % jobs))"
done <"$inputs/cases"
if [ $count -eq 0 ]; then
  echo "ERROR: no case selected"
  exit 99
fi

set +f
set -- "$work"/queues/*
set -f
for queue in "$@"; do
  while read -r line; do
    # shellcheck disable=SC2086 # a case line is a list of words
    check $line
  done <"$queue" >"$work/logs/${queue##*/}" 2>&1 &
done
wait

set +f
cat "$work"/logs/*
passed=$(cat "$work"/logs/* | grep -c '^ok ')
failed=$(cat "$work"/logs/* | grep -c '^FAIL ')
skipped=$(cat "$work"/logs/* | grep -c '^skip ')
set -f
[ "$skipped" -eq 0 ] || echo "($skipped skipped)"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ $((passed + skipped)) -eq "$count" ]
