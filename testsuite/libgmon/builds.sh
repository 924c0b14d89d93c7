#!/bin/sh
# builds.sh ARCH - the ways of building and linking a -pg program all
# produce exact profiles: PIE and non-PIE, -O0 and -O2, -mfentry (x86),
# -static and -static-pie, objects compiled with -pg but linked without
# it (libgmon's weak __gmon_start__ starts profiling), and libgmon.so
# preloaded into programs linked against glibc's gmon or not linked with
# -pg at all, and (aarch64) programs using PAC and BTI.  The call graph must charge f1's calls to the right
# callers.  Run through builds-ARCH.test.

. "$srcdir/testsuite/libgmon/lib.sh"
gm_setup "$1" "builds-$1"

src=$TESTSRC/chain.c
fentry=
case $gm_arch in
  x86_64) fentry="-mfentry" ;;
  i386) fentry="-mfentry -fno-pie -no-pie" ;;
esac

# gm_check NAME: the counts and f1's callers in gmon.out.
gm_check () {
  gm_quiet "$1" "$1"
  if ! grep -qx 2999000 "$1.out"; then
    fail "$1: wrong result or no output: $(cat "$1.out" "$1.err")"
    return
  fi
  case $1 in
    # In static programs main's caller (libc) is in the profiled range.
    static*) gm_expect_calls "$1" gmon.out "$1" "f1 2000" "f2 1000" "f3 1" \
	       "main 1" ;;
    *) gm_expect_calls "$1" gmon.out "$1" "f1 2000" "f2 1000" "f3 1" ;;
  esac
  gm_gprof "$1" gmon.out -b -q > "$1.cg" || return
  if grep -Eq '^ +[0-9.]+ +[0-9.]+ +1000/2000 +f2 \[' "$1.cg" \
     && grep -Eq '^ +[0-9.]+ +[0-9.]+ +1000/2000 +f3 \[' "$1.cg"; then
    pass "$1: call graph: f1 called 1000 times each by f2 and f3"
  else
    fail "$1: call graph does not charge f1's calls to f2 and f3"
  fi
}

# gm_variant NAME HOW CFLAGS -- LINKFLAGS: compile, link, run, check.
# HOW: run or preload.  Compiling and linking are separate steps, so that
# "linked without -pg" can be expressed.
gm_variant () {
  name=$1 how=$2
  shift 2
  cflags=
  while [ "$1" != -- ]; do cflags="$cflags $1"; shift; done
  shift
  rm -f gmon.out
  # $cflags is split on purpose.
  $CC $cflags -c "$src" -o "$name.o" > "$name.cc.log" 2>&1 \
    || { fail "$name: cannot compile: $(cat "$name.cc.log")"; return; }
  gm_cc "$name" "$name.o" "$@" || return
  if [ "$how" = preload ]; then gm_run_preload "$name"; else gm_run "$name"; fi
  status=$?
  if [ $status -ne 0 ]; then
    fail "$name: exit status $status: $(cat "$name.err")"
    return
  fi
  gm_check "$name"
}

gm_variant pie-O2 run -O2 -pg -- -pg "$LIBA"
gm_variant nopie-O0 run -O0 -pg -fno-pie -- -pg -no-pie "$LIBA"
gm_variant static run -O2 -pg -- -pg -static "$LIBA"
gm_variant nopg-link run -O2 -pg -- "$LIBA"
gm_variant preload-pie preload -O2 -pg -- -pg
gm_variant preload-nopie preload -O2 -pg -fno-pie -- -pg -no-pie
gm_variant preload-nopg-link preload -O2 -pg -- 
if [ -n "$fentry" ]; then
  # shellcheck disable=SC2086
  gm_variant fentry run -O2 -pg $fentry -- -pg $fentry "$LIBA"
  gm_variant fentry-preload preload -O2 -pg $fentry -- -pg $fentry
fi
if [ "$gm_arch" = aarch64 ]; then
  # Pointer authentication and BTI in the program: under qemu, the "max"
  # CPU model has them.
  run_saved=$RUN
  case $RUN in qemu*) RUN="$RUN -cpu max" ;; esac
  gm_variant pac-bti run -O2 -pg -mbranch-protection=standard -- -pg "$LIBA"
  RUN=$run_saved
fi
# -static-pie needs a toolchain that supports it (grcrt1.o).
if $CC -static-pie -pg -o static-pie-probe "$src" > /dev/null 2>&1; then
  gm_variant static-pie run -O2 -pg -fpie -- -pg -static-pie "$LIBA"
else
  skip "static-pie: $CC cannot link -static-pie -pg programs"
fi
gm_done
