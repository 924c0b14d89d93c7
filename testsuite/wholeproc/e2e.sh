#!/bin/sh
# e2e.sh - issue 28's "Done when", end to end, on real runs of the
# whole-process test program of testsuite/libgmon/modules.sh (a -pg
# program calling a -pg library that dlopen's a -pg plugin twice and a
# copy of it, with its time in libm and libz), through our gprof's
# --whole-process --export=json (e2e.py does the arithmetic):
#   1. every arc the program counted itself is gprof's count of it,
#      cross-module arcs included, with the functions named after their
#      modules; gprof has no other arc between the test's functions;
#   2. at least 95% of the time is in named functions of some module
#      (where libm's debug file, libc6-dbg, names its internals);
#   3. the top 5 functions by self time have perf's shares of the same
#      run (`perf record -g -e cpu-clock`, matched by address in the
#      module, so that aliases such as expf64 and exp@@GLIBC_2.29 are one
#      function; a sample in the kernel counts at the user-space PC it
#      came from, as libgmon's CPU timer counts it: memset's page faults
#      are memset's) within 4 times the sampling error of both (ours times
#      the dispersion in gmon.out's header), at least 3 points; skipped
#      where perf is missing or may not record;
#   4. GNU gprof prints from gmon.out what ours prints without the option.
# 1, 2 and 4 once more with libgmon.so preloaded into the program built
# with glibc's -pg code.  The configured architecture only.

. "$srcdir/testsuite/libgmon/lib.sh"
gm_setup "" wholeproc-e2e
OURS=$GMON_BUILDDIR/gprof
CHECK=$GMON_SRCDIR/testsuite/wholeproc/e2e.py
# Some 2.5 CPU seconds: 2500 samples on each side, a bound of 4 to 8
# points on the top functions' shares.
n=20000 math=${E2E_MATH:-60000000}

if ! command -v python3 > /dev/null 2>&1; then
  skip "no python3"
  gm_done
fi
zlib=
if echo 'int main (void) { return 0; }' > z.c \
   && $CC -DMOD_ZLIB -include zlib.h z.c -lz -o z > /dev/null 2>&1; then
  zlib="-DMOD_ZLIB -lz"
fi
gm_cc libmodA.so -O2 -pg -fPIC -shared "$TESTSRC/modlib.c" || gm_done
gm_cc modplug.so -O2 -pg -fPIC -shared "$TESTSRC/modplug.c" || gm_done
cp modplug.so modplug2.so
link="-L. -lmodA -Wl,-rpath,$work -lm $zlib"
gm_cc archive -O2 -pg "$TESTSRC/modprog.c" $link "$LIBA" -lm || gm_done
gm_cc glibc -O2 -pg "$TESTSRC/modprog.c" $link || gm_done
args="$work/modplug.so $n $math $work/modplug2.so"

# libm's functions that do the work (__sin_fma, __ieee754_pow_fma) are
# not exported: named only from its debug file, found by build-id.
libm_debug=
libm=$(ldd ./archive | awk '$1 ~ /^libm\.so/ { print $3 }')
libm_id=$(readelf -n "$libm" 2> /dev/null | awk '/Build ID/ { print $3 }')
if [ -n "$libm_id" ]; then
  libm_debug=/usr/lib/debug/.build-id/$(echo "$libm_id" | cut -c 1-2)/$(echo "$libm_id" | cut -c 3-).debug
  [ -f "$libm_debug" ] || libm_debug=
fi

perf=
if ! command -v perf > /dev/null 2>&1; then
  skip "perf is not installed (Debian: linux-perf): no independent measurement"
elif ! perf record -q -e cpu-clock -o probe.data -- true > probe.err 2>&1; then
  skip "perf cannot record here: $(head -n 1 probe.err)"
else
  perf=perf
fi

# check MODEL PROG: checks 1, 2 and 4 on MODEL/'s gmon.out (and 3 if
# MODEL/perf.data is there).
check () {
  _m=$1 _p=$2
  if [ ! -f "$_m/gmon.out.modules" ]; then
    fail "$_m: no gmon.out.modules: $(cat "$_m/$_p.err")"
    return
  fi
  if ! "$OURS" --whole-process -z --export=json "$_p" "$_m/gmon.out" \
       > "$_m/json" 2> "$_m/json.err" || [ -s "$_m/json.err" ]; then
    fail "$_m: gprof --whole-process --export=json: $(cat "$_m/json.err")"
    return
  fi
  if python3 "$CHECK" arcs "$_m/json" "$_m/$_p.out" > "$_m/arcs"; then
    pass "$_m: $(head -n 1 "$_m/arcs")"
  else
    fail "$_m: arcs differ:"
  fi
  sed 's/^/  | /' "$_m/arcs"
  if [ -z "$libm_debug" ]; then
    skip "$_m: no debug file of libm.so.6 under /usr/lib/debug (Debian:" \
      "libc6-dbg): its unexported functions have no names"
  elif python3 "$CHECK" named "$_m/json" > "$_m/named"; then
    pass "$_m: $(head -n 1 "$_m/named")"
  else
    fail "$_m: $(cat "$_m/named")"
  fi
  if [ -f "$_m/perf.data" ]; then
    perf script -i "$_m/perf.data" -F pid,ip,sym,dso \
      > "$_m/perf.txt" 2> "$_m/perf.err" \
      || fail "$_m: perf script: $(cat "$_m/perf.err")"
    if [ "$(od -A n -c -j 8 -N 4 "$_m/gmon.out" | tr -d ' ')" = disp ]; then
      _d=$(od -A n -t u4 -j 12 -N 4 "$_m/gmon.out" \
	     | awk '{ print $1 / 65536 }')
    else
      _d=1
    fi
    if python3 "$CHECK" perf "$_m/json" "$_m/perf.txt" "$_d" > "$_m/top"; then
      pass "$_m: the top 5 functions by self time are within bounds of perf's"
    else
      fail "$_m: the top 5 functions by self time are off perf's:"
    fi
    sed 's/^/  | /' "$_m/top"
  fi
  if (cd "$_m" && gm_gprof "../$_p" gmon.out -b > gnu) \
     && "$OURS" -b "$_p" "$_m/gmon.out" > "$_m/ours" 2>&1 \
     && cmp -s "$_m/gnu" "$_m/ours"; then
    pass "$_m: GNU gprof reads gmon.out and prints what ours prints"
  else
    fail "$_m: GNU gprof's report of gmon.out differs from ours"
  fi
}

# Linked with libgmon.a, under perf where it records: one run for both.
mkdir archive.run && cd archive.run || gm_done
if [ -n "$perf" ]; then
  perf record -q -g -e cpu-clock -F 999 -o perf.data -- ../archive $args \
    > archive.out 2> archive.err
else
  ../archive $args > archive.out 2> archive.err
fi || fail "archive: exit status $?: $(cat archive.err)"
cd "$work" && check archive.run archive

# Preloaded into glibc's -pg code.
mkdir preload.run && cd preload.run || gm_done
LD_PRELOAD=$LIBSO ../glibc $args > glibc.out 2> glibc.err \
  || fail "preload: exit status $?: $(cat glibc.err)"
cd "$work" && check preload.run glibc

gm_done
