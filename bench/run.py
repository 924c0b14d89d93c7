#!/usr/bin/env python3
"""run.py [--gprof ./gprof] [--big] [--only NAME] [--runs 3] [--pause S] [--work DIR] [--instructions]

Times our gprof against GNU gprof (/usr/bin/gprof) on synthetic profiles
made by mkcase.py and on a real -g -pg program made by mkprog.py, checks
that both print the same bytes, and prints a table: wall seconds (median
of the runs), peak memory, GNU's time over ours, and for each case twice
as big as another one, how much more time ours took.  That last figure
compares the two cases at one moment: their runs alternate (half, full,
half, full...), as this machine's speed can move by half within minutes,
and a ratio of two medians taken minutes apart measured that instead.
Not a test: run it by hand on a quiet machine.  --big adds the cases GNU
gprof cannot do in reasonable time (up to a million functions); those
run ours only.
Ours runs once untimed before its timed runs, after the case's files
are synced to disk; then GNU's runs and ours alternate, GNU first, as
the goals are set.  --pause S leaves the machine idle S seconds before
each timed run of ours: a run that follows no other gprof run by
seconds (see doc/performance.md on what that changes here).
--instructions counts the instructions one run of ours executes
(valgrind's callgrind) instead of timing: the same count on every run,
so that a change can be judged on a machine too noisy for timings."""
import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))

# name, functions, arcs, shape, options, run GNU too
LADDER = [
    ("random-10k", 10000, 40000, "random", "-b", True),
    ("random-20k", 20000, 80000, "random", "-b", True),
    ("dag-10k", 10000, 40000, "dag", "-b", True),
    ("dag-20k", 20000, 80000, "dag", "-b", True),
    ("chain-10k", 10000, 20000, "chain", "-b", True),
    ("chain-20k", 20000, 40000, "chain", "-b", True),
    ("tree-10k", 10000, 20000, "tree", "-b", True),
    ("tree-20k", 20000, 40000, "tree", "-b", True),
]
BIG = [
    ("random-100k", 100000, 500000, "random", "-b", False),
    ("random-200k", 200000, 1000000, "random", "-b", False),
    ("chain-100k", 100000, 200000, "chain", "-b", False),
    ("chain-200k", 200000, 400000, "chain", "-b", False),
    ("random-500k", 500000, 2500000, "random", "-b", False),
    ("random-1m", 1000000, 5000000, "random", "-b", False),
]
# mkprog.py's program (with -g), line by line and with the static calls
PROGRAMS = [("prog-20k -l", 20000, "-b -l"), ("prog-20k -c", 20000, "-b -c")]
MERGE = ("merge-1000 -s", 1000)                # -s of 1000 profiles of random-20k


def make_case(work, name, n, m, shape):
    d = os.path.join(work, name)
    if not os.path.exists(os.path.join(d, "gmon.out")):
        subprocess.run([sys.executable, os.path.join(HERE, "mkcase.py"), d,
                        "--functions", str(n), "--arcs", str(m),
                        "--shape", shape], check=True)
    return d


def make_program(work, n, libgmon):
    d = os.path.join(work, f"prog-{n}")
    if not os.path.exists(os.path.join(d, "gmon.out")):
        subprocess.run([sys.executable, os.path.join(HERE, "mkprog.py"), d,
                        "--functions", str(n)]
                       + (["--libgmon", libgmon] if libgmon else []), check=True)
    return d


def make_merge(work, count):
    base = make_case(work, "random-20k", 20000, 80000, "random")
    d = os.path.join(work, f"merge-{count}")
    if not os.path.exists(os.path.join(d, f"gmon.{count}")):
        os.makedirs(d, exist_ok=True)
        shutil.copy(os.path.join(base, "prog"), d)
        for i in range(1, count + 1):
            shutil.copy(os.path.join(base, "gmon.out"), os.path.join(d, f"gmon.{i}"))
    return d, ["-s", "prog"] + [f"gmon.{i}" for i in range(1, count + 1)]


