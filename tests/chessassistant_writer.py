# SPDX-License-Identifier: LGPL-2.1-or-later
"""A Chess Assistant base writer for the tests, written from the format description alone
(../shared/formats/seeds/chessassistant.ru.txt, the Kvetka text), never from the reader's
code: what the reader gets right it must get right on bytes made by someone else's reading.

    base = Base(dir_sign=+1)               # +1: column deltas count to the right (see below)
    base.add_game(tags, start_fen, line)   # line: list of Node (see Node)
    files = base.files("name")             # {"name.cdp": bytes, ".emb", ".d00", ".a02", ".d02"}

Everything the description leaves open is a parameter here, so a test can write both
readings: dir_sign (the seed says "x positions to the left" in the move table and "to the
right" for extended moves). Fragments of EMB files are written out of order with gaps and
unused bytes between them; a02 entries go through redirection chains; records are placed
out of order with junk between them.
"""
import random
import struct

# Piece numbers (the seed's list): 0-7 pawns by file, 8/9 knights, 10/11 bishops, 12/13
# rooks, 14 queen, 15 king, 16/17 extra pieces made by promotion.
PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING = 1, 2, 3, 4, 5, 6
FIXED = {8: KNIGHT, 9: KNIGHT, 10: BISHOP, 11: BISHOP, 12: ROOK, 13: ROOK, 14: QUEEN, 15: KING}

