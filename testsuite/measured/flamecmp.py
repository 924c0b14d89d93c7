#!/usr/bin/env python3
"""flamecmp.py PERF_SCRIPT FOLDED EXE [POINTS [D]] - compare a flame
graph's frame widths with perf's real stacks of the same run.

PERF_SCRIPT is `perf script -F comm,ip,sym,dso` output (samples with
call chains, blank lines between them); FOLDED is gprof's
--export=folded.  A frame's width is the share of the samples whose
stack holds that function at least once (recursion counts once per
sample).  perf's samples count only where the interrupted code is EXE's
own, which is what the profile's histogram covers.  The widest ten
frames of each side must be within POINTS (3) percentage points of the
other side's, or within 4 times the sampling error of the difference
where that is larger: perf samples each period, libgmon's timer signals
come at the kernel's ticks and stand for D (the profile's dispersion,
default 1) periods each, so its share of n samples varies by
sqrt(p (1 - p) D / n).  Prints a table; exit status 1 if some frame is
off."""

import math
import os
import sys


def perf_stacks(path, exe):
    """Each sample's function names, innermost first, of samples whose
    innermost frame is in EXE."""
    exe = os.path.realpath(exe)
    sample = []
    with open(path, errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line.strip():
                if sample:
                    yield sample
                sample = []
                continue
            if not line.startswith(("\t", " ")):
                continue        # the sample's header line (comm)
            parts = line.split()
            if len(parts) < 3:
                continue
            dso = parts[-1].strip("()")
            sym = parts[1].split("+")[0]
            sample.append((sym, os.path.realpath(dso) == exe))
    if sample:
        yield sample


def perf_widths(path, exe):
    width, total = {}, 0
    for sample in perf_stacks(path, exe):
        if not sample[0][1]:
            continue
        total += 1
        for name in {sym for sym, ours in sample if ours}:
            width[name] = width.get(name, 0) + 1
    return width, total


def folded_widths(path):
    width, total = {}, 0
    with open(path) as f:
        for line in f:
            frames, _, count = line.rstrip("\n").rpartition(" ")
            n = int(count)
            total += n
            for name in set(frames.split(";")):
                width[name] = width.get(name, 0) + n
    return width, total


def top(width, total, n=10):
    return sorted(width, key=lambda k: -width[k])[:n]


def main():
    perf, folded, exe = sys.argv[1:4]
    points = float(sys.argv[4]) if len(sys.argv) > 4 else 3.0
    disp = float(sys.argv[5]) if len(sys.argv) > 5 else 1.0
    pw, pt = perf_widths(perf, exe)
    fw, ft = folded_widths(folded)
    if pt == 0 or ft == 0:
        print(f"no samples: perf {pt}, folded {ft}")
        return 1
    bad = 0
    print(f"{'frame':24} {'perf %':>8} {'ours %':>8} {'bound':>6}   ({pt} perf "
          f"samples, {ft} ours, dispersion {disp:.1f})")
    for name in sorted(set(top(pw, pt)) | set(top(fw, ft)),
                       key=lambda k: -fw.get(k, 0)):
        p = 100.0 * pw.get(name, 0) / pt
        o = 100.0 * fw.get(name, 0) / ft
        q = p / 100.0
        err = 100.0 * math.sqrt(q * (1 - q) * (disp / ft + 1.0 / pt))
        bound = max(points, 4 * err)
        off = abs(p - o) > bound
        bad += off
        print(f"{name:24} {p:8.1f} {o:8.1f} {bound:6.1f}"
              f"{'   OFF' if off else ''}")
    print(f"{bad} frame(s) off by more than their bound")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
