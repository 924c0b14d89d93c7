#!/bin/sh
# run-i18n.sh - gprof in German and French, and the C locale untouched.
#
# The German locale is generated here, into the work directory (LOCPATH),
# with localedef from the definitions of Debian's "locales" package: no
# root rights and no change to the system.  French runs in the C.UTF-8
# locale that every glibc has, with LANGUAGE=fr choosing the messages.
# The catalogs come from po/*.po, compiled into the place gprof-nls was
# built to look in (see local.mk).
#
# Runs from the top build directory.  Exit status 0, 1 on a failure, 77
# without gcc, 99 when the test cannot run (no msgfmt or localedef, or
# no German locale definition: install gettext and locales).
set -u
top=$(pwd)
src=$(cd "${srcdir:-.}" && pwd) || exit 99
work=$top/testsuite/work/i18n
nls=$top/testsuite/i18n/gprof-nls
gprof=$top/gprof
fails=0

command -v gcc >/dev/null || { echo "no gcc: skipped"; exit 77; }
for tool in msgfmt localedef; do
  command -v $tool >/dev/null || { echo "$tool is missing"; exit 99; }
done

rm -rf "$work"
mkdir -p "$work/locale/de/LC_MESSAGES" "$work/locale/fr/LC_MESSAGES" \
  "$work/locales" || exit 99
trap 'rm -rf "$work"' EXIT
# The text domain is the package's name (config.h), as in gprof.c.
domain=$(sed -n 's/^#define PACKAGE "\(.*\)"$/\1/p' "$top/config.h")
[ -n "$domain" ] || { echo "config.h defines no PACKAGE"; exit 99; }
for lang in de fr; do
  msgfmt -c -o "$work/locale/$lang/LC_MESSAGES/$domain.mo" \
    "$src/po/$lang.po" || { echo "po/$lang.po does not compile"; exit 99; }
done
# localedef warns about the definition's own details; only success counts.
if ! localedef -i de_DE -f UTF-8 "$work/locales/de_DE.UTF-8" 2>/dev/null \
   || [ ! -d "$work/locales/de_DE.UTF-8" ]; then
  echo "cannot generate de_DE.UTF-8 (install the Debian package locales)"
  exit 99
fi

# A profile: the --diagnose tests' program, run briefly.
cd "$work" || exit 99
gcc -pg -O0 -fno-inline "$src/testsuite/diagnose/progs/prog.c" -o prog \
  || exit 99
./prog a b c >/dev/null
[ -f gmon.out ] || { echo "prog wrote no gmon.out"; exit 99; }
: > empty.out

fail () {
  echo "FAIL $1"
  [ -f out ] && sed 's/^/    /' out
  fails=$((fails + 1))
}

# Has FILE the fixed string TEXT?
has () {
  grep -F -q -- "$2" "$1"
}

german () {
  env -u LANGUAGE LOCPATH="$work/locales" LC_ALL=de_DE.UTF-8 "$@"
}

french () {
  env LC_ALL=C.UTF-8 LANGUAGE=fr "$@"
}

# German: reports, the diagnosis, errors and --help.
german "$nls" prog gmon.out >out 2>&1
if has out "Flaches Profil:" && has out "Jede Stichprobe zählt als 0.01 seconds." \
   && has out "Wie der Aufrufgraph zu lesen ist" \
   && has out "Index % Zeit  selbst    Kinder   Aufrufe     Name"; then
  echo "ok German reports, decimal points kept"
else
  fail "German reports"
fi
german "$nls" --diagnose prog gmon.out >out 2>&1
if has out "Befund der Profildaten von prog" \
   && has out "Was das Profil nicht sagen kann" \
   && grep -q "^Zusammenfassung: " out; then
  echo "ok German diagnosis"
else
  fail "German diagnosis"
fi
german "$nls" prog empty.out >out 2>&1
if has out "empty.out: Datei zu kurz für eine gmon-Datei"; then
  echo "ok German error message"
else
  fail "German error message"
fi
german "$nls" --help >out 2>&1
if head -n 1 out | grep -q "^Aufruf: " \
   && has out "Optionen dieses gprof, die GNU gprof nicht hat:"; then
  echo "ok German --help"
else
  fail "German --help"
fi

# French, through LANGUAGE in the C.UTF-8 locale.
french "$nls" --diagnose prog gmon.out >out 2>&1
if has out "Diagnostic des données de profil de prog" \
   && grep -q "^Bilan" out; then
  echo "ok French diagnosis"
else
  fail "French diagnosis"
fi
french "$nls" -b -p prog gmon.out >out 2>&1
if has out "Profil à plat"; then
  echo "ok French flat profile"
else
  fail "French flat profile"
fi

# The C locale: gprof-nls, which finds the catalogs, prints what gprof
# prints, byte for byte (the compatibility tests run that way).  Both run
# as ./gprof, since messages start with the name gprof was run as.
mkdir as-nls as-gprof || exit 99
ln -s "$nls" as-nls/gprof && ln -s "$gprof" as-gprof/gprof || exit 99
for args in "" "--diagnose" "--help"; do
  # shellcheck disable=SC2086
  (cd as-nls && LC_ALL=C ./gprof $args ../prog ../gmon.out) >nls.out 2>&1
  # shellcheck disable=SC2086
  (cd as-gprof && LC_ALL=C ./gprof $args ../prog ../gmon.out) >gprof.out 2>&1
  if cmp -s nls.out gprof.out; then
    echo "ok C locale: gprof $args"
  else
    rm -f out
    fail "C locale: gprof $args"
    diff gprof.out nls.out | head -20
  fi
done
# Numbers in the C locale's form under the German locale: the same rows.
german "$nls" -b -p -z prog gmon.out | grep '^ *[0-9]' >nls.out
LC_ALL=C "$gprof" -b -p -z prog gmon.out | grep '^ *[0-9]' >gprof.out
if cmp -s nls.out gprof.out; then
  echo "ok German flat profile rows as in the C locale"
else
  rm -f out
  fail "German flat profile rows as in the C locale"
  diff gprof.out nls.out | head -20
fi

# Every source file with messages is in po/POTFILES.in.
cd "$src" || exit 99
missing=$(grep -l -E '\b(_|ngettext) ?\(' ./*.c ./*/*.c 2>/dev/null \
            | grep -v -E '^\./(testsuite|libgmon|bench)/' \
            | sed 's|^\./||' | while read -r f; do
                grep -q -x -F "$f" po/POTFILES.in || echo "$f"
              done)
if [ -z "$missing" ]; then
  echo "ok po/POTFILES.in lists every file with messages"
else
  echo "FAIL po/POTFILES.in lacks: $missing"
  fails=$((fails + 1))
fi

echo "$fails failed"
[ "$fails" -eq 0 ]
