# SPDX-License-Identifier: LGPL-2.1-or-later
"""Opening books read (gamedb_book_reader_*, gamedb book-probe, book-dump, book --from).

- libra8.abk (the real Arena book of $GAMEDB_REALDATA/books): the whole walk of `book-dump`
  equals DroidFish's (its AbkBook run locally, pinned in testdata/books/ by
  scripts/droidfish-books/pin.py): the same 62,289 positions, each at the same ply with the
  same moves (the digest of the whole walk, and every position within 5 plies written out);
- the Polyglot book `book --from` writes of it, read here entry by entry (keys computed here from
  the Polyglot table, castling decoded as the format says): every position of the walk has
  exactly its moves, with the documented weights (games; 0 for priority 0), and nothing else;
- ABK books made here from the format's description: a transposition (two paths, one position,
  the moves of both), a priority-0 move (weight 0), a deleted record, and hostile ones: a loop,
  an index out of range, an illegal move, a bad promotion code, a file cut short; each gives
  its warning or error and the exit status of the ledger, never a crash.
"""
import os
import re
import struct
import tempfile

from testsupport import SRCDIR, check, done, eq, run_tool
import booksupport

REALDATA = os.environ.get("GAMEDB_REALDATA", "")
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def polyglot_table():
    with open(os.path.join(SRCDIR, "lib", "board", "keys.c")) as f:
        text = f.read()
    body = text[text.index("polyglot_random[781]"):]
    body = body[:body.index("};")]
    nums = [int(x, 16) for x in re.findall(r"UINT64_C\((0x[0-9a-f]+)\)", body)]
    assert len(nums) == 781
    return nums


RANDOM = polyglot_table()
KINDS = "pPnNbBrRqQkK"  # Polyglot's order: black pawn 0, white pawn 1, ...


def pg_key(fen):
    """The Polyglot key of a FEN, as the format's description gives it."""
    board, side, castle, ep = fen.split()[:4]
    key = 0
    rows = board.split("/")
    grid = {}
    for r, row in enumerate(rows):
        f = 0
        for c in row:
            if c.isdigit():
                f += int(c)
                continue
            sq = (7 - r) * 8 + f
            grid[sq] = c
            key ^= RANDOM[64 * KINDS.index(c) + sq]
            f += 1
    for i, c in enumerate("KQkq"):
        if c in castle:
            key ^= RANDOM[768 + i]
    if ep != "-":
        file = ord(ep[0]) - 97
        rank = 4 if side == "w" else 3  # where a pawn that may take stands (0-based)
        pawn = "P" if side == "w" else "p"
        if any(0 <= file + d < 8 and grid.get(rank * 8 + file + d) == pawn for d in (-1, 1)):
            key ^= RANDOM[772 + file]
    if side == "w":
        key ^= RANDOM[780]
    return key


