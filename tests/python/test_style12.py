"""gamedb.Style12Line and gamedb.Style12Session (the style 12 live API), on lines written here
from the style 12 help text (../shared/formats/seeds/style12.txt); tests/test-style12-live.py
runs the real server lines and whole logs."""
import gamedb
import pytest

# The help's example line (a 2 12 game, White's king has moved: Ke2).
HELP = ("<12> rnbqkb-r pppppppp -----n-- -------- ----P--- -------- PPPPKPPP RNBQ-BNR "
        "B -1 0 0 1 1 0 7 Newton Einstein 1 2 12 39 39 119 122 2 K/e1-e2 (0:06) Ke2 0")
GAME = [
    "fics% <12> rnbqkbnr pppppppp -------- -------- -------- -------- PPPPPPPP RNBQKBNR W -1 1 1 1 1 0 7 alice bob 1 3 0 39 39 180000 180000 1 none (0:00.000) none 0 0 0",
    "<12> rnbqkbnr pppppppp -------- -------- ----P--- -------- PPPP-PPP RNBQKBNR B 4 1 1 1 1 0 7 alice bob -1 3 0 39 39 178500 180000 1 P/e2-e4 (0:01.500) e4 0 0 0",
    "<12> rnbqkbnr pppp-ppp -------- ----p--- ----P--- -------- PPPP-PPP RNBQKBNR W 4 1 1 1 1 0 7 alice bob 1 3 0 39 39 178500 177750 2 P/e7-e5 (0:02.250) e5 0 0 0",
    "{Game 7 (alice vs. bob) bob resigns} 1-0",
]


def test_line_fields():
    l = gamedb.Style12Line(HELP)
    assert l.kind == "board"
    assert l.fen == "rnbqkb1r/pppppppp/5n2/8/4P3/8/PPPPKPPP/RNBQ1BNR b kq - 0 2"
    assert (l.game_number, l.white, l.black, l.relation) == (7, "Newton", "Einstein", 1)
    assert (l.base_minutes, l.increment_seconds) == (2, 12)
    # Clocks in seconds here (the time taken has no fraction): milliseconds out.
    assert (l.white_clock_ms, l.black_clock_ms, l.clocks_in_ms) == (119000, 122000, 0)
    assert (l.move_verbose, l.move_san, l.move_uci, l.time_taken, l.time_taken_ms) == \
        ("K/e1-e2", "Ke2", "e1e2", "(0:06)", 6000)
    assert (l.side_to_move, l.move_number, l.ply, l.flip, l.castling) == (1, 2, 3, 0, 0b1100)
    assert l.white_holdings is None and l.passed is None


def test_line_ms_clocks_and_errors():
    l = gamedb.Style12Line(GAME[1])
    assert (l.white_clock_ms, l.clocks_in_ms, l.time_taken_ms) == (178500, 1, 1500)
    assert l.fen.split()[3] == "-"  # e3 only when a black pawn could take
    with pytest.raises(gamedb.GamedbError) as e:
        gamedb.Style12Line(" ".join(HELP.split()[:24]))
    assert "field 25 (white's clock) is missing" in e.value.message
    with pytest.raises(gamedb.GamedbError):
        gamedb.Style12Line("fics% tell me")


def test_line_holdings():
    b1 = gamedb.Style12Line("<b1> game 7 white [PN] black [] <- WN")
    assert (b1.kind, b1.game_number, b1.white_holdings, b1.black_holdings, b1.passed) == \
        ("holdings", 7, "PN", "", "WN")
    assert b1.fen is None and b1.white_clock_ms is None
    l = gamedb.Style12Line(HELP).set_holdings(b1)
    assert l.fen.startswith("rnbqkb1r/pppppppp/5n2/8/4P3/8/PPPPKPPP/RNBQ1BNR[")
    assert sorted(l.fen.split("[")[1].split("]")[0]) == ["N", "P"]


def read_all(data):
    with gamedb.open_memory({"game.log": data}, format="style12") as r:
        return [g.pgn() for g in r]


@pytest.mark.parametrize("chunk", [1, 7, 4096])
def test_session_equals_reader(chunk):
    data = ("\n".join(["junk line"] + GAME + GAME[:2]) + "\n").encode()
    with gamedb.Style12Session() as s:
        games = []
        for i in range(0, len(data), chunk):
            games += s.feed(data[i:i + chunk])
        assert len(games) == 1 and s.live_count == 1
        games += s.end()
    assert [g.pgn() for g in games] == read_all(data)
    assert [g.tags["Result"] for g in games] == ["1-0", "*"]
    assert [e.san for e in games[0].moves() if e.type == "move"] == ["e4", "e5"]


def test_session_peek_and_end():
    s = gamedb.Style12Session("fics")
    assert s.feed(GAME[0] + "\n" + GAME[1] + "\n") == []
    g = s.peek(0)
    assert [e.uci for e in g.moves() if e.type == "move"] == ["e2e4"]
    assert g.tags["Result"] == "*"
    with pytest.raises(IndexError):
        s.peek(1)
    assert s.end()[0].tags["Result"] == "*"
    with pytest.raises(gamedb.GamedbError):
        s.feed(b"x")
    s.close()


def test_line_names_not_ascii():
    # Names of other servers and of edited logs: UTF-8 as it is, other bytes read as CP1252
    # (with a warning), as the reader reads them.
    l = gamedb.Style12Line(GAME[0].replace("alice bob", "Židu 王嘉良"))
    assert (l.white, l.black, l.warning) == ("Židu", "王嘉良", None)
    l = gamedb.Style12Line(GAME[0].replace("alice bob", "Müller Gärtner").encode("cp1252"))
    assert (l.white, l.black) == ("Müller", "Gärtner")
    assert "CP1252" in l.warning
    with pytest.raises(gamedb.GamedbError) as e:  # a control character is not a name
        gamedb.Style12Line(GAME[0].replace("alice bob", "al\x01ce bob"))
    assert "field 18 (white's name)" in e.value.message


def test_line_move_number_past_100000():
    f = GAME[0].split(" ")
    f[27] = "150000"  # field 27, the move number ("fics%" is f[0])
    l = gamedb.Style12Line(" ".join(f))
    assert l.move_number == 150000 and l.fen.endswith(" 0 150000")


@pytest.mark.parametrize("chunk", [1, 4096])
def test_session_line_not_used(chunk):
    # A board line with a bad field in the middle of a game: not used, said in
    # Style12Session.warnings with its line number (as the reader's failure); the game whole.
    bad = GAME[1].replace(" 39 39 ", " X 39 ")
    data = ("\n".join(GAME[:2] + [bad] + GAME[2:]) + "\n").encode()
    with gamedb.Style12Session("fics") as s:
        games = []
        for i in range(0, len(data), chunk):
            games += s.feed(data[i:i + chunk])
        games += s.end()
        assert len(s.warnings) == 1 and "fics: line 3: <12> line: field 23" in s.warnings[0]
    assert len(games) == 1 and games[0].warning is None
    assert [e.san for e in games[0].moves() if e.type == "move"] == ["e4", "e5"]
    with gamedb.open_memory({"game.log": data}, format="style12", errors="warn") as r:
        with pytest.warns(gamedb.GamedbWarning, match="game.log: line 3: "):
            assert [g.pgn() for g in r] == [games[0].pgn()]
