#!/usr/bin/env python3
"""ChessBase annotations whose CBA block is not in move order, and annotation texts with every
kind of byte, on small bases written here from the format's description
(doc/formats/chessbase.md, "The CBA annotation block"; the fixture writer of
fuzz/chessbase/make-corpus.py for the rest).

Issue 32 made the reader hang each entry on its move in one pass over the block (no sort) and
convert texts through one table per charset: these pin what the description says, whatever
the order of the block and whichever bytes a text holds.

  * Entries need not be sorted; several may share a position. Per move: texts before it
    (0x82), the move, its symbols (0x03, each non-zero byte a NAG), texts after it (0x02) in
    the order of the block; at the start (-1) the texts as COMMENT_BEFORE.
  * A text: 2 bytes language, then bytes in the base's charset; 0xA2-0xA7 the figurines
    K Q N B R P, 0x9E a diagram "[#]", CR LF and a lone CR a newline; a byte the charset does
    not have becomes U+FFFD and a NUL '?', each with a warning.
"""
import os
import struct
import sys
import tempfile

import testsupport
from testsupport import check, done, eq

gamedb = testsupport.import_gamedb()
mk = testsupport.load_script(os.path.join(testsupport.SRCDIR, "fuzz", "chessbase",
                                          "make-corpus.py"), "cbh_make_corpus")


def entry(pos, kind, payload):
    return (pos & 0xFFFFFF).to_bytes(3, "big") + bytes([kind]) + \
        struct.pack(">H", len(payload) + 6) + payload


def text(s, lang=0):
    return struct.pack(">H", lang) + s


def write(folder, name, games_entries):
    """A base of one game 1.e4 e5 2.Nf3 Nc6 per list of CBA entries."""
    b = mk.Base()
    b.player("White", "A")
    b.player("Black", "B")
    b.tournament("Event", "Site")
    b.annotator("")
    b.source("")
    for _ in games_entries:
        b.game(0, 1, 0, 0, 0, result=2, moves=mk.OPENING)
    files = b.build()
    cbh, cba = bytearray(files["cbh"]), bytearray(files["cba"])
    for k, entries in enumerate(games_entries):
        body = b"".join(entries)
        off = len(cba)
        cba += bytes(3) + b"\x01\x00\x0e\x0e" + (len(entries) + 1).to_bytes(3, "big") + \
            struct.pack(">I", 14 + len(body)) + body
        rec = 46 * (k + 1)
        cbh[rec + 5:rec + 9] = struct.pack(">I", off)  # the record's .cba offset
    files["cbh"], files["cba"] = bytes(cbh), bytes(cba)
    for ext, data in files.items():
        with open(os.path.join(folder, name + "." + ext), "wb") as f:
            f.write(data)
    return os.path.join(folder, name + ".cbh")


def status(game):
    """The game's status once its moves are read (GAMEDB_WARN: something was lost)."""
    return gamedb._ffi.lib.gamedb_game_get_status(game._handle())


def events(game):
    out = []
    for ev in game.moves():
        if ev.type in ("comment_before", "comment_after"):
            out.append((ev.type, ev.text, ev.text_raw))
        elif ev.type == "nag":
            out.append(("nag", ev.nag))
        elif ev.type in ("command", "clock"):
            out.append((ev.type, ev.text))
        elif ev.type == "move":
            out.append(("move", ev.san))
        elif ev.type != "result":
            out.append((ev.type,))
    return out


