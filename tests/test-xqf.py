#!/usr/bin/env python3
"""Tests of the XQF reader (lib/formats/format-xqf.c), through the Python binding and the
gamedb command.

1. Fixtures (testdata/xqf, written by tests/make-xqf-fixtures.py): the files match the script,
   and the library gives each one's hand-written move stream, tags and status.
2. Real files (GAMEDB_REALDATA/xqf, 263 files listed in GAMEDB_REALDATA/MANIFEST.md):
   - main-line plies, "branch pts" and comment counts against the MANIFEST, whose figures
     come from walker8088/cchess's reader; the files where they differ are listed in KNOWN
     with the reason (each was looked at by hand: see there);
   - titles (valid UTF-8, equal to the MANIFEST's) and start (std/nonstd);
   - the whole move tree against this script's own reading of the bytes (MODEL below: its own
     decryption, tree walk and xiangqi rules), move by move, comment by comment; so every move
     the library gives is checked legal by rules written independently of lib/board;
   - hostile copies: every file truncated at several points and with bytes flipped, through
     `gamedb json` and `gamedb pgn` (run it in a -Db_sanitize=address,undefined build): a
     clean error or a clean partial game, never a crash or a sanitizer report; comment lengths
     made larger than the file and trees cut where their flags promise more records must give
     what MODEL gives.
Exit 77 (skip) when the real files are absent (after the fixture tests passed).
"""
import json
import os
import random
import shutil
import sys
import tempfile
import warnings

import testsupport
from testsupport import check, done, TOOL

SRC = testsupport.SRCDIR
LIB = os.environ.get("GAMEDB_LIBRARY", "")
gamedb = testsupport.import_gamedb()
_ffi = gamedb._ffi

REAL = os.environ.get("GAMEDB_REALDATA", os.path.join(SRC, "..", "shared", "realdata"))
TESTDATA = os.environ.get("GAMEDB_TESTDATA", os.path.join(SRC, "testdata"))
STANDARD_FEN = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"

# ---- MODEL: this test's own reading of XQF (from doc/formats/xqf.md and NOTES, not from the
# library) and its own xiangqi rules ---------------------------------------------------------

def _poly(x):
    return (54 * x * x + 221) & 0xFF


class XqfFile:
    """Decrypts an XQF file and reads its move tree (node: dict with off, fr, to, com, kids)."""

    def __init__(self, data):
        h = data
        self.version = v = h[2]
        if v >= 11:
            kxy = (_poly(h[13]) * h[13]) & 0xFF
            kf = (_poly(h[14]) * kxy) & 0xFF
            kt = (_poly(h[15]) * kf) & 0xFF
            self.rmk = (h[12] * 256 + h[13]) % 32000 + 767
            k = [(h[12 + i] & h[3]) | h[8 + i] for i in range(4)]
            f32 = [b"[(C) Copyright Mr. Dong Shiwei.]"[i] & k[i % 4] for i in range(32)]
        else:
            kxy = kf = kt = self.rmk = 0
            f32 = [0] * 32
        self.kf, self.kt = kf, kt
        table = [0] * 32
        for i in range(32):
            table[(kxy + 1 + i) % 32 if v >= 12 else i] = (h[16 + i] - kxy) & 0xFF
        self.table = table
        self.body = bytes((data[p] - f32[p % 32]) & 0xFF for p in range(1024, len(data)))
        self.problem = None  # (status, offset, text) of the first place the tree is cut
        self.root = self._read_tree()

    def _record(self, p):
        """(node, next index) or (None, reason) for the record at body index p."""
        b = self.body
        if len(b) - p < 4:
            return None, "ends"
        tag = b[p + 2]
        node = {"off": p + 1024, "fr": (b[p] - 0x18 - self.kf) & 0xFF,
                "to": (b[p + 1] - 0x20 - self.kt) & 0xFF, "com": b"", "kids": []}
        if self.version <= 10:
            child, sib, has_com = tag & 0xF0, tag & 0x0F, True
        else:
            child, sib, has_com = tag & 0x80, tag & 0x40, tag & 0x20
        node["child"], node["sib"] = bool(child), bool(sib)
        q = p + 4
        if has_com:
            if len(b) - q < 4:
                return None, "ends"
            clen = int.from_bytes(b[q:q + 4], "little") - self.rmk
            q += 4
            if clen < 0 or clen > len(b) - q:
                return None, "comment length"
            node["com"] = b[q:q + clen]
            q += clen
        return node, q

    def _read_tree(self):
        root, q = self._record(0)
        if root is None:
            self.problem = ("warn", 1024, "no start record")
            return {"off": 1024, "com": b"", "kids": [], "main": True}
        root["main"] = True
        todo = [(root, True)] if root["child"] else []   # (parent, next is its first child)
        while todo:
            parent, first = todo.pop()
            node, nq = self._record(q)
            if node is None:
                self.problem = ("failed" if parent["main"] and first else "warn", q + 1024, nq)
                break
            q = nq
            node["main"] = parent["main"] and first
            parent["kids"].append(node)
            if node["sib"]:
                todo.append((parent, False))
            if node["child"]:
                todo.append((node, True))
        return root


