"""Tests of the Python ctypes binding (python/gamedb).

Expected values come from outside our code:
- the real five-game base (../shared/realdata/scid/scidtopgn/five) ships with five.pgn, the PGN
  it was imported from; the facts written out below (names, last moves, results) were checked
  by hand against that file and against the real Scid's export of the base
  (/work/shared/tools/scid-export.sh);
- testdata/scid/NAME.oracle.pgn files are the real Scid's export of each fixture base;
- the tactics base facts (game 86 with a variation, a NAG and a comment; game 48 with a
  promotion) were read by hand from the real Scid's export of that base;
- the header facts of the SCID index (games = 3-byte big-endian count at offset 14, record
  sizes) are those of the SCID format.
Real bases are read from $GAMEDB_REALDATA; tests that need them are skipped when it is absent.
"""
import collections
import ctypes
import gc
import io
import os
import re
import subprocess
import sys

import pytest

import gamedb
from gamedb import _ffi

SRCDIR = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
TESTDATA = os.environ.get("GAMEDB_TESTDATA") or os.path.join(SRCDIR, "testdata")
REALDATA = os.environ.get("GAMEDB_REALDATA") or os.path.join(SRCDIR, "..", "shared", "realdata")
SCID_REAL = os.path.join(REALDATA, "scid")
FIVE_DIR = os.path.join(SCID_REAL, "scidtopgn", "five")
FIVE = os.path.join(FIVE_DIR, "five.si4")
TACTICS = os.path.join(SCID_REAL, "scidvspc-modern", "si4", "tactics", "tactics.si4")
SCID_FIXTURES = os.path.join(TESTDATA, "scid")

UCI_RE = re.compile(r"^[a-h][1-8][a-h][1-8][nbrq]?$")
SEVEN_TAG_ROSTER = ["Event", "Site", "Date", "Round", "White", "Black", "Result"]


def need(path):
    if not os.path.exists(path):
        pytest.skip("real data not available: %s" % path)
    return path


@pytest.fixture
def five():
    return need(FIVE)


@pytest.fixture
def tactics():
    return need(TACTICS)


Base = collections.namedtuple("Base", "path name reference")


@pytest.fixture(params=["five", "fixture-moves"])
def base(request):
    """A SCID base with reference games from outside our code: the real five-game base with
    the PGN it was imported from, or the in-tree fixture with the real Scid's export."""
    if request.param == "five":
        path = need(FIVE)
        ref = os.path.join(FIVE_DIR, "five.pgn")
    else:
        path = os.path.join(SCID_FIXTURES, "moves.si4")
        ref = os.path.join(SCID_FIXTURES, "moves.oracle.pgn")
        if not os.path.exists(path) or not os.path.exists(ref):
            pytest.skip("no moves.si4 fixture in %s" % SCID_FIXTURES)
    return Base(path, os.path.basename(path), parse_pgn(open(ref, encoding="utf-8").read()))


def read_files(si4):
    """{basename: bytes} of a SCID base's three files."""
    stem = si4[:-len(".si4")]
    return {os.path.basename(stem + ext): open(stem + ext, "rb").read()
            for ext in (".si4", ".sn4", ".sg4")}


# ---- an independent reader of PGN text (for five.pgn and Scid's exports) ---------------

_TOKEN = re.compile(r"""
    (?P<comment>\{[^}]*\})
  | (?m:^\[(?P<tag>\w+)\ "(?P<value>.*)"\][ \t]*$)
  | (?P<open>\()
  | (?P<close>\))
  | \$(?P<nag>\d+)
  | (?P<result>1-0|0-1|1/2-1/2|\*)
  | (?P<number>\d+\.(?:\.\.)?)
  | (?P<san>[^\s(){}$]+)
""", re.X)


def parse_pgn(text):
    """Games as dicts: tags (list of pairs), sans, comments, nags (main line only), result."""
    games = []
    depth = 0
    last_was_tag = False
    for m in _TOKEN.finditer(text):
        kind = m.lastgroup if m.lastgroup != "value" else "tag"
        if kind == "tag":
            if not last_was_tag:
                games.append({"tags": [], "sans": [], "comments": [], "nags": [],
                              "result": None})
                depth = 0
            games[-1]["tags"].append((m.group("tag"), m.group("value")))
            last_was_tag = True
            continue
        last_was_tag = False
        g = games[-1]
        if kind == "open":
            depth += 1
        elif kind == "close":
            depth -= 1
        elif depth:
            continue
        elif kind == "comment":
            g["comments"].append(" ".join(m.group("comment")[1:-1].split()))
        elif kind == "nag":
            g["nags"].append(int(m.group("nag")))
        elif kind == "result":
            g["result"] = m.group("result")
        elif kind == "san":
            g["sans"].append(m.group("san"))
    return games


def mainline(game):
    """What parse_pgn() extracts, from the binding's events."""
    sans, comments, nags, result = [], [], [], None
    for ev in game.moves():
        if ev.depth:
            continue
        if ev.type == "move":
            sans.append(ev.san)
        elif ev.type in ("comment_before", "comment_after"):
            comments.append(" ".join(ev.text.split()))
        elif ev.type == "nag":
            nags.append(ev.nag)
        elif ev.type == "result":
            result = ev.text
    return {"sans": sans, "comments": comments, "nags": nags, "result": result}


# ---- the symbol table --------------------------------------------------------------------

def map_symbols():
    text = open(os.path.join(SRCDIR, "lib", "libgamedb.map")).read()
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    names = set()
    for block in re.findall(r"global:(.*?)(?:local:|\})", text, flags=re.S):
        names.update(re.findall(r"\b(gamedb_\w+)\s*;", block))
    return names


