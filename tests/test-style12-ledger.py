#!/usr/bin/env python3
"""The loss ledger of the style 12 reader (issue 26): every line of a log that begins `<12>` or
`<b1>` is used or reported, whatever the log.

This script finds those lines itself, from the text (doc/formats/style12.md's rule: after
optional blanks, prompts and timestamps), and reads each `<12>` line's board, game number and
names with its own reading. A `<12>` line is *used* when its board (squares and side to move)
is a position of a game that `gamedb fen` and `gamedb json` give with that game number and
those names; a `<b1>` line when a crazyhouse or bughouse game of its number is given. Every
other line must be *named* on the command's standard error ("line N", or "lines A to B" for a
game that failed whole); and when a line is not used, the command must not exit 0.

Logs: every real style 12 log (GAMEDB_REALDATA/style12); logs written here from real games
(the session writer of test-style12.py, whose games are the real SCID bases' games): players
named in UTF-8 and CP1252 (item 1 of the style 12 defects), 100 and 1,000 games at once (item
3), move numbers past 100,000 (item 4); and damaged copies of all of them: bytes of the board
fields changed, lines cut after a field, lines of another game's fields mixed in.
Exit 77 (skip) when the real data is absent.
"""
import json
import os
import random
import re
import sys
import tempfile

import testsupport
from testsupport import check, done

gamedb = testsupport.import_gamedb()
t12 = testsupport.load_script(os.path.join(testsupport.SRCDIR, "tests", "test-style12.py"),
                              "test_style12")
S12 = t12.S12
PIECES = set(b"PNBRQKpnbrqk-")


# ---- this script's reading of a log ----------------------------------------------------------

def payload(line, tag):
    """The bytes after tag (b"<12> ") when the line is such a line, else None: the tag after
    optional blanks and up to 8 prompts (a word ending in '%' or '>') or timestamps (a
    bracketed word, or a word of digits and ':-./TZ+,')."""
    p, words = 0, 0
    n = len(line)
    while True:
        while p < n and line[p] in b" \t":
            p += 1
        if line.startswith(tag, p):
            return line[p + len(tag):]
        words += 1
        if p == n or words > 8:
            return None
        if line[p] in b"[(":
            q = line.find(b"]" if line[p] == ord("[") else b")", p)
            if q < 0 or q - p > 40:
                return None
            p = q + 1
            continue
        w = p
        while p < n and line[p] not in b" \t":
            p += 1
        word = line[w:p]
        if len(word) > 40:
            return None
        if word.endswith(b"%") or (word.endswith(b">") and len(word) > 1 and word[0] != ord("<")):
            continue
        if re.fullmatch(rb"[0-9:\-./TZ+,]*[0-9][0-9:\-./TZ+,]*", word):
            continue
        return None


def text(b):
    """Name bytes as the reader's default charset reads them: UTF-8, other bytes CP1252."""
    s = b.decode("utf-8", "surrogateescape")
    return "".join(bytes([ord(c) - 0xDC00]).decode("cp1252", "replace")
                   if 0xDC80 <= ord(c) <= 0xDCFF else c for c in s)


def own_lines(data):
    """[(line number, kind "12"/"b1", key or None)] of the log's <12> and <b1> lines. key:
    (game number, white, black, placement, side) for a <12> line this script can read,
    (game number,) for a <b1> line."""
    out = []
    for n, line in enumerate(data.split(b"\n"), 1):
        line = line[:-1] if line.endswith(b"\r") else line
        p = payload(line, b"<12> ")
        if p is not None:
            f = [x for x in re.split(rb"[ \t]+", p) if x]
            key = None
            if len(f) >= 30 and all(len(r) == 8 and set(r) <= PIECES for r in f[:8]) and \
                    f[8] in (b"W", b"B") and re.fullmatch(rb"-?\d+", f[15]):
                place = "/".join(re.sub(r"-+", lambda m: str(len(m.group())), r.decode())
                                 for r in f[:8])
                key = (int(f[15]), text(f[16]), text(f[17]), place, f[8].decode().lower())
            out.append((n, "12", key))
            continue
        p = payload(line, b"<b1> ")
        if p is not None:
            m = re.match(rb"\s*game\s+(-?\d+)\s", p)
            out.append((n, "b1", (int(m.group(1)),) if m else None))
    return out


