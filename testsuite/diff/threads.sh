#!/bin/sh
# threads.sh - reports printed by several threads are the same.
#
# out_print_items cuts the flat profile, the call graph and the index
# into batches of about 4096 lines and prints them on up to four threads.
# The small programs of the other tests fit in one batch; here
# bench/mkcase.py makes profiles in each shape, of 3000 functions and
# 15000 arcs (a call graph of about ten batches) and one of 13000
# functions (each report in several batches), and our gprof runs with
# GPROF_THREADS=1, 2 and 4.  All three must print the same bytes, and
# with -b the same as GNU gprof (when /usr/bin/gprof is there).
#
# Environment: GPROF (default ./gprof), GNU_GPROF (default /usr/bin/gprof).

srcdir=${srcdir:-.}
GPROF=${GPROF:-./gprof}
GNU_GPROF=${GNU_GPROF:-/usr/bin/gprof}
work=testsuite/work/threads
pass=0 fail=0

command -v python3 >/dev/null && command -v as >/dev/null \
  && command -v ld >/dev/null || { echo "skip: needs python3, as and ld"; exit 77; }
rm -rf "$work" && mkdir -p "$work" || exit 99

result ()
{
  if [ "$1" = ok ]; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
  fi
  echo "$1 $2"
}

# one case: SHAPE FUNCTIONS ARCS
check_case ()
{
  shape=$1
  dir=$work/$shape
  python3 "$srcdir/bench/mkcase.py" "$dir" --functions "$2" --arcs "$3" \
    --shape "$shape" --seed 7 >/dev/null || exit 99
  for opts in "-b" "-b -z" "-b -q" "-b -p" "-b -T" "" "-q -c"; do
    name="$shape ${opts:-(no options)}"
    for t in 1 2 4; do
      (cd "$dir" && GPROF_THREADS=$t LC_ALL=C "$OLDPWD/$GPROF" $opts prog gmon.out \
         > "out.$t" 2> "err.$t"; echo $? > "status.$t")
    done
    if cmp -s "$dir/out.1" "$dir/out.2" && cmp -s "$dir/out.1" "$dir/out.4" \
       && [ "$(cat "$dir/status.1")" = 0 ] && [ ! -s "$dir/err.1" ] \
       && [ ! -s "$dir/err.2" ] && [ ! -s "$dir/err.4" ]; then
      result ok "$name: 1, 2 and 4 threads"
    else
      result FAIL "$name: 1, 2 and 4 threads"
    fi
    case "$opts" in -b*) ;; *) continue ;; esac
    [ -x "$GNU_GPROF" ] || continue
    (cd "$dir" && LC_ALL=C "$GNU_GPROF" $opts prog gmon.out > out.gnu 2>/dev/null)
    if cmp -s "$dir/out.gnu" "$dir/out.2"; then
      result ok "$name: as GNU gprof"
    else
      result FAIL "$name: as GNU gprof"
      diff "$dir/out.gnu" "$dir/out.2" | head -10
    fi
  done
}

check_case random 3000 15000
check_case chain 3000 15000
check_case tree 3000 15000
check_case dag 13000 20000
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
