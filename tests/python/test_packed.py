"""The fast path of the binding (issue 32, part 2): a game's headers and Game.moves() taken in
one call (gamedb_game_write_packed()) give exactly what the per-call path gives, on every real
and test base: every tag, the start position, the variant, and every field of every event
(type, depth, SAN, UCI, Chinese notation, squares, piece, promotion, move number, colour,
FEN, key, text, language, stored bytes, NAG, annotation type), with each iterator option;
failures and warnings reach the ledger as before; a game larger than the binding's buffer is
taken whole.

Where the expected values come from: the per-call path, i.e. the C API's accessors called one
by one through ctypes (gamedb.MoveIterator on the game's C copy, which is how Game.moves()
read a game before; the tags with gamedb_game_get_tag_at()), and the library's JSON writer
(Game.to_dict()); the packed layout from include/gamedb/gamedb.h (gamedb_game_write_packed()).
Real bases are read from $GAMEDB_REALDATA (skipped when absent).
"""
import ctypes
import os
import struct
from ctypes import byref, c_char_p, c_size_t

import pytest

import gamedb
from gamedb import _ffi, _packed

SRCDIR = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
TESTDATA = os.environ.get("GAMEDB_TESTDATA") or os.path.join(SRCDIR, "testdata")
REALDATA = os.environ.get("GAMEDB_REALDATA") or os.path.join(SRCDIR, "..", "shared", "realdata")
PRIMARY = (".si3", ".si4", ".si5", ".cbh", ".cbv", ".xqf", ".cdp")
HEDGEHOG = os.path.join(REALDATA, "chessbase", "morphy", "Hedgehog", "Hedgehog.cbh")
CORRUPT = os.path.join(REALDATA, "chessbase", "libcbh", "Chess960Corrupt", "Corrupt.cbh")
# Games per base compared field by field with each option (the per-call path is slow).
SLICE = int(os.environ.get("GAMEDB_PACKED_SLICE", "400"))
OPTIONS = ({}, {"fen": True, "key": True}, {"mainline_only": True, "comments": False},
           {"partial": True}, {"uci_king_takes_rook": True})
_lib = _ffi.lib


def need(path):
    if not os.path.exists(path):
        pytest.skip("real data not available: %s" % path)
    return path


def bases():
    out = []
    for tag, root in (("real", REALDATA), ("test", TESTDATA)):
        for folder, dirs, files in os.walk(root):
            dirs.sort()
            for f in sorted(files):
                if f.lower().endswith(PRIMARY):
                    p = os.path.join(folder, f)
                    out.append(pytest.param(p, id=tag + ":" + os.path.relpath(p, root)))
    return out


def fields(events):
    return [tuple(getattr(e, k) for k in gamedb._game._EVENT_FIELDS) for e in events]


def header_by_calls(gp):
    """The headers as the binding read them before: a ctypes call per tag and field."""
    pairs = []
    name, value = c_char_p(), c_char_p()
    for i in range(_lib.gamedb_game_get_tag_count(gp)):
        _lib.gamedb_game_get_tag_at(gp, i, byref(name), byref(value))
        pairs.append((_ffi._decode(name.value) or "", _ffi._decode(value.value) or ""))
    return (_lib.gamedb_game_get_index(gp), pairs, _lib.gamedb_game_get_fen(gp),
            _lib.gamedb_game_get_variant(gp), bool(_lib.gamedb_game_is_deleted(gp)))


def by_calls(g, **options):
    """The events of g through the per-event C iterator (the game's copy), or the GameFailed."""
    flags = 0
    flags |= _ffi.ITER_MAINLINE_ONLY if options.get("mainline_only") else 0
    flags |= _ffi.ITER_SKIP_COMMENTS if options.get("comments") is False else 0
    flags |= _ffi.ITER_FEN if options.get("fen") else 0
    flags |= _ffi.ITER_PARTIAL if options.get("partial") else 0
    flags |= _ffi.ITER_UCI_KING_TAKES_ROOK if options.get("uci_king_takes_rook") else 0
    try:
        return fields(gamedb.MoveIterator(g, flags, bool(options.get("key"))))
    except gamedb.GameFailed as e:
        return ("failed", e.index, e.file, e.message)


