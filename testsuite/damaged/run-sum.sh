#!/bin/sh
# run-sum.sh - -s never leaves a half-written or clobbered gmon.sum.
#
# gprof writes the sum into a temporary file beside gmon.sum and renames
# it only when it is complete (doc/differences.md).  This checks, with
# the inputs mkdamaged writes, that every failure leaves the directory as
# it was (an older gmon.sum unchanged, no temporary file), with GNU's
# message:
#   - a full disk: a 16 KB tmpfs, when this runs as root and may mount
#     one (skipped otherwise);
#   - a file size limit (ulimit -f, SIGXFSZ ignored so that the write
#     fails instead of killing gprof);
#   - gmon.sum a directory;
#   - a damaged profile after a good one;
# and that a good run writes gmon.sum with the usual permissions.
#
# Environment: GPROF (default ./gprof), MKDAMAGED (default
# ./testsuite/damaged/mkdamaged).

set -u
LC_ALL=C
export LC_ALL
umask 022

absolute () {
  case $1 in
    /*) printf '%s\n' "$1" ;;
    *) printf '%s/%s\n' "$(pwd)" "$1" ;;
  esac
}
gprof=$(absolute "${GPROF:-./gprof}")
mkdamaged=$(absolute "${MKDAMAGED:-./testsuite/damaged/mkdamaged}")
for prog in "$gprof" "$mkdamaged"; do
  if [ ! -x "$prog" ]; then
    echo "ERROR: $prog is missing"
    exit 99
  fi
done

work=$(mktemp -d "${TMPDIR:-/tmp}/sum.XXXXXX") || exit 99
mnt=
cleanup () {
  [ -n "$mnt" ] && umount "$mnt" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
mkdir "$work/in" "$work/bin" || exit 99
"$mkdamaged" "$work/in" >/dev/null || exit 99
ln -s "$gprof" "$work/bin/gprof" || exit 99
in=$work/in
passed=0 failed=0 skipped=0

# sum NAME DIR STATUS MESSAGE ARGS...: run "gprof -s ARGS" in DIR (the
# inputs are named by absolute paths); it must exit with STATUS and print
# MESSAGE on standard error (after any line naming the inputs), and DIR
# must hold afterwards exactly what it held before, unless the run
# succeeded, when it gains gmon.sum.
sum () {
  s_name=$1 s_dir=$2 s_status=$3 s_msg=$4
  shift 4
  (cd "$s_dir" && ls -lA --time-style=+%s.%N) >"$work/before" 2>&1
  s_old=$(cksum "$s_dir/gmon.sum" 2>/dev/null)
  (cd "$s_dir" && PATH=$work/bin:$PATH gprof -s "$@" >/dev/null 2>"$work/err"
   echo $? >"$work/status")
  s_why=
  if [ "$(cat "$work/status")" != "$s_status" ]; then
    s_why="exit status $(cat "$work/status"), expected $s_status: $(head -c 200 "$work/err")"
  elif [ "$(tail -n 1 "$work/err")" != "$s_msg" ]; then
    s_why="message: $(head -c 300 "$work/err")"
  elif [ "$s_status" != 0 ]; then
    (cd "$s_dir" && ls -lA --time-style=+%s.%N) >"$work/after" 2>&1
    if ! cmp -s "$work/before" "$work/after"; then
      s_why="the directory changed: $(diff "$work/before" "$work/after" | grep '^[<>]' | head -4 | tr '\n' ' ')"
    elif [ "$(cksum "$s_dir/gmon.sum" 2>/dev/null)" != "$s_old" ]; then
      s_why="gmon.sum changed"
    fi
  elif [ ! -f "$s_dir/gmon.sum" ] || [ -n "$(cd "$s_dir" && ls -A | grep -v '^gmon\.sum$')" ]; then
    s_why="no gmon.sum, or a temporary file left: $(ls -A "$s_dir" | tr '\n' ' ')"
  fi
  if [ -z "$s_why" ]; then
    echo "ok $s_name"
    passed=$((passed + 1))
  else
    echo "FAIL $s_name: $s_why"
    failed=$((failed + 1))
  fi
}

wide="$in/prog64le.elf $in/wide-prog64le.gmon"

# A good run, then one with the permissions the umask leaves.
mkdir "$work/good" || exit 99
# shellcheck disable=SC2086 # $wide is two words
sum good "$work/good" 0 "" $wide
if [ "$(stat -c %a "$work/good/gmon.sum")" != 644 ]; then
  echo "FAIL good-mode: gmon.sum has mode $(stat -c %a "$work/good/gmon.sum"), expected 644 under umask 022"
  failed=$((failed + 1))
else
  passed=$((passed + 1))
  echo "ok good-mode"
fi

# A damaged profile after a good one: nothing written, the old sum kept.
mkdir "$work/damaged" && echo "an older sum" >"$work/damaged/gmon.sum" || exit 99
sum damaged-second "$work/damaged" 1 \
  "gprof: $in/cut-gnu64le-070.gmon: unexpected EOF after reading 4 of 8 samples" \
  "$in/prog64le.elf" "$in/good-prog64le.gmon" "$in/cut-gnu64le-070.gmon"

# gmon.sum is a directory.
mkdir -p "$work/isdir/gmon.sum" || exit 99
# shellcheck disable=SC2086
sum directory "$work/isdir" 1 "gmon.sum: Is a directory" $wide

# A file size limit below the sum's 16 KB: the write fails with EFBIG
# once SIGXFSZ is ignored (the ignoring is inherited through exec).
mkdir "$work/limit" && echo "an older sum" >"$work/limit/gmon.sum" || exit 99
(trap '' XFSZ
 ulimit -f 8
 # shellcheck disable=SC2086
 sum file-size-limit "$work/limit" 1 "gmon.sum: File too large" $wide
 echo "$passed $failed" >"$work/counts")
read -r passed failed <"$work/counts"

# A full disk: a tmpfs of 16 KB, the old sum taking some of it.
mnt=$work/full
mkdir "$mnt" || exit 99
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=16k tmpfs "$mnt" 2>/dev/null; then
  echo "an older sum" >"$mnt/gmon.sum"
  # shellcheck disable=SC2086
  sum full-disk "$mnt" 1 "gmon.sum: No space left on device" $wide
  umount "$mnt"
else
  echo "skip full-disk: cannot mount a tmpfs here (not root, or no permission)"
  skipped=$((skipped + 1))
fi
mnt=

[ "$skipped" -eq 0 ] || echo "($skipped skipped)"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
