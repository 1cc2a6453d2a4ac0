"""The position index from Python (issue 30): gamedb.build_index(), Reader.tree(index=...) and
Reader.search(index=...) give the scan's answers, the real Scid's pinned tree through an index,
and a stale index raises GamedbError."""
import json
import os
import shutil

import pytest

import gamedb

SRCDIR = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
REALDATA = os.environ.get("GAMEDB_REALDATA") or os.path.join(SRCDIR, "..", "shared", "realdata")
TACTICS = os.path.join(REALDATA, "scid", "scidvspc-modern", "si4", "tactics", "tactics.si4")


def need(path):
    if not os.path.exists(path):
        pytest.skip("%s is not there" % path)


def test_index_equals_scan_and_scid(tmp_path):
    need(TACTICS)
    ix = tmp_path / "tactics.gdbi"
    assert gamedb.build_index(ix, TACTICS) == 0
    pinned = json.load(open(os.path.join(SRCDIR, "testdata", "tree", "tactics-si4.json")))
    with gamedb.open(TACTICS) as r:
        for pos in pinned["positions"]:
            r.seek(0)
            scan = r.tree(fen=pos["fen"])
            fast = r.tree(fen=pos["fen"], index=ix)
            assert fast == scan, pos["fen"]
            got = {(row["san"] or "").rstrip("+#"): (row["games"], "%.1f" % row["score"])
                   for row in fast}
            want = {row["san"].rstrip("+#"): (row["games"], row["score"]) for row in pos["rows"]}
            assert got == want, pos["fen"]
        for pos in pinned["positions"][:5]:
            r.seek(0)
            a = [g.index for g in r.search(fen=pos["fen"])]
            r.seek(0)
            b = [g.index for g in r.search(fen=pos["fen"], index=ix)]
            assert a == b and a, pos["fen"]
            r.seek(0)
            a = r.tree(fen=pos["fen"], where="Result=1-0")
            r.seek(0)
            assert r.tree(fen=pos["fen"], where="Result=1-0", index=ix) == a, pos["fen"]


def test_stale_index_raises(tmp_path):
    need(TACTICS)
    stem = TACTICS[:-4]
    for ext in (".si4", ".sn4", ".sg4"):
        shutil.copyfile(stem + ext, str(tmp_path / ("b" + ext)))
    base = str(tmp_path / "b.si4")
    ix = tmp_path / "b.gdbi"
    gamedb.build_index(ix, base)
    st = os.stat(str(tmp_path / "b.sg4"))
    os.utime(str(tmp_path / "b.sg4"), (st.st_atime, st.st_mtime + 5))
    with gamedb.open(base) as r:
        with pytest.raises(gamedb.GamedbError, match="stale"):
            r.tree(moves="e4", index=ix)
        with pytest.raises(gamedb.GamedbError, match="stale"):
            r.search(moves="e4", index=ix)
    with pytest.raises(gamedb.GamedbError, match="not a gamedb index"):
        with gamedb.open(base) as r:
            r.tree(moves="e4", index=base)
