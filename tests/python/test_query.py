"""Reader.search() and Reader.tree() (issue 30): the same answers as the real Scid's tree pinned
in testdata/tree (scripts/pin-scid-tree.py), filters as gamedb_query_add_where() describes
them, bad input as GamedbError at once, and the C query and tree used directly."""
import ctypes
import json
import os

import pytest

import gamedb
from gamedb import _ffi

SRCDIR = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
REALDATA = os.environ.get("GAMEDB_REALDATA") or os.path.join(SRCDIR, "..", "shared", "realdata")
TACTICS = os.path.join(REALDATA, "scid", "scidvspc-modern", "si4", "tactics", "tactics.si4")
MOVES = os.path.join(SRCDIR, "testdata", "scid", "moves.si4")


def need(path):
    if not os.path.exists(path):
        pytest.skip("%s is not there" % path)


def test_tree_equals_scid():
    need(TACTICS)
    pinned = json.load(open(os.path.join(SRCDIR, "testdata", "tree", "tactics-si4.json")))
    with gamedb.open(TACTICS) as r:
        for pos in pinned["positions"]:
            r.seek(0)
            rows = r.tree(fen=pos["fen"])
            got = {(row["san"] or "").rstrip("+#"): (row["games"], "%.1f" % row["score"])
                   for row in rows}
            want = {row["san"].rstrip("+#"): (row["games"], row["score"]) for row in pos["rows"]}
            assert got == want, pos["fen"]


def test_search_by_moves_and_where():
    need(TACTICS)
    with gamedb.open(TACTICS) as r:
        every = [(g.index, dict(g.tags)) for g in r]
        r.seek(0)
        found = [g.index for g in r.search(where=["Date>=1980", "Date<1982"])]
    want = [i for i, tags in every if tags.get("Date", "?")[:4].isdigit()
            and 1980 <= int(tags["Date"][:4]) < 1982]
    assert found == want and len(want) > 50


def test_search_position_from_the_start():
    need(MOVES)
    with gamedb.open(MOVES) as r:
        games = [g.index for g in r.search(moves="1. e4 e5")]
        r.seek(0)
        rows = r.tree(moves="e4")
    assert games and sum(row["games"] for row in rows) >= len(games)
    assert [row["san"] for row in rows] == sorted((row["san"] for row in rows),
                                                  key=lambda s: -next(x["games"] for x in rows
                                                                      if x["san"] == s))


@pytest.mark.parametrize("kwargs,words", [
    ({"fen": "not a fen"}, "FEN"),
    ({"moves": "e4 e4"}, 'move 2 "e4"'),
    ({"moves": "e4 Nf6", "where": "White"}, "after the tag White"),
    ({"moves": "e4", "where": ["Date>="]}, "no value"),
])
def test_bad_input_raises_at_once(kwargs, words):
    need(MOVES)
    with gamedb.open(MOVES) as r:
        with pytest.raises(gamedb.GamedbError) as e:
            list(r.search(**kwargs))
        assert words in e.value.message and e.value.detail == gamedb.E_INVALID_ARGUMENT
        with pytest.raises((gamedb.GamedbError, ValueError)):
            r.tree(**kwargs)
    with pytest.raises(ValueError):
        gamedb.Reader().tree()


def test_c_query_and_tree_directly():
    """gamedb_query_tree() over a reader, gamedb_tree_merge() of two halves, the totals row."""
    need(MOVES)
    lib = _ffi.lib
    q = _ffi.QueryP()
    assert lib.gamedb_query_new(ctypes.byref(q)) == 0
    assert lib.gamedb_query_set_position(q, None, b"e4") == 0
    assert lib.gamedb_query_get_ply(q) == -1
    trees = []
    with gamedb.open(MOVES) as r:
        for start in (0, 1):
            r.seek(start)
            t = _ffi.TreeP()
            failed = ctypes.c_uint64(0)
            assert lib.gamedb_query_tree(q, r._ptr, ctypes.byref(t), ctypes.byref(failed)) == 0
            assert failed.value == 0
            trees.append(t)
    whole, tail = trees
    n = lib.gamedb_tree_get_count(whole)
    total = lib.gamedb_tree_get_stat(whole, n, 1)
    assert total == sum(lib.gamedb_tree_get_stat(whole, i, 1) for i in range(n)) > 0
    assert lib.gamedb_tree_get_san(whole, n) is None and lib.gamedb_tree_get_stat(whole, n + 1, 1) == 0
    assert lib.gamedb_tree_merge(whole, tail) == 0
    assert lib.gamedb_tree_get_stat(whole, lib.gamedb_tree_get_count(whole), 1) == \
        total + lib.gamedb_tree_get_stat(tail, lib.gamedb_tree_get_count(tail), 1)
    # a tree needs a position
    q2 = _ffi.QueryP()
    lib.gamedb_query_new(ctypes.byref(q2))
    t2 = _ffi.TreeP()
    with gamedb.open(MOVES) as r:
        assert lib.gamedb_query_tree(q2, r._ptr, ctypes.byref(t2), None) == gamedb.FAILED
    assert b"needs a position" in lib.gamedb_query_errmsg(q2).encode()
    for t in trees:
        lib.gamedb_tree_free(t)
    lib.gamedb_query_free(q)
    lib.gamedb_query_free(q2)
    lib.gamedb_query_free(None)
    lib.gamedb_tree_free(None)


def test_c_query_next_and_match():
    """gamedb_query_next() walks the reader to the games that match, gamedb_query_get_ply()
    says where each reached the position; gamedb_query_match() on the same games agrees."""
    five = os.path.join(REALDATA, "scid", "scidtopgn", "five", "five.si4")
    need(five)
    lib = _ffi.lib
    q = _ffi.QueryP()
    lib.gamedb_query_new(ctypes.byref(q))
    assert lib.gamedb_query_set_position(q, None, b"e4") == 0
    assert lib.gamedb_query_add_where(q, b"Date>=1970") == 0
    found = []
    with gamedb.open(five) as r:
        while True:
            g = _ffi.GameP()
            rc = lib.gamedb_query_next(q, r._ptr, ctypes.byref(g))
            if rc == gamedb.END:
                break
            assert rc in (gamedb.OK, gamedb.WARN)
            assert lib.gamedb_query_match(q, g) == 1
            found.append((lib.gamedb_game_get_index(g), lib.gamedb_query_get_ply(q)))
        r.seek(0)
        want = [g.index for g in r.search(moves="e4", where="Date>=1970")]
    lib.gamedb_query_free(q)
    assert [i for i, _ in found] == want and want
    assert all(ply == 1 for _, ply in found)  # the standard start: e4 is ply 1
