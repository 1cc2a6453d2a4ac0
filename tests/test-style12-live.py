#!/usr/bin/env python3
"""Tests of the style 12 live API (gamedb_style12_line_*, gamedb_style12_session_*), through
the Python binding (gamedb.Style12Line, gamedb.Style12Session) and examples/style12-live.

1. Every real <12> and <b1> line of GAMEDB_REALDATA/style12 parses. Each field equals this
   script's own reading of the line (test-style12.py's parse12(), written from the style 12
   help text: clocks in milliseconds when the time-taken field has a fraction, else seconds;
   the initial time in minutes); the UCI move is this script's own conversion of the verbose
   move; the FEN is this script's own FEN of the line (placement, side, castling flags, the
   en-passant square when an enemy pawn can take, the reversible-move count and move number)
   and equals the FEN the reader gives the same board (the line alone as a log); where two
   lines of a game are consecutive plies, the reader's FEN after the move equals the later
   line's. <b1> holdings equal this script's reading of the brackets.
2. Errors: a real line cut after each of its fields names the first missing field by its
   number in the help's count ("<12>" is field 1) and its name; a bad field is named; fields
   added at the end are ignored; 1 MiB lines, every prefix of a real line and 3000 mutated
   lines give a result or a GamedbError, never a crash.
3. Sessions: the real logs, the session writer's log of test-style12.py (real SCID games,
   interleaved, takebacks, lost lines, ms and s clocks) and its crazyhouse/bughouse log, fed
   in chunks of 1, 7 and 4096 bytes, give exactly the games the reader gives for the whole
   file (PGN for PGN, variant and start FEN); examples/style12-live (chunks 1, 7, 4096) prints
   exactly what `gamedb pgn` prints for the file. A game in flight can be seen (peek), the
   session refuses bytes after its end.
Exit 77 (skip) when the real data is absent.
"""
import os
import random
import re
import subprocess
import sys
import tempfile

import testsupport
from testsupport import check, done, TOOL

gamedb = testsupport.import_gamedb()
t12 = testsupport.load_script(os.path.join(testsupport.SRCDIR, "tests", "test-style12.py"),
                              "test_style12")
S12 = t12.S12
EXAMPLE = os.environ.get("GAMEDB_STYLE12_LIVE", "")

# The fields in the help's order, "<12>" being field 1 (../shared/formats/seeds/style12.txt).
HELP_FIELDS = ["<12>"] + ["rank %d" % r for r in range(8, 0, -1)] + [
    "side to move", "double-push file", "white short castling", "white long castling",
    "black short castling", "black long castling", "reversible-move count", "game number",
    "white's name", "black's name", "relation", "initial time", "increment",
    "white's material", "black's material", "white's clock", "black's clock", "move number",
    "previous move", "time taken", "previous move (SAN)", "flip"]


def real_files():
    out = []
    for sub in sorted(os.listdir(S12)):
        for name in sorted(os.listdir(os.path.join(S12, sub))):
            if name.endswith("lines.txt"):
                out.append(os.path.join(S12, sub, name))
    return out


def own_uci(verbose, stm):
    """This script's UCI of a verbose move; stm is the side to move after it ("W"/"B")."""
    rank = "1" if stm == "B" else "8"  # the mover's back rank
    if verbose == "none":
        return None
    if verbose in ("o-o", "O-O"):
        return "e%sg%s" % (rank, rank)
    if verbose in ("o-o-o", "O-O-O"):
        return "e%sc%s" % (rank, rank)
    m = re.match(r"^([PNBRQ])/@@-([a-h][1-8])$", verbose)
    if m:
        return "%s@%s" % (m.group(1), m.group(2))
    m = re.match(r"^[PNBRQK]/([a-h][1-8])-([a-h][1-8])(?:=([NBRQ]))?$", verbose)
    return m.group(1) + m.group(2) + (m.group(3) or "").lower()


