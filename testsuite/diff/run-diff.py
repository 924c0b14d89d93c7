#!/usr/bin/env python3
"""run-diff.py - differential tests: our gprof against GNU gprof 2.40.

Compiles the programs in progs/ with gcc -pg in several flavours, runs
them for profiles (several runs each, for merging), then runs GNU gprof
and ours with many option sets, each in a fresh directory under
LC_ALL=C and invoked as "gprof", and compares standard output, standard
error, exit status and every file created in the directory.

Two differences are allowed:
  - the wording of the explanatory blurbs.  On a run without -b, each
    gprof's report is reduced to what its own -b run prints, plus one
    "<blurb>" line wherever it printed more; those skeletons are compared.
  - bytes 8..19 of GNU-format profile files (gmon.sum), which GNU gprof
    leaves uninitialised.

Usage: run-diff.py [-v] [PATTERN...]
  PATTERN   only cases whose name contains one of these strings
  -v        print the whole diff of a failure, not just its start

Environment:
  GPROF      the gprof to test (default: ./gprof, from the build directory)
  GNU_GPROF  the reference (default: /usr/bin/gprof)
  KEEP       keep all builds and runs in this directory (new or empty)
  JOBS       parallel gprof runs (default: number of CPUs, at least 2)

Prints "ok CASE" or "FAIL CASE" with a short diff for each comparison
("skip CASE" where GNU gprof itself fails by a known defect), then
"N passed, M failed".  Exit status: 0 all passed, 1 a failure, 77
when GNU gprof or gcc is missing (skip), 99 when the test cannot run.
"""

import concurrent.futures
import difflib
import os
import random
import re
import shlex
import shutil
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
PROGS = os.path.join(HERE, "progs")
GNU = os.environ.get("GNU_GPROF", "/usr/bin/gprof")
OURS = os.path.abspath(os.environ.get("GPROF", "gprof"))
ENV = {k: v for k, v in os.environ.items()
       if k not in ("GPROF_PATH", "POSIXLY_CORRECT", "GMON_OUT_PREFIX")}
ENV.update(LC_ALL="C", LANG="C")
DIFF_LINES = 20

# Where GNU gprof fails by its own defect there is nothing to match: a
# case whose GNU run prints one of these messages is skipped.
GNU_DEFECTS = {
    # With -l (and -s, which implies it) GNU asks BFD for the source line
    # of every byte of .text twice and gets different answers for inlined
    # C++ code in optimised builds.
    b"somebody miscounted": "its two passes over the line table disagree",
}


# ---- what is tested ---------------------------------------------------------

class Program:
    """A test program: its sources (those in NOPG compiled without -pg),
    the arguments of its runs (the first run is gmon.out, all of them are
    gmon.1, gmon.2, ...), and the names its option sets use."""

    def __init__(self, name, sources, runs, names, nopg=(), libs=()):
        self.name, self.sources, self.runs = name, sources, runs
        self.names, self.nopg, self.libs = names, list(nopg), list(libs)
        self.cxx = any(s.endswith(".cc") for s in sources)


