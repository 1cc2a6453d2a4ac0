"""The loss ledger of the Python binding (issue 26, item 6): no game lost without a word. A
game the library cannot give raises GameFailed (which game of which file), the iteration goes
on after it, a loss is a warning, and Reader.ledger counts delivered, failed and warned games.

Where the expected values come from:
- game counts and record places of SCID bases: the si4 index itself (numGames, a 3-byte
  big-endian count at offset 14; 47-byte records after the header, each starting with the
  game's offset (4 bytes) and length (2 bytes, bit 16 in bit 7 of the next byte) in the .sg4),
  as ../shared/formats/NOTES.md section 1.2 describes the format;
- ChessBase: the .cbh records (46 bytes after a 46-byte header; bytes 1-4 the game's offset in
  the .cbg) and the .cbg flags byte (bits 0-5 the encoding mode), NOTES.md 2.3 and 2.5; a game
  stored in mode 63 fails (doc/formats/chessbase.md, "Encoding modes");
- which games of a base fail or lose something: the `gamedb` command's report on stderr for the
  same base (tools/gamedb.c, which counts through the C API on its own, not through this
  binding); a one-game file's messages need not name the game;
- StandardMissingPop.cbh (libcbh's test base "NormalNoPop"): its games lack the final marker.
Real bases are read from $GAMEDB_REALDATA; tests that need them are skipped when it is absent.
"""
import os
import re
import struct
import subprocess
import warnings

import pytest

import gamedb

SRCDIR = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
TESTDATA = os.environ.get("GAMEDB_TESTDATA") or os.path.join(SRCDIR, "testdata")
REALDATA = os.environ.get("GAMEDB_REALDATA") or os.path.join(SRCDIR, "..", "shared", "realdata")
TOOL = os.environ.get("GAMEDB_TOOL")
MOVES = os.path.join(TESTDATA, "scid", "moves.si4")
TACTICS = os.path.join(REALDATA, "scid", "scidvspc-modern", "si4", "tactics", "tactics.si4")
BIEL = os.path.join(REALDATA, "chessbase", "libcbh", "NormalGames", "BielMTO.cbh")
NOPOP = os.path.join(REALDATA, "chessbase", "libcbh", "NormalNoPop", "StandardMissingPop.cbh")
# The command's summary of a base where anything failed (issue 26).
SUMMARY = re.compile(r"^gamedb: .*: [\d,]+ games? written, [\d,]+ failed, [\d,]+ with warnings$")
# The files a base is opened by (as scripts/refcheck.py lists them).
PRIMARY = (".si3", ".si4", ".si5", ".cbh", ".cbv", ".xqf", ".cdp")


def need(path):
    if not os.path.exists(path):
        pytest.skip("real data not available: %s" % path)
    return path


def scid_index(si4):
    """(numGames, [(offset, length)] of every record) from a v400 index."""
    data = open(si4, "rb").read()
    n = int.from_bytes(data[14:17], "big")
    header = len(data) - n * 47
    recs = []
    for i in range(n):
        e = data[header + 47 * i:header + 47 * (i + 1)]
        recs.append((int.from_bytes(e[0:4], "big"),
                     int.from_bytes(e[4:6], "big") | (e[6] >> 7) << 16))
    return n, recs


def copy_base(src_si4, dst, cut_sg4=None):
    """Copies a SCID base into folder dst (the .sg4 cut at byte cut_sg4); the new .si4."""
    stem = src_si4[:-4]
    name = os.path.basename(stem)
    for ext in (".si4", ".sn4", ".sg4"):
        data = open(stem + ext, "rb").read()
        if ext == ".sg4" and cut_sg4 is not None:
            data = data[:cut_sg4]
        with open(os.path.join(dst, name + ext), "wb") as f:
            f.write(data)
    return os.path.join(dst, name + ".si4")


def read_all(r):
    """Reads every game of r and decodes its moves (pgn()), going on past every GameFailed:
    ({index: pgn} of the games delivered, {index: GameFailed}, {index: warning})."""
    texts, failed, warned = {}, {}, {}
    while True:
        try:
            g = next(r)
        except StopIteration:
            break
        except gamedb.GameFailed as e:
            failed[e.index] = e
            continue
        try:
            texts[g.index] = g.pgn()
        except gamedb.GameFailed as e:
            assert e.index == g.index
            failed[e.index] = e
            continue
        if g.warning:
            warned[g.index] = g.warning
    return texts, failed, warned


# A warning of the open about the whole base (doc/formats/chessbase.md: a .cbj missing beside a
# .cbe that holds teams; scid.md/chessbase.md: a header that counts fewer games than present).
OPEN_WARNING = re.compile(r"\.cb[a-z]+ is missing: |: the header counts ")