def packed(g, **options):
    try:
        return fields(g.moves(**options))
    except gamedb.GameFailed as e:
        return ("failed", e.index, e.file, e.message)


@pytest.mark.parametrize("path", bases())
def test_packed_equals_per_call_path(path):
    """Every game: headers as the per-tag calls give them; moves() packed from the borrowed
    game (the reader's current one), from the game's copy, and the per-event iterator all the
    same, with every option on the first SLICE games; each game's warning and the ledger as the
    per-call walk gives them."""
    with gamedb.open(path, errors="skip") as r:
        count = r.game_count
        seen = 0
        warnings = {}
        for g in r:
            seen += 1
            assert header_by_calls(r._current_ptr) == (
                g.index, g.tag_list, g.fen,
                {v: k for k, v in gamedb._game._VARIANTS.items()}[g.variant], g.deleted)
            assert g.tags == dict(reversed(g.tag_list))
            borrowed = packed(g)          # the reader's borrowed game: no copy made
            assert not g._ptr  # packed from the borrowed game: no copy was made
            assert borrowed == by_calls(g)  # the copy, event by event
            assert packed(g) == borrowed     # now packed from the copy
            if g.index < SLICE:
                for options in OPTIONS[1:]:
                    assert packed(g, **options) == by_calls(g, **options), options
            warnings[g.index] = g.warning
        fast = r.ledger
    with gamedb.open(path, errors="skip") as r:  # the ledger of the per-call path alone
        for g in r:
            by_calls(g)
            assert g.warning == warnings.pop(g.index)  # the same words for a loss
        assert fast == r.ledger and not warnings
    if count is not None:
        assert fast.delivered + fast.failed == count


@pytest.mark.parametrize("path", bases())
def test_packed_equals_json_writer(path):
    """The moves in PGN order (a move, then its variations, then the next move) with their
    SAN and UCI, the tags and the start position, as the JSON writer gives them."""
    with gamedb.open(path, errors="skip") as r:
        for g in r:
            if g.index >= SLICE:
                break
            try:
                d = g.to_dict()
            except gamedb.GameFailed:
                with pytest.raises(gamedb.GameFailed):
                    g.moves()
                continue
            # (a repeated tag: json keeps the last of the duplicate keys)
            assert d["tags"] == dict(g.tag_list) and d["fen"] == g.fen
            want, stack = [], [iter(d["moves"])]
            while stack:
                m = next(stack[-1], None)
                if m is None:
                    stack.pop()
                    continue
                if "variations_flat" in m:  # hostile depth, written flat: not compared
                    return
                want.append((m["san"], m["uci"]))
                for v in reversed(m.get("variations", [])):
                    stack.append(iter(v))
            # The JSON tree walked depth first (a move, its variations, the next move) is the
            # order of the event stream.
            assert [(e.san, e.uci) for e in g.moves() if e.type == "move"] == want


def test_a_game_larger_than_the_buffer(monkeypatch):
    """A buffer too small for every game: each is packed again with room for all of it."""
    path = need(HEDGEHOG)
    with gamedb.open(path) as r:
        want = [(g.tag_list, packed(g, fen=True, key=True)) for g in r]
    monkeypatch.setattr(_packed, "_FIRST", 64)
    monkeypatch.setattr(_packed, "_pool", [])
    with gamedb.open(path) as r:
        got = [(g.tag_list, packed(g, fen=True, key=True)) for g in r]
    assert got == want


def test_a_real_game_larger_than_the_first_buffer():
    """Hedgehog's game 116 with FENs and keys packs to more than the binding's first buffer
    (64 KiB): taken whole, as the per-call path gives it, and the buffer kept for the next."""
    path = need(HEDGEHOG)
    with gamedb.open(path) as r:
        g = r[115]
        n = c_size_t()
        _lib.gamedb_game_write_packed(r._current_ptr, _ffi.ITER_FEN | _packed.PACK_KEYS, None,
                                      0, byref(n))
        assert n.value > _packed._FIRST
        assert packed(g, fen=True, key=True) == by_calls(g, fen=True, key=True)
        assert max(len(buf[0]) for buf in _packed._pool) >= n.value


