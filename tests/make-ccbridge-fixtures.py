#!/usr/bin/env python3
"""Writes the CCBridge test files of testdata/ccbridge from the format's facts
(doc/formats/ccbridge.md), not from the reader under test:

  fixtures.cbl  a library built for 128 slots: a one-slot game with a variation and comments, a
                record that spans two slots, a section heading (no moves, empty board), a record
                that spans three slots, a deleted entry, a set-up position with Black to move;
                the bytes after each record's used length are filled with 0xCD, as the index
                length (not the slot) says where a record ends;
  single.cbr    the first game of the library as a record file.

With a second argument (fuzz/ccbridge/corpus), it writes the fuzz seeds there too (seeds()).

FIXTURES (below) says what each game holds: tags, start FEN, the complete lines (main line, then
one per variation leaf, in ICCS), the comments, and whether it is deleted; tests/test-ccbridge.py
compares the library's answers with it. Run: tests/make-ccbridge-fixtures.py testdata/ccbridge fuzz/ccbridge/corpus
"""
import os
import struct
import sys
import uuid

STD = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR"
PIECE = {"R": 1, "N": 2, "B": 3, "A": 4, "K": 5, "C": 6, "P": 7}


def text(s, width):
    """UTF-16LE text NUL-padded to width bytes (a NUL letter always fits)."""
    b = s.encode("utf-16-le")
    assert len(b) + 2 <= width, s
    return b + b"\0" * (width - len(b))


def board_bytes(fen_board):
    """The 90 board bytes: index 0 is a9 (Black's back rank, from Red's left); 0x1n Red, 0x2n Black."""
    out = bytearray(90)
    for r, row in enumerate(fen_board.split("/")):
        x = 0
        for ch in row:
            if ch.isdigit():
                x += int(ch)
                continue
            out[r * 9 + x] = (0x10 if ch.isupper() else 0x20) | PIECE[ch.upper()]
            x += 1
    return bytes(out)


def sq(name):
    """ICCS square ("h2") as a board index."""
    return (9 - int(name[1])) * 9 + "abcdefghi".index(name[0])


class Move:
    def __init__(self, iccs, comment="", alts=()):
        self.iccs, self.comment, self.alts = iccs, comment, list(alts)


def comment_bytes(c):
    b = c.encode("utf-16-le")
    return struct.pack("<I", len(b)) + b


def stream(root_comment, line):
    """The move stream: the root record, then the tree in pre-order (a move, its continuation,
    then its alternatives; flags 0x01 line ends, 0x02 an alternative follows, 0x04 comment)."""
    out = bytearray([(0 if line else 1) | (4 if root_comment else 0), 0, 0, 0])
    if root_comment:
        out += comment_bytes(root_comment)

    def chain(ln, k):
        links = [(ln, k)] + [(alt, 0) for alt in ln[k].alts]
        for i, (l, j) in enumerate(links):
            m = l[j]
            flags = (1 if j == len(l) - 1 else 0) | (2 if i < len(links) - 1 else 0) | \
                (4 if m.comment else 0)
            out.extend([flags, 0, sq(m.iccs[:2]), sq(m.iccs[2:])])
            if m.comment:
                out.extend(comment_bytes(m.comment))
            if j < len(l) - 1:
                chain(l, j + 1)

    if line:
        chain(line, 0)
    return bytes(out)


def lines_of(line, prefix=()):
    """The complete lines: the main line, then one per variation leaf (none without moves)."""
    if not line and not prefix:
        return []
    out = [list(prefix) + [m.iccs for m in line]]
    for k, m in enumerate(line):
        for alt in m.alts:
            out.extend(lines_of(alt, tuple(prefix) + tuple(x.iccs for x in line[:k])))
    return out


def comments_of(root_comment, line):
    out = [root_comment] if root_comment else []

    def walk(ln):
        for m in ln:
            if m.comment:
                out.append(m.comment)
            for alt in m.alts:
                walk(alt)

    walk(line)
    return out


def record(g):
    h = bytearray(2214)
    h[0:16] = b"CCBridge Record\0"
    h[19] = 2
    h[20:36] = g["guid"].bytes_le
    for off, width, key in ((180, 128, "title"), (692, 64, "event"), (756, 64, "round"),
                            (884, 64, "date"), (948, 64, "site"), (1076, 64, "red"),
                            (1140, 64, "red_team"), (1300, 64, "black"),
                            (1364, 64, "black_team")):
        h[off:off + width] = text(g.get(key, ""), width)
    h[2076] = g["result"]
    h[2112] = g.get("first", 1)
    struct.pack_into("<H", h, 2116, 1)
    h[2120:2210] = board_bytes(g["board"]) if g["board"] else bytes(90)
    h[2210:2214] = b"\xff\xff\xff\xff"
    return bytes(h) + stream(g.get("root_comment", ""), g["line"])


def shuffle(n, note):
    """n legal moves of the horses going out and back, each with a long comment."""
    cycle = ["h0g2", "h9g7", "g2h0", "g7h9"]
    return [Move(cycle[k % 4], "%s %d: %s" % (note, k + 1, "象棋桥长注释。" * 28)) for k in range(n)]