def header_prototypes():
    """{name: (return type, [parameter types])} of every GAMEDB_EXPORT in the public headers."""
    inc = os.path.join(SRCDIR, "include", "gamedb")
    text = "\n".join(open(os.path.join(inc, f)).read() for f in sorted(os.listdir(inc))
                     if f.endswith(".h"))
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    protos = {}
    for ret, name, params in re.findall(r"GAMEDB_EXPORT\s+([^;()]*?)\b(gamedb_\w+)\s*\(([^)]*)\)\s*;",
                                        text):
        types = []
        for p in params.split(","):
            p = " ".join(p.split())
            if p in ("void", ""):
                continue
            # Drop the parameter name: the last identifier.
            p = re.sub(r"\b\w+$", "", p).strip()
            types.append(" ".join(p.replace("*", " * ").split()))
        protos[name] = (" ".join(ret.replace("*", " * ").split()), types)
    return protos


C_TYPES = {
    "void": None,
    "int32_t": ctypes.c_int32, "uint32_t": ctypes.c_uint32, "int64_t": ctypes.c_int64,
    "uint64_t": ctypes.c_uint64, "size_t": ctypes.c_size_t,
    "const char *": ctypes.c_char_p,
    "const char * *": ctypes.POINTER(ctypes.c_char_p),
    "const char * const *": ctypes.POINTER(ctypes.c_char_p),
    "void *": ctypes.c_void_p, "const void *": ctypes.c_void_p,
    "const void * const *": ctypes.POINTER(ctypes.c_void_p),
    "uint64_t *": ctypes.POINTER(ctypes.c_uint64), "uint32_t *": ctypes.POINTER(ctypes.c_uint32),
    "size_t *": ctypes.POINTER(ctypes.c_size_t),
    "const size_t *": ctypes.POINTER(ctypes.c_size_t),
    "int32_t *": ctypes.POINTER(ctypes.c_int32),
    "int64_t *": ctypes.POINTER(ctypes.c_int64),
    "gamedb_text_converter_fn": _ffi.TEXT_CONVERTER_FN,
    "gamedb_write_fn": _ffi.WRITE_FN,
    "gamedb_progress_fn": _ffi.PROGRESS_FN,
    "struct gamedb_io *": ctypes.POINTER(_ffi.Io),
    "const struct gamedb_io *": ctypes.POINTER(_ffi.Io),
}
for _c, _p in (("reader", _ffi.ReaderP), ("game", _ffi.GameP), ("move_iter", _ffi.MoveIterP),
               ("event", _ffi.EventP), ("scid", _ffi.ScidP), ("chessbase", _ffi.ChessbaseP),
               ("book", _ffi.BookP), ("chessassistant", _ffi.ChessAssistantP),
               ("style12_line", _ffi.Style12LineP), ("style12_session", _ffi.Style12SessionP),
               ("query", _ffi.QueryP), ("tree", _ffi.TreeP),
               ("book_reader", _ffi.BookReaderP),
               ("index", _ffi.IndexP), ("index_writer", _ffi.IndexWriterP)):  # issue 30
    C_TYPES["struct gamedb_%s *" % _c] = _p
    C_TYPES["const struct gamedb_%s *" % _c] = _p
    C_TYPES["struct gamedb_%s * *" % _c] = ctypes.POINTER(_p)
    C_TYPES["const struct gamedb_%s * *" % _c] = ctypes.POINTER(_p)


def test_table_covers_the_map():
    table = [api.name for api in _ffi.API]
    assert len(table) == len(set(table)), "duplicate entries in _ffi.API"
    mapped = map_symbols()
    assert len(mapped) > 40
    assert set(table) == mapped, ("missing from _ffi: %s; not in the map: %s"
                                  % (sorted(mapped - set(table)), sorted(set(table) - mapped)))


def test_table_matches_the_header():
    protos = header_prototypes()
    assert set(protos) == {api.name for api in _ffi.API}
    for api in _ffi.API:
        ret, params = protos[api.name]
        # A borrowed string that may hold NUL bytes, or comes with its length, is read by
        # address.
        raw = api.name in ("gamedb_game_get_tag_raw", "gamedb_event_get_text_raw",
                           "gamedb_event_get_text_n")
        want_ret = ctypes.c_void_p if raw else C_TYPES[ret]
        assert api.restype is want_ret, "%s returns %s" % (api.name, ret)
        assert len(api.argtypes) == len(params), api.name
        for i, (have, c) in enumerate(zip(api.argtypes, params)):
            assert have is C_TYPES[c], "%s argument %d is %s" % (api.name, i, c)
    # Every function is bound with that table.
    for api in _ffi.API:
        fn = getattr(_ffi.lib, api.name)
        assert fn.restype is api.restype and list(fn.argtypes) == list(api.argtypes)


def test_opaque_pointer_types_are_distinct():
    kinds = [_ffi.ReaderP, _ffi.GameP, _ffi.MoveIterP, _ffi.EventP, _ffi.ScidP,
             _ffi.ChessbaseP, _ffi.BookP, _ffi.ChessAssistantP]
    assert len(set(kinds)) == 8
    with pytest.raises(ctypes.ArgumentError):
        _ffi.lib.gamedb_reader_format(_ffi.GameP())


def test_io_struct_size_is_the_library_s():
    io_struct = _ffi.Io()
    assert _ffi.lib.gamedb_io_init(ctypes.byref(io_struct), ctypes.sizeof(io_struct)) == 0
    assert io_struct.size == ctypes.sizeof(_ffi.Io)
    with pytest.raises(gamedb.GamedbError) as e:
        _ffi.lib.gamedb_io_init(ctypes.byref(io_struct), ctypes.sizeof(io_struct) + 8)
    assert e.value.code == gamedb.FAILED


