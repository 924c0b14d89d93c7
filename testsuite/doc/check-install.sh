#!/bin/sh
# check-install.sh - installing beside Debian's binutils replaces nothing
# of it but the gprof command: `make install` with prefix /usr into a
# staging directory, whose files are compared with those of every
# installed package built from binutils' source (dpkg), a page compressed
# there (gprof.1.gz) counting as the same file as an uncompressed one.
# Also: the default prefix is /usr/local, and --program-prefix renames
# the command (its transform, given to make as configure would set it).
#
# Runs from the top build directory; exit status 0, 1 on a collision,
# 77 without dpkg, 99 when the test cannot run.
set -u
src=$(cd "${srcdir:-.}" && pwd) || exit 99
top=$(pwd)
work=$top/testsuite/work/install
make=${MAKE:-make}
fails=0

command -v dpkg-query >/dev/null || { echo "no dpkg: skipped"; exit 77; }
rm -rf "$work"
mkdir -p "$work" || exit 99

fail () {
  echo "FAIL $1"
  fails=$((fails + 1))
}

# FILES: every file and link under DIR, as absolute installed names,
# ".gz" taken off.
installed () {
  (cd "$1" && find . ! -type d) | sed 's|^\.||; s|\.gz$||' | sort -u
}

default=$(sed -n 's/^ac_default_prefix=//p' "$src/configure")
if [ "$default" = /usr/local ]; then
  echo "ok the default prefix is /usr/local"
else
  fail "the default prefix is '$default', not /usr/local"
fi

# Every package of binutils' source that is installed here.
dpkg-query -W -f='${db:Status-Abbrev} ${Package} ${source:Package}\n' 2>/dev/null |
  awk '$1 == "ii" && $3 == "binutils" { print $2 }' >"$work/packages"
[ -s "$work/packages" ] || { echo "binutils is not installed: skipped"; exit 77; }
# shellcheck disable=SC2046 # one argument per package
dpkg -L $(cat "$work/packages") | sed 's|\.gz$||' | sort -u >"$work/binutils"
echo "binutils' packages here: $(tr '\n' ' ' <"$work/packages")($(wc -l <"$work/binutils") paths)"

# The staging installs: plain, and with a program prefix.
if ! "$make" -s -C "$top" install prefix=/usr DESTDIR="$work/plain" \
     >"$work/plain.log" 2>&1; then
  cat "$work/plain.log"
  echo "make install failed"
  exit 99
fi
installed "$work/plain" >"$work/ours"
echo "installed: $(wc -l <"$work/ours") files"
comm -12 "$work/ours" "$work/binutils" >"$work/both"
if [ "$(cat "$work/both")" = /usr/bin/gprof ]; then
  echo "ok of binutils' files only /usr/bin/gprof is installed"
else
  fail "files of binutils installed: $(tr '\n' ' ' <"$work/both")"
fi
for want in /usr/bin/gprof /usr/share/man/man1/gmonprof.1 \
            /usr/share/man/man3/libgmon.3 /usr/share/info/gmonprof.info; do
  grep -q -x -e "$want" "$work/ours" || fail "$want is not installed"
done
# The translations are under our own text domain.
if grep -q '/LC_MESSAGES/' "$work/ours" &&
   grep '/LC_MESSAGES/' "$work/ours" | grep -q -v '/LC_MESSAGES/gmonprof\.mo$'; then
  fail "catalogs under another text domain: $(grep '/LC_MESSAGES/' "$work/ours" | tr '\n' ' ')"
fi

if ! "$make" -s -C "$top" install prefix=/usr DESTDIR="$work/prefixed" \
     program_transform_name='s&^&x-&' >"$work/prefixed.log" 2>&1; then
  cat "$work/prefixed.log"
  echo "make install with a program prefix failed"
  exit 99
fi
installed "$work/prefixed" >"$work/ours-prefixed"
if grep -q -x /usr/bin/x-gprof "$work/ours-prefixed" &&
   ! grep -q -x /usr/bin/gprof "$work/ours-prefixed"; then
  echo "ok --program-prefix=x- installs /usr/bin/x-gprof"
else
  fail "with --program-prefix=x-: $(grep /bin/ "$work/ours-prefixed" | tr '\n' ' ')"
fi

[ "$fails" -eq 0 ] && rm -rf "$work"
echo "$fails problems"
[ "$fails" -eq 0 ]
