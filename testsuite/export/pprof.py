#!/usr/bin/env python3
"""pprof.py - --export=pprof checked through what go tool pprof prints.

  pprof.py top FLAT TOP         TOP (pprof -top -unit=ms) has the functions
                                of the flat profile FLAT (gprof -b -p) with
                                their self times, in FLAT's order
  pprof.py lines FLAT TOP       the same per source line: FLAT from
                                gprof -l -b -p, TOP from pprof -lines -top
  pprof.py traces FOLDED TRACES MS
                                the traces with a value in TRACES (pprof
                                -traces -unit=ms) are the stacks of FOLDED
                                (--export=folded), a sample worth MS ms;
                                the others are the calls' two frames
  pprof.py calls JSON TRACES    TRACES (pprof -traces -sample_index=calls)
                                has the arcs of the call graph in JSON
                                (--export=json) and their counts

A self time may differ from the flat profile's by a sample (the export's
ticks are whole, the flat profile's shares of them) plus the flat
profile's rounding to 0.01 s.  Prints what it found; exits 1 on a
mismatch.
"""

import collections
import json
import re
import sys

# Names that pprof shows and the flat profile does not.
PSEUDO = re.compile(r"<outside functions>|<cycle \d+>|\[truncated\]")


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def name(key):
    """The name in a key: a function's, or the first part of a line's."""
    return key[0] if isinstance(key, tuple) else key


def read_flat(path, key):
    """Self seconds by KEY(name) from gprof -b -p (summed over rows with
    one key), and the seconds of a sample."""
    rows, tick = [], None
    row = re.compile(r"\s*[\d.]+\s+[\d.]+\s+([\d.]+)\s+(?:\d+\s+[\d.]+\s+[\d.]+\s+)?(.*)")
    for line in open(path, encoding="utf-8"):
        m = re.match(r"Each sample counts as ([\d.]+) seconds", line)
        if m:
            tick = float(m.group(1))
            continue
        m = row.fullmatch(line.rstrip("\n"))
        if m and not line.lstrip().startswith("time"):
            rows.append((key(m.group(2)), float(m.group(1))))
    if tick is None or not rows:
        fail(path + ": no flat profile")
    self_time = collections.defaultdict(float)
    for k, s in rows:
        self_time[k] += s
    return self_time, tick


def ms(text):
    return 0.0 if text == "0" else float(text.removesuffix("ms"))


def read_top(path, key):
    """Flat seconds by KEY(name) from pprof -top -unit=ms (summed over
    rows with one key: functions of one name in two files), in order."""
    flat, order = collections.defaultdict(float), []
    row = re.compile(r"\s*(\S+)\s+\S+%\s+\S+%\s+\S+\s+\S+%\s+(.*)")
    for line in open(path, encoding="utf-8"):
        m = row.fullmatch(line.rstrip("\n"))
        if not m or m.group(1) == "flat":
            continue
        k = key(m.group(2))
        if k not in flat:
            order.append(k)
        flat[k] += ms(m.group(1)) / 1000
    return flat, order


def compare(flat_path, top_path, flat_key, top_key):
    self_time, tick = read_flat(flat_path, flat_key)
    pp, pp_order = read_top(top_path, top_key)
    # A short run may take no sample at all: then pprof has no rows.
    if not pp and any(s > 0 for s in self_time.values()):
        fail(top_path + ": no rows")
    slack = tick + 0.005 + 1e-9
    worst = 0.0
    for k, s in self_time.items():
        got = pp.get(k, 0.0)
        worst = max(worst, abs(got - s))
        if abs(got - s) > slack:
            fail("%s: self %.2f s in the flat profile, %.3f s in pprof" % (k, s, got))
    shown = [k for k in pp_order if not PSEUDO.fullmatch(name(k))]
    for k in shown:
        if k not in self_time and pp[k] > 0:
            fail("%s: %.3f s in pprof, not in the flat profile" % (k, pp[k]))
    # pprof's order is by self time, ties by name; the flat profile's
    # ties go by calls: each next row may not have more time, give or
    # take the slack.
    ranked = [k for k in shown if pp[k] > 0]
    for a, b in zip(ranked, ranked[1:]):
        if self_time[b] > self_time[a] + slack:
            fail("pprof lists %s (%.2f s) before %s (%.2f s)"
                 % (a, self_time[a], b, self_time[b]))
    print("%d rows with time agree within %.3f s (a sample is %g s), in the "
          "flat profile's order but for ties" % (len(ranked), worst, tick))