PROGRAMS = [
    Program("recurse", ["recurse.c"], [[], ["120"], ["250"]],
            dict(FN="is_even", FN2="fib", FILE="recurse.c",
                 FILEFN="recurse.c:inner", ARC="main/fib",
                 ARC2="main/caller_a", ARC3="caller_a/outer")),
    Program("statics", ["statics_a.c", "statics_b.c"], [[], ["300"]],
            dict(FN="helper", FN2="a_work", FILE="statics_b.c",
                 FILEFN="statics_b.c:helper", ARC="a_work/counter",
                 ARC2="a_work/statics_a.c:helper", ARC3="b_work/helper")),
    Program("never", ["never.c"], [[], ["1000"]],
            dict(FN="work", FN2="once", FILE="never.c",
                 FILEFN="never.c:work", ARC="main/work", ARC2="main/once",
                 ARC3="main/work")),
    Program("deep", ["deep.c"], [[], ["5000"]],
            dict(FN="step20", FN2="dive", FILE="deep.c",
                 FILEFN="deep.c:step39", ARC="step19/step20",
                 ARC2="step19/step39", ARC3="main/step0")),
    Program("callbacks", ["callbacks.c"], [[], ["50"]],
            dict(FN="bump", FN2="cmp_int", FILE="callbacks.c",
                 FILEFN="callbacks.c:for_each", ARC="for_each/bump",
                 ARC2="for_each/op_add", ARC3="apply_twice/for_each")),
    Program("demangle", ["demangle.cc"], [[], ["200"]],
            dict(FN="_ZN3geo6detail4areaEd", FN2="main", FILE="demangle.cc",
                 FILEFN="demangle.cc:main", ARC="main/_ZN3geo6detail4areaEii",
                 ARC2="main/_ZN3geo6detail4areaEd",
                 ARC3="main/_ZNK3geo6Square4areaEv")),
    Program("threads", ["threads.c"], [[], ["500"]],
            dict(FN="crunch", FN2="thread_step", FILE="threads.c",
                 FILEFN="threads.c:worker", ARC="main/crunch",
                 ARC2="main/pthread_create", ARC3="thread_step/crunch"),
            libs=["-pthread"]),
    Program("partial", ["partial_main.c", "partial_lib.c"], [[], ["100"]],
            dict(FN="lib_sum", FN2="profiled_cb", FILE="partial_lib.c",
                 FILEFN="partial_main.c:profiled_driver",
                 ARC="lib_sum/profiled_cb", ARC2="lib_sum/main",
                 ARC3="profiled_driver/lib_heavy"),
            nopg=["partial_lib.c"]),
]

# Name, compiler flags, and whether every option set runs on it (the
# others get the CORE sets).
FLAVOURS = [
    ("O0", ["-O0", "-g"], True),
    ("O2", ["-O2", "-g"], True),
    ("nopie", ["-O0", "-g", "-fno-pie", "-no-pie"], False),
    ("pie", ["-O1", "-g", "-fPIE", "-pie"], False),
    ("m32", ["-m32", "-O0", "-g"], True),
]

# Option sets: the words before the executable; {FN}-style names come
# from the program.  EXE and the profile gmon.out are appended.
OPTION_SETS = [
    "", "-b", "-p", "-q", "-P", "-Q", "-z", "-a", "-T", "-i", "-D", "-C",
    "-b -z", "-b -a", "-b -T", "-b -T -z", "-b -T -a", "-b -i", "-i -p",
    "-b -D", "-b -D -z", "-b -p -q", "-b -P -Q", "-b -Q -z", "-b -P -z",
    "-b -C", "-b -C -z", "-b -C{FN}", "-b -m 2 -C", "-b -l -C",
    "-w 40", "-w 130", "-b -w 40", "-b -w 130 -z", "-b -w 1", "-b -T -w 40",
    "--no-demangle", "-b --no-demangle", "-b --demangle=gnu-v3",
    "-b --demangle", "-b --demangle=none", "-b -T --demangle",
    "-b --inline-file-names", "-b -L --inline-file-names",
    "-b -l", "-b -l -z", "-b -l -p", "-b -l -q", "-b -L -l", "-b -l -T",
    "-b -e {FN}", "-b -E {FN}", "-b -f {FN}", "-b -F {FN}",
    "-b -e {FILEFN}", "-b -E {FILEFN}", "-b -f {FILEFN}", "-b -F {FILEFN}",
    "-b -E {FN} -E {FN2}", "-b -F {FN} -F {FN2}", "-b -e {FN} -f {FN2}",
    "-b -E {FN} -f {FN}", "-b -F {FN} -e {FN}", "-E {FN}", "-F {FN2}",
    "-b -k {ARC}", "-b -k {ARC} -k {ARC2}", "-b -k {ARC2} -k {ARC}",
    "-b -k {ARC} -k {ARC3}", "-b -q{ARC}", "-b -Q{ARC}", "-b -q{ARC3} -k {ARC}",
    "-b -n {FN}", "-b -N {FN}", "-b -n {FILE}", "-b -N {FILEFN}",
    "-b -n {FN} -N {FN2}", "-b -T -N {FN}",
    "-b -p{FN}", "-b -P{FN}", "-b -q{FN}", "-b -Q{FN}", "-b -p{FILE}",
    "-b -P{FILE}", "-b -q{FILEFN}", "-b -Q{FILEFN}", "-b -p{FN} -q{FN2}",
    "-b --flat-profile={FILEFN}", "-b --no-graph={FN}", "-b --graph={FN2}",
    "-b --time={FN}", "-b --no-time={FN2}", "-b -pnosuchfn", "-b -Pnosuchfn",
    "-b -p{FN} -P{FN}", "-b -T -p{FN} -q{FN}", "-b -z -e {FN}",
    # Runs of two specs that overlap: each grows its own range.
    "-b -z -p{FILE} -p{FILEFN}", "-b -z -p{FILEFN} -p{FILE}",
    "-b -n {FILEFN} -n {FILE}",
    "-b -P:", "-b --no-flat-profile=", "-b -Q:", "-b -e _init", "-b -p_init",
    "-b -a -z", "-b -a -T", "-b -a -l",
    # Annotated source, execution counts and orderings.
    "-A", "-b -A", "-A -x", "-A -t 3", "-A -t 0", "-J -A", "-A{FN}",
    "-J{FN} -A", "-b -A -m 5", "-b -A -z", "-l -A", "-l -A -x", "-b -y -A",
    "-b -y -l -A -x", "-A -I /nonexistent", "-b -C -Z{FN}", "-b -Z -C",
    "-b -l -C -z", "-r", "-b -r -q", "-b -r -p", "-b -l -r", "-b -a -r",
]


