#!/usr/bin/env python3
"""Writes the CTG test book (tests/ctgwriter.py) to STEM.ctg/.ctb/.cto and prints, as JSON,
what it holds: {fen: {"moves": [[uci, annotation]], "stats": {...}}} (the FEN's four fields).

  make-ctg-book.py STEM

The book: from the start 1.e4! 1.d4 1.g4? (weight 0); after 1.e4: e5, c5?!, Nf6; the Italian
line to both sides' castling; 1.e4 Nf6 2.e5 d5 3.exd6!! (en passant: its key has the file);
1.d4 d5 / Nf6 2.c4; and two positions of no castling with the white king on files a-d, one
with White to move (mirrored left-right), one with Black (mirrored both ways), each with a
promotion. Statistics differ from position to position, so that a move given the statistics
of the wrong position is seen.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ctgwriter  # noqa: E402

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"


def book():
    lines = {}
    seq = {}

    def add(path, moves):
        fen = START
        for u in path.split():
            fen = ctgwriter.play(fen, u)
        lines[fen] = moves
        seq[fen] = path
    add("", [("e2e4", 1), ("d2d4", 0), ("g2g4", 2)])
    add("e2e4", [("e7e5", 0), ("c7c5", 6), ("g8f6", 0)])
    add("e2e4 e7e5", [("g1f3", 0)])
    add("e2e4 e7e5 g1f3", [("b8c6", 0)])
    add("e2e4 e7e5 g1f3 b8c6", [("f1c4", 5)])
    add("e2e4 e7e5 g1f3 b8c6 f1c4", [("g8f6", 0), ("f8c5", 0)])
    add("e2e4 e7e5 g1f3 b8c6 f1c4 g8f6", [("e1g1", 0)])
    add("e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1", [("f8c5", 0)])
    add("e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1 f8c5", [("d2d3", 0)])
    add("e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1 f8c5 d2d3", [("e8g8", 8)])
    add("e2e4 g8f6", [("e4e5", 0)])
    add("e2e4 g8f6 e4e5", [("d7d5", 0), ("f6d5", 4)])
    add("e2e4 g8f6 e4e5 d7d5", [("e5d6", 3)])
    add("e2e4 g8f6 e4e5 d7d5 e5d6", [("c7d6", 0)])
    add("d2d4", [("d7d5", 0), ("g8f6", 0)])
    add("d2d4 g8f6", [("c2c4", 0)])
    # the positions after 1.g4 and 1...c5 are in the book with no moves of their own: their
    # statistics are the moves' statistics
    for path in ("g2g4", "e2e4 c7c5"):
        add(path, [])
    out = {}
    for i, (fen, moves) in enumerate(sorted(lines.items())):
        stats = {"games": 100 + i, "wins": 40 + i, "losses": 30 + 2 * i, "draws": 30 - i,
                 "rated": 10 + i, "elo_sum": (10 + i) * (2400 + i), "perf_games": 5 + i,
                 "perf_sum": (5 + i) * (2500 + 3 * i),
                 "recommendation": 0x80 if i % 3 == 0 else 0x40 if i % 3 == 1 else 0}
        out[fen] = {"moves": [list(m) for m in moves], "stats": stats}
    out["8/4P3/8/8/8/8/2K5/6k1 w - -"] = {
        "moves": [["e7e8q", 0], ["c2d3", 0]],
        "stats": {"games": 7, "wins": 5, "losses": 1, "draws": 1}}
    out["6k1/8/8/8/8/8/p7/2K5 b - -"] = {
        "moves": [["a2a1q", 1], ["g8f7", 0]],
        "stats": {"games": 3, "wins": 1, "losses": 1, "draws": 1}}
    return out


def main():
    b = book()
    ctgwriter.write_book(sys.argv[1], {f: ([tuple(m) for m in v["moves"]], v["stats"])
                                       for f, v in b.items()})
    json.dump(b, sys.stdout, indent=0, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