def test_unsorted(tmp):
    # Positions 0 e4, 1 e5, 2 Nf3, 3 Nc6; -1 the start. The block in no order at all.
    entries = [
        entry(2, 0x02, text(b"after Nf3")),
        entry(0, 0x02, text(b"after e4, one")),
        entry(0, 0x03, bytes([1, 0, 0])),
        entry(1, 0x82, text(b"before e5")),
        entry(0, 0x02, text(b"after e4, two")),
        entry(-1, 0x82, text(b"at the start")),
        entry(3, 0x03, bytes([0, 14, 0])),
        entry(1, 0x82, text(b"before e5, again")),
    ]
    path = write(tmp, "unsorted", [entries, list(reversed(entries))])
    want = [
        ("comment_before", "at the start", b"at the start"),
        ("move", "e4"), ("nag", 1),
        ("comment_after", "after e4, one", b"after e4, one"),
        ("comment_after", "after e4, two", b"after e4, two"),
        ("comment_before", "before e5", b"before e5"),
        ("comment_before", "before e5, again", b"before e5, again"),
        ("move", "e5"), ("move", "Nf3"),
        ("comment_after", "after Nf3", b"after Nf3"),
        ("move", "Nc6"), ("nag", 14),
    ]
    # The same block backwards: the entries of one move come in the block's order.
    rev = [("comment_before", "at the start", b"at the start"),
           ("move", "e4"), ("nag", 1),
           ("comment_after", "after e4, two", b"after e4, two"),
           ("comment_after", "after e4, one", b"after e4, one"),
           ("comment_before", "before e5, again", b"before e5, again"),
           ("comment_before", "before e5", b"before e5"),
           ("move", "e5"), ("move", "Nf3"),
           ("comment_after", "after Nf3", b"after Nf3"),
           ("move", "Nc6"), ("nag", 14)]
    with gamedb.open(path, errors="raise") as r:
        games = list(r)
        eq(len(games), 2, "unsorted: two games")
        eq(events(games[0]), want, "unsorted: every entry on its move, block order kept")
        eq(games[0].warning, None, "unsorted: no warning")
        eq(events(games[1]), rev, "unsorted backwards: block order kept per move")


def test_text_bytes(tmp):
    clean = b"\xcf\xf0\xe8 \xa2\xa4\xa7 \x9e a\r\nb\rc\n d \xa5\xa6\xa3 end of a long ASCII run"
    # 0x98 is not in CP1251; a NUL; within runs of eight letters and in a short text.
    lossy = b"\xcf\xcf\xcf\x98\xcf\xcf\xcf\x00\xcf\xcfabc"
    short = b"x\x98y\x00z"
    # A line break across every place in a run of eight bytes, after letters and after ASCII.
    breaks = [b"\xcf" * k + b"\r\n" + b"abcdefghij\r" for k in range(10)] + \
        [b"a" * k + b"\r\nabcdefghij" for k in range(10)]
    path = write(tmp, "texts", [[entry(0, 0x02, text(clean))],
                                [entry(0, 0x02, text(lossy)), entry(1, 0x02, text(short))],
                                [entry(0, 0x02, text(x)) for x in breaks]])
    for cs, first in (("CP1251", "\u041f\u0440\u0438"), ("CP1252", "\u00cf\u00f0\u00e8")):
        with gamedb.open(path, errors="warn", charset=cs) as r:
            g1, g2, g3 = list(r)
            letter = "\u041f" if cs == "CP1251" else "\u00cf"
            eq([e[1] for e in events(g3) if e[0] == "comment_after"],
               [letter * k + "\nabcdefghij\n" for k in range(10)] +
               ["a" * k + "\nabcdefghij" for k in range(10)], cs + ": line breaks anywhere")
            eq(events(g1)[1], ("comment_after", first + " KNP [#] a\nb\nc\n d BRQ end of a "
                               "long ASCII run", clean), cs + ": figurines, diagram, newlines")
            eq(status(g1), gamedb._ffi.OK, cs + ": a clean text, no warning")
            # (The stored bytes of a text end at a NUL: only the text is compared.)
            t = [e[:2] for e in events(g2) if e[0] == "comment_after"]
            if cs == "CP1251":
                eq(t, [("comment_after", "\u041f" * 3 + "\ufffd" + "\u041f" * 3 + "?" +
                        "\u041f" * 2 + "abc"), ("comment_after", "x\ufffdy?z")],
                   cs + ": U+FFFD and '?'")
            else:
                eq(t, [("comment_after", "\u00cf" * 3 + "\u02dc" + "\u00cf" * 3 + "?" +
                        "\u00cf" * 2 + "abc"), ("comment_after", "x\u02dcy?z")],
                   cs + ": 0x98 is a letter, NUL '?'")
            eq(status(g2), gamedb._ffi.WARN, cs + ": a lossy text warns")
            # What was lost is said (issue 26): the first such entry's .cba offset (the second
            # game's block, its first entry after the block's 14-byte head), the bytes replaced
            # (CP1251: 0x98 twice and two NULs; CP1252: the two NULs), in two texts.
            with open(path[:-4] + ".cbh", "rb") as f:
                cbh = f.read()
            first = struct.unpack(">I", cbh[46 * 2 + 5:46 * 2 + 9])[0] + 14
            eq(g2.warning.split(": ", 1)[1] if g2.warning else None,
               "offset %d: game 2: comment text lost %d byte(s) the charset %s lacks (each now "
               "U+FFFD, a NUL '?'), in 2 text(s)" % (first, 4 if cs == "CP1251" else 2, cs),
               cs + ": the warning says what the texts lost")
            eq(g1.warning, None, cs + ": a clean text, no message")


