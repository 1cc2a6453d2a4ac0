#!/usr/bin/env python3
"""Writes the XQF fixtures of testdata/xqf (and seeds for fuzz/xqf/corpus).

Usage: tests/make-xqf-fixtures.py [SRCDIR]   (SRCDIR defaults to this script's parent)

The files are made here, from the game trees in FIXTURES, by a small XQF writer that follows
doc/formats/xqf.md (our own reading of the format): a 1024-byte header, then the move tree in
pre-order. Versions 11 and later are encrypted with the key bytes given per fixture; version
12 and later also rotate the piece table. Nothing here comes from XQStudio or any other
program, and nothing is produced by libgamedb: tests/test-xqf.py imports this module and
checks the library's reading of each file against the hand-written ``expect`` of its entry.

A tree node is (move, comment, children[, options]): move is ICCS ("h2e2") or a pair of raw
XQF square bytes (for squares off the board), comment is a str or None, children[0] is the
next move and children[1:] are alternatives to it. The root's move is None. Options make
hostile files: "child"/"sib" force a flag whose record never comes, "clen" stores a wrong
comment length.

``expect`` is the move stream the library must give, in the compact form test-xqf.py
renders: moves in ICCS, {comment}, ( variation ). ``status`` is "ok", "warn" or "failed"
(the moves of a failed game are the part its partial iterator gives).
"""
import os
import struct
import sys

COPYRIGHT = b"[(C) Copyright Mr. Dong Shiwei.]"
SLOTS = "RNBAKABNRCCPPPPP"  # the piece table's 16 slots per side

STANDARD = {
    "a0": "R", "b0": "N", "c0": "B", "d0": "A", "e0": "K", "f0": "A", "g0": "B", "h0": "N",
    "i0": "R", "b2": "C", "h2": "C", "a3": "P", "c3": "P", "e3": "P", "g3": "P", "i3": "P",
    "a9": "r", "b9": "n", "c9": "b", "d9": "a", "e9": "k", "f9": "a", "g9": "b", "h9": "n",
    "i9": "r", "b7": "c", "h7": "c", "a6": "p", "c6": "p", "e6": "p", "g6": "p", "i6": "p",
}

# Key bytes 3..15 of the encrypted fixtures (any values; 12..15 sum to 0 mod 256, which is
# XQStudio's own check).
KEYS_A = dict(mask=0xEB, product=0x1234ABCD, keyor=(0x11, 0x22, 0x44, 0x88),
              keysum=0x5A, keyxy=0x3C, keyxyf=0x91, keyxyt=(-(0x5A + 0x3C + 0x91)) & 0xFF)
KEYS_B = dict(mask=0xFF, product=0, keyor=(0, 0, 0, 0),
              keysum=0xC7, keyxy=0x02, keyxyf=0x7E, keyxyt=(-(0xC7 + 0x02 + 0x7E)) & 0xFF)

ENDGAME = {"f0": "K", "h8": "R", "d7": "P", "e9": "k", "d9": "a", "f9": "a", "a1": "r"}