def mixed_option_sets(seed, count):
    """COUNT option sets drawn from SEED (the same every run): a few
    flags and one to three symspecs of any kind in any table, combinations
    that no one would list by hand.  -c and -r stay out: their
    differences from GNU gprof are on purpose (doc/differences.md)."""
    rnd = random.Random(seed)
    flags = ["-z", "-T", "-a", "-i", "-y", "-x", "-l", "-L", "-C", "-A",
             "-D", "--inline-file-names", "--no-demangle", "-p", "-P", "-q",
             "-Q", "-J", "-Z"]
    takes_spec = ["-e ", "-E ", "-f ", "-F ", "-n ", "-N ", "-p", "-P", "-q",
                  "-Q", "-J", "-Z", "-A"]
    specs = ["{FN}", "{FN2}", "{FILE}", "{FILEFN}", "nosuchfn"]
    arcs = ["{ARC}", "{ARC2}", "{ARC3}"]
    sets = []
    for _ in range(count):
        words = ["-b"] + rnd.sample(flags, rnd.randrange(3))
        for _ in range(rnd.randrange(1, 4)):
            if rnd.random() < 0.2:
                words.append("-k " + rnd.choice(arcs))
            else:
                words.append(rnd.choice(takes_spec) + rnd.choice(specs))
        if rnd.random() < 0.2:
            words.append(f"-m {rnd.randrange(1, 4)}")
        sets.append(" ".join(words))
    return sets


OPTION_SETS += mixed_option_sets(2026, 24)

# The sets every flavour gets.
CORE = {"", "-b", "-b -z", "-b -T", "-i", "-b -a", "-b -l", "-b -C",
        "-b -e {FN}", "-b -F {FN}", "-b -k {ARC}", "-b -p{FN}", "-b -q{FN2}",
        "-w 40", "--no-demangle", "-b --inline-file-names", "-b -D"}

