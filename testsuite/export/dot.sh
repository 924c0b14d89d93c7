#!/bin/sh
# dot.sh - --export=dot: Graphviz renders it, its percentages are the
# text call graph's, and cycles, C++ names and dot keywords survive.
. "$(dirname "$0")/lib.sh"
command -v dot >/dev/null || skip "no dot (Debian package graphviz)"
ex_profile
ex_work dot

for opts in "" "--export-node-threshold=0 --export-edge-threshold=0" "-l" "-a" "--no-demangle"; do
  # shellcheck disable=SC2086
  ex_export graph.dot dot $opts || continue
  if dot -Tsvg "$work/graph.dot" >"$work/graph.svg" 2>"$work/dot.err" && [ ! -s "$work/dot.err" ]; then
    pass "dot -Tsvg renders --export=dot $opts ($(grep -c '<g id="node' "$work/graph.svg") nodes)"
  else
    fail "dot -Tsvg on --export=dot $opts:"; cat "$work/dot.err"
  fi
done

ex_export all.dot dot --export-node-threshold=0 --export-edge-threshold=0
dot -Tsvg "$work/all.dot" >"$work/all.svg" 2>/dev/null
for text in '>graph<' '>node<' '>edge<' 'geometry::Vec::operator+(geometry::Vec const&amp;) const' \
            'geometry::Matrix&lt;double&gt;::multiply(std::map'; do
  if grep -qF "$text" "$work/all.svg"; then
    pass "the drawing shows $text"
  else
    fail "the drawing lacks $text"
  fi
done
if grep -q 'class="cluster"' "$work/all.svg" && grep -qF '&lt;cycle 1&gt;' "$work/all.svg"; then
  pass "the cycle is drawn as a cluster"
else
  fail "no cluster for the cycle"
fi

# Default thresholds leave out the functions under 0.5%.
ex_export default.dot dot
small=$(grep -c 'label=' "$work/default.dot")
large=$(grep -c 'label=' "$work/all.dot")
if [ "$small" -lt "$large" ]; then
  pass "the thresholds leave out small nodes and edges ($small of $large)"
else
  fail "the thresholds left out nothing ($small of $large)"
fi

"$GPROF" -b -P "$prog" "$gmon" >"$work/graph.txt"
if python3 "$here/check.py" dot "$work/all.dot" "$work/graph.txt"; then
  pass "node percentages match the text call graph"
else
  fail "node percentages differ from the text call graph"
fi

# A profile of calls only has no time: the functions are drawn all the same.
python3 "$here/check.py" calls-only "$gmon" "$work/calls.out"
"$GPROF" --export=dot "$prog" "$work/calls.out" >"$work/calls.dot"
if dot -Tsvg "$work/calls.dot" >"$work/calls.svg" && grep -qF '>shared_leaf(unsigned long)<' "$work/calls.svg"; then
  pass "a profile of calls only is drawn"
else
  fail "a profile of calls only is not drawn"
fi

if "$GPROF" --export=nonsense "$prog" "$gmon" >/dev/null 2>"$work/bad.err" ||
   ! grep -q "unknown format" "$work/bad.err"; then
  fail "--export=nonsense is not refused"
else
  pass "--export=nonsense is refused: $(cat "$work/bad.err")"
fi
ex_done
