#!/bin/sh
# format.sh ARCH - the files libgmon writes, in both formats, read back by
# GNU gprof: 64-bit call counts and 32-bit histogram bins split over
# several GNU records (gprof sums them), the 4.4BSD format from a real
# run, and a pipe as the output name.  Run through format-ARCH.test.

. "$srcdir/testsuite/libgmon/lib.sh"
gm_setup "$1" "format-$1"

eval "extra=\$GMON_CFLAGS_$gm_arch"
# Not a -pg program, but linking libgmon.a brings the weak __gmon_start__
# that profiles it anyway: keep that profile out of the way.
export LIBGMON_OUT=self.gmon
# shellcheck disable=SC2086
gm_cc formatgen -O2 -fno-pie -no-pie -I"$GMON_SRCDIR/libgmon" $extra \
  "$TESTSRC/formatgen.c" "$LIBA" -pthread || gm_done
unset LIBGMON_OUT

# gm_flat_field FILE FUNCTION FIELD: a field of FUNCTION's flat profile
# line (2 = cumulative seconds, 3 = self seconds, 4 = calls).
gm_flat_field () {
  awk -v f="$2" -v n="$3" '$NF == f { print $n }' "$1"
}

# The GNU format: 2 arc records for 5e9 calls, 4 histogram records.
if gm_run formatgen gnu split.gmon \
   && grep -qx 'records 2 calls 5000000000 saturated 0' formatgen.out; then
  pass "gnu: 5000000000 calls written as 2 arc records"
else
  fail "gnu: writer reported: $(cat formatgen.out formatgen.err)"
fi
if gm_gprof formatgen split.gmon -b -p > split.flat; then
  calls=$(gm_flat_field split.flat callee 4)
  secs=$(gm_flat_field split.flat burn 3)
  [ "$calls" = 5000000000 ] && pass "gnu: gprof sums the arc records" \
    || fail "gnu: gprof reads $calls calls of callee, want 5000000000"
  [ "$secs" = 200.00 ] && pass "gnu: gprof sums the histogram records" \
    || fail "gnu: gprof reads $secs s in burn, want 200.00"
fi

# The BSD format: pointer-sized counts (split on 32-bit), clipped bins.
case $gm_arch in i386) records=2 ;; *) records=1 ;; esac
if gm_run formatgen bsd split.bsd \
   && grep -qx "records $records calls 5000000000 saturated 1" formatgen.out
then
  pass "bsd: $records arc record(s), histogram clipped and reported"
else
  fail "bsd: writer reported: $(cat formatgen.out formatgen.err)"
fi
if gm_gprof formatgen split.bsd -b -p > bsd.flat; then
  calls=$(gm_flat_field bsd.flat callee 4)
  secs=$(gm_flat_field bsd.flat burn 3)
  [ "$calls" = 5000000000 ] && pass "bsd: gprof reads 5000000000 calls" \
    || fail "bsd: gprof reads $calls calls of callee, want 5000000000"
  [ "$secs" = 65.53 ] || [ "$secs" = 65.54 ] \
    && pass "bsd: gprof reads the clipped bin (65535 samples)" \
    || fail "bsd: gprof reads $secs s in burn, want 65.54"
fi

# A real run in the BSD format.
gm_cc chain -O2 -pg "$TESTSRC/chain.c" "$LIBA" || gm_done
LIBGMON_FORMAT=bsd gm_run chain
gm_quiet chain "bsd run"
gm_expect_calls chain gmon.out "bsd run" "f1 2000" "f2 1000" "f3 1"
# The 4.4BSD header: lowpc, highpc (pointers), ncnt, then the version.
case $gm_arch in i386) word=4 ;; *) word=8 ;; esac
version=$(od -An -tx4 -j $((2 * word + 4)) -N 4 gmon.out | tr -d ' ')
[ "$version" = 00051879 ] && pass "bsd run: 4.4BSD header" \
  || fail "bsd run: header version is '$version', want 00051879"

# An output name that is not a regular file is written to, not replaced:
# here a pipe read by cat.
rm -f gmon.out fifo
if mkfifo fifo; then
  cat fifo > from-fifo.gmon &
  reader=$!
  # A program that fails to start never opens the pipe, and cat would
  # wait for a writer for ever.
  LIBGMON_OUT=fifo gm_run chain || kill "$reader" 2>/dev/null
  wait
  if [ -p fifo ] && gm_gprof chain from-fifo.gmon -b -p > /dev/null; then
    pass "a pipe as output: the profile went through it"
  else
    fail "a pipe as output: $(ls -l fifo from-fifo.gmon; cat chain.err)"
  fi
fi
gm_done