# Whole command lines, run once (on the first build): option parsing,
# defaults, and error handling.
COMMANDS = [
    "-X {EXE} gmon.out", "--nosuch {EXE} gmon.out", "--line=3 {EXE} gmon.out",
    "--no {EXE} gmon.out", "nosuch.exe gmon.out", "{EXE} nosuch.out",
    "-O xyz {EXE} gmon.out", "--demangle=xyz {EXE} gmon.out",
    "-r -R map {EXE} gmon.out", "-O prof {EXE} gmon.out",
    "-b {EXE} gmon.out -k", "-b -O magic {EXE} gmon.bsd",
    "-b -O 4.4bsd {EXE} gmon.bsd",
    "@nosuch {EXE} gmon.out", "-b -w", "-b {EXE} gmon.out --brief=1",
    "-b {EXE} empty.out", "-b {EXE} short.out", "-b {EXE} cut.out",
    "-b", "-b {EXE}", "{EXE} gmon.out -b -p", "-p {EXE} gmon.out -b -q",
    "--brief --flat-profile {EXE} gmon.out", "--br --no-g {EXE} gmon.out",
    "-b --=main {EXE} gmon.out", "-b -O magic {EXE} gmon.out",
    "-b -Oauto {EXE} gmon.out", "-b --file-format=4 {EXE} gmon.bsd44",
    "-h", "--help", "-v", "--version", "-b -B {EXE} gmon.out",
]

class Case:
    """One comparison: gprof runs in order (STEPS, each a list of
    arguments) in a directory holding INPUTS (name -> path).  BLURBS:
    compare the skeletons of a report printed without -b."""

    def __init__(self, name, steps, inputs, blurbs):
        self.name, self.steps, self.inputs = name, steps, inputs
        self.blurbs = blurbs


def words(template, names, exe):
    """Split an option set into words, with the program's names filled in
    and the executable's name for {EXE}."""
    return shlex.split(template.format_map(dict(names, EXE=exe)))


def has_brief(args):
    return "-b" in args or "--brief" in args


def cases_for(build, first):
    """Every case of one build (a compiled, profiled program)."""
    prog, exe = build["prog"], build["exe"]
    inputs = dict(build["inputs"])
    out = []

    def add(label, steps, extra=None):
        need = dict(inputs, **(extra or {}))
        blurbs = len(steps) == 1 and not has_brief(steps[0])
        out.append(Case(f"{build['name']}: {label}", steps, need, blurbs))

    for template in OPTION_SETS:
        if build["full"] or template in CORE:
            args = words(template, prog.names, exe)
            add(f"gprof {template}".rstrip(), [args + [exe, "gmon.out"]])

    gmons = [f"gmon.{i + 1}" for i in range(len(prog.runs))]
    add("several profiles", [["-b", exe] + gmons])
    add("several profiles, -i", [["-i", exe] + gmons])
    add("-s, read back", [["-b", "-s", exe, "gmon.out"],
                          ["-b", exe, "gmon.sum"]])
    add("-s of several, read back", [["-s", exe] + gmons,
                                     ["-b", "-z", exe, "gmon.sum"]])
    add("-s -l -C", [["-b", "-s", "-C", exe, "gmon.out"]])
    add("-s with gmon.sum among the inputs",
        [["-s", exe, "gmon.out"], ["-s", exe, "gmon.sum", "gmon.out"],
         ["-b", "-p", exe, "gmon.sum"]])

    add("@FILE", [["@opts", exe, "gmon.out"]],
        {"opts": text_input(build, "opts", "-b\n-p\n")})
    add("@FILE with quotes and a spec",
        [["@opts2", exe, "gmon.out"]],
        {"opts2": text_input(build, "opts2",
                             "-b '-e' \"{}\"\n-z\n".format(prog.names["FN"]))})
    add("-S nm output", [["-b", "-S", "syms.nm", exe, "gmon.out"]],
        {"syms.nm": build["nm"]})
    add("-R map file", [["-b", "-R", "fn.map", exe, "gmon.out"]],
        {"fn.map": build["map"]})
    add("-R map file, -q -p", [["-b", "-q", "-p", "-R", "fn.map", exe,
                                "gmon.out"]], {"fn.map": build["map"]})
    add("-S nm output, -z -T", [["-b", "-z", "-T", "-S", "syms.nm", exe,
                                 "gmon.out"]], {"syms.nm": build["nm"]})

    # The profile converted to the BSD layouts.
    bsd = {k: build[k] for k in ("gmon.bsd", "gmon.bsd44", "gmon.bsd44k")}
    for label, steps in [
            ("-O bsd", [["-b", "-O", "bsd", exe, "gmon.bsd"]]),
            ("BSD file, format detected", [["-b", exe, "gmon.bsd"]]),
            ("-O 4.4bsd", [["-b", "-O", "4.4bsd", exe, "gmon.bsd44"]]),
            ("4.4BSD at 1000 Hz", [["-b", exe, "gmon.bsd44k"]]),
            ("BSD and GNU files merged", [["-b", exe, "gmon.out", "gmon.bsd"]]),
            ("BSD files of different rates", [["-b", exe, "gmon.bsd44",
                                               "gmon.bsd44k"]]),
            ("-s -O bsd, read back", [["-b", "-s", "-O", "bsd", exe, "gmon.bsd"],
                                      ["-b", "-O", "bsd", exe, "gmon.sum"]]),
            ("-s -O 4.4bsd, read back",
             [["-b", "-s", "-O", "4.4bsd", exe, "gmon.bsd44k"],
              ["-b", "-i", exe, "gmon.sum"]]),
            ("-T on a BSD file", [["-b", "-T", exe, "gmon.bsd"]]),
            ("-i on BSD files", [["-i", exe, "gmon.bsd", "gmon.bsd44"]])]:
        add(label, steps, bsd)

    if first:
        damaged = {k: build[k] for k in ("gmon.bsd", "gmon.bsd44", "empty.out",
                                          "short.out", "cut.out")}
        for template in COMMANDS:
            add(f"command: gprof {template}", [words(template, prog.names, exe)],
                damaged)
    return out


