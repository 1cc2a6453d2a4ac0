"""Arguments of the Python binding checked before they reach C (issue 26, item 6): an integer
out of its C type's range was cut by ctypes (r[2**64 + 5] gave game 5), and a string ended at
its first NUL (gamedb.open("a.si4\\0x") opened a.si4).

Expected values come from Python's own rules: list indexes (negative ones count from the end,
IndexError out of range, TypeError for what has no __index__), operator.index for integers,
OverflowError for an integer a C type cannot hold, and open()'s "embedded null byte"; the
game counts of the SCID fixture from its index (numGames, a 3-byte big-endian count at offset
14: ../shared/formats/NOTES.md section 1.2).
"""
import os

import pytest

import gamedb

SRCDIR = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
TESTDATA = os.environ.get("GAMEDB_TESTDATA") or os.path.join(SRCDIR, "testdata")
MOVES = os.path.join(TESTDATA, "scid", "moves.si4")

# A style 12 game in flight (lines from the style 12 help, as tests/python/test_style12.py).
S12_START = ("<12> rnbqkbnr pppppppp -------- -------- -------- -------- PPPPPPPP RNBQKBNR W -1 "
             "1 1 1 1 0 %d alice bob 1 3 0 39 39 180000 180000 1 none (0:00.000) none 0 0 0\n")


def game_count(si4):
    return int.from_bytes(open(si4, "rb").read()[14:17], "big")


def copy_base(src_si4, dst):
    """Copies a SCID base into folder dst; the new .si4."""
    stem = src_si4[:-4]
    for ext in (".si4", ".sn4", ".sg4"):
        with open(stem + ext, "rb") as f, \
                open(os.path.join(dst, os.path.basename(stem) + ext), "wb") as g:
            g.write(f.read())
    return os.path.join(dst, os.path.basename(stem) + ".si4")


# ---- 1. integer arguments: checked, never wrapped -------------------------------------------

class Index:
    """An integer-like object (as numpy's): what a list takes as an index."""

    def __init__(self, i):
        self.i = i

    def __index__(self):
        return self.i


def test_index_past_uint64_is_out_of_range():
    n = game_count(MOVES)
    with gamedb.open(MOVES) as r:
        for i in (2 ** 64, 2 ** 64 + 1, 2 ** 64 + 5, 2 ** 64 - 1, n, 10 ** 30):
            with pytest.raises(IndexError):
                r[i]


def test_negative_indexes_count_from_the_end():
    n = game_count(MOVES)
    with gamedb.open(MOVES) as r:
        assert r[-1].index == n - 1
        assert r[-n].index == 0
        for i in (-n - 1, -2 ** 64, -2 ** 64 + 3, -2 ** 64 - 1):
            with pytest.raises(IndexError):
                r[i]
        assert [g.index for g in r[-3:]] == [n - 3, n - 2, n - 1]


def test_index_types():
    with gamedb.open(MOVES) as r:
        assert r[Index(2)].index == 2
        for bad in (1.0, "1", None, b"\x01"):
            with pytest.raises(TypeError):
                r[bad]


def test_seek_checks_its_index():
    with gamedb.open(MOVES) as r:
        r.seek(3)
        for bad, exc in ((2 ** 64 + 1, OverflowError), (-1, OverflowError),
                         (-2 ** 64 + 1, OverflowError), (1.5, TypeError), ("2", TypeError)):
            with pytest.raises(exc):
                r.seek(bad)
        assert next(r).index == 3  # a refused seek moved nothing
        r.seek(Index(1))
        assert next(r).index == 1


def test_writer_flags_are_checked():
    with gamedb.open(MOVES) as r:
        g = next(r)
        plain = g.pgn()
        for bad in (2 ** 32, 2 ** 32 + gamedb._ffi.WRITE_NO_COMMENTS, -1):
            with pytest.raises(OverflowError):
                g.pgn(flags=bad)
            with pytest.raises(OverflowError):
                g.json(flags=bad)
        with pytest.raises(TypeError):
            g.pgn(flags=1.0)
        assert g.pgn(flags=0) == plain


def test_book_options_are_checked():
    for bad in ({"max_ply": -1}, {"max_ply": 2 ** 64 + 8}, {"min_game": 10 ** 7},
                {"min_score": 101}, {"memory": 0}, {"only_white": 2}):
        with pytest.raises(ValueError):
            gamedb.book(MOVES, **bad)
    for bad in ({"max_ply": 1.5}, {"max_ply": "8"}, {"no_such_option": 1}):
        with pytest.raises(TypeError):
            gamedb.book(MOVES, **bad)
    assert gamedb.book(MOVES, max_ply=Index(8), only_white=True, min_game=1)


def test_style12_peek_checks_its_index():
    with gamedb.Style12Session() as s:
        s.feed(S12_START % 7)
        s.feed(S12_START % 8)
        assert s.live_count == 2
        oldest, newest = s.peek(0).tag_list, s.peek(1).tag_list
        assert oldest != newest
        assert s.peek(-1).tag_list == newest and s.peek(-2).tag_list == oldest
        for bad in (2, -3, 2 ** 64, 2 ** 64 + 1):
            with pytest.raises(IndexError):
                s.peek(bad)
        with pytest.raises(TypeError):
            s.peek(1.0)


# ---- 2. strings: a NUL is refused, never a cut ----------------------------------------------

def test_path_with_a_nul_is_refused(tmp_path):
    path = copy_base(MOVES, str(tmp_path))
    for bad in (path + "\0x", os.fsencode(path) + b"\0x", path + "\0"):
        with pytest.raises(ValueError, match="embedded null byte"):
            gamedb.open(bad)
    with pytest.raises(ValueError, match="embedded null byte"):
        gamedb.book(path + "\0x")
    with gamedb.open(path) as r:  # the path itself opens
        assert r.format == "scid"


def test_strings_with_a_nul_are_refused():
    for kwargs in ({"charset": "latin1\0x"}, {"format": "scid\0x"},
                   {"options": {"charset\0x": "latin1"}},
                   {"options": {"fallback-charset": "CP1252\0junk"}}):
        with pytest.raises(ValueError, match="embedded null byte"):
            gamedb.open(MOVES, **kwargs)
    with gamedb.open(MOVES) as r:
        with pytest.raises(ValueError, match="embedded null byte"):
            r.set_option("charset", "latin1\0x")
        with pytest.raises(ValueError, match="embedded null byte"):
            r.set_option("charset", "latin1", format="scid\0")
        g = next(r)
        assert g.tag_raw("White") is not None
        with pytest.raises(ValueError, match="embedded null byte"):
            g.tag_raw("White\0x")
    with pytest.raises(ValueError, match="embedded null byte"):
        gamedb.Style12Session("live\0x")


def test_memory_and_io_names_with_a_nul_are_refused():
    stem = MOVES[:-4]
    files = {"m" + ext: open(stem + ext, "rb").read() for ext in (".si4", ".sn4", ".sg4")}
    with pytest.raises(ValueError, match="embedded null byte"):
        gamedb.open_memory(dict(files, **{"m.si4\0x": files["m.si4"]}), "m.si4\0x")
    with pytest.raises(ValueError, match="embedded null byte"):
        gamedb.open_io(files, "m.si4\0x")
    with gamedb.open_io(files, "m.si4") as r:
        assert r.game_count == len(list(r))