def named_lines(err):
    """The line numbers the command's stderr names, and those named by a failure (a line that
    is not a warning)."""
    named, failed = set(), set()
    for ln in err.splitlines():
        got = {int(x) for x in re.findall(r"\bline (\d+)\b", ln)}
        for a, b in re.findall(r"\blines (\d+) to (\d+)\b", ln):
            got |= set(range(int(a), int(b) + 1))
        named |= got
        if not ln.startswith("gamedb: warning: "):
            failed |= got
    return named, failed


def ledger(path, what=None):
    """Checks the ledger of one log: (lines, used, named, exit status)."""
    what = what or os.path.basename(path)
    with open(path, "rb") as f:
        data = f.read()
    rc, js, err = testsupport.run_tool("json", path)
    rc2, fens, err2 = testsupport.run_tool("fen", path)
    check(rc == rc2, "%s: json and fen exit the same (%d %d)" % (what, rc, rc2))
    check(rc in (0, 1), "%s: exit %d: %s" % (what, rc, err[-300:]))
    games = {}
    for ln in js.decode("utf-8").splitlines():
        ln = ln.strip().rstrip(",")
        if ln.startswith("{"):
            g = json.loads(ln)
            games[g["index"] + 1] = g
    positions = {}
    zh = set()
    for ln in fens.decode("utf-8").splitlines():
        k, _ply, fen = ln.split("\t")
        g = games[int(k)]
        t = g["tags"]
        place, side = fen.split()[:2]
        place = re.sub(r"\[.*\]", "", place).replace("~", "")
        positions.setdefault((int(t["GameNo"]), t["White"], t["Black"]), set()).add(
            (place, side))
    for g in games.values():
        if g["variant"] in ("crazyhouse", "bughouse"):
            zh.add(int(g["tags"]["GameNo"]))
    named, failed = named_lines(err)
    lines = own_lines(data)
    used = unaccounted = 0
    missing = []
    for n, kind, key in lines:
        if kind == "12" and key and (key[3], key[4]) in positions.get(key[:3], ()):
            used += 1
        elif kind == "b1" and key and key[0] in zh:
            used += 1
        elif n in named:
            if n not in failed:
                # Named by a warning only: the line is used (the warning says how).
                pass
        else:
            unaccounted += 1
            missing.append(n)
    if not check(not missing, "%s: %d of %d <12>/<b1> lines neither used nor named: lines %s"
                 % (what, len(missing), len(lines), missing[:10])) and \
            os.environ.get("GAMEDB_LEDGER_KEEP"):
        keep = os.path.join(os.environ["GAMEDB_LEDGER_KEEP"], re.sub(r"\W+", "-", what) + ".log")
        with open(keep, "wb") as f:
            f.write(data)
    notused = [n for n, kind, key in lines if n in failed]
    check(not notused or rc == 1, "%s: lines %s not used and exit %d" % (what, notused[:5], rc))
    return len(lines), used, len(named), rc


# ---- logs written here ------------------------------------------------------------------------

def board_line(gameno, white, black, fen, last, clocks, taken, moveno=None):
    """A <12> line of fen (after last, the source game's ply tuple) by the session writer."""
    sess = t12.Session(random.Random(0))
    sess.board("", gameno, white, black, fen, last, 1, 3, 0, clocks, True, taken)
    line = sess.out[0]
    if moveno is not None:  # the move number field (27, the 26th after "<12>")
        f = line.split(" ")
        f[26] = str(moveno)
        line = " ".join(f)
    return line


def game_lines(src, gameno, white, black, plies=None):
    """The lines of one game of src (its first plies plies): [(line)], the moves."""
    clocks = [180000, 180000]
    out = [board_line(gameno, white, black, src.fen, None, tuple(clocks), 0)]
    for k, p in enumerate(src.plies[:plies]):
        mover = k % 2 if src.fen.split()[1] == "w" else 1 - k % 2
        clocks[mover] -= 1000
        out.append(board_line(gameno, white, black, p[3], p, tuple(clocks), 1000))
    return out