KINDS = "RNBAKABNRCCPPPPP"


def is_red(p):
    return p.isupper()


def in_palace(x, y, red):
    return 3 <= x <= 5 and (0 <= y <= 2 if red else 7 <= y <= 9)


def targets(board, sq):
    """Pseudo-legal destinations of the piece on sq ((x, y), y = 0 Red's back rank)."""
    p = board[sq]
    red, kind, (x, y), out = is_red(p), p.upper(), sq, []

    def add(x2, y2):
        if 0 <= x2 <= 8 and 0 <= y2 <= 9:
            q = board.get((x2, y2))
            if q is None or is_red(q) != red:
                out.append((x2, y2))
    if kind == "K":
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            if in_palace(x + dx, y + dy, red):
                add(x + dx, y + dy)
    elif kind == "A":
        for dx, dy in ((1, 1), (-1, 1), (1, -1), (-1, -1)):
            if in_palace(x + dx, y + dy, red):
                add(x + dx, y + dy)
    elif kind == "B":
        for dx, dy in ((2, 2), (-2, 2), (2, -2), (-2, -2)):
            if (y + dy <= 4 if red else y + dy >= 5) and (x + dx // 2, y + dy // 2) not in board:
                add(x + dx, y + dy)
    elif kind == "N":
        for (lx, ly), ends in (((1, 0), ((2, 1), (2, -1))), ((-1, 0), ((-2, 1), (-2, -1))),
                               ((0, 1), ((1, 2), (-1, 2))), ((0, -1), ((1, -2), (-1, -2)))):
            if (x + lx, y + ly) not in board:
                for dx, dy in ends:
                    add(x + dx, y + dy)
    elif kind in "RC":
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            x2, y2, jumped = x + dx, y + dy, False
            while 0 <= x2 <= 8 and 0 <= y2 <= 9:
                q = board.get((x2, y2))
                if not jumped:
                    if q is None:
                        out.append((x2, y2))
                    elif kind == "R":
                        add(x2, y2)
                        break
                    else:
                        jumped = True
                elif q is not None:
                    add(x2, y2)
                    break
                x2, y2 = x2 + dx, y2 + dy
    elif kind == "P":
        ahead = 1 if red else -1
        add(x, y + ahead)
        if (y >= 5) if red else (y <= 4):
            add(x + 1, y)
            add(x - 1, y)
    return out


def general_exposed(board, red):
    """True if red's (or black's) general is attacked or faces the other general."""
    mine = "K" if red else "k"
    k = next((s for s, p in board.items() if p == mine), None)
    if k is None:
        return True
    other = next((s for s, p in board.items() if p == ("k" if red else "K")), None)
    if other and other[0] == k[0]:
        lo, hi = sorted((k[1], other[1]))
        if not any((k[0], yy) in board for yy in range(lo + 1, hi)):
            return True
    return any(is_red(p) != red and k in targets(board, s) for s, p in list(board.items()))


def legal(board, red_to_move, fr, to):
    p = board.get(fr)
    if p is None or is_red(p) != red_to_move or to not in targets(board, fr):
        return False
    after = dict(board)
    after[to] = after.pop(fr)
    return not general_exposed(after, red_to_move)


def played(board, fr, to):
    after = dict(board)
    after[to] = after.pop(fr)
    return after


def to_fen(board, red_to_move):
    ranks = []
    for y in range(9, -1, -1):
        row, empty = "", 0
        for x in range(9):
            p = board.get((x, y))
            if p is None:
                empty += 1
                continue
            if empty:
                row += str(empty)
                empty = 0
            row += p
        ranks.append(row + (str(empty) if empty else ""))
    return "/".join(ranks) + (" w" if red_to_move else " b") + " - - 0 1"


def sq_of(v):
    return (v // 10, v % 10)


def iccs(node):
    return "abcdefghi"[node["fr"] // 10] + str(node["fr"] % 10) + \
        "abcdefghi"[node["to"] // 10] + str(node["to"] % 10)


def tidy(raw):
    """A comment as the library gives it (doc/formats/xqf.md): GB18030, NUL as '?', LF line
    breaks, no blank lines or spaces at either end; None when nothing is left."""
    raw = raw.rstrip(b"\0")
    text = raw.decode("gb18030", "replace").replace("\0", "?")
    text = text.replace("\r\n", "\n").replace("\r", "\n").strip(" \t\n")
    return text or None


def model(data):
    """What the library must give for an XQF file: (fen, tokens, status) with tokens the
    compact move stream (ICCS moves, {comment}, parentheses around variations)."""
    xf = XqfFile(data)
    board, shared = {}, False
    for i, v in enumerate(xf.table):
        if v <= 89:
            if sq_of(v) in board:
                shared = True  # not playable; the first piece keeps the square
                continue
            board[sq_of(v)] = KINDS[i % 16] if i < 16 else KINDS[i % 16].lower()
    red = data[50] != 1
    root = xf.root
    if root["kids"] and 0 <= root["kids"][0]["fr"] <= 89 and \
            sq_of(root["kids"][0]["fr"]) in board:
        red = is_red(board[sq_of(root["kids"][0]["fr"])])
    fen = to_fen(board, red)
    generals = [(s, p) for s, p in board.items() if p in "Kk"]
    if shared or sorted(p for _, p in generals) != ["K", "k"] or \
            not all(in_palace(s[0], s[1], p == "K") for s, p in generals) or \
            general_exposed(board, not red):
        return fen, [], "failed"  # not a position to play from
    status = xf.problem[0] if xf.problem else "ok"
    tokens = []
    lossy = []  # a comment that is not GB18030 throughout makes the game WARN

    def comment(raw):
        text = tidy(raw)
        if text:
            try:
                raw.rstrip(b"\0").decode("gb18030")
            except UnicodeDecodeError:
                lossy.append(1)
            tokens.append("{%s}" % text)
    comment(root["com"])

    def try_node(bd, red_to_move, node):
        if node["fr"] > 89 or node["to"] > 89:
            return None
        if not legal(bd, red_to_move, sq_of(node["fr"]), sq_of(node["to"])):
            return None
        return played(bd, sq_of(node["fr"]), sq_of(node["to"]))

    def emit(node):
        tokens.append(iccs(node))
        comment(node["com"])

    # A line: [board now, side to move now, board before the last move, last node, the
    # alternatives to it still to write]
    lines = [[board, red, board, root, []]]
    while lines:
        line = lines[-1]
        bd, rtm, before, node, alts = line
        if alts:
            alt = alts.pop(0)
            after = try_node(before, not rtm, alt)
            if after is None:
                status = "failed" if status == "failed" else "warn"
                continue
            tokens.append("(")
            emit(alt)
            lines.append([after, rtm, before, alt, []])
            continue
        nxt = None
        for i, kid in enumerate(node["kids"]):
            after = try_node(bd, rtm, kid)
            if after is not None:
                nxt = (i, kid, after)
                break
            if len(lines) == 1:
                return fen, tokens, "failed"
            status = "failed" if status == "failed" else "warn"
        if nxt is None:
            lines.pop()
            if lines:
                tokens.append(")")
            continue
        i, kid, after = nxt
        emit(kid)
        line[:] = [after, not rtm, bd, kid, list(node["kids"][i + 1:])]
    return fen, tokens, "warn" if status == "ok" and lossy else status


# ---- the library's side ------------------------------------------------------------------

def read_game(path_or_bytes, name="x.xqf"):
    """(game, tokens, status, errmsg, events): the game's stream through the binding."""
    if isinstance(path_or_bytes, bytes):
        r = gamedb.open_memory({name: path_or_bytes})
    else:
        r = gamedb.open(path_or_bytes)
    with r:
        games = list(r)
        check(len(games) == 1, "%s: one game per file (got %d)" % (name, len(games)))
        g = games[0]
        g.detach()
    status = "ok"
    lib = gamedb._lib
    try:
        list(g.moves())
    except gamedb.GamedbError:
        status = "failed"
    errmsg = lib.gamedb_game_errmsg(g._handle()) or ""
    if status == "ok" and lib.gamedb_game_get_status(g._handle()) == _ffi.WARN:
        status = "warn"
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            events = list(g.moves(partial=True))
    except gamedb.GamedbError:
        events = []  # not even a start position to give the legal part from
    tokens = []
    for e in events:
        if e.type == "move":
            tokens.append(e.uci)
        elif e.type in ("comment_before", "comment_after"):
            tokens.append("{%s}" % e.text)
        elif e.type == "variation_begin":
            tokens.append("(")
        elif e.type == "variation_end":
            tokens.append(")")
    return g, tokens, status, errmsg, events


def replay_legal(game, events, what):
    """Every MOVE event is legal by MODEL's rules, from the game's own start FEN."""
    fields = game.fen.split()
    board = {}
    for r, rank in enumerate(fields[0].split("/")):
        x = 0
        for ch in rank:
            if ch.isdigit():
                x += int(ch)
            else:
                board[(x, 9 - r)] = ch
                x += 1
    lines = [[board, fields[1] != "b", board, fields[1] != "b"]]  # now, red?, before, red?
    for e in events:
        if e.type == "variation_begin":
            top = lines[-1]
            lines.append([top[2], top[3], top[2], top[3]])
        elif e.type == "variation_end":
            lines.pop()
        elif e.type == "move":
            top = lines[-1]
            fr = ("abcdefghi".index(e.uci[0]), int(e.uci[1]))
            to = ("abcdefghi".index(e.uci[2]), int(e.uci[3]))
            if not legal(top[0], top[1], fr, to):
                return check(False, "%s: %s is not legal by the test's own rules" % (what, e.uci))
            top[2], top[3] = top[0], top[1]
            top[0], top[1] = played(top[0], fr, to), not top[1]
    return True


# ---- 1. fixtures -------------------------------------------------------------------------

def test_fixtures():
    mod = testsupport.load_script(os.path.join(testsupport.HERE, "make-xqf-fixtures.py"),
                                  "make_xqf_fixtures")
    for fx in mod.FIXTURES:
        path = os.path.join(TESTDATA, "xqf", fx["name"])
        with open(path, "rb") as f:
            data = f.read()
        check(data == mod.build(fx), "%s: the file is what make-xqf-fixtures.py writes now"
              % fx["name"])
        g, tokens, status, errmsg, events = read_game(path)
        got = " ".join(tokens)
        check(got == fx["expect"], "%s: moves\n  got    %s\n  wanted %s"
              % (fx["name"], got, fx["expect"]))
        check(status == fx["status"], "%s: status %s, wanted %s (%s)"
              % (fx["name"], status, fx["status"], errmsg))
        if fx.get("error"):
            check(fx["error"] in errmsg and path in errmsg,
                  "%s: message %r should name the file and say %r" % (fx["name"], errmsg,
                                                                      fx["error"]))
        for tag, value in fx.get("tags", {}).items():
            check(g.tags.get(tag) == value, "%s: tag %s = %r, wanted %r"
                  % (fx["name"], tag, g.tags.get(tag), value))
        nonstd = fx["start"] is not None or "table" in fx
        check(("FEN" in g.tags) == nonstd, "%s: a FEN tag only for a non-standard start"
              % fx["name"])
        if not nonstd:
            check(g.fen == STANDARD_FEN, "%s: standard start, got %s" % (fx["name"], g.fen))
        else:
            check(g.fen == g.tags.get("FEN"), "%s: FEN tag = start" % fx["name"])
        check(g.variant == "xiangqi", "%s: variant xiangqi" % fx["name"])
        replay_legal(g, events, fx["name"])
        # MODEL agrees with the hand-written expectations too (it is what checks real files).
        fen, mtokens, mstatus = model(data)
        check(" ".join(mtokens) == fx["expect"] and mstatus == fx["status"],
              "%s: MODEL disagrees with the fixture's expectation" % fx["name"])
        check(fen == g.fen, "%s: MODEL start %s, library %s" % (fx["name"], fen, g.fen))
    # The raw bytes of a converted tag stay reachable.
    g = read_game(os.path.join(TESTDATA, "xqf", "plain-v10.xqf"))[0]
    raw = g.tag_raw("Date")
    check(raw is not None and raw[0] == "1997年11月16日".encode("gb18030"),
          "plain-v10: Date keeps the stored text as its raw value: %r" % (raw,))
    # The charset option: GBK reads these files the same; a single-byte charset keeps the
    # two-byte letters whole (no half-letter trimming) and still gives UTF-8.
    path = os.path.join(TESTDATA, "xqf", "plain-v10.xqf")
    with gamedb.open(path, charset="GBK") as r:
        check(next(iter(r)).tags["Title"] == "测试对局：中炮", "charset GBK")
    with gamedb.open(path, charset="CP1252") as r:
        t = next(iter(r)).tags["Title"]
        check(t == "测试对局：中炮".encode("gb18030").decode("cp1252", "replace"),
              "charset CP1252: %r" % t)
    # Header-only: the reader opens, counts one game and seeks.
    with gamedb.open(os.path.join(TESTDATA, "xqf", "enc-v12.xqf")) as r:
        check(r.format == "xqf" and len(r) == 1, "enc-v12: format xqf, one game")
        check(r.capabilities & _ffi.CAP_XIANGQI and r.capabilities & _ffi.CAP_SEEK,
              "xqf capabilities")
        check(r[0].tags["Event"] == "仙人指路", "seek to game 0")


# ---- 2. real files -----------------------------------------------------------------------

def manifest_rows():
    """{file name: row} of the XQF table of MANIFEST.md (file, ver, size, sha256, commit, path,
    start, mainline, branch pts, comments, title)."""
    rows = {}
    with open(os.path.join(REAL, "MANIFEST.md"), encoding="utf-8") as f:
        for line in f:
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(cells) == 11 and cells[0].endswith(".xqf"):
                rows[cells[0]] = dict(ver=int(cells[1], 16), size=int(cells[2]),
                                      start=cells[6], main=int(cells[7]), br=int(cells[8]),
                                      com=int(cells[9]), title=cells[10])
    return rows


# What the MANIFEST's columns mean: it comes from walker8088/cchess's reader (version of
# 2026-04), counted over its game object: "mainline" = moves along next_move from the first
# move; "branch pts" = moves chained by variation_next, which that reader sets only for the
# alternatives to the FIRST move (deeper alternatives go into a list it does not chain); and
# "comments" = the game comment plus the comments of the moves reachable through next_move
# and variation_next, i.e. the main line and the lines of the first move's alternatives, not
# deeper variations. Running that reader on all 263 files reproduces every figure this way.
# Our equivalents: depth-0 moves; variations opened after the first main-line move; comments
# at depth 0 and in the first move's variations at depth 1. Where walker and we still differ,
# the figures we give and why:
KNOWN = {
    "v0D_std_game_a505d0fd.xqf": dict(
        main=81, status="failed",
        why="move 41... c9e7 (offset 1352) leaves Black's general on e9 in check from the "
            "red soldier on e8: illegal. walker checks no checks and plays on to ply 89; we "
            "stop the main line there (the game FAILED, its 81 legal plies given as partial)."),
    "game_test.xqf": dict(
        com=1, status="warn",
        why="the game comment (1049 bytes) holds one byte pair that is not GB18030 (\\xc4 "
            "then a space, near its end); walker's decode fails and it drops the whole "
            "comment; we keep it with one U+FFFD (status WARN)."),
}
# Files whose figures agree but which decode with a problem (status and why).
KNOWN_STATUS = {
    "BadMoveTest3.xqf": ("failed", "the 10th main-line move (offset 1106, 5... e1f0) moves "
                         "from an empty square (the general left e1 on move 5); walker drops "
                         "that node and so also counts 9 plies"),
    "WildHouse.xqf": ("warn", "a variation move 37... e7f7 (offset 4510) starts on an empty "
                      "square; the variation from there is left out, as walker does"),
}


def real_files():
    found = {}
    for d, _, names in os.walk(os.path.join(REAL, "xqf")):
        for n in names:
            if n.lower().endswith(".xqf"):
                found[n] = os.path.join(d, n)
    return found


def walker_figures(events):
    main = first_alts = com = 0
    in_first = False
    for e in events:
        if e.type == "move" and e.depth == 0:
            main += 1
        elif e.type == "variation_begin":
            if e.depth == 1 and main == 1:
                first_alts += 1
                in_first = True
        elif e.type == "variation_end" and e.depth == 1:
            in_first = False
        elif e.type in ("comment_before", "comment_after"):
            if e.depth == 0 or (e.depth == 1 and in_first):
                com += 1
    return main, first_alts, com


def test_real(rows, files):
    check(len(rows) == 263, "MANIFEST lists 263 XQF files (%d)" % len(rows))
    check(set(rows) == set(files), "every MANIFEST file is there and nothing else: %s"
          % sorted(set(rows) ^ set(files)))
    match = {"main": 0, "br": 0, "com": 0, "title": 0, "start": 0, "tree": 0}
    totals = {"moves": 0, "variations": 0, "comments": 0}
    for name in sorted(set(rows) & set(files)):
        row = rows[name]
        with open(files[name], "rb") as f:
            data = f.read()
        g, tokens, status, errmsg, events = read_game(files[name])
        main, br, com = walker_figures(events)
        known = KNOWN.get(name, {})
        for key, ours in (("main", main), ("br", br), ("com", com)):
            if key in known:
                check(ours == known[key] and row[key] != ours,
                      "%s: %s: we give %d (listed %d), MANIFEST %d"
                      % (name, key, ours, known[key], row[key]))
            elif check(ours == row[key], "%s: %s %d, MANIFEST %d (%s)"
                       % (name, key, ours, row[key], errmsg)):
                match[key] += 1
        want_status = known.get("status") or KNOWN_STATUS.get(name, ("ok",))[0]
        check(status == want_status, "%s: status %s, wanted %s: %s"
              % (name, status, want_status, errmsg))
        if status != "ok":
            check(os.path.basename(files[name]) in errmsg, "%s: message names the file: %s"
                  % (name, errmsg))
        # Titles: converted without loss (no U+FFFD: the binding would show invalid UTF-8
        # that way too) and equal to the MANIFEST's.
        title = g.tags.get("Title", "")
        if check(title == row["title"] and "\ufffd" not in title,
                 "%s: title %r, MANIFEST %r" % (name, title, row["title"])):
            match["title"] += 1
        start = "std" if g.fen == STANDARD_FEN else "nonstd"
        if check(start == row["start"], "%s: start %s (%s), MANIFEST %s"
                 % (name, start, g.fen, row["start"])):
            match["start"] += 1
        check(g.tags.get("Variant") == "xiangqi" and g.variant == "xiangqi",
              "%s: variant" % name)
        # The whole tree against MODEL.
        fen, mtokens, mstatus = model(data)
        same = check(fen == g.fen and tokens == mtokens and mstatus == status,
                     "%s: library and MODEL differ: %s" % (name, first_difference(
                         [fen] + mtokens + [mstatus], [g.fen] + tokens + [status])))
        match["tree"] += same
        replay_legal(g, events, name)
        totals["moves"] += sum(1 for e in events if e.type == "move")
        totals["variations"] += sum(1 for e in events if e.type == "variation_begin")
        totals["comments"] += sum(1 for e in events if e.type.startswith("comment"))
    print("real files: %d; MANIFEST agrees on main line %d, branch pts %d, comments %d, "
          "title %d, start %d; listed differences %d; whole tree = MODEL %d"
          % (len(rows), match["main"], match["br"], match["com"], match["title"],
             match["start"], len(KNOWN), match["tree"]))
    print("real files decoded: %(moves)d moves, %(variations)d variations, "
          "%(comments)d comments" % totals)


def first_difference(want, got):
    for i, (a, b) in enumerate(zip(want, got)):
        if a != b:
            return "at token %d: MODEL %r, library %r" % (i, a, b)
    return "lengths %d (MODEL) and %d (library)" % (len(want), len(got))


# ---- 3. hostile copies -------------------------------------------------------------------

SAN_ENV = dict(ASAN_OPTIONS="detect_leaks=1:exitcode=86:abort_on_error=0",
               UBSAN_OPTIONS="halt_on_error=1:exitcode=87:print_stacktrace=1")


def tool_clean(paths, what):
    """gamedb json / pgn over paths: exit 0, 1 (a game failed) or 2 (a file could not be
    opened), no sanitizer report, every JSON line parses and all output is UTF-8."""
    ok = True
    for cmd in ("json", "pgn"):
        rc, out, err = testsupport.run_tool(cmd, *paths, env=SAN_ENV)
        bad = rc not in (0, 1, 2) or "Sanitizer" in err or "runtime error" in err
        if bad and len(paths) > 1:  # find the file that did it
            for p in paths:
                ok &= tool_clean([p], what)
            return ok
        ok &= check(not bad, "%s: gamedb %s %s: exit %d\n%s" % (what, cmd, " ".join(paths),
                                                               rc, err[-3000:]))
        try:
            text = out.decode("utf-8")
            if cmd == "json":
                for line in text.splitlines():
                    json.loads(line)
        except (UnicodeDecodeError, ValueError) as e:
            ok &= check(False, "%s: gamedb %s gives bad output: %s" % (what, cmd, e))
    return ok


def mutants(data, rnd):
    """Truncated and byte-flipped copies of data (name, bytes)."""
    n = len(data)
    cuts = {0, 2, 3, 47, 500, 1023, 1024, 1025, 1027, 1028, 1031, 1032, 1036, 1040,
            (1024 + n) // 2, n - 8, n - 4, n - 1}
    cuts |= {rnd.randrange(1024, n) for _ in range(3)} if n > 1024 else set()
    for c in sorted(c for c in cuts if 0 <= c < n):
        yield "cut%d" % c, data[:c]
    spots = [2, 3, 12, 13, 14, 15, 16 + rnd.randrange(32), 50, 51, 64, 80]
    spots += [rnd.randrange(1024, n) for _ in range(6)] if n > 1024 else []
    for k, at in enumerate(spots):
        if at < n:
            flipped = bytearray(data)
            flipped[at] ^= rnd.choice((0xFF, 0x80, 0x01, 0x20, 0x40))
            yield "flip%d-%d" % (k, at), bytes(flipped)


def test_hostile(files):
    rnd = random.Random(20260426)
    tmp = tempfile.mkdtemp(prefix="test-xqf-")
    # The files themselves first: the command's output is UTF-8 and every JSON line parses.
    tool_clean(sorted(files.values()), "the files as they are")
    try:
        batch, count = [], 0
        for name in sorted(files):
            with open(files[name], "rb") as f:
                data = f.read()
            for tag, blob in mutants(data, rnd):
                path = os.path.join(tmp, "%s-%s.xqf" % (name[:-4], tag))
                with open(path, "wb") as f:
                    f.write(blob)
                batch.append(path)
                count += 1
            if len(batch) >= 300:
                tool_clean(batch, "hostile copies")
                for p in batch:
                    os.unlink(p)
                batch = []
        if batch:
            tool_clean(batch, "hostile copies")
        print("hostile copies of real and fixture files: %d through gamedb json and pgn" % count)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def set_comment_length(data, node_off, value):
    """data with the comment length of the record at node_off stored as value (re-encrypted)."""
    xf = XqfFile(data)
    out = bytearray(data)
    p = node_off + 4
    plain = (value + xf.rmk) & 0xFFFFFFFF
    enc = (data[p + i] - xf.body[p - 1024 + i] for i in range(4))  # the key bytes F[p mod 32]
    for i, (b, k) in enumerate(zip(plain.to_bytes(4, "little"), enc)):
        out[p + i] = (b + k) & 0xFF
    return bytes(out)


def test_hostile_trees(files):
    """Real files cut where flags promise more records, and comment lengths past the end: the
    library gives what MODEL gives (a partial tree with WARN, or FAILED when the main line is
    cut), with a message naming the file and offset."""
    n_cut = n_len = 0
    for name in sorted(files)[::9]:
        with open(files[name], "rb") as f:
            data = f.read()
        xf = XqfFile(data)
        nodes, todo = [], [xf.root]
        while todo:
            node = todo.pop()
            nodes.append(node)
            todo.extend(node["kids"])
        nodes.sort(key=lambda nd: nd["off"])
        # cuts at record starts: what follows (and is promised) never comes
        for node in nodes[1:][::max(1, len(nodes) // 4)]:
            blob = data[:node["off"]]
            fen, mtokens, mstatus = model(blob)
            g, tokens, status, errmsg, _ = read_game(blob, "cut.xqf")
            check(tokens == mtokens and status == mstatus,
                  "%s cut at %d: %s" % (name, node["off"], first_difference(
                      mtokens + [mstatus], tokens + [status])))
            check(status != "ok" and "offset %d" % node["off"] in errmsg,
                  "%s cut at %d: message %r" % (name, node["off"], errmsg))
            n_cut += 1
        # a comment length larger than the file, on a record that has one
        with_len = [nd for nd in nodes[1:] if xf.version <= 10 or nd["com"]]
        for node in with_len[::max(1, len(with_len) // 2)][:2]:
            blob = set_comment_length(data, node["off"], len(data) * 2)
            fen, mtokens, mstatus = model(blob)
            g, tokens, status, errmsg, _ = read_game(blob, "len.xqf")
            check(tokens == mtokens and status == mstatus and status != "ok",
                  "%s: comment length at %d: %s" % (name, node["off"], first_difference(
                      mtokens + [mstatus], tokens + [status])))
            check("comment length larger than the rest of the file" in errmsg and
                  "offset %d" % node["off"] in errmsg,
                  "%s: comment length at %d: message %r" % (name, node["off"], errmsg))
            n_len += 1
    print("cut trees: %d, comment lengths past the end: %d" % (n_cut, n_len))


def main():
    if not LIB or not TOOL:
        print("GAMEDB_LIBRARY and GAMEDB_TOOL must be set (meson test does)", file=sys.stderr)
        return 1
    test_fixtures()
    fixture_files = {n: os.path.join(TESTDATA, "xqf", n)
                     for n in os.listdir(os.path.join(TESTDATA, "xqf")) if n.endswith(".xqf")}
    have_real = os.path.isfile(os.path.join(REAL, "MANIFEST.md")) and \
        os.path.isdir(os.path.join(REAL, "xqf"))
    files = real_files() if have_real else {}
    if have_real:
        test_real(manifest_rows(), files)
        test_hostile_trees(files)
    all_files = dict(files)
    all_files.update({"fixture-" + k: v for k, v in fixture_files.items()})
    test_hostile(all_files)
    return done(skip=None if have_real else
                "no %s/MANIFEST.md and xqf/: fixture tests only" % REAL)


if __name__ == "__main__":
    sys.exit(main())