# ---- loading and version -----------------------------------------------------------------

def test_version_matches_the_project():
    text = open(os.path.join(SRCDIR, "meson.build")).read()
    project_version = re.search(r"version:\s*'([0-9.]+)'", text).group(1)
    assert gamedb.version() == project_version
    major, minor, patch = (int(x) for x in project_version.split("."))
    assert gamedb.version_number() == major * 10000 + minor * 100 + patch
    assert gamedb.version_number() >= _ffi.REQUIRED_VERSION


def test_library_comes_from_GAMEDB_LIBRARY():
    if not os.environ.get("GAMEDB_LIBRARY"):
        pytest.skip("GAMEDB_LIBRARY is not set")
    assert _ffi.lib._name == os.environ["GAMEDB_LIBRARY"]


def test_bad_GAMEDB_LIBRARY_is_an_import_error(tmp_path):
    env = dict(os.environ, GAMEDB_LIBRARY=str(tmp_path / "no-such-libgamedb.so"),
               PYTHONPATH=os.path.join(SRCDIR, "python"))
    p = subprocess.run([sys.executable, "-c", "import gamedb"], env=env, capture_output=True,
                       text=True)
    assert p.returncode != 0
    assert "ImportError" in p.stderr and "GAMEDB_LIBRARY" in p.stderr


# ---- the five-game base ------------------------------------------------------------------

def test_five_headers(five):
    with gamedb.open(five) as r:
        assert r.format == "scid"
        assert r.game_count == 5 and len(r) == 5
        assert r.capabilities & _ffi.CAP_SEEK
        assert r.scid is not None
        assert r.scid.version == 400 and r.scid.description == "Test"
        assert len(r.scid.flag_names) == 6
        games = list(r)
    assert [g.index for g in games] == [0, 1, 2, 3, 4]
    g = games[0]
    assert list(g.tags)[:7] == SEVEN_TAG_ROSTER
    assert g.tags["Event"] == "47th ch-Bangahbandhu 2022"
    assert g.tags["Site"] == "Dhaka BAN"
    assert g.tags["Round"] == "5.6"
    assert g.tags["White"] == "Hossain, Enam" and g["Black"] == "Murshed, N"
    assert g.tags["Result"] == "1/2-1/2"
    assert g.tags["WhiteElo"] == "2372" and g.tags["ECO"] == "B36f"
    assert g.fen == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    assert g.variant == "chess" and g.deleted is False and g.warning is None
    assert g.scid_flags == 0
    assert games[2].tags["White"] == "Wang Hao" and games[2].tags["Black"] == "Rapport, R"
    assert games[4].tags["Black"] == "Cheparinov, I" and games[4].tags["Result"] == "1/2-1/2"


def test_five_first_game_moves(five):
    with gamedb.open(five) as r:
        g = next(r)
        events = list(g.moves())
    moves = [e for e in events if e.type == "move"]
    assert len(moves) == 37
    assert [m.san for m in moves[:4]] == ["e4", "c5", "Nf3", "Nc6"]
    assert moves[0].uci == "e2e4" and moves[0].from_square == 12 and moves[0].to_square == 28
    assert moves[0].piece == gamedb.PAWN and moves[0].promotion is None
    assert (moves[0].move_number, moves[0].colour) == (1, "white")
    assert (moves[1].move_number, moves[1].colour) == (1, "black")
    last = moves[-1]
    assert (last.san, last.uci, last.move_number, last.colour) == ("Nxe6", "d4e6", 19, "white")
    assert last.piece == gamedb.KNIGHT
    castle = [m for m in moves if m.san == "O-O"]
    assert len(castle) == 1 and castle[0].uci == "e8g8" and castle[0].piece == gamedb.KING
    assert events[-1].type == "result" and events[-1].text == "1/2-1/2"
    assert all(e.depth == 0 for e in events)


def test_five_against_its_source_pgn(five):
    source = parse_pgn(open(os.path.join(FIVE_DIR, "five.pgn"), encoding="utf-8").read())
    assert len(source) == 5
    with gamedb.open(five) as r:
        for game, src in zip(r, source):
            # Same tags (Scid stores them in its own order), same moves, same result.
            assert game.tags == dict(src["tags"])
            got = mainline(game)
            assert got["sans"] == src["sans"]
            assert got["result"] == src["result"] == game.tags["Result"]


def test_moves_are_well_formed(five):
    with gamedb.open(five) as r:
        for game in r:
            ply = 0
            for ev in game.moves(fen=True):
                if ev.type != "move":
                    continue
                assert UCI_RE.match(ev.uci), ev.uci
                assert gamedb.square_name(ev.from_square) + gamedb.square_name(ev.to_square) \
                    == ev.uci[:4]
                assert ev.piece in range(1, 7)
                # Standard start: ply n is move n // 2 + 1, white on even plies.
                assert ev.move_number == ply // 2 + 1
                assert ev.colour == ("white" if ply % 2 == 0 else "black")
                assert ev.fen.split()[1] == ("b" if ev.colour == "white" else "w")
                ply += 1
            assert ply > 30


def test_fen_after_a_move(five):
    with gamedb.open(five) as r:
        first = next(next(r).moves(fen=True))
    assert first.san == "e4"
    assert first.fen.split()[:2] == ["rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR", "b"]
    with gamedb.open(five) as r:
        assert next(next(r).moves()).fen is None  # only on request


