#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Writes testdata/chessassistant/hand.{cdp,emb,d00,a02,d02} (the hand-made games of
tests/chessassistant_writer.py, written by that writer from the format description) and the
fuzz corpus seeds fuzz/chessassistant/corpus/ (the same base in the fuzz target's framing,
plus copies with a few bytes changed). Deterministic: running it again gives the same bytes,
which test-chessassistant.py checks.

    python3 tests/make-chessassistant-fixtures.py [SRCDIR]
"""
import os
import random
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import chessassistant_writer as caw  # noqa: E402

RUSSIAN = [("Петросян, Тигран", "GM"), ("Ботвинник, Михаил", "GM"), ("Таль, Михаил", "GM"),
           ("Гаприндашвили, Нона", "WGM"), ("Иванов, Иван", "")]
EXTS = [".cdp", ".emb", ".d00", ".a02", ".d02"]


def fixture_files():
    base = caw.Base(dir_sign=+1, seed=11)
    for tags, fen, line, pre in caw.handmade_games(RUSSIAN):
        base.add_game(tags, fen, line, pre=pre, game_type=2)
    return base.files("hand")


def framed(files):
    """The fuzz target's framing: four le32 lengths (cdp emb d00 a02), the files, the d02."""
    parts = [files["hand" + e] for e in EXTS]
    return struct.pack("<4I", *[len(p) for p in parts[:4]]) + b"".join(parts)


def main():
    src = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    files = fixture_files()
    out = os.path.join(src, "testdata", "chessassistant")
    os.makedirs(out, exist_ok=True)
    for name, data in files.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)
    corpus = os.path.join(src, "fuzz", "chessassistant", "corpus")
    os.makedirs(corpus, exist_ok=True)
    seed = framed(files)
    rng = random.Random(5)
    with open(os.path.join(corpus, "hand"), "wb") as f:
        f.write(seed)
    for i in range(8):
        b = bytearray(seed)
        for _ in range(4):
            p = rng.randrange(16, len(b))
            b[p] = rng.randrange(256)
        with open(os.path.join(corpus, "flip%d" % i), "wb") as f:
            f.write(bytes(b))
    with open(os.path.join(corpus, "cut"), "wb") as f:
        f.write(seed[:len(seed) // 2])


if __name__ == "__main__":
    main()
