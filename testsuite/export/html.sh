#!/bin/sh
# html.sh - --export=html loads in headless Chromium without console
# errors or network requests; sorting, search, clicking a function (its
# callers show) and the flame graph work.  The screenshots stay in
# testsuite/work/export/html/ to be looked at.
. "$(dirname "$0")/lib.sh"
chromium=${CHROMIUM:-/usr/bin/chromium}
[ -x "$chromium" ] || skip "no $chromium (Debian package chromium)"
ex_profile
ex_npm playwright-core@1.65.1
ex_work html

for opts in "" "-l"; do
  # shellcheck disable=SC2086
  ex_export page.html html $opts || continue
  shot=$work/page$(echo "$opts" | tr -d ' ').png
  if CHROMIUM=$chromium node "$here/browse.js" "$work/page.html" shared_leaf 'right()' "$shot"; then
    pass "--export=html $opts works in Chromium (screenshot $shot)"
  else
    fail "--export=html $opts in Chromium"
  fi
done
ex_done