def find_libgmon(ours):
    """Our runtime, for prog-20k: beside the timed binary if it sits in a
    build tree, else this repository's build.  Without it the program gets
    glibc's mcount, whose arc table overflows at 20k functions ("mcount:
    call graph buffer size limit exceeded"): a different, partial profile."""
    for top in (os.path.dirname(ours), os.path.join(HERE, "..")):
        path = os.path.join(top, "libgmon", ".libs", "libgmon.a")
        if os.path.exists(path):
            return os.path.abspath(path)
    print("run.py: no libgmon.a built; prog-20k gets glibc's mcount and a"
          " partial profile", file=sys.stderr)
    return None


def timed(cmd, cwd, out):
    """Wall seconds and peak KiB of one run, its stdout in OUT."""
    with open(out, "wb") as f:
        t = time.perf_counter()
        r = subprocess.run(["/usr/bin/time", "-f", "%M"] + cmd, cwd=cwd, stdout=f,
                           stderr=subprocess.PIPE, env=dict(os.environ, LC_ALL="C"))
        elapsed = time.perf_counter() - t
    return elapsed, int(r.stderr.decode().strip().splitlines()[-1])


def measure(progs, args, d, runs, pause):
    """Median wall seconds and peak MiB of each of PROGS ((gprof, tag)
    pairs) on case D, their runs in alternation, each timed run of ours
    (the last) after PAUSE seconds idle."""
    times = {tag: [] for _, tag in progs}
    mem = {tag: 0 for _, tag in progs}
    for _ in range(runs):
        for i, (gprof, tag) in enumerate(progs):
            if pause and i == len(progs) - 1:
                time.sleep(pause)
            t, m = timed([gprof] + args, d, os.path.join(d, f"{tag}.txt"))
            times[tag].append(t)
            mem[tag] = max(mem[tag], m)
            if os.path.exists(os.path.join(d, "gmon.sum")):
                os.replace(os.path.join(d, "gmon.sum"), os.path.join(d, f"{tag}.sum"))
    return {tag: (statistics.median(times[tag]), mem[tag] / 1024) for _, tag in progs}


def instructions(gprof, args, d):
    """Instructions of one run (callgrind's count)."""
    with open(os.devnull, "wb") as f:
        r = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                            gprof] + args, cwd=d, stdout=f, stderr=subprocess.PIPE,
                           env=dict(os.environ, LC_ALL="C"))
    m = re.search(rb"refs:\s+([\d,]+)", r.stderr)
    if r.returncode != 0 or not m:
        sys.exit(f"callgrind failed on {d}: {r.stderr.decode()[-400:]}")
    return int(m.group(1).replace(b",", b""))