FIXTURES = [
    dict(name="plain-v10.xqf", version=0x0A, keys=None, start=None, result=2, gametype=0,
         header=dict(title="测试对局：中炮", event="libgamedb 测试赛", date="1997年11月16日",
                     site="北京", red="红方甲", black="黑方乙", rule="40分钟包干",
                     redtime="25分", blacktime="38分", commentator="讲评人",
                     author="libgamedb"),
         tree=(None, "全局注解\r\n", [
             ("h2e2", "中炮", [
                 ("h9g7", None, [("h0g2", None, [("i9h9", "黑出车\r\n\r\n", [])])]),
                 ("b9c7", None, [("b0c2", None, [])])]),
             ("b2e2", "左中炮", [("b9c7", None, [])])]),
         status="ok",
         expect="{全局注解} h2e2 {中炮} ( b2e2 {左中炮} b9c7 ) h9g7 ( b9c7 b0c2 ) h0g2 "
                "i9h9 {黑出车}",
         tags={"Event": "libgamedb 测试赛", "Site": "北京", "Date": "1997.11.16",
               "Round": "?", "White": "红方甲", "Black": "黑方乙", "Result": "0-1",
               "Variant": "xiangqi", "Title": "测试对局：中炮", "TimeControl": "40分钟包干",
               "RedTime": "25分", "BlackTime": "38分", "Annotator": "讲评人",
               "Author": "libgamedb", "GameType": "full"}),
    dict(name="enc-v12.xqf", version=0x12, keys=KEYS_A, start=None, result=3, gametype=1,
         header=dict(title="仙人指路", date="1999.1.12", red="红", black="黑"),
         tree=(None, "开局前的注解", [
             ("c3c4", "仙人指路", [
                 ("c6c5", None, [("b2c2", "一段较长的注解。" * 40, [("h9g7", None, [])])])]),
             ("h2e2", None, [
                 ("h9g7", None, [("h0g2", None, [])]),
                 ("h7e7", "顺炮", [("h0g2", None, [])])]),
             ("b2e2", "过宫炮", [("b9c7", None, [])])]),
         status="ok",
         expect="{开局前的注解} c3c4 {仙人指路} ( h2e2 h9g7 ( h7e7 {顺炮} h0g2 ) h0g2 ) "
                "( b2e2 {过宫炮} b9c7 ) c6c5 b2c2 {" + "一段较长的注解。" * 40 + "} h9g7",
         tags={"Event": "仙人指路", "Site": "?", "Date": "1999.01.12", "White": "红",
               "Black": "黑", "Result": "1/2-1/2", "Title": "仙人指路",
               "GameType": "opening"}),
    dict(name="enc-v11-endgame.xqf", version=0x0B, keys=KEYS_B, start=ENDGAME, whoplay=1,
         result=2, gametype=3,
         header=dict(title="残局：车兵对车双士", date="2014年"),
         tree=(None, None, [
             ("a1a0", "照将", [("f0f1", None, [("a0a1", None, [("f1f2", None, [])])])]),
             ("a1f1", None, [("f0f1", "吃车", [])])]),
         status="ok",
         expect="a1a0 {照将} ( a1f1 f0f1 {吃车} ) f0f1 a0a1 f1f2",
         tags={"Event": "残局：车兵对车双士", "Date": "2014.??.??", "Result": "0-1",
               "SetUp": "1", "FEN": "3aka3/7R1/3P5/9/9/9/9/9/r8/5K3 b - - 0 1",
               "GameType": "endgame"}),
    dict(name="illegal-main-v10.xqf", version=0x0A, keys=None, start=None, result=0,
         gametype=0, header=dict(),
         tree=(None, None, [("h2e2", None, [("h9g7", None, [("a0a5", None, [
             ("a9a8", None, [])])])])]),
         status="failed", error="offset 1048: move 2. a0a5",
         expect="h2e2 h9g7"),
    dict(name="illegal-variation-v12.xqf", version=0x12, keys=KEYS_B, start=None, result=0,
         gametype=0, header=dict(),
         tree=(None, None, [("h2e2", None, [
             ("h9g7", None, [("h0g2", None, [])]),
             ("h7e7", None, [("a0a5", "不合法", [("a9a8", None, [])]), ("h0g2", None, [])])])]),
         status="warn", error="move 2. a0a5",
         expect="h2e2 h9g7 ( h7e7 h0g2 ) h0g2"),
    # Hostile: flags that promise records that never come, comment lengths past the end,
    # squares off the board.
    dict(name="hostile-missing-child.xqf", version=0x12, keys=KEYS_A, start=None, result=0,
         gametype=0, header=dict(),
         tree=(None, None, [("h2e2", None, [("h9g7", None, [], {"child": 1})])]),
         status="failed", error="next move promised by the record at offset 1032",
         expect="h2e2 h9g7"),
    dict(name="hostile-missing-sibling.xqf", version=0x0A, keys=None, start=None, result=0,
         gametype=0, header=dict(),
         tree=(None, None, [("h2e2", None, [("h9g7", None, [])]),
                            ("b2e2", None, [], {"sib": 1})]),
         status="warn", error="alternative move promised",
         expect="h2e2 ( b2e2 ) h9g7"),
    dict(name="hostile-comment-length.xqf", version=0x12, keys=KEYS_B, start=None, result=0,
         gametype=0, header=dict(),
         tree=(None, None, [("h2e2", None, [("h9g7", None, [])]),
                            ("b2e2", None, []),
                            ("c3c4", "长度不对", [], {"clen": 0x7FFFFF00})]),
         status="warn", error="comment length larger than the rest of the file",
         expect="h2e2 ( b2e2 ) h9g7"),
    dict(name="hostile-comment-length-main.xqf", version=0x0A, keys=None, start=None,
         result=0, gametype=0, header=dict(),
         tree=(None, None, [("h2e2", None, [("h9g7", "x", [("h0g2", None, [])],
                                             {"clen": 5000})])]),
         status="failed", error="comment length larger than the rest of the file",
         expect="h2e2"),
    dict(name="hostile-square-range.xqf", version=0x0B, keys=KEYS_A, start=None, result=0,
         gametype=0, header=dict(),
         tree=(None, None, [("h2e2", None, [("h9g7", None, [])]),
                            ((95, 4), None, [("h9g7", None, [])]),
                            ("b2e2", None, [])]),
         status="warn", error="a square outside the board",
         expect="h2e2 ( b2e2 ) h9g7"),
    dict(name="hostile-shared-square.xqf", version=0x0A, keys=None, start=None,
         table={16: "e0"}, result=0, gametype=0, header=dict(),
         tree=(None, None, [("h2e2", None, [])]),
         status="failed", error="two pieces on one square", expect="",
         tags={"FEN": "1nbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"}),
    dict(name="hostile-no-general.xqf", version=0x0C, keys=KEYS_B,
         start={"e0": "K", "a0": "R", "a9": "r"}, result=0, gametype=3,
         header=dict(title="没有黑将"),
         tree=(None, None, [("a0a9", None, [])]),
         status="failed", error="the piece table is not a playable position",
         expect="",
         tags={"Event": "没有黑将", "FEN": "r8/9/9/9/9/9/9/9/9/R3K4 w - - 0 1"}),
]