def test_commands(tmp):
    # Clocks in centiseconds (0x16 White's, 0x17 Black's: CLOCK for the mover's own, else a
    # command; ".cc" only with hundredths), time spent (0x07: h, m, s, a byte not kept),
    # squares (0x04: colour, square; 1 = a1, 2 = a2, ..., 64 = h8) and arrows (0x05), all
    # after their move in the order of the block.
    entries = [
        entry(0, 0x16, struct.pack(">I", 6000 * 100 + 5)),
        entry(0, 0x17, struct.pack(">I", 50 * 3600 * 100)),
        entry(0, 0x07, bytes([0, 2, 5, 7])),
        entry(1, 0x07, bytes([12, 0, 9, 0])),
        entry(1, 0x17, struct.pack(">I", 59 * 100 + 10)),
        entry(2, 0x04, bytes([2, 28, 4, 37, 3, 64])),
        entry(3, 0x05, bytes([2, 34, 36, 4, 1, 64])),
    ]
    path = write(tmp, "commands", [entries])
    with gamedb.open(path, errors="raise") as r:
        g, = list(r)
        eq(events(g), [
            ("move", "e4"),
            ("clock", "%clk 1:40:00.05"), ("command", "%clkb 50:00:00"),
            ("command", "%emt 0:02:05"),
            ("move", "e5"), ("command", "%emt 12:00:09"), ("clock", "%clk 0:00:59.10"),
            ("move", "Nf3"), ("command", "%csl Gd4,Re5,Yh8"),
            ("move", "Nc6"), ("command", "%cal Ge2e4,Ra1h8"),
        ], "commands: clocks, time spent, squares, arrows")


def test_unplaced(tmp):
    # An entry at a position the game has no move for (the four moves are positions 0-3;
    # 7 and 100 are beyond them) is not written, and the game says how many were left out; the entries at real positions are written as usual. The game is one
    # line (no 254): issue 32 decodes such a game in one pass, without the tree a game with
    # variations takes; the description is the same for both.
    entries = [
        entry(7, 0x02, text(b"past the end")),
        entry(0, 0x02, text(b"after e4")),
        entry(100, 0x03, bytes([1, 0, 0])),
        entry(-1, 0x82, text(b"at the start")),
        entry(3, 0x03, bytes([0, 14, 0])),
    ]
    path = write(tmp, "unplaced", [entries, entries[1:2]])
    with gamedb.open(path, errors="warn") as r:
        g1, g2 = list(r)
        eq(events(g1), [
            ("comment_before", "at the start", b"at the start"),
            ("move", "e4"), ("comment_after", "after e4", b"after e4"),
            ("move", "e5"), ("move", "Nf3"), ("move", "Nc6"), ("nag", 14),
        ], "unplaced: the entries at real positions written")
        eq(status(g1), gamedb._ffi.WARN, "unplaced: the game warns")
        check(g1.warning is not None and
              g1.warning.endswith("2 annotation(s) at positions without a move ignored"),
              "unplaced: the warning counts the two left out: %r" % g1.warning)
        eq(events(g2), [("move", "e4"), ("comment_after", "after e4", b"after e4"),
                        ("move", "e5"), ("move", "Nf3"), ("move", "Nc6")],
           "unplaced: the next game as usual")
        eq(g2.warning, None, "unplaced: the next game has no warning")


def main():
    with tempfile.TemporaryDirectory() as tmp:
        test_unsorted(tmp)
        test_text_bytes(tmp)
        test_commands(tmp)
        test_unplaced(tmp)
    return done()


if __name__ == "__main__":
    sys.exit(main())
