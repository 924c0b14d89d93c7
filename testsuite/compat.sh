#!/bin/sh
# compat.sh - the shared compatibility harness (../shared/compat), when the
# checkout has it beside it: real -pg programs, GNU gprof and ours on the
# same files with many option sets, native and (when the cross tools are
# installed) aarch64.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
harness=$top/../shared/compat/compat.py
[ -f "$harness" ] || { echo "no ../shared/compat: skipped"; exit 77; }
command -v python3 >/dev/null || exit 77
gprof=${GPROF:-$PWD/gprof}
status=0
cases=$top/../shared/compat/cases.toml
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# A kernel without 32-bit mode (some hypervisors' guests) builds the
# i386 programs but cannot run them: they are left out, said so.
printf 'int main (void) { return 0; }\n' > "$work/m32.c"
if gcc -m32 -o "$work/m32" "$work/m32.c" 2>/dev/null && ! "$work/m32" 2>/dev/null; then
  echo "skip the i386 programs: this machine cannot run them"
  python3 - "$cases" "$work/cases.toml" <<'EOF2'
import sys
text = open(sys.argv[1]).read().split("\n[[")
kept = [text[0]] + [p for p in text[1:] if "-m32" not in p]
open(sys.argv[2], "w").write("\n[[".join(kept))
EOF2
  cases=$work/cases.toml
fi
python3 "$harness" --gprof "$gprof" --cases "$cases" \
  --corpus "$top/../shared/compat/corpus" || status=1
if command -v aarch64-linux-gnu-gprof >/dev/null && command -v qemu-aarch64 >/dev/null; then
  python3 "$harness" --gprof "$gprof" --cases "$top/../shared/compat/cross.toml" || status=1
fi
exit $status
