#!/usr/bin/env python3
"""mkinputs.py - profile files and damaged executables for run-robust.sh.

Usage: mkinputs.py PROG DIR

PROG is a small -pg program built by run-robust.sh (its symbols give the
addresses); every file is written to DIR.  Each file is made here from
the program's symbol table and section headers, byte by byte.
"""

import os
import struct
import subprocess
import sys


def symbols(prog):
    out = subprocess.run(["nm", prog], capture_output=True, text=True,
                         check=True).stdout
    syms = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3:
            syms[parts[2]] = int(parts[0], 16)
    return syms


def header():
    return b"gmon" + struct.pack("<I", 1) + bytes(12)


def hist(low, high, bins, rate=100):
    return (bytes([0]) + struct.pack("<QQII", low, high, len(bins), rate)
            + b"seconds".ljust(15, b"\0") + b"s"
            + b"".join(struct.pack("<H", b) for b in bins))


def arc(frm, to, count):
    return bytes([1]) + struct.pack("<QQI", frm, to, count)


def bsd44(low, high, bins, arcs, rate=100):
    """A 4.4BSD file of a 64-bit program: 64-bit arc counts."""
    head = struct.pack("<QQIII", low, high, 40 + 2 * len(bins), 0x51879,
                       rate) + bytes(12)
    body = b"".join(struct.pack("<H", b) for b in bins)
    body += b"".join(struct.pack("<QQQ", f, t, c) for f, t, c in arcs)
    return head + body


def put(d, name, data):
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def dynstr_claims(prog, out, size):
    """PROG with the size of its .dynstr section header set to SIZE."""
    data = bytearray(open(prog, "rb").read())
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3a)
    strtab_off, = struct.unpack_from("<Q", data,
                                     shoff + shstrndx * shentsize + 0x18)
    for i in range(shnum):
        sh = shoff + i * shentsize
        name, = struct.unpack_from("<I", data, sh)
        end = data.index(b"\0", strtab_off + name)
        if data[strtab_off + name:end] == b".dynstr":
            struct.pack_into("<Q", data, sh + 0x20, size)
            open(out, "wb").write(data)
            return
    sys.exit("mkinputs.py: no .dynstr in " + prog)


def main():
    prog, d = sys.argv[1], sys.argv[2]
    s = symbols(prog)
    main_, leaf, mid = s["main"], s["leaf"], s["mid"]
    lo = min(main_, leaf, mid) & ~0xf
    hi = (max(main_, leaf, mid) + 0x40) & ~0xf
    nb = (hi - lo) // 4

    # One bin from the start of the code past data_start, a weak data
    # symbol after the end of .text.
    put(d, "wrap.gmon", header() + hist(lo, s["data_start"] + 0x100, [100]))

    # Full bins and a full count, to be summed three times by -s.
    put(d, "full.gmon", header() + hist(lo, hi, [65535] * nb)
        + arc(main_ + 8, mid, 0xffffffff))
    # A 4.4BSD file with a 64-bit count beyond 32 bits.
    put(d, "wide.bsd", bsd44(lo, hi, [7] * nb, [(main_ + 8, mid, 2**33 + 5)]))
    put(d, "half.bsd", bsd44(lo, hi, [40000] * nb, []))
    # A count that would take 2^30 records of 32 bits.
    put(d, "huge.bsd", bsd44(lo, hi, [7] * nb, [(main_ + 8, mid, 2**62)]))

    # Rates: two files that differ, 0, and 2^31.
    bins = [3] * nb
    put(d, "rate100.gmon", header() + hist(lo, hi, bins, 100))
    put(d, "rate1000.gmon", header() + hist(lo, hi, bins, 1000))
    put(d, "rate0.gmon", header() + hist(lo, hi, bins, 0))
    put(d, "rate2g.gmon", header() + hist(lo, hi, bins, 2**31))

    # 32769 one-bin records of one range at 65535 each: 2147516415
    # samples in one bin, beyond a signed 32-bit sum.
    rec = hist(leaf, leaf + 4, [65535])
    put(d, "deep.gmon", header() + rec * 32769)

    # A second file repeating the first's empty range claims 2^32 - 1
    # bins: the reader reads as many as the first record has.
    put(d, "range-1.gmon", header() + hist(lo, lo, [5] * 4))
    put(d, "range-2.gmon", header()
        + hist(lo, lo, [5] * 4)[:17] + struct.pack("<I", 2**32 - 1)
        + hist(lo, lo, [5] * 4)[21:])

    # An executable whose .dynstr claims 2^48 bytes.
    dynstr_claims(prog, os.path.join(d, "dynstr"), 2**48)


main()