def text_input(build, name, text):
    path = os.path.join(build["dir"], name)
    with open(path, "w") as f:
        f.write(text)
    return path


# ---- building and profiling -------------------------------------------------

def sh(cmd, cwd, timeout=120):
    return subprocess.run(cmd, cwd=cwd, env=ENV, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=timeout)


def flavour_works(flags, cxx, workdir):
    """Can gcc build and run a -pg program with these flags?"""
    d = tempfile.mkdtemp(dir=workdir)
    src = os.path.join(d, "t.cc" if cxx else "t.c")
    with open(src, "w") as f:
        f.write("#include <stdio.h>\nint main(void){puts(\"\");return 0;}\n")
    cc = "g++" if cxx else "gcc"
    try:
        ok = (sh([cc, "-pg"] + flags + [src, "-o", "t"], d).returncode == 0
              and sh(["./t"], d).returncode == 0
              and os.path.exists(os.path.join(d, "gmon.out")))
    except OSError:     # a kernel without 32-bit mode: Exec format error
        ok = False
    shutil.rmtree(d)
    return ok


def build_one(prog, flavour, workdir):
    """Compile and run one program in one flavour; returns the build, or
    an error message."""
    fname, flags, full = flavour
    d = os.path.join(workdir, f"{prog.name}-{fname}")
    os.makedirs(d)
    cc = "g++" if prog.cxx else "gcc"
    objs = []
    for src in prog.nopg:
        obj = os.path.join(d, src + ".o")
        r = sh([cc, "-c"] + flags + [os.path.join(PROGS, src), "-o", obj], d)
        if r.returncode:
            return f"compiling {src}: {r.stderr.decode(errors='replace')}"
        objs.append(obj)
    pg = [os.path.join(PROGS, s) for s in prog.sources if s not in prog.nopg]
    exe = prog.name
    r = sh([cc, "-pg"] + flags + pg + objs + ["-o", exe] + prog.libs, d)
    if r.returncode:
        return f"linking: {r.stderr.decode(errors='replace')}"

    inputs = {exe: os.path.join(d, exe)}
    for i, args in enumerate(prog.runs):
        r = sh(["./" + exe] + args, d)
        gmon = os.path.join(d, "gmon.out")
        if r.returncode or not os.path.exists(gmon):
            return f"run {i + 1} made no gmon.out"
        os.rename(gmon, os.path.join(d, f"gmon.{i + 1}"))
        inputs[f"gmon.{i + 1}"] = os.path.join(d, f"gmon.{i + 1}")
    inputs["gmon.out"] = inputs["gmon.1"]

    build = dict(name=f"{prog.name} {fname}", prog=prog, exe=exe, dir=d,
                 full=full, inputs=inputs)
    add_damaged(build)
    nm = sh(["nm", exe], d)
    build["nm"] = text_input(build, "syms.nm", nm.stdout.decode())
    build["map"] = text_input(build, "fn.map", function_map(nm.stdout.decode()))
    vma = 4 if "-m32" in flags else 8
    with open(inputs["gmon.1"], "rb") as f:
        gnu = f.read()
    for name, data in [("gmon.bsd", gnu_to_bsd(gnu, vma, None)),
                       ("gmon.bsd44", gnu_to_bsd(gnu, vma, 100)),
                       ("gmon.bsd44k", gnu_to_bsd(gnu, vma, 1000))]:
        path = os.path.join(d, name)
        with open(path, "wb") as f:
            f.write(data)
        build[name] = path
    return build