def own_fen(d):
    """This script's FEN of a parsed <12> line."""
    # A flag gives a right when the king stands on its back rank with a rook of its colour
    # on that side of it there (doc/formats/style12.md: the castling rooks are the outermost
    # rooks, which also reads Chess960 and wild boards); a flag without them gives none.
    castle = ""
    for (letter, flag) in zip("KQkq", d["castle"]):
        back = d["ranks"][7] if letter.isupper() else d["ranks"][0]
        king, rook = ("K", "R") if letter.isupper() else ("k", "r")
        if flag and king in back:
            kf = back.index(king)
            side = back[kf + 1:] if letter in "Kk" else back[:kf]
            if rook in side:
                castle += letter
    castle = castle or "-"
    ep = "-"
    if d["ep"] >= 0:
        # The pawn that moved two squares stands on rank 4 (White's) or 5; an enemy pawn
        # beside it can take en passant: only then is the square written.
        b = t12.board_of(d["ranks"])
        f = "abcdefgh"[d["ep"]]
        rank, enemy, behind = ("4", "p", "3") if d["stm"] == "B" else ("5", "P", "6")
        sides = [c + rank for c in "abcdefgh"[max(0, d["ep"] - 1):d["ep"] + 2] if c != f]
        if any(b.get(s) == enemy for s in sides):
            ep = f + behind
    return "%s %s %s %s %d %d" % (t12.placement(d["ranks"]), d["stm"].lower(), castle, ep,
                                  d["halfmove"], d["moveno"])


def b1_fields(text):
    m = re.search(r"<b1> game (\d+) white \[([A-Za-z]*)\] black \[([A-Za-z]*)\](?: <- (\w\w))?",
                  text)
    return m and (int(m.group(1)), m.group(2).upper(), m.group(3).upper(), m.group(4) or "")