def interleaved(srcs, n, plies):
    """n games of plies plies each, all in flight at once: a board of each game in turn."""
    games = []
    for i in range(n):
        src = srcs[i % len(srcs)]
        games.append((src, game_lines(src, 100 + i, "w%d" % i, "b%d" % i, plies)))
    out = []
    for k in range(plies + 1):
        for _, lines in games:
            out.append(lines[k])
    for i in range(n):
        out.append("{Game %d (w%d vs. b%d) b%d resigns} 1-0" % (100 + i, i, i, i))
    return out, games


def write(tmp, name, data):
    path = os.path.join(tmp, name)
    with open(path, "wb") as f:
        f.write(data)
    return path


def test_names(tmp, srcs):
    """Item 1: names outside ASCII, in UTF-8 and (one game) in CP1252."""
    srcs = [s for s in srcs if len(s.plies) >= 12]
    names = [("Židu", "Østmoe"), ("王嘉良", "Ягудин"), ("Ĳsbrand", "Łukasz"), ("Ørjan", "Ç")]
    lines = ["Creating: Židu (1500) Østmoe (1600) rated blitz 3 0"]
    for i, (w, b) in enumerate(names):
        lines += game_lines(srcs[i], 10 + i, w, b, 12)
        lines.append("{Game %d (%s vs. %s) %s resigns} 1-0" % (10 + i, w, b, b))
    data = ("\n".join(lines) + "\n").encode("utf-8")
    cp = game_lines(srcs[4], 20, "Müller", "Gärtner", 8) + [
        "{Game 20 (Müller vs. Gärtner) Gärtner resigns} 1-0"]
    data += ("\n".join(cp) + "\n").encode("cp1252")
    path = write(tmp, "names.log", data)
    rc, pgn, err = testsupport.run_tool("pgn", path)
    rc2, js, err2 = testsupport.run_tool("json", path)
    want = names + [("Müller", "Gärtner")]
    got = [(m.group(1).decode(), m.group(2).decode()) for m in
           re.finditer(rb'\[White "([^"]*)"\]\n\[Black "([^"]*)"\]', pgn)]
    check(rc == 0 and got == want, "names: every game, its names in UTF-8 in PGN: %d %s" % (
        rc, got))
    tags = [(json.loads(ln)["tags"]["White"], json.loads(ln)["tags"]["Black"])
            for ln in js.decode().splitlines() if ln.strip().startswith("{")]
    check(rc2 == 0 and tags == want, "names: in JSON: %s" % tags)
    elo = re.findall(rb'\[WhiteElo "([^"]*)"\]\n\[BlackElo "([^"]*)"\]', pgn)
    check(elo == [(b"1500", b"1600")], "names: the Creating: line's ratings found: %s" % elo)
    results = re.findall(rb'\[Result "([^"]*)"\]', pgn)
    check(results == [b"1-0"] * 5, "names: the ends ({Game N (A vs. B) ...}) found: %s" % results)
    moves = [len(re.findall(rb"%clk", g)) for g in pgn.split(b"[Event ")[1:]]
    check(moves == [12, 12, 12, 12, 8], "names: every move kept: %s" % moves)
    warn = [ln for ln in err.splitlines() if "warning" in ln and not
            re.match(r"gamedb: .*: [\d,]+ games? written, [\d,]+ failed, [\d,]+ with warnings$", ln)]
    check(len(warn) == 1 and "game 5" in warn[0] and "CP1252" in warn[0] and "Müller" in warn[0],
          "names: the CP1252 game (only) with a warning: %s" % warn)
    # The live line API gives the names in UTF-8, and a warning for the CP1252 line.
    try:
        l = gamedb.Style12Line(lines[1].encode("utf-8"))
        check((l.white, l.black, l.warning) == ("Židu", "Østmoe", None),
              "line API: %s %s %s" % (l.white, l.black, l.warning))
        l = gamedb.Style12Line(cp[0].encode("cp1252"))
        check((l.white, l.black) == ("Müller", "Gärtner") and l.warning and
              "CP1252" in l.warning, "line API, CP1252: %s %s %s" % (l.white, l.black,
                                                                      l.warning))
    except gamedb.GamedbError as e:
        check(False, "line API: the names refused: %s" % e)
    return path


