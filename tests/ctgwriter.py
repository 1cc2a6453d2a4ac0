"""Writes ChessBase CTG books (.ctg, .ctb, .cto) for the tests, from the format's description
(doc/formats/ctg.md; the facts are listed at the top of lib/books/book-ctg.c): test books made
here prove the reader on what the real book of the test data (a handful of positions) lacks:
Black to move (mirrored), no castling with the white king on files a-d (mirrored left-right),
en passant, castling, promotion, annotations, statistics, several pages found through the .cto.

Positions are given as FEN with their moves (UCI) and statistics; this module plays nothing
but the moves it is given (a small FEN mover: castling, en passant, promotion).
"""
import os
import re
import struct

HERE = os.path.dirname(os.path.abspath(__file__))


def _tables():
    """The move codes and hash numbers as doc/formats/ctg.md gives them (read from the
    C file's tables, which transcribe the description)."""
    with open(os.path.join(HERE, "..", "lib", "books", "book-ctg.c")) as f:
        text = f.read()
    codes = {}
    rows = re.findall(r"\{ 0x([0-9a-f]{2}), '(\w)', (\d), +(-?\d), +(-?\d) \}", text)
    for code, piece, nth, dx, dy in rows:
        # (two codes move the second queen six squares up: the first is used)
        codes.setdefault((piece, int(nth), int(dx) % 8, int(dy) % 8), int(code, 16))
    body = text[text.index("hash_tbl[64]"):]
    nums = [int(x, 16) for x in re.findall(r"0x[0-9a-f]{8}", body[:body.index("};")])]
    assert len(nums) == 64 and len(rows) == 166
    return codes, nums


CODES, HASH = _tables()


def parse_fen(fen):
    board, side, castle, ep = fen.split()[:4]
    sq = {}
    for r, row in enumerate(board.split("/")):
        f = 0
        for c in row:
            if c.isdigit():
                f += int(c)
            else:
                sq[(f, 7 - r)] = c
                f += 1
    return {"sq": sq, "side": side, "castle": "" if castle == "-" else castle,
            "ep": None if ep == "-" else (ord(ep[0]) - 97, int(ep[1]) - 1)}


def to_fen(p):
    rows = []
    for y in range(7, -1, -1):
        row, e = "", 0
        for x in range(8):
            c = p["sq"].get((x, y))
            if c:
                row += (str(e) if e else "") + c
                e = 0
            else:
                e += 1
        rows.append(row + (str(e) if e else ""))
    ep = "-" if not p["ep"] else "abcdefgh"[p["ep"][0]] + str(p["ep"][1] + 1)
    return "%s %s %s %s" % ("/".join(rows), p["side"], p["castle"] or "-", ep)


def sqn(s):
    return (ord(s[0]) - 97, int(s[1]) - 1)