def test_real_lines():
    boards = b1s = pairs = 0
    for path in real_files():
        last = {}
        with open(path, encoding="utf-8") as f:
            texts = list(f)
        with tempfile.TemporaryDirectory() as tmp:
            one = os.path.join(tmp, "one.log")
            for n, text in enumerate(texts, 1):
                where = "%s:%d" % (os.path.basename(path), n)
                if "<b1>" in text:
                    want = b1_fields(text)
                    try:
                        l = gamedb.Style12Line(text)
                    except gamedb.GamedbError as e:
                        check(False, "%s: <b1> line: %s" % (where, e))
                        continue
                    b1s += 1
                    check(want and (l.kind, l.game_number, l.white_holdings, l.black_holdings,
                                    l.passed) == ("holdings",) + want,
                          "%s: <b1> fields %r, expected %r" % (where, (
                              l.game_number, l.white_holdings, l.black_holdings, l.passed), want))
                    continue
                d = t12.parse12(text)
                if not d:
                    continue
                f = text.split("<12>", 1)[1].split()
                try:
                    l = gamedb.Style12Line(text)
                except gamedb.GamedbError as e:
                    check(False, "%s: %s" % (where, e))
                    continue
                boards += 1
                ms = "." in d["taken"]
                got = (l.kind, l.side_to_move, l.game_number, l.white, l.black, l.relation,
                       l.base_minutes, l.increment_seconds, l.white_clock_ms, l.black_clock_ms,
                       l.move_number, l.move_verbose, l.move_san, l.time_taken, l.flip,
                       l.clocks_in_ms, l.halfmove_clock, l.double_push_file, l.castling, l.ply,
                       l.white_material, l.black_material)
                want = ("board", int(d["stm"] == "B"), d["gameno"], d["white"], d["black"],
                        d["relation"], d["base"], d["inc"],
                        d["wclock"] if ms else d["wclock"] * 1000,
                        d["bclock"] if ms else d["bclock"] * 1000,
                        d["moveno"], d["verbose"], d["san"], d["taken"], int(f[29]), int(ms),
                        d["halfmove"], d["ep"],
                        sum(1 << i for i, c in enumerate(d["castle"]) if c), t12.ply_of(d),
                        int(f[21]), int(f[22]))
                check(got == want, "%s: fields\n  %r\n  expected\n  %r" % (where, got, want))
                check(l.move_uci == own_uci(d["verbose"], d["stm"]),
                      "%s: uci %r of %s" % (where, l.move_uci, d["verbose"]))
                check(l.fen == own_fen(d), "%s: fen %s, expected %s" % (where, l.fen, own_fen(d)))
                # The reader's FEN of the same board: the line alone is a game from it.
                with open(one, "w") as out:
                    out.write(text if text.endswith("\n") else text + "\n")
                g = t12.read_games(one)
                check(len(g) == 1 and g[0][1] == l.fen, "%s: reader %s, line %s" % (
                    where, g and g[0][1], l.fen))
                key = (d["gameno"], d["white"], d["black"])
                prev = last.get(key)
                last[key] = (text, d)
                if not prev or t12.ply_of(d) != t12.ply_of(prev[1]) + 1 or d["relation"] == -3:
                    continue
                after = t12.play(t12.board_of(prev[1]["ranks"]), d["verbose"],
                                 prev[1]["stm"] == "W")
                if after != t12.board_of(d["ranks"]):
                    continue  # not the same game after all (the lines are excerpts)
                with open(one, "w") as out:
                    out.write(prev[0].rstrip("\r\n") + "\n" + text.rstrip("\r\n") + "\n")
                g = t12.read_games(one)
                if check(len(g) == 1 and len(g[0][2]) == 1, "%s: a game of one move" % where):
                    pairs += 1
                    # The reader's position after the move: the castling rights it has
                    # from play may be fewer than the flags say (a rook taken), never more;
                    # its reversible-move count is the one play gives (servers differ).
                    rf, lf = g[0][2][0].fen.split(), l.fen.split()
                    check(rf[:2] == lf[:2] and rf[3] == lf[3] and rf[5] == lf[5] and
                          set(rf[2]) <= set(lf[2] + "-"),
                          "%s: reader after the move %s, line %s" % (where, g[0][2][0].fen, l.fen))
    check(boards >= 130 and b1s >= 3, "%d real boards, %d <b1> lines" % (boards, b1s))
    check(pairs >= 20, "%d consecutive pairs" % pairs)
    print("real lines: %d boards, %d <b1> lines, %d consecutive pairs" % (boards, b1s, pairs))


