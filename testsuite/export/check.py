#!/usr/bin/env python3
"""check.py - checks of the --export files that need no outside tool.

  check.py ticks GMON              print the samples in GMON's histogram
  check.py calls-only GMON OUT     write GMON without its histogram to OUT
  check.py no-samples GMON OUT     write GMON with every histogram bin 0
  check.py folded FILE TICKS [MAX] lines are "stack count", counts add up
                                   to TICKS, stacks have at most MAX frames
  check.py callgrind FILE          calls into each function carry its self
                                   cost plus its calls out
  check.py dot DOT TEXT            node labels give the % time of the text
                                   call graph TEXT (gprof -b -P)
  check.py json JSON FLAT GRAPH    the json holds the rows of the text flat
                                   profile FLAT and call graph GRAPH

Prints what it found; exits 1 on a mismatch.
"""

import json
import re
import struct
import sys


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def gmon_records(path):
    """GMON's bytes (a 64-bit GNU gmon.out) and its records as (tag,
    start, end); a histogram record's bins are data[start + 41:end]."""
    data = bytearray(open(path, "rb").read())
    if data[:4] != b"gmon":
        fail(path + ": not a GNU gmon.out")
    records, pos = [], 20
    while pos < len(data):
        tag = data[pos]
        if tag == 0:
            (nbins,) = struct.unpack_from("<i", data, pos + 17)
            end = pos + 41 + 2 * nbins
        elif tag == 1:
            end = pos + 21
        elif tag == 2:
            (count,) = struct.unpack_from("<i", data, pos + 1)
            end = pos + 5 + 16 * count
        else:
            fail("%s: unknown record tag %d" % (path, tag))
        records.append((tag, pos, end))
        pos = end
    return data, records


def gmon_ticks(path):
    """The sum of the histogram bins of a GNU gmon.out (64-bit)."""
    data, records = gmon_records(path)
    return sum(sum(struct.unpack_from("<%dH" % ((end - start - 41) // 2),
                                      data, start + 41))
               for tag, start, end in records if tag == 0)


def calls_only(path, out):
    """Copy a GNU gmon.out without its histogram records."""
    data, records = gmon_records(path)
    kept = [data[:20]] + [data[start:end] for tag, start, end in records
                          if tag != 0]
    open(out, "wb").write(b"".join(kept))


def no_samples(path, out):
    """Copy a GNU gmon.out with its histogram bins all zero: a run too
    short for the clock to tick."""
    data, records = gmon_records(path)
    for tag, start, end in records:
        if tag == 0:
            data[start + 41:end] = bytes(end - start - 41)
    open(out, "wb").write(data)


def check_folded(path, ticks, max_frames):
    total, deepest = 0, 0
    for n, line in enumerate(open(path, encoding="utf-8"), 1):
        # speedscope's importer: exactly one space before an integer.
        m = re.fullmatch(r"(.*) (\d+)\n", line)
        if not m:
            fail("%s:%d: not 'stack count': %r" % (path, n, line))
        frames = m.group(1).split(";")
        if any(not f for f in frames):
            fail("%s:%d: an empty frame" % (path, n))
        deepest = max(deepest, len(frames))
        total += int(m.group(2))
    print("folded: %d ticks, deepest stack %d frames" % (total, deepest))
    if total != ticks:
        fail("the counts add up to %d, the histogram has %d" % (total, ticks))
    if max_frames and deepest > max_frames:
        fail("a stack is deeper than %d frames" % max_frames)


def parse_callgrind(path):
    """Self costs and calls (caller, callee, cost) by function name."""
    names, self_cost, calls = {}, {}, []
    fn = cfn = None
    pending_call = False
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        m = re.fullmatch(r"(c?fn)=\((\d+)\)(?: (.*))?", line)
        if m:
            if m.group(3) is not None:
                names[m.group(2)] = m.group(3)
            name = names[m.group(2)]
            if m.group(1) == "fn":
                fn = name
                self_cost.setdefault(fn, 0)
            else:
                cfn = name
            continue
        if line.startswith("calls="):
            pending_call = True
            continue
        m = re.fullmatch(r"(\d+) (\d+)", line)
        if m and fn is not None:
            if pending_call:
                calls.append((fn, cfn, int(m.group(2))))
                pending_call = False
            else:
                self_cost[fn] += int(m.group(2))
    return self_cost, calls


def components(nodes, edges):
    """Strongly connected components: {node: component id}."""
    succ = {n: [] for n in nodes}
    for a, b in edges:
        succ.setdefault(a, []).append(b)
        succ.setdefault(b, [])
    index, low, comp, stack, on = {}, {}, {}, [], set()
    for root in succ:
        if root in index:
            continue
        work = [(root, iter(succ[root]))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(succ[w])))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp[w] = v
                    if w == v:
                        break
    return comp


