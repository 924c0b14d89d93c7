#!/bin/sh
# check-setup.sh - tools/setup demo installs only what building and
# running the example needs: no browser, emulator, cross compiler,
# valgrind, clang or Node.js (npm packages are installed for check
# only); tools/setup check installs everything demo does.
#
# Exit status 0, 1 when demo asks for a test-only package, 99 when the
# test cannot run.
set -u
src=$(cd "${srcdir:-.}" && pwd) || exit 99
setup=$src/tools/setup
fails=0

demo=$(sh "$setup" packages demo) || exit 99
check=$(sh "$setup" packages check) || exit 99
[ -n "$demo" ] && [ -n "$check" ] || { echo "tools/setup lists no packages"; exit 99; }
echo "demo installs: $(echo $demo)"

for pkg in $demo; do
  case $pkg in
    chromium*|firefox*|qemu*|*-aarch64-*|*-arm64-*|*-cross|valgrind*|clang*|libclang*|nodejs|npm|graphviz|locales|*-i386|lib32*)
      echo "FAIL demo installs $pkg, which only the tests need"
      fails=$((fails + 1)) ;;
  esac
done
for pkg in $demo; do
  echo "$check" | grep -q -x -e "$pkg" ||
    { echo "FAIL check does not install $pkg"; fails=$((fails + 1)); }
done
# npm is run for check alone.
if sed -n '/^if \[ "\$job" = check \] && command -v npm/,/^fi/!p' "$setup" | grep -q 'npm install'; then
  echo "FAIL tools/setup runs npm install outside check"
  fails=$((fails + 1))
fi

echo "$fails problems"
[ "$fails" -eq 0 ]
