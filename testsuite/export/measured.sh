#!/bin/sh
# measured.sh - the exports of a profile with the call stacks libgmon
# records beside it: twocallers.c built against the in-tree libgmon,
# where 99% of work's time is under hard and gprof's rule says 50%.
# Each export says it has measured stacks, and each gives hard at least
# 90% of work's samples: folded, speedscope and the html page in their
# stacks, pprof in go tool pprof -traces, json in the call graph's arcs,
# callgrind in the calls' inclusive costs.  The folded ticks add up to
# the histogram's samples; a call that is its function's last
# instruction is that function's on the stacks; --export-max-depth and
# -e apply.  Without the stacks file every export says "synthesized" and
# the folded stacks share work by the calls again.
. "$(dirname "$0")/lib.sh"
config=$PWD/testsuite/work/libgmon/config.sh
[ -f "$config" ] || skip "$config missing (run the tests through make check)"
. "$config"
[ -n "$GMON_ARCH" ] || skip "libgmon does not support this architecture"
eval "cc=\$GMON_CC_$GMON_ARCH"
[ -n "$cc" ] || skip "no compiler for $GMON_ARCH programs"
command -v python3 >/dev/null || skip "no python3"
ex_work measured
shares=$here/shares.py

# 1.5 s of CPU time at the usual 100 to 1000 samples a second: at least
# 150 samples of work, of which easy's calls take 1%.
prog=$work/twocallers
gmon=$work/gmon.out
if ! $cc -O2 -g -pg -fno-optimize-sibling-calls -fno-toplevel-reorder \
       -falign-functions=1 -pthread -o "$prog" "$here/twocallers.c" \
       "$GMON_BUILDDIR/libgmon/.libs/libgmon.a" 2>"$work/cc.err"; then
  fail "cannot build twocallers.c: $(cat "$work/cc.err")"
  ex_done
fi
(cd "$work" && ./twocallers 1.5) ||
  { fail "twocallers failed"; ex_done; }
[ -s "$gmon.stacks" ] || { fail "libgmon wrote no gmon.out.stacks"; ex_done; }
ticks=$(python3 "$here/check.py" ticks "$gmon") || ex_done
echo "twocallers profiled: $ticks samples in the histogram"

# share FORMAT FILE CALLER CALLEE: CALLER's percent of CALLEE's samples.
share () {
  python3 "$shares" "$1" "$work/$2" "$4" >"$work/$2.shares" ||
    cat "$work/$2.shares"
  awk -v c="$3" '$1 == c { print $2 }' "$work/$2.shares"
}

# at_least PCT WHAT FORMAT FILE: hard's share of work at least PCT.
at_least () {
  _got=$(share "$3" "$4" hard work)
  if awk -v g="${_got:-0}" -v p="$1" 'BEGIN { exit !(g >= p) }'; then
    pass "$2: hard brings work $_got% of its samples"
  else
    fail "$2: hard brings work '$_got'% of its samples, not $1% or more"
  fi
}

# go tool pprof ARG... on the export FILE into OUT; 1 without go.
have_go=false
command -v go >/dev/null && go tool -n pprof >/dev/null 2>&1 && have_go=true
export HOME="$work" PPROF_TMPDIR="$work/tmp" GOCACHE="$work/gocache"
pprof_read () {
  _in=$1 _out=$2
  shift 2
  $have_go || return 1
  go tool pprof "$@" "$work/$_in" >"$work/$_out" 2>"$work/$_out.err" </dev/null &&
    [ ! -s "$work/$_out.err" ] && return 0
  fail "go tool pprof $* $_in: $(cat "$work/$_out.err")"
  return 1
}

# found WHAT REGEX FILE: PASS WHAT if REGEX is in FILE.
found () {
  if grep -q "$2" "$work/$3"; then
    pass "$1"
  else
    fail "$1: not in $work/$3"
  fi
}