def function_map(nm_text):
    """A -R map in the layout of nm --print-file-name: the text symbols
    spread over three object files, a file without symbols and a file
    whose functions are not in the program."""
    lines = ["No symbols in empty.o"]
    texts = [l.split() for l in nm_text.splitlines()]
    texts = [t for t in texts if len(t) == 3 and t[1] in "tT"]
    for i, (addr, kind, name) in enumerate(texts):
        lines.append(f"obj{i % 3}.o:{addr} {kind} {name}")
    lines.append("elsewhere.o:0000000000000000 T not_linked_in")
    return "\n".join(lines) + "\n"


def add_damaged(build):
    """Profiles that end too early: empty, within the header, and within
    the first histogram's bins."""
    with open(build["inputs"]["gmon.1"], "rb") as f:
        gnu = f.read()
    for name, data in [("empty.out", b""), ("short.out", gnu[:12]),
                       ("cut.out", gnu[:100])]:
        path = os.path.join(build["dir"], name)
        with open(path, "wb") as f:
            f.write(data)
        build[name] = path


def gnu_to_bsd(data, vma, rate):
    """A GNU-format profile (little-endian) in the old BSD layout, or in
    the 4.4BSD one with the given rate.  Uses the first histogram record
    and every arc; basic-block records have no BSD form."""
    a = "<I" if vma == 4 else "<Q"
    pos, hist, arcs = 20, None, []
    while pos < len(data):
        tag = data[pos]
        pos += 1
        if tag == 0:
            low, high = struct.unpack_from("<" + a[1] * 2, data, pos)
            nbins = struct.unpack_from("<I", data, pos + 2 * vma)[0]
            start = pos + 2 * vma + 24
            if hist is None:
                hist = (low, high, data[start:start + 2 * nbins])
            pos = start + 2 * nbins
        elif tag == 1:
            arcs.append(struct.unpack_from("<" + a[1] * 2 + "I", data, pos))
            pos += 2 * vma + 4
        elif tag == 2:
            n = struct.unpack_from("<I", data, pos)[0]
            pos += 4 + 2 * vma * n
        else:
            raise ValueError(f"bad tag {tag}")
    low, high, bins = hist
    if rate is None:
        head = struct.pack("<" + a[1] * 2 + "I", low, high, 2 * vma + 4 + len(bins))
    else:
        size = 2 * vma + 24
        head = struct.pack("<" + a[1] * 2 + "III", low, high, size + len(bins),
                           0x51879, rate) + bytes(12)
    count = "<I" if vma == 4 else "<Q"
    body = b"".join(struct.pack(a, f) + struct.pack(a, t) + struct.pack(count, c)
                    for f, t, c in arcs)
    return head + bins + body


# ---- running and comparing --------------------------------------------------

def normalize(name, data):
    """GNU leaves bytes 8..19 of a GNU-format profile uninitialised."""
    if data[:4] == b"gmon" and len(data) >= 20:
        data = data[:8] + bytes(12) + data[20:]
    return data


