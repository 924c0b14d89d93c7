#!/usr/bin/env python3
"""check_calls.py GPROF EXE GMON - the static call graph (-c) must hold
exactly the arcs the program made plus the direct calls that the
disassembly of .text shows (objdump -d), between the functions gprof
knows: every call found, none invented.  (GNU gprof misses the backward
ones on x86, so this is checked against the code, not against GNU.)"""
import re
import subprocess
import sys

ENTRY = re.compile(r"^\[\d+\]")
NAME = re.compile(r"^(.*?)(?: <cycle \d+>)?(?: [\[(]\d+[\])])?$")


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True,
                       env={"LC_ALL": "C", "PATH": "/usr/bin:/bin"})
    if r.returncode:
        sys.exit(f"{' '.join(cmd)} failed: {r.stderr}")
    return r.stdout


def name_of(field):
    return NAME.match(field.strip()).group(1)


def arcs(gprof, exe, gmon, static):
    """(parent, child) pairs of the call graph: the children of each
    entry are the lines after its [N] line.  In the report's fixed
    layout an entry's name starts at column 45 and a callee's at 49."""
    out = run([gprof, "-b", "-q", "-z"] + (["-c"] if static else []) + [exe, gmon])
    found, parent = set(), None
    for line in out.splitlines():
        if line.startswith("---") or not line.strip():
            parent = None
        elif ENTRY.match(line):
            # A cycle's entry lists its members, not calls.
            parent = name_of(line[45:])
            if parent.startswith("<cycle"):
                parent = None
        elif parent and line[49:].strip():
            found.add((parent, name_of(line[49:])))
    return found


def functions(gprof, exe, gmon):
    out = run([gprof, "-b", "-z", "-p", exe, gmon])
    names = set()
    for line in out.splitlines()[4:]:
        parts = line.split()
        if parts:
            names.add(parts[-1])
    return names


def disassembly_calls(exe, known):
    calls, current = set(), None
    for line in run(["objdump", "-d", "-j", ".text", "--no-show-raw-insn",
                     exe]).splitlines():
        m = re.match(r"^[0-9a-f]+ <([^>]+)>:$", line)
        if m:
            current = m.group(1)
            continue
        m = re.search(r"\scall[lq]?\s+[0-9a-f]+ <([^>+]+)>$", line)
        if m and current in known and m.group(1) in known:
            calls.add((current, m.group(1)))
    return calls


def main():
    gprof, exe, gmon = sys.argv[1:4]
    known = functions(gprof, exe, gmon)
    dynamic = arcs(gprof, exe, gmon, False)
    static = arcs(gprof, exe, gmon, True)
    want = dynamic | disassembly_calls(exe, known)
    missing, invented = want - static, static - want
    for a in sorted(missing):
        print(f"  missing {a[0]} -> {a[1]}")
    for a in sorted(invented):
        print(f"  invented {a[0]} -> {a[1]}")
    print(f"{'ok  ' if not (missing or invented) else 'FAIL'} {exe}: "
          f"{len(static)} arcs, {len(static - dynamic)} found only in the code")
    return 1 if missing or invented else 0


if __name__ == "__main__":
    sys.exit(main())
