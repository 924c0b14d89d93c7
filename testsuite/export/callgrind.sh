#!/bin/sh
# callgrind.sh - --export=callgrind: callgrind_annotate reads it, its
# total is the histogram's samples, and the inclusive costs on the calls
# add up (with and without -l).
. "$(dirname "$0")/lib.sh"
command -v callgrind_annotate >/dev/null || skip "no callgrind_annotate (Debian package valgrind)"
ex_profile
ex_work callgrind

for opts in "" "-l"; do
  # shellcheck disable=SC2086
  ex_export callgrind.out callgrind $opts || continue
  if ! callgrind_annotate --inclusive=yes "$work/callgrind.out" >"$work/annotate.txt" 2>"$work/annotate.err"; then
    fail "callgrind_annotate refuses --export=callgrind $opts:"; cat "$work/annotate.err"
    continue
  fi
  total=$(sed -n 's/^ *\([0-9,]*\) .*PROGRAM TOTALS.*/\1/p' "$work/annotate.txt" | tr -d ,)
  main=$(sed -n 's/^ *\([0-9,]*\) .*:main .*/\1/p' "$work/annotate.txt" | tr -d , | head -1)
  if [ "$total" = "$ticks" ]; then
    pass "callgrind_annotate $opts: program totals $total = the histogram's $ticks samples"
  else
    fail "callgrind_annotate $opts: program totals '$total', the histogram has $ticks samples"
  fi
  if [ -n "$main" ] && [ "$main" -gt $((ticks * 9 / 10)) ]; then
    pass "callgrind_annotate --inclusive=yes $opts: main has $main of $ticks"
  else
    fail "callgrind_annotate --inclusive=yes $opts: main has '$main' of $ticks"
  fi
  if python3 "$here/check.py" callgrind "$work/callgrind.out"; then
    pass "inclusive costs add up ($opts)"
  else
    fail "inclusive costs do not add up ($opts)"
  fi
done
ex_done