def run_case(case, gprof, wdir, brief):
    """Run the case's steps with GPROF, as "gprof", in a fresh directory
    of its inputs (with -b in front if BRIEF); return stdout, stderr and
    status of each step and the files it created."""
    os.makedirs(wdir)
    # Links, not copies: gprof only reads its inputs.  The one file it
    # writes, gmon.sum, is never an input from a build.
    for name, src in case.inputs.items():
        os.link(src, os.path.join(wdir, name))
    result = {}
    for i, step in enumerate(case.steps):
        argv = ["gprof"] + (["-b"] if brief else []) + step
        try:
            r = subprocess.run(argv, executable=gprof, cwd=wdir, env=ENV,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               timeout=120)
            result[f"step {i + 1} status"] = r.returncode
            result[f"step {i + 1} stdout"] = r.stdout
            result[f"step {i + 1} stderr"] = r.stderr
        except subprocess.TimeoutExpired:
            result[f"step {i + 1} status"] = "timeout"
    for name in sorted(set(os.listdir(wdir)) - set(case.inputs)):
        with open(os.path.join(wdir, name), "rb") as f:
            result["file " + name] = normalize(name, f.read())
    return result


def skeleton(full, brief):
    """FULL's lines, with every run of lines that BRIEF lacks made into one
    "<blurb>" line; lines of BRIEF that FULL lacks are kept, marked."""
    f_lines, b_lines = full.split(b"\n"), brief.split(b"\n")
    out = []
    matcher = difflib.SequenceMatcher(None, b_lines, f_lines, autojunk=False)
    for op, b1, b2, f1, f2 in matcher.get_opcodes():
        if op == "equal":
            out.extend(f_lines[f1:f2])
            continue
        if op in ("delete", "replace"):
            out.extend(b"<only with -b> " + line for line in b_lines[b1:b2])
        if op in ("insert", "replace") and out[-1:] != [b"<blurb>"]:
            out.append(b"<blurb>")
    return b"\n".join(out)


def outcome(case, gprof, wdir):
    """What a gprof produced for CASE, blurbs reduced to markers."""
    result = run_case(case, gprof, wdir, False)
    if case.blurbs and result.get("step 1 status") == 0:
        brief = run_case(case, gprof, wdir + "-b", True)
        result["step 1 stdout"] = skeleton(result["step 1 stdout"],
                                           brief["step 1 stdout"])
    return result


def as_lines(data):
    """Text as its lines; binary data (profile files) as a hex dump."""
    if all(c >= 32 or c in b"\t\n\f" for c in data):
        return data.decode("latin-1").split("\n")
    return [f"{i:06x}: {data[i:i + 16].hex(' ')}" for i in range(0, len(data), 16)]


def describe(a, b, verbose):
    """A short unified diff between GNU's (A) and our (B) result."""
    lines = []
    for key in sorted(set(a) | set(b), key=str):
        x, y = a.get(key), b.get(key)
        if x == y:
            continue
        if not isinstance(x, bytes) or not isinstance(y, bytes):
            lines.append(f"    {key}: GNU {x!r}, ours {y!r}")
            continue
        diff = list(difflib.unified_diff(as_lines(x), as_lines(y), "GNU",
                                         "ours", n=1, lineterm=""))
        lines.append(f"    {key}:")
        lines += ["      " + d for d in (diff if verbose else diff[:DIFF_LINES])]
        if not verbose and len(diff) > DIFF_LINES:
            lines.append(f"      ... {len(diff) - DIFF_LINES} more lines")
    return "\n".join(lines)


def gnu_defect(result):
    """The description of the GNU defect this result shows, if any."""
    for key, value in result.items():
        if key.endswith("stderr"):
            for marker, why in GNU_DEFECTS.items():
                if marker in value:
                    return why
    return None


# Our -h/--help goes on after GNU's text with the options GNU gprof does
# not have, and gives our bug address where GNU gives binutils'; -v
# prints our name (doc/differences.md).  Everything else must match.
OUR_OPTIONS = b"\nOptions of this gprof that GNU gprof does not have:\n"
OUR_BUGS = re.compile(rb"^Report bugs at \S+\n", re.M)
GNU_BUGS = re.compile(rb"^Report bugs to \S+\n", re.M)
OUR_VERSION = re.compile(rb"^gprof \([a-z]+\) [0-9][0-9.]*\n.*GNU gprof .*\nReport bugs at \S+\n$", re.S)


