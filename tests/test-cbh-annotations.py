#!/usr/bin/env python3
"""The moves' annotations of real ChessBase bases, through the public API, against what this
script reads from the file bytes itself.

For every game of the bases under $GAMEDB_REALDATA/chessbase that carry annotations, the
script reads the .cbh record, walks the .cbg move bytes only for their structure (which byte
is a move, where lines open and close: no chess), reads the .cba block, and writes down the
event stream it expects from the library's documented mapping:

  * an entry at position k belongs to the k-th move in storage order (0 = the first move),
    -1 to the start of the game;
  * per move: texts before it (type 0x82) as COMMENT_BEFORE, the move, its symbols (type 3,
    up to three bytes, each non-zero one a NAG of that number), texts after it (type 2) as
    COMMENT_AFTER, then in file order: coloured squares "%csl Gd4,..." and arrows
    "%cal Ge2e4,..." (2 G, 3 Y, 4 R; squares 1 = a1, 2 = a2, ..., 64 = h8), clocks (types
    0x16/0x17, centiseconds) as CLOCK "%clk H:MM:SS" for the mover's own clock and COMMAND
    "%clkw"/"%clkb" for the other one (".cc" when there are hundredths), time spent (0x07)
    "%emt H:MM:SS", critical position (0x18) "%crit opening|middlegame|endgame", medals (0x22)
    "%medal a,b,...", anything else as ANNOTATION with its type and payload;
  * at the start: texts as COMMENT_BEFORE, then the rest, symbols as ANNOTATION;
  * texts: a 2-byte language code, then bytes in the base's charset; 0xA2-0xA7 are the
    figurines K Q N B R P, 0x9E a diagram "[#]", CR LF a newline;
  * variations right after the move they replace, the main line first (the first of the
    lines stored with 254 ... 255 at a branch).

The library's events (gamedb.Game.moves()) must equal that stream for every game: event
types, texts, stored bytes, languages, NAGs and annotation payloads; the games it does not
support yet (testsupport.CHESSBASE_UNSUPPORTED) must fail with exactly their reason.
test-annotations (made to exercise texts, symbols, squares and arrows) is also checked against
literals.
"""
import os
import sys

import testsupport
from testsupport import check, done

REAL = os.environ.get("GAMEDB_REALDATA", "")
gamedb = testsupport.import_gamedb()
# The substitution table of the move bytes (mode 0), from the fixture writer.
T = testsupport.load_script(os.path.join(testsupport.SRCDIR, "fuzz", "chessbase",
                                         "make-corpus.py"), "cbh_make_corpus").DECODE

sys.setrecursionlimit(100000)

LANG = {0: "", 0x2A: "en", 0x2B: "es", 0x31: "fr", 0x35: "de", 0x46: "it", 0x67: "nl",
        0x74: "pl", 0x75: "pt"}
MEDALS = ["best", "decided", "model", "novelty", "pawnstructure", "strategy", "tactics",
          "attack", "sacrifice", "defence", "material", "pieceplay", "endgame",
          "tacticalblunder", "strategicalblunder", "user"]
COLOUR = {2: "G", 3: "Y", 4: "R"}

def be(b, off, n):
    return int.from_bytes(b[off:off + n], "big")


