#!/usr/bin/env python3
"""Tests of the CCBridge reader (lib/formats/format-ccbridge.c, ccbridge-moves.c), through the
Python binding (the format found through the registry by its magic) and the gamedb command.

1. Fixtures (testdata/ccbridge, written by tests/make-ccbridge-fixtures.py from the format's
   facts): the files match the script; the library gives each game's tags, start FEN, complete
   lines, comments and deleted mark as the script wrote them: records spanning two and three
   slots read whole, a section heading (no moves) is a game, the deleted entry is marked;
   `gamedb info` counts them; PGN in WXF and Chinese notation.
2. Real files (GAMEDB_REALDATA/ccbridge/cchess): 93 + 38 + 1 + 1 games; titles, events, red
   and black as walker8088/cchess's reader gives them, and every complete line (main line +
   one per variation leaf, ICCS) as its dump_iccs_moves() gives them (pinned in
   testdata/ccbridge/cchess-pins.json by scripts/pin-ccbridge-cchess.py; cchess is not run
   here); where the readers must differ, KNOWN says why. Every move checked legal by
   test-xqf.py's own xiangqi rules; each main line replayed in Fairy-Stockfish (xiangqi) to the
   position gamedb reports (skipped only when fairy-stockfish is absent).
3. Hostile copies: truncated and flipped files, index counts and slot fields out of range,
   UTF-16 text without a terminator or with unpaired surrogates, trees that promise more
   records than there are: clear messages naming file, offset and game, no crash (run it in a
   -Db_sanitize=address,undefined build too), and every game written or reported.
Exit 77 (skip) when the real files are absent (after the fixture and hostile tests passed).
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

SRC = testsupport.SRCDIR
LIB = os.environ.get("GAMEDB_LIBRARY", "")
gamedb = testsupport.import_gamedb()
_ffi = gamedb._ffi
REAL = os.environ.get("GAMEDB_REALDATA", os.path.join(SRC, "..", "shared", "realdata"))
TESTDATA = os.environ.get("GAMEDB_TESTDATA", os.path.join(SRC, "testdata"))
REALDIR = os.path.join(REAL, "ccbridge", "cchess")
XQ = testsupport.load_script(os.path.join(testsupport.HERE, "test-xqf.py"), "test_xqf")
MK = testsupport.load_script(os.path.join(testsupport.HERE, "make-ccbridge-fixtures.py"),
                             "make_ccbridge_fixtures")
SAN_ENV = dict(ASAN_OPTIONS="detect_leaks=1:exitcode=86:abort_on_error=0",
               UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:exitcode=86")

# Where gamedb and cchess must differ, and why:
# - cchess cuts a text field at the first b"\0\0" wherever it falls (cchess_cut()): 5 titles
#   and 10 red players' names of the real files lose their last letters there; compared
#   through cchess_cut().
# - cchess reads every slot that starts with the magic, the index not at all; the 1989
#   library's slot 37 holds an entry marked deleted (flags 5): gamedb gives it too, marked.


def read(path_or_bytes, name="x.cbl", include_failed=True):
    """[(game, status, errmsg, events)] of every game, through the binding."""
    if isinstance(path_or_bytes, bytes):
        r = gamedb.open_memory({name: path_or_bytes}, errors="skip")
    else:
        r = gamedb.open(path_or_bytes, errors="skip")
    out = []
    with r:
        check(r.format == "ccbridge", "%s: opened as ccbridge (got %s)" % (name, r.format))
        for g in r:
            g.detach()
            status = "ok"
            try:
                list(g.moves())
            except gamedb.GamedbError:
                status = "failed"
            errmsg = gamedb._lib.gamedb_game_errmsg(g._handle()) or ""
            if status == "ok" and gamedb._lib.gamedb_game_get_status(g._handle()) == _ffi.WARN:
                status = "warn"
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                try:
                    events = list(g.moves(partial=True))
                except gamedb.GamedbError:
                    events = []
            out.append((g, status, errmsg, events))
    return out


def lines(events):
    """The complete lines of a move stream (ICCS): the main line, then one per variation."""
    cur, stack, leaves = [], [], []
    for e in events:
        if e.type == "move":
            cur.append(e.uci)
        elif e.type == "variation_begin":
            stack.append(cur)
            cur = cur[:-1]
        elif e.type == "variation_end":
            leaves.append(cur)
            cur = stack.pop()
    return [" ".join(x) for x in [cur] + leaves if x or leaves]


def comments(events):
    return [e.text for e in events if e.type in ("comment_before", "comment_after")]


# ---- 1. fixtures ---------------------------------------------------------------------------

def test_fixtures():
    tmp = tempfile.mkdtemp(prefix="test-ccbridge-")
    try:
        subprocess.run([sys.executable, os.path.join(testsupport.HERE,
                                                     "make-ccbridge-fixtures.py"), tmp], check=True)
        for n in ("fixtures.cbl", "single.cbr"):
            with open(os.path.join(tmp, n), "rb") as a, \
                    open(os.path.join(TESTDATA, "ccbridge", n), "rb") as b:
                check(a.read() == b.read(), "testdata/ccbridge/%s is what the script writes" % n)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    # The binding lists the format from the registry, with the files it is opened by.
    f = [f for f in gamedb.formats() if f.name == "ccbridge"]
    check(len(f) == 1 and f[0].opens == (".cbl", ".cbr") and f[0].charset == "UTF-16LE",
          "gamedb.formats() lists ccbridge (.cbl, .cbr; UTF-16LE): %r" % f)
    path = os.path.join(TESTDATA, "ccbridge", "fixtures.cbl")
    got = read(path, "fixtures.cbl")
    eq(len(got), len(MK.FIXTURES), "fixtures.cbl: games")
    with open(path, "rb") as f:
        data = f.read()
    for k, (fx, (g, status, errmsg, events)) in enumerate(zip(MK.FIXTURES, got)):
        what = "fixtures.cbl game %d (%s)" % (k, fx["title"])
        eq(status, "ok", what + ": status (%s)" % errmsg)
        eq(g.tags.get("Title"), fx["title"], what + ": Title")
        for tag, key in (("Event", "event"), ("White", "red"), ("Black", "black"),
                         ("WhiteTeam", "red_team"), ("BlackTeam", "black_team"),
                         ("Site", "site"), ("Round", "round")):
            if fx.get(key):
                eq(g.tags.get(tag), fx[key], what + ": " + tag)
        for tag, value in fx["tags"].items():
            eq(g.tags.get(tag), value, what + ": " + tag)
        eq(g.fen, fx["fen"], what + ": start FEN")
        eq("FEN" in g.tags, fx["fen"] != MK.STD + " w - - 0 1", what + ": a FEN tag when not the standard start")
        eq(lines(events), [" ".join(x) for x in fx["lines"]], what + ": complete lines")
        eq(comments(events), fx["comments"], what + ": comments")
        eq(g.deleted, bool(fx.get("deleted")), what + ": deleted")
        XQ.replay_legal(g, events, what)
    # The long records really span their slots (the facts the script wrote them from).
    cap = struct.unpack_from("<I", data, 60)[0]
    for k, fx in enumerate(MK.FIXTURES):
        ns, ln = struct.unpack_from("<II", data, 66624 + 276 * k + 8)
        eq(ns, fx.get("slots", 1), "fixtures.cbl entry %d: slots" % k)
        check(ln > 4096 * (ns - 1), "fixtures.cbl entry %d: its record needs all %d slots" % (k, ns))
    base = 66624 + 276 * cap
    check(data[base + 4096 * 2:base + 4096 * 2 + 15] != b"CCBridge Record",
          "fixtures.cbl: the second slot of the two-slot record does not start with the magic")
    # gamedb info: games and deleted.
    rc, out, err = testsupport.run_tool("info", path)
    eq(rc, 0, "gamedb info fixtures.cbl: exit (%s)" % err)
    check(b"format: ccbridge\n" in out and b"games: 6\n" in out and b"deleted: 1\n" in out,
          "gamedb info fixtures.cbl: format, games, deleted: %r" % out)
    # ... and the library's own properties, as tests/make-ccbridge-fixtures.py wrote them.
    for line in ("name: 测试棋库 fixtures", "source: tests/make-ccbridge-fixtures.py",
                 "creator: libgamedb", "creator email:", "index size: 128"):
        check(("\n%s\n" % line).encode() in out, "gamedb info fixtures.cbl: %r in %r" % (line, out))
    with gamedb.open(path) as r:
        eq(r.properties.get("name"), "测试棋库 fixtures", "fixtures.cbl: Reader.properties['name']")
    # The record file of the first game: the same game.
    single = read(os.path.join(TESTDATA, "ccbridge", "single.cbr"), "single.cbr")
    eq(len(single), 1, "single.cbr: one game")
    if single:
        eq(lines(single[0][3]), lines(got[0][3]), "single.cbr: the library's first game")
    # The notations of the XQF writer's option.
    for notation, want in (("wxf", "C2.5"), ("chinese", "炮二平五"), ("iccs", "h2e2")):
        rc, out, err = testsupport.run_tool("pgn", "--notation", notation, path)
        check(rc == 0 and ("1.%s" % want).encode() in out,
              "gamedb pgn --notation %s: 1.%s (exit %d, %s)" % (notation, want, rc, err))
    # Deleted games: left out by the command unless asked for.
    rc, out, _ = testsupport.run_tool("pgn", path)
    check(b"deleted game" not in out, "gamedb pgn leaves the deleted game out")
    rc, out, _ = testsupport.run_tool("pgn", "--include-deleted", path)
    check(b"deleted game" in out, "gamedb pgn --include-deleted gives it")


# ---- 2. real files -------------------------------------------------------------------------

def cchess_cut(text):
    """A text as cchess reads its field: cut at the first two zero bytes wherever they fall
    (b"\\0\\0" at an odd offset too: the high byte of one letter and the low byte of the
    next, as in "t" + NUL or " " + "开" U+5F00), the half letter dropped."""
    b = text.encode("utf-16-le") + b"\0\0"
    return b[:b.find(b"\0\0")].decode("utf-16-le", "ignore")


def test_real(pins):
    files = sorted(pins["files"])
    cut = {}
    counts = {}
    for name in files:
        pin = pins["files"][name]
        got = read(os.path.join(REALDIR, name), name)
        counts[name] = len(got)
        eq(len(got), len(pin["games"]), "%s: games (cchess: %d)" % (name, len(pin["games"])))
        for k, (pg, (g, status, errmsg, events)) in enumerate(zip(pin["games"], got)):
            what = "%s game %d" % (name, k)
            eq(status, "ok", what + ": status (%s)" % errmsg)
            for tag, key in (("Title", "title"), ("Event", "event"), ("White", "red"),
                             ("Black", "black")):
                ours = g.tags.get(tag, "")
                if ours == "?" and tag != "Title":
                    ours = ""
                if ours != pg[key] and cchess_cut(ours) == pg[key]:
                    cut[tag] = cut.get(tag, 0) + 1  # KNOWN: cchess's cut, not a difference
                    continue
                eq(ours, pg[key], what + ": " + tag + " as cchess reads it")
            want = pg["lines"]
            eq(sorted(lines(events)), sorted(want), what + ": complete lines (%d by cchess)" % len(want))
            if want:
                eq(lines(events)[0], want[0], what + ": main line")
            XQ.replay_legal(g, events, what)
    # The fields cchess cuts short (counted, for doc/formats/ccbridge.md): a change in these
    # numbers is a change in the files or in either reader.
    eq(cut, {"Title": 5, "White": 10}, "fields cchess reads cut short at an odd zero pair")
    eq([counts.get(n) for n in files], [93, 38, 1, 1],
       "games of %s" % files)
    # The deleted entry of the 1989 library (index flags 5): marked.
    name = [n for n in files if n.startswith("1989")]
    if name:
        got = read(os.path.join(REALDIR, name[0]), name[0])
        eq([k for k, x in enumerate(got) if x[0].deleted], [37], name[0] + ": deleted games")


# The library header's text fields (doc/formats/ccbridge.md, after the write-up in
# walker8088/cchess): property name, offset, bytes; UTF-16LE to the first NUL letter.
LIB_FIELDS = (("name", 64, 512), ("source", 576, 256), ("creator", 832, 64),
              ("creator-email", 896, 64), ("created", 960, 64), ("modified", 1024, 64),
              ("remarks", 1088, 65536))
# What the real libraries' headers say (read with Python's codec from the offsets above, and
# checked by eye against CCBridge's fields: dates as CCBridge writes them).
REAL_PROPS = {
    "1956": {"source": "", "creator": "xinshou", "creator-email": "",
             "created": "2009-09-05 15:06:26", "modified": "2019-02-06 16:09:01",
             "guid": "{63A81879-8AF5-48F5-90D5-C43395C50C62}"},
    "1989": {"source": "《银荔杯象棋全国冠军赛对局赏析》 ", "creator": "千秋雪", "creator-email": "",
             "created": "2017-05-28 1:40:06", "modified": "2019-02-06 17:19:47",
             "guid": "{0E565837-BF8C-4CCE-A599-ABB101CE404A}"},
}


def utf16_field(data, off, n):
    b = data[off:off + n]
    for i in range(0, n, 2):
        if b[i:i + 2] == b"\0\0":
            return b[:i].decode("utf-16-le")
    return b.decode("utf-16-le", "replace")


def test_real_properties(pins):
    """gamedb info and Reader.properties of the real libraries (issue 29): the library's name,
    source, creator, dates, remarks, GUID and index size, each as its header holds it; the
    records have none."""
    for name in sorted(pins["files"]):
        path = os.path.join(REALDIR, name)
        with open(path, "rb") as f:
            data = f.read()
        with gamedb.open(path) as r:
            props = r.properties
        if not name.upper().endswith(".CBL"):
            eq(props, {}, name + ": a record has no properties")
            continue
        eq(list(props), [n for n, _, _ in LIB_FIELDS] + ["guid", "index-size"],
           name + ": property names in order")
        for prop, off, n in LIB_FIELDS:
            want = utf16_field(data, off, n)
            if prop == "remarks":  # a memo box's text: LF line breaks, no blank ends
                want = want.replace("\r\n", "\n").strip(" \t\n")
            eq(props.get(prop), want, "%s: %s at offset %d" % (name, prop, off))
        # The name: cchess's reader gives the same, and it is the file's own name.
        eq(props.get("name"), pins["files"][name]["name"], name + ": name as cchess reads it")
        eq(props.get("name"), os.path.splitext(name)[0], name + ": name is the file's")
        for prop, want in REAL_PROPS[name[:4]].items():
            eq(props.get(prop), want, "%s: %s" % (name, prop))
        # The GUID at 20 is a random (version 4, RFC 4122 variant) GUID, stored as a record's.
        g = props.get("guid", "")
        check(len(g) == 38 and g[15] == "4" and g[20] in "89AB", name + ": a version 4 GUID: " + g)
        eq(props.get("index-size"), str(struct.unpack_from("<I", data, 60)[0]), name + ": index size")
        eq(props.get("index-size"), "128", name + ": index size 128")
        rc, out, err = testsupport.run_tool("info", path)
        eq(rc, 0, "gamedb info %s: exit (%s)" % (name, err))
        eq(err, "", "gamedb info %s: nothing on stderr" % name)
        for line in ("name: " + props["name"], "creator: " + props["creator"],
                     "source:" + (" " + props["source"] if props["source"] else ""),
                     "created: " + props["created"], "index size: 128"):
            check(("\n%s\n" % line).encode() in out, "gamedb info %s: %r" % (name, line))
        first = props["remarks"].split("\n")
        check(("\nremarks: %s\n" % first[0]).encode() in out and
              all(("\n  %s\n" % x).encode() in out for x in first[1:] if x),
              "gamedb info %s: the remarks, continued on indented lines" % name)


def fairy_stockfish(pins):
    """Every main line of the real files and fixtures replayed in Fairy-Stockfish (xiangqi) to
    the position gamedb reports after it. Returns False when the program is absent."""
    fsf = testsupport.find_program("fairy-stockfish")
    if not fsf:
        print("fairy-stockfish not installed: main lines not replayed")
        return False
    paths = [os.path.join(REALDIR, n) for n in sorted(pins["files"])] if pins else []
    paths.append(os.path.join(TESTDATA, "ccbridge", "fixtures.cbl"))
    jobs = []
    for p in paths:
        rc, out, err = testsupport.run_tool("json", "--include-deleted", p)
        check(rc == 0, "gamedb json %s: exit %d %s" % (p, rc, err))
        for line in out.decode("utf-8").splitlines():
            o = json.loads(line)
            main = [m["uci"] for m in o.get("moves", [])]
            if main:
                jobs.append(("%s game %d" % (os.path.basename(p), o["index"]), o["fen"], main,
                             o["final_fen"]))
    script = ["uci", "setoption name UCI_Variant value xiangqi"]
    for _, fen, main, _ in jobs:
        mv = " ".join(m[0] + str(int(m[1]) + 1) + m[2] + str(int(m[3]) + 1) for m in main)
        script += ["position fen %s moves %s" % (fen, mv), "d"]
    script.append("quit")
    p = subprocess.run([fsf], input="\n".join(script) + "\n", capture_output=True, text=True,
                       timeout=300)
    fens = [l[5:].strip() for l in p.stdout.splitlines() if l.startswith("Fen: ")]
    eq(len(fens), len(jobs), "fairy-stockfish: one position per main line")
    for (what, _, main, final), fen in zip(jobs, fens):
        eq(fen.split()[:2], final.split()[:2],
           "%s: after %d plies fairy-stockfish's position is gamedb's" % (what, len(main)))
    print("fairy-stockfish: %d main lines replayed" % len(jobs))
    return True


# ---- 3. hostile copies ---------------------------------------------------------------------

def tool_clean(paths, what):
    """gamedb json / pgn / info (the library's properties): exit 0, 1 or 2, no sanitizer
    report, UTF-8 output, JSON that parses, and every game written or reported (the summary
    line adds up to the game count)."""
    ok = True
    for cmd in ("json", "pgn", "info"):
        rc, out, err = testsupport.run_tool(cmd, "--include-deleted", *paths, env=SAN_ENV)
        bad = rc not in (0, 1, 2) or "Sanitizer" in err or "runtime error" in err
        if bad and len(paths) > 1:
            for p in paths:
                ok &= tool_clean([p], what)
            return ok
        ok &= check(not bad, "%s: gamedb %s %s: exit %d\n%s" % (what, cmd, " ".join(paths), rc,
                                                               err[-3000:]))
        try:
            text = out.decode("utf-8")
            if cmd == "json":
                for line in text.splitlines():
                    json.loads(line)
        except (UnicodeDecodeError, ValueError) as e:
            ok &= check(False, "%s: gamedb %s gives bad output: %s" % (what, cmd, e))
    return ok


def mutants(data, rnd):
    n = len(data)
    cuts = {0, 15, 16, 60, 63, 64, 66624, 66624 + 276, 2214, 2215, 2217, 2218, 2222, n // 2,
            n - 4096, n - 1}
    cuts |= {rnd.randrange(n) for _ in range(4)}
    for c in sorted(c for c in cuts if 0 <= c < n):
        yield "cut%d" % c, data[:c]
    spots = [0, 19, 56, 60, 61, 62, 63, 66624, 66624 + 8, 66624 + 12, 66624 + 276 + 8,
             2076, 2112, 2120, 2214, 2216, 2218, 21, 65, 575, 833, 1089]
    spots += [rnd.randrange(n) for _ in range(8)]
    for k, at in enumerate(spots):
        if at < n:
            b = bytearray(data)
            b[at] ^= rnd.choice((0xFF, 0x80, 0x01, 0x02, 0x04, 0x40))
            yield "flip%d-%d" % (k, at), bytes(b)


def test_hostile(paths):
    rnd = random.Random(20261126)
    tmp = tempfile.mkdtemp(prefix="test-ccbridge-h-")
    try:
        tool_clean(paths, "the files as they are")
        batch = []
        for p in paths:
            with open(p, "rb") as f:
                data = f.read()
            stem, ext = os.path.splitext(os.path.basename(p))
            for tag, blob in mutants(data, rnd):
                q = os.path.join(tmp, "%d-%s%s" % (len(batch), tag, ext))
                with open(q, "wb") as f:
                    f.write(blob)
                batch.append(q)
        tool_clean(batch, "hostile copies")
        print("hostile copies: %d through gamedb json and pgn" % len(batch))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def one(data, name):
    """(exit status, stderr) of gamedb pgn on data saved as name."""
    tmp = tempfile.mkdtemp(prefix="test-ccbridge-1-")
    try:
        p = os.path.join(tmp, name)
        with open(p, "wb") as f:
            f.write(data)
        rc, _, err = testsupport.run_tool("pgn", "--include-deleted", p, env=SAN_ENV)
        return rc, err
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def test_hostile_cases():
    with open(os.path.join(TESTDATA, "ccbridge", "fixtures.cbl"), "rb") as f:
        lib = f.read()
    with open(os.path.join(TESTDATA, "ccbridge", "single.cbr"), "rb") as f:
        rec = f.read()
    e1 = 66624 + 276  # index entry 1 (the two-slot record)
    base = 66624 + 276 * 128

    def patched(data, at, fmt, *v):
        b = bytearray(data)
        struct.pack_into(fmt, b, at, *v)
        return bytes(b)

    # The index count out of range: the library cannot be opened, the message says why.
    rc, err = one(patched(lib, 60, "<I", 0xFFFFFFFF), "count.cbl")
    check(rc == 2 and "count.cbl: offset 60: an index of 4294967295 entries" in err,
          "an index count past the file: exit 2 and the reason: %d %r" % (rc, err))
    # A slot count past the file: that game fails (named), the others are written.
    rc, err = one(patched(lib, e1 + 8, "<I", 100000), "slots.cbl")
    check(rc == 1 and "slots.cbl: offset %d: game 2 (index entry 1): the slots the index gives it lie past the end of the file" % e1 in err
          and "5 games written, 1 failed" in err, "slot count out of range: %d %r" % (rc, err))
    # A length larger than its slots hold.
    rc, err = one(patched(lib, e1 + 12, "<I", 3 * 4096), "len.cbl")
    check(rc == 1 and "the index gives it more bytes than its slots hold" in err,
          "record length out of range: %d %r" % (rc, err))
    # The two-slot entry given one slot: its record is cut (the tree promises more), and every
    # later entry's slots shift, so the records found there are other entries' (GUID).
    rc, err = one(patched(lib, e1 + 8, "<I", 1), "short.cbl")
    check(rc == 1 and "the index gives it more bytes than its slots hold" in err and
          "its GUID differs" in err, "a slot count too small: %d %r" % (rc, err))
    # A title that fills its field with no NUL letter: read to the field's end, with a warning.
    b = bytearray(rec)
    b[180:308] = "题" .encode("utf-16-le") * 64
    rc, err = one(bytes(b), "noterm.cbr")
    check(rc == 0 and "noterm.cbr: offset 180: tag Title: it has no NUL terminator (read to the field's end)" in err,
          "a title without its terminator: %d %r" % (rc, err))
    # An unpaired surrogate in a comment (the first game's root comment): U+FFFD and a warning.
    at = 2214 + 4 + 4
    b = bytearray(rec)
    b[at:at + 2] = b"\x00\xd8"
    rc, err = one(bytes(b), "surrogate.cbr")
    check(rc == 0 and "surrogate.cbr: offset %d: game 1: a comment: an unpaired UTF-16 surrogate became U+FFFD" % at in err,
          "an unpaired surrogate: %d %r" % (rc, err))
    # An unpaired surrogate in a header field: the tag keeps the rest, U+FFFD in its place.
    b = bytearray(rec)
    b[1076:1084] = "红".encode("utf-16-le") + b"\x00\xdc" + "方".encode("utf-16-le") + b"\0\0"
    rc, err = one(bytes(b), "lone.cbr")
    check(rc == 0 and "lone.cbr: offset 1076: tag White: an unpaired UTF-16 surrogate became U+FFFD" in err,
          "an unpaired surrogate in a tag: %d %r" % (rc, err))
    got = read(bytes(b), "lone.cbr")
    eq(got[0][0].tags.get("White") if got else None, "红\ufffd方", "lone.cbr: White")
    # A comment length past the record (the start record's): no move can be found after it.
    b = bytearray(rec)
    struct.pack_into("<I", b, 2218, 0x7FFFFFFF)
    rc, err = one(bytes(b), "comlen.cbr")
    check(rc == 1 and "offset 2214: game 1: the start record: a comment longer than the rest of the record" in err,
          "a comment length past the record: %d %r" % (rc, err))
    # A tree whose every record promises a continuation and an alternative, to the end of the
    # bytes: a stream cannot loop, so this is the longest it gets; the game fails cleanly.
    body = bytearray(rec[:2214]) + bytes([0, 0, 0, 0]) + bytes([2, 0, 70, 67, 2, 0, 79, 76]) * 3000
    rc, err = one(bytes(body), "promises.cbr")
    check(rc == 1 and "promises.cbr" in err and "is missing" in err,
          "a tree that promises more than it holds: %d %r" % (rc, err))
    # The start record's continuation flag cleared (flag 1: the line ends there): the records
    # after it are reached by no flag; the game says they are not read (no move is lost
    # without a word), and is written with what the tree holds: no move.
    check(rec[2214] & 1 == 0, "single.cbr: the start record promises a continuation")
    b = bytearray(rec)
    b[2214] |= 1
    rc, err = one(bytes(b), "unreached.cbr")
    m = re.search(r"unreached\.cbr: offset (\d+): game 1: (\d+) bytes after the end of the move tree are not read", err)
    check(rc == 0 and m is not None and int(m.group(1)) > 2214 and int(m.group(1)) + int(m.group(2)) <= len(rec),
          "a start record without its continuation flag: %d %r" % (rc, err))
    # A record in a slot past the indexed ones: said at open.
    b = bytearray(lib) + bytes(rec) + b"\0" * (4096 - len(rec))
    rc, err = one(bytes(b), "stray.cbl")
    check(rc == 0 and "1 record in the slots after the 9 the index uses belongs to no index entry (not read)" in err,
          "a record no index entry leads to: %d %r" % (rc, err))
    # Not a CCBridge file at all, but named like one: opened by no format.
    rc, err = one(b"CCBridge Recorx\0" + rec[16:], "nomagic.cbr")
    eq(rc, 2, "no magic: exit 2 (%s)" % err)
    del base


def main():
    if not LIB or not TOOL:
        print("GAMEDB_LIBRARY and GAMEDB_TOOL must be set (meson test does)", file=sys.stderr)
        return 1
    have_real = os.path.isdir(REALDIR)
    pins = None
    if have_real:
        with open(os.path.join(TESTDATA, "ccbridge", "cchess-pins.json"), encoding="utf-8") as f:
            pins = json.load(f)
    if sys.argv[1:] == ["--fairy-stockfish"]:
        # The replay alone (its own meson test): skipped only when the program is absent.
        if not fairy_stockfish(pins):
            return done(skip="fairy-stockfish is not installed")
        return done()
    test_fixtures()
    test_hostile_cases()
    if have_real:
        test_real(pins)
        test_real_properties(pins)
    paths = [os.path.join(TESTDATA, "ccbridge", n) for n in ("fixtures.cbl", "single.cbr")]
    if have_real:
        paths += [os.path.join(REALDIR, n) for n in sorted(os.listdir(REALDIR))]
    test_hostile(paths)
    return done(skip=None if have_real else "no %s: fixture tests only" % REALDIR)


if __name__ == "__main__":
    sys.exit(main())