def test_many(tmp, srcs):
    """Item 3: 100 and 1,000 games in flight at once come out whole; past the bound (4,096
    games in flight) each game pushed out is a warning."""
    paths = []
    long_srcs = [s for s in srcs if len(s.plies) >= 20]
    for n in (65, 100, 1000):
        lines, games = interleaved(long_srcs, n, 20)
        path = write(tmp, "many-%d.log" % n, ("\n".join(lines) + "\n").encode())
        paths.append(path)
        rc, js, err = testsupport.run_tool("json", path)
        out = [json.loads(ln) for ln in js.decode().splitlines() if ln.strip().startswith("{")]
        whole = sum(1 for g, (src, _) in zip(sorted(out, key=lambda g: int(g["tags"]["GameNo"])),
                                             games)
                    if [m["san"] for m in g["moves"]] == [p[0] for p in src.plies[:20]] and
                    g["tags"]["Result"] == "1-0")
        check(rc == 0 and not err and len(out) == n and whole == n,
              "%d games at once: %d games, %d whole (exit %d) %s" % (n, len(out), whole, rc,
                                                                     err[:200]))
    lines, games = interleaved(long_srcs, 4100, 2)
    path = write(tmp, "many-4100.log", ("\n".join(lines) + "\n").encode())
    rc, js, err = testsupport.run_tool("json", path)
    out = [json.loads(ln) for ln in js.decode().splitlines() if ln.strip().startswith("{")]
    warned = err.count("4,096 games are in flight")
    cut = sum(1 for g in out if g["tags"]["Result"] == "*")
    check(rc == 0 and warned >= 4 and cut == warned,
          "4,100 games at once: %d games, %d cut, %d warnings naming the bound" % (
              len(out), cut, warned))
    paths.append(path)
    return paths


def test_long_game(tmp):
    """The other bound: a game of more than 65,536 plies (knights out and back) goes on as a
    new game from its board, with a warning."""
    boards = [("rnbqkbnr", "PPPPPPPP RNBQKBNR", "W", "none", "none"),
              ("rnbqkbnr", "PPPPPPPP RNBQKB-R", "B", "N/g1-f3", "Nf3"),
              ("rnbqkb-r", "PPPPPPPP RNBQKB-R", "W", "N/g8-f6", "Nf6"),
              ("rnbqkb-r", "PPPPPPPP RNBQKBNR", "B", "N/f3-g1", "Ng1"),
              ("rnbqkbnr", "PPPPPPPP RNBQKBNR", "W", "N/f6-g8", "Ng8")]
    sixth = {"rnbqkbnr": "--------", "rnbqkb-r": "-----n--"}
    third = {"RNBQKBNR": "--------", "RNBQKB-R": "-----N--"}
    lines = []
    n = 65540
    for ply in range(n + 1):
        r8, low, side, verbose, san = boards[(ply - 1) % 4 + 1 if ply else 0]
        r1 = low.split()[1]
        lines.append("<12> %s pppppppp %s -------- -------- %s %s %s -1 1 1 1 1 %d 5 kn ights 1 3 0"
                     " 39 39 180 180 %d %s (0:00) %s 0 0 0" % (
                         r8, sixth[r8], third[r1], low, side, min(ply, 99999), ply // 2 + 1,
                         verbose, san))
    path = write(tmp, "long.log", ("\n".join(lines) + "\n").encode())
    rc, js, err = testsupport.run_tool("json", path)
    out = [json.loads(ln) for ln in js.decode().splitlines() if ln.strip().startswith("{")]
    plies = [len(g["moves"]) for g in out]
    # The line of ply 65,537 starts the second game from its board (its move is the cut).
    check(rc == 0 and plies == [65536, n - 65537] and "longer than 65536 plies" in err,
          "a game of %d plies: games of %s plies, %s" % (n, plies, err[:300]))


