# SPDX-License-Identifier: LGPL-2.1-or-later
"""gamedb.open_book(): an Arena book made here from the format's description (a transposition,
a loop), probed, walked and converted; the real libra8.abk when $GAMEDB_REALDATA has it."""
import os
import struct
import warnings

import pytest

import gamedb

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def sq(s):
    return ord(s[0]) - 97 + 8 * (int(s[1]) - 1)


def abk(path, records):
    data = bytearray(900 * 28)
    for uci, games, nxt, sib in records:
        data += struct.pack("<BBbBiiiiii", sq(uci[:2]), sq(uci[2:4]), 0, 5, games, 0, 0, 0,
                            nxt, sib)
    path.write_bytes(bytes(data))
    return str(path)


def test_probe_walk_convert(tmp_path):
    # 1.e4 e5 2.Nf3 / 1.Nf3 e5 2.e4: one position, reached twice, given once
    p = abk(tmp_path / "t.abk", [("e2e4", 4, 902, 901), ("g1f3", 2, 904, -1),
                                 ("e7e5", 4, 903, -1), ("g1f3", 4, -1, -1),
                                 ("e7e5", 2, 905, -1), ("e2e4", 2, -1, -1)])
    with gamedb.open_book(p) as b:
        assert b.format == "abk"
        moves = b.probe(START)
        assert [(m["uci"], m["san"], m["games"], m["weight"]) for m in moves] == [
            ("e2e4", "e4", 4, 4), ("g1f3", "Nf3", 2, 2)]
        assert b.probe("8/8/8/8/8/8/8/K6k w - - 0 1") == []
        assert b.position(START)["stats"] == {}  # ABK stores no numbers of a position
        walk = list(b)
        assert [(w["ply"], len(w["moves"])) for w in walk] == [(0, 2), (1, 1), (1, 1), (2, 1),
                                                                 (2, 1)]
        assert len(list(b.walk(max_ply=1))) == 3
        data = b.to_polyglot()
        # an entry a move of a position with moves (the transposed position has none)
        assert len(data) == 16 * 6
        assert (0x463b96181691fc9c).to_bytes(8, "big") + bytes([0x03, 0x1c, 0, 4]) in data
        with pytest.raises(gamedb.GamedbError):
            b.probe("not a fen")
    with pytest.raises(ValueError):
        b.probe(START)


def test_loop_warns(tmp_path):
    p = abk(tmp_path / "loop.abk", [("e2e4", 1, 901, -1), ("e7e5", 1, 900, -1)])
    with pytest.warns(gamedb.GamedbWarning, match="loop"):
        b = gamedb.open_book(p)
    # the position whose record names record 900 again is given, with no moves, and its warning
    with pytest.warns(gamedb.GamedbWarning, match="loop"):
        walk = list(b)
    assert [len(w["moves"]) for w in walk] == [1, 1, 0]
    b.close()


def test_not_a_book(tmp_path):
    with pytest.raises(gamedb.GamedbError):
        gamedb.open_book(str(tmp_path / "missing.abk"))
    (tmp_path / "x.pgn").write_text("x")
    with pytest.raises(gamedb.GamedbError):
        gamedb.open_book(str(tmp_path / "x.pgn"))


def test_real_book():
    real = os.path.join(os.environ.get("GAMEDB_REALDATA", ""), "books", "chess-tools",
                        "libra8.abk")
    if not os.path.exists(real):
        pytest.skip("no real books")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with gamedb.open_book(real) as b:
            assert sum(1 for _ in b) == 62289
            assert len(b.probe(START)) == 18


def test_ctg_position(tmp_path):
    """A ChessBase book written by tests/make-ctg-book.py: a position's own statistics, and
    the moves of one with Black to move (mirrored in the book)."""
    import json
    import subprocess
    import sys
    here = os.path.dirname(os.path.abspath(__file__))
    stem = str(tmp_path / "made")
    made = json.loads(subprocess.run([sys.executable, os.path.join(here, "..", "make-ctg-book.py"),
                                      stem], check=True, capture_output=True, text=True).stdout)
    start = made[" ".join(START.split()[:4])]
    with gamedb.open_book(stem + ".ctg") as b:
        assert b.format == "ctg"
        pos = b.position(START)
        assert (pos["stats"]["games"], pos["stats"]["wins"], pos["stats"]["losses"]) == (
            start["stats"]["games"], start["stats"]["wins"], start["stats"]["losses"])
        assert sorted(m["uci"] for m in pos["moves"]) == ["d2d4", "e2e4", "g2g4"]
        assert [m["uci"] for m in b.probe("6k1/8/8/8/8/8/p7/2K5 b - - 0 1")] == ["a2a1q", "g8f7"]
        assert [w["ply"] for w in b.walk(max_ply=1)] == [0, 1, 1]
