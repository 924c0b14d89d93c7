#!/bin/sh
# check-options.sh - every long option of gprof's option table
# (options.c) is in the output of gprof --help, in the man page
# gmonprof.1 and in the manual gmonprof.texi; and --help names no option the table
# lacks.  (Who we are is check-identity.sh's.)
#
# --help writes GNU's options as GNU does, several in one bracket:
# "[--[no-]graph[=name]]" stands for --graph and --no-graph.  The man
# page escapes its dashes (\-\-graph).  Runs from the top build
# directory; exit status 0, 1 when something is missing, 99 when the
# test cannot run.
set -u
src=$(cd "${srcdir:-.}" && pwd) || exit 99
gprof=${GPROF:-./gprof}
work=${TMPDIR:-/tmp}/check-options.$$
mkdir "$work" || exit 99
trap 'rm -rf "$work"' EXIT
fails=0

# The long names of the option table, in its order ("" entries are
# GNU's unnamed ones).
sed -n '/long_options\[\] = {/,/^};/p' "$src/options.c" \
  | sed -n 's/^ *{ "\([a-z][a-z-]*\)",.*/\1/p' >"$work/table"
[ -s "$work/table" ] || { echo "no option table found in options.c"; exit 99; }

# --help with "--[no-]x" spelled out as "--x --no-x".
LC_ALL=C "$gprof" --help >"$work/help.raw" 2>&1 || exit 99
sed 's/--\[no-\]\([a-z-]*\)/--\1 --no-\1/g' "$work/help.raw" >"$work/help"
# The man page without its escapes.
sed 's/\\-/-/g; s/\\f[BIRP]//g' "$src/doc/gmonprof.1" >"$work/man"

while read -r name; do
  for place in help man; do
    if ! grep -q -e "--$name\([^a-z-]\|$\)" "$work/$place"; then
      echo "FAIL --$name is not in the $place text"
      fails=$((fails + 1))
    fi
  done
  if ! grep -q -e "^@opindex --$name\$" "$src/doc/gmonprof.texi"; then
    echo "FAIL --$name is not in doc/gmonprof.texi"
    fails=$((fails + 1))
  fi
done <"$work/table"

# And the other way round: --help lists no option gprof does not have.
grep -o -e '--[a-z][a-z-]*' "$work/help" | sort -u >"$work/named"
while read -r opt; do
  if ! grep -q -x -e "${opt#--}" "$work/table"; then
    echo "FAIL --help names $opt, which is not in the option table"
    fails=$((fails + 1))
  fi
done <"$work/named"

n=$(wc -l <"$work/table")
echo "$n long options checked, $fails missing"
[ "$fails" -eq 0 ]
