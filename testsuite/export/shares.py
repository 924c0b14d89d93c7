#!/usr/bin/env python3
"""shares.py - who brings a function its samples, read from an export.

  shares.py FORMAT FILE CALLEE

prints a line "CALLER PERCENT" for each direct caller of CALLEE: its
share of the samples that CALLEE's callers bring it, as FILE (an
--export=FORMAT file) has them, most first.  FORMAT is

  folded, speedscope, html   the samples of the stacks ending in CALLEE,
                             by the frame just above it
  traces                     the same from go tool pprof -traces -unit=ms
  json                       the call graph's callers of CALLEE, by the
                             self and children time they bring
  callgrind                  the calls of CALLEE, by their inclusive cost

Exits 1 when CALLEE has no callers there.
"""

import collections
import json
import re
import sys

from check import parse_callgrind
from pprof import ms, read_traces


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def by_stacks(stacks, callee):
    """{caller: samples} of the (frames root first, samples) ending in CALLEE."""
    got = collections.Counter()
    for frames, n in stacks:
        if len(frames) >= 2 and frames[-1] == callee:
            got[frames[-2]] += n
    return got


def folded(path):
    for line in open(path, encoding="utf-8"):
        stack, n = line.rstrip("\n").rsplit(" ", 1)
        yield stack.split(";"), int(n)


def sampled(names, samples, weights):
    for stack, w in zip(samples, weights):
        yield [names[i] for i in stack], w


def speedscope(path):
    data = json.load(open(path, encoding="utf-8"))
    names = [f["name"] for f in data["shared"]["frames"]]
    p = data["profiles"][0]
    return sampled(names, p["samples"], p["weights"])


def html(path):
    page = open(path, encoding="utf-8").read()
    m = re.search(r'<script type="application/json" id="profile-data">(.*?)</script>',
                  page, re.S)
    if not m:
        fail(path + ": no profile data")
    data = json.loads(m.group(1))
    return sampled(data["frames"], data["stacks"], data["weights"])


def traces(path):
    for value, frames in read_traces(path):
        if ms(value) > 0:
            yield list(reversed(frames)), ms(value)


def from_json(path, callee):
    got = collections.Counter()
    for e in json.load(open(path, encoding="utf-8"))["call_graph"]:
        if e["kind"] == "function" and e["name"] == callee:
            for c in e["callers"]:
                got[c["name"]] += c.get("self", 0) + c.get("children", 0)
    return got


def from_callgrind(path, callee):
    got = collections.Counter()
    for caller, called, cost in parse_callgrind(path)[1]:
        if called == callee:
            got[caller] += cost
    return got


def main(argv):
    if len(argv) != 4:
        fail(__doc__)
    fmt, path, callee = argv[1:]
    if fmt == "json":
        got = from_json(path, callee)
    elif fmt == "callgrind":
        got = from_callgrind(path, callee)
    elif fmt in ("folded", "speedscope", "html", "traces"):
        got = by_stacks(globals()[fmt](path), callee)
    else:
        fail("unknown format " + fmt)
    total = sum(got.values())
    if total <= 0:
        fail("%s: no samples brought to %s" % (path, callee))
    for caller, n in got.most_common():
        print("%s %.1f" % (caller, 100.0 * n / total))


if __name__ == "__main__":
    main(sys.argv)