def test_move_numbers(tmp, srcs):
    """Item 4: move numbers past 100,000 (up to the board's 2^31 - 1)."""
    lines = []
    for gameno, moveno in ((30, 150000), (31, 2147483000)):
        src = srcs[0]
        clocks = (180000, 180000)
        lines.append(board_line(gameno, "m%d" % gameno, "n", src.fen, None, clocks, 0, moveno))
        lines.append(board_line(gameno, "m%d" % gameno, "n", src.plies[0][3], src.plies[0],
                                clocks, 0, moveno))
    path = write(tmp, "moveno.log", ("\n".join(lines) + "\n").encode())
    rc, fen, err = testsupport.run_tool("fen", path)
    got = [ln.split()[-1] for ln in fen.decode().splitlines()]
    check(rc == 0 and got == ["150000", "150000", "2147483000", "2147483000"],
          "move numbers 150,000 and 2,147,483,000: %s (exit %d) %s" % (got, rc, err[:200]))
    return path


def damaged(data, rnd, how):
    """A copy of a log with some of its <12> lines damaged."""
    lines = data.split(b"\n")
    own = [i for i, ln in enumerate(lines) if b"<12> " in ln]
    for i in rnd.sample(own, max(1, len(own) // 8)):
        ln = bytearray(lines[i])
        start = ln.find(b"<12> ") + 5
        if how == "flip":
            # A byte of the board fields (the 8 ranks and the side to move) changed.
            k = start + rnd.randrange(0, 8 * 9 + 1)
            if k < len(ln):
                ln[k] = rnd.choice(b"PNBRQKpnbrqk-xX 0\xff")
        elif how == "cut":
            f = bytes(ln).split(b" ")
            ln = bytearray(b" ".join(f[:rnd.randrange(1, len(f))]))
        else:  # "mix": the fields after the board from another line
            j = rnd.choice(own)
            f, g = bytes(ln).split(b" "), lines[j].split(b" ")
            ln = bytearray(b" ".join(f[:10 + rnd.randrange(0, 8)] +
                                     g[10 + rnd.randrange(0, 8):]))
        lines[i] = bytes(ln)
    return b"\n".join(lines)


def main():
    if not os.path.isdir(S12):
        sys.exit(done(skip="no real style 12 data in %s" % S12))
    srcs = t12.source_games()
    check(len(srcs) >= 100, "%d source games" % len(srcs))
    logs = []
    for sub in sorted(os.listdir(S12)):
        for name in sorted(os.listdir(os.path.join(S12, sub))):
            if name.endswith("lines.txt"):
                logs.append(os.path.join(S12, sub, name))
    check(len(logs) >= 2, "real style 12 logs: %d" % len(logs))
    rnd = random.Random(26)
    totals = [0, 0, 0]
    with tempfile.TemporaryDirectory() as tmp:
        lines, _ = t12.write_session(srcs, random.Random(20261124))
        logs.append(write(tmp, "session-writer.log", ("\n".join(lines) + "\n").encode()))
        logs.append(write(tmp, "zh.log", ("\n".join(t12.zh_log()[0]) + "\n").encode()))
        logs.append(test_names(tmp, srcs))
        logs += test_many(tmp, srcs)[:2]
        logs.append(test_move_numbers(tmp, srcs))
        test_long_game(tmp)
        for path in logs:
            n, used, named, rc = ledger(path)
            totals[0] += n
            totals[1] += used
            with open(path, "rb") as f:
                data = f.read()
            for how in ("flip", "cut", "mix"):
                for k in range(3):
                    bad = write(tmp, "damaged.log", damaged(data, rnd, how))
                    n, used, named, rc = ledger(bad, "%s, %s %d" % (os.path.basename(path), how,
                                                                      k))
                    totals[2] += n
    print("ledger: %d logs, %d <12>/<b1> lines (%d used), %d lines in damaged copies" % (
        len(logs), totals[0], totals[1], totals[2]))
    sys.exit(done())


if __name__ == "__main__":
    main()