def games():
    g0 = [Move("h2e2", "中炮"), Move("h9g7", "", [[Move("b9c7", "另一种应法"), Move("b0c2")]]),
          Move("h0g2"), Move("i9h9", "", [[Move("b7e7"), Move("b0c2", "两变")],
                                          [Move("c6c5")]])]
    return [
        {"title": "one slot", "event": "Fixture Cup 测试杯", "round": "1", "date": "2024年5月6日",
         "site": "北京", "red": "红方甲", "black": "黑方乙", "red_team": "上海",
         "black_team": "江苏", "result": 1, "board": STD, "root_comment": "开局前的注释",
         "line": g0, "tags": {"Date": "2024.05.06", "Result": "1-0"}},
        {"title": "two slots", "event": "Fixture Cup 测试杯", "red": "R2", "black": "B2",
         "result": 3, "board": STD, "line": shuffle(13, "two"), "slots": 2,
         "tags": {"Result": "1/2-1/2"}},
        {"title": "Section heading 分组", "result": 0, "board": None,
         "root_comment": "A heading: no moves, an empty board.", "line": [], "tags": {}},
        {"title": "three slots", "event": "Fixture Cup 测试杯", "red": "R3", "black": "B3",
         "result": 2, "board": STD, "line": shuffle(23, "three"), "slots": 3,
         "tags": {"Result": "0-1"}},
        {"title": "deleted game", "result": 0, "board": STD, "line": [Move("b2e2")],
         "deleted": True, "tags": {}},
        {"title": "set-up, Black first", "result": 0, "board": "9/4k4/9/9/9/9/9/9/9/R2K5",
         "first": 2, "line": [Move("e8e9"), Move("a0a1")],
         "fen": "9/4k4/9/9/9/9/9/9/9/R2K5 b - - 0 1", "tags": {}},
    ]


FIXTURES = games()
for _k, _g in enumerate(FIXTURES):
    _g["guid"] = uuid.UUID(int=0x1234_5678_9ABC_4DEF_8123_456789AB0000 + _k)
    _g["lines"] = lines_of(_g["line"])
    _g["comments"] = comments_of(_g.get("root_comment", ""), _g["line"])
    _g.setdefault("fen", STD + " w - - 0 1")


def library(fixtures, cap=128):
    h = bytearray(66624 + 276 * cap)
    h[0:16] = b"CCBridgeLibrary\0"
    struct.pack_into("<I", h, 16, 3)
    h[52:56] = b"\xff\xff\xff\x7f"
    h[56] = 1 if any(g.get("deleted") for g in fixtures) else 0
    struct.pack_into("<I", h, 60, cap)
    h[64:576] = text("测试棋库 fixtures", 512)
    h[576:832] = text("tests/make-ccbridge-fixtures.py", 256)
    h[832:896] = text("libgamedb", 64)
    body = bytearray()
    for k, g in enumerate(fixtures):
        rec = record(g)
        nslots = (len(rec) + 4095) // 4096
        assert nslots == g.get("slots", 1), (g["title"], len(rec), nslots)
        e = 66624 + 276 * k
        struct.pack_into("<5I", h, e, 5 if g.get("deleted") else 7, k, nslots, len(rec), 0)
        h[e + 20:e + 100] = text("{%s}" % str(g["guid"]).upper(), 80)
        h[e + 100:e + 228] = text(g["title"], 128)
        body += rec + b"\xcd" * (nslots * 4096 - len(rec))
    return bytes(h) + bytes(body)


def seeds():
    """{name: bytes} for fuzz/ccbridge/corpus: small files (a library built for 2 slots)."""
    lib = library([FIXTURES[0], FIXTURES[1]], cap=2)
    heading = library([FIXTURES[2], FIXTURES[4], FIXTURES[5]], cap=3)
    out = {"seed-record": record(FIXTURES[0]), "seed-setup-record": record(FIXTURES[5]),
           "seed-library-two-slots": lib, "seed-library-heading-deleted": heading}
    # A record whose every move promises a continuation and an alternative past its end.
    out["seed-hostile-promises"] = record(FIXTURES[4])[:2214] + bytes([0, 0, 0, 0]) + \
        bytes([2, 0, sq("h2"), sq("e2"), 2, 0, sq("h9"), sq("g7")]) * 8
    # A title with no NUL letter, an unpaired surrogate in the root comment.
    b = bytearray(record(FIXTURES[0]))
    b[180:308] = "题".encode("utf-16-le") * 64
    b[2222:2224] = b"\x00\xd8"
    out["seed-hostile-text"] = bytes(b)
    return out


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "testdata/ccbridge"
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "fixtures.cbl"), "wb") as f:
        f.write(library(FIXTURES))
    with open(os.path.join(out, "single.cbr"), "wb") as f:
        f.write(record(FIXTURES[0]))
    if len(sys.argv) > 2:
        os.makedirs(sys.argv[2], exist_ok=True)
        for name, data in seeds().items():
            with open(os.path.join(sys.argv[2], name), "wb") as f:
                f.write(data)


if __name__ == "__main__":
    main()
