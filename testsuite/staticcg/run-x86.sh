#!/bin/sh
# run-x86.sh - -c on x86-64 and i386 code finds every direct call of .text
# and invents none (check_calls.py compares with objdump -d).
set -u
here=$(cd "$(dirname "$0")" && pwd)
gprof=${GPROF:-$PWD/gprof}
command -v gcc >/dev/null && command -v objdump >/dev/null && command -v python3 >/dev/null || exit 77
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 99

passed=0 failed=0
for flavour in "O0:-O0" "O2:-O2 -fno-reorder-blocks-and-partition" \
               "O3:-O3 -fno-reorder-blocks-and-partition" \
               "nopie:-O1 -fno-pie -no-pie" "m32:-m32 -O1" "m32-O0:-m32 -O0"; do
  name=${flavour%%:*} flags=${flavour#*:}
  # shellcheck disable=SC2086
  if ! gcc $flags -g -pg "$here/calls.c" -o "calls-$name" 2>/dev/null; then
    echo "skip calls-$name: cannot build"
    continue
  fi
  ./"calls-$name"
  case $? in
    0) mv gmon.out "gmon-$name" ;;
    126) echo "skip calls-$name: this machine cannot run it"; continue ;;
    *) echo "FAIL calls-$name: no profile"; failed=$((failed + 1)); continue ;;
  esac
  if python3 "$here/check_calls.py" "$gprof" "calls-$name" "gmon-$name"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
  fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
