#!/bin/sh
# perf.sh - the flame graph from libgmon's call stacks against perf's:
# interp.c, an interpreter-like program with one big cycle, runs once
# under `perf record -g` (frame-pointer call chains, the CPU clock);
# the widest ten frames of our --export=folded, and of perf's stacks,
# must agree within 3 points, or within 4 times the sampling error
# where the run is too short for that (flamecmp.py; PERF_SECONDS=30
# gives the 3 points).  The stacks the call graph
# would synthesize put 40% of the time under cleanup(), where perf finds
# none.  GNU gprof still reads the gmon.out as ours does.  Skipped where
# perf is missing or may not record (perf_event_paranoid, containers).
# Run through perf.test.

. "$srcdir/testsuite/libgmon/lib.sh"
gm_setup "" perf
OURS=$GMON_BUILDDIR/gprof
seconds=${PERF_SECONDS:-10}

if ! command -v perf > /dev/null 2>&1; then
  skip "perf is not installed (Debian: linux-perf)"
  gm_done
fi
if ! perf record -q -e cpu-clock -o probe.data -- true > probe.err 2>&1; then
  skip "perf cannot record here: $(head -n 1 probe.err)"
  gm_done
fi
gm_cc interp -O2 -pg -fno-optimize-sibling-calls \
  "$GMON_SRCDIR/testsuite/measured/interp.c" "$LIBA" -lpthread || gm_done

if ! perf record -q -e cpu-clock -F 999 -g -o perf.data -- \
     ./interp "$seconds" > interp.out 2> interp.err; then
  fail "perf record ./interp: $(cat interp.err)"
  gm_done
fi
if [ ! -s gmon.out.stacks ]; then
  fail "no gmon.out.stacks; stderr: $(cat interp.err)"
  gm_done
fi
perf script -i perf.data -F comm,ip,sym,dso > perf.txt 2> perf.err \
  || fail "perf script: $(cat perf.err)"
"$OURS" --export=folded interp gmon.out > folded.txt 2> gprof.err \
  && [ ! -s gprof.err ] || fail "gprof --export=folded: $(cat gprof.err)"

# The dispersion D of the samples, from the header (gmon_out.h).
if [ "$(od -A n -c -j 8 -N 4 gmon.out | tr -d ' ')" = disp ]; then
  disp=$(od -A n -t u4 -j 12 -N 4 gmon.out | awk '{ print $1 / 65536 }')
else
  disp=1
fi
if python3 "$GMON_SRCDIR/testsuite/measured/flamecmp.py" perf.txt \
     folded.txt interp 3 "$disp" > widths.txt; then
  pass "the ten widest frames are within their bounds of perf's"
else
  fail "frames off perf's widths:"
fi
sed 's/^/  | /' widths.txt

if gm_gprof interp gmon.out -b > gnu && "$OURS" -b interp gmon.out > ours \
   && cmp -s gnu ours; then
  pass "GNU gprof reads gmon.out and prints what ours prints"
else
  fail "GNU gprof's report differs from ours"
fi
gm_done