def test_the_c_contract():
    """gamedb_game_write_packed() as the header says: the size asked with no room, nothing
    usable below it, the layout (magic, version, counts, sections) at it, unknown flags
    refused."""
    path = need(HEDGEHOG)
    with gamedb.open(path) as r:
        g = next(r)
        gp = r._current_ptr
        n = c_size_t()
        assert _lib.gamedb_game_write_packed(gp, 0, None, 0, byref(n)) == gamedb.OK
        size = n.value
        assert size > 56
        small = ctypes.create_string_buffer(size - 1)
        assert _lib.gamedb_game_write_packed(gp, 0, small, size - 1, byref(n)) == gamedb.OK
        assert n.value == size
        buf = ctypes.create_string_buffer(size)
        assert _lib.gamedb_game_write_packed(gp, 0, buf, size, byref(n)) == gamedb.OK
        data = buf.raw
        (magic, version, hsize, flags, nevents, ntags, soff, slen, roff, rlen, index, variant,
         deleted) = struct.unpack_from("<4sIIIIIIIIIQII", data)
        assert (magic, version, hsize, flags, index, deleted) == (b"GDBK", 1, 56, 0, 0, 0)
        assert nevents == len(list(g.moves())) and ntags == len(g.tag_list)
        assert soff == 56 + 32 * nevents and roff == soff + slen and roff + rlen == size
        strs = data[soff:soff + slen].split(b"\0")
        assert [s.decode() for s in strs[:2 * ntags]] == [x for t in g.tag_list for x in t]
        assert strs[2 * ntags].decode() == g.fen
        assert _lib.gamedb_game_write_packed(gp, 0x40000000, buf, size, byref(n)) == \
            gamedb.FAILED
        # A record that is not a move holds -1 and -1 as its squares (bytes 4..7).
        events = list(g.moves())
        recs = [data[56 + 32 * i:56 + 32 * (i + 1)] for i in range(nevents)]
        assert any(e.type != "move" for e in events)
        for e, rec in zip(events, recs):
            if e.type != "move":
                assert struct.unpack_from("<hh", rec, 4) == (-1, -1), e


def test_the_grouped_layout():
    """GAMEDB_PACK_GROUPED as the header says: H is 80, the same records, the tags and the
    FEN first in the string section, then six groups (SAN, UCI, Chinese, FEN, text, language),
    each the values of every event that has it, in order, found at the header's offsets."""
    for path in (need(HEDGEHOG), os.path.join(TESTDATA, "xqf", "enc-v11-endgame.xqf")):
        if not os.path.exists(path):
            continue
        with gamedb.open(path) as r:
            for g in r:
                if g.index >= 20:
                    break
                gp = r._current_ptr
                n = c_size_t()
                flags = _ffi.ITER_FEN | _packed.PACK_GROUPED
                _lib.gamedb_game_write_packed(gp, _ffi.ITER_FEN, None, 0, byref(n))
                plain = ctypes.create_string_buffer(n.value)
                _lib.gamedb_game_write_packed(gp, _ffi.ITER_FEN, plain, n.value, byref(n))
                plain = plain.raw
                _lib.gamedb_game_write_packed(gp, flags, None, 0, byref(n))
                buf = ctypes.create_string_buffer(n.value)
                assert _lib.gamedb_game_write_packed(gp, flags, buf, n.value, byref(n)) == \
                    gamedb.OK
                data = buf.raw
                assert len(data) == len(plain) + 24
                (magic, version, hsize, got_flags, nevents, ntags, soff, slen, roff, rlen, _, _,
                 _) = struct.unpack_from("<4sIIIIIIIIIQII", data)
                assert (magic, version, hsize, got_flags) == (b"GDBK", 1, 80, flags)
                assert data[80:80 + 32 * nevents] == plain[56:56 + 32 * nevents]
                assert data[roff:roff + rlen] == plain[-rlen:] if rlen else True
                offs = list(struct.unpack_from("<6I", data, 56)) + [soff + slen]
                head = data[soff:offs[0]].split(b"\0")
                assert [x.decode() for x in head[:2 * ntags]] == \
                    [x for t in g.tag_list for x in t]
                assert head[2 * ntags].decode() == g.fen and head[2 * ntags + 1:] == [b""]
                events = list(g.moves(fen=True))
                assert len(events) == nevents
                for i, name in enumerate(("san", "uci", "chinese", "fen", "text", "language")):
                    want = [getattr(e, name) for e in events if getattr(e, name) is not None]
                    group = data[offs[i]:offs[i + 1]]
                    assert [x.decode() for x in group.split(b"\0")[:-1]] == want, name


