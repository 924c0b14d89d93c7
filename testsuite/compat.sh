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
python3 "$harness" --gprof "$gprof" || status=1
if command -v aarch64-linux-gnu-gprof >/dev/null && command -v qemu-aarch64 >/dev/null; then
  python3 "$harness" --gprof "$gprof" --cases "$top/../shared/compat/cross.toml" || status=1
fi
exit $status