# says KIND: every export names its stacks KIND (measured, synthesized).
says () {
  for f in folded speedscope json callgrind html pprof; do
    ex_export "$1.$f" "$f" || return
  done
  case $1 in
    measured) sp="stacks measured by libgmon" cg="measured from the call stacks" ;;
    *) sp="stacks synthesized from the call graph" cg="synthesized from the calls" ;;
  esac
  found "$1: speedscope's profile is named '$sp'" \
    "\"profiles\":\[{\"type\":\"sampled\",\"name\":\"$sp\"" "$1.speedscope"
  found "$1: json says \"stacks\":\"$1\"" "\"stacks\":\"$1\"" "$1.json"
  found "$1: callgrind's desc: says $cg" "^desc: Call costs: $cg" "$1.callgrind"
  found "$1: the html page's data says $1" "\"stack_kind\":\"$1\"" "$1.html"
  if pprof_read "$1.pprof" "$1.comments" -comments; then
    found "$1: pprof's comment says $1 stacks" "^$1 stacks: " "$1.comments"
  fi
}

says measured
if python3 "$here/check.py" folded "$work/measured.folded" "$ticks"; then
  pass "the folded ticks add up to the histogram's $ticks samples"
else
  fail "the folded ticks do not add up to the histogram's samples"
fi
at_least 90 "folded" folded measured.folded
at_least 90 "speedscope" speedscope measured.speedscope
at_least 90 "html's flame graph" html measured.html
at_least 90 "json's arcs" json measured.json
at_least 90 "callgrind's calls" callgrind measured.callgrind
if pprof_read measured.pprof measured.traces -traces -unit=ms; then
  at_least 90 "pprof -traces" traces measured.traces
  tick_ms=$("$GPROF" -b -p "$prog" "$gmon" | awk '/^Each sample counts as/ { print $5 * 1000 }')
  if python3 "$here/pprof.py" traces "$work/measured.folded" \
       "$work/measured.traces" "$tick_ms"; then
    pass "pprof -traces has the folded stacks"
  else
    fail "pprof -traces differs from the folded stacks"
  fi
else
  $have_go || echo "no go tool pprof: pprof's stacks are not read"
fi
# The files are still valid, when the validators are installed.
NODE_PATH=$(npm root -g 2>/dev/null) &&
  [ -f "$NODE_PATH/ajv/package.json" ] && export NODE_PATH &&
  for s in "$here/../../doc/export-schema.json measured.json" \
           "$NODE_PATH/speedscope/dist/release/file-format-schema.json measured.speedscope"; do
    # shellcheck disable=SC2086
    set -- $s
    if node "$here/validate.js" "$1" "$work/$2"; then
      pass "$2 is valid against $(basename "$1")"
    else
      fail "$2 is not valid against $1"
    fi
  done
found "json counts the arcs measured: $(grep -o '"arcs":{[^}]*}' "$work/measured.json")" \
  '"arcs":{"measured":[1-9][0-9]*,"shared":0}' measured.json

# ending's call of finish is its last instruction: the call graph's arc
# names spare, the function after it; the stacks name ending.
if [ "$(share json measured.json spare finish)" = 100.0 ]; then
  if [ "$(share folded measured.folded ending finish)" = 100.0 ] &&
     ! grep -q 'spare' "$work/measured.folded"; then
    pass "a call that ends its function is that function's on the stacks"
  else
    fail "finish's callers on the stacks: $(cat "$work/measured.folded.shares")"
  fi
else
  echo "the compiler put code after ending's call of finish: not checked"
fi

ex_export short.folded folded --export-max-depth=2 &&
  if python3 "$here/check.py" folded "$work/short.folded" "$ticks" 3 &&
     grep -q '^main;hard;\[truncated\] [0-9]*$' "$work/short.folded"; then
    pass "--export-max-depth=2: stacks cut into main;hard;[truncated]"
  else
    fail "--export-max-depth=2: $(cat "$work/short.folded")"
  fi
ex_export hidden.folded folded -e hard &&
  if grep -q '^main;work [0-9]*$' "$work/hidden.folded" &&
     ! grep -q 'hard' "$work/hidden.folded"; then
    pass "-e hard: its frames are left out of the stacks"
  else
    fail "-e hard: $(cat "$work/hidden.folded")"
  fi

mv "$gmon.stacks" "$work/stacks.away"
says synthesized
got=$(share folded synthesized.folded hard work)
if awk -v g="${got:-0}" 'BEGIN { exit !(g > 40 && g < 60) }'; then
  pass "without stacks, the folded stacks give hard $got% of work, by its calls"
else
  fail "without stacks, the folded stacks give hard '$got'% of work"
fi
ex_done