def as_gnu_identity(ours, gnu):
    """OURS with our identity swapped for GNU's, where GNU's prints it."""
    out, gout = ours.get("step 1 stdout"), gnu.get("step 1 stdout")
    if not isinstance(out, bytes) or not isinstance(gout, bytes):
        return ours
    if out.startswith(b"Usage:") and OUR_OPTIONS in out:
        out = out[:out.index(OUR_OPTIONS)]
    gnu_bugs = GNU_BUGS.search(gout)
    if gnu_bugs and OUR_BUGS.search(out):
        out = OUR_BUGS.sub(lambda m: gnu_bugs.group(0), out)
    if OUR_VERSION.match(out) and gout.startswith(b"GNU gprof "):
        out = gout
    ours["step 1 stdout"] = out
    return ours


def compare(case, workdir, index, verbose):
    """Run CASE with both gprofs: ("ok" | "FAIL" | "skip", report)."""
    base = os.path.join(workdir, "runs", str(index))
    gnu = outcome(case, GNU, base + "-gnu")
    defect = gnu_defect(gnu)
    if defect:
        return "skip", f"skip {case.name}: GNU gprof fails, {defect}"
    ours = as_gnu_identity(outcome(case, OURS, base + "-ours"), gnu)
    if gnu == ours:
        return "ok", f"ok {case.name}"
    return "FAIL", f"FAIL {case.name}\n{describe(gnu, ours, verbose)}"


# ---- main --------------------------------------------------------------------

def builds(workdir):
    """Compile and profile every program in every flavour that works here."""
    out = []
    for flavour in FLAVOURS:
        for cxx in (False, True):
            progs = [p for p in PROGRAMS if p.cxx == cxx]
            if not progs:
                continue
            if not flavour_works(flavour[1], cxx, workdir):
                print(f"# skipping {' '.join(p.name for p in progs)} "
                      f"{flavour[0]}: {'g++' if cxx else 'gcc'} "
                      f"{' '.join(flavour[1])} -pg does not work here")
                continue
            for prog in progs:
                b = build_one(prog, flavour, workdir)
                if isinstance(b, str):
                    print(f"FAIL build {prog.name} {flavour[0]}: {b}")
                    sys.exit(99)
                out.append(b)
    return out


def main(argv):
    verbose = "-v" in argv
    patterns = [a for a in argv if a != "-v"]
    if not os.access(GNU, os.X_OK) or shutil.which("gcc") is None:
        print(f"# skipped: needs {GNU} and gcc")
        return 77
    if not os.access(OURS, os.X_OK):
        print(f"# {OURS} is not an executable; set GPROF")
        return 99
    keep = os.environ.get("KEEP")
    if keep and os.path.exists(keep) and os.listdir(keep):
        print(f"# KEEP={keep} is not empty")
        return 99
    workdir = os.path.abspath(keep) if keep else tempfile.mkdtemp(prefix="gprof-diff.")
    os.makedirs(workdir, exist_ok=True)
    try:
        all_builds = builds(workdir)
        cases = []
        for i, b in enumerate(all_builds):
            cases += cases_for(b, i == 0)
        if patterns:
            cases = [c for c in cases if any(p in c.name for p in patterns)]
        jobs = int(os.environ.get("JOBS", max(2, os.cpu_count() or 2)))
        counts = {"ok": 0, "FAIL": 0, "skip": 0}
        with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
            for verdict, text in pool.map(
                    lambda ic: compare(ic[1], workdir, ic[0], verbose),
                    enumerate(cases)):
                print(text, flush=True)
                counts[verdict] += 1
        skipped = f" ({counts['skip']} skipped)" if counts["skip"] else ""
        print(f"{counts['ok']} passed, {counts['FAIL']} failed{skipped}")
        return 1 if counts["FAIL"] else 0
    finally:
        if not keep:
            shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
