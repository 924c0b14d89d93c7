#!/usr/bin/env python3
"""run-diagnose.py - gprof --diagnose on one profile per situation it
explains.

The executables are real: progs/prog.c built with -pg, compiled with -pg
but linked without it, compiled without it but linked with it, without
-pg at all, stripped; a different program (progs/other.c); a threaded one
(progs/threads.c).  The profiles are written here, byte by byte, at the
executables' real addresses (read with nm and objdump), so that each
holds exactly the situation under test: so many samples in this
function or in the PLT, a bin at 65535, an arc to an address with no
function, a cycle of calls.  Some come from real runs: a program
compiled without -pg, one linked without it (which must write no profile
at all), one that names its profile by GMON_OUT_PREFIX, the threaded one,
and runs of one program under glibc's runtime and under libgmon.

Each case checks phrases the diagnosis must print (and must not), its
closing "Summary:" line, and its exit status: 1 when the profile cannot
be analysed (a missing file, a stripped executable, files that cannot be
added up), else 0.  Runs from the top build directory, with
LC_ALL=C; GPROF names the gprof to test (default ./gprof).  Prints
"ok CASE" or "FAIL CASE" with the reason and the output, then
"N passed, M failed".  Exit status 0, 1 on a failure, 77 without gcc,
99 when the test cannot run.
"""

import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "fixtures"))
from mkmodules import Module, modules_file, profile_hash  # noqa: E402
GPROF = os.path.abspath(os.environ.get("GPROF", "gprof"))
ENV = dict(os.environ, LC_ALL="C", LANG="C")
ENV.pop("LANGUAGE", None)
for var in ("GMON_OUT_PREFIX", "LIBGMON_OUT", "LIBGMON_HZ", "LIBGMON_FORMAT"):
    ENV.pop(var, None)
# The runtime built beside gprof, when the configuration builds it.
LIBGMON = os.path.abspath(os.path.join("libgmon", ".libs", "libgmon.a"))
LIBGMON_SO = os.path.abspath(os.path.join("libgmon", ".libs", "libgmon.so"))


