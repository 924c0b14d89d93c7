#!/usr/bin/env python3
"""mkprog.py DIR --functions N [--seed K] [--libgmon PATH]

Writes DIR/prog.c, a C program of N functions where each calls four
others (later ones, so it terminates) as deep as a small budget allows,
builds it with gcc -O1 -g -pg into DIR/prog and runs it for DIR/gmon.out.
A real -pg program with a real call graph and line information, for
timing -l and the call graph of a big program.  Its 4N arcs overflow
glibc's fixed arc table for big N: give our libgmon.a with --libgmon."""
import argparse
import os
import random
import subprocess


def write_source(path, n, rnd):
    with open(path, "w") as f:
        f.write("#include <stdlib.h>\nvolatile unsigned long sink;\n")
        for i in range(n):
            f.write(f"{'static ' if i % 10 == 3 else ''}void f{i} (int depth);\n")
        for i in range(n):
            callees = sorted(rnd.sample(range(i + 1, n), min(4, n - i - 1)))
            static = "static " if i % 10 == 3 else ""
            f.write(f"{static}void\nf{i} (int depth)\n{{\n"
                    f"  unsigned long s = (unsigned long) depth;\n\n"
                    f"  for (int k = 0; k < {rnd.randint(1, 40)}; k++)\n"
                    f"    s = s * 31 + (unsigned long) k;\n"
                    f"  sink += s;\n  if (depth <= 0)\n    return;\n")
            for c in callees:
                f.write(f"  f{c} (depth - 1);\n")
            f.write("}\n\n")
        f.write("int\nmain (int argc, char **argv)\n{\n"
                "  int depth = argc > 1 ? atoi (argv[1]) : 2;\n\n")
        f.write("  static void (*const roots[]) (int) = {\n")
        f.write(",\n".join(f"    f{i}" for i in range(n)))
        f.write("\n  };\n  for (unsigned i = 0; i < sizeof roots / sizeof roots[0]; i++)\n"
                "    roots[i] (depth);\n  return 0;\n}\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--functions", type=int, required=True)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--libgmon", help="link this runtime (libgmon.a)")
    a = ap.parse_args()
    os.makedirs(a.dir, exist_ok=True)
    src = os.path.join(a.dir, "prog.c")
    write_source(src, a.functions, random.Random(a.seed))
    subprocess.run(["gcc", "-O1", "-g", "-pg", "-o", "prog", "prog.c"]
                   + ([os.path.abspath(a.libgmon)] if a.libgmon else []),
                   cwd=a.dir, check=True)
    subprocess.run(["./prog"], cwd=a.dir, check=True)


if __name__ == "__main__":
    main()
