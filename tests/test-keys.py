# SPDX-License-Identifier: LGPL-2.1-or-later
"""Position keys, against a second computation written here from the definitions.

Chess: the Polyglot key of the position after every move of every game of every real SCID
and ChessBase base (and of each start position) must equal a key computed in this script from
the FEN the library gives for that position, with PolyGlot's own table of 781 numbers read out
of the installed PolyGlot program (Debian package `polyglot`, the book oracle), where it is
found by the first number the book format's documentation publishes. Xiangqi: the key of
doc/keys.md (SplitMix64 at a fixed seed) after every move of every real XQF file.
"""
import glob
import os
import struct
import sys

from testsupport import check, done, eq, find_program, import_gamedb

gamedb = import_gamedb()
REALDATA = os.environ.get("GAMEDB_REALDATA", "")
TESTDATA = os.environ.get("GAMEDB_TESTDATA", "")
M64 = (1 << 64) - 1


def polyglot_table():
    """PolyGlot's table, from its program; None when PolyGlot is not installed."""
    prog = find_program("polyglot")
    if not prog:
        return None
    data = open(os.path.realpath(prog), "rb").read()
    at = data.find(struct.pack("<Q", 0x9D39247E33776D41))
    if at < 0:
        return None
    return struct.unpack("<781Q", data[at:at + 781 * 8])


def polyglot_key(table, fen):
    board, stm, castling, ep = fen.split()[:4]
    squares = {}
    key = 0
    for i, row in enumerate(board.split("/")):
        rank, file = 7 - i, 0
        for ch in row:
            if ch.isdigit():
                file += int(ch)
                continue
            kind = 2 * "pnbrqk".index(ch.lower()) + (1 if ch.isupper() else 0)
            key ^= table[64 * kind + 8 * rank + file]
            squares[8 * rank + file] = ch
            file += 1
    # Castling letters: KQkq, or X-FEN/Shredder file letters (a king-side rook stands on the
    # king's right).
    kings = {c: sq for sq, c in squares.items() if c in "Kk"}
    for ch in castling:
        if ch == "-":
            continue
        white = ch.isupper()
        if ch in "KQkq":
            king_side = ch in "Kk"
        else:
            king = kings.get("K" if white else "k")
            king_side = king is not None and ord(ch.lower()) - ord("a") > king % 8
        key ^= table[768 + (0 if white else 2) + (0 if king_side else 1)]
    if ep != "-":
        file = ord(ep[0]) - ord("a")
        pawn_rank = 4 if stm == "w" else 3
        ours = "P" if stm == "w" else "p"
        if any(squares.get(8 * pawn_rank + f) == ours for f in (file - 1, file + 1) if 0 <= f < 8):
            key ^= table[772 + file]
    if stm == "w":
        key ^= table[780]
    return key


def splitmix64(x):
    x = (x + 0x9E3779B97F4A7C15) & M64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & M64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & M64
    return x ^ (x >> 31)


XQ_SEED = 0x58514B6579000000
XQ_TYPES = {"p": 1, "n": 2, "h": 2, "r": 4, "k": 6, "a": 7, "b": 8, "e": 8, "c": 9}


def xiangqi_key(fen):
    board, stm = fen.split()[:2]
    key = splitmix64(XQ_SEED) if stm in ("w", "r") else 0
    for i, row in enumerate(board.split("/")):
        rank, file = 9 - i, 0
        for ch in row:
            if ch.isdigit():
                file += int(ch)
                continue
            man = (0 if ch.isupper() else 16) + XQ_TYPES[ch.lower()]
            key ^= splitmix64((XQ_SEED + 1 + man * 90 + rank * 9 + file) & M64)
            file += 1
    return key


def bases():
    pats = ["scid/**/*.si4", "scid/**/*.si3", "chessbase/**/*.cbh", "xqf/**/*.xqf"]
    found = []
    for root in (REALDATA, TESTDATA):
        if root and os.path.isdir(root):
            for p in pats:
                found += sorted(glob.glob(os.path.join(root, p), recursive=True))
    return found


def main():
    table = polyglot_table()
    if table is None:
        return done(skip="PolyGlot not installed (apt-get install polyglot)")
    stats = {"chess": 0, "xiangqi": 0, "games": 0, "bases": 0}
    for path in bases():
        try:
            r = gamedb.open(path)
        except gamedb.GamedbError:
            continue  # bases the other tests pin as unreadable
        stats["bases"] += 1
        with r:
            for g in r:
                xq = g.variant == "xiangqi"
                keyof = xiangqi_key if xq else (lambda fen: polyglot_key(table, fen))
                try:
                    start = g.start_key()
                    events = [e for e in g.moves(fen=True, key=True, partial=True)
                              if e.type == "move"]
                except gamedb.GamedbError:
                    continue
                stats["games"] += 1
                if not eq(start, keyof(g.fen), "%s game %d start" % (path, g.index + 1)):
                    continue
                for e in events:
                    want = keyof(e.fen)
                    stats["xiangqi" if xq else "chess"] += 1
                    if e.key != want:
                        check(False, "%s game %d after %s %s: key %016x, want %016x (%s)"
                              % (path, g.index + 1, e.move_number, e.san, e.key, want, e.fen))
                        break
                    check(True, "")
    print("%(bases)d bases, %(games)d games: %(chess)d chess and %(xiangqi)d xiangqi "
          "positions keyed alike" % stats)
    # The real data hold about 150,000 chess and 55,000 xiangqi positions; the bundled test
    # data alone (no $GAMEDB_REALDATA) a few thousand and a few dozen.
    real = bool(REALDATA) and os.path.isdir(REALDATA)
    check(stats["chess"] > (100000 if real else 1000), "enough chess positions (%d)" % stats["chess"])
    check(stats["xiangqi"] > (1000 if real else 10), "enough xiangqi positions (%d)" % stats["xiangqi"])
    return done()


if __name__ == "__main__":
    sys.exit(main())
