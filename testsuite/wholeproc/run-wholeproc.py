#!/usr/bin/env python3
"""run-wholeproc.py - gprof --whole-process on profiles whose modules
file (gmon.out.modules) the test writes itself.

The program is real: prog.c built with -pg against libx.so (libx.c,
-pg -fPIC); the same library is also copied as libx2.so (recorded with
another build-id) and as mods/liby.so (recorded under a path that does
not exist, found by --module-dir).  The profile and its modules file
are written here from the addresses nm gives, with known counts
(testsuite/fixtures/mkmodules.py), so every figure of the report is
known: each library function must be named "f [libx.so]" and show
exactly the samples and calls written, a missing module and a changed
one their warning and their own bucket.  Then damaged modules files:
cut at every byte, huge counts, bad magic or version, bins and arcs
outside their module, another profile's file; and the default report,
which must not change when a modules file is beside the profile.

Runs from the top build directory; GPROF names the gprof to test
(default ./gprof).  Prints "ok CASE" or "FAIL CASE" with the reason,
then "N passed, M failed".  Exit status 0, 1 on a failure, 77 without
gcc, 99 when the test cannot run.
"""

import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "fixtures"))
from mkmodules import Module, leb, modules_file, profile_hash  # noqa: E402

GPROF = os.path.abspath(os.environ.get("GPROF", "gprof"))
ENV = dict(os.environ, LC_ALL="C", LANG="C")
ENV.pop("LANGUAGE", None)
HZ = 100

failures = []
passes = [0]


