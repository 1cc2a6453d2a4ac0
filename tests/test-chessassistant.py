#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Tests of the Chess Assistant reader (lib/formats/format-chessassistant.c), through the
Python binding and the gamedb command.

No real Chess Assistant base is public, so the bases are made here by
tests/chessassistant_writer.py, written from the format description, not from the reader:

1. Round trip: the games of the real SCID and ChessBase bases in GAMEDB_REALDATA (read by our
   SCID reader,
   which golden-scid proves equal to Scid's own export), with their variations, comments,
   NAGs and setup positions, plus Russian names and comments in CP1251, extra evaluations,
   promotions to every piece incl. untracked ones, en passant and null moves, are written as
   a Chess Assistant base (fragmented EMB, a01/a02 redirection chains, one- and two-byte
   record lengths); reading it back must give every tag and every event the writer wrote.
1b. Every line (main line and each variation) of the read-back games replays in stockfish to
   the position our board reached (first three FEN fields), and `gamedb pgn` passes
   `pgn-extract -r` (all games but those with a null move on the main line, which it refuses).
2. The column direction: a base written with the other reading reads back the same with
   direction=auto and direction=left, and fails with direction=right.
3. Opening: by NAME.cdp, by base name, with upper-case file names.
4. Hostile bases: EMB fragments outside the file, overrunning their length, a directory made
   of zero-length fragments, a02 and a01 redirection cycles, record lengths past the end;
   then every file truncated at many points and with byte flips (meant for the sanitizer
   build too): clear errors naming the file and an offset; a byte changed in .d00, .a02 or
   .d02 changes at most one game, the others read as before.
Exit 77 (skip) when the real SCID bases are absent (after the hand-made games passed).
"""
import json
import os
import random
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import warnings

import testsupport
from testsupport import check, done, eq, TOOL

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import chessassistant_writer as caw  # noqa: E402

gamedb = testsupport.import_gamedb()
REAL = os.environ.get("GAMEDB_REALDATA", os.path.join(testsupport.SRCDIR, "..", "shared", "realdata"))
SCID_BASES = ["scid/scidvspc-modern/si4/endings/endings.si4",
              "scid/scidvspc-modern/si4/matein1/matein1.si4",
              "scid/scidvspc-modern/si4/tactics/tactics.si4",
              "scid/scidtopgn/five/five.si4"]
RUSSIAN = [("Петросян, Тигран", "GM"), ("Ботвинник, Михаил", "GM"), ("Таль, Михаил", "GM"),
           ("Гаприндашвили, Нона", "WGM"), ("Иванов, Иван", "")]
EVENTS_RU = ["Чемпионат СССР", "Мемориал Чигорина"]
OUTCOME_NAG = {5: 16, 6: 17, 7: 14, 8: 15, 9: 18, 10: 19, 11: 10, 12: 13, 13: 44, 14: 40,
               15: 36, 16: 132}


def cp(text):
    """Text as the writer stores it (CP1251; what CP1251 lacks becomes '?')."""
    return text.encode("cp1251", errors="replace")


# ---- source games -> writer nodes + the events the reader must give ----------------------

def tree(events):
    """The events of a game as writer nodes; None if the game holds what the format cannot."""
    root = []
    stack = [root]
    before = []
    for ev in events:
        t = ev.type
        if t == "move":
            if ev.san == "--":
                node = caw.Node(None, None, null=True)
            else:
                node = caw.Node(ev.from_square, ev.to_square, ev.promotion or 0)
            node.before, before = before, []
            stack[-1].append(node)
        elif t == "comment_before":
            before.append(cp(ev.text))
        elif t == "comment_after":
            if stack[-1]:
                stack[-1][-1].after.append(cp(ev.text))
            else:
                before.append(cp(ev.text))
        elif t == "nag":
            if stack[-1] and 0 < ev.nag < 256:
                stack[-1][-1].nags.append(ev.nag)
        elif t == "variation_begin":
            new = []
            stack[-1][-1].variations.append(new)
            stack.append(new)
            before = []
        elif t == "variation_end":
            stack.pop()
            if not stack[-1][-1].variations[-1]:
                stack[-1][-1].variations.pop()
            before = []
    return root, before


def expected_events(line, depth=0, out=None):
    """(type, payload) in the order PGN (and the reader) gives them."""
    if out is None:
        out = []
    for node in line:
        for t in node.before:
            out.append(("comment_before", t.decode("cp1251")))
        out.append(("move", (node.frm, node.to, node.promo or None) if not node.null else "--"))
        for n in node.nags:
            out.append(("nag", n))
        for v, capf in node.evals:
            a = abs(v)
            out.append(("command", "%%eval %s%d.%02d" % ("-" if v < 0 else "", a // 100, a % 100)))
        for t in node.after:
            out.append(("comment_after", t.decode("cp1251")))
        for var in node.variations:
            out.append(("variation_begin", None))
            expected_events(var, depth + 1, out)
            out.append(("variation_end", None))
    return out


def got_events(game):
    out = []
    for ev in game.moves():
        if ev.type == "move":
            out.append(("move", "--" if ev.san == "--" else (ev.from_square, ev.to_square,
                                                            ev.promotion)))
        elif ev.type in ("comment_before", "comment_after", "command"):
            out.append((ev.type, ev.text))
        elif ev.type == "nag":
            out.append(("nag", ev.nag))
        elif ev.type in ("variation_begin", "variation_end"):
            out.append((ev.type, None))
    return out


def chessbase_bases():
    out = []
    for root, _dirs, names in os.walk(os.path.join(REAL, "chessbase")):
        out += [os.path.join(root, n) for n in sorted(names) if n.lower().endswith(".cbh")]
    return sorted(out)


def source_games():
    """(tags, fen, events) of every game of the real SCID and ChessBase bases that our
    readers decode (ChessBase: standard chess only; Chess Assistant has no Chess960)."""
    games = []
    paths = [os.path.join(REAL, rel) for rel in SCID_BASES] + chessbase_bases()
    for path in paths:
        if not os.path.exists(path):
            continue
        try:
            r = gamedb.open(path, errors="skip")
        except gamedb.GamedbError:
            continue
        with r:
            for g in r:
                if g.variant != "chess":
                    continue
                try:
                    evs = list(g.moves())
                except gamedb.GamedbError:
                    continue
                fen = g.fen if g.fen != "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" else None
                games.append((dict(g.tags), fen, evs))
    return games


sq, line_of, HANDMADE = caw.sq, caw.line_of, caw.HANDMADE


def handmade_games():
    return caw.handmade_games(RUSSIAN)


# ---- the round trip ----------------------------------------------------------------------

def build(sources, dir_sign=+1, seed=1):
    """A writer base from source games; returns (base, list of (tags wanted, fen, events))."""
    base = caw.Base(dir_sign=dir_sign, seed=seed)
    want = []
    rng = random.Random(seed)
    for k, (tags, fen, line, pre) in enumerate(sources):
        t = {}
        for name in ("Event", "Site", "White", "Black", "Annotator", "Source", "WhiteTitle",
                     "BlackTitle"):
            v = tags.get(name)
            if v:
                t[name] = v if isinstance(v, bytes) else cp(v)[:255]
        for name in ("Date", "Round", "Result", "WhiteElo", "BlackElo", "ECO"):
            if tags.get(name):
                t[name] = tags[name]
        for name in ("Event", "Site", "White", "Black"):
            t.setdefault(name, b"?")
        if k % 3 == 1:                    # Russian names, CP1251
            t["White"], title = cp(RUSSIAN[k % 5][0]), RUSSIAN[k % 5][1]
            if title:
                t["WhiteTitle"] = cp(title)
            t["Event"] = cp(EVENTS_RU[k % 2])
        if k % 7 == 3 and line:
            line[0].after.append(cp("Хороший ход, по мнению Ботвинника"))
        if k % 11 == 5 and line:
            line[-1].evals.append((rng.randrange(-900, 900), k % 2 == 0))
        outcome = 5 + k % 12 if k % 13 == 6 else None
        game_type = k % 31
        try:
            base.add_game(t, fen, line, pre=pre, outcome=outcome, game_type=game_type)
        except caw.WriteError as e:
            print("not written: game %d: %s" % (k + 1, e))
            continue
        ev = [("comment_before", x.decode("cp1251")) for x in pre] + expected_events(line)
        res = t.get("Result", "*")
        if outcome is not None:
            res = "*"
            if line:
                # the outcome's NAG comes right after the last main-line move
                last = max(i for i, e in enumerate(ev) if e[0] == "move" and
                           sum(1 for x in ev[:i] if x[0] == "variation_begin") ==
                           sum(1 for x in ev[:i] if x[0] == "variation_end"))
                ev.insert(last + 1, ("nag", OUTCOME_NAG[outcome]))
        tw = {}
        for name in ("Event", "Site", "White", "Black", "WhiteTitle", "Annotator", "Source"):
            if name in t:
                tw[name] = t[name].decode("cp1251")
        d = t.get("Date", "????.??.??")
        tw["Date"] = d if len(d) == 10 else "????.??.??"
        r = t.get("Round", "?")
        tw["Round"] = r if r.isdigit() and int(r) < 128 and r != "0" else "?"
        tw["Result"] = res if res in ("1-0", "0-1", "1/2-1/2") else "*"
        for name in ("WhiteElo", "BlackElo"):
            if t.get(name) and t[name] != "0":
                tw[name] = t[name]
        eco = t.get("ECO", "")[:3]
        if len(eco) == 3 and eco[0] in "ABCDE" and eco[1:].isdigit() and eco != "A00":
            tw["ECO"] = eco
        if 1 <= game_type <= 30:
            tw["GameType"] = True
        if fen:  # the format keeps no half-move clock
            f = fen.split()
            fen = " ".join(f[:4] + ["0"] + f[5:])
        want.append((tw, fen, ev))
    return base, want


def write(base, folder, name="base", upper=False):
    files = base.files(name)
    for fn, data in files.items():
        if upper:
            fn = fn.upper()
        with open(os.path.join(folder, fn), "wb") as f:
            f.write(data)
    return files


def compare(path, want, what, options=None):
    bad = 0
    first = None
    with gamedb.open(path, errors="warn", options=options) as r:
        eq(r.format, "chessassistant", what + ": format")
        eq(len(r), len(want), what + ": game count")
        for g, (tw, fen, ev) in zip(r, want):
            msgs = []
            for name, v in tw.items():
                if name == "GameType":
                    if "GameType" not in g.tags:
                        msgs.append("GameType missing")
                elif g.tags.get(name) != v:
                    msgs.append("%s %r != %r" % (name, g.tags.get(name), v))
            if fen:
                if g.tags.get("SetUp") != "1" or g.fen != fen:
                    msgs.append("fen %r != %r" % (g.fen, fen))
            try:
                got = got_events(g)
                if got != ev:
                    i = next((i for i, (a, b) in enumerate(zip(got, ev)) if a != b), min(len(got), len(ev)))
                    msgs.append("events differ at %d: %r / %r" % (i, got[i:i + 3], ev[i:i + 3]))
            except gamedb.GamedbError as e:
                msgs.append("decode failed: %s" % e)
            if msgs:
                bad += 1
                if first is None:
                    first = "game %d: %s" % (g.index + 1, "; ".join(msgs))
    check(bad == 0, "%s: %d games differ; first: %s" % (what, bad, first))
    return bad


def warnings_caught():
    cm = warnings.catch_warnings(record=True)
    return cm


def main_line_null(ev):
    depth = 0
    for t, v in ev:
        depth += (t == "variation_begin") - (t == "variation_end")
        if t == "move" and v == "--" and depth == 0:
            return True
    return False


def lines_of(path):
    """(start FEN, UCI moves, our FEN after them) for the end of every line of every game:
    main lines and variations, each from the start of the game."""
    out = []
    with gamedb.open(path, errors="skip") as r:
        for g in r:
            stack = [[[], None]]                 # [uci moves, fen after the last one]
            for ev in g.moves(fen=True):
                if ev.type == "move":
                    stack[-1][0].append(ev.uci)
                    stack[-1][1] = ev.fen
                elif ev.type == "variation_begin":
                    parent = stack[-1][0]
                    stack.append([parent[:-1], None])
                elif ev.type == "variation_end":
                    mv, fen = stack.pop()
                    out.append((g.fen, mv, fen))
            out.append((g.fen, stack[0][0], stack[0][1]))
    return [x for x in out if x[1] and x[2] and "0000" not in x[1]]


def stockfish_replay(path):
    """Every line replays in stockfish (rules written apart from lib/board) to our position."""
    sf = testsupport.find_program("stockfish")
    if not sf:
        print("stockfish not installed: replay skipped")
        return
    lines = lines_of(path)
    cmds = ["uci"]
    for fen, mv, _ in lines:
        cmds.append("position fen %s moves %s" % (fen, " ".join(mv)))
        cmds.append("d")
    cmds.append("quit")
    p = subprocess.run([sf], input=("\n".join(cmds) + "\n").encode(), capture_output=True)
    fens = [l[5:].strip() for l in p.stdout.decode().splitlines() if l.startswith("Fen: ")]
    eq(len(fens), len(lines), "stockfish: one position per line")
    bad = [(l, f) for l, f in zip(lines, fens) if l[2].split()[:3] != f.split()[:3]]
    print("stockfish: %d lines replayed, %d differ" % (len(lines), len(bad)))
    check(not bad, "stockfish reaches our position at the end of every line: %r" % bad[:1])


# ---- hostile ----------------------------------------------------------------------------

def open_mem(files, options=None):
    name = next(n for n in files if n.lower().endswith(".cdp"))
    return gamedb.open_memory(files, primary=name, format="chessassistant", errors="warn",
                              options=options)


def read_all(files):
    """Opens and reads everything; (open error or None, games ok, games failed, messages)."""
    msgs = []
    ok = failed = 0
    try:
        r = open_mem(files)
    except gamedb.GamedbError as e:
        return str(e), 0, 0, [str(e)]
    with r:
        for g in r:
            try:
                sum(1 for _ in g.moves())
                ok += 1
            except gamedb.GamedbError as e:
                failed += 1
                msgs.append(str(e))
    return None, ok, failed, msgs


def snapshot(files):
    """Per game: (tags, events of the legal part), or None when the base does not open."""
    try:
        r = open_mem(files)
    except gamedb.GamedbError:
        return None
    out = []
    with r:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for g in r:
                try:
                    ev = got_events_partial(g)
                except gamedb.GamedbError:
                    ev = None
                out.append((sorted(g.tags.items()), ev))
    return out


def got_events_partial(game):
    return [(e.type, e.uci, e.text, e.nag) for e in game.moves(partial=True)]


def emb_header(emb):
    return struct.unpack_from("<II", emb, 136)


def hostile(files):
    name = "base"
    emb = bytearray(files[name + ".emb"])
    dlen, doff = emb_header(emb)
    # the directory's fragment table: first pair
    flen, foff = struct.unpack_from("<II", emb, doff)

    def with_emb(b):
        f = dict(files)
        f[name + ".emb"] = bytes(b)
        return f

    b = bytearray(emb)
    struct.pack_into("<II", b, doff, flen, len(emb) + 10)
    err, *_ = read_all(with_emb(b))
    check(err and ".emb: offset %d" % doff in err and "outside" in err,
          "fragment outside the file: %r" % err)
    b = bytearray(emb)
    struct.pack_into("<I", b, doff, dlen + 1)
    err, *_ = read_all(with_emb(b))
    check(err and "overruns" in err, "fragment overrunning its file: %r" % err)
    # a directory of zero-length fragments from a table that runs into the end of the file
    b = bytearray(emb) + bytes(64)
    struct.pack_into("<II", b, 136, 256, len(emb))
    err, *_ = read_all(with_emb(b))
    check(err and "runs past the end" in err, "zero-length fragments: %r" % err)
    # directory length larger than the file
    b = bytearray(emb)
    struct.pack_into("<I", b, 136, 0x7FFFFFF0)
    err, *_ = read_all(with_emb(b))
    check(err and "more than the whole file" in err, "directory longer than the file: %r" % err)
    # a02 cycle on game 1's id: that game fails, naming the file; others still read
    d00 = files[name + ".d00"]
    gid = struct.unpack_from("<I", d00, 24)[0]
    a02 = bytearray(files[name + ".a02"])
    struct.pack_into("<i", a02, 4 * gid, -gid)
    f = dict(files)
    f[name + ".a02"] = bytes(a02)
    err, ok, failed, msgs = read_all(f)
    check(err is None and failed == 1 and ok == len(d00) // 38 - 1 and "loops" in msgs[0] and
          ".a02: offset" in msgs[0], "a02 cycle: %r %r %r %r" % (err, ok, failed, msgs[:1]))
    # a02 address past the end of d02
    struct.pack_into("<i", a02, 4 * gid, len(files[name + ".d02"]) + 5)
    f[name + ".a02"] = bytes(a02)
    err, ok, failed, msgs = read_all(f)
    check(err is None and failed == 1 and ".d02: offset" in msgs[0],
          "a02 past d02: %r %r" % (err, msgs[:1]))


def mutations(files, rng, cuts=64, flips=64):
    """Every file cut at `cuts` points and `flips` single-byte changes per file."""
    for fn, data in files.items():
        n = len(data)
        points = sorted(set(rng.randrange(n + 1) for _ in range(cuts)) | {0, n // 2, max(0, n - 1)})
        for p in points:
            f = dict(files)
            f[fn] = data[:p]
            yield "%s cut at %d" % (fn, p), f
        for _ in range(flips):
            p = rng.randrange(n) if n else 0
            if not n:
                break
            b = bytearray(data)
            b[p] ^= 1 << rng.randrange(8) if rng.random() < 0.5 else rng.randrange(1, 256)
            f = dict(files)
            f[fn] = bytes(b)
            yield "%s flip at %d" % (fn, p), f


def check_handle(base, path):
    """The gamedb_chessassistant handle (Game.chessassistant) gives what the writer put in the
    D00 headers and Players.d00: the writer gives player i rating 2000 + i, FIDE id 100000 + i,
    birthday 1990-05-17 and gender byte 1, and game k game type k % 31."""
    with gamedb.open(path, options={"direction": "left"}) as r:
        games = list(r)
        eq(len(games), len(base.games) if hasattr(base, "games") else len(games), "handle: games")
        for k, g in enumerate(games):
            ca = g.chessassistant
            if not check(ca is not None, "handle: game %d has Chess Assistant fields" % (k + 1)):
                return
            for side in ("white", "black"):
                pid = ca[side + "_id"]
                eq(ca[side + "_rating"], 2000 + pid, "handle: game %d %s rating" % (k + 1, side))
                eq(ca[side + "_fide_id"], 100000 + pid, "handle: game %d %s FIDE id" % (k + 1, side))
                eq(ca[side + "_birthday"], 19900517, "handle: game %d %s birthday" % (k + 1, side))
                eq(ca[side + "_gender"], 1, "handle: game %d %s gender" % (k + 1, side))
            eq(ca["game_type"], k % 31, "handle: game %d type" % (k + 1))
        check(isinstance(r.chessassistant_comment, str), "handle: the base comment is text")


def check_json_comments(tmp):
    """JSON of moves with several comments: "comment" is the first, "comments" holds every one
    with its language ("" in this format), in order; a move with one comment has no
    "comments". The writer keeps the first one's entry back until a second comes."""
    if not TOOL:
        return
    line = line_of("e2e4 e7e5 g1f3")
    line[0].after += [cp("Первый"), cp("Второй \"ход\""), cp("Третий")]
    line[1].after.append(cp("Один"))
    line[2].after += [cp("A"), cp("B")]
    line[2].nags.append(1)
    base = caw.Base(seed=7)
    base.add_game({"Event": b"json", "Site": b"?", "White": b"W", "Black": b"B",
                   "Result": "*"}, None, line)
    write(base, tmp, "json")
    p = subprocess.run([TOOL, "json", os.path.join(tmp, "json.cdp")], capture_output=True)
    eq(p.returncode, 0, "gamedb json of the comments base")
    moves = json.loads(p.stdout.decode("utf-8"))["moves"]
    eq(moves[0].get("comment"), "Первый", "first move: its first comment")
    eq(moves[0].get("comments"), [{"language": "", "text": "Первый"},
                                  {"language": "", "text": "Второй \"ход\""},
                                  {"language": "", "text": "Третий"}],
       "first move: all three comments in order")
    eq(moves[1].get("comment"), "Один", "second move: its comment")
    check("comments" not in moves[1], "one comment: no \"comments\"")
    eq([c["text"] for c in moves[2].get("comments", [])], ["A", "B"],
       "third move: its two comments, the NAG between")
    eq(moves[2].get("nags"), [1], "third move: its NAG")


def main():
    tmp = tempfile.mkdtemp(prefix="gamedb-ca-")
    try:
        check_json_comments(tmp)
        # 1. hand-made games alone
        base, want = build(handmade_games(), seed=3)
        write(base, tmp, "hand")
        compare(os.path.join(tmp, "hand.cdp"), want, "hand-made games")
        # 2. the other direction: auto and left read it, right does not
        base, want = build(handmade_games(), dir_sign=-1, seed=4)
        write(base, tmp, "left")
        compare(os.path.join(tmp, "left.cdp"), want, "direction left, auto")
        compare(os.path.join(tmp, "left.cdp"), want, "direction left, option left",
                options={"direction": "left"})
        with gamedb.open(os.path.join(tmp, "left.cdp"), errors="skip",
                         options={"direction": "right"}) as r:
            fails = 0
            for g in r:
                try:
                    list(g.moves())
                except gamedb.GamedbError:
                    fails += 1
            check(fails > 0, "direction=right must fail on a base written leftwards")

        check_handle(base, os.path.join(tmp, "left.cdp"))

        # 2b. charset-detect (on by default): a base of Western names stored in CP1252 reads
        # right; with charset-detect=no it reads in the format's CP1251 ("Lékó" -> "Lйkу").
        # A Russian base (the hand-made games) stays CP1251 either way (1 above).
        west = caw.Base(seed=5)
        names = ["Lékó, Péter", "Mårdell, Åsa", "Müller, Jürgen", "Ibáñez, José"]
        for i, (fen, moves) in enumerate(caw.HANDMADE[:4]):
            west.add_game({"Event": "Championnat de Genève".encode("cp1252"),
                           "Site": "Besançon".encode("cp1252"),
                           "White": names[i].encode("cp1252"), "Black": b"Smith, J",
                           "Result": "*"}, fen, caw.line_of(moves))
        write(west, tmp, "west")
        wpath = os.path.join(tmp, "west.cdp")
        with gamedb.open(wpath) as r:
            got = [(g.tags["White"], g.tags["Event"], g.tags["Site"]) for g in r]
        eq(got, [(n, "Championnat de Genève", "Besançon") for n in names],
           "charset-detect: Western names in CP1252")
        with gamedb.open(wpath, options={"charset-detect": "no"}) as r:
            eq([g.tags["White"] for g in r], [n.encode("cp1252").decode("cp1251") for n in names],
               "charset-detect=no: the names in CP1251")
        with gamedb.open(wpath, charset="CP1251") as r:
            eq(next(iter(r)).tags["White"], names[0].encode("cp1252").decode("cp1251"),
               "the charset option wins over detection")

        # 3. the committed fixtures are what the fixture script writes, and read back
        fx = testsupport.load_script(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                  "make-chessassistant-fixtures.py"), "cafx")
        fdir = os.path.join(os.environ.get("GAMEDB_TESTDATA", os.path.join(testsupport.SRCDIR, "testdata")),
                            "chessassistant")
        for fname, data in fx.fixture_files().items():
            with open(os.path.join(fdir, fname), "rb") as f:
                eq(f.read() == data, True, "testdata/chessassistant/%s is what the fixture script writes" % fname)
        with gamedb.open(os.path.join(fdir, "hand.cdp")) as r:
            n = 0
            for g in r:
                n += sum(1 for e in g.moves() if e.type == "move")
            eq(len(r), len(HANDMADE), "fixture game count")
            check(n > 60, "fixture moves decode (%d)" % n)

        src = source_games()
        if not src:
            return done(skip="no real SCID bases under %s" % REAL)
        sources = []
        for tags, fen, evs in src:
            line, pre = tree(evs)
            sources.append((tags, fen, line, pre))
        sources += handmade_games()
        base, want = build(sources, seed=5)
        files = write(base, tmp, "real")
        print("round trip: %d games (of %d source games), %d KiB of d02, %d KiB of emb" % (
            len(want), len(sources), len(files["real.d02"]) // 1024, len(files["real.emb"]) // 1024))
        check(len(want) >= len(src) * 0.99, "nearly every source game can be written")
        bad = compare(os.path.join(tmp, "real.cdp"), want, "real games, by NAME.cdp")
        print("round trip: %d games differ" % bad)
        compare(os.path.join(tmp, "real"), want, "real games, by base name")
        stockfish_replay(os.path.join(tmp, "real.cdp"))
        up = os.path.join(tmp, "up")
        os.mkdir(up)
        write(base, up, "real", upper=True)
        # files() is deterministic only per call: write a fresh base for the upper-case copy
        compare(os.path.join(up, "REAL.CDP"), want, "real games, upper-case names")
        # the command
        if TOOL:
            p = subprocess.run([TOOL, "pgn", os.path.join(tmp, "real.cdp")],
                               capture_output=True)
            eq(p.returncode, 0, "gamedb pgn exit status")
            text = p.stdout.decode("utf-8")
            check("Петросян, Тигран" in text, "gamedb pgn writes the Russian names as UTF-8")
            pe = testsupport.find_program("pgn-extract")
            if pe:
                with open(os.path.join(tmp, "real.pgn"), "wb") as f:
                    f.write(p.stdout)
                q = subprocess.run([pe, "-r", os.path.join(tmp, "real.pgn")], capture_output=True)
                msg = q.stderr.decode("utf-8", "replace")
                m = re.search(r"(\d+) games? matched out of (\d+)", msg)
                # pgn-extract allows null moves in variations only
                mainnull = sum(1 for _, _, ev in want if main_line_null(ev))
                check(m is not None and int(m.group(2)) == len(want) and
                      int(m.group(1)) == len(want) - mainnull,
                      "pgn-extract -r matches all %d games but the %d with a null move on the main line (%s)"
                      % (len(want), mainnull, m.group(0) if m else msg[-300:]))
                print("pgn-extract: %s" % (m.group(0) if m else "?"))
            p = subprocess.run([TOOL, "info", os.path.join(tmp, "real")], capture_output=True)
            eq(p.returncode, 0, "gamedb info exit status")
            check(b"chessassistant" in p.stdout, "gamedb info names the format")

        # 3. hostile
        small, _ = build(handmade_games() + sources[:40], seed=6)
        sfiles = small.files("base")
        hostile(sfiles)
        # a01 cycle: player id 1 has no name ("?", a warning), everything else reads
        cyc, cwant = build(handmade_games(), seed=8)
        cyc.a01_cycle = "Players"
        cfiles = cyc.files("base")
        with open_mem(cfiles) as r:
            qs = []
            with warnings_caught():
                for g in r:
                    qs.append((g.tags["White"], g.tags["Black"], g.warning))
                    list(g.moves())
            bad = [q for q in qs if q[0] == "?" or q[1] == "?"]
            check(bad and all(q[2] and "base.d00: offset" in q[2] for q in bad) and
                  any(q[0] != "?" for q in qs), "a01 cycle: names '?' with a warning: %r" % bad[:2])
        rng = random.Random(7)
        n = crashes = 0
        for what, f in mutations(sfiles, rng):
            err, ok, failed, msgs = read_all(f)
            n += 1
            for m in ([err] if err else []) + msgs:
                if not ("offset" in m and "base." in m) and "out of memory" not in m:
                    crashes += 1
                    if crashes < 5:
                        print("message without file and offset (%s): %s" % (what, m))
        print("hostile: %d mutated bases read" % n)
        # one byte changed in d00, a02 or d02 changes at most one game: the others read as
        # before
        ref = snapshot(sfiles)
        spread = 0
        for fn in ("base.d00", "base.a02", "base.d02"):
            data = sfiles[fn]
            for _ in range(40):
                p = rng.randrange(len(data))
                b = bytearray(data)
                b[p] ^= rng.randrange(1, 256)
                f = dict(sfiles)
                f[fn] = bytes(b)
                got = snapshot(f)
                differ = sum(1 for x, y in zip(got or [], ref) if x != y)
                if got is None or len(got) != len(ref) or differ > 1:
                    spread += 1
                    print("%s byte %d changed: %s games differ" % (fn, p, differ if got else "all"))
        check(spread == 0, "a changed byte in d00/a02/d02 costs at most its own game")
        check(crashes == 0, "every error names a file and an offset")
    finally:
        if os.environ.get("GAMEDB_KEEP_TMP"):   # for looking into a failure
            print("kept: " + tmp)
        else:
            shutil.rmtree(tmp)
    return done()


if __name__ == "__main__":
    sys.exit(main())