def run(cmd, cwd, check=True, env=None):
    r = subprocess.run(cmd, cwd=cwd, env=dict(ENV, **(env or {})),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if check and r.returncode != 0:
        sys.stderr.write(f"{' '.join(cmd)} failed:\n{r.stderr.decode()}")
        sys.exit(99)
    return r


def symbols(exe, cwd):
    """Name -> address of the executable's defined symbols."""
    out = run(["nm", exe], cwd).stdout.decode()
    syms = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3:
            syms[parts[2]] = int(parts[0], 16)
    return syms


def sections(exe, cwd):
    """Name -> (address, size) of the executable's sections."""
    out = run(["objdump", "-h", exe], cwd).stdout.decode()
    secs = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 4 and parts[0].isdigit():
            secs[parts[1]] = (int(parts[3], 16), int(parts[2], 16))
    return secs


def build_id(exe, cwd):
    """The executable's build ID in hex, or None."""
    out = run(["readelf", "-n", exe], cwd).stdout.decode()
    m = re.search(r"Build ID: ([0-9a-f]+)", out)
    return m.group(1) if m else None


def real_run(work, cmd, name, env=None):
    """Run CMD in WORK and keep its gmon.out as NAME."""
    run(cmd, work, check=False, env=env)
    shutil.move(os.path.join(work, "gmon.out"), os.path.join(work, name))
    return name


class Gmon:
    """A profile file for a 64-bit little-endian program: histogram
    records of 4-byte bins (glibc's and libgmon's layout) and arcs."""

    def __init__(self, low, high, hz):
        self.low, self.high, self.hz = low, high, hz
        self.records = [{}]          # bin index -> count, per record
        self.arcs = []

    def sample(self, addr, count, record=0):
        while len(self.records) <= record:
            self.records.append({})
        i = (addr - self.low) // 4
        self.records[record][i] = self.records[record].get(i, 0) + count
        return self

    def arc(self, frm, self_pc, count):
        self.arcs.append((frm, self_pc, count))
        return self

    def nbins(self):
        return (self.high - self.low) // 4

    def bins(self, rec):
        return b"".join(struct.pack("<H", rec.get(i, 0))
                        for i in range(self.nbins()))

    def gnu(self, hist=True, dispersion=None):
        out = b"gmon" + struct.pack("<I", 1)
        if dispersion:   # libgmon's record of clumped samples
            out += b"disp" + struct.pack("<II", int(dispersion * 65536), 0)
        else:
            out += bytes(12)
        if hist:
            for rec in self.records:
                out += struct.pack("<BQQII", 0, self.low, self.high,
                                   self.nbins(), self.hz)
                out += b"seconds".ljust(15, b"\0") + b"s" + self.bins(rec)
        for frm, self_pc, count in self.arcs:
            out += struct.pack("<BQQI", 1, frm, self_pc, count)
        return out

    def bsd44(self):
        hdr_size = 8 + 8 + 4 + 4 + 4 + 12
        out = struct.pack("<QQIII", self.low, self.high,
                          hdr_size + 2 * self.nbins(), 0x00051879, self.hz)
        out += bytes(12) + self.bins(self.records[0])
        for frm, self_pc, count in self.arcs:
            out += struct.pack("<QQQ", frm, self_pc, count)
        return out


def flat(text):
    """The output with its line breaks and indentation folded into single
    spaces, so that phrases are found however they were wrapped."""
    return " ".join(text.split())


class Case:
    def __init__(self, name, exe, files, want=(), absent=(), rows=(),
                 summary=None, args=(), status=0, env=None):
        self.name, self.exe, self.files = name, exe, files
        self.want, self.absent, self.rows = want, absent, rows
        self.summary, self.args = summary, list(args)
        self.status, self.env = status, env or {}


def summary(n):
    if n == 0:
        return "Summary: no problems found."
    return f"Summary: {n} problem{'s' if n > 1 else ''} found."


def build(work):
    progs = os.path.join(HERE, "progs")
    cc = ["gcc", "-O0", "-fno-inline"]
    run(cc + ["-pg", "-c", os.path.join(progs, "prog.c"), "-o", "prog-pg.o"],
        work)
    run(cc + ["-c", os.path.join(progs, "prog.c"), "-o", "prog-nopg.o"], work)
    run(cc + ["-pg", "prog-pg.o", "-o", "prog"], work)
    run(cc + ["-pg", "prog-nopg.o", "-o", "prog-nopg"], work)
    run(cc + ["prog-pg.o", "-o", "prog-cp"], work)
    run(cc + ["-pg", os.path.join(progs, "other.c"), "-o", "other"], work)
    run(cc + ["prog-nopg.o", "-o", "prog-plain"], work)
    shutil.copy(os.path.join(work, "prog"), os.path.join(work, "prog-stripped"))
    run(["strip", "prog-stripped"], work)
    run(["objcopy", "--only-keep-debug", "prog", "prog.debug"], work)
    run(cc + ["-pg", "-c", os.path.join(progs, "threads.c"), "-o",
              "threads.o"], work)
    run(cc + ["-pg", "threads.o", "-o", "threads", "-lpthread"], work)


def write(work, name, data):
    with open(os.path.join(work, name), "wb") as f:
        f.write(data)
    return name


def cases(work):
    s = symbols("prog", work)
    o = symbols("other", work)
    cp = symbols("prog-cp", work)
    work_fn, helper, main, idle = s["work"], s["helper"], s["main"], s["idle"]
    # glibc's histogram: from the start of the executable to etext,
    # rounded up to 4 bytes.
    end = (s["etext"] + 3) & ~3

    def glibc(hz=100):
        return Gmon(0, end, hz)

    # Call sites: a few bytes into the caller; callees: where the
    # prologue calls mcount.
    main_to_work = (main + 20, work_fn + 14)
    work_to_helper = (work_fn + 40, helper + 9)

    def healthy(g):
        return (g.arc(*main_to_work, 1).arc(*work_to_helper, 250000))

    out = []

    # A run long enough: every figure to +/- 1 or 2 %; nothing to fix.
    g = healthy(glibc().sample(work_fn + 30, 20000).sample(helper + 4, 2500)
                .sample(main + 8, 400))
    out.append(Case(
        "healthy", "prog", [write(work, "healthy.gmon", g.gnu())],
        want=["Histogram: 22900 samples taken 100 times a second, 229.00 "
              "seconds of CPU time",
              "Call graph: 250001 calls along 2 arcs",
              "This profile looks written by glibc's runtime",
              "None: the data has none of the problems"],
        absent=["too short", "outside every function", "does not seem",
                "can run threads", "in a loop", "in the PLT"],
        rows=[r"^ +20000 +200\.00 +1\.41 +0\.7  work$",
              r"^ +2500 +25\.00 +0\.50 +2\.0  helper$",
              r"^ +400 +4\.00 +0\.20 +5\.0  main$"],
        summary=summary(0)))

    # A short run: 30 samples in the busiest function, +/- 18 %.
    g = healthy(glibc().sample(work_fn + 30, 30).sample(helper + 4, 3))
    out.append(Case(
        "short run", "prog", [write(work, "short.gmon", g.gnu())],
        want=["The run was too short to measure times: even the busiest "
              "function has fewer than 100 samples",
              "The program ran for 0.33 seconds of CPU time, 33 sampling "
              "periods of 0.01 seconds",
              "Its busiest function, work, has 30 samples, so its time is "
              "known only to +/- 18%",
              "that is 1.0 seconds of its own time at this rate",
              "1 function has fewer than 4 samples"],
        rows=[r"^ +30 +0\.30 +0\.05 +18\.3  work$",
              r"^ +3 +0\.03 +0\.02 +57\.7  helper$"],
        summary=summary(1)))

    # A histogram without a single sample, and no histogram at all.
    g = healthy(glibc())
    out.append(Case(
        "no samples", "prog", [write(work, "empty.gmon", g.gnu())],
        want=["The histogram is empty: not one sample fell in the "
              "program's code",
              "shorter than one sampling period (0.01 seconds)",
              "link the program statically (-static)"],
        absent=["How precise"], summary=summary(1)))
    out.append(Case(
        "no histogram", "prog",
        [write(work, "nohist.gmon", g.gnu(hist=False))],
        want=["Histogram: none.",
              "There is no histogram: the profile has call counts but no "
              "times", "LIBGMON_HZ=0"],
        absent=["How precise"], summary=summary(1)))

    # Only a header: nothing to analyse.
    out.append(Case(
        "empty profile", "prog", [write(work, "hdr.gmon", Gmon(0, end, 100)
                                        .gnu(hist=False))],
        want=["The profile holds neither samples nor call counts",
              "ended normally"],
        absent=["How precise"], summary=summary(1)))

    # Samples below the first function: a third of them.  And one in a
    # thousand, which does not matter.
    g = healthy(glibc().sample(0x10, 500).sample(work_fn + 30, 1000))
    out.append(Case(
        "outside", "prog", [write(work, "outside.gmon", g.gnu())],
        want=["500 samples, 33.3% of all, fell outside every function of "
              "the executable",
              "500 of them lie below the first function, 0 beyond the end "
              "of the last one"],
        absent=["does not seem"], summary=summary(1)))
    g = healthy(glibc().sample(0x10, 1).sample(work_fn + 30, 1000))
    out.append(Case(
        "outside, a few", "prog", [write(work, "outside1.gmon", g.gnu())],
        want=["1 sample (0.10% of all) fell outside every function of the "
              "executable: too few to matter"],
        summary=summary(0)))

    # No call graph: compiled without -pg (a real run), or compiled with
    # it and no call between two profiled functions.
    run(["./prog-nopg", "a", "b", "c"], work, check=False)
    shutil.move(os.path.join(work, "gmon.out"),
                os.path.join(work, "nopg.gmon"))
    out.append(Case(
        "compiled without -pg", "prog-nopg", ["nopg.gmon"],
        want=["There is no call-graph data: the program was linked with "
              "-pg, but its code was compiled without it",
              "compile every source file with -pg too"],
        absent=["compiled with -pg but linked", "does not seem"]))
    # Linked statically: glibc's archive gives mcount only to code that
    # calls it, so the symbols still tell (a real run).
    if run(["gcc", "-pg", "-static", "prog-nopg.o", "-o", "prog-static"],
           work, check=False).returncode == 0:
        run(["./prog-static", "a", "b", "c"], work, check=False)
        shutil.move(os.path.join(work, "gmon.out"),
                    os.path.join(work, "static.gmon"))
        out.append(Case(
            "linked statically, compiled without -pg", "prog-static",
            ["static.gmon"],
            want=["There is no call-graph data: the program was linked with "
                  "-pg, but its code was compiled without it"],
            absent=["compiled with -pg but linked", "does not seem"]))
    # libgmon's archive brings mcount along whatever the code calls: then
    # the symbols cannot tell (a real run, libgmon forced in).
    if os.path.exists(LIBGMON):
        run(["gcc", "prog-nopg.o", "-Wl,--undefined=libgmon_dump", LIBGMON,
             "-lpthread", "-o", "prog-gmon-static"], work)
        run(["./prog-gmon-static", "a", "b", "c"], work, check=False)
        shutil.move(os.path.join(work, "gmon.out"),
                    os.path.join(work, "gmon-static.gmon"))
        out.append(Case(
            "libgmon linked statically, no calls", "prog-gmon-static",
            ["gmon-static.gmon"],
            want=["There is no call-graph data.",
                  "so its symbols cannot tell whether the code was compiled "
                  "with -pg"],
            absent=["compiled with -pg but linked", "although the code",
                    "does not seem"]))
    g = glibc().sample(work_fn + 30, 1000)
    out.append(Case(
        "no calls recorded", "prog", [write(work, "nocalls.gmon", g.gnu())],
        want=["There is no call-graph data, although the code was compiled "
              "with -pg", "-fno-inline"],
        summary=summary(1)))

    # Compiled with -pg, linked without: glibc writes nothing; a profile
    # such as a preloaded libgmon writes (the code segment's range, 1000
    # samples a second) is explained.
    if os.path.exists(os.path.join(work, "gmon.out")):
        os.remove(os.path.join(work, "gmon.out"))
    run(["./prog-cp"], work, check=False)
    code_end = (max(cp["main"] + 0x40, cp.get("_fini", 0) + 9) + 3) & ~3
    g = (Gmon(cp["_init"], code_end, 1000)
         .sample(cp["work"] + 30, 5000)
         .arc(cp["main"] + 20, cp["work"] + 14, 1)
         .arc(cp["work"] + 40, cp["helper"] + 9, 1000))
    out.append(Case(
        "linked without -pg", "prog-cp", [write(work, "cp.gmon", g.gnu())],
        want=["The executable was compiled with -pg but linked without it",
              "with glibc's runtime such a program writes no profile at all",
              "This profile looks written by libgmon (1000 samples a second "
              "is its default rate)",
              "libgmon's timers fire on the kernel's clock tick"],
        absent=["does not seem"], summary=summary(1)))

    # Samples in a function that has no calls although others do.
    g = (glibc().sample(work_fn + 30, 3000).sample(idle + 4, 700)
         .arc(*main_to_work, 1))
    out.append(Case(
        "samples without calls", "prog", [write(work, "idle.gmon", g.gnu())],
        want=["1 function has samples but no recorded calls",
              "thread start routines, signal handlers",
              "If the program ran threads, their start routines are among "
              "the functions listed above"],
        rows=[r"^ +700  idle$"],
        absent=["main is left out, as it is always called from outside. "
                "2 functions"],
        summary=summary(1)))

    # Another program's profile: its histogram ends elsewhere and its
    # arcs point past this program's code (where gprof charges them to
    # the last symbol).
    oend = (o["etext"] + 3) & ~3
    g = (Gmon(0, oend, 100).sample(o["compute"] + 30, 2000)
         .arc(o["main"] + 20, o["compute"] + 14, 1)
         .arc(o["compute"] + 60, oend - 8, 1000))
    out.append(Case(
        "another program's profile", "prog",
        [write(work, "other.gmon", g.gnu())],
        want=["The profile does not seem to belong to this executable",
              f"The histogram ends at 0x{oend:x}, but this executable's code "
              f"ends at 0x{s['etext']:x}",
              "2 of 2 arc records (1001 calls) name addresses where the "
              "executable has no function",
              "run the current executable again"]))
    # A histogram of addresses where this program has no code at all.
    g = healthy(Gmon(0x100000, 0x100400, 100).sample(0x100100, 500))
    out.append(Case(
        "histogram away from the code", "prog",
        [write(work, "away.gmon", g.gnu())],
        want=["The profile does not seem to belong to this executable",
              "The histogram covers addresses 0x100000 to 0x100400, where "
              "the executable has no function at all"],
        absent=["fell outside every function"], summary=summary(1)))
    # Arcs into the middle of functions: another build of one layout.
    g = (glibc().sample(work_fn + 30, 2000)
         .arc(main + 20, work_fn + 100, 1).arc(work_fn + 40, work_fn + 120, 5)
         .arc(work_fn + 50, helper + 9, 7))
    out.append(Case(
        "callees deep inside functions", "prog",
        [write(work, "deep.gmon", g.gnu())],
        want=["The profile does not seem to belong to this executable",
              "2 of 3 arcs lead to addresses deep inside functions"],
        absent=["The histogram ends at", "names an address"]))
    out.append(Case(
        "the right executable", "other", ["other.gmon"],
        absent=["does not seem"]))

    # Bins at their limit: clipped in a BSD file; over half of it in
    # glibc's single record; a libgmon file splitting a bin of 65635
    # over two records; two files adding up beyond 65535 (which -s
    # splits over records as libgmon does: no finding).
    g = healthy(Gmon(0, end, 1000).sample(work_fn + 30, 65535)
                .sample(work_fn + 34, 65535).sample(helper + 4, 100))
    out.append(Case(
        "bins at 65535", "prog", [write(work, "full.bsd", g.bsd44())],
        want=["2 histogram bins hold 65535 samples, the most a bin can hold",
              "libgmon does, writing the BSD format"],
        absent=["more than half", "adds up to more than"],
        summary=summary(1)))
    g = healthy(glibc().sample(work_fn + 30, 40000))
    out.append(Case(
        "bins near the limit", "prog", [write(work, "near.gmon", g.gnu())],
        want=["1 histogram bin holds more than half of the 65535 samples a "
              "bin can hold",
              "starts again from 0, without notice",
              "show 65536 samples (655.36 seconds) less each time"],
        summary=summary(1)))
    g = healthy(Gmon(0, end, 1000).sample(work_fn + 30, 65535)
                .sample(work_fn + 30, 100, record=1))
    out.append(Case(
        "a bin split by libgmon", "prog", [write(work, "split.gmon", g.gnu())],
        want=["This profile looks written by libgmon (the executable is "
              "linked with it, or the histogram is split"],
        absent=["the most a bin can hold", "more than half",
                "adds up to more than"],
        rows=[r"^ +65635 +65\.635 +0\.256 +0\.4  work$"],
        summary=summary(0)))
    g = healthy(glibc().sample(work_fn + 30, 40000))
    out.append(Case(
        "two runs added up", "prog",
        [write(work, "run1.gmon", g.gnu()), write(work, "run2.gmon", g.gnu())],
        want=["Profile data: run1.gmon and 1 more file, added up",
              "1 histogram bin holds more than half"],
        absent=["adds up to more than"],
        rows=[r"^ +80000 +800\.00 +2\.83 +0\.4  work$"],
        summary=summary(1)))

    # What the rate tells about the runtime, and threads.
    g = healthy(Gmon(0, end, 250).sample(work_fn + 30, 20000))
    out.append(Case(
        "unknown runtime", "prog", [write(work, "hz250.gmon", g.gnu())],
        want=["Threads: the profile file has no record of threads",
              "Which runtime wrote the profile cannot be told from it"],
        absent=["looks written by"], summary=summary(0)))

    # Samples in clumps of 4 periods, as libgmon records them: the
    # errors are twice the square-root rule's.
    g = healthy(Gmon(0, end, 1000).sample(work_fn + 30, 10000))
    out.append(Case(
        "clumped samples", "prog",
        [write(work, "clumped.gmon", g.gnu(dispersion=4))],
        want=["each timer signal stood for 4.0 sampling periods on average",
              "varies by about sqrt(4.0 n)"],
        absent=["the errors can then be up to twice"],
        rows=[r"^ +10000 +10\.000 +0\.200 +2\.0  work$"]))

    # A real run with libgmon, found in the executable.
    if os.path.exists(LIBGMON):
        run(["gcc", "-pg", "prog-pg.o", "-o", "prog-gmon", LIBGMON,
             "-lpthread"], work)
        run(["./prog-gmon", "a", "b", "c"], work, check=False)
        shutil.move(os.path.join(work, "gmon.out"),
                    os.path.join(work, "gmon.gmon"))
        out.append(Case(
            "libgmon", "prog-gmon", ["gmon.gmon"],
            want=["This profile looks written by libgmon (the executable is "
                  "linked with it"],
            absent=["does not seem", "linked without"]))

    # No profile file: what the executable tells of its build, and the
    # usual reasons a program built for profiling wrote none.
    causes = ["ends by _exit, by abort, by a crash or by a signal",
              "It changed directory (chdir)",
              "GMON_OUT_PREFIX was set when it ran: the file is then named "
              "PREFIX.PID", "It is still running",
              "glibc's table of calls overflowed"]
    out.append(Case(
        "missing profile", "prog", ["nothere.gmon"],
        want=["The profile file nothere.gmon does not exist",
              "The executable was compiled and linked with -pg (its code "
              "calls ", "run gprof where the file was written, or name the "
              "file: gprof --diagnose prog FILE"] + causes,
        absent=["GMON_OUT_PREFIX is set here", "What the profile holds"],
        summary=summary(1), status=1))
    out.append(Case(
        "missing profiles, one present", "prog",
        ["healthy.gmon", "gone1.gmon", "gone2.gmon"],
        want=["The profile files gone1.gmon, gone2.gmon do not exist"],
        absent=["healthy.gmon"], summary=summary(1), status=1))
    out.append(Case(
        "missing gmon.out, built without -pg", "prog-plain", [],
        want=["The profile file gmon.out does not exist",
              "The executable was not built for profiling",
              "compile and link the program with -pg"],
        absent=["usual reasons"], summary=summary(1), status=1))
    # prog-cp ran above and wrote nothing (main checks that).
    out.append(Case(
        "missing gmon.out, linked without -pg", "prog-cp", [],
        want=["The profile file gmon.out does not exist",
              "compiled with -pg (its code calls ", "but linked without it",
              "LD_PRELOAD=libgmon.so"],
        absent=["usual reasons"], summary=summary(1), status=1))
    # A real run that named its profile after GMON_OUT_PREFIX.
    prefix = {"GMON_OUT_PREFIX": "pfx"}
    run(["./prog", "a"], work, check=False, env=prefix)
    if any(f.startswith("pfx.") for f in os.listdir(work)):
        out.append(Case(
            "missing gmon.out, GMON_OUT_PREFIX", "prog", [],
            want=["The profile file gmon.out does not exist",
                  "GMON_OUT_PREFIX is set here, to pfx: look for files "
                  "named pfx.PID"] + causes,
            summary=summary(1), status=1, env=prefix))

    # A stripped executable: where its symbols may be.  The debug file
    # objcopy keeps serves in its place, as the advice says.
    bid = build_id("prog-stripped", work)
    where = ([f"Its build ID is {bid}",
              f"/usr/lib/debug/.build-id/{bid[:2]}/{bid[2:]}.debug",
              f"gprof --diagnose /usr/lib/debug/.build-id/{bid[:2]}/"
              f"{bid[2:]}.debug healthy.gmon"]
             if bid else ["It has no build ID"])
    out.append(Case(
        "stripped", "prog-stripped", ["healthy.gmon"],
        want=["The executable prog-stripped has no symbol table: it was "
              "stripped", "objcopy --only-keep-debug prog prog.debug"] + where,
        absent=["What the profile holds"], summary=summary(1), status=1))
    out.append(Case(
        "stripped, no profile", "prog-stripped", ["nothere.gmon"],
        want=["The profile file nothere.gmon does not exist",
              "it cannot tell whether it was built for profiling",
              "has no symbol table: it was stripped"] + causes,
        summary=summary(2), status=1))
    out.append(Case(
        "the debug file in its place", "prog.debug", ["healthy.gmon"],
        want=["None: the data has none of the problems"],
        rows=[r"^ +20000 +200\.00 +1\.41 +0\.7  work$"],
        summary=summary(0)))

    # Files of different rates cannot be added up (gprof alone refuses
    # them: testsuite/robust).  Same ranges, GNU and 4.4BSD.
    g100 = healthy(glibc(100).sample(work_fn + 30, 2000))
    g1000 = healthy(glibc(1000).sample(work_fn + 30, 20000))
    for kind, ext, data in (("GNU", "gmon", lambda g: g.gnu()),
                            ("4.4BSD", "bsd", lambda g: g.bsd44())):
        a = write(work, f"r100.{ext}", data(g100))
        b = write(work, f"r1000.{ext}", data(g1000))
        out.append(Case(
            f"different rates, {kind}", "prog", [a, b, a],
            want=[f"{a} and {b} were sampled at different rates, 100 and "
                  "1000 samples a second: gprof cannot add them up",
                  "100 samples a second is the rate of glibc's runtime",
                  f"analyse each file on its own (gprof prog {a}, then "
                  f"gprof prog {b})", "LIBGMON_HZ"],
            absent=["bins of different sizes"],
            summary=summary(1), status=1))
    # Real runs of one program under glibc's runtime and under a preloaded
    # libgmon: other rates, and even at one rate other histograms.
    if os.path.exists(LIBGMON_SO):
        real_run(work, ["./prog", "a", "b"], "glibc-run.gmon")
        real_run(work, ["./prog", "a", "b"], "libgmon-run.gmon",
                 env={"LD_PRELOAD": LIBGMON_SO})
        real_run(work, ["./prog", "a", "b"], "libgmon100-run.gmon",
                 env={"LD_PRELOAD": LIBGMON_SO, "LIBGMON_HZ": "100"})
        out.append(Case(
            "glibc's and libgmon's runs", "prog",
            ["glibc-run.gmon", "libgmon-run.gmon"],
            want=["glibc-run.gmon and libgmon-run.gmon were sampled at "
                  "different rates, 100 and 1000 samples a second"],
            summary=summary(1), status=1))
        out.append(Case(
            "glibc's and libgmon's runs at one rate", "prog",
            ["glibc-run.gmon", "libgmon100-run.gmon"],
            want=["glibc-run.gmon and libgmon100-run.gmon divide the code "
                  "into histogram bins of different sizes",
                  "Their histograms: glibc-run.gmon from 0x",
                  "cannot be added up even at one rate"],
            absent=["different rates"], summary=summary(1), status=1))

    # A threaded program profiled by glibc's runtime (a real run), and by
    # libgmon.
    real_run(work, ["./threads"], "threads.gmon")
    out.append(Case(
        "threads under glibc", "threads", ["threads.gmon"],
        want=["The program can run threads (it calls pthread_create), and "
              "the profile looks written by glibc's runtime",
              "half of the calls or more can be missing",
              "one process-wide timer samples whichever thread is running",
              "link with it (gcc -pg -o prog *.c -lgmon)",
              "LD_PRELOAD=libgmon.so"],
        absent=["If the program ran several threads"]))
    if os.path.exists(LIBGMON):
        run(["gcc", "-pg", "threads.o", "-o", "threads-gmon", LIBGMON,
             "-lpthread"], work)
        real_run(work, ["./threads-gmon"], "threads-gmon.gmon")
        out.append(Case(
            "threads under libgmon", "threads-gmon", ["threads-gmon.gmon"],
            want=["This profile looks written by libgmon"],
            absent=["can run threads"]))

    # A cycle holding all the time: main -> work -> helper -> idle ->
    # work.  -k on the arc it names breaks it.  A small cycle (helper and
    # idle, a fifth of the time) is no finding.
    g = (glibc().sample(work_fn + 30, 3000).sample(helper + 4, 1000)
         .sample(idle + 4, 1000).arc(*main_to_work, 1)
         .arc(*work_to_helper, 5000).arc(helper + 5, idle + 9, 300)
         .arc(idle + 5, work_fn + 14, 200))
    write(work, "cycle.gmon", g.gnu())
    out.append(Case(
        "a cycle with most of the time", "prog", ["cycle.gmon"],
        want=["Cycle 1 (3 functions that call each other in a loop) takes "
              "100% of the time", "work", "helper", "idle",
              "<cycle 1 as a whole>", "the call graph's times are "
              "unreliable", "each one's self time is measured",
              "the arc with the fewest calls is idle -> work (200 calls): "
              "-k idle/work"],
        summary=summary(1)))
    out.append(Case(
        "the cycle broken by -k", "prog", ["cycle.gmon"],
        args=["-k", "idle/work"], absent=["in a loop"], summary=summary(0)))
    g = (glibc().sample(work_fn + 30, 8000).sample(helper + 4, 1000)
         .sample(idle + 4, 1000).arc(*main_to_work, 1)
         .arc(*work_to_helper, 5000).arc(helper + 5, idle + 9, 300)
         .arc(idle + 5, helper + 9, 100))
    out.append(Case(
        "a small cycle", "prog", [write(work, "cycle2.gmon", g.gnu())],
        absent=["in a loop"], summary=summary(0)))

    # helper's time shared by calls between main (600 calls) and work
    # (400): the arc from main gets 60% of helper's 8000 samples, 53% of
    # the total, which no stack measured.  With 500 calls each, no arc
    # holds most of the time.
    main_to_helper = (main + 24, helper + 9)
    g = (glibc().sample(work_fn + 30, 1000).sample(helper + 4, 8000)
         .arc(*main_to_work, 1).arc(*main_to_helper, 600)
         .arc(*work_to_helper, 400))
    out.append(Case(
        "an arc with most of the time by the rule", "prog",
        [write(work, "shared.gmon", g.gnu())],
        want=["The call graph gives 53% of the time to the calls from main "
              "to helper, by gprof's rule alone",
              "helper has other callers too",
              "600 of 1000 from main",
              "profile with libgmon (link with -lgmon"],
        summary=summary(1)))
    g = (glibc().sample(work_fn + 30, 1000).sample(helper + 4, 8000)
         .arc(*main_to_work, 1).arc(*main_to_helper, 500)
         .arc(*work_to_helper, 500))
    out.append(Case(
        "no arc with most of the time", "prog",
        [write(work, "shared2.gmon", g.gnu())],
        absent=["by gprof's rule alone"], summary=summary(0)))

    # A real run with libgmon's call stacks: easy() and hard() call
    # work() equally often, hard's calls do the work.  The stacks measure
    # the arcs; without them, the arc that the rule gives most of work's
    # time is a finding that says where the stacks went.  The count of
    # findings is not judged: on a loaded machine a late timer signal
    # can put a few samples in the threads' start routine, run_mode,
    # which then is a function with samples and no calls.
    if os.path.exists(LIBGMON):
        run(["gcc", "-O2", "-pg", "-fno-optimize-sibling-calls", "-pthread",
             os.path.join(HERE, "..", "measured", "progs.c"), "-o",
             "easyhard", LIBGMON], work)
        real_run(work, ["./easyhard", "easyhard", "0.5"], "easyhard.gmon")
        shutil.move(os.path.join(work, "gmon.out.stacks"),
                    os.path.join(work, "easyhard.gmon.stacks"))
        shutil.copy(os.path.join(work, "easyhard.gmon"),
                    os.path.join(work, "nostacks.gmon"))
        out.append(Case(
            "libgmon's call stacks", "easyhard", ["easyhard.gmon"],
            want=["the call stacks beside the profile cover",
                  "gprof --measured-time prints the call graph"],
            absent=["by gprof's rule alone",
                    "only a function's own (self) time is measured"]))
        out.append(Case(
            "libgmon without its call stacks", "easyhard", ["nostacks.gmon"],
            want=["of the time to the calls from",
                  "to work, by gprof's rule alone",
                  "libgmon records the call stack of every sample in a file "
                  "beside the profile", "LIBGMON_STACKS=0",
                  "only a function's own (self) time is measured"]))

    # Samples in the PLT, which lies between .init and .text: gprof
    # credits them to _init, which must not be taken for a function
    # without -pg.
    secs = sections("prog", work)
    plt = [n for n in secs if n in (".plt", ".plt.sec", ".plt.got")
           and secs[n][1] > 0]
    if plt and "_init" in s:
        g = healthy(glibc().sample(work_fn + 30, 1000))
        for n in plt:
            g.sample(secs[n][0], 300)
        out.append(Case(
            "samples in the PLT", "prog", [write(work, "plt.gmon", g.gnu())],
            want=[f"{300 * len(plt)} samples", f"fell in the PLT "
                  f"({', '.join(plt)}), and gprof credits them to _init",
                  "_init did not run that long, and it is not a function "
                  "compiled without -pg",
                  "The time spent inside the shared libraries is not in the "
                  "profile at all", "link the program statically (gcc -pg "
                  "-static)", "neither glibc's runtime nor libgmon profiles "
                  "shared libraries"],
            absent=["samples but no recorded calls",
                    "compile these functions with -pg",
                    "outside every function"],
            summary=summary(1)))
        g = healthy(glibc().sample(work_fn + 30, 10000)
                    .sample(secs[plt[0]][0], 2))
        out.append(Case(
            "a few samples in the PLT", "prog",
            [write(work, "plt2.gmon", g.gnu())],
            want=[f"2 samples (0.02% of all) fell in the PLT ({plt[0]}), the "
                  "stubs through which the program calls shared libraries: "
                  "too few to matter",
                  "gprof credits them to _init"],
            absent=["samples but no recorded calls"], summary=summary(0)))

    # A modules file beside the profile (testsuite/fixtures/mkmodules.py):
    # where the time went, module by module; when most of it went into
    # shared libraries, --whole-process rather than "run longer"; and the
    # PLT's samples read as calls into them.
    def with_modules(name, data, lib_samples):
        write(work, name, data)
        mods = [Module(os.path.join(work, "prog"), 0, end),
                Module("/usr/lib/libm.so.6", 0x10000, 0x90000),
                Module("/usr/lib/libz.so.1", 0x2000, 0x12000)]
        bins = [(1, 0x10000 + 4 * i, lib_samples // 4) for i in range(3)]
        bins += [(2, 0x3000, lib_samples - 3 * (lib_samples // 4))]
        write(work, name + ".modules",
              modules_file(profile_hash(data), mods, bins))
        return name

    g = healthy(glibc().sample(work_fn + 30, 30).sample(helper + 4, 3))
    out.append(Case(
        "most time in shared libraries", "prog",
        [with_modules("libs.gmon", g.gnu(), 1000)],
        want=["of 1033 samples, 3.2% fell in the program's own code, 96.8% "
              "in 2 other modules",
              "750 72.6% libm.so.6", "250 24.2% libz.so.1", "33 3.2% prog",
              "Most of the time, 96.8%, went outside the program's own code",
              "run gprof --whole-process"],
        absent=["The run was too short", "run the program longer"],
        summary=summary(1)))
    if plt and "_init" in s:
        g = healthy(glibc().sample(work_fn + 30, 1000))
        for n in plt:
            g.sample(secs[n][0], 300)
        out.append(Case(
            "PLT samples with modules", "prog",
            [with_modules("pltmod.gmon", g.gnu(), 400)],
            want=["fell in the PLT", "_init did not run that long",
                  "read these samples as time in calls to shared libraries; "
                  "gprof --whole-process shows the time inside the "
                  "libraries too"],
            absent=["compile these functions with -pg", "link the program "
                    "statically", "run the program longer"],
            summary=summary(1)))

    # Standard input and a FIFO are read once: their records are examined
    # as they are read (a second opening would wait for a writer forever).
    write(work, "limit.gmon",
          healthy(Gmon(0, end, 1000).sample(work_fn + 30, 65535)).gnu())
    out.append(Case(
        "standard input", "prog", ["-"],
        want=["1 histogram bin holds 65535 samples"],
        args=["<limit.gmon"], summary=summary(1)))
    out.append(Case(
        "a FIFO", "prog", ["fifo.gmon"],
        want=["1 histogram bin holds 65535 samples"],
        args=["|limit.gmon"], summary=summary(1)))
    return out


def feed_fifo(path, data):
    """Write DATA into the FIFO PATH once, from another process."""
    os.mkfifo(path)
    pid = os.fork()
    if pid == 0:
        try:
            with open(path, "wb") as f:
                f.write(data)
        finally:
            os._exit(0)
    return pid


def check(case, work):
    stdin = None
    writer = None
    args = []
    for a in case.args:
        if a.startswith("<"):
            stdin = open(os.path.join(work, a[1:]), "rb")
        elif a.startswith("|"):
            with open(os.path.join(work, a[1:]), "rb") as f:
                writer = feed_fifo(os.path.join(work, case.files[0]), f.read())
        else:
            args.append(a)
    try:
        r = subprocess.run([GPROF, "--diagnose"] + args + [case.exe]
                           + case.files, cwd=work, env=dict(ENV, **case.env),
                           stdin=stdin,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=60)
    except subprocess.TimeoutExpired:
        return ["timed out (did it open the file twice?)"], ""
    finally:
        if stdin:
            stdin.close()
        if writer:
            os.kill(writer, 9)
            os.waitpid(writer, 0)
    text = r.stdout.decode()
    folded = flat(text)
    problems = []
    if r.returncode != case.status or r.stderr:
        problems.append(f"exit {r.returncode} (not {case.status}), stderr "
                        f"{r.stderr.decode()!r}")
    for phrase in case.want:
        if phrase not in folded:
            problems.append(f"missing: {phrase}")
    for phrase in case.absent:
        if phrase in folded:
            problems.append(f"unexpected: {phrase}")
    for row in case.rows:
        if not re.search(row, text, re.MULTILINE):
            problems.append(f"no line matching: {row}")
    if case.summary and case.summary not in text.splitlines():
        problems.append(f"missing line: {case.summary}")
    return problems, text


def main():
    tools = ("gcc", "nm", "objdump", "readelf", "objcopy", "strip")
    if not all(shutil.which(t) for t in tools):
        print(f"one of {', '.join(tools)} missing: skipped")
        return 77
    if not os.access(GPROF, os.X_OK):
        print(f"{GPROF} not found")
        return 99
    work = tempfile.mkdtemp(prefix="diagnose.")
    try:
        build(work)
        passed = failed = 0
        all_cases = cases(work)
        # glibc's runtime writes no profile for a program linked without
        # -pg: what the diagnosis says about such a program.
        if os.path.exists(os.path.join(work, "gmon.out")):
            print("FAIL prog-cp wrote gmon.out: linked without -pg, it "
                  "should not have")
            failed += 1
        for case in all_cases:
            problems, text = check(case, work)
            if problems:
                failed += 1
                print(f"FAIL {case.name}")
                for p in problems:
                    print(f"  {p}")
                print("  output:\n    " + "\n    ".join(text.splitlines()))
            else:
                passed += 1
                print(f"ok {case.name}")
        print(f"{passed} passed, {failed} failed")
        return 1 if failed else 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