def read_polyglot(data):
    """{key: [(uci, weight), ...]} of a Polyglot book, in file order; checks the order."""
    out = {}
    prev = None
    for i in range(0, len(data), 16):
        key, move, weight, learn = struct.unpack(">QHHI", data[i:i + 16])
        check(prev is None or prev <= (key, -weight), "entry %d out of order" % (i // 16))
        prev = (key, -weight)
        to, frm, promo = move & 63, (move >> 6) & 63, (move >> 12) & 7
        sq = lambda s: "abcdefgh"[s & 7] + str((s >> 3) + 1)
        uci = sq(frm) + sq(to) + ("" if not promo else "nbrq"[promo - 1])
        # castling is the king taking its own rook
        uci = {"e1h1": "e1g1", "e1a1": "e1c1", "e8h8": "e8g8", "e8a8": "e8c8"}.get(uci, uci)
        out.setdefault(key, []).append((uci, weight))
        eq(learn, 0, "learn field")
    return out


def dump(book, *extra):
    rc, out, err = run_tool("book-dump", book, "--json", *extra)
    return rc, out.decode(), err


def test_real_abk(work):
    book = os.path.join(REALDATA, "books", "chess-tools", "libra8.abk")
    with open(os.path.join(SRCDIR, "testdata", "books", "libra8.abk.droidfish.json")) as f:
        pin = __import__("json").load(f)
    rc, out, err = dump(book)
    eq(rc, 0, "libra8 walk: exit status")
    eq(err, "", "libra8 walk: no message")
    table = booksupport.walk_table(out.splitlines())
    eq(len(table), pin["positions"], "libra8: positions of the walk (DroidFish's)")
    eq(booksupport.digest(table), pin["digest"], "libra8: the whole walk equals DroidFish's")
    for fen, ply, moves in pin["explicit"]:
        if not eq(table.get(fen), (ply, moves), "libra8: " + fen):
            break
    rc, out5, _ = dump(book, "--max-ply", "5")
    eq(len(out5.splitlines()), len(pin["explicit"]), "libra8 --max-ply 5: positions")
    # probe: the start position's moves, every statistic
    rc, out, err = run_tool("book-probe", book, "--fen", START, "--json")
    o = __import__("json").loads(out)
    e4 = [m for m in o["moves"] if m["uci"] == "e2e4"]
    eq(e4, [{"uci": "e2e4", "san": "e4", "weight": 16269, "priority": 5, "games": 16269,
             "wins": 0, "losses": 0}], "libra8 probe: 1.e4 (16,269 games)")
    eq(len(o["moves"]), 18, "libra8 probe: 18 first moves")
    # the Polyglot conversion
    outbin = os.path.join(work, "libra8.bin")
    rc, _, err = run_tool("book", "--from", book, "-o", outbin)
    eq((rc, err), (0, ""), "book --from libra8.abk")
    with open(outbin, "rb") as f:
        pg = read_polyglot(f.read())
    full = {}
    for line in dump(book)[1].splitlines():
        o = __import__("json").loads(line)
        full[pg_key(o["fen"])] = sorted((m["uci"], m["weight"]) for m in o["moves"])
        for m in o["moves"]:
            want = 0 if m["priority"] == 0 else min(max(m["games"], 1), 65535)
            if not eq(m["weight"], want, "weight rule, " + o["fen"] + " " + m["uci"]):
                break
    eq(len(pg), pin["positions"], "libra8.bin: positions")
    bad = [k for k in full if sorted(pg.get(k, [])) != full[k]]
    eq(bad[:3], [], "libra8.bin: every position has its moves and weights")
    eq(sum(len(v) for v in pg.values()), sum(len(v) for v in full.values()), "libra8.bin entries")
    # its 4 records of priority 0 are each the same move as one of priority 5 on another path
    # to the same position, so (highest priority kept) no move of the walk is bad
    zero = sum(1 for v in pg.values() for _, w in v if w == 0)
    eq(zero, 0, "libra8.bin: no move of weight 0")


# ---- ABK books made here ---------------------------------------------------------------------

def sq(name):
    return (ord(name[0]) - 97) + 8 * (int(name[1]) - 1)


def abk(records, header_extra=b""):
    """An ABK file: 900 records of header, then the records (uci, priority, games, won, lost,
    flags, next, sibling) from index 900."""
    data = bytearray(900 * 28)
    data[0:4] = b"\x03ABK"
    for uci, prio, games, won, lost, flags, nxt, sib in records:
        tail = uci[4:]
        promo = int(tail) if tail.isdigit() else {"": 0, "r": 1, "n": 2, "b": 3, "q": 4}[tail]
        data += struct.pack("<BBbBiiiiii", sq(uci[0:2]), sq(uci[2:4]), promo, prio, games, won,
                            lost, flags, nxt, sib)
    return bytes(data)


def write(work, name, data):
    path = os.path.join(work, name)
    with open(path, "wb") as f:
        f.write(data)
    return path


def test_made_abk(work):
    json = __import__("json")
    # 1.e4 e5 2.Nf3 and 1.Nf3 e5 2.e4 reach one position; its moves: Nc6 (path 1), d6 (path 2).
    recs = [
        ("e2e4", 5, 10, 6, 2, 0, 902, 901),   # 900
        ("g1f3", 5, 4, 1, 1, 0, 905, -1),     # 901
        ("e7e5", 5, 10, 6, 2, 0, 903, -1),    # 902
        ("g1f3", 5, 10, 6, 2, 0, 904, -1),    # 903
        ("b8c6", 5, 7, 4, 1, 0, -1, -1),      # 904: black's Nc6, White won 4 lost 1
        ("e7e5", 5, 4, 1, 1, 0, 906, 908),    # 905
        ("e2e4", 0, 4, 1, 1, 0, 907, -1),     # 906: priority 0 ("bad")
        ("d7d6", 5, 3, 0, 1, 0, -1, 909),     # 907
        ("d7d5", 5, 9, 0, 0, 0x01000000, -1, -1),  # 908: deleted
        ("b8c6", 5, 2, 1, 0, 0, -1, -1),      # 909: Nc6 again (merged with 904's)
    ]
    book = write(work, "made.abk", abk(recs))
    rc, out, err = dump(book)
    eq((rc, err), (0, ""), "made.abk: walk clean")
    t = {json.loads(l)["fen"].rsplit(" ", 2)[0]: json.loads(l) for l in out.splitlines()}
    key = "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq -"
    pos = t.get(key)
    check(pos is not None, "made.abk: the transposed position is in the walk")
    if pos:
        eq(pos["ply"], 3, "made.abk: transposition at ply 3")
        got = sorted((m["uci"], m["games"], m["wins"], m["losses"]) for m in pos["moves"])
        # black to move: wins are Black's (White's losses)
        eq(got, [("b8c6", 9, 1, 5), ("d7d6", 3, 1, 0)], "made.abk: moves of both paths, merged")
    eq(len(t), 6, "made.abk: 6 positions with moves (the deleted record's none)")
    after_nf3_e5 = t.get("rnbqkbnr/pppp1ppp/8/4p3/8/5N2/PPPPPPPP/RNBQKB1R w KQkq -")
    eq([(m["uci"], m["weight"], m["priority"]) for m in after_nf3_e5["moves"]] if after_nf3_e5
       else None, [("e2e4", 0, 0)], "made.abk: priority 0 gives weight 0")
    root = t.get("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -")
    eq([m["uci"] for m in root["moves"]] if root else None, ["e2e4", "g1f3"], "made.abk: root")
    rc, _, err = run_tool("book", "--from", book, "-o", os.path.join(work, "made.bin"))
    eq(rc, 0, "made.abk -> made.bin")
    with open(os.path.join(work, "made.bin"), "rb") as f:
        pg = read_polyglot(f.read())
    eq(sorted(pg.get(pg_key(key + " 0 1"), [])), [("b8c6", 9), ("d7d6", 3)],
       "made.bin: the transposed position")
    eq(pg.get(pg_key(START)), [("e2e4", 10), ("g1f3", 4)], "made.bin: the start, by weight")

    # hostile books: each gives its message, the rest of the book still read
    cases = [
        ("loop", [("e2e4", 5, 1, 0, 0, 0, 901, -1), ("e7e5", 5, 1, 0, 0, 0, 900, -1)],
         "reached before (a loop", 1),
        ("sibling-loop", [("e2e4", 5, 1, 0, 0, 0, -1, 901), ("d2d4", 5, 1, 0, 0, 0, -1, 900)],
         "reached before (a loop", 2),
        ("out-of-range", [("e2e4", 5, 1, 0, 0, 0, 99999, 12)], "is not a record", 1),
        ("illegal", [("e2e5", 5, 1, 0, 0, 0, -1, 901), ("d2d4", 5, 1, 0, 0, 0, -1, -1)],
         "the move e2e5 (promotion code 0) is not legal", 1),
        ("bad-promotion", [("e2e47", 5, 1, 0, 0, 0, -1, -1)], "promotion code 7", 0),
        ("self-sibling", [("e2e4", 5, 1, 0, 0, 0, -1, 900)], "reached before", 1),
    ]
    for name, recs, msg, nmoves in cases:
        book = write(work, name + ".abk", abk(recs))
        rc, out, err = dump(book)
        eq(rc, 1, name + ": exit status 1 (moves left out)")
        check(msg in err, name + ": message %r in %r" % (msg, err))
        lines = out.splitlines()
        got = len(json.loads(lines[0])["moves"]) if lines else 0
        eq(got, nmoves, name + ": root moves kept")
        rc, _, err = run_tool("book", "--from", book, "-o", os.path.join(work, name + ".bin"))
        eq(rc, 1, name + ": book --from exit status 1")
    # cut short: the tree does not even start; and a file cut inside the tree
    book = write(work, "short.abk", abk([])[:900 * 28 + 10])
    rc, out, err = dump(book)
    eq(rc, 2, "short.abk: cannot be opened")
    check("too short" in err, "short.abk: says why: " + err)
    data = abk([("e2e4", 5, 1, 0, 0, 0, 901, -1), ("e7e5", 5, 1, 0, 0, 0, -1, -1)])
    book = write(work, "cut.abk", data[:-5])
    rc, out, err = dump(book)
    eq(rc, 1, "cut.abk: the record cut off is reported")
    check("is not a record" in err, "cut.abk: " + err)
    rc, out, err = run_tool("book-dump", write(work, "x.txt", b"abc"), "--json")
    eq(rc, 2, "not a book: exit 2")
    rc, out, err = run_tool("book-probe", book, "--fen", "not a fen")
    eq(rc, 2, "bad FEN: exit 2")


# ---- CTG ------------------------------------------------------------------------------------

def load_pin(name):
    with open(os.path.join(SRCDIR, "testdata", "books", name + ".droidfish.json")) as f:
        return __import__("json").load(f)


def against_pin(book, pin, what):
    """The walk of book equals DroidFish's pinned walk; the pinned probes too."""
    rc, out, err = dump(book)
    eq((rc, err), (0, ""), what + ": walk clean")
    table = booksupport.walk_table(out.splitlines())
    eq(len(table), pin["positions"], what + ": positions (DroidFish's)")
    eq(booksupport.digest(table), pin["digest"], what + ": the walk equals DroidFish's")
    for fen, ply, moves in pin["explicit"]:
        eq(table.get(fen), (ply, moves), what + ": " + fen)
    for fen, moves in pin.get("probes", []):
        rc, o, err = run_tool("book-probe", book, "--fen", fen + " 0 1", "--json")
        got = sorted(m["uci"] for m in __import__("json").loads(o)["moves"]) if rc == 0 else rc
        eq(got, moves, what + ": probe " + fen)
    return table


def expected_moves(made, fen):
    """What the book made by make-ctg-book.py must give for fen: each move with the statistics
    of the position it leads to, from the mover's side, and its weight (doc/formats/ctg.md)."""
    import ctgwriter
    out = []
    for uci, ann in made[fen]["moves"]:
        child = made.get(ctgwriter.play(fen, uci))
        s = child["stats"] if child else {}
        games, wins = s.get("games", 0), s.get("losses", 0)
        losses, draws = s.get("wins", 0), s.get("draws", 0)
        weight = 0 if ann in (2, 4, 6) else min(max(2 * wins + draws, 1), 65535)
        out.append({"uci": uci, "weight": weight, "annotation": ann, "games": games,
                    "wins": wins, "draws": draws, "losses": losses,
                    "elo": s["elo_sum"] // s["rated"] if s.get("rated") else 0,
                    "performance": s["perf_sum"] // s["perf_games"] if s.get("perf_games") else 0,
                    "recommendation": s.get("recommendation", 0)})
    return sorted(out, key=lambda m: m["uci"])


def test_ctg(work):
    json = __import__("json")
    import subprocess
    import sys
    stem = os.path.join(work, "made")
    made = json.loads(subprocess.run([sys.executable, os.path.join(SRCDIR, "tests",
                                                                    "make-ctg-book.py"), stem],
                                     check=True, capture_output=True, text=True).stdout)
    book = stem + ".ctg"
    against_pin(book, load_pin("made.ctg"), "made.ctg")
    # every position the book holds, probed: every move, every statistic
    for fen in sorted(made):
        rc, out, err = run_tool("book-probe", book, "--fen", fen + " 0 1", "--json")
        want = expected_moves(made, fen)
        got = sorted(json.loads(out)["moves"], key=lambda m: m["uci"]) if out else rc
        for m in got if isinstance(got, list) else []:
            m.pop("san")
        eq((rc, got), (0, want), "made.ctg probe " + fen)
        # the position's own statistics, as stored (its side to move's)
        st = made[fen]["stats"]
        eq(json.loads(out).get("stats") if out else None,
           {"games": st["games"], "wins": st["wins"], "draws": st["draws"],
            "losses": st["losses"],
            "elo": st["elo_sum"] // st["rated"] if st.get("rated") else 0,
            "performance": st["perf_sum"] // st["perf_games"] if st.get("perf_games") else 0,
            "recommendation": st.get("recommendation", 0), "commentary": 0},
           "made.ctg position statistics " + fen)
    # the Polyglot book of it, read back
    outbin = os.path.join(work, "made-ctg.bin")
    rc, _, err = run_tool("book", "--from", book, "-o", outbin)
    eq((rc, err), (0, ""), "book --from made.ctg")
    with open(outbin, "rb") as f:
        pg = read_polyglot(f.read())
    for line in dump(book)[1].splitlines():
        o = json.loads(line)
        eq(sorted(pg.get(pg_key(o["fen"]), [])), sorted((m["uci"], m["weight"]) for m in o["moves"]),
           "made-ctg.bin: " + o["fen"])
    eq(pg.get(pg_key(START), [])[-1:], [("g2g4", 0)], "made-ctg.bin: 1.g4? weight 0, last")

    # hostile companions and pages
    with open(book, "rb") as f:
        good = f.read()
    cases = [
        ("page-past-end", good[:4096 * 2], "past the last page"),
        ("used-too-big", good[:4096] + good[4096:4098] + b"\x20\x00" + good[4100:],
         "says it uses"),
        ("count-too-big", good[:4096] + b"\x00\x60" + good[4098:], "past the page's"),
    ]
    for name, data, msg in cases:
        s2 = os.path.join(work, name)
        with open(s2 + ".ctg", "wb") as f:
            f.write(data)
        for ext in (".ctb", ".cto"):
            with open(stem + ext, "rb") as f, open(s2 + ext, "wb") as g:
                g.write(f.read())
        rc, out, err = dump(s2 + ".ctg")
        eq(rc, 1, name + ": exit status 1")
        check(msg in err, name + ": message %r in %r" % (msg, err))
    # a bad move code in the start position's entry
    k = ctgwriter_key(START)
    i = good.index(k) + len(k) + 1
    s2 = os.path.join(work, "badcode")
    with open(s2 + ".ctg", "wb") as f:
        f.write(good[:i] + b"\x02" + good[i + 1:])
    for ext in (".ctb", ".cto"):
        with open(stem + ext, "rb") as f, open(s2 + ext, "wb") as g:
            g.write(f.read())
    rc, out, err = dump(s2 + ".ctg", "--max-ply", "0")
    eq(rc, 1, "badcode: exit status 1")
    check("code 0x02 is no move" in err, "badcode: " + err)
    eq([m["uci"] for m in json.loads(out)["moves"]] if out else None, ["d2d4", "g2g4"],
       "badcode: the other moves kept")
    os.remove(s2 + ".cto")
    rc, out, err = dump(s2 + ".ctg")
    eq(rc, 2, "no .cto: cannot be opened")
    check(".cto" in err, "no .cto: says so: " + err)
    with open(s2 + ".ctb", "wb") as f:
        f.write(b"\0" * 5)
    with open(s2 + ".cto", "wb") as f:
        f.write(b"\0" * 20)
    rc, out, err = dump(s2 + ".ctg")
    eq(rc, 2, "short .ctb: cannot be opened")


def ctgwriter_key(fen):
    import ctgwriter
    return ctgwriter.key(fen)


def test_help():
    """The book commands' help, as every command's: --help (anywhere) and `gamedb help CMD`
    write it on standard output and exit 0; bad usage writes the usage on standard error, 2."""
    for args in (["book-probe", "--help"], ["book-dump", "-h"], ["help", "book-probe"],
                 ["help", "book-dump"], ["book", "--from", "x.abk", "--help"]):
        rc, out, err = run_tool(*args)
        eq(rc, 0, "gamedb %s: exit status" % " ".join(args))
        check(out.startswith(b"usage: gamedb book-probe") and b"Exit status" in out and not err,
              "gamedb %s: the help on standard output (%r, %r)" % (" ".join(args), out[:60], err))
    rc, out, err = run_tool("book-probe", "x.abk")
    check(rc == 2 and not out and "--fen FEN are needed" in err and "usage:" in err,
          "book-probe without --fen: usage on standard error, exit 2")


def main():
    test_help()
    with tempfile.TemporaryDirectory() as work:
        test_made_abk(work)
        test_ctg(work)
        if REALDATA and os.path.exists(os.path.join(REALDATA, "books", "chess-tools")):
            test_real_abk(work)
            against_pin(os.path.join(REALDATA, "books", "ctgexporter", "simple.ctg"),
                        load_pin("simple.ctg"), "simple.ctg")
            return done()
        return done("no real books under $GAMEDB_REALDATA")


if __name__ == "__main__":
    raise SystemExit(main())
