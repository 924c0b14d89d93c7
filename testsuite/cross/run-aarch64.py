#!/usr/bin/env python3
"""run-aarch64.py - a profile taken on aarch64 (cross-compiled, run under
qemu-user) must give the same reports with our gprof as with GNU gprof
built for aarch64.  Exit 77 when the cross tools are missing."""
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
GPROF = os.path.abspath(os.environ.get("GPROF", "gprof"))
REF = shutil.which("aarch64-linux-gnu-gprof")
CC = shutil.which("aarch64-linux-gnu-gcc-12") or shutil.which("aarch64-linux-gnu-gcc")
QEMU = shutil.which("qemu-aarch64")
SOURCES = [os.path.join(HERE, "..", "staticcg", "calls.c"),
           os.path.join(HERE, "..", "diff", "progs", "recurse.c")]
OPTIONS = ["", "-b", "-b -c", "-b -c -q", "-b -c -z", "-b -T", "-i", "-b -l",
           "-A", "-A -x", "-C", "-b -a", "-b -z", "-r", "-s", "-b -e main"]
ENV = dict(os.environ, LC_ALL="C", LANG="C")


def run(cmd, cwd):
    return subprocess.run(cmd, cwd=cwd, capture_output=True, env=ENV, timeout=300)


def outcome(gprof, args, inputs, where):
    """stdout, stderr, status and gmon.sum of one run in a fresh folder;
    both gprofs are run as "gprof" so that messages name them alike."""
    os.makedirs(where)
    bindir = os.path.join(where, ".bin")
    os.makedirs(bindir)
    os.symlink(gprof, os.path.join(bindir, "gprof"))
    for f in inputs:
        shutil.copy(f, where)
    env = dict(ENV, PATH=bindir + os.pathsep + ENV["PATH"])
    r = subprocess.run(["gprof"] + args, cwd=where, capture_output=True,
                       env=env, timeout=300)
    summ = os.path.join(where, "gmon.sum")
    data = open(summ, "rb").read() if os.path.exists(summ) else b""
    if data[:4] == b"gmon":
        data = data[:8] + bytes(12) + data[20:]   # GNU leaves these uninitialised
    return r.stdout, r.stderr, r.returncode, data


def main():
    if not (REF and CC and QEMU):
        print("aarch64 cross tools missing: skipped")
        return 77
    work = tempfile.mkdtemp()
    passed = failed = 0
    try:
        for src in SOURCES:
            name = os.path.splitext(os.path.basename(src))[0]
            d = os.path.join(work, name)
            os.makedirs(d)
            exe = os.path.join(d, name)
            if run([CC, "-O1", "-g", "-pg", src, "-o", exe], d).returncode:
                print(f"FAIL {name}: cannot build")
                failed += 1
                continue
            r = run([QEMU, "-L", "/usr/aarch64-linux-gnu", exe], d)
            gmon = os.path.join(d, "gmon.out")
            if not os.path.exists(gmon):
                print(f"FAIL {name}: no profile (exit {r.returncode})")
                failed += 1
                continue
            for i, opts in enumerate(OPTIONS):
                args = opts.split() + [name, "gmon.out"]
                base = os.path.join(work, f"{name}-{i}")
                a = outcome(REF, args, [exe, gmon], base + "-gnu")
                b = outcome(GPROF, args, [exe, gmon], base + "-ours")
                # Blurbs are worded our own way: without -b only the
                # reports without blurbs (-A, -C, -i, -r, -s) compare whole.
                full = "-b" in args or opts.split()[:1] in (["-A"], ["-C"], ["-i"], ["-r"], ["-s"])
                same = a == b if full else a[1:] == b[1:]
                if same:
                    passed += 1
                    print(f"ok   {name}: gprof {opts}")
                else:
                    failed += 1
                    print(f"FAIL {name}: gprof {opts}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