def test_stop_iteration_at_end(base):
    with gamedb.open(base.path) as r:
        for _ in range(len(base.reference)):
            next(r)
        with pytest.raises(StopIteration):
            next(r)
        with pytest.raises(StopIteration):
            next(r)
        it = r[0].moves(mainline_only=True)
        items = list(it)
        assert items[-1].type == "result"
        with pytest.raises(StopIteration):
            next(it)


def test_seek_and_index(five):
    with gamedb.open(five) as r:
        assert r[2].tags["White"] == "Wang Hao"
        assert next(r).index == 3  # reading goes on after the game read by index
        assert r[-1].index == 4
        assert r[0].tags["White"] == "Hossain, Enam"
        with pytest.raises(IndexError):
            r[5]
        r.seek(1)
        assert [g.index for g in r] == [1, 2, 3, 4]
        with pytest.raises(gamedb.GamedbError) as e:
            r.seek(99)
        assert e.value.detail == gamedb.E_RANGE


def test_games_survive_iteration_and_close(base):
    ref = base.reference
    n = len(ref)
    assert n >= 5
    r = gamedb.open(base.path)
    g0 = next(r)
    next(r)
    g2 = next(r)
    # The reader moved on: g0 is fetched again, and the reader comes back to where it was.
    assert mainline(g0)["sans"] == ref[0]["sans"]
    g3 = next(r)
    assert g3.index == 3
    rest = list(r)
    assert [g.index for g in rest] == list(range(4, n))
    with pytest.raises(StopIteration):
        next(r)
    assert mainline(g2)["sans"] == ref[2]["sans"]
    with pytest.raises(StopIteration):  # still at the end after going back for g2
        next(r)
    r.close()
    assert r.closed
    with pytest.raises(gamedb.GamedbError):
        r.game_count
    with pytest.raises(gamedb.GamedbError):
        next(r)
    # Games whose moves were never asked for got their copy when the reader closed.
    assert mainline(g3)["sans"] == ref[3]["sans"]
    last = rest[-1]
    assert mainline(last) == {k: ref[-1][k] for k in ("sans", "comments", "nags", "result")}
    assert last.pgn().startswith("[Event \"%s\"]\n" % ref[-1]["tags"][0][1])
    assert last.to_dict()["tags"]["White"] == dict(ref[-1]["tags"])["White"]
    del r
    gc.collect()
    assert mainline(g0)["sans"] == ref[0]["sans"]


def test_five_games_survive_close(five):
    with gamedb.open(five) as r:
        games = list(r)
    assert mainline(games[0])["sans"][-1] == "Nxe6"
    assert games[4].pgn().startswith('[Event "9th Sunway Sitges 2022"]\n')
    assert games[4].to_dict()["tags"]["Black"] == "Cheparinov, I"


def test_game_close(five):
    with gamedb.open(five) as r:
        g = next(r)
        assert g.pgn()
        g.close()
        with pytest.raises(gamedb.GamedbError):
            g.moves()
        assert g.tags["White"] == "Hossain, Enam"  # the headers stay


def test_json(five):
    with gamedb.open(five) as r:
        text = next(r).json()
    assert "\n" not in text
    import json
    d = json.loads(text)
    assert d["index"] == 0 and d["variant"] == "chess"
    assert d["tags"]["White"] == "Hossain, Enam"
    assert len(d["moves"]) == 37 and d["moves"][-1]["san"] == "Nxe6"
    assert d["moves"][0]["uci"] == "e2e4"


def test_open_memory_gives_the_same_pgn(base):
    with gamedb.open(base.path) as r:
        expected = [g.pgn() for g in r]
    assert len(expected) == len(base.reference)
    files = read_files(base.path)
    with gamedb.open_memory(files, base.name) as r:
        assert r.game_count == len(expected)
        got = [g.pgn() for g in r]
    assert got == expected
    # The reader keeps the bytes alive: the caller's copy may go.
    r = gamedb.open_memory({k: bytearray(v) for k, v in read_files(base.path).items()},
                           base.name)
    gc.collect()
    assert [g.pgn() for g in r] == expected
    r.close()


def test_open_io_with_a_dict(base):
    with gamedb.open(base.path) as r:
        expected = [g.pgn() for g in r]
    with gamedb.open_io(read_files(base.path), base.name) as r:
        assert r.format == "scid" and len(r) == len(expected)
        assert [g.pgn() for g in r] == expected
    files = {k: io.BytesIO(v) for k, v in read_files(base.path).items()}
    with gamedb.open_io(files, base.name) as r:
        assert [g.pgn() for g in r] == expected


def test_open_io_with_a_callable(base):
    with gamedb.open(base.path) as r:
        expected = [g.pgn() for g in r]
    opened = []

    def opener(name):
        f = open(os.path.join(os.path.dirname(base.path), name), "rb")
        opened.append(f)
        return f

    r = gamedb.open_io(opener, base.name)
    assert [g.pgn() for g in r] == expected
    r.close()
    assert opened and all(f.closed for f in opened)
    stem = base.name[:-len(".si4")]
    assert {os.path.basename(f.name) for f in opened} == {stem + ".si4", stem + ".sn4",
                                                          stem + ".sg4"}


def test_open_io_errors(base):
    files = read_files(base.path)
    sg4 = base.name[:-len(".si4")] + ".sg4"
    del files[sg4]
    with pytest.raises(gamedb.GamedbError) as e:
        r = gamedb.open_io(files, base.name)
        [g.pgn() for g in r]
    assert sg4 in e.value.message

    def broken(name):
        if name.endswith(".si4"):
            return files[base.name]
        raise PermissionError("no access to " + name)

    with pytest.raises(gamedb.GamedbError) as e:
        r = gamedb.open_io(broken, base.name)
        [g.pgn() for g in r]
    assert isinstance(e.value.__cause__, PermissionError)


