# libgamedb - progress= of gamedb.open() and gamedb.book() (issue 28 item 6).
#
# SPDX-License-Identifier: LGPL-2.1-or-later
"""The progress callable is called in its unit, monotonic, ending at the total; returning False
stops the work with GamedbError (FATAL, E_CANCELLED); an exception it raises stops the work and
is raised in place of the library's error, once the C call has returned. The large inputs are
made here from real files: a style 12 log of 3 MiB (the real FICS lines repeated) and a SCID
base of 4,640 games (tactics.si4's records repeated, its header's count set to match)."""
import os

import pytest

import gamedb

REALDATA = os.environ.get("GAMEDB_REALDATA",
                          os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared",
                                       "realdata"))
LINES = os.path.join(REALDATA, "style12", "fatics", "fatics_style12_lines.txt")
TACTICS = os.path.join(REALDATA, "scid", "scidvspc-modern", "si4", "tactics", "tactics.")


class Stop(Exception):
    pass


@pytest.fixture(scope="module")
def big_log(tmp_path_factory):
    if not os.path.exists(LINES):
        pytest.skip("no real style 12 lines")
    with open(LINES, "rb") as f:
        one = f.read()
    path = tmp_path_factory.mktemp("progress") / "big.log"
    path.write_bytes(one * ((3 << 20) // len(one) + 1))
    return str(path)


@pytest.fixture(scope="module")
def big_base(tmp_path_factory):
    if not os.path.exists(TACTICS + "si4"):
        pytest.skip("no real tactics.si4")
    d = tmp_path_factory.mktemp("progress")
    with open(TACTICS + "si4", "rb") as f:
        si = f.read()
    records = (len(si) - 182) // 47  # header 182 bytes, records 47 (doc/formats/scid.md)
    assert int.from_bytes(si[14:17], "big") == records
    games = records * 5
    (d / "big.si4").write_bytes(si[:14] + games.to_bytes(3, "big") + si[17:182] +
                                si[182:] * 5)
    for ext in ("sg4", "sn4"):
        with open(TACTICS + ext, "rb") as f:
            (d / ("big." + ext)).write_bytes(f.read())
    return str(d / "big.si4"), games


def recorder(unit, stop_at=None, raise_at=None):
    seen = []

    def progress(u, done, total):
        assert u == unit
        seen.append((done, total))
        if raise_at is not None and len(seen) == raise_at:
            raise Stop()
        if stop_at is not None and len(seen) == stop_at:
            return False
        return None

    return progress, seen


def test_log_reported_in_bytes(big_log):
    size = os.path.getsize(big_log)
    progress, seen = recorder(gamedb.PROGRESS_BYTES)
    with gamedb.open(big_log, errors="skip", progress=progress) as r:
        n = sum(1 for _ in r)
    assert n > 0
    dones = [d for d, _ in seen]
    assert len(seen) >= 3 and dones == sorted(dones)
    assert seen[0][0] >= 1 << 20 and seen[-1] == (size, size)
    assert len(seen) <= size // (1 << 20) + 1


def test_log_stopped_by_false(big_log):
    progress, seen = recorder(gamedb.PROGRESS_BYTES, stop_at=1)
    with gamedb.open(big_log, errors="skip", progress=progress) as r:
        got = 0
        with pytest.raises(gamedb.GamedbError) as e:
            for _ in r:
                got += 1
        assert e.value.detail == gamedb.E_CANCELLED
        assert len(seen) == 1 and got > 0
        with pytest.raises(gamedb.GamedbError):  # the reader cannot go on
            next(r)


def test_log_stopped_by_exception(big_log):
    progress, seen = recorder(gamedb.PROGRESS_BYTES, raise_at=2)
    with gamedb.open(big_log, errors="skip", progress=progress) as r:
        with pytest.raises(Stop):
            for _ in r:
                pass
    assert len(seen) == 2


def test_base_reported_in_games(big_base):
    path, games = big_base
    progress, seen = recorder(gamedb.PROGRESS_GAMES)
    with gamedb.open(path, progress=progress) as r:
        assert sum(1 for _ in r) == games
    assert seen == [(4096, games), (games, games)]


def test_base_stopped(big_base):
    path, games = big_base
    progress, seen = recorder(gamedb.PROGRESS_GAMES, stop_at=1)
    with gamedb.open(path, progress=progress) as r:
        got = 0
        with pytest.raises(gamedb.GamedbError) as e:
            for _ in r:
                got += 1
        assert e.value.detail == gamedb.E_CANCELLED and got == 4096


def test_book(big_base):
    path, games = big_base
    seen = []

    def progress(unit, done, total):
        seen.append((unit, done, total))

    data = gamedb.book(path, min_game=1, progress=progress)
    assert data == gamedb.book(path, min_game=1)  # the callback changes nothing
    assert seen[0] == (gamedb.PROGRESS_GAMES, 4096, 0)
    entries = [(d, t) for u, d, t in seen if u == gamedb.PROGRESS_ENTRIES]
    assert len(entries) >= 2 and entries[-1][0] == entries[-1][1] > 0
    assert [d for d, _ in entries] == sorted(d for d, _ in entries)


def test_book_stopped(big_base):
    path, _ = big_base
    with pytest.raises(gamedb.GamedbError) as e:
        gamedb.book(path, min_game=1, progress=lambda u, d, t: False)
    assert "cancelled by the progress callback" in str(e.value)
    with pytest.raises(Stop):
        gamedb.book(path, min_game=1,
                    progress=lambda u, d, t: (_ for _ in ()).throw(Stop()))
    # Stopped in the write: the games all added, the first entries report returns False.
    with pytest.raises(gamedb.GamedbError):
        gamedb.book(path, min_game=1,
                    progress=lambda u, d, t: u != gamedb.PROGRESS_ENTRIES)
