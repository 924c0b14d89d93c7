#!/usr/bin/env python3
"""e2e.py - the checks of e2e.sh on gprof --whole-process --export=json.

  e2e.py arcs JSON PROG_OUT   every arc modprog counted ("arc A B N" in
                              PROG_OUT) is gprof's count of A -> B, and
                              gprof has no other arc between the test's
                              functions; the plugin's calls by module
  e2e.py named JSON           % of the time in named functions (not a
                              module's "[lib.so]" bucket or unnamed
                              code "0x4970 [lib.so]", not outside
                              every function); fails under 95%
  e2e.py perf JSON PERF DISP  the top 5 functions by self time against
                              perf's samples (PERF: perf script -F pid,ip,sym,dso
                              of perf record -g)
                              within 4 sigma (floor 3 points)

JSON is the export of the profile with -z, so that every symbol gives
the end of the one before it.  Prints the figures; exits 1 on failure.
"""

import json
import math
import os
import re
import sys

# The test's functions and the module gprof must name them with
# (None: the executable's own, named without one).
MODULE = {
    "main": None, "one_load": None, "prog_loop": None, "prog_local": None,
    "prog_hook": None, "prog_math": None,
    "a_load": "libmodA.so", "a_unload": "libmodA.so", "a_mark": "libmodA.so",
    "a_run": "libmodA.so", "a_helper": "libmodA.so",
    "a_callback": "libmodA.so", "a_base": "libmodA.so",
    "plug_entry": "modplug", "plug_leaf": "modplug",
}
PLUGINS = ("modplug.so", "modplug2.so")


def split_name(name):
    """'f [mod]' -> ('f', 'mod'); 'f' -> ('f', None)."""
    m = re.fullmatch(r"(.*) \[([^\]]+)\]", name)
    return (m.group(1), m.group(2)) if m else (name, None)


def test_function(name):
    """The bare name of one of the test's functions, or None; raises
    ValueError if gprof names it with the wrong module."""
    bare, module = split_name(name)
    if bare not in MODULE:
        return None
    want = MODULE[bare]
    ok = module in PLUGINS if want == "modplug" else module == want
    if not ok:
        raise ValueError("%s: want module %s" % (name, want or "none"))
    return bare


def arcs(data, prog_out):
    want = {}
    entries = []
    for line in open(prog_out):
        f = line.split()
        if f and f[0] == "arc":
            want[(f[1], f[2])] = int(f[3])
        elif f and f[0] == "entries":
            entries = [int(x) for x in f[1:]]
    got = {}
    into = {}
    bad = []
    for e in data.get("call_graph", []):
        if e["kind"] != "function":
            bad.append("a cycle in the call graph: %s" % e)
            continue
        try:
            callee = test_function(e["name"])
            if callee is None:
                continue
            if callee == "plug_entry":
                into[split_name(e["name"])[1]] = e["calls"]
            for arc in e["callers"]:
                caller = test_function(arc["name"])
                if caller is not None:
                    key = (caller, callee)
                    got[key] = got.get(key, 0) + arc["count"]
        except ValueError as err:
            bad.append(str(err))
    for key in sorted(set(want) | set(got)):
        if want.get(key) != got.get(key):
            bad.append("%s -> %s: gprof %s, program %s"
                       % (key[0], key[1], got.get(key), want.get(key)))
    cross = sum(1 for a, b in want
                if MODULE[a] != MODULE[b])
    print("arcs: %d counted by the program (%d across modules), %d by gprof,"
          " %d equal" % (len(want), cross, len(got),
                         sum(1 for k in want if got.get(k) == want[k])))
    if len(entries) == 3:
        split = {"modplug.so": entries[0] + entries[1],
                 "modplug2.so": entries[2]}
        print("plug_entry by module: gprof %s, program %s"
              % (dict(sorted(into.items())), split))
        if into != split:
            bad.append("plug_entry's calls by module differ")
    else:
        bad.append("no 'entries' line in %s" % prog_out)
    return bad


def named(data):
    total = data["total_time"]
    inside = 0.0
    buckets = 0.0
    for f in data["flat_profile"]:
        # A module's bucket "[lib.so]", or its unnamed code past an
        # exported function, "0x4970 [lib.so]".
        if re.fullmatch(r"(0x[0-9a-f]+ )?\[[^\]]+\]", f["name"]):
            buckets += f["self"]
        else:
            inside += f["self"]
    pct = 100 * inside / total if total > 0 else 0
    bpct = 100 * buckets / total if total > 0 else 0
    print("named: %.2f%% of %.3f s in named functions (%.2f%% in module"
          " buckets, %.2f%% outside every function)"
          % (pct, total, bpct, max(0.0, 100 - pct - bpct)))
    return [] if pct >= 95 else ["only %.2f%% in named functions" % pct]