# ---- errors ------------------------------------------------------------------------------

def test_missing_file(tmp_path):
    path = str(tmp_path / "nothing-here.si4")
    with pytest.raises(gamedb.GamedbError) as e:
        gamedb.open(path)
    assert e.value.code == gamedb.FATAL
    assert e.value.detail == gamedb.E_IO
    assert path in e.value.message
    assert str(e.value) == e.value.message


def copy_five(tmp_path, **truncate):
    for name in ("five.si4", "five.sn4", "five.sg4"):
        data = open(os.path.join(FIVE_DIR, name), "rb").read()
        ext = name[-3:]
        if ext in truncate:
            data = data[:truncate[ext]]
        (tmp_path / name).write_bytes(data)
    return str(tmp_path / "five.si4")


def test_truncated_index(five, tmp_path):
    path = copy_five(tmp_path, si4=30)  # shorter than the index header
    with pytest.raises(gamedb.GamedbError) as e:
        gamedb.open(path)
    assert e.value.code == gamedb.FATAL
    assert path in e.value.message


def test_index_cut_inside_the_records(five, tmp_path):
    path = copy_five(tmp_path, si4=200)  # the header and part of the first record
    with gamedb.open(path) as r:
        assert r.open_warning and path in r.open_warning
        assert list(r) == []


def test_truncated_game_file(five, tmp_path):
    path = copy_five(tmp_path, sg4=300)  # game 1 (0-based) starts at 168, runs to 333
    sg4 = str(tmp_path / "five.sg4")
    with gamedb.open(five) as r:
        intact = r[0].pgn()
    with gamedb.open(path) as r:
        g0, g1 = next(r), next(r)
        assert g0.warning is None and g0.pgn() == intact
        assert g1.warning and sg4 in g1.warning
        with pytest.raises(gamedb.GamedbError) as e:
            g1.pgn()
        assert sg4 in e.value.message and e.value.code == gamedb.FAILED
        with pytest.raises(gamedb.GamedbError):
            g1.moves()
        # The reader is still usable after a game failed.
        assert next(r).index == 2


def test_bad_name_id_is_a_warning(five, tmp_path):
    data = bytearray(open(FIVE, "rb").read())
    ngames = int.from_bytes(data[14:17], "big")
    header = len(data) - ngames * 47  # si4 index records are 47 bytes
    rec = header  # game 0
    data[rec + 9] |= 0xF0  # the White name id's high bits: far beyond the name table
    data[rec + 10:rec + 12] = b"\xff\xff"
    path = copy_five(tmp_path)
    (tmp_path / "five.si4").write_bytes(bytes(data))
    with gamedb.open(path) as r:
        g0, g1 = next(r), next(r)
    assert g0.warning and path in g0.warning
    assert g0.tags["White"] == "?" and g0.tags["Black"] == "Murshed, N"
    assert g1.warning is None


def test_errors_argument_is_checked(five):
    with pytest.raises(ValueError):
        gamedb.open(five, errors="ignore")


def test_unknown_charset_and_format(five):
    with pytest.raises(gamedb.GamedbError) as e:
        gamedb.open(five, charset="no-such-charset-xyz")
    assert e.value.detail == gamedb.E_INVALID_ARGUMENT and "no-such-charset-xyz" in e.value.message
    with pytest.raises(gamedb.GamedbError) as e:
        gamedb.open(five, format="no-such-format")
    assert e.value.detail == gamedb.E_INVALID_ARGUMENT
    with gamedb.open(five, format="scid") as r:
        assert r.game_count == 5


# ---- the tactics base: variations, NAGs, comments, set-up positions, promotions --------

def test_variation_nag_comment(tactics):
    with gamedb.open(tactics) as r:
        assert r.game_count == 928 and r.scid.description == "Tactics"
        g = r[85]
    assert g.tags["White"] == "Gassanow" and g.tags["Black"] == "Arakelow"
    assert g.tags["FEN"] == g.fen == "r4rk1/1bqnppbp/3p2pB/8/3PP1PP/1P6/1P1Q2B1/1K1R2NR b - - 0 1"
    events = list(g.moves())
    assert [(e.type, e.depth) for e in events] == [
        ("move", 0), ("move", 0), ("move", 0), ("variation_begin", 1), ("move", 1), ("nag", 1),
        ("comment_after", 1), ("variation_end", 1), ("move", 0), ("move", 0), ("result", 0)]
    assert [e.san for e in events if e.type == "move"] == \
        ["Bxh6", "Qxh6", "Ra1+", "Qa5", "Kxa1", "Qc2"]
    assert (events[0].move_number, events[0].colour) == (1, "black")
    assert (events[4].move_number, events[4].colour, events[4].uci) == (2, "black", "c7a5")
    assert events[5].nag == 19 and events[6].text == "Alternative"
    assert events[-1].text == "0-1"
    main = [e.san for e in g.moves(mainline_only=True) if e.type == "move"]
    assert main == ["Bxh6", "Qxh6", "Ra1+", "Kxa1", "Qc2"]
    assert not [e for e in g.moves(comments=False) if e.type.startswith("comment")]
    pgn = g.pgn()
    assert "1...Bxh6 2.Qxh6 Ra1+ ( 2...Qa5 $19 {Alternative} ) 3.Kxa1 Qc2 0-1" in pgn
    assert "{Alternative}" not in g.pgn(comments=False)
    assert "(" not in g.pgn(variations=False) and "Qa5" not in g.pgn(variations=False)
    assert "$19" not in g.pgn(nags=False)