def columns_and_events(m, events):
    """Each Event field's column of m against the events' attributes: equal values of the
    same types (None where the event has none)."""
    for name in gamedb._game._EVENT_FIELDS:
        col = m.column(name)
        want = [getattr(e, name) for e in events]
        assert col == want, name
        assert [type(x) for x in col] == [type(x) for x in want], name


@pytest.mark.parametrize("path", bases())
def test_columns_equal_events(path):
    """MoveIterator.column() of every Event field, on every game with the default options and
    on the first SLICE games with each option, equals the field of the Event objects the same
    iterator gives (before and after its iteration), and those of the per-event C iterator."""
    with gamedb.open(path, errors="skip") as r:
        for g in r:
            for options in (OPTIONS if g.index < SLICE else OPTIONS[:1]):
                try:
                    m = g.moves(**options)
                except gamedb.GameFailed:
                    continue
                untouched = g.moves(**options)
                events = list(m)
                columns_and_events(untouched, events)   # no Event made
                columns_and_events(m, events)           # after the iteration
                if g.index < 50:
                    assert fields(events) == by_calls(g, **options)


def test_column_misuse():
    """column(): an unknown field is a ValueError; on an iterator made directly (the C one,
    event by event) a TypeError; after close() it still answers, the iteration ends."""
    with gamedb.open(os.path.join(TESTDATA, "scid", "moves.si4")) as r:
        g = next(r)
        m = g.moves()
        with pytest.raises(ValueError):
            m.column("nope")
        with pytest.raises(TypeError):
            gamedb.MoveIterator(g, 0).column("san")
        sans = m.column("san")
        m.close()
        assert list(m) == [] and m.column("san") == sans and any(sans)


def test_failed_moves_are_reported_and_counted():
    """Every game of Corrupt.cbh fails to decode (as meant): moves() raises GameFailed naming
    the game and the file, with partial=True gives the legal part, and the ledger counts each
    game failed once: delivered + failed = the count."""
    path = need(CORRUPT)
    with gamedb.open(path) as r:
        count = r.game_count
        for g in r:
            with pytest.raises(gamedb.GameFailed) as e:
                g.moves()
            assert (e.value.index, e.value.file) == (g.index, path)
            assert packed(g, partial=True) == by_calls(g, partial=True)
        assert r.ledger.failed == count and r.ledger.delivered == 0


BIEL = os.path.join(REALDATA, "chessbase", "libcbh", "NormalGames", "BielMTO.cbh")


def chessbase_by_calls(r):
    """The ChessBase fields of the reader's current game, a call per field, as Game() read
    them before."""
    return {k: _lib.gamedb_chessbase_get_game_field(r._cb_ptr, r._current_ptr, f)
            for k, f in gamedb.CHESSBASE_FIELDS.items()}


def test_chessbase_fields_read_when_asked():
    """Game.chessbase is read when first asked for (a header listing does not pay for it),
    and gives what the calls at read time gave, whenever it is asked: while the game is the
    reader's, after the reader moved on, after the reader or the game was closed, after
    moves() took the game without a copy."""
    path = need(BIEL)
    with gamedb.open(path) as r:
        want = []
        for g in r:
            want.append(chessbase_by_calls(r))
            assert g._chessbase is gamedb._game._LATER  # not read by the listing
            if g.index % 5 == 0:
                assert g.chessbase == want[-1]          # the reader's current game
    assert len(want) > 500 and len({w["mainline_moves"] for w in want}) > 10
    with gamedb.open(path) as r:
        games = list(r)
        assert [g.chessbase for g in games[:50]] == want[:50]  # after the reader moved on
        for g in games[50:100]:
            g.close()                                          # read by close()
        for g in games[100:150]:
            list(g.moves())
        r.seek(0)
        next(r)
    assert [g.chessbase for g in games[50:]] == want[50:]      # read before the reader closed
    with gamedb.open(need(HEDGEHOG)) as r:
        g = next(r)
        assert g.chessbase is not None
    with gamedb.open(os.path.join(TESTDATA, "scid", "moves.si4")) as r:
        assert next(r).chessbase is None


