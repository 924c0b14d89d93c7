#!/bin/sh
# html.sh - --export=html loads in headless Chromium without console
# errors or network requests, and its views work (browse.js): sorting,
# search, a function's callers, times in units, a recursive function's
# calls as gprof's call graph counts them, links and Back through the
# URL's fragment, the drawing of a function's neighbourhood, the flame
# graph and, with -l, the source view.  The screenshots stay in
# testsuite/work/export/html/ to be looked at.
. "$(dirname "$0")/lib.sh"
chromium=${CHROMIUM:-/usr/bin/chromium}
[ -x "$chromium" ] || skip "no $chromium (Debian package chromium)"
ex_profile
ex_npm playwright-core@1.65.1
ex_work html

# fib's calls as the call graph's primary line gives them: "1+N".
"$GPROF" -b -q "$prog" "$gmon" >"$work/graph.txt"
calls=$(awk '/^\[[0-9]+\]/ && /fib\(unsigned int\) \[/ { print $5 }' "$work/graph.txt")
case $calls in
  *+*) echo "the call graph counts fib's calls as $calls" ;;
  *) fail "no recursive calls of fib in the call graph: '$calls'" ;;
esac

for opts in "" "-l"; do
  # shellcheck disable=SC2086
  ex_export page.html html $opts || continue
  shot=$work/page$(echo "$opts" | tr -d ' ').png
  if CHROMIUM=$chromium node "$here/browse.js" --page="$work/page.html" --shot="$shot" \
       --fn=shared_leaf --caller='right()' \
       --recursive='fib(unsigned int)' --calls="$calls" \
       --hood=edge --hood-caller=graph --hood-callee=node \
       ${opts:+--lines}; then
    pass "--export=html $opts works in Chromium (screenshots $work/*.png)"
  else
    fail "--export=html $opts in Chromium"
  fi
done

# Source text only from a readable file: a copy of the program whose
# source is then removed finds it through -I (the file's last part in
# that directory); without -I its page has line numbers only.
mkdir "$work/moved"
cp "$here/prog.cc" "$work/moved/"
if (cd "$work/moved" && g++ -O0 -g -pg -o prog prog.cc && ./prog && rm prog.cc); then
  for inc in "-I$here" ""; do
    # shellcheck disable=SC2086
    if ! "$GPROF" --export=html -l $inc "$work/moved/prog" "$work/moved/gmon.out" \
         >"$work/moved/page.html" 2>"$work/moved/err" || [ -s "$work/moved/err" ]; then
      fail "--export=html -l $inc of the moved program"
    fi
    # prog.cc's functions only: a sampled function of a system header
    # (a destructor in stl_pair.h, now and then) has its text, rightly.
    set -- $(python3 - "$work/moved/page.html" <<'EOF_PY'
import re, sys
page = open(sys.argv[1], encoding="utf-8").read()
text = missing = 0
for fn in page.split('{"name":')[1:]:
    if re.search(r'"file":"[^"]*prog\.cc"', fn):
        text += '"src":' in fn
        missing += '"src_missing":"unreadable"' in fn
print(text, missing)
EOF_PY
)
    n=$1 missing=$2
    got=$([ "$n" -gt 0 ] && echo text)$([ "$missing" -gt 0 ] && echo unreadable)
    want=$([ -n "$inc" ] && echo text || echo unreadable)
    if [ "$got" = "$want" ]; then
      pass "source text ${inc:+found with $inc }in $n functions, unreadable in $missing"
    else
      fail "source text ${inc:+with $inc }in $n functions, unreadable in $missing"
    fi
  done
else
  fail "cannot build and run a copy of prog.cc"
fi
ex_done