def test_promotion(tactics):
    with gamedb.open(tactics) as r:
        g = r[47]
    assert g.tags["White"] == "Boeoek"
    moves = [e for e in g.moves() if e.type == "move"]
    last = moves[-1]
    assert last.san == "fxe8=Q+" and last.uci == "f7e8q"
    assert last.promotion == gamedb.QUEEN and last.piece == gamedb.PAWN
    assert (last.move_number, last.colour) == (4, "white")


def test_other_real_bases():
    bases = [("si4", "endings", 67, "Endings", 400), ("si4", "tactics", 928, "Tactics", 400),
             ("si4", "matein1", 1212, "Mate in 1", 400), ("si3", "endings", 67, "Endings", 300),
             ("si3", "tactics", 928, "Tactics (easy)", 300)]
    found = 0
    for kind, name, count, description, version in bases:
        path = os.path.join(SCID_REAL, "scidvspc-modern", kind, name, name + "." + kind)
        if not os.path.exists(path):
            continue
        found += 1
        with gamedb.open(path) as r:
            assert r.game_count == count
            assert r.scid.description == description and r.scid.version == version
            assert sum(1 for _ in r) == count
    if not found:
        pytest.skip("real data not available: %s" % SCID_REAL)


def test_si3_and_si4_give_the_same_games():
    base = os.path.join(SCID_REAL, "scidvspc-modern")
    si3 = need(os.path.join(base, "si3", "endings", "endings.si3"))
    si4 = need(os.path.join(base, "si4", "endings", "endings.si4"))
    with gamedb.open(si3) as a, gamedb.open(si4) as b:
        pairs = list(zip(a, b))
        assert len(pairs) == 67
        for ga, gb in pairs:
            assert ga.pgn() == gb.pgn()


# ---- fixtures in testdata, against the real Scid's export ------------------------------

def fixture_bases():
    if not os.path.isdir(SCID_FIXTURES):
        return []
    return sorted(f[:-len(".oracle.pgn")] for f in os.listdir(SCID_FIXTURES)
                  if f.endswith(".oracle.pgn") and
                  os.path.exists(os.path.join(SCID_FIXTURES, f[:-len(".oracle.pgn")] + ".si4")))


@pytest.mark.parametrize("name", fixture_bases() or ["(none)"])
def test_fixture_against_scid_export(name):
    if name == "(none)":
        pytest.skip("no SCID fixtures in %s" % SCID_FIXTURES)
    oracle = parse_pgn(open(os.path.join(SCID_FIXTURES, name + ".oracle.pgn"),
                            encoding="utf-8").read())
    with gamedb.open(os.path.join(SCID_FIXTURES, name + ".si4")) as r:
        assert r.game_count == len(oracle)
        games = list(r)
    assert len(games) == len(oracle)
    for game, want in zip(games, oracle):
        assert game.tag_list == want["tags"], "game %d" % game.index
        first = {}
        for key, value in want["tags"]:
            first.setdefault(key, value)
        assert game.tags == first and list(game.tags) == list(first), "game %d" % game.index
        got = mainline(game)
        assert got["sans"] == want["sans"], "game %d" % game.index
        assert got["comments"] == want["comments"], "game %d" % game.index
        assert got["nags"] == want["nags"], "game %d" % game.index
        assert got["result"] == want["result"], "game %d" % game.index


def test_fixture_counts_match_the_index_header():
    paths = [os.path.join(SCID_FIXTURES, n + ".si4") for n in fixture_bases()]
    if not paths:
        pytest.skip("no SCID fixtures in %s" % SCID_FIXTURES)
    for path in paths:
        header = open(path, "rb").read(17)
        with gamedb.open(path) as r:
            assert r.game_count == int.from_bytes(header[14:17], "big"), path


def test_deleted_games_are_marked():
    path = os.path.join(SCID_FIXTURES, "deleted.si4")
    if not os.path.exists(path):
        pytest.skip("no deleted.si4 fixture")
    with gamedb.open(path) as r:
        flags = [(g.deleted, bool(g.scid_flags & 8)) for g in r]
    assert any(d for d, _ in flags) and not all(d for d, _ in flags)
    assert all(d == f for d, f in flags)  # SCID flag bit 3 is the deleted mark


# ---- charsets and the converter hook -----------------------------------------------------

def latin1_fixture():
    path = os.path.join(SCID_FIXTURES, "latin1.si4")
    if not os.path.exists(path):
        pytest.skip("no latin1.si4 fixture")
    return path


def test_charset_option():
    path = latin1_fixture()
    with gamedb.open(path) as r:
        g = r[0]
        raw, _ = g.tag_raw("White")
    assert g.tags["White"] == "Ramírez, José"  # as the real Scid exports it
    assert raw.decode("utf-8") == "Ramírez, José"  # Scid stores what it imports as UTF-8
    with gamedb.open(path, charset="CP1251") as r:
        assert r[0].tags["White"] == raw.decode("cp1251")


def test_converter_hook():
    path = latin1_fixture()
    calls = []

    def converter(charset, raw):
        calls.append((charset, raw))
        return "<%s>" % raw.hex()

    with gamedb.open(path, converter=converter) as r:
        g = r[0]
        raw, _ = g.tag_raw("White")
    assert g.tags["White"] == "<%s>" % raw.hex()
    assert g.tags["Round"] == "1"  # ASCII text never reaches the hook
    assert calls and all(isinstance(c, str) and isinstance(b, bytes) for c, b in calls)

    # Declining (None) or failing leaves the conversion to the library.
    with gamedb.open(path, converter=lambda cs, raw: None) as r:
        assert r[0].tags["White"] == "Ramírez, José"

    def broken(charset, raw):
        raise RuntimeError("converter bug")

    with gamedb.open(path, converter=broken) as r:
        assert r[0].tags["White"] == "Ramírez, José"