# ---- the columns' bulk steps (issue 32: the walk within 5x of C) ------------------------

def spread_by_steps(has, values):
    """_packed._spread() the plain way: values in order where has holds 1, None at 0."""
    it = iter(values)
    return [next(it) if h else None for h in has]


def test_spread_every_way():
    """_spread() gives, for every mix of events with and without the value (few Nones, the
    result after the moves; runs; a value on a few events; none; all), what a step per event
    gives: each of its three ways (Nones inserted, runs copied, values set one by one)."""
    cases = [b"", b"\0", b"\1", b"\1" * 40 + b"\0", b"\0" + b"\1" * 40, b"\1" * 20 + b"\0" +
             b"\1" * 20 + b"\0\0", (b"\1\1\0" * 30), (b"\0\0\0\0\1" * 12), b"\0" * 30 + b"\1",
             b"\1\0" * 25, b"\0" * 50]
    for has in cases:
        values = ["v%d" % i for i in range(has.count(1))]
        assert _packed._spread(has, list(values)) == spread_by_steps(has, values), has


SQUARE_BASES = [HEDGEHOG, os.path.join(REALDATA, "chessbase", "libcbh", "Chess960NonStandard",
                                       "Chess960NonStandard.cbh"),
                os.path.join(TESTDATA, "xqf", "enc-v11-endgame.xqf")]


def test_square_columns_either_way(monkeypatch):
    """The squares read from their low bytes (every square -1..254) and, when a high byte is
    not the low byte's sign (never on a real base: forced here), from the 16-bit fields: both
    equal the Event objects' squares, xiangqi's 0..89 and drops' None included."""
    bases = [p for p in SQUARE_BASES if os.path.exists(p)]
    if not bases:
        pytest.skip("no base for the squares")
    for forced in (False, True):
        if forced:  # no record's high byte is ever 1: every column takes the 16-bit fields
            monkeypatch.setattr(_packed, "_HIGH_OF", bytes([1]) * 256)
        for path in bases:
            with gamedb.open(path, errors="skip") as r:
                for g in r:
                    if g.index >= 60:
                        break
                    try:
                        m = g.moves()
                    except gamedb.GameFailed:
                        continue
                    events = list(g.moves())
                    for name in ("from_square", "to_square"):
                        assert m.column(name) == [getattr(e, name) for e in events], \
                            (path, g.index, name, forced)


def test_pending_games_pruned_and_copied_at_close(monkeypatch):
    """The reader keeps the games it handed out without a copy by weak reference: a walk that
    drops each game leaves few of them (the dead are pruned when the entries double the live
    ones), and the games still alive when the reader closes get their own copy (their moves
    stay readable)."""
    path = need(HEDGEHOG)
    monkeypatch.setattr(gamedb._reader, "_PRUNE_FIRST", 8)  # Hedgehog: 204 games
    with gamedb.open(path) as r:
        kept = []
        most = 0
        for g in r:
            if g.index % 37 == 0:
                kept.append(g)
            most = max(most, len(r._pending))
        assert g.index + 1 > 100 and len(kept) > 3
        assert most <= 2 * (len(kept) + 1) + 1 and len(r._pending) <= most
        assert {id(k) for k in kept} <= set(r._pending)
        want = [[(e.type, e.san) for e in k.moves()] for k in kept[:3]]
    assert all(k._ptr for k in kept)  # copied by close()
    assert [[(e.type, e.san) for e in k.moves()] for k in kept[:3]] == want