def check_callgrind(path):
    """Per component of the call graph (a function, or a cycle as a
    whole): the calls into it from outside carry its members' self costs
    plus their calls out of it."""
    self_cost, calls = parse_callgrind(path)
    comp = components(self_cost, [(a, b) for a, b, _ in calls])
    into, inclusive = {}, {}
    for fn, cost in self_cost.items():
        inclusive[comp[fn]] = inclusive.get(comp[fn], 0) + cost
    for caller, callee, cost in calls:
        if comp[caller] != comp[callee]:
            into[comp[callee]] = into.get(comp[callee], 0) + cost
            inclusive[comp[caller]] = inclusive.get(comp[caller], 0) + cost
        elif cost != 0:
            fail("%s -> %s: a call inside a cycle costs %d" % (caller, callee, cost))
    for c, cost in into.items():
        if cost != inclusive.get(c, 0):
            fail("%s: calls in carry %d, self + calls out %d" % (c, cost, inclusive.get(c, 0)))
    cycles = len({c for f, c in comp.items() if f != c})
    print("callgrind: %d functions; inclusive costs add up for the %d called "
          "(%d cycles)" % (len(self_cost), len(into), cycles))
    if not into:
        fail("no function had callers to check")


def text_call_graph(path):
    """{name: % time} from the primary lines of a text call graph."""
    pct = {}
    for line in open(path, encoding="utf-8", errors="replace"):
        m = re.match(r"\[(\d+)\]\s+([\d.]+)\s+[\d.]+\s+[\d.]+\s+[\d+]*\s*(.*) \[\d+\]$",
                     line.rstrip("\n"))
        if m and "<cycle" not in m.group(3) + " as a whole":
            name = re.sub(r" <cycle \d+>$", "", m.group(3))
            pct[name] = float(m.group(2))
    return pct


def check_dot(dot_path, text_path):
    text = text_call_graph(text_path)
    labels = re.findall(r'label="((?:[^"\\]|\\.)*)\\n([\d.]+)%\\n\(', open(dot_path, encoding="utf-8").read())
    checked = 0
    for name, pct in labels:
        name = name.replace('\\"', '"').replace("\\\\", "\\")
        if name in text:
            # The text rounds to .1, the label to .01.
            if abs(float(pct) - text[name]) > 0.0551:
                fail("%s: %s%% in dot, %.1f%% in the text call graph" % (name, pct, text[name]))
            checked += 1
    print("dot: %d nodes, %d compared with the text call graph" % (len(labels), checked))
    if checked < 5:
        fail("too few nodes compared")


def check_json(json_path, flat_path, graph_path):
    data = json.load(open(json_path, encoding="utf-8"))
    rows = []
    for line in open(flat_path, encoding="utf-8", errors="replace"):
        m = re.match(r"\s*([\d.]+)\s+([\d.]+)\s+([\d.]+)\s", line)
        if m:
            rows.append(float(m.group(3)))
    flat = data["flat_profile"]
    if len(flat) != len(rows):
        fail("%d flat profile rows in json, %d in text" % (len(flat), len(rows)))
    for row, text_self in zip(flat, rows):
        if abs(round(row["self"], 2) - text_self) > 0.0051:
            fail("%s: self %s in json, %.2f in text" % (row["name"], row["self"], text_self))
    entries = sum(1 for line in open(graph_path, encoding="utf-8", errors="replace")
                  if re.match(r"\[\d+\]", line))
    if len(data["call_graph"]) != entries:
        fail("%d call graph entries in json, %d in text" % (len(data["call_graph"]), entries))
    text = text_call_graph(graph_path)
    for e in data["call_graph"]:
        if e["kind"] == "function" and e["name"] in text:
            if abs(e["percent"] - text[e["name"]]) > 0.0501:
                fail("%s: %s%% in json, %.1f%% in text" % (e["name"], e["percent"], text[e["name"]]))
    print("json: %d flat rows and %d call graph entries, as in the text" % (len(flat), entries))


def main(argv):
    if len(argv) < 2:
        fail(__doc__)
    cmd, args = argv[1], argv[2:]
    if cmd == "ticks":
        print(gmon_ticks(args[0]))
    elif cmd == "calls-only":
        calls_only(args[0], args[1])
    elif cmd == "no-samples":
        no_samples(args[0], args[1])
    elif cmd == "folded":
        check_folded(args[0], int(args[1]), int(args[2]) if len(args) > 2 else 0)
    elif cmd == "callgrind":
        check_callgrind(args[0])
    elif cmd == "dot":
        check_dot(args[0], args[1])
    elif cmd == "json":
        check_json(args[0], args[1], args[2])
    else:
        fail("unknown check " + cmd)


if __name__ == "__main__":
    main(sys.argv)
