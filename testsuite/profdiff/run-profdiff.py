#!/usr/bin/env python3
"""run-profdiff.py - gprof --diff on pairs of profiles of one program.

The executable is real (prog.c built with -pg); the profiles are written
here at its real addresses (read with nm) with chosen numbers of samples
and calls, so that each case knows its answer: the same profile twice,
one function 10% slower, a call count changed, functions in one profile
only, the json and html forms, --diff-threshold's exit status (0, 1, and
2 on errors), and --diff-exe.

Then real runs of a deterministic program (bench/diff/work.c) with the
runtime built here: unchanged runs show no change, a function made
twice as slow is flagged.  And the statistics: 300 pairs of profiles whose samples are drawn from
one Poisson distribution per function (a fixed seed) must be called
different in at most 2% of the pairs at the 99% level (the intervals
are made to hold for all functions at once: about 1% is expected), and
a 5% slowdown of a function of 25000 samples must be flagged in at least
95% of 100 trials.

Runs from the top build directory; GPROF names the gprof to test.
Prints "ok CASE" or "FAIL CASE", then "N passed, M failed".  Exit status
0, 1 on a failure, 77 without gcc, 99 when the test cannot run.
"""

import json
import os
import random
import re
import shutil
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
GPROF = os.path.abspath(os.environ.get("GPROF", "gprof"))
ENV = dict(os.environ, LC_ALL="C", LANG="C")
ENV.pop("LANGUAGE", None)
WORK = os.path.abspath(os.path.join("testsuite", "work", "profdiff"))
HZ = 1000
FUNCS = ["hot", "warm", "cool", "tiny", "leaf", "main"]

results = []


