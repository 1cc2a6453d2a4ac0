#!/usr/bin/env python3
"""Writes the seeds of fuzz/books (fuzz/books/target.c's input: a format byte, then the ABK
file, or three lengths and the .ctb, .cto, .ctg): small ABK books made from the format's
description (a transposition, a loop, an index out of range) and the CTG test book of
tests/make-ctg-book.py, whole and with a page cut off.

  fuzz/books/make-corpus.py
"""
import os
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = os.path.join(HERE, "..", "..", "tests")


def sq(s):
    return ord(s[0]) - 97 + 8 * (int(s[1]) - 1)


def abk(records):
    data = bytearray(900 * 28)
    for uci, nxt, sib in records:
        data += struct.pack("<BBbBiiiiii", sq(uci[:2]), sq(uci[2:4]), 0, 5, 3, 1, 1, 0, nxt, sib)
    return bytes(data)


def main():
    out = os.path.join(HERE, "corpus")
    seeds = {
        "seed-abk-transposition": b"\0" + abk([("e2e4", 902, 901), ("g1f3", 904, -1),
                                               ("e7e5", 903, -1), ("g1f3", -1, -1),
                                               ("e7e5", 905, -1), ("e2e4", -1, -1)]),
        "seed-abk-loop": b"\0" + abk([("e2e4", 901, -1), ("e7e5", 900, -1)]),
        "seed-abk-out-of-range": b"\0" + abk([("e2e4", 99999, 5)]),
    }
    with tempfile.TemporaryDirectory() as work:
        stem = os.path.join(work, "made")
        subprocess.run([sys.executable, os.path.join(TESTS, "make-ctg-book.py"), stem],
                       check=True, capture_output=True)
        files = []
        for ext in ("ctb", "cto", "ctg"):
            with open(stem + "." + ext, "rb") as f:
                files.append(f.read())
    def ctg(b, o, g):
        return b"\1" + struct.pack(">III", len(b), len(o), len(g)) + b + o + g
    seeds["seed-ctg-made"] = ctg(*files)
    seeds["seed-ctg-cut"] = ctg(files[0], files[1], files[2][:4096 * 2 + 100])
    for name, data in seeds.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)
    print("%d seeds in %s" % (len(seeds), out))


if __name__ == "__main__":
    main()
