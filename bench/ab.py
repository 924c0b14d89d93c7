#!/usr/bin/env python3
"""ab.py A B [--cases LIST] [--runs N] [--work DIR] [--env NAME=VALUE] [--cpu]

Times two gprof binaries, A and B, on the cases of bench/run.py (built
there first: run.py --big once), in alternation (A, B, A, B...), each
run writing its report to a file as run.py does; prints per case the
fastest and the median wall time of each, B's change against A in
percent, and whether the two printed the same bytes.  The change is the
median over the rounds of B's run against the A run just before it: on
a shared machine the load moves within minutes, and runs seconds apart
see about the same.  This is how a speed tactic is judged:
A without it, B with it (doc/performance.md, "Method").

--env applies to B only (GPROF_THREADS=1, say, to time the threads
against none with a single binary given twice).  --cpu measures the
CPU time (user and system) of each run instead of the wall time, with
GPROF_THREADS=1 for both: for a tactic of one thread (a prefetch, the
heap policy), whose gain then shows without the time spent waiting for
a CPU that other work on the machine adds to wall times."""
import argparse
import filecmp
import os
import statistics
import subprocess
import sys
import time

CASES = {
    "random-20k": ("random-20k", ["-b"]),
    "dag-20k": ("dag-20k", ["-b"]),
    "chain-20k": ("chain-20k", ["-b"]),
    "tree-20k": ("tree-20k", ["-b"]),
    "random-200k": ("random-200k", ["-b"]),
    "chain-200k": ("chain-200k", ["-b"]),
    "random-1m": ("random-1m", ["-b"]),
    "prog-20k-l": ("prog-20k", ["-b", "-l"]),
    "prog-20k-c": ("prog-20k", ["-b", "-c"]),
    "json-200k": ("random-200k", ["--export=json"]),
    "callgrind-200k": ("random-200k", ["--export=callgrind"]),
    "merge-1000": ("merge-1000", ["-s"]),
}
DEFAULT = "random-20k,dag-20k,chain-20k,tree-20k,random-200k,chain-200k,random-1m,prog-20k-l,merge-1000"


def operands(d, name):
    if name == "merge-1000":
        return ["prog"] + [f"gmon.{i}" for i in range(1, 1001)]
    return ["prog", "gmon.out"]


def run(gprof, args, d, out, env, cpu):
    with open(out, "wb") as f:
        t = time.perf_counter()
        p = subprocess.Popen([gprof] + args, cwd=d, stdout=f,
                             stderr=subprocess.DEVNULL, env=env)
        _, status, usage = os.wait4(p.pid, 0)
        elapsed = time.perf_counter() - t
    if status != 0:
        sys.exit(f"{gprof} {' '.join(args[:4])}... in {d}: status {status}")
    return usage.ru_utime + usage.ru_stime if cpu else elapsed


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--cases", default=DEFAULT)
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--work", default="/tmp/gprof-bench-ours")
    ap.add_argument("--env", action="append", default=[])
    ap.add_argument("--cpu", action="store_true")
    a = ap.parse_args()
    base = dict(os.environ, LC_ALL="C")
    if a.cpu:
        base["GPROF_THREADS"] = "1"
    env_b = dict(base)
    for kv in a.env:
        k, v = kv.split("=", 1)
        env_b[k] = v
    gprofs = [os.path.abspath(a.a), os.path.abspath(a.b)]
    print(f"{'case':<14} {'A min':>8} {'B min':>8} {'A med':>8} {'B med':>8} "
          f"{'B vs A':>8}  same")
    for name in a.cases.split(","):
        sub, args = CASES[name]
        d = os.path.join(a.work, sub)
        args = args + operands(d, name)
        outs = [os.path.join(d, f"ab-{k}.txt") for k in "ab"]
        times = [[], []]
        for i in range(a.runs + 1):
            for k in (0, 1):
                t = run(gprofs[k], args, d, outs[k], env_b if k else base,
                        a.cpu)
                if name == "merge-1000":
                    os.replace(os.path.join(d, "gmon.sum"), outs[k])
                if i > 0:           # the first round warms the caches
                    times[k].append(t)
        fa, fb = (min(t) * 1000 for t in times)
        ma, mb = (statistics.median(t) * 1000 for t in times)
        change = statistics.median(b / a - 1 for a, b in zip(*times))
        same = filecmp.cmp(outs[0], outs[1], shallow=False)
        print(f"{name:<14} {fa:8.1f} {fb:8.1f} {ma:8.1f} {mb:8.1f} "
              f"{100 * change:+7.1f}%  {'yes' if same else 'NO'}", flush=True)


main()
