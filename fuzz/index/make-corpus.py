#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Seeds for fuzz/index/target.c: for some of fuzz/style12/corpus's logs (hand-written seeds of
this project), the log written as base.log, indexed with `gamedb index`, and the seed made of
the log's length (4 bytes, little-endian), the log and the index. Then two damaged ones.

Usage: make-corpus.py GAMEDB_TOOL
"""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
LOGS = ["seed-game-takeback", "seed-crazyhouse-drops", "seed-short-fields", "seed-big-move-numbers"]


def main():
    tool = sys.argv[1]
    out = os.path.join(HERE, "corpus")
    with tempfile.TemporaryDirectory() as tmp:
        for name in LOGS:
            log = open(os.path.join(HERE, "..", "style12", "corpus", name), "rb").read()
            base = os.path.join(tmp, "base.log")
            with open(base, "wb") as f:
                f.write(log)
            ix = os.path.join(tmp, "ix")
            subprocess.run([tool, "index", base, "-o", ix], check=False)
            data = len(log).to_bytes(4, "little") + log + open(ix, "rb").read()
            with open(os.path.join(out, "seed-" + name[5:]), "wb") as f:
                f.write(data)
            if name == LOGS[0]:
                cut = data[:len(data) - 9]
                with open(os.path.join(out, "seed-cut"), "wb") as f:
                    f.write(cut)
                bad = bytearray(data)
                at = 4 + len(log) + 64 + 16 * 5  # the postings section's offset
                bad[at:at + 8] = (1 << 40).to_bytes(8, "little")
                with open(os.path.join(out, "seed-bad-table"), "wb") as f:
                    f.write(bad)


if __name__ == "__main__":
    main()