# The seed's move tables as (y, x) pairs, in code order.
KNIGHT_YX = [(6, 7), (7, 6), (1, 6), (2, 7), (2, 1), (1, 2), (7, 2), (6, 1)]
BISHOP_YX = [(1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (6, 6), (7, 7),
             (1, 7), (2, 6), (3, 5), (5, 3), (6, 2), (7, 1)]
ROOK_YX = [(0, 7), (0, 6), (0, 5), (0, 4), (0, 3), (0, 2), (0, 1),
           (7, 0), (6, 0), (5, 0), (4, 0), (3, 0), (2, 0), (1, 0)]
QUEEN_YX = BISHOP_YX + ROOK_YX
KING_YX = [(1, 1), (7, 7), (1, 7), (7, 1), (0, 7), (0, 1), (7, 0), (1, 0)]
EXTRA_YX = QUEEN_YX + KNIGHT_YX          # pieces 16 and 17
PAWN_W = [(1, 0), (1, 7), (1, 1), (2, 0)]
PAWN_B = [(7, 0), (7, 7), (7, 1), (6, 0)]

GAME_TYPES = list(range(1, 31))


class WriteError(Exception):
    """The game cannot be written in this format (e.g. too many promoted pieces)."""


class Node:
    """One move of a line: move (from, to, promo or 0; None for a null move), the comments
    and symbols around it, and the variations that replace it (lists of Node)."""

    def __init__(self, frm, to, promo=0, null=False):
        self.frm, self.to, self.promo, self.null = frm, to, promo, null
        self.before = []      # texts (bytes, CP1251) before the move
        self.after = []       # texts after the move
        self.nags = []        # symbols after the move (NAG numbers)
        self.evals = []       # (centipawns, cap) computer evaluations after the move
        self.variations = []  # lists of Node: alternatives to this move


class Board:
    """Just enough of a board to know which numbered piece stands where."""

    def __init__(self):
        self.sq = {}          # square -> (colour, number, type)
        self.stm = 0
        self.origin = {}      # (colour, number) -> pawn number it was promoted from
        self.ext = {}         # (colour, pawn number) -> square of an untracked promoted piece

    def copy(self):
        b = Board()
        b.sq = dict(self.sq)
        b.stm = self.stm
        b.origin = dict(self.origin)
        b.ext = dict(self.ext)
        return b

    @staticmethod
    def start():
        b = Board()
        back = [(12, ROOK), (8, KNIGHT), (10, BISHOP), (14, QUEEN), (15, KING), (11, BISHOP),
                (9, KNIGHT), (13, ROOK)]
        for f in range(8):
            b.sq[8 + f] = (0, f, PAWN)
            b.sq[48 + f] = (1, f, PAWN)
            b.sq[f] = (0,) + back[f]
            b.sq[56 + f] = (1,) + back[f]
        return b

    @staticmethod
    def from_fen(fen):
        """Numbers the pieces of a FEN position; also returns (ply, castle mask, ep byte)."""
        parts = fen.split()
        b = Board()
        free = {c: {KNIGHT: [8, 9], BISHOP: [10, 11], ROOK: [12, 13], QUEEN: [14], KING: [15],
                    PAWN: list(range(8))} for c in (0, 1)}
        extra = {0: [16, 17], 1: [16, 17]}
        types = {"p": PAWN, "n": KNIGHT, "b": BISHOP, "r": ROOK, "q": QUEEN, "k": KING}
        rows = parts[0].split("/")
        pieces = []
        for i, row in enumerate(rows):
            r, f = 7 - i, 0
            for ch in row:
                if ch.isdigit():
                    f += int(ch)
                    continue
                pieces.append((r * 8 + f, 0 if ch.isupper() else 1, types[ch.lower()]))
                f += 1
        # Pawns keep their file's number when they can; files in order for the others.
        pieces.sort(key=lambda p: (p[0] % 8, p[0] // 8))
        for sq, c, t in pieces:
            if t == PAWN and (sq % 8) in free[c][PAWN]:
                free[c][PAWN].remove(sq % 8)
                b.sq[sq] = (c, sq % 8, PAWN)
        for sq, c, t in pieces:
            if sq in b.sq:
                continue
            if free[c][t]:
                n = free[c][t].pop(0)
            elif t != PAWN and t != KING and extra[c]:
                n = extra[c].pop(0)
            else:
                raise WriteError("too many pieces to number")
            b.sq[sq] = (c, n, t)
        b.stm = 0 if parts[1] == "w" else 1
        full = int(parts[5]) if len(parts) > 5 else 1
        ply = (full - 1) * 2 + b.stm
        mask = 0
        for ch, bit in (("K", 1), ("Q", 2), ("k", 4), ("q", 8)):
            if ch in parts[2]:
                mask |= bit
        ep = 0
        if parts[3] != "-":
            ep = (int(parts[3][1]) - 1) << 4 | (ord(parts[3][0]) - 97)
        return b, ply, mask, ep


class Base:
    def __init__(self, dir_sign=+1, seed=1, fragment=(16, 200), chains=True):
        self.dir = dir_sign
        self.rng = random.Random(seed)
        self.fragment = fragment
        self.chains = chains
        self.games = []                      # (d00 record, d02 record)
        self.names = {"Players": [], "Events": [], "Places": [], "Sources": []}
        self.index = {k: {} for k in self.names}
        self.player_info = []                # Players.d00 records
        self.comment = b"Test base"
        self.a01_cycle = None                # a table name: its id 1 redirects to itself

    # ---- names -------------------------------------------------------------------------
    def name_id(self, table, name, title=b""):
        key = (name, title)
        if key not in self.index[table]:
            self.index[table][key] = len(self.names[table])
            self.names[table].append(key)
            if table == "Players":
                self.player_info.append(struct.pack("<HI", 2000 + len(self.player_info), 100000 +
                                                    len(self.player_info)) +
                                        struct.pack("<I", 1990 * 416 + 5 * 32 + 17)[:3] +
                                        bytes([1]))
        return self.index[table][key]

    # ---- moves -------------------------------------------------------------------------
    def _delta(self, frm, to):
        y = (to // 8 - frm // 8) % 8
        x = ((to % 8 - frm % 8) * self.dir) % 8
        return y, x

    def _move_codes(self, b, node):
        """The codes of one move on board b (updated)."""
        c = b.stm
        if node.null:
            b.stm ^= 1
            return bytes([211])
        frm, to = node.frm, node.to
        colour, num, typ = b.sq[frm]
        assert colour == c, "move of the wrong side"
        out = bytearray()
        # castling: the king moves two files (the source gives king from -> king to)
        if typ == KING and abs(to % 8 - frm % 8) == 2:
            rook_from, rook_to = (frm + 3, frm + 1) if to > frm else (frm - 4, frm - 1)
            b.sq[to] = b.sq.pop(frm)
            b.sq[rook_to] = b.sq.pop(rook_from)
            b.stm ^= 1
            return bytes([208 if to > frm else 207])
        captured = b.sq.get(to)
        if typ == PAWN and frm % 8 != to % 8 and captured is None:   # en passant
            out.append(210)
            del b.sq[to - 8 if c == 0 else to + 8]
        y, x = self._delta(frm, to)
        if typ == PAWN:
            kind = (PAWN_W if c == 0 else PAWN_B).index((y, x))
            if node.promo:
                # the new piece's number: a free fixed number of its type, else 16, 17,
                # else one past 17 (then it moves by extended codes)
                used = {n for (cc, n, t) in b.sq.values() if cc == c}
                used.discard(num)
                if captured and captured[0] == c:
                    raise WriteError("capture of own piece")
                fixed = [n for n, t in FIXED.items() if t == node.promo and n not in used]
                extra = [n for n in (16, 17) if n not in used]
                new = fixed[0] if fixed else (extra[0] if extra else 31)
                out += bytes([209, num << 2 | kind, node.promo << 5 | new])
                if new == 31:
                    b.ext[(c, num)] = to
                    b.sq[to] = (c, 100 + num, node.promo)
                else:
                    b.sq[to] = (c, new, node.promo)
                    b.origin[(c, new)] = num
                del b.sq[frm]
                self._captured(b, captured)
                b.stm ^= 1
                return bytes(out)
            out.append(num * 4 + kind)
        elif num >= 100:                     # untracked promoted piece: extended code
            out += bytes([212 + (num - 100), y << 4 | x])
        else:
            if num in (8, 9):
                table, base = KNIGHT_YX, 32 + (num - 8) * 8
            elif num in (10, 11):
                table, base = BISHOP_YX, 48 + (num - 10) * 13
            elif num in (12, 13):
                table, base = ROOK_YX, 74 + (num - 12) * 14
            elif num == 14:
                table, base = QUEEN_YX, 102
            elif num == 15:
                table, base = KING_YX, 129
            else:
                table, base = EXTRA_YX, 137 + (num - 16) * 35
            if (y, x) not in table:
                raise WriteError("piece %d cannot move by %r" % (num, (y, x)))
            out.append(base + table.index((y, x)))
        b.sq[to] = b.sq.pop(frm)
        self._captured(b, captured)
        b.stm ^= 1
        return bytes(out)

    @staticmethod
    def _captured(b, captured):
        pass  # the square was simply overwritten; nothing else tracks it

    def _comment(self, ctype, data, long_form=False):
        body = bytes([ctype]) + data
        if len(body) <= 255 and not long_form:
            return bytes([235, len(body)]) + body
        return bytes([236]) + struct.pack("<I", len(body)) + body

    def _line(self, b, line, out):
        for node in line:
            for var in node.variations:
                out.append(231)
                self._line(b.copy(), var, out)
                out.append(232)
            for t in node.before:
                out += self._comment(5, t, self.rng.random() < 0.2)
            out += self._move_codes(b, node)
            for n in node.nags:
                if self.rng.random() < 0.5:
                    out += bytes([234, 2, n])           # symbol comment, length 2
                else:
                    out += self._comment(2, bytes([n]))
            for cp, cap in node.evals:
                out += self._comment(29, struct.pack("<h", cp) + b"\xff\x00" + (b"CAP" if cap else b""))
            for t in node.after:
                out += self._comment(4, t, self.rng.random() < 0.2)

    # ---- games -------------------------------------------------------------------------
    def add_game(self, tags, fen, line, pre=(), outcome=None, game_type=0):
        """tags: dict of bytes (CP1251) for Event, Site, White, Black, Annotator, Source and
        str for Date, Round, Result, WhiteElo, BlackElo, ECO; fen None for the start
        position; pre: texts before the first move (type 5 at the very start)."""
        out = bytearray()
        for t in pre:
            out += self._comment(5, t)
        if fen:
            b, ply, mask, ep = Board.from_fen(fen)
            out.append(230)
            for c in (0, 1):
                arr = [bytes([8, 0])] * 18
                for sq, (cc, n, t) in b.sq.items():
                    if cc == c:
                        arr[n] = bytes([(sq // 8) << 4 | sq % 8, t])
                out += b"".join(arr)
            out += struct.pack("<H", ply) + bytes([mask, ep])
        else:
            b = Board.start()
        if self.rng.random() < 0.1:
            out += bytes([233, self.rng.randrange(256)])
        self._line(b, line, out)
        if len(out) >= 32768:
            raise WriteError("record longer than a two-byte length holds")
        res = {"1/2-1/2": 1, "1-0": 2, "0-1": 3}.get(tags.get("Result"), 4)
        if outcome is not None:
            res = outcome
        d = tags.get("Date", "????.??.??").split(".")
        y = int(d[0]) if d[0].isdigit() else 0
        m = int(d[1]) if len(d) > 1 and d[1].isdigit() else 0
        dd = int(d[2]) if len(d) > 2 and d[2].isdigit() else 0
        rnd = tags.get("Round", "?")
        rnd2 = int(rnd) * 2 if rnd.isdigit() and int(rnd) < 128 else 0
        eco = tags.get("ECO", "")
        eco_n = (ord(eco[0]) - 65) * 100 + int(eco[1:3]) if len(eco) >= 3 and eco[0] in "ABCDE" and eco[1:3].isdigit() else 0
        none = 0xFFFFFF
        ann = self.name_id("Players", tags["Annotator"]) if tags.get("Annotator") else none
        src = self.name_id("Sources", tags["Source"]) if tags.get("Source") else none
        gid = None  # set in files()
        rec = bytearray()
        rec += struct.pack("<I", self.name_id("Players", tags["White"], tags.get("WhiteTitle", b"")))[:3]
        rec += struct.pack("<I", self.name_id("Players", tags["Black"], tags.get("BlackTitle", b"")))[:3]
        rec += struct.pack("<HH", int(tags.get("WhiteElo") or 0), int(tags.get("BlackElo") or 0))
        rec.append(res)
        rec += struct.pack("<I", y * 32 * 13 + m * 32 + dd)[:3]
        rec += struct.pack("<I", self.name_id("Events", tags["Event"]))[:3]
        rec += struct.pack("<I", self.name_id("Places", tags["Site"]))[:3]
        rec += struct.pack("<I", game_type)
        rec += b"\0\0\0\0"          # GameID, filled in by files()
        rec.append(self.rng.randrange(256))   # the unknown byte
        rec.append(rnd2)
        rec += struct.pack("<H", eco_n)
        rec += struct.pack("<I", ann)[:3]
        rec += struct.pack("<I", src)[:3]
        assert len(rec) == 38
        self.games.append([rec, bytes(out)])

    # ---- files -------------------------------------------------------------------------
    def _d02_record(self, codes):
        n = len(codes)
        if n < 128:
            return bytes([n]) + codes
        return bytes([128 | (n & 127), n >> 7]) + codes

    def files(self, name, cdp_count=None):
        rng = self.rng
        # game ids: spread out, some reached through a chain of redirections
        n = len(self.games)
        size = 2 * n + 8
        a02 = [0] * size
        ids = rng.sample(range(size), n)
        free = [i for i in range(size) if i not in set(ids)]
        d02 = bytearray(b"\x00" * rng.randrange(1, 9))      # records do not start at 0
        order = list(range(n))
        rng.shuffle(order)
        addr = {}
        for i in order:
            addr[i] = len(d02)
            d02 += self._d02_record(self.games[i][1])
            d02 += bytes(rng.randrange(256) for _ in range(rng.randrange(0, 4)))  # junk
        for i in range(n):
            gid = ids[i]
            struct.pack_into("<I", self.games[i][0], 24, gid)
            if self.chains and free and rng.random() < 0.3:
                # gid -> other -> address
                other = free.pop()
                a02[gid] = -other
                a02[other] = addr[i]
            else:
                a02[gid] = addr[i]
        a02b = b"".join(struct.pack("<i", v) for v in a02)
        d00 = b"".join(bytes(g[0]) for g in self.games)
        cdp = bytearray(112)
        cdp[0:29] = b"Chess Assistant 3.0 database."
        ver = b"\nChess Data Pro format. Version 1.3"
        cdp[50:50 + len(ver)] = ver
        struct.pack_into("<II", cdp, 104, n if cdp_count is None else cdp_count, len(self.comment))
        cdp += self.comment
        return {name + ".cdp": bytes(cdp), name + ".emb": self.emb(),
                name + ".d00": d00, name + ".a02": a02b, name + ".d02": bytes(d02)}

    def _table_files(self, table):
        """a01, d01 (records with unused bytes between them; some a01 entries redirect)."""
        rng = self.rng
        d01 = bytearray(b"\xcc" * rng.randrange(0, 5))
        a01 = []
        for nm, title in self.names[table]:
            a01.append(len(d01))
            if table == "Players":
                d01 += bytes([len(nm), len(title)]) + nm + title
            else:
                d01 += bytes([len(nm)]) + nm
            d01 += b"\xcc" * rng.randrange(0, 3)
        # redirections: a01 grows by entries the real ones point through
        if self.chains:
            for i in range(len(a01)):
                if rng.random() < 0.3:
                    a01.append(a01[i])
                    a01[i] = -(len(a01) - 1)
        if table == self.a01_cycle and len(a01) > 1:
            a01[1] = -1                       # hostile: a redirection to itself
        return b"".join(struct.pack("<i", v) for v in a01), bytes(d01)

    def emb(self):
        rng = self.rng
        contents = {}
        for table in ("Players", "Events", "Places", "Sources"):
            a01, d01 = self._table_files(table)
            count = len(self.names[table])
            contents[table + ".cdp"] = bytes(16)
            contents[table + ".iii"] = b"".join(struct.pack("<I", i) for i in range(count))
            contents[table + ".axx"] = bytes((count + 7) // 8)
            contents[table + ".dxx"] = bytes((count + 7) // 8)
            contents[table + ".d00"] = b"".join(self.player_info) if table == "Players" else b""
            contents[table + ".a01"] = a01
            contents[table + ".d01"] = d01
        contents["Unknown.bin"] = b"ignored by readers"
        names = list(contents)
        rng.shuffle(names)                       # read by name, not by position
        # blobs: every fragment of every file, every fragment table, the directory's
        lo, hi = self.fragment
        blobs = []                               # [key, data or None, size]
        plan = {}                                # file -> list of fragment blob indexes

        def split(key, data):
            frags, i = [], 0
            while i < len(data):
                k = rng.randint(lo, hi)
                frags.append(len(blobs))
                blobs.append([("frag", key, len(frags)), data[i:i + k], len(data[i:i + k])])
                i += k
            if rng.random() < 0.2:               # a zero-length fragment in the chain
                frags.insert(rng.randrange(len(frags) + 1), len(blobs))
                blobs.append([("frag", key, -1), b"", 0])
            plan[key] = frags
            table = len(blobs)
            blobs.append([("table", key), None, 8 * len(frags)])
            return table

        tables = {k: split(k, contents[k]) for k in names}
        directory_size = 256 * len(names)
        dir_frags_key = "<root>"
        # the directory's content depends on the tables' offsets: split by size only
        dir_placeholder = bytes(directory_size)
        dir_table = split(dir_frags_key, dir_placeholder)
        order = list(range(len(blobs)))
        rng.shuffle(order)
        off = 144
        where = {}
        for i in order:
            off += rng.randrange(0, 6)           # unused bytes between blobs
            where[i] = off
            off += blobs[i][2]
        emb = bytearray(rng.randrange(256) for _ in range(off + 3))
        emb[0:144] = bytes(144)
        sig = b"Chess Assistant 3.0 database."
        emb[0:len(sig)] = sig
        ver = b"\nData Pro Volume format. Version 1.1"
        emb[64:64 + len(ver)] = ver
        directory = bytearray()
        for k in names:
            e = bytearray(256)
            struct.pack_into("<IIII", e, 0, 0, 2, len(contents[k]), where[tables[k]])
            nm = k.encode()
            e[28:28 + len(nm)] = nm
            directory += e
        # fill in the directory's fragments, then every blob
        pos = 0
        for fi in plan[dir_frags_key]:
            n = blobs[fi][2]
            blobs[fi][1] = bytes(directory[pos:pos + n])
            pos += n
        for i, (key, data, n) in enumerate(blobs):
            if key[0] == "table":
                data = b"".join(struct.pack("<II", blobs[fi][2], where[fi]) for fi in plan[key[1]])
            emb[where[i]:where[i] + n] = data
        struct.pack_into("<II", emb, 136, directory_size, where[dir_table])
        return bytes(emb)


# ---- games real bases rarely hold, for the tests and the fixtures ------------------------

def _cp(text):
    return text.encode("cp1251", errors="replace")


def sq(name):
    return (ord(name[0]) - 97) + 8 * (int(name[1]) - 1)


def line_of(moves):
    """Nodes from "e2e4 e7e5 ..." (from-to, optional promotion letter; "--" null)."""
    out = []
    for m in moves.split():
        if m == "--":
            out.append(Node(None, None, null=True))
        else:
            promo = {"n": 2, "b": 3, "r": 4, "q": 5}.get(m[4:5], 0)
            out.append(Node(sq(m[0:2]), sq(m[2:4]), promo))
    return out


HANDMADE = [
    # en passant both ways, a null move, castling both sides
    (None, "e2e4 g8f6 e4e5 d7d5 e5d6 e7d6 g1f3 f8e7 f1e2 e8g8 e1g1 b8c6 -- c8e6 d2d4 h7h5 "
           "b1c3 h5h4 g2g4 h4g3 h2g3 d8d7 c1e3 a8d8 d1d2"),
    # promotions to all four pieces on both sides, then the promoted pieces move
    ("8/PPPP3k/8/8/8/K7/4pppp/8 w - - 0 1",
     "a7a8q e2e1r b7b8r f2f1b c7c8b g2g1n d7d8n h2h1q b8b1 e1e7 d8f7 e7f7 c8f5 h7h6"),
    # a third and a fourth queen: numbers 16 and 17, then one past them (extended moves)
    ("8/PPPP4/8/7k/8/K7/8/8 w - - 0 1",
     "a7a8q h5h6 b7b8q h6h5 c7c8q h5h6 d7d8q h6h5 d8d5 h5h4 d5d4 h4h5 c8c2 h5h6 b8b1 h6h5 a8a6"),
    # castling rights in the setup: each mask
    ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1c1 e8g8"),
    ("r3k2r/8/8/8/8/8/8/R3K2R w Kq - 0 1", "e1g1 e8c8"),
    ("r3k2r/8/8/8/8/8/8/R3K2R b Qk - 3 20", "e8g8 e1c1"),
    ("r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1", "a1a2 h8h7"),
    # an en-passant square in the setup, black to move
    ("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 40", "d4e3 e1e2"),
]


def handmade_games(russian):
    out = []
    for i, (fen, moves) in enumerate(HANDMADE):
        line = line_of(moves)
        line[0].after.append(_cp("Комментарий к ходу %d" % i))
        line[-1].before.append(_cp("Перед последним ходом"))
        line[0].evals.append((37 - 100 * i, i % 2 == 1))
        if len(line) > 3:
            line[1].variations.append(line_of(moves)[1:2])
        tags = {"Event": _cp("Тест"), "Site": _cp("Москва"), "Date": "1985.11.%02d" % (i + 1),
                "Round": str(i + 1), "White": _cp(russian[i % 5][0]), "Black": b"Smith, J",
                "Result": "*", "WhiteTitle": _cp(russian[i % 5][1])}
        out.append((tags, fen, line, []))
    return out


