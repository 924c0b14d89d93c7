#!/usr/bin/env python3
"""mkcase.py DIR --functions N --arcs M --shape SHAPE [--samples S] [--seed K]

Writes DIR/prog, an x86-64 executable of N functions (assembled with
as/ld; each function calls the next one, so -c has code to scan), and
DIR/gmon.out, a GNU-format profile of it: a histogram with S samples
spread over the functions and M call arcs between them, shaped as

  random  any function calls any other (one giant cycle)
  dag     calls go from lower to higher functions only (no cycle)
  chain   f0 -> f1 -> ... -> fN-1, the rest of the arcs forward
  tree    each function is called by one parent, the rest forward

A tenth of the functions are static.  The same arguments give the same
files on any machine."""
import argparse
import os
import random
import struct
import subprocess


def write_program(path, n, rnd):
    """Assemble and link N functions; returns their addresses and sizes."""
    sizes = [rnd.choice((16, 32, 48, 64, 96, 128)) for _ in range(n)]
    asm = path + ".s"
    with open(asm, "w") as f:
        f.write("\t.text\n\t.globl _start\n_start:\n\tcall fn0\n"
                "\tmov $60, %eax\n\txor %edi, %edi\n\tsyscall\n")
        for i, size in enumerate(sizes):
            if i % 10 != 3:
                f.write(f"\t.globl fn{i}\n")
            f.write(f"\t.type fn{i}, @function\n\t.p2align 4\nfn{i}:\n")
            body = size - 1
            if i + 1 < n:
                f.write(f"\tcall fn{i + 1}\n")
                body -= 5
            f.write(f"\t.fill {body}, 1, 0x90\n\tret\n\t.size fn{i}, .-fn{i}\n")
    subprocess.run(["as", "--64", "-o", path + ".o", asm], check=True)
    subprocess.run(["ld", "-o", path, path + ".o"], check=True)
    os.remove(asm)
    os.remove(path + ".o")
    out = subprocess.run(["nm", "-S", "--defined-only", path], check=True,
                         capture_output=True, text=True).stdout
    where = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[3].startswith("fn"):
            where[int(parts[3][2:])] = (int(parts[0], 16), int(parts[1], 16))
    return [where[i] for i in range(n)]


def arcs_for(shape, n, m, rnd):
    """M (caller, callee) pairs of the shape, with counts."""
    arcs = []
    if shape in ("chain", "tree"):
        for i in range(1, n):
            parent = i - 1 if shape == "chain" else (i - 1) // 4
            arcs.append((parent, i))
    while len(arcs) < m:
        a, b = rnd.randrange(n), rnd.randrange(n)
        if shape != "random":
            if a == b:
                continue
            a, b = min(a, b), max(a, b)
        arcs.append((a, b))
    return [(a, b, rnd.randint(1, 5000)) for a, b in arcs[:m]]


def write_profile(path, funcs, arcs, samples, rnd):
    lo = funcs[0][0] & ~15
    hi = (funcs[-1][0] + funcs[-1][1] + 15) & ~15
    nbins = (hi - lo) // 4
    bins = [0] * nbins
    for _ in range(samples):
        addr, size = funcs[rnd.randrange(len(funcs))]
        bins[(addr + rnd.randrange(size) - lo) // 4] += 1
    with open(path, "wb") as f:
        f.write(b"gmon" + struct.pack("<I", 1) + bytes(12))
        f.write(struct.pack("<BQQII", 0, lo, hi, nbins, 100))
        f.write(b"seconds".ljust(15, b"\0") + b"s")
        f.write(struct.pack(f"<{nbins}H", *(min(b, 65535) for b in bins)))
        for a, b, count in arcs:
            # from: a call site inside the caller; self: the callee's entry
            # plus a little, as mcount reports it.
            frm = funcs[a][0] + rnd.randrange(funcs[a][1])
            f.write(struct.pack("<BQQI", 1, frm, funcs[b][0] + 5, count))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--functions", type=int, required=True)
    ap.add_argument("--arcs", type=int, required=True)
    ap.add_argument("--shape", choices=("random", "dag", "chain", "tree"),
                    required=True)
    ap.add_argument("--samples", type=int)
    ap.add_argument("--seed", type=int, default=7)
    a = ap.parse_args()
    rnd = random.Random(a.seed)
    os.makedirs(a.dir, exist_ok=True)
    funcs = write_program(os.path.join(a.dir, "prog"), a.functions, rnd)
    arcs = arcs_for(a.shape, a.functions, a.arcs, rnd)
    write_profile(os.path.join(a.dir, "gmon.out"), funcs, arcs,
                  a.samples or 5 * a.functions, rnd)


if __name__ == "__main__":
    main()
