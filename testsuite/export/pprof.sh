#!/bin/sh
# pprof.sh - --export=pprof: go tool pprof reads it, shows CPU time first,
# and its -top has the flat profile's functions with their self times in
# their order, -lines -top (with -l) its lines, -traces the stacks of
# --export=folded and, for the calls sample type, the call graph's arcs
# and counts.  The same on programs of the compat corpus
# (../shared/compat/corpus, beside the checkout) when it is there.
. "$(dirname "$0")/lib.sh"
command -v go >/dev/null || skip "no go (Debian package golang-go)"
go tool -n pprof >/dev/null 2>&1 || skip "go has no pprof tool"
ex_profile
ex_work pprof
check=$here/pprof.py
# pprof writes under HOME and its temporary directory: the test's own.
export HOME="$work" PPROF_TMPDIR="$work/tmp" GOCACHE="$work/gocache"

# pprof_read NAME.pb.gz OUT ARG...: go tool pprof ARG... on the export;
# fails the test when it complains.
pprof_read () {
  _in=$1 _out=$2
  shift 2
  if go tool pprof "$@" "$work/$_in" >"$work/$_out" 2>"$work/$_out.err" </dev/null &&
     [ ! -s "$work/$_out.err" ]; then
    return 0
  fi
  fail "go tool pprof $* $_in:"
  cat "$work/$_out.err"
  return 1
}

# pprof_checks LABEL: the export of $prog and $gmon against our reports.
pprof_checks () {
  ex_export prof.pb.gz pprof && ex_export lines.pb.gz pprof -l &&
    ex_export stacks.folded folded && ex_export graph.json json || return
  "$GPROF" -b -p "$prog" "$gmon" >"$work/flat.txt"
  "$GPROF" -b -p -l "$prog" "$gmon" >"$work/flat-l.txt"
  tick_ms=$(awk '/^Each sample counts as/ { print $5 * 1000 }' "$work/flat.txt")
  if pprof_read prof.pb.gz top.txt -top -unit=ms -nodefraction=0 &&
     python3 "$check" top "$work/flat.txt" "$work/top.txt"; then
    pass "$1: pprof -top is the flat profile"
  else
    fail "$1: pprof -top is not the flat profile"
  fi
  if pprof_read lines.pb.gz lines.txt -lines -top -unit=ms -nodefraction=0 &&
     python3 "$check" lines "$work/flat-l.txt" "$work/lines.txt"; then
    pass "$1: -l, pprof -lines -top is the flat profile of lines"
  else
    fail "$1: -l, pprof -lines -top is not the flat profile of lines"
  fi
  if pprof_read prof.pb.gz traces.txt -traces -unit=ms &&
     python3 "$check" traces "$work/stacks.folded" "$work/traces.txt" "$tick_ms"; then
    pass "$1: pprof -traces has the folded stacks"
  else
    fail "$1: pprof -traces differs from the folded stacks"
  fi
  if pprof_read prof.pb.gz calls.txt -traces -sample_index=calls &&
     python3 "$check" calls "$work/graph.json" "$work/calls.txt"; then
    pass "$1: the calls are the call graph's"
  else
    fail "$1: the calls are not the call graph's"
  fi
}

pprof_checks prog.cc

# What pprof shows first is the CPU time, not the calls (the last type).
if grep -q '^Type: cpu$' "$work/top.txt"; then
  pass "pprof shows the cpu sample type first"
else
  fail "pprof shows another sample type first: $(grep '^Type' "$work/top.txt")"
fi
if gzip -t "$work/prof.pb.gz" 2>/dev/null; then
  pass "the export is gzipped"
else
  fail "the export is not gzip"
fi
ex_export again.pb.gz pprof && if cmp -s "$work/prof.pb.gz" "$work/again.pb.gz"; then
  pass "two exports are the same bytes"
else
  fail "two exports of one profile differ"
fi

# Stacks cut at 3 frames end in [truncated], in pprof as in folded.
ex_export short.pb.gz pprof --export-max-depth=3 &&
  ex_export short.folded folded --export-max-depth=3 &&
  if pprof_read short.pb.gz short.txt -traces -unit=ms &&
     grep -q '\[truncated\]' "$work/short.txt" &&
     python3 "$check" traces "$work/short.folded" "$work/short.txt" "$tick_ms"; then
    pass "--export-max-depth=3: the folded stacks, cut"
  else
    fail "--export-max-depth=3: not the folded stacks"
  fi

# Without a histogram there is no time, but the calls are there.
python3 "$here/check.py" calls-only "$gmon" "$work/calls.gmon"
gmon_all=$gmon
gmon=$work/calls.gmon
ex_export nohist.pb.gz pprof && ex_export nohist.json json &&
  if pprof_read nohist.pb.gz nohist.txt -traces -sample_index=calls &&
     python3 "$check" calls "$work/nohist.json" "$work/nohist.txt"; then
    pass "no histogram: the calls are the call graph's"
  else
    fail "no histogram: the calls are not the call graph's"
  fi
gmon=$gmon_all

# A run too short for the clock to tick: a histogram with no sample.
# pprof then has no rows with time, like the flat profile; the calls stay.
python3 "$here/check.py" no-samples "$gmon" "$top_work/pprof-nosamples.gmon"
gmon=$top_work/pprof-nosamples.gmon
ex_work pprof/nosamples
pprof_checks "no samples"
gmon=$gmon_all
ex_work pprof

# A write error fails the run, as for the other formats.
if "$GPROF" --export=pprof "$prog" "$gmon" >/dev/full 2>"$work/full.err"; then
  fail "--export=pprof to /dev/full succeeds"
elif grep -q 'write error: No space left on device' "$work/full.err"; then
  pass "--export=pprof to /dev/full: $(cat "$work/full.err")"
else
  fail "--export=pprof to /dev/full: $(cat "$work/full.err")"
fi

# Programs of the compat corpus, built as compat.py builds them (-O0 -g
# -pg) and run once with its arguments; kept between runs.
corpus=$here/../../../shared/compat/corpus
if [ ! -d "$corpus" ]; then
  echo "no compat corpus beside the checkout: its programs are not checked"
  ex_done
fi
for spec in "cycles cc 12000 cycles.c" "shapes c++ 2000 shapes.cc" \
            "multi cc 60000 multi/main.c multi/parse.c multi/eval.c"; do
  # shellcheck disable=SC2086
  set -- $spec
  name=$1 cc=$2 args=$3
  shift 3
  dir=$top_work/pprof-corpus/$name
  if [ ! -f "$dir/gmon.out" ]; then
    rm -rf "$dir" && mkdir -p "$dir" &&
      (cd "$corpus" && $cc -O0 -g -pg -o "$dir/$name" "$@") &&
      (cd "$dir" && "./$name" "$args" >/dev/null) ||
      { fail "cannot build and run the corpus program $name"; continue; }
  fi
  prog=$dir/$name gmon=$dir/gmon.out
  ex_work pprof/$name
  pprof_checks "$name"
done
ex_done