# ---- the example -------------------------------------------------------------------------

def run_example(*args):
    # Through tests/pyrun.py, which preloads the sanitizer runtime in an ASan build (the
    # example loads the library itself) and otherwise runs the example as python3 would.
    env = dict(os.environ, PYTHONPATH=os.path.join(SRCDIR, "python"))
    return subprocess.run([sys.executable, os.path.join(SRCDIR, "tests", "pyrun.py"),
                           os.path.join(SRCDIR, "python", "examples", "to_pgn.py"), *args],
                          env=env, capture_output=True)


def test_example_to_pgn(five, tmp_path):
    out = tmp_path / "five.pgn"
    p = run_example(five, "-o", str(out))
    assert p.returncode == 0, p.stderr
    text = out.read_text(encoding="utf-8")
    source = parse_pgn(open(os.path.join(FIVE_DIR, "five.pgn"), encoding="utf-8").read())
    written = parse_pgn(text)
    assert [g["sans"] for g in written] == [g["sans"] for g in source]
    assert [dict(g["tags"]) for g in written] == [dict(g["tags"]) for g in source]
    tool = os.environ.get("GAMEDB_TOOL")
    if tool and os.path.exists(tool):
        # The two front ends of the same library agree byte for byte.
        assert subprocess.run([tool, "pgn", five], capture_output=True).stdout == \
            text.encode("utf-8")


def test_example_skips_deleted_games(tmp_path):
    path = os.path.join(SCID_FIXTURES, "deleted.si4")
    if not os.path.exists(path):
        pytest.skip("no deleted.si4 fixture")
    with gamedb.open(path) as r:
        kept = sum(1 for g in r if not g.deleted)
        total = len(r)
    assert kept < total
    p = run_example(path)
    assert p.returncode == 0, p.stderr
    assert len(parse_pgn(p.stdout.decode("utf-8"))) == kept
    p = run_example(path, "--include-deleted")
    assert len(parse_pgn(p.stdout.decode("utf-8"))) == total


def test_example_reports_a_missing_file(tmp_path):
    missing = str(tmp_path / "missing.si4")
    p = run_example(missing)
    assert p.returncode == 1 and missing in p.stderr.decode("utf-8")


def test_positions_follow_the_moves():
    """Game.positions(): each FEN and key is the one before the move, the last move's
    position is the final FEN's predecessor, and the moves are the main line's."""
    path = os.path.join(os.environ.get("GAMEDB_TESTDATA", os.path.join(SRCDIR, "testdata")),
                        "scid", "annotations.si4")
    with gamedb.open(path) as r:
        g = r[0]
        pos = list(g.positions())
        moves = [e for e in g.moves(mainline_only=True, comments=False, fen=True, key=True)
                 if e.type == "move"]
        assert [p[2] for p in pos] == [e.uci for e in moves]
        assert pos[0][:2] == (g.fen, g.start_key())
        assert [p[:2] for p in pos[1:]] == [(e.fen, e.key) for e in moves[:-1]]


def test_io_errors_are_oserrors():
    """A file that cannot be opened raises GamedbIOError, which is an OSError too."""
    with pytest.raises(OSError) as info:
        gamedb.open("/nonexistent/folder/base.si4")
    assert isinstance(info.value, gamedb.GamedbError)
    assert info.value.detail == gamedb.E_IO


def test_missing_file_is_file_not_found(tmp_path):
    """Issue 28: a base that does not exist raises what Python's open() raises,
    FileNotFoundError with errno ENOENT, its strerror and the file's name, and stays a
    GamedbIOError (old except clauses); str() is still the library's message."""
    import errno
    path = str(tmp_path / "nosuch.si4")
    with pytest.raises(FileNotFoundError) as info:
        gamedb.open(path)
    e = info.value
    assert isinstance(e, gamedb.GamedbFileNotFoundError)
    assert isinstance(e, gamedb.GamedbIOError) and e.detail == gamedb.E_IO
    assert e.errno == errno.ENOENT and e.strerror == os.strerror(errno.ENOENT)
    assert e.filename == path
    assert str(e) == e.message and e.message.startswith(path + ": cannot open: ")
    # A base name without its extension, the way a SCID base is often named, too.
    with pytest.raises(FileNotFoundError) as info:
        gamedb.open(str(tmp_path / "nosuch"))
    assert info.value.filename == str(tmp_path / "nosuch")
    # A folder on the way that does not exist (ENOENT), or that is a file (ENOTDIR:
    # NotADirectoryError, as Python's open() says).
    with pytest.raises(FileNotFoundError) as info:
        gamedb.open(str(tmp_path / "no-folder" / "base.si4"))
    assert info.value.errno == errno.ENOENT
    (tmp_path / "plain").write_bytes(b"x")
    with pytest.raises(NotADirectoryError) as info:
        gamedb.open(str(tmp_path / "plain" / "base.si4"))
    assert isinstance(info.value, gamedb.GamedbNotADirectoryError)
    assert isinstance(info.value, gamedb.GamedbIOError)
    assert info.value.errno == errno.ENOTDIR


def test_directory_is_a_directory_error(tmp_path):
    """Issue 28: a directory given as the base raises IsADirectoryError (errno EISDIR), a
    GamedbIOError too."""
    import errno
    d = tmp_path / "base.si4"
    d.mkdir()
    with pytest.raises(IsADirectoryError) as info:
        gamedb.open(str(d))
    e = info.value
    assert isinstance(e, gamedb.GamedbIsADirectoryError) and isinstance(e, gamedb.GamedbIOError)
    assert e.errno == errno.EISDIR and e.filename == str(d)
    assert "a directory" in str(e)


