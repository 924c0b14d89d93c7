#!/bin/sh
# json.sh - --export=json validates against doc/export-schema.json and
# holds the rows of the text reports, with -l too.
. "$(dirname "$0")/lib.sh"
ex_profile
ex_npm ajv@8.20.0
ex_work json
schema=$here/../../doc/export-schema.json

for opts in "" "-l" "-a" "-z" "-E is_odd"; do
  # shellcheck disable=SC2086
  ex_export profile.json json $opts || continue
  if node "$here/validate.js" "$schema" "$work/profile.json"; then
    pass "--export=json $opts is valid against doc/export-schema.json"
  else
    fail "--export=json $opts is not valid"
  fi
  # shellcheck disable=SC2086
  "$GPROF" -b -p $opts "$prog" "$gmon" >"$work/flat.txt"
  # shellcheck disable=SC2086
  "$GPROF" -b -P $opts "$prog" "$gmon" >"$work/graph.txt"
  if python3 "$here/check.py" json "$work/profile.json" "$work/flat.txt" "$work/graph.txt"; then
    pass "--export=json $opts holds what the text reports hold"
  else
    fail "--export=json $opts differs from the text reports"
  fi
done
# The schema can fail: a flat profile row without its name.
sed 's/{"name":"main",/{/' "$work/profile.json" >"$work/bad.json"
if node "$here/validate.js" "$schema" "$work/bad.json" >/dev/null; then
  fail "a row without a name passes the schema"
else
  pass "a row without a name is refused"
fi
ex_done