def command_report(path, count):
    """(failed, warned): the sets of 0-based game indexes the gamedb command reports for a
    base, all its games (deleted ones too) written as PGN."""
    p = subprocess.run([TOOL, "pgn", "--include-deleted", path], stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, text=True, errors="replace")
    assert p.returncode in (0, 1), p.stderr
    failed, warned = set(), set()
    for line in p.stderr.splitlines():
        if SUMMARY.match(line):
            continue  # the run's summary line, not a game
        m = re.search(r"\bgame (\d+)\b", line)
        if m:
            index = int(m.group(1)) - 1
        elif line.startswith("gamedb: warning: ") and OPEN_WARNING.search(line):
            continue  # the base's own warning at the open (a missing file), no game's
        else:
            assert count == 1, "a message that names no game: %r" % line
            index = 0
        (warned if line.startswith("gamedb: warning: ") else failed).add(index)
    return failed, warned - failed


# ---- 3. failures are reported, and the iteration goes on ------------------------------------

class FailingLib:
    """The loaded library with gamedb_reader_next_game() failing for some games as the C API
    says a format fails one (GAMEDB_FAILED, *out NULL, the next call goes on with the next
    game): no base of the formats read today fails a game's header this way, but the binding
    must handle it."""

    def __init__(self, lib, fail):
        self.lib = lib
        self.fail = fail

    def __getattr__(self, name):
        return getattr(self.lib, name)

    def gamedb_reader_next_game(self, r, out):
        rc = self.lib.gamedb_reader_next_game(r, out)
        index = self.lib.gamedb_game_get_index(out._obj)
        if index in self.fail:
            raise gamedb.GamedbError(gamedb.FAILED, gamedb.E_CORRUPT,
                                     "x.sg4: game %d: made to fail" % (index + 1))
        return rc


@pytest.fixture
def failing(monkeypatch):
    # The reader's module calls gamedb_reader_next_game() (gamedb/_reader.py): the table's
    # entry, and its handle without argtypes (_next_game, whose caller checks the status).
    lib = FailingLib(gamedb._reader._lib, {2, 5})
    monkeypatch.setattr(gamedb._reader, "_lib", lib)
    monkeypatch.setattr(gamedb._reader, "_next_game", lib.gamedb_reader_next_game)
    return scid_index(MOVES)[0]


def test_iteration_raises_game_failed_and_goes_on(failing):
    n = failing
    got, failures = [], []
    with gamedb.open(MOVES) as r:
        while True:
            try:
                got.append(next(r).index)
            except StopIteration:
                break
            except gamedb.GameFailed as e:
                failures.append(e)
        assert got == [i for i in range(n) if i not in (2, 5)]
        assert [(e.index, e.number, e.file, e.code) for e in failures] == \
            [(2, 3, MOVES, gamedb.FAILED), (5, 6, MOVES, gamedb.FAILED)]
        assert isinstance(failures[0], gamedb.GamedbError)
        assert "game 3" in failures[0].message and "game 3" in str(failures[0])
        assert r.ledger == gamedb.Ledger(delivered=n - 2, failed=2, warned=0)
        # r[i] of the failed game raises it as well, and counts it once.
        with pytest.raises(gamedb.GameFailed) as e:
            r[5]
        assert e.value.index == 5
        assert r.ledger == (n - 2, 2, 0)
    assert (r.delivered, r.failed, r.warned) == (n - 2, 2, 0)  # after close too


def test_a_for_loop_stops_at_a_failure_and_resumes(failing):
    n = failing
    with gamedb.open(MOVES) as r:
        seen = []
        with pytest.raises(gamedb.GameFailed):
            for g in r:
                seen.append(g.index)
        assert seen == [0, 1]
        with pytest.raises(gamedb.GameFailed):  # the same loop again goes on after it
            for g in r:
                seen.append(g.index)
        assert seen == [0, 1, 3, 4]
        seen.extend(g.index for g in r)
        assert seen == [i for i in range(n) if i not in (2, 5)]


@pytest.mark.parametrize("policy", ["warn", "skip"])
def test_warn_and_skip_count_the_failures(failing, policy):
    n = failing
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with gamedb.open(MOVES, errors=policy) as r:
            assert [g.index for g in r] == [i for i in range(n) if i not in (2, 5)]
            assert r.ledger == (n - 2, 2, 0)
    said = [str(w.message) for w in caught if issubclass(w.category, gamedb.GamedbWarning)]
    assert said == (["x.sg4: game 3: made to fail", "x.sg4: game 6: made to fail"]
                    if policy == "warn" else [])