def run(cmd, check=True):
    r = subprocess.run(cmd, cwd=WORK, env=ENV, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    if check and r.returncode not in (0, 1):
        sys.stderr.write(f"{' '.join(cmd)} failed ({r.returncode}):\n"
                         f"{r.stderr.decode()}")
        sys.exit(99)
    return r


def symbols(exe):
    syms = {}
    for line in run(["nm", exe]).stdout.decode().splitlines():
        parts = line.split()
        if len(parts) == 3:
            syms[parts[2]] = int(parts[0], 16)
    return syms


class Profile:
    """A GNU-format profile of the test program: samples spread over the
    4-byte bins of each function (16-bit bins, so at most 65535 each),
    and arcs."""

    def __init__(self, syms, hz=HZ):
        self.syms, self.hz = syms, hz
        self.low = syms["main"] & ~0xfff
        self.high = (syms["etext"] + 3) & ~3
        self.bins = {}
        self.arcs = []

    def samples(self, fn, count):
        addr = self.syms[fn] + 8
        while count > 0:
            i = (addr - self.low) // 4
            take = min(count, 65535 - self.bins.get(i, 0))
            self.bins[i] = self.bins.get(i, 0) + take
            count -= take
            addr += 4
        return self

    def calls(self, caller, callee, count):
        self.arcs.append((self.syms[caller] + 20, self.syms[callee] + 9, count))
        return self

    def write(self, name, dispersion=None):
        n = (self.high - self.low) // 4
        out = b"gmon" + struct.pack("<I", 1)
        if dispersion:
            out += b"disp" + struct.pack("<II", int(dispersion * 65536), 0)
        else:
            out += bytes(12)
        out += struct.pack("<BQQII", 0, self.low, self.high, n, self.hz)
        out += b"seconds".ljust(15, b"\0") + b"s"
        out += b"".join(struct.pack("<H", self.bins.get(i, 0))
                        for i in range(n))
        for frm, to, count in self.arcs:
            out += struct.pack("<BQQI", 1, frm, to, count)
        with open(os.path.join(WORK, name), "wb") as f:
            f.write(out)
        return name


def check(name, ok, detail=""):
    results.append(ok)
    print(("ok " if ok else "FAIL ") + name)
    if not ok and detail:
        print("    " + detail.replace("\n", "\n    "))


def diff(old, new, *extra, exe="prog"):
    r = run([GPROF, "--diff=" + old, *extra, exe, new], check=False)
    return r.returncode, r.stdout.decode(), r.stderr.decode()


def time_rows(text):
    """name -> (change s, significant) from the text report's time table."""
    rows = {}
    for line in text.splitlines():
        m = re.match(r"^ +[0-9.]+ +[0-9.]+ +([-+][0-9.]+) +[0-9.]+ +"
                     r"(?:[-+][0-9.]+%|new) ([* ]) (\S+)$", line)
        if m:
            rows[m.group(3)] = (float(m.group(1)), m.group(2) == "*")
    return rows


def base(syms, scale=1.0):
    """The usual profile: samples and calls of every function."""
    p = Profile(syms)
    for fn, n in (("hot", 25000), ("warm", 8000), ("cool", 2000),
                  ("tiny", 40), ("main", 300)):
        p.samples(fn, int(n * scale))
    return (p.calls("main", "hot", 100).calls("main", "warm", 100)
            .calls("warm", "cool", 1000).calls("cool", "tiny", 5000))


def cases(syms):
    same = base(syms).write("same.gmon")
    code, out, err = diff(same, same)
    rows = time_rows(out)
    check("the same profile twice: no change",
          code == 0 and set(rows) == {"hot", "warm", "cool", "tiny", "main"}
          and not any(sig for _, sig in rows.values())
          and "No call count changed." in out
          and "0 significantly slower, 0 significantly faster" in out,
          out + err)

    slower = base(syms).samples("hot", 2500).write("slower.gmon")
    code, out, err = diff(same, slower)
    rows = time_rows(out)
    lines = [ln for ln in out.splitlines() if ln.endswith(" hot")]
    check("hot 10% slower: significant, first, +2.5 s",
          rows.get("hot") == (2.5, True) and not rows["warm"][1]
          and lines and "+10.0%" in lines[0]
          and out.index(" hot\n") < out.index(" warm\n")
          and "1 significantly slower, 0 significantly faster" in out,
          out + err)
    code, _, _ = diff(same, slower, "--diff-threshold=5")
    check("--diff-threshold=5 on a 10% slowdown: status 1", code == 1)
    code, _, _ = diff(same, slower, "--diff-threshold=20")
    check("--diff-threshold=20 on a 10% slowdown: status 0", code == 0)
    code, _, _ = diff(slower, same, "--diff-threshold=5")
    check("--diff-threshold on a speed-up: status 0", code == 0)
    code, _, err = diff("missing.gmon", same, "--diff-threshold=5")
    check("--diff-threshold and a missing file: status 2",
          code == 2 and "missing.gmon" in err, err)
    code, _, err = diff("missing.gmon", same)
    check("a missing file without --diff-threshold: status 1", code == 1, err)

    # A small change in a small function is within the noise.
    noisy = base(syms).samples("cool", 30).write("noisy.gmon")
    code, out, err = diff(same, noisy)
    check("cool +1.5%: not significant",
          time_rows(out).get("cool") == (0.03, False), out + err)

    more = base(syms).calls("warm", "cool", 7).calls("main", "leaf", 3)
    more = more.write("morecalls.gmon")
    code, out, err = diff(same, more)
    calls = out[out.index("Calls."):]
    check("call counts: exact changes, none else",
          re.search(r"^ +1000 +1007 +\+7 +cool$", calls, re.M)
          and re.search(r"^ +0 +3 +\+3 +leaf$", calls, re.M)
          and "hot" not in calls and "Only in the new profile: leaf" in out,
          out + err)
    code, out, err = diff(more, same)
    check("a function only in the old profile",
          "Only in the old profile: leaf" in out
          and re.search(r"^ +3 +0 +-3 +leaf$", out, re.M), out + err)

    code, out, err = diff(same, slower, "--export=json")
    try:
        doc = json.loads(out)
        fns = {f["name"]: f for f in doc["functions"]}
        ok = (doc["format"] == "gprof-diff" and doc["level_percent"] == 99
              and fns["hot"]["significant"] and fns["hot"]["change_seconds"] == 2.5
              and not fns["warm"]["significant"]
              and doc["functions"][0]["name"] == "hot"
              and fns["cool"]["old_calls"] == 1000)
    except (ValueError, KeyError, IndexError) as e:
        ok, out = False, f"{e}\n{out}"
    check("--export=json", ok, out + err)
    code, out, err = diff(same, slower, "--export=html")
    check("--export=html", out.startswith("<!DOCTYPE html>")
          and '<tr class="slower">' in out and ">hot</td>" in out
          and out.rstrip().endswith("</html>"), out[:400] + err)
    code, out, err = diff(same, slower, "--export=dot")
    check("--export=dot with --diff: refused", code == 1 and "--diff" in err, err)

    # The old profile of another build: its own executable.
    other = symbols("prog-O1")
    old = base(other).write("other-build.gmon")
    code, out, err = diff(old, slower, "--diff-exe=prog-O1")
    check("--diff-exe: another build's profile matched by name",
          time_rows(out).get("hot") == (2.5, True)
          and "No call count changed." in out, out + err)

    # Samples in clumps of 4 periods (the dispersion libgmon records):
    # intervals twice as wide, and -s keeps the larger dispersion.
    _, plain, _ = diff(same, noisy)
    clumped = base(syms).samples("cool", 30).write("clumped.gmon", 4)
    _, wide, _ = diff(base(syms).write("same4.gmon", 4), clumped)
    e1 = re.search(r"^.* ([0-9.]+) +[-+][0-9.]+% . hot$", plain, re.M)
    e4 = re.search(r"^.* ([0-9.]+) +[-+][0-9.]+% . hot$", wide, re.M)
    check("dispersion 4: intervals twice as wide",
          e1 and e4 and abs(float(e4.group(1)) - 2 * float(e1.group(1))) < 0.002,
          plain + wide)
    run([GPROF, "-s", "prog", "same4.gmon", "noisy.gmon",
         base(syms).write("same2.gmon", 2)])
    with open(os.path.join(WORK, "gmon.sum"), "rb") as f:
        head = f.read(20)
    check("-s keeps the larger dispersion",
          head[8:20] == b"disp" + struct.pack("<II", 4 * 65536, 0), repr(head))

    # A lower level makes narrower intervals.
    _, out99, _ = diff(same, noisy)
    _, out90, _ = diff(same, noisy, "--diff-level=90")
    err99 = float(re.search(r"^.* ([0-9.]+) +[-+][0-9.]+% . cool$", out99,
                            re.M).group(1))
    err90 = float(re.search(r"^.* ([0-9.]+) +[-+][0-9.]+% . cool$", out90,
                            re.M).group(1))
    check("--diff-level=90: narrower intervals", err90 < err99,
          f"{err90} vs {err99}")


def poisson(rng, mean):
    # Normal approximation, fine for the means used (>= 40).
    return max(0, int(round(rng.gauss(mean, mean ** 0.5))))


def statistics(syms):
    rng = random.Random(20261127)
    means = {"hot": 25000, "warm": 8000, "cool": 2000, "tiny": 40,
             "main": 300}

    def drawn(factor_hot=1.0):
        p = Profile(syms)
        for fn, mean in means.items():
            p.samples(fn, poisson(rng, mean * (factor_hot if fn == "hot"
                                               else 1.0)))
        return p.calls("main", "hot", 100).calls("main", "warm", 100)

    pairs, flagged = 300, 0
    for i in range(pairs):
        a = drawn().write("a.gmon")
        b = drawn().write("b.gmon")
        _, out, _ = diff(a, b)
        if any(sig for _, sig in time_rows(out).values()):
            flagged += 1
    check(f"equal profiles: {flagged} of {pairs} pairs called different "
          "(at most 2%)", flagged <= pairs * 0.02)

    trials, found = 100, 0
    for i in range(trials):
        a = drawn().write("a.gmon")
        b = drawn(1.05).write("b.gmon")
        _, out, _ = diff(a, b)
        row = time_rows(out).get("hot")
        if row and row[1] and row[0] > 0:
            found += 1
    check(f"hot 5% slower (25000 samples): flagged in {found} of {trials} "
          "trials (at least 95%)", found >= trials * 0.95)


def real_runs():
    """Real runs of bench/diff/work.c, a deterministic program, with the
    runtime built here: three unchanged runs, no pair with a significant
    change or a count change (at 99.9%, so that a busy machine makes
    this fail about once in a thousand); a run with hot four times as
    slow, flagged.  (Other functions may change too on a busy machine,
    where caches and clocks are shared: only hot is checked there.)"""
    lib = os.path.abspath(os.path.join("libgmon", ".libs", "libgmon.a"))
    if not os.path.exists(lib):
        print("skip real runs: no libgmon archive")
        return
    src = os.path.join(HERE, "..", "..", "bench", "diff", "work.c")
    run(["gcc", "-O1", "-pg", src, "-o", "work", lib, "-lpthread"])
    env = {k: v for k, v in ENV.items()
           if k not in ("GMON_OUT_PREFIX", "LIBGMON_OUT", "LIBGMON_HZ")}
    for name, slower in (("run1", "0"), ("run2", "0"), ("run3", "0"),
                         ("slow", "3")):
        subprocess.run(["./work", slower, "0.4"], cwd=WORK, env=env,
                       check=True)
        os.replace(os.path.join(WORK, "gmon.out"), os.path.join(WORK, name))
    flagged = []
    for a, b in (("run1", "run2"), ("run1", "run3"), ("run2", "run3")):
        _, out, err = diff(a, b, "--diff-level=99.9", exe="work")
        if (any(sig for _, sig in time_rows(out).values())
                or "No call count changed." not in out):
            flagged.append(out + err)
    check("real runs of one program: no change in 3 pairs", not flagged,
          "\n".join(flagged))
    _, out, err = diff("run1", "slow", "--diff-level=99.9", exe="work")
    row = time_rows(out).get("hot")
    check("real runs: hot four times as slow, flagged",
          row is not None and row[1] and row[0] > 0, out + err)


def main():
    if not shutil.which("gcc"):
        print("no gcc: skipped")
        return 77
    shutil.rmtree(WORK, ignore_errors=True)
    os.makedirs(WORK)
    src = os.path.join(HERE, "prog.c")
    for exe, opt in (("prog", "-O0"), ("prog-O1", "-O1")):
        r = run(["gcc", "-pg", opt, "-fno-inline", src, "-o", exe])
    syms = symbols("prog")
    cases(syms)
    statistics(syms)
    real_runs()
    failed = results.count(False)
    print(f"{len(results) - failed} passed, {failed} failed")
    if failed == 0:
        shutil.rmtree(WORK, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