def test_errors():
    path = real_files()[0]
    with open(path, encoding="utf-8") as f:
        line = next(t.rstrip("\r\n") for t in f if t.startswith("<12>"))
    fields = line.split()
    check(len(fields) >= 31, "a real line of 31 fields or more")
    for k in range(1, 31):  # keep "<12>" and k - 1 fields: field k + 1 is missing
        try:
            gamedb.Style12Line(" ".join(fields[:k]))
            check(False, "%d fields: no error" % k)
        except gamedb.GamedbError as e:
            want = "field %d (%s) is missing" % (k + 1, HELP_FIELDS[k])
            check(want in e.message, "%d fields: %r names %r" % (k, e.message, want))
    bad = list(fields)
    bad[24] = "1x2"  # field 25: White's clock
    try:
        gamedb.Style12Line(" ".join(bad))
        check(False, "a bad clock: no error")
    except gamedb.GamedbError as e:
        check("field 25 (white's clock)" in e.message, "a bad clock is named: %s" % e.message)
    a = gamedb.Style12Line(line)
    b = gamedb.Style12Line(line + " 1 2 later-field")
    check(a.fen == b.fen and a.white_clock_ms == b.white_clock_ms and a.flip == b.flip,
          "fields added at the end are ignored")
    c = gamedb.Style12Line("fics% " + line + "\r\n<12> more")
    check(c.fen == a.fen, "a prompt before, a line break after")
    for text in ("", "hello", "<12>", "<b1> game x", "<b1> game 3 white [P] black", "<12>" * 9):
        try:
            gamedb.Style12Line(text)
            check(False, "%r: no error" % text)
        except gamedb.GamedbError as e:
            check(e.code == gamedb.FAILED and e.message, "%r: %s" % (text, e.message))
    # Holdings: only a <b1> line of the same game.
    b1 = gamedb.Style12Line("<b1> game %d white [PN] black [q] <- BQ" % a.game_number)
    other = gamedb.Style12Line("<b1> game %d white [] black []" % (a.game_number + 1))
    try:
        gamedb.Style12Line(line).set_holdings(other)
        check(False, "holdings of another game taken")
    except gamedb.GamedbError:
        pass
    h = gamedb.Style12Line(line).set_holdings(b1)
    place, hands = h.fen.split(" ")[0].rstrip("]").split("[")
    check(place == a.fen.split(" ")[0] and sorted(hands) == sorted("PNq") and
          h.fen.split(" ")[1:] == a.fen.split(" ")[1:] and h.white_holdings == "PN" and
          h.black_holdings == "Q", "a board with holdings: %s" % h.fen)
    # Hostile: never a crash, a result or a GamedbError.
    rnd = random.Random(9)
    hostile = ["<12> " + "x" * (1 << 20), line + " 9" * (1 << 19), "<b1> game 1 white [" +
               "Q" * (1 << 20) + "] black []", "<12>" + " " * (1 << 20)]
    hostile += [line[:i] for i in range(len(line))]
    for _ in range(3000):
        b = bytearray(line.encode())
        for _ in range(rnd.randint(1, 6)):
            b[rnd.randrange(len(b))] = rnd.randrange(256)
        hostile.append(bytes(b))
    ok = 0
    for text in hostile:
        try:
            l = gamedb.Style12Line(text)
            ok += 1
            check(l.kind != "board" or l.fen, "a board has a FEN")
        except gamedb.GamedbError as e:
            check(e.message, "an error has a message")
    print("errors: 30 cut lines, %d hostile lines (%d parsed)" % (len(hostile), ok))


def reader_games(path):
    games = t12.read_games(path)  # the failures: the lines the reader could not use
    failed = sorted(int(n) for f in t12.FAILURES for n in re.findall(r": line (\d+): ", f))
    with gamedb.open(path, format="style12", errors="skip") as r:
        return [(g.pgn(), g.variant, g.fen) for g in r], failed, len(games)


def session_games(data, chunk):
    out = []
    with gamedb.Style12Session("chunks") as s:
        for i in range(0, len(data), chunk):
            out += s.feed(data[i:i + chunk])
        out += s.end()
        check(s.live_count == 0, "no game in flight after the end")
        failed = sorted(int(n) for f in s.warnings for n in re.findall(r": line (\d+): ", f))
    return [(g.pgn(), g.variant, g.fen) for g in out], failed