ENTRY = re.compile(r"^\s+([0-9a-f]+) (.*) \((.*)\)$")


def perf_samples(path):
    """[(dso path or None, address in the file, perf's symbol)]: each
    sample's innermost user-space frame (perf script prints a call
    chain's addresses in their files), where the CPU timer libgmon uses
    charges the time, kernel time included; None for a sample with none.
    """
    out = []
    for line in open(path, errors="replace"):
        m = ENTRY.match(line)
        if m:
            if out and out[-1] is None and m.group(3) != "[kernel.kallsyms]":
                out[-1] = (m.group(3), int(m.group(1), 16), m.group(2))
        elif line.strip():
            out.append(None)            # a sample's line: its pid
    return [s or (None, 0, "kernel") for s in out]


def perf(data, perf_path, disp):
    fp = data["flat_profile"]
    hz = data["hz"]
    n_ours = round(data["total_time"] * hz)
    # Each module's functions by address: a function ends where the next
    # one starts (gprof's rule).
    starts = {}
    for f in fp:
        if "module" in f and not f["name"].startswith("["):
            starts.setdefault(f["module"], set()).add(int(f["address"], 16))
    samples = perf_samples(perf_path)
    n_perf = len(samples)
    # perf's path of a module -> gprof's module name (gprof names it
    # after the loader's path, perf after the file: libz.so.1 is a link
    # to libz.so.1.2.13).
    modname = {}
    for dso in {s[0] for s in samples if s[0]}:
        for m in starts:
            cand = os.path.join(os.path.dirname(dso), m)
            if m == os.path.basename(dso) or (
                    os.path.exists(cand)
                    and os.path.realpath(cand) == os.path.realpath(dso)):
                modname[dso] = m
    top = sorted((f for f in fp if not f["name"].startswith("[")),
                 key=lambda f: -f["self"])[:5]
    bad = []
    print("top 5 by self time: ours vs perf (%d samples, dispersion %.2f;"
          " perf %d samples)" % (n_ours, disp, n_perf))
    print("%-42s %7s %7s %7s  %s" % ("function", "ours%", "perf%", "bound",
                                     "perf's names there"))
    for f in top:
        mod = f.get("module")
        lo = int(f["address"], 16)
        later = [a for a in starts.get(mod, ()) if a > lo]
        hi = min(later) if later else lo + 1
        names = {}
        hits = 0
        for dso, addr, sym in samples:
            if dso and modname.get(dso) == mod and lo <= addr < hi:
                hits += 1
                key = sym if not re.fullmatch(r"\[unknown\]|[0-9a-fx]+", sym) \
                    else "(none)"
                names[key] = names.get(key, 0) + 1
        p1 = f["self"] * hz / n_ours if n_ours else 0
        p2 = hits / n_perf if n_perf else 0
        err = 100 * math.sqrt(p1 * (1 - p1) * disp / max(n_ours, 1)
                              + p2 * (1 - p2) / max(n_perf, 1))
        bound = max(4 * err, 3)
        ok = abs(100 * p1 - 100 * p2) <= bound
        top_names = ", ".join("%s %d%%" % (k, round(100 * v / hits))
                              for k, v in sorted(names.items(),
                                                 key=lambda kv: -kv[1])[:3])
        print("%-42s %7.1f %7.1f %7.1f  %s%s"
              % (f["name"][:42], 100 * p1, 100 * p2, bound, top_names or "-",
                 "" if ok else "  <- off"))
        if not ok:
            bad.append("%s: ours %.1f%%, perf %.1f%%, bound %.1f"
                       % (f["name"], 100 * p1, 100 * p2, bound))
    return bad


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    data = json.load(open(argv[2]))
    if argv[1] == "arcs" and len(argv) == 4:
        bad = arcs(data, argv[3])
    elif argv[1] == "named" and len(argv) == 3:
        bad = named(data)
    elif argv[1] == "perf" and len(argv) == 5:
        bad = perf(data, argv[3], float(argv[4]))
    else:
        sys.exit(__doc__)
    for b in bad:
        print("wrong: " + b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