def read_traces(path):
    """[(value, [frames, innermost first])] from pprof -traces: after the
    header, each trace follows a rule, its value and innermost frame on
    its first line ("%10s   %s"), the other frames below (13 blanks)."""
    traces, cur, started = [], None, False
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        if line.startswith("-----------+"):
            started, cur = True, None
        elif started and cur is None:
            m = re.fullmatch(r"\s*(\S+)   (.*)", line)
            if not m:
                fail("%s: not a trace's first line: %r" % (path, line))
            cur = (m.group(1), [m.group(2)])
            traces.append(cur)
        elif cur is not None:
            cur[1].append(line[13:])
    return traces


def check_traces(folded_path, traces_path, tick_ms):
    want = collections.Counter()
    for line in open(folded_path, encoding="utf-8"):
        stack, n = line.rstrip("\n").rsplit(" ", 1)
        want[tuple(stack.split(";"))] += int(n)
    got, calls = collections.Counter(), 0
    for value, frames in read_traces(traces_path):
        v = ms(value)
        if v == 0:
            if len(frames) != 2:
                fail("a trace with no time and %d frames: %s" % (len(frames), frames))
            calls += 1
            continue
        stack = tuple(f.replace(";", ":") for f in reversed(frames))
        got[stack] += round(v / tick_ms)
    if got != want:
        for s in sorted(set(got) | set(want)):
            if got[s] != want[s]:
                print("  %s: pprof %d, folded %d" % (";".join(s), got[s], want[s]))
        fail("pprof's traces are not the folded stacks")
    print("%d stacks, %d samples, as --export=folded; %d call traces"
          % (len(want), sum(want.values()), calls))


def check_calls(json_path, traces_path):
    want = collections.Counter()
    for e in json.load(open(json_path, encoding="utf-8"))["call_graph"]:
        if e["kind"] != "function":
            continue
        for c in e["callers"]:
            if c.get("printed", True) and c["count"]:
                want[(c["name"], e["name"])] += c["count"]
    got = collections.Counter()
    for value, frames in read_traces(traces_path):
        if int(value) == 0:
            continue
        if len(frames) != 2:
            fail("calls on a trace of %d frames: %s" % (len(frames), frames))
        got[(frames[1], frames[0])] += int(value)
    if got != want:
        for a in sorted(set(got) | set(want)):
            if got[a] != want[a]:
                print("  %s -> %s: pprof %d, call graph %d" % (a[0], a[1], got[a], want[a]))
        fail("pprof's calls are not the call graph's")
    print("%d arcs, %d calls, as the call graph" % (len(want), sum(want.values())))


def line_of_flat(text):
    """'f (dir/file.c:12 @ 4a0)' -> ('f', 'file.c', 12)"""
    m = re.fullmatch(r"(.*) \((?:.*/)?([^/]*):(\d+) @ [0-9a-f]+\)", text)
    return (m.group(1), m.group(2), int(m.group(3))) if m else (text, "", 0)


def line_of_top(text):
    """'f /dir/file.c:12' -> ('f', 'file.c', 12)"""
    m = re.fullmatch(r"(.*) (?:\S*/)?([^/ ]*):(\d+)", text)
    return (m.group(1), m.group(2), int(m.group(3))) if m else (text, "", 0)


def main(argv):
    if len(argv) == 4 and argv[1] == "top":
        compare(argv[2], argv[3], lambda n: n, lambda n: n)
    elif len(argv) == 4 and argv[1] == "lines":
        compare(argv[2], argv[3], line_of_flat, line_of_top)
    elif len(argv) == 5 and argv[1] == "traces":
        check_traces(argv[2], argv[3], float(argv[4]))
    elif len(argv) == 4 and argv[1] == "calls":
        check_calls(argv[2], argv[3])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