def test_sessions():
    logs = [(os.path.basename(p), open(p, "rb").read()) for p in real_files()]
    srcs = t12.source_games()
    lines, _ = t12.write_session(srcs, random.Random(20261124))
    logs.append(("session-writer.log", ("\n".join(lines) + "\n").encode()))
    zh_lines = t12.zh_log()[0]
    logs.append(("zh.log", ("\n".join(zh_lines) + "\n").encode() + logs[0][1]))
    # A line of 1 MiB and junk between the games of a log, and no line break at the end.
    logs.append(("hostile.log", ("\n".join(t12.GOOD[:2]) + "\n" + "<12> " + "x" * (1 << 20) +
                                 "\n\x00\xff junk\n" + "\n".join(t12.GOOD[2:])).encode()))
    total = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name, data in logs:
            path = os.path.join(tmp, name)
            with open(path, "wb") as f:
                f.write(data)
            want, want_failed, _ = reader_games(path)
            total += len(want)
            check(len(want) >= 1, "%s: %d games" % (name, len(want)))
            for chunk in (1, 7, 4096):
                if chunk == 1 and len(data) > (1 << 20):
                    chunk = 2  # the same splits, in half the calls
                got, failed = session_games(data, chunk)
                same = sum(1 for a, b in zip(got, want) if a == b)
                check(len(got) == len(want) and same == len(want),
                      "%s, chunks of %d: %d games, %d equal to the reader's %d" % (
                          name, chunk, len(got), same, len(want)))
                # The lines it cannot use, as the reader: each a failure naming the line.
                check(failed == want_failed, "%s, chunks of %d: lines not used %s, the "
                      "reader's %s" % (name, chunk, failed[:8], want_failed[:8]))
            if EXAMPLE:
                rc, pgn, err = testsupport.run_tool("pgn", path)
                for chunk in ("1", "7", "4096"):
                    p = subprocess.run([EXAMPLE, chunk], input=data, capture_output=True)
                    check(p.returncode == rc and p.stdout == pgn,
                          "%s: style12-live %s prints what gamedb pgn prints (%d/%d, %d/%d "
                          "bytes)" % (name, chunk, p.returncode, rc, len(p.stdout), len(pgn)))
                    lines = sorted(int(n) for ln in p.stderr.splitlines()
                                   if not ln.startswith(b"warning: ")
                                   for n in re.findall(rb": line (\d+): ", ln))
                    check(lines == want_failed and (rc == 1) == bool(want_failed),
                          "%s: style12-live %s names the lines not used: %s" % (
                              name, chunk, lines[:8]))
            variants = {v for _, v, _ in want}
            if name == "zh.log":
                check({"crazyhouse", "bughouse"} <= variants, "zh.log: variants %s" % variants)
    print("sessions: %d logs, %d games, each fed in chunks of 1, 7 and 4096 bytes" % (
        len(logs), total))


def test_live():
    good = [l + "\n" for l in t12.GOOD]  # alice - bob: e4 e5, then "bob resigns} 1-0"
    with gamedb.Style12Session() as s:
        check(s.feed(good[0]) == [] and s.live_count == 1, "a first board: a game in flight")
        check(s.feed(good[1]) == [], "the second board: still in flight")
        g = s.peek(0)
        moves = [e.san for e in g.moves() if e.type == "move"]
        clocks = [e.text for e in g.moves() if e.type == "clock"]
        check(moves == ["e4"] and g.tags.get("Result") == "*" and g.tags.get("White") == "alice"
              and clocks == ["%clk 0:02:59"], "peek: %s %s %s" % (moves, g.tags, clocks))
        try:
            s.peek(1)
            check(False, "peek past the games in flight")
        except IndexError:
            pass
        part = good[2] + good[3]
        games = s.feed(part[:10]) + s.feed(part[10:])
        check(len(games) == 1 and [e.san for e in games[0].moves() if e.type == "move"] ==
              ["e4", "e5"] and games[0].tags.get("Result") == "1-0" and s.live_count == 0,
              "the game comes out when it ends: %s" % games)
        check(g.tags.get("Result") == "*" and len(g.pgn()) > 0, "the snapshot stays")
        check(s.end() == [], "nothing left at the end")
        try:
            s.feed("x")
            check(False, "bytes after the end taken")
        except gamedb.GamedbError as e:
            check(e.code == gamedb.FATAL and "ended" in e.message, "after the end: %s" % e)
    with gamedb.Style12Session() as s:
        s.feed(good[0] + good[1][:-1])  # the last line without its line break
        games = s.end()
        check(len(games) == 1 and [e.san for e in games[0].moves() if e.type == "move"] ==
              ["e4"] and games[0].tags.get("Result") == "*",
              "end: the game in flight with '*', its last line read: %s" % games)
    print("live: peek, a game out when it ends, the end")


def main():
    if not os.path.isdir(S12):
        sys.exit(done(skip="no real style 12 data in %s" % S12))
    test_real_lines()
    test_errors()
    test_live()
    test_sessions()
    sys.exit(done())


if __name__ == "__main__":
    main()
