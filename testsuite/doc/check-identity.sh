#!/bin/sh
# check-identity.sh - everything that names the project names the same
# one, with the same version, and none of it claims to be GNU binutils:
# gprof --version and --help, the man pages, the manual, libgmon.pc and
# the exports that record their creator.  The name, version and bug
# address are configure's (config.h).
#
# Runs from the top build directory; exit status 0, 1 on a mismatch, 77
# without gcc, 99 when the test cannot run.
set -u
src=$(cd "${srcdir:-.}" && pwd) || exit 99
top=$(pwd)
gprof=${GPROF:-$top/gprof}
work=$top/testsuite/work/identity
fails=0

define () {
  sed -n "s/^#define $1 \"\(.*\)\"\$/\1/p" "$top/config.h"
}
name=$(define PACKAGE_NAME) version=$(define PACKAGE_VERSION)
bugs=$(define PACKAGE_BUGREPORT)
[ -n "$name" ] && [ -n "$version" ] && [ -n "$bugs" ] ||
  { echo "config.h gives no PACKAGE_NAME, PACKAGE_VERSION or PACKAGE_BUGREPORT"; exit 99; }
echo "the project: $name $version, bugs to $bugs"
rm -rf "$work"
mkdir -p "$work" || exit 99

fail () {
  echo "FAIL $1"
  fails=$((fails + 1))
}

# expect WHAT GOT WANT
expect () {
  if [ "$2" = "$3" ]; then
    echo "ok $1: $2"
  else
    fail "$1: '$2', not '$3'"
  fi
}

# GNU's identity in FILE (binutils' name, tracker or copyright holder)
# is a failure; so is, in a program's own output (a third argument), a
# line that begins "GNU gprof" as GNU's --version does.  The documents
# may name GNU gprof, the reference.
not_gnu () {
  set -- "$1" "$2" -e sourceware -e 'Binutils for' -e 'Free Software Foundation' \
    ${3:+-e '^GNU gprof'}
  what=$1 file=$2
  shift 2
  if grep -q -i "$@" "$file"; then
    fail "$what claims GNU's identity: $(grep -i -m 1 "$@" "$file")"
  fi
}

LC_ALL=C "$gprof" --version >"$work/version" 2>&1 || exit 99
expect "--version's first line" "$(head -n 1 "$work/version")" \
  "gprof ($name) $version"
expect "--version's bug address" "$(grep '^Report bugs' "$work/version")" \
  "Report bugs at $bugs"
not_gnu --version "$work/version" output
LC_ALL=C "$gprof" --help >"$work/help" 2>&1 || exit 99
expect "--help's bug address" "$(grep '^Report bugs' "$work/help")" \
  "Report bugs at $bugs"
not_gnu --help "$work/help" output

# The man pages' title lines: .TH NAME SECTION DATE SOURCE MANUAL.
for page in gmonprof.1 libgmon.3; do
  source=$(sed -n 's/^\.TH [^ ]* [0-9] "[^"]*" "\([^"]*\)".*/\1/p' "$src/doc/$page")
  expect "doc/$page's source" "$source" "$name $version"
  not_gnu "doc/$page" "$src/doc/$page"
done
expect "the command's man page" "$(sed -n 's/^\.TH \([^ ]*\) .*/\1/p' "$src/doc/gmonprof.1")" \
  "$(echo "$name" | tr a-z A-Z)"

# The manual: its file name and the version it is for.
expect "the manual's file" "$(sed -n 's/^@setfilename //p' "$src/doc/$name.texi")" \
  "$name.info"
expect "the manual's version" "$(sed -n 's/^@set VERSION //p' "$src/doc/version.texi")" \
  "$version"
not_gnu "doc/$name.texi" "$src/doc/$name.texi"

# pkg-config's data.
expect "libgmon.pc's version" "$(sed -n 's/^Version: //p' "$top/libgmon/libgmon.pc")" \
  "$version"
expect "libgmon.pc's project" \
  "$(sed -n "s/^Description: .*\\($name\\).*/\\1/p" "$top/libgmon/libgmon.pc")" "$name"

# The exports that name their creator.
command -v gcc >/dev/null || { echo "no gcc: exports not checked"; exit 77; }
cd "$work" || exit 99
gcc -pg -O0 -fno-inline "$src/testsuite/diagnose/progs/prog.c" -o prog ||
  exit 99
./prog a b c >/dev/null
[ -f gmon.out ] || { echo "prog wrote no gmon.out"; exit 99; }
for format in json speedscope callgrind; do
  "$gprof" --export=$format prog gmon.out >"$format.out" || exit 99
  not_gnu "--export=$format" "$format.out" output
done
expect "--export=json's creator" \
  "$(python3 -c 'import json, sys; print(json.load(sys.stdin)["creator"])' <json.out)" \
  "$name $version"
expect "--export=speedscope's exporter" \
  "$(python3 -c 'import json, sys; print(json.load(sys.stdin)["exporter"])' <speedscope.out)" \
  "$name $version"
expect "--export=callgrind's creator" "$(sed -n 's/^creator: //p' callgrind.out)" \
  "$name $version --export=callgrind"

[ "$fails" -eq 0 ] && rm -rf "$work"
echo "$fails mismatches"
[ "$fails" -eq 0 ]