def test_unreadable_file_is_permission_error(tmp_path):
    """Issue 28: a base the user may not read raises PermissionError (errno EACCES), a
    GamedbIOError too."""
    import errno
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        pytest.skip("root reads a file of mode 000: no file fails to open for root here")
    f = tmp_path / "base.si4"
    f.write_bytes(b"x" * 64)
    f.chmod(0)
    try:
        with pytest.raises(PermissionError) as info:
            gamedb.open(str(f))
    finally:
        f.chmod(0o600)
    e = info.value
    assert isinstance(e, gamedb.GamedbPermissionError) and isinstance(e, gamedb.GamedbIOError)
    assert e.errno == errno.EACCES and e.filename == str(f)


def test_os_error_class_follows_errno(tmp_path, monkeypatch):
    """The class of an open failure is chosen by the errno the library gives
    (gamedb_reader_get_os_error(), here made to say EACCES, as for a user who may not read
    the file: the test runs as root in some places, where no file refuses), and a cause with
    no class of its own (EIO) is a plain GamedbIOError with its errno; the binding does not
    open the file again to learn it (issue 28's leftover: os.open is not called)."""
    import errno
    path = str(tmp_path / "gone.si4")
    real = _ffi.lib.gamedb_reader_get_os_error

    def no_open(*args):
        raise AssertionError("the binding opened the file itself")
    monkeypatch.setattr(_ffi.os, "open", no_open)
    with pytest.raises(FileNotFoundError) as info:
        gamedb.open(path)
    assert info.value.errno == errno.ENOENT and info.value.filename == path

    def says(code):
        def get_os_error(r):
            assert real(r) == errno.ENOENT  # what the library found
            return code
        return get_os_error
    monkeypatch.setattr(_ffi.lib, "gamedb_reader_get_os_error", says(errno.EACCES))
    with pytest.raises(PermissionError) as info:
        gamedb.open(path)
    e = info.value
    assert isinstance(e, gamedb.GamedbPermissionError)
    assert e.errno == errno.EACCES and e.filename == path
    assert str(e) == "%s: cannot open: %s" % (path, os.strerror(errno.ENOENT))
    monkeypatch.setattr(_ffi.lib, "gamedb_reader_get_os_error", says(errno.EIO))
    with pytest.raises(gamedb.GamedbIOError) as info:
        gamedb.open(path)
    e = info.value
    assert type(e) is gamedb.GamedbIOError and e.errno == errno.EIO and e.filename == path


def test_corrupt_base_has_no_errno(tmp_path):
    """An error the system did not give (a file that opens but is no base) has no errno."""
    f = tmp_path / "junk.si4"
    f.write_bytes(b"not a scid index")
    with pytest.raises(gamedb.GamedbError) as info:
        gamedb.open(str(f))
    assert info.value.detail != gamedb.E_IO
    assert getattr(info.value, "errno", None) is None


def test_pgn_file_says_it_is_pgn_already(tmp_path):
    """Issue 28: a PGN file given as a database fails with the library's message, which says
    it is PGN already (the command's words, now the library's): by its name, and by its
    first tag whatever its name; a text that is neither has no such words."""
    pgn = tmp_path / "games.pgn"
    pgn.write_bytes(b'[Event "x"]\n[Site "y"]\n\n1. e4 *\n')
    with pytest.raises(gamedb.GamedbError) as info:
        gamedb.open(str(pgn))
    assert info.value.detail == gamedb.E_UNRECOGNIZED_FORMAT
    assert not isinstance(info.value, OSError)
    assert str(info.value) == ("%s: not a database of any format this library reads: it is "
                               "PGN already; any PGN reader reads this file as it is" % pgn)
    named = tmp_path / "games.txt"
    named.write_bytes(b'\xef\xbb\xbf\r\n[Event "x"]\n\n1. e4 *\n')
    with pytest.raises(gamedb.GamedbError) as info:
        gamedb.open(str(named))
    assert "is PGN already" in str(info.value)
    other = tmp_path / "notes.txt"
    other.write_bytes(b"just some words\n")
    with pytest.raises(gamedb.GamedbError) as info:
        gamedb.open(str(other))
    assert str(info.value) == ("%s: not a database of any format this library reads" % other)


def test_reader_slices():
    """r[a:b:c] is the list of those games, as r[i] for each i."""
    path = os.path.join(os.environ.get("GAMEDB_TESTDATA", os.path.join(SRCDIR, "testdata")),
                        "scid", "moves.si4")
    with gamedb.open(path) as r:
        n = len(r)
        assert n >= 3
        assert [g.index for g in r[1:3]] == [1, 2]
        assert [g.index for g in r[::2]] == list(range(0, n, 2))
        assert [g.index for g in r[-2:]] == [n - 2, n - 1]
        assert r[5:2] == []


def test_encrypted_archive_with_password_option():
    """An encrypted ChessBase archive (fuzz/cbz's seed: our own 5-game base, packed and
    enciphered under the password "password") opens with options={"password": ...}, the option
    reaching the open; without it, or with a wrong one, the open raises saying why."""
    path = os.path.join(SRCDIR, "fuzz", "cbz", "corpus", "sample-lz.cbz")
    with gamedb.open(path, options={"password": "password"}) as r:
        assert r.format == "chessbase"
        assert len(list(r)) == 5
    with pytest.raises(gamedb.GamedbError, match="needs the password"):
        gamedb.open(path)
    with pytest.raises(gamedb.GamedbError, match="password does not open"):
        gamedb.open(path, options={"password": "pass"})