def square(s):
    """ICCS "h2" -> XQF byte x * 10 + y."""
    return "abcdefghi".index(s[0]) * 10 + int(s[1])


def key_poly(x):
    return (54 * x * x + 221) & 0xFF


def derive(keys):
    """(key_xy, key_from, key_to, key_rmk, F[32]) for a key dict (None: plain file)."""
    if keys is None:
        return 0, 0, 0, 0, [0] * 32
    kxy = (key_poly(keys["keyxy"]) * keys["keyxy"]) & 0xFF
    kf = (key_poly(keys["keyxyf"]) * kxy) & 0xFF
    kt = (key_poly(keys["keyxyt"]) * kf) & 0xFF
    rmk = (keys["keysum"] * 256 + keys["keyxy"]) % 32000 + 767
    k = [(keys[n] & keys["mask"]) | keys["keyor"][i]
         for i, n in enumerate(("keysum", "keyxy", "keyxyf", "keyxyt"))]
    return kxy, kf, kt, rmk, [COPYRIGHT[i] & k[i % 4] for i in range(32)]


def piece_table(start):
    """The 32 slots (0xFF = absent) for a board given as {square: letter}."""
    table = [0xFF] * 32
    for sq, letter in sorted(start.items()):
        side = 0 if letter.isupper() else 1
        for i, kind in enumerate(SLOTS):
            if kind == letter.upper() and table[side * 16 + i] == 0xFF:
                table[side * 16 + i] = square(sq)
                break
        else:
            raise ValueError("too many %s" % letter)
    return table


def pascal(text, cap):
    raw = text.encode("gb18030") if text else b""
    if len(raw) > cap:
        raise ValueError("%r is longer than its %d-byte field" % (text, cap))
    return bytes([len(raw)]) + raw + b"\0" * (cap - len(raw))