def test_moves_that_fail_raise_game_failed(tmp_path):
    n, recs = scid_index(MOVES)
    cut = 300
    broken = {i for i, (off, length) in enumerate(recs) if off + length > cut}
    assert broken and len(broken) < n
    path = copy_base(MOVES, str(tmp_path), cut_sg4=cut)
    with gamedb.open(MOVES) as r:
        intact = [g.pgn() for g in r]
    with gamedb.open(path) as r:
        texts, failed, _ = read_all(r)
        assert set(failed) == broken
        for i, e in failed.items():
            assert (e.index, e.number, e.file) == (i, i + 1, path)
            assert e.code == gamedb.FAILED and "sg4" in e.message
        assert texts == {i: intact[i] for i in range(n) if i not in broken}
        assert r.ledger == (n - len(broken), len(broken), 0)
        g = r[min(broken)]
        with pytest.raises(gamedb.GameFailed):
            list(g.moves())
        assert list(g.moves(partial=True)) is not None  # the part before the failure
        assert r.ledger == (n - len(broken), len(broken), 0)  # counted once


def test_ledger_counts_each_game_once():
    n, _ = scid_index(MOVES)
    with gamedb.open(MOVES) as r:
        assert r.ledger == (0, 0, 0)
        list(r)
        r[0].pgn()
        r[0]
        r.seek(0)
        list(r)
        assert r.ledger == (n, 0, 0) == (r.delivered, r.failed, r.warned)


def test_a_loss_found_in_the_moves_is_a_warning():
    with gamedb.open(need(NOPOP)) as r:
        texts, failed, warned = read_all(r)
        n = r.game_count
        assert not failed and len(texts) == n
        assert warned and all("final marker" in w for w in warned.values())
        assert r.ledger == (n, 0, len(warned))


# ---- 5. the ledger over every base, and over damaged ones ------------------------------------

def bases():
    out = []
    for tag, root in (("real", REALDATA), ("test", TESTDATA)):
        for folder, dirs, files in os.walk(root):
            dirs.sort()
            for f in sorted(files):
                if f.lower().endswith(PRIMARY):
                    out.append(pytest.param(os.path.join(folder, f),
                                            id=tag + ":" + os.path.relpath(os.path.join(folder, f),
                                                                           root)))
    return out


def test_every_base_is_seen():
    if not os.path.isdir(REALDATA):
        pytest.skip("real data not available: %s" % REALDATA)
    kinds = {os.path.splitext(p.values[0])[1].lower() for p in bases()}
    assert {".si3", ".si4", ".si5", ".cbh", ".xqf"} <= kinds


@pytest.mark.parametrize("path", bases())
def test_ledger_of_every_base(path):
    if not TOOL:
        pytest.skip("GAMEDB_TOOL is not set")
    with gamedb.open(path) as r:
        count = r.game_count
        texts, failed, warned = read_all(r)
        ledger = r.ledger
    assert ledger.delivered + ledger.failed == count
    assert ledger == (len(texts), len(failed), len(warned))
    assert (set(failed), set(warned)) == command_report(path, count)


def test_cut_sg4_of_a_real_base(tmp_path):
    n, recs = scid_index(need(TACTICS))
    cut = 900000
    broken = {i for i, (off, length) in enumerate(recs) if off + length > cut}
    # Scid wrote this base's games out of order: failures come between delivered games.
    assert 0 in broken and 5 not in broken and len(broken) < n
    path = copy_base(TACTICS, str(tmp_path), cut_sg4=cut)
    with gamedb.open(path) as r:
        texts, failed, _ = read_all(r)
        assert set(failed) == broken and len(texts) == n - len(broken)
        assert r.ledger.delivered + r.ledger.failed == n == r.game_count
        assert r.ledger.failed == len(broken)


def test_flipped_cbg_byte(tmp_path):
    stem = need(BIEL)[:-4]
    for name in os.listdir(os.path.dirname(BIEL)):
        data = open(os.path.join(os.path.dirname(BIEL), name), "rb").read()
        (tmp_path / name).write_bytes(data)
    cbh = open(BIEL, "rb").read()
    n = len(cbh) // 46 - 1
    victims = (3, 200)
    cbg = bytearray(open(stem + ".cbg", "rb").read())
    for i in victims:
        off = struct.unpack(">I", cbh[46 * (i + 1) + 1:46 * (i + 1) + 5])[0]
        assert cbg[off] & 0x3F == 0  # stored in the usual mode 0
        cbg[off] ^= 0x3F             # now mode 63, which fails the game
    (tmp_path / os.path.basename(stem + ".cbg")).write_bytes(bytes(cbg))
    path = str(tmp_path / os.path.basename(BIEL))
    with gamedb.open(BIEL) as r:
        intact = [g.pgn() for g in r]
    with gamedb.open(path) as r:
        texts, failed, _ = read_all(r)
        assert set(failed) == set(victims)
        assert all(e.file == path and "mode 63" in e.message for e in failed.values())
        assert texts == {i: intact[i] for i in range(n) if i not in victims}
        assert r.ledger == (n - 2, 2, 0) and r.game_count == n
    if TOOL:
        assert command_report(path, n)[0] == set(victims)