def play(fen, uci):
    """The FEN (four fields) after a move, played as given."""
    p = parse_fen(fen)
    a, b = sqn(uci[0:2]), sqn(uci[2:4])
    sq = dict(p["sq"])
    pc = sq.pop(a)
    if pc in "Pp" and b == p["ep"]:
        sq.pop((b[0], a[1]), None)
    if pc in "Kk" and abs(b[0] - a[0]) == 2:
        rook_from = (7 if b[0] > a[0] else 0, a[1])
        sq[((a[0] + b[0]) // 2, a[1])] = sq.pop(rook_from)
    if len(uci) > 4:
        pc = uci[4].upper() if pc == "P" else uci[4]
    sq[b] = pc
    castle = p["castle"]
    for s, rights in (((4, 0), "KQ"), ((7, 0), "K"), ((0, 0), "Q"), ((4, 7), "kq"),
                      ((7, 7), "k"), ((0, 7), "q")):
        if a == s or b == s:
            castle = "".join(c for c in castle if c not in rights)
    ep = None
    if pc in "Pp" and abs(b[1] - a[1]) == 2:
        ep = (a[0], (a[1] + b[1]) // 2)
    return to_fen({"sq": sq, "side": "b" if p["side"] == "w" else "w", "castle": castle,
                   "ep": ep})


def ep_legal_file(p):
    """The file of an en-passant capture the side to move has (the tests' positions have no
    pins that would make one illegal), or None."""
    if not p["ep"]:
        return None
    x, y = p["ep"]
    pawn, row = ("P", 4) if p["side"] == "w" else ("p", 3)
    if any(p["sq"].get((x + d, row)) == pawn for d in (-1, 1)):
        return x
    return None


def normalise(fen):
    """(stored position, flip_ranks, flip_files, ep file) as the format stores fen."""
    p = parse_fen(fen)
    ep = ep_legal_file(p)
    fr = p["side"] == "b"
    if fr:
        p = {"sq": {(x, 7 - y): c.swapcase() for (x, y), c in p["sq"].items()}, "side": "w",
             "castle": p["castle"].swapcase(), "ep": None}
    ff = False
    wk = next(x for (x, y), c in p["sq"].items() if c == "K")
    if not p["castle"] and wk < 4:
        p = dict(p, sq={(7 - x, y): c for (x, y), c in p["sq"].items()})
        ff = True
        if ep is not None:
            ep = 7 - ep
    return p, fr, ff, ep


PIECE_BITS = {"P": "11", "N": "1001", "B": "1010", "R": "1011", "Q": "10001", "K": "10000"}


def key(fen):
    p, _, _, ep = normalise(fen)
    bits = ""
    for x in range(8):
        for y in range(8):
            c = p["sq"].get((x, y))
            bits += "0" if not c else PIECE_BITS[c.upper()] + ("0" if c.isupper() else "1")
    cs = p["castle"]
    if ep is None and not cs:
        bits += "0"
    special = (3 if ep is not None else 0) + (4 if cs else 0)
    while (8 - (len(bits) + 8) % 8) % 8 != special:
        bits += "0"
    if ep is not None:
        bits += format(ep, "03b")
    if cs:
        bits += "".join("1" if c in cs else "0" for c in "kqKQ")
    n = (len(bits) + 8) // 8
    head = n | (0x20 if ep is not None else 0) | (0x40 if cs else 0)
    return bytes([head]) + int(bits, 2).to_bytes(n - 1, "big")


def hash_of(k):
    h = t = 0
    for ch in k:
        t += ((0x0F - (ch & 0x0F)) << 2) + 1
        h = (h + HASH[t & 0x3F]) & 0xFFFFFFFF
        t += ((0xF0 - (ch & 0xF0)) >> 2) + 1
        h = (h + HASH[t & 0x3F]) & 0xFFFFFFFF
    return h


def move_code(fen, uci):
    p, fr, ff, _ = normalise(fen)
    a, b = sqn(uci[0:2]), sqn(uci[2:4])
    if fr:
        a, b = (a[0], 7 - a[1]), (b[0], 7 - b[1])
    if ff:
        a, b = (7 - a[0], a[1]), (7 - b[0], b[1])
    piece = p["sq"][a]
    order = [(x, y) for x in range(8) for y in range(8) if p["sq"].get((x, y)) == piece]
    return CODES[(piece, order.index(a), (b[0] - a[0]) % 8, (b[1] - a[1]) % 8)]


def entry(fen, moves, stats):
    """moves: [(uci, annotation)]; stats: dict games wins losses draws rated elo_sum perf_games
    perf_sum recommendation (for the side to move)."""
    k = key(fen)
    mv = b"".join(bytes([move_code(fen, u), ann]) for u, ann in moves)
    s = stats
    info = (s.get("games", 0).to_bytes(3, "big") + s.get("wins", 0).to_bytes(3, "big") +
            s.get("losses", 0).to_bytes(3, "big") + s.get("draws", 0).to_bytes(3, "big") +
            bytes(4) + s.get("rated", 0).to_bytes(3, "big") + s.get("elo_sum", 0).to_bytes(4, "big") +
            s.get("perf_games", 0).to_bytes(3, "big") + s.get("perf_sum", 0).to_bytes(4, "big") +
            bytes([s.get("recommendation", 0), 0, 0]))
    return k + bytes([len(mv) + 1]) + mv + info


def write_book(stem, book, level=2, page_override=None):
    """book: {fen: (moves, stats)}. The .cto has the 2**level slots of one level of the hash
    tree (lower = upper bound = 2**level - 1: one candidate slot a position); a slot's positions
    share a page. Returns the file names."""
    n = (1 << level) - 1
    slots = {}
    for fen, (moves, stats) in book.items():
        slots.setdefault(hash_of(key(fen)) & n, []).append(entry(fen, moves, stats))
    pages, cto = [], [0xFFFFFFFF] * (2 * n + 1)
    for slot, ents in sorted(slots.items()):
        body = b"".join(ents)
        assert 4 + len(body) <= 4096
        cto[slot + n] = len(pages)
        pages.append(struct.pack(">HH", len(ents), 4 + len(body)) + body)
    header = bytearray(4096)
    header[28:32] = struct.pack(">I", 1)
    ctg = bytes(header) + b"".join(p.ljust(4096, b"\0") for p in pages)
    if page_override:
        ctg = page_override(ctg)
    with open(stem + ".ctg", "wb") as f:
        f.write(ctg)
    with open(stem + ".ctb", "wb") as f:
        f.write(struct.pack(">III", 0, n, n))
    with open(stem + ".cto", "wb") as f:
        f.write(bytes(16) + b"".join(struct.pack(">I", v) for v in cto))
    return stem + ".ctg"