def read(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return b""


def tree(rec, start, stm0=0, cbh_moves=None, slack=0):
    """The moves of a record in storage order: parent and ply of each, children lists.
    A record without its final marker whose main line runs past the CBH record's main-line
    move count (byte 45, full moves; the documented end of such a game) ends there: the
    moves stored from the first one past it on are not the game's. A count of full moves
    leaves the last ply open (54 moves: 54.Ke3 or 54...x); slack=1 ends the game one ply
    earlier."""
    parent, ply, kids = [], [], {-1: []}
    cur, stack, p, n = -1, [], start, 0
    marker = False
    while p < len(rec):
        op = T[(rec[p] - n) & 255]
        p += 1
        if op == 254:
            stack.append(cur)
        elif op == 255:
            if not stack:
                marker = True
                break
            cur = stack.pop()
        elif op <= 235:
            if op == 235:
                p += 2
            parent.append(cur)
            ply.append(ply[cur] + 1 if cur >= 0 else 1)
            kids[cur].append(n)
            kids[n] = []
            cur = n
            n += 1
    if not marker and cbh_moves is not None and cbh_moves != 255:
        node, plies = -1, 0
        while kids[node]:
            node = kids[node][0]
            plies += 1
            if (plies + slack + stm0 + 1) // 2 > cbh_moves:
                cut = node
                parent, ply = parent[:cut], ply[:cut]
                kids = {k: [c for c in v if c < cut] for k, v in kids.items() if k < cut}
                break
    return parent, ply, kids


def text_of(raw, charset):
    out, run = [], bytearray()

    def flush():
        if run:
            out.append(bytes(run).decode(charset, "replace"))
            run.clear()
    i = 0
    while i < len(raw):
        c = raw[i]
        rep = None
        if 0xA2 <= c <= 0xA7:
            rep = "KQNBRP"[c - 0xA2]
        elif c == 0x9E:
            rep = "[#]"
        elif c == 0x0D:
            rep = "\n"
            if i + 1 < len(raw) and raw[i + 1] == 0x0A:
                i += 1
        if rep is None:
            run.append(c)
        else:
            flush()
            out.append(rep)
        i += 1
    flush()
    return "".join(out)


def sq(v):
    return "abcdefgh"[(v - 1) // 8] + str((v - 1) % 8 + 1)


def hms(t):
    return "%d:%02d:%02d" % (t // 3600, t // 60 % 60, t % 60)


def command(t, pl, mover):
    """(event type, text) of a non-text, non-symbol entry, or None (kept raw)."""
    if t == 0x04 and pl and len(pl) % 2 == 0 and all(
            pl[i] in COLOUR and 1 <= pl[i + 1] <= 64 for i in range(0, len(pl), 2)):
        return "command", "%csl " + ",".join(COLOUR[pl[i]] + sq(pl[i + 1])
                                             for i in range(0, len(pl), 2))
    if t == 0x05 and pl and len(pl) % 3 == 0 and all(
            pl[i] in COLOUR and 1 <= pl[i + 1] <= 64 and 1 <= pl[i + 2] <= 64
            for i in range(0, len(pl), 3)):
        return "command", "%cal " + ",".join(COLOUR[pl[i]] + sq(pl[i + 1]) + sq(pl[i + 2])
                                             for i in range(0, len(pl), 3))
    if t in (0x16, 0x17) and len(pl) == 4:
        cs, whose = be(pl, 0, 4), t - 0x16
        txt = hms(cs // 100) + (".%02d" % (cs % 100) if cs % 100 else "")
        if whose == mover:
            return "clock", "%clk " + txt
        return "command", ("%clkb " if whose else "%clkw ") + txt
    if t == 0x07 and len(pl) == 4 and pl[1] < 60 and pl[2] < 60:
        return "command", "%%emt %d:%02d:%02d" % (pl[0], pl[1], pl[2])
    if t == 0x18 and len(pl) == 1 and 1 <= pl[0] <= 3:
        return "command", "%crit " + ["opening", "middlegame", "endgame"][pl[0] - 1]
    if t == 0x22 and len(pl) == 4 and 0 < be(pl, 0, 4) <= 0xFFFF:
        v = be(pl, 0, 4)
        return "command", "%medal " + ",".join(MEDALS[k] for k in range(16) if v >> k & 1)
    return None


def expected_game(cbg, cba, go, ao, charset, cbh_moves=None, slack=0):
    """The event stream this script expects for the game at go/ao."""
    flags, length = cbg[go], be(cbg, go + 1, 3)
    rec = cbg[go:go + length]
    start = 4 + (28 if flags & 0x40 else 0)
    stm0 = (rec[5] >> 4) & 1 if flags & 0x40 else 0
    parent, ply, kids = tree(rec, start, stm0, cbh_moves, slack)
    anns = {}
    if ao:
        total = be(cba, ao + 10, 4)
        p = 14
        while p + 6 <= total:
            pos = be(cba, ao + p, 3)
            if pos & 0x800000:
                pos -= 0x1000000
            t, ln = cba[ao + p + 3], be(cba, ao + p + 4, 2)
            anns.setdefault(pos, []).append((t, cba[ao + p + 6:ao + p + ln]))
            p += ln
    out = []

    def text(kind, pl):
        out.append((kind, text_of(pl[2:], charset), pl[2:].split(b"\0")[0],
                    LANG.get(be(pl, 0, 2), "")))

    def rest(entries, mover):
        for t, pl in entries:
            c = command(t, pl, mover) if t != 0x03 else None
            out.append(c if c else ("annotation", t, pl))

    for t, pl in anns.get(-1, []):
        if t in (0x02, 0x82):
            text("comment_before", pl)
    rest([e for e in anns.get(-1, []) if e[0] not in (0x02, 0x82)], -1)

    def move(k):
        here = anns.get(k, [])
        for t, pl in here:
            if t == 0x82:
                text("comment_before", pl)
        out.append(("move",))
        for t, pl in here:
            if t == 0x03:
                out.extend(("nag", v) for v in pl if v)
        for t, pl in here:
            if t == 0x02:
                text("comment_after", pl)
        rest([e for e in here if e[0] not in (0x02, 0x03, 0x82)], (stm0 + ply[k] - 1) % 2)

    def line_from(node):
        ch = kids[node]
        if not ch:
            return
        move(ch[0])
        for alt in ch[1:]:
            out.append(("variation_begin",))
            move(alt)
            line_from(alt)
            out.append(("variation_end",))
        line_from(ch[0])

    line_from(-1)
    return out


def got_game(game):
    out = []
    for ev in game.moves():
        if ev.type in ("comment_before", "comment_after"):
            out.append((ev.type, ev.text, ev.text_raw, ev.language))
        elif ev.type in ("command", "clock"):
            out.append((ev.type, ev.text))
        elif ev.type == "annotation":
            out.append((ev.type, ev.annotation_type, ev.text_raw))
        elif ev.type == "nag":
            out.append((ev.type, ev.nag))
        elif ev.type != "result":
            out.append((ev.type,))
    return out


def check_base(stem, charset):
    cbh, cbg, cba = read(stem + ".cbh"), read(stem + ".cbg"), read(stem + ".cba")
    games, same, annotated, unsupported, other = 0, 0, 0, 0, 0
    records = [r for r in range(1, len(cbh) // 46)
               if cbh[r * 46] & 1 and not cbh[r * 46] & 2]
    pinned = testsupport.chessbase_unsupported(stem)
    with gamedb.open(stem + ".cbh", charset=charset) as reader:
        for i, game in enumerate(reader):
            if i >= len(records):
                break
            if records[i] in pinned:
                # Not supported yet (testsupport.CHESSBASE_UNSUPPORTED): fails with exactly
                # its reason.
                unsupported += 1
                try:
                    got = "decodes (%d events)" % len(got_game(game))
                except gamedb.GamedbError as e:
                    got = e.message if e.code == gamedb._ffi.FAILED else repr(e)
                check(got.endswith(pinned[records[i]]), "%s game %d (record %d): pinned as "
                      "unsupported, failing with ...%r, but: %r" % (
                          os.path.basename(stem), i + 1, records[i], pinned[records[i]], got))
                continue
            r = cbh[records[i] * 46:records[i] * 46 + 46]
            go, ao = be(r, 1, 4), be(r, 5, 4)
            if cbg[go] & 0x3F:
                # Another encoding (Chess960): this script's structure walk knows mode 0's
                # table only; these games' moves are checked by test-cbg (stockfish) and
                # test-cbh-kept-pgn. They must still decode.
                try:
                    got_game(game)
                    other += 1
                except gamedb.GamedbError as e:
                    check(False, "%s game %d: %s" % (os.path.basename(stem), i + 1, e.message))
                continue
            want = expected_game(cbg, cba, go, ao, charset, r[45])
            # Without a final marker, the full-move count leaves the last ply open.
            want_short = expected_game(cbg, cba, go, ao, charset, r[45], 1)
            try:
                got = got_game(game)
            except gamedb.GamedbError as e:  # a game that fails: reported below
                got = [("error", e.message)]
            games += 1
            annotated += bool(ao)
            if got == want_short:
                want = got
            if got == want:
                same += 1
            else:
                k = next((j for j, (a, b) in enumerate(zip(got, want)) if a != b),
                         min(len(got), len(want)))
                check(False, "%s game %d (record %d): event %d: got %r, want %r" % (
                    os.path.basename(stem), i + 1, records[i], k, got[k:k + 3], want[k:k + 3]))
    check(games + unsupported + other == len(records), "%s: %d games read, %d pinned as "
          "unsupported, %d in another encoding, %d records" % (stem, games, unsupported, other,
                                                              len(records)))
    check(unsupported == len(pinned), "%s: %d of its %d pinned games met" % (
        stem, unsupported, len(pinned)))
    print("%-16s %4d games (%d annotated): %d with exactly the expected events%s" % (
        os.path.basename(stem), games, annotated, same,
        "; %d pinned as unsupported" % unsupported if unsupported else ""))
    return games


def literal_checks(stem):
    """test-annotations: what its games hold, written out by hand from the bytes."""
    want = [
        [("move",), ("nag", 1), ("move",), ("nag", 2)],
        [("move",), ("comment_after", "Best move", b"Best move", "")],
        [("move",), ("nag", 1), ("comment_after", "King's pawn", b"King's pawn", "")],
        [("move",), ("nag", 1), ("nag", 14)],
        [("move",), ("nag", 1), ("move",), ("variation_begin",), ("move",), ("nag", 3),
         ("comment_after", "Sicilian", b"Sicilian", ""), ("variation_end",)],
        [("move",), ("command", "%csl Ga4,Rb5"), ("command", "%cal Ge2e4,Rh1h8")],
    ]
    sans = [["e4", "e5"], ["e4"], ["e4"], ["e4"], ["e4", "e5", "c5"], ["e4"]]
    with gamedb.open(stem + ".cbh") as reader:
        games = list(reader)
        check(len(games) == 6, "test-annotations: %d games" % len(games))
        for i, game in enumerate(games[:6]):
            check(got_game(game) == want[i], "test-annotations game %d: %r" % (
                i + 1, got_game(game)))
            check([e.san for e in game.moves() if e.type == "move"] == sans[i],
                  "test-annotations game %d moves" % (i + 1))


def main():
    if not REAL or not os.path.isdir(os.path.join(REAL, "chessbase")):
        print("SKIP: no $GAMEDB_REALDATA/chessbase")
        return 77
    stems = []
    for folder, _, files in sorted(os.walk(os.path.join(REAL, "chessbase"))):
        stems += [os.path.join(folder, f[:-4]) for f in sorted(files) if f.endswith(".cbh")]
    total = 0
    for stem in stems:
        # Hedgehog's annotations are Russian (its names are Latin): read as CP1251.
        total += check_base(stem, "CP1251" if "Hedgehog" in stem else "CP1252")
        if os.path.basename(stem) == "test-annotations":
            literal_checks(stem)
    check(total > 0, "no games")
    testsupport.check_chessbase_unsupported_read(stems)
    return done()


if __name__ == "__main__":
    sys.exit(main())
