#!/bin/sh
# run-reference.sh - the fast build prints what the reference build
# prints.
#
# gprof-ref is built from the same sources with every speed tactic left
# out (-DGP_NO_TACTICS: no prefetches, no heap policy) and runs with one
# thread (GPROF_THREADS=1): every stage in turn, every report in one
# piece.  The fast build runs with 1, 2 and 4 threads.  All must print
# the same bytes and write the same gmon.sum, on
#   - profiles from bench/mkcase.py in each shape, of 3000 functions and
#     15000 arcs (a call graph of about ten of the printer's batches),
#     13000 functions (each report in several batches) and 40000 (ten
#     batches of arcs, each looked up in pieces);
#   - a real program of 2000 functions compiled with -g -pg
#     (bench/mkprog.py), with -l, -A and -C;
#   - every profile of the fixture generator (testsuite/fixtures).
# With -b the synthetic profiles must also print what GNU gprof prints
# (when /usr/bin/gprof is there; at 40000 functions, the flat profile
# only).
#
# Environment: GPROF (default ./gprof), GPROF_REF (default ./gprof-ref),
# GNU_GPROF (default /usr/bin/gprof), MKFIXTURE (default
# ./testsuite/fixtures/mkfixture).

srcdir=${srcdir:-.}
top=$(pwd)
GPROF=${GPROF:-$top/gprof}
GPROF_REF=${GPROF_REF:-$top/gprof-ref}
GNU_GPROF=${GNU_GPROF:-/usr/bin/gprof}
MKFIXTURE=${MKFIXTURE:-$top/testsuite/fixtures/mkfixture}
work=$top/testsuite/work/reference
pass=0 fail=0
LC_ALL=C
export LC_ALL
unset GPROF_PATH POSIXLY_CORRECT 2>/dev/null

for prog in "$GPROF" "$GPROF_REF" "$MKFIXTURE"; do
  [ -x "$prog" ] || { echo "ERROR: $prog is missing"; exit 99; }
done
rm -rf "$work" && mkdir -p "$work/ref" "$work/fast" || exit 99
# Both run as "gprof": messages begin with the name they were run by.
ln -s "$GPROF_REF" "$work/ref/gprof" && ln -s "$GPROF" "$work/fast/gprof" ||
  exit 99

result ()
{
  if [ "$1" = ok ]; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
  fi
  echo "$1 $2"
}

# run DIR TAG THREADS BUILD OPTS OPERANDS...: one run in DIR of BUILD
# (ref or fast), its output, messages, status and gmon.sum kept under
# TAG.
run ()
{
  r_dir=$1 r_tag=$2 r_threads=$3 r_build=$4 r_opts=$5
  shift 5
  rm -f "$r_dir/gmon.sum"
  # shellcheck disable=SC2086 # $r_opts is a list of words
  (cd "$r_dir" && GPROF_THREADS=$r_threads PATH="$work/$r_build:$PATH" \
     gprof $r_opts "$@" \
     > "out.$r_tag" 2> "err.$r_tag"; echo $? > "status.$r_tag")
  if [ -f "$r_dir/gmon.sum" ]; then
    mv "$r_dir/gmon.sum" "$r_dir/sum.$r_tag"
  else
    : > "$r_dir/sum.$r_tag"
  fi
}

# same DIR NAME OPTS OPERANDS...: the reference against the fast build on
# 1, 2 and 4 threads.
same ()
{
  s_dir=$1 s_name=$2 s_opts=$3
  shift 3
  run "$s_dir" ref 1 ref "$s_opts" "$@"
  s_bad=
  for t in 1 2 4; do
    run "$s_dir" $t $t fast "$s_opts" "$@"
    for part in out err status sum; do
      cmp -s "$s_dir/$part.ref" "$s_dir/$part.$t" || s_bad="$s_bad $part($t)"
    done
  done
  if [ -z "$s_bad" ]; then
    result ok "$s_name: the reference's bytes on 1, 2 and 4 threads"
  else
    result FAIL "$s_name: differs from the reference:$s_bad"
  fi
}

# synthetic SHAPE FUNCTIONS ARCS
synthetic ()
{
  shape=$1
  dir=$work/$shape-$2
  python3 "$srcdir/bench/mkcase.py" "$dir" --functions "$2" --arcs "$3" \
    --shape "$shape" --seed 7 >/dev/null || exit 99
  for opts in "-b" "-b -z" "-b -q" "-b -p" "-b -T" "" "-q -c" "-s" \
              "--export=json" "--export=callgrind" "--diagnose"; do
    name="$shape-$2 ${opts:-(no options)}"
    same "$dir" "$name" "$opts" prog gmon.out
    case "$opts" in -b*) ;; *) continue ;; esac
    [ -x "$GNU_GPROF" ] || continue
    # GNU's call graph takes a minute a run at 40000 functions (it grows
    # with the square); the smaller cases hold it to GNU's bytes.
    [ "$2" -le 20000 ] || [ "$opts" = "-b -p" ] || continue
    (cd "$dir" && "$GNU_GPROF" $opts prog gmon.out > out.gnu 2>/dev/null)
    if cmp -s "$dir/out.gnu" "$dir/out.ref"; then
      result ok "$name: as GNU gprof"
    else
      result FAIL "$name: as GNU gprof"
      diff "$dir/out.gnu" "$dir/out.ref" | head -10
    fi
  done
}

if command -v python3 >/dev/null && command -v as >/dev/null \
   && command -v ld >/dev/null && [ "$(uname -m)" = x86_64 ]; then
  synthetic random 3000 15000
  synthetic chain 3000 15000
  synthetic tree 3000 15000
  synthetic dag 13000 20000
  synthetic random 40000 160000
else
  echo "skip: the synthetic profiles need python3, as, ld and x86-64"
fi

# A real program, for the source lines.
if command -v python3 >/dev/null && command -v gcc >/dev/null; then
  dir=$work/prog
  python3 "$srcdir/bench/mkprog.py" "$dir" --functions 2000 >/dev/null 2>&1 ||
    exit 99
  for opts in "-b -l" "-b -l -p -q" "-A" "-l -C" "-b -l -s"; do
    same "$dir" "prog-2000 $opts" "$opts" prog gmon.out
  done
else
  echo "skip: the real program needs python3 and gcc"
fi

# Every fixture, with its default report.
dir=$work/fixtures
mkdir -p "$dir" && "$MKFIXTURE" "$dir" >/dev/null || exit 99
while read -r name class image profiles; do
  # shellcheck disable=SC2086 # a list of files
  same "$dir" "fixture $name" "" $image $profiles
done < "$dir/scenarios"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