def doubling_cost(seen, name, n, cost):
    """COST over that of the case of this shape half as big, if measured."""
    shape = name.split("-")[0]
    prev = seen.get((shape, n // 2))
    seen[(shape, n)] = cost
    return f"{cost / prev:7.2f}" if prev else f"{'-':>7}"


def paired_doubling(ours, seen, name, n, case, runs):
    """Ours on CASE (dir, args) over ours on the case of this shape half as
    big, timed in alternation, if that case was run."""
    shape = name.split("-")[0]
    half = seen.get((shape, n // 2))
    seen[(shape, n)] = case
    if not half:
        return f"{'-':>7}"
    small, big = [], []
    # The half case's files may have gone cold while this one ran.
    timed([ours] + half[1], half[0], os.path.join(half[0], "ours.txt"))
    for _ in range(runs):
        for (d, args), times in ((half, small), (case, big)):
            times.append(timed([ours] + args, d, os.path.join(d, "ours.txt"))[0])
    return f"{statistics.median(big) / statistics.median(small):7.2f}"


def count_instructions(ours, jobs):
    print(f"{'case':16} {'instructions':>14}  {'x2 cost':>7}")
    seen = {}
    for name, n, prepare, _ in jobs:
        d, args = prepare()
        ir = instructions(ours, args, d)
        print(f"{name:16} {ir:14,}  {doubling_cost(seen, name, n, ir)}")
        sys.stdout.flush()


def same_output(d):
    def read(name):
        p = os.path.join(d, name)
        if not os.path.exists(p):
            return b""
        data = open(p, "rb").read()
        return data[:8] + bytes(12) + data[20:] if data[:4] == b"gmon" else data
    return (read("ours.txt") == read("gnu.txt")
            and read("ours.sum") == read("gnu.sum"))


def page_reporting():
    """A line on the kernel's free page reporting, if it has it: in a VM
    that reports, memory left free for min_free_ms goes back to the host,
    and writing to it again costs several times as much, which shows in
    the doubling costs of the cases over a second long (see
    doc/performance.md)."""
    d = "/sys/module/page_reporting/parameters"
    if not os.path.isdir(d):
        return None
    try:
        with open(os.path.join(d, "min_free_ms")) as f:
            delay = f.read().strip() + " ms"
    except OSError:
        delay = "not shown"
    return f"kernel with free page reporting; min_free_ms: {delay}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--gprof", default="./gprof")
    ap.add_argument("--ref", default="/usr/bin/gprof")
    ap.add_argument("--work", default="/tmp/gprof-bench-ours")
    ap.add_argument("--only", default="")
    ap.add_argument("--big", action="store_true")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--instructions", action="store_true")
    ap.add_argument("--pause", type=float, default=0)
    a = ap.parse_args()
    ours = os.path.abspath(a.gprof)

    jobs = []
    for name, n, m, shape, opts, gnu in LADDER + (BIG if a.big else []):
        if a.only in name:
            jobs.append((name, n, lambda n=n, m=m, s=shape, nm=name, o=opts:
                         (make_case(a.work, nm, n, m, s),
                          o.split() + ["prog", "gmon.out"]), gnu))
    libgmon = find_libgmon(ours)
    for name, n, opts in PROGRAMS:
        if a.only in name:
            jobs.append((name, n, lambda n=n, opts=opts: (make_program(a.work, n, libgmon),
                         opts.split() + ["prog", "gmon.out"]), True))
    if a.only in MERGE[0]:
        jobs.append((MERGE[0], 20000, lambda: make_merge(a.work, MERGE[1]), True))

    if a.instructions:
        count_instructions(ours, jobs)
        return
    note = page_reporting()
    if note:
        print(note)
    print(f"{'case':16} {'GNU s':>8} {'ours s':>8} {'ratio':>7} {'GNU MB':>7}"
          f" {'ours MB':>7}  {'x2 cost':>7}  output")
    seen, bad = {}, 0
    for name, n, prepare, gnu in jobs:
        d, args = prepare()
        # A case just made leaves its files to be written back, and the
        # first run reads them in: neither is the run's own cost.  Then
        # GNU's runs and ours find the same warm caches.
        os.sync()
        timed([ours] + args, d, os.path.join(d, "ours.txt"))
        progs = ([(a.ref, "gnu")] if gnu else []) + [(ours, "ours")]
        m = measure(progs, args, d, a.runs, a.pause)
        ot, om = m["ours"]
        growth = paired_doubling(ours, seen, name, n, (d, args), a.runs)
        if gnu:
            gt, gm = m["gnu"]
            same = same_output(d)
            bad += not same
            print(f"{name:16} {gt:8.3f} {ot:8.3f} {gt / ot:7.1f} {gm:7.1f} {om:7.1f}"
                  f"  {growth}  {'identical' if same else 'DIFFERS'}")
        else:
            print(f"{name:16} {'-':>8} {ot:8.3f} {'-':>7} {'-':>7} {om:7.1f}"
                  f"  {growth}  (ours only)")
        sys.stdout.flush()
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
