#!/bin/sh
# folded.sh - --export=folded: "stack count" lines whose counts add up to
# the samples, also with -l and when --export-max-depth cuts the stacks.
. "$(dirname "$0")/lib.sh"
ex_profile
ex_work folded

for opts in "" "-l" "--export-max-depth=3"; do
  # shellcheck disable=SC2086
  ex_export stacks.folded folded $opts || continue
  max=0
  [ "$opts" = "--export-max-depth=3" ] && max=4  # and the truncation frame
  if python3 "$here/check.py" folded "$work/stacks.folded" "$ticks" $max; then
    pass "--export=folded $opts: $(wc -l <"$work/stacks.folded") stacks, $ticks samples"
  else
    fail "--export=folded $opts"
  fi
done
ex_export stacks.folded folded
if grep -q '^main;<cycle 1>;is_even(unsigned int) [0-9]*$' "$work/stacks.folded"; then
  pass "the cycle is one frame with its members below"
else
  fail "no main;<cycle 1>;is_even(unsigned int) stack"
fi
ex_done
