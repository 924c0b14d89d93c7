#!/bin/sh
# speedscope.sh - --export=speedscope validates against the schema that
# the speedscope package ships, and its weights add up to the samples.
. "$(dirname "$0")/lib.sh"
ex_profile
ex_npm speedscope@1.25.0 ajv@8.20.0
ex_work speedscope
schema=$NODE_PATH/speedscope/dist/release/file-format-schema.json
[ -f "$schema" ] || { echo "FAIL: $schema missing"; exit 1; }

# Weights are in microseconds: 1e6 / hz per sample.
"$GPROF" --export=json "$prog" "$gmon" >"$work/profile.json"
us=$(python3 -c 'import json, sys; print(1e6 / json.load(open(sys.argv[1]))["hz"])' "$work/profile.json")

for opts in "" "-l"; do
  # shellcheck disable=SC2086
  ex_export profile.speedscope.json speedscope $opts || continue
  if node "$here/validate.js" "$schema" "$work/profile.speedscope.json"; then
    pass "--export=speedscope $opts is valid against speedscope's schema"
  else
    fail "--export=speedscope $opts is not valid"
  fi
  sum=$(node -e '
    const p = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).profiles[0];
    console.log(Math.round(p.weights.reduce((a, b) => a + b, 0) / process.argv[2]))' \
    "$work/profile.speedscope.json" "$us")
  if [ "$sum" = "$ticks" ]; then
    pass "the weights add up to $sum samples"
  else
    fail "the weights add up to $sum samples, the histogram has $ticks"
  fi
done
# The validator can fail: a unit speedscope does not know.
sed 's/"microseconds"/"furlongs"/' "$work/profile.speedscope.json" >"$work/bad.json"
if node "$here/validate.js" "$schema" "$work/bad.json" >/dev/null; then
  fail "a file with unit furlongs passes the schema"
else
  pass "a file with unit furlongs is refused"
fi
ex_done