def run(cmd, cwd, check=True):
    r = subprocess.run(cmd, cwd=cwd, env=ENV, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    if check and r.returncode != 0:
        sys.stderr.write(f"{' '.join(cmd)} failed:\n{r.stderr.decode()}")
        sys.exit(99)
    return r


def result(name, problems, detail=""):
    if problems:
        failures.append(name)
        print(f"FAIL {name}")
        for p in problems:
            print(f"  {p}")
        if detail:
            print("  output:\n    " + "\n    ".join(detail.splitlines()))
    else:
        passes[0] += 1
        print(f"ok {name}")


def symbols(obj, cwd):
    """Name -> (address, size) of OBJ's defined functions."""
    out = run(["nm", "-S", obj], cwd).stdout.decode()
    syms = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[2] in "tT":
            syms[parts[3]] = (int(parts[0], 16), int(parts[1], 16))
    return syms


def text_range(obj, cwd):
    out = run(["objdump", "-h", obj], cwd).stdout.decode()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 4 and parts[1] == ".text":
            addr, size = int(parts[3], 16), int(parts[2], 16)
            return addr, addr + size
    sys.exit(99)


def build_id(obj, cwd):
    out = run(["readelf", "-n", obj], cwd).stdout.decode()
    m = re.search(r"Build ID: ([0-9a-f]+)", out)
    return bytes.fromhex(m.group(1)) if m else b""


def gmon(low, high, samples):
    """A GNU profile of 4-byte bins over [LOW, HIGH) with SAMPLES
    (address -> count), no arcs."""
    nbins = (high - low) // 4
    bins = [0] * nbins
    for addr, count in samples.items():
        bins[(addr - low) // 4] += count
    return (b"gmon" + struct.pack("<I", 1) + bytes(12)
            + struct.pack("<BQQII", 0, low, high, nbins, HZ)
            + b"seconds".ljust(15, b"\0") + b"s"
            + b"".join(struct.pack("<H", b) for b in bins))


def build(work):
    cc = ["gcc", "-O0", "-fno-inline", "-pg"]
    run(cc + ["-fPIC", "-shared", os.path.join(HERE, "libx.c"), "-o",
              "libx.so"], work)
    run(cc + [os.path.join(HERE, "prog.c"), "-o", "prog", "./libx.so"], work)
    shutil.copy(os.path.join(work, "libx.so"), os.path.join(work, "libx2.so"))
    os.mkdir(os.path.join(work, "mods"))
    shutil.copy(os.path.join(work, "libx.so"),
                os.path.join(work, "mods", "liby.so"))


class Setup:
    """The profile, its modules and the counts the report must show."""

    def __init__(self, work):
        self.work = work
        p, x = symbols("prog", work), symbols("libx.so", work)
        plo, phi = text_range("prog", work)
        xlo, xhi = text_range("libx.so", work)
        self.p, self.x = p, x

        def site(syms, name):
            """A call site in the middle of NAME."""
            return syms[name][0] + syms[name][1] // 2

        def entry(syms, name):
            return syms[name][0] + 8

        lib = os.path.join(work, "libx.so")
        self.modules = [
            Module(os.path.join(work, "prog"), plo, phi,
                   build_id("prog", work)),
            Module(lib, xlo, xhi, build_id("libx.so", work), base=0x7f0000000000),
            Module("/nonexistent/libgone.so.1", 0x1000, 0x2000, b"\x12\x34",
                   base=0x7f1000000000),
            Module(os.path.join(work, "libx2.so"), xlo, xhi, b"\xde\xad\xbe\xef",
                   base=0x7f2000000000, flags=1, loads=2),
            Module("/nonexistent/dir/liby.so", xlo, xhi,
                   build_id("libx.so", work), base=0x7f3000000000),
        ]
        self.bins = [(1, x["xg"][0] + 4, 60), (1, x["xf"][0] + 4, 30),
                     (1, x["hidden"][0] + 4, 20), (2, 0x1800, 5),
                     (3, x["xg"][0] + 4, 7), (4, x["xf"][0] + 4, 9)]
        self.arcs = [((0, site(p, "main")), (1, entry(x, "xf")), 7),
                     ((1, site(x, "xf")), (1, entry(x, "xg")), 7),
                     ((1, site(x, "xg")), (0, entry(p, "cb")), 70),
                     ((1, site(x, "xg") + 2), (1, entry(x, "hidden")), 70),
                     ((0, site(p, "main") + 2), (4, entry(x, "xf")), 3)]
        self.profile = gmon(0, (phi + 3) & ~3, {p["main"][0] + 4: 10})
        self.hash = profile_hash(self.profile)

    def write(self, name, modules_bytes):
        with open(os.path.join(self.work, name), "wb") as f:
            f.write(self.profile)
        if modules_bytes is not None:
            with open(os.path.join(self.work, name + ".modules"), "wb") as f:
                f.write(modules_bytes)
        return name

    def good(self):
        return modules_file(self.hash, self.modules, self.bins, self.arcs)


def gprof(work, args):
    return run([GPROF] + args, work, check=False)


def flat_rows(text):
    """The flat profile's lines."""
    return text.split("\f")[0].splitlines() if text else []


def test_report(s, work):
    s.write("gmon.out", s.good())
    r = gprof(work, ["--whole-process", "--module-dir=mods", "prog",
                     "gmon.out"])
    out, err = r.stdout.decode(), r.stderr.decode()
    problems = []
    if r.returncode != 0:
        problems.append(f"exit {r.returncode}")
    # 141 samples: 10 + 60 + 30 + 20 + 5 + 7 + 9.
    rows = [r"^ +42\.55 +0\.60 +0\.60 +7 +\S+ +\S+ +xg \[libx\.so\]$",
            r"^ +21\.28 +[\d.]+ +0\.30 +7 +\S+ +\S+ +xf \[libx\.so\]$",
            r"^ +14\.18 +[\d.]+ +0\.20 +70 +\S+ +\S+ +hidden \[libx\.so\]$",
            r"^ +7\.09 +[\d.]+ +0\.10 +\S* *main$",
            r"^ +6\.38 +[\d.]+ +0\.09 +3 +\S+ +\S+ +xf \[liby\.so\]$",
            r"^ +4\.96 +[\d.]+ +0\.07 +\[libx2\.so\]$",
            r"^ +3\.55 +[\d.]+ +0\.05 +\[libgone\.so\.1\]$",
            r"^ +0\.00 +[\d.]+ +0\.00 +70 +\S+ +\S+ +cb$"]
    flat = "\n".join(flat_rows(out))
    for row in rows:
        if not re.search(row, flat, re.MULTILINE):
            problems.append(f"no flat-profile row matching {row}")
    graph = out.split("\f")[1] if "\f" in out else ""
    for line in [r"^ +\S+ +\S+ +7/7 +main \[\d+\]$",
                 r"^ +\S+ +\S+ +7/7 +xf \[libx\.so\] \[\d+\]$",
                 r"^ +\S+ +\S+ +70/70 +cb \[\d+\]$",
                 r"^ +\S+ +\S+ +70/70 +hidden \[libx\.so\] \[\d+\]$",
                 r"^ +\S+ +\S+ +3/3 +xf \[liby\.so\] \[\d+\]$"]:
        if not re.search(line, graph, re.MULTILINE):
            problems.append(f"no call-graph line matching {line}")
    for phrase in ["/nonexistent/libgone.so.1: no such module",
                   "libx2.so: not the file the profile was taken with"]:
        if phrase not in err:
            problems.append(f"missing warning: {phrase}")
    if err.count("\n") != 2:
        problems.append(f"not exactly two warnings: {err!r}")
    result("whole-process report", problems, out + err)

    # Without --module-dir, liby.so is missing too.
    r = gprof(work, ["--whole-process", "-p", "prog", "gmon.out"])
    out, err = r.stdout.decode(), r.stderr.decode()
    problems = []
    if "/nonexistent/dir/liby.so: no such module" not in err:
        problems.append("no warning for liby.so")
    if not re.search(r"0\.09 +3 +\S+ +\S+ +\[liby\.so\]$", out, re.MULTILINE):
        problems.append("liby.so's samples not in its bucket")
    result("missing module without --module-dir", problems, out + err)


def test_stripped(s, work):
    """A library stripped to its dynamic symbols: the samples of its
    static functions are not charged to an exported function: they are
    the module's unnamed code, "[libs.so]" before the first exported
    one (hidden), "0xADDR [libs.so]" past one's end (after, past xf);
    the exported ones keep exactly theirs."""
    run(["strip", "--strip-all", "-o", "libs.so", "libx.so"], work)
    x = s.x
    lib = os.path.join(work, "libs.so")
    xlo, xhi = text_range("libx.so", work)
    modules = s.modules[:1] + [Module(lib, xlo, xhi, build_id("libs.so", work),
                                      base=0x7f5000000000)]
    bins = [(1, x["hidden"][0] + 4, 20), (1, x["xg"][0] + 4, 60),
            (1, x["xf"][0] + 4, 30), (1, x["after"][0] + 4, 40)]
    s.write("stripped.out", modules_file(s.hash, modules, bins, []))
    r = gprof(work, ["--whole-process", "-p", "-b", "prog", "stripped.out"])
    out, err = r.stdout.decode(), r.stderr.decode()
    problems = []
    if r.returncode != 0 or err:
        problems.append(f"exit {r.returncode}: {err!r}")
    for row in [r"^ +\S+ +\S+ +0\.60 +xg \[libs\.so\]$",
                r"^ +\S+ +\S+ +0\.30 +xf \[libs\.so\]$",
                r"^ +\S+ +\S+ +0\.20 +\[libs\.so\]$",
                r"^ +\S+ +\S+ +0\.40 +0x[0-9a-f]+ \[libs\.so\]$"]:
        if not re.search(row, out, re.MULTILINE):
            problems.append(f"no flat-profile row matching {row}")
    result("a library stripped to its dynamic symbols", problems, out + err)


def test_fifo(s, work):
    """A module path naming a FIFO is not opened (it would wait for a
    writer): the module is missing, its samples in its own bucket."""
    fifo = os.path.join(work, "libfifo.so")
    os.mkfifo(fifo)
    modules = s.modules[:2] + [Module(fifo, 0x1000, 0x2000, b"",
                                      base=0x7f4000000000)]
    s.write("fifo.out", modules_file(s.hash, modules, [(2, 0x1800, 5)], []))
    problems = []
    try:
        r = subprocess.run([GPROF, "--whole-process", "-p", "prog", "fifo.out"],
                           cwd=work, env=ENV, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=60)
        out, err = r.stdout.decode(), r.stderr.decode()
        if r.returncode != 0:
            problems.append(f"exit {r.returncode}")
        if "libfifo.so: no such module" not in err:
            problems.append(f"no warning for the FIFO: {err!r}")
        if not re.search(r"0\.05 +\[libfifo\.so\]$", out, re.MULTILINE):
            problems.append("the FIFO module's samples not in its bucket")
    except subprocess.TimeoutExpired:
        problems.append("gprof waited on the FIFO")
        out = err = ""
    os.unlink(fifo)
    result("a module path naming a FIFO", problems, out + err)


def test_exports(s, work):
    s.write("gmon.out", s.good())
    base = ["--whole-process", "--module-dir=mods"]
    problems = []
    r = gprof(work, base + ["--export=json", "prog", "gmon.out"])
    flat = {f["name"]: f for f in json.loads(r.stdout)["flat_profile"]}
    xg = flat.get("xg [libx.so]", {})
    if (xg.get("module") != "libx.so" or xg.get("calls") != 7
            or abs(xg.get("self", 0) - 0.60) > 1e-9
            or xg.get("address") != hex(s.x["xg"][0])):
        problems.append(f"json: xg is {xg}")
    if flat.get("main", {}).get("module") != "prog":
        problems.append("json: main's module is not prog")
    if flat.get("[libgone.so.1]", {}).get("module") != "libgone.so.1":
        problems.append("json: no [libgone.so.1] in its module")
    result("json export", problems)

    r = gprof(work, base + ["--export=callgrind", "prog", "gmon.out"])
    text = r.stdout.decode()
    lib = os.path.join(work, "libx.so")
    problems = [f"callgrind: no {w!r}" for w in
                [f"ob={lib}\n", "cob=prog\ncfn=", f"cob={lib}\ncfn=(",
                 "fn=(3) xf [libx.so]"]
                if w not in text]
    if text.count(f"ob={lib}\n") - text.count(f"cob={lib}\n") != 1:
        problems.append("callgrind: libx.so's functions not under one ob=")
    result("callgrind export", problems, text)

    r = gprof(work, base + ["--export=html", "prog", "gmon.out"])
    result("html export",
           [] if '"name":"xg [libx.so]","module":"libx.so"' in r.stdout.decode()
           else ["html: xg without its module"])

    if not shutil.which("go"):
        print("go missing: pprof export not checked")
        return
    r = gprof(work, base + ["--export=pprof", "prog", "gmon.out"])
    with open(os.path.join(work, "p.pb.gz"), "wb") as f:
        f.write(r.stdout)
    raw = run(["go", "tool", "pprof", "-raw", "p.pb.gz"], work,
              check=False).stdout.decode()
    maps = dict(re.findall(r"^(\d+): 0x[0-9a-f]+/0x[0-9a-f]+/0x0 (\S+)",
                           raw, re.MULTILINE))
    ids = {v: k for k, v in maps.items()}
    problems = []
    bid = s.modules[1].build_id.hex()
    if not re.search(rf"^\d+: 0x7f[0-9a-f]+/0x[0-9a-f]+/0x0 {re.escape(lib)} "
                     rf"{bid} ", raw, re.MULTILINE):
        problems.append("pprof: no mapping of libx.so with its build-id")
    xg_addr = 0x7f0000000000 + s.x["xg"][0]
    if not re.search(rf"^ +\d+: {xg_addr:#x} M={ids.get(lib)} xg \[libx\.so\]",
                     raw, re.MULTILINE):
        problems.append("pprof: xg not at its address in libx.so's mapping")
    result("pprof export", problems, raw)


def test_default_unchanged(s, work):
    """The report without --whole-process is the same with a modules
    file beside the profile as without one, and GNU gprof's (whose
    explanations are other words: -b)."""
    s.write("plain.out", None)
    s.write("beside.out", s.good())
    a = gprof(work, ["prog", "plain.out"])
    b = gprof(work, ["prog", "beside.out"])
    problems = []
    if a.stdout != b.stdout or b.stderr:
        problems.append("the default report changed with a modules file")
    gnu = shutil.which("gprof", path="/usr/bin")
    if gnu:
        g = run([gnu, "-b", "prog", "beside.out"], work, check=False)
        ours = gprof(work, ["-b", "prog", "beside.out"])
        if g.stdout != ours.stdout:
            problems.append("not GNU gprof's report")
    result("default report unchanged", problems)


def expect_damaged(s, work, name, data, why):
    s.write("bad.out", data)
    r = gprof(work, ["--whole-process", "prog", "bad.out"])
    err = r.stderr.decode()
    problems = []
    if r.returncode != 1:
        problems.append(f"exit {r.returncode}, not 1")
    if "bad.out.modules" not in err or (why and why not in err):
        problems.append(f"message {err!r} does not name the file and {why!r}")
    if r.returncode < 0 or "Sanitizer" in err:
        problems.append("crashed")
    return problems


def test_damaged(s, work):
    good = s.good()
    problems = []
    # Cut at every byte: every prefix is damaged, none crashes.
    for n in range(len(good)):
        p = expect_damaged(s, work, "cut", good[:n], "")
        if p:
            problems.append(f"cut at {n}: {p}")
            break
    result(f"cut at every byte ({len(good)})", problems)

    h = s.hash
    m = s.modules
    cases = [
        ("bad magic", modules_file(h, m, s.bins, s.arcs, magic=b"gmoe"),
         "bad magic cookie"),
        ("bad version", modules_file(h, m, s.bins, s.arcs, version=2),
         "unsupported version"),
        ("huge module count", b"gmod" + leb(1) + leb(h) + leb(1 << 60),
         "more modules"),
        ("huge bin count", modules_file(h, m[:2])[:-2] + leb(1 << 62),
         "more bins"),
        ("huge arc count", modules_file(h, m[:2])[:-1] + leb(1 << 62),
         "more arcs"),
        ("huge string", b"gmod" + leb(1) + leb(h) + leb(1) + bytes(5)
         + leb(1 << 40) + bytes(8), "a string longer"),
        ("bin outside its module",
         modules_file(h, m, [(1, m[1].hi, 1)]), "a bin outside"),
        ("bin of module 0", modules_file(h, m, [(0, m[0].lo, 1)]),
         "a bin of the program"),
        ("module index past the last",
         modules_file(h, m, [(len(m), 0x1000, 1)]), "a module index past"),
        ("arc outside its module",
         modules_file(h, m, (), [((1, m[1].hi + 1), (0, m[0].lo), 1)]),
         "an arc outside"),
        ("arc within module 0",
         modules_file(h, m, (), [((0, m[0].lo), (0, m[0].lo), 1)]),
         "an arc of the program"),
        ("bins out of order",
         modules_file(h, m, [(2, 0x1800, 1), (1, m[1].lo, 1)], sort=False),
         "out of the order"),
        ("code range upside down",
         modules_file(h, [m[0], Module("/x", 0x2000, 0x1000)]),
         "code range"),
        ("trailing bytes", good + b"\0", "bytes after"),
        ("number too long", b"gmod" + b"\x81" * 11, "number too long"),
    ]
    for name, data, why in cases:
        result(f"damaged: {name}", expect_damaged(s, work, name, data, why))

    # Another run's file: one warning, then the program alone.
    s.write("other.out", modules_file(h ^ 1, m, s.bins, s.arcs))
    r = gprof(work, ["--whole-process", "-p", "prog", "other.out"])
    err = r.stderr.decode()
    problems = []
    if r.returncode != 0 or "not the modules of other.out" not in err:
        problems.append(f"exit {r.returncode}, stderr {err!r}")
    if "[libx.so]" in r.stdout.decode():
        problems.append("another run's modules were used")
    result("another profile's modules file", problems)


def main():
    tools = ("gcc", "nm", "objdump", "readelf")
    if not all(shutil.which(t) for t in tools):
        print(f"one of {', '.join(tools)} missing: skipped")
        return 77
    if not os.access(GPROF, os.X_OK):
        print(f"{GPROF} not found")
        return 99
    work = tempfile.mkdtemp(prefix="wholeproc.")
    try:
        build(work)
        s = Setup(work)
        test_report(s, work)
        test_fifo(s, work)
        test_stripped(s, work)
        test_exports(s, work)
        test_default_unchanged(s, work)
        test_damaged(s, work)
        print(f"{passes[0]} passed, {len(failures)} failed")
        return 1 if failures else 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