def header(fx):
    h = bytearray(1024)
    h[0:2] = b"XQ"
    h[2] = fx["version"]
    keys = fx["keys"]
    kxy = derive(keys)[0]
    if keys:
        h[3] = keys["mask"]
        h[4:8] = struct.pack("<I", keys["product"])
        h[8:12] = bytes(keys["keyor"])
        h[12:16] = bytes([keys["keysum"], keys["keyxy"], keys["keyxyf"], keys["keyxyt"]])
    table = piece_table(fx["start"] or STANDARD)
    for slot, sq in fx.get("table", {}).items():  # hostile: put a slot anywhere
        table[slot] = square(sq)
    stored = [0] * 32
    for i in range(32):
        # version 12+: stored[i] holds slot (key_xy + 1 + i) mod 32; 11+: plus key_xy
        slot = (kxy + 1 + i) % 32 if fx["version"] >= 12 else i
        stored[i] = (table[slot] + kxy) & 0xFF
    h[16:48] = bytes(stored)
    h[50] = fx.get("whoplay", 0)
    h[51] = fx["result"]
    h[64] = fx["gametype"]
    t = fx["header"]
    for off, cap, key in ((80, 63, "title"), (208, 63, "event"), (272, 15, "date"),
                          (288, 15, "site"), (304, 15, "red"), (320, 15, "black"),
                          (336, 63, "rule"), (400, 15, "redtime"), (416, 15, "blacktime"),
                          (464, 15, "commentator"), (480, 15, "author")):
        h[off:off + 1 + cap] = pascal(t.get(key), cap)
    return bytes(h)


def record(fx, move, comment, has_child, has_sib, opts, root=False):
    _, kf, kt, rmk, _ = derive(fx["keys"])
    v = fx["version"]
    if move is None:
        frm, to = 0, 0
    elif isinstance(move, tuple):
        frm, to = move
    else:
        frm, to = square(move[:2]), square(move[2:])
    has_child = has_child or opts.get("child")
    has_sib = has_sib or opts.get("sib")
    text = comment.encode("gb18030") if comment else b""
    clen = opts.get("clen", len(text))
    if v <= 10:
        flags = (0xF0 if has_child else 0) | (0x0F if has_sib else 0)
        out = bytes([(frm + 0x18) & 0xFF, (to + 0x20) & 0xFF, flags, 0xFF if root else 0])
        return out + struct.pack("<I", clen) + text
    flags = (0x80 if has_child else 0) | (0x40 if has_sib else 0) | (0x20 if text else 0)
    # the fourth byte means nothing; give it something other than 0
    out = bytes([(frm + 0x18 + kf) & 0xFF, (to + 0x20 + kt) & 0xFF, flags, 0x5A])
    if text:
        out += struct.pack("<I", (clen + rmk) & 0xFFFFFFFF) + text
    return out


def body(fx):
    """The move records in pre-order (a node, its children's subtrees, then its siblings)."""
    root = fx["tree"]
    out = [record(fx, None, root[1], bool(root[2]), False, {}, root=True)]
    stack = [(root[2], 0)]
    while stack:
        nodes, i = stack.pop()
        if i >= len(nodes):
            continue
        node = nodes[i]
        move, comment, children = node[0], node[1], node[2]
        opts = node[3] if len(node) > 3 else {}
        out.append(record(fx, move, comment, bool(children), i + 1 < len(nodes), opts))
        stack.append((nodes, i + 1))   # the siblings come after the child's subtree
        stack.append((children, 0))
    data = b"".join(out)
    f32 = derive(fx["keys"])[4]
    return bytes((b + f32[(0x400 + i) % 32]) & 0xFF for i, b in enumerate(data))


def build(fx):
    return header(fx) + body(fx)


def main():
    src = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
    out_dir = os.path.join(src, "testdata", "xqf")
    corpus = os.path.join(src, "fuzz", "xqf", "corpus")
    os.makedirs(out_dir, exist_ok=True)
    os.makedirs(corpus, exist_ok=True)
    for fx in FIXTURES:
        data = build(fx)
        with open(os.path.join(out_dir, fx["name"]), "wb") as f:
            f.write(data)
        with open(os.path.join(corpus, "seed-" + fx["name"][:-4]), "wb") as f:
            f.write(data)
        print("%s: %d bytes" % (fx["name"], len(data)))


if __name__ == "__main__":
    main()
