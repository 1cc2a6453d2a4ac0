#!/usr/bin/env python3
"""Tests of the style 12 reader (lib/formats/format-style12.c), through the Python binding and
the gamedb command.

1. Real lines (GAMEDB_REALDATA/style12: FICS sessions pasted into pychess's tests, FatICS's
   expected server output): this script's own reading of each <12> line (from the style 12
   help text and ../shared/formats/NOTES.md section 5, not from the library) must find 31
   fields or more; wherever two lines of one game (number and players) are consecutive plies,
   the earlier board plus the later line's verbose move, played by this script's own simple
   board mover, must give the later board, and the library must hold that move from that
   board; every board the library read becomes a position of one of its games.
2. Whole sessions: a session writer (below) turns the real games of the SCID real bases (as
   our SCID reader gives them: its output equals Scid's own export, tests/golden-scid.py)
   into one log the way a server sends it: four games at once, interleaved, prompts and
   timestamps, "Creating:" and "{Game N ...}" lines, millisecond and second clocks, takebacks,
   boards sent twice, lost lines, game numbers reused, chat and junk between, the last games
   without their end. The rebuilt games must equal the source games move for move, with
   their results, ratings, time controls, start positions and clocks; a lost line splits its
   game into the part before and a game from the board after, as doc/formats/style12.md says.
3. Hostile logs through the command: every line cut short, wrong field counts, boards with no
   king or too many men, moves that do not match the board, a line of 1 MiB, 100 MB of junk
   between two games: each <12>/<b1> line that cannot be used a failure naming it (exit 1),
   the other losses warnings, the good games kept, and the command's memory bounded (its peak
   resident size is measured). tests/test-style12-ledger.py checks every line of a log.
Exit 77 (skip) when the real data is absent.
"""
import os
import random
import re
import subprocess
import sys
import tempfile

import testsupport
from testsupport import check, done, TOOL

gamedb = testsupport.import_gamedb()

REAL = os.environ.get("GAMEDB_REALDATA", os.path.join(testsupport.SRCDIR, "..", "shared",
                                                        "realdata"))
S12 = os.path.join(REAL, "style12")
START = ["rnbqkbnr", "pppppppp", "--------", "--------", "--------", "--------", "PPPPPPPP",
         "RNBQKBNR"]


# ---- this script's own reading of a <12> line ------------------------------------------------

def parse12(line):
    """The fields of a <12> line (dict), or None when the line is not one."""
    m = re.search(r"(?:^|\s)<12> (.*)$", line.rstrip("\r\n"))
    if not m:
        return None
    f = m.group(1).split()
    if len(f) < 30:
        raise ValueError("%d fields" % (len(f) + 1))
    return {
        "ranks": f[0:8], "stm": f[8], "ep": int(f[9]), "castle": [int(x) for x in f[10:14]],
        "halfmove": int(f[14]), "gameno": int(f[15]), "white": f[16], "black": f[17],
        "relation": int(f[18]), "base": int(f[19]), "inc": int(f[20]),
        "wclock": int(f[23]), "bclock": int(f[24]), "moveno": int(f[25]), "verbose": f[26],
        "taken": f[27], "san": f[28],
    }


def ply_of(d):
    return (d["moveno"] - 1) * 2 + (d["stm"] == "B")


def placement(ranks):
    """FEN piece placement of 8 rank strings (rank 8 first)."""
    out = []
    for r in ranks:
        s, n = "", 0
        for c in r:
            if c == "-":
                n += 1
            else:
                s += (str(n) if n else "") + c
                n = 0
        out.append(s + (str(n) if n else ""))
    return "/".join(out)


def board_of(ranks):
    """{square name: piece letter} of 8 rank strings."""
    b = {}
    for i, r in enumerate(ranks):
        for f, c in enumerate(r):
            if c != "-":
                b["abcdefgh"[f] + str(8 - i)] = c
    return b


def play(board, verbose, white_moves):
    """This script's own board mover: the board after a verbose move (None if it cannot)."""
    b = dict(board)
    rank = "1" if white_moves else "8"
    if verbose in ("o-o", "o-o-o"):
        k = "e" + rank
        if b.get(k, "").upper() != "K":
            return None
        del b[k]
        if verbose == "o-o":
            b.pop("h" + rank, None)
            b["g" + rank], b["f" + rank] = ("K", "R") if white_moves else ("k", "r")
        else:
            b.pop("a" + rank, None)
            b["c" + rank], b["d" + rank] = ("K", "R") if white_moves else ("k", "r")
        return b
    m = re.match(r"^([PNBRQK])/([a-h][1-8])-([a-h][1-8])(?:=([NBRQ]))?$", verbose)
    if not m:
        return None
    pc, fr, to, promo = m.groups()
    piece = b.pop(fr, None)
    if piece is None or piece.upper() != pc:
        return None
    if pc == "P" and fr[0] != to[0] and to not in b:  # en passant
        b.pop(to[0] + fr[1], None)
    if promo:
        piece = promo if white_moves else promo.lower()
    b[to] = piece
    return b


# ---- reading through the library --------------------------------------------------------------

FAILURES = []  # the messages of the lines read_games() was told could not be used


def read_games(path, errors="warn"):
    """[(tags, start fen, [move events], [clock texts], [emt texts], [comments], warning)];
    the failures (lines that could not be used: GAMEDB_FAILED from next_game) in FAILURES."""
    import warnings
    games = []
    del FAILURES[:]
    with warnings.catch_warnings(record=True) as caught, \
            gamedb.open(path, format="style12", errors=errors) as r:
        warnings.simplefilter("always")
        for g in r:
            moves, clocks, emts, comments = [], [], [], []
            for ev in g.moves(fen=True, partial=True):
                if ev.type == "move":
                    moves.append(ev)
                elif ev.type == "clock":
                    clocks.append(ev.text)
                elif ev.type == "command" and ev.text.startswith("%emt"):
                    emts.append(ev.text)
                elif ev.type in ("comment_after", "comment_before"):
                    comments.append(ev.text)
            games.append((dict(g.tags), g.fen, moves, clocks, emts, comments, g.warning))
    FAILURES.extend(str(w.message) for w in caught if isinstance(w.message, gamedb.GamedbWarning))
    return games


def test_real_lines():
    files = []
    for sub in sorted(os.listdir(S12)):
        for name in sorted(os.listdir(os.path.join(S12, sub))):
            if name.endswith("lines.txt"):
                files.append(os.path.join(S12, sub, name))
    check(len(files) >= 2, "real style 12 files found in %s" % S12)
    total = pairs = pinned = 0
    firsts = set()
    for path in files:
        lines = []
        with open(path, encoding="utf-8") as f:
            for n, text in enumerate(f, 1):
                try:
                    d = parse12(text)
                except ValueError as e:
                    check(False, "%s:%d: %s" % (path, n, e))
                    continue
                if d:
                    d["text"] = text if text.endswith("\n") else text + "\n"
                    lines.append((n, d))
        total += len(lines)
        last = {}
        with tempfile.TemporaryDirectory() as tmp:
            one = os.path.join(tmp, "one.log")
            for n, d in lines:
                # The line alone: a game that starts from its board.
                with open(one, "w") as f:
                    f.write(d["text"])
                g = read_games(one)
                pos = placement(d["ranks"]) + " " + d["stm"].lower()
                check(len(g) == 1 and " ".join(g[0][1].split()[:2]) == pos,
                      "%s:%d: the line alone is a game from its board" % (path, n))
                # The initial time is in minutes: on the first board of a game both clocks
                # hold base * 60 s (the help text says seconds; the real servers' clocks
                # decide). Later boards may differ: FatICS's tests give "moretime".
                key = (d["gameno"], d["white"], d["black"], d["base"], d["inc"])
                first = key not in firsts
                firsts.add(key)
                if first and d["verbose"] == "none" and d["moveno"] == 1 and d["base"] > 0 \
                        and d["relation"] != -3:
                    ms = "." in d["taken"]
                    clock = d["wclock"] / 1000 if ms else d["wclock"]
                    if clock == d["base"] * 60:
                        pinned += 1
                    check(clock == d["base"] * 60, "%s:%d: clock %s at the start of a %d "
                          "minute game" % (path, n, clock, d["base"]))
                    check(g and g[0][0].get("TimeControl") == "%d+%d" % (d["base"] * 60, d["inc"]),
                          "%s:%d: TimeControl %s" % (path, n, g and g[0][0].get("TimeControl")))
                key = (d["gameno"], d["white"], d["black"])
                prev = last.get(key)
                last[key] = (n, d)
                if not prev or ply_of(d) != ply_of(prev[1]) + 1 or d["relation"] == -3:
                    continue
                after = play(board_of(prev[1]["ranks"]), d["verbose"], prev[1]["stm"] == "W")
                if after != board_of(d["ranks"]):
                    continue  # not the same game after all (the lines are excerpts of sessions)
                pairs += 1
                # The two lines alone: one game of one move, from the first board to the second.
                with open(one, "w") as f:
                    f.write(prev[1]["text"] + d["text"])
                g = read_games(one)
                ok = len(g) == 1 and len(g[0][2]) == 1 and g[0][6] is None
                ok = ok and " ".join(g[0][1].split()[:2]) == placement(prev[1]["ranks"]) + " " + \
                    prev[1]["stm"].lower()
                ok = ok and " ".join(g[0][2][0].fen.split()[:2]) == pos
                check(ok, "%s:%d: line %d and its move %s give this board" % (
                    path, n, prev[0], d["verbose"]))
    check(total >= 130, "%d real <12> lines read" % total)
    check(pinned >= 20, "%d real start boards pin the initial time in minutes" % pinned)
    check(pairs >= 20, "%d pairs of consecutive plies replayed" % pairs)
    print("real lines: %d boards, %d consecutive pairs replayed, %d start clocks pin minutes"
          % (total, pairs, pinned))


# ---- the session writer -----------------------------------------------------------------------

def sanitize(name, i):
    s = re.sub(r"[^A-Za-z0-9]", "", name)[:10] or "Player"
    return "%s%d" % (s, i)


def clock_text(cmd, t, ms):
    sign = "-" if t < 0 else ""
    a = abs(t)
    sec = a // 1000
    s = "%%%s %s%d:%02d:%02d" % (cmd, sign, sec // 3600, sec // 60 % 60, sec % 60)
    return s + (".%03d" % (a % 1000) if ms else "")


class Source:
    """A real game: names, result, start FEN, and per ply (san, uci, piece, fen after)."""

    def __init__(self, i, g):
        self.i = i
        self.white = sanitize(g.tags.get("White", ""), i)
        self.black = sanitize(g.tags.get("Black", ""), i)
        self.result = g.tags.get("Result", "*")
        self.fen = g.fen
        self.plies = [(ev.san, ev.uci, ev.piece, ev.fen) for ev in g.moves(fen=True)
                      if ev.type == "move" and ev.depth == 0]


def source_games():
    bases = []
    for root, _, names in os.walk(os.path.join(REAL, "scid")):
        bases += [os.path.join(root, n) for n in names if n.endswith(".si4")]
    out = []
    for base in sorted(bases):
        taken = 0
        with gamedb.open(base, errors="skip") as r:
            for g in r:
                if taken >= 120:
                    break
                if g.variant != "chess" or g.deleted:
                    continue
                s = Source(len(out), g)
                if len(s.plies) < 4 or any(p[0] == "--" for p in s.plies):
                    continue
                out.append(s)
                taken += 1
    return out


def fields_of_fen(fen):
    place, stm, castle, _ep, hm, fm = fen.split()
    ranks = []
    for r in place.split("/"):
        ranks.append("".join("-" * int(c) if c.isdigit() else c for c in r))
    return ranks, stm.upper(), castle, int(hm), int(fm)


class Session:
    """Writes the lines of a log; games[i] are the expected games (see below)."""

    def __init__(self, rnd):
        self.rnd = rnd
        self.out = []
        self.expected = {}  # (white, black) -> [expected segments]

    def board(self, prefix, gameno, white, black, fen, last, rel, base, inc, clocks, ms,
              taken):
        ranks, stm, castle, hm, fm = fields_of_fen(fen)
        flags = ["1" if c in castle else "0" for c in "KQkq"]
        ep = -1
        verbose, san = "none", "none"
        if last:
            san_, uci, piece, _ = last
            if piece == 1 and abs(int(uci[1]) - int(uci[3])) == 2:
                ep = "abcdefgh".index(uci[0])
            if san_.startswith("O-O-O"):
                verbose = "o-o-o"
            elif san_.startswith("O-O"):
                verbose = "o-o"
            else:
                verbose = "%s/%s-%s" % (" PNBRQK"[piece], uci[0:2], uci[2:4])
                if len(uci) == 5:
                    verbose += "=" + uci[4].upper()
            san = san_
        wt, bt = clocks
        if not ms:
            wt, bt = wt // 1000, bt // 1000
            tk = "(%d:%02d)" % (taken // 60000, taken // 1000 % 60)
        else:
            tk = "(%d:%02d.%03d)" % (taken // 60000, taken // 1000 % 60, taken % 1000)
        self.out.append("%s<12> %s %s %d %s %d %d %s %s %d %d %d 39 39 %d %d %d %s %s %s 0 0 0" % (
            prefix, " ".join(ranks), stm, ep, " ".join(flags), hm, gameno, white, black, rel,
            base, inc, wt, bt, fm, verbose, tk, san))


def game_script(sess, src, gameno, kind, final, rnd):
    """A generator of lines for one game; fills sess.expected[(white, black)]."""
    ms = kind % 2 == 0
    prefix = ["fics% ", "[12:0%d:3%d] " % (kind % 10, kind % 7), "", "fics% [2026-11-24 10:00] "][kind % 4]
    base, inc = [(3, 0), (5, 2), (1, 0), (15, 5)][kind % 4]
    welo, belo = 1200 + src.i, 1900 - src.i
    twice = kind % 5 == 2
    lose = kind % 7 == 3 and len(src.plies) > 8
    takeback = kind % 3 == 1 and len(src.plies) > 6 and not lose
    lost_ply = 5 if lose else None  # the board after ply 5 never arrives
    yield "Creating: %s (%d) %s (%d) rated blitz %d %d" % (src.white, welo, src.black, belo,
                                                          base, inc)
    yield "{Game %d (%s vs. %s) Creating rated blitz match.}" % (gameno, src.white, src.black)
    clocks = [base * 60000, base * 60000]
    exp_clk = []
    exp_emt = []

    def line(fen, last, taken, rel=1):
        sess.out = []
        sess.board(prefix, gameno, src.white, src.black, fen, last, rel, base, inc,
                   tuple(clocks), ms, taken)
        return sess.out[0]

    yield line(src.fen, None, 0)
    history = []  # (fen, ply tuple, clocks, taken) after each ply
    k = 0
    while k < len(src.plies):
        p = src.plies[k]
        mover = k % 2 if src.fen.split()[1] == "w" else 1 - k % 2
        taken = rnd.randrange(0, 20000) if ms else rnd.randrange(0, 20) * 1000
        clocks[mover] += inc * 1000 - taken
        history.append((p[3], p, tuple(clocks), taken))
        exp_clk.append(clock_text("clk", clocks[mover], ms))
        exp_emt.append(clock_text("emt", taken, ms))
        if k + 1 != lost_ply:
            yield line(p[3], p, taken)
            if twice:
                yield line(p[3], p, taken, rel=-1)
        if takeback and k == 5:
            # Takeback 2: the board after ply 4 again, then plies 5 and 6 once more.
            f, q, c, t = history[3]
            clocks[:] = list(c)
            yield line(f, q, t)
            for j in (4, 5):
                f, q, c, t = history[j]
                clocks[:] = list(c)
                yield line(f, q, t)
        k += 1
    result = src.result
    if not final:
        reason = {"1-0": "%s resigns" % src.black, "0-1": "%s resigns" % src.white,
                  "1/2-1/2": "Game drawn by repetition", "*": "Game aborted"}.get(result, "?")
        yield "{Game %d (%s vs. %s) %s} %s" % (gameno, src.white, src.black, reason, result)
    else:
        result = "*"
    # Expected segments.
    sans = [p[0] for p in src.plies]
    tc = "%d+%d" % (base * 60, inc)
    common = {"White": src.white, "Black": src.black, "WhiteElo": str(welo),
              "BlackElo": str(belo), "TimeControl": tc, "GameNo": str(gameno)}
    if lose:
        segs = [dict(common, Result="*", fen=src.fen, sans=sans[:lost_ply - 1],
                     clk=exp_clk[:lost_ply - 1], emt=exp_emt[:lost_ply - 1], gap=True),
                dict(common, Result=result, fen=src.plies[lost_ply][3],
                     sans=sans[lost_ply + 1:], clk=exp_clk[lost_ply + 1:],
                     emt=exp_emt[lost_ply + 1:], gap=False)]
    else:
        segs = [dict(common, Result=result, fen=src.fen, sans=sans, clk=exp_clk, emt=exp_emt,
                     gap=False)]
    sess.expected[(src.white, src.black)] = segs


JUNK = [
    "fics% ",
    "Foo tells you: look at this <12> rnbqkbnr",
    "<12> rnbqkbnr pppppppp",
    "{Game 999 (nobody vs. noone) nobody resigns} 1-0",
    "Announcement from relay: round 3 starts <12>",
    "\x1b[1mStrange\x1b[0m output \xe9t\xe9",
    "",
    "<b1> game 3 white [PNB] black []",
    "<b1> game 2 white [PX] black [] <- BX",
    "<b1> game 1 white [] black [",
]


def write_session(srcs, rnd, slots=4):
    sess = Session(rnd)
    lines = []
    queue = list(srcs)
    active = {}  # slot -> generator
    kind = 0
    while queue or active:
        for s in range(slots):
            if s not in active and queue:
                src = queue.pop(0)
                final = len(queue) < slots  # the last games never end in the log
                active[s] = game_script(sess, src, s + 1, kind, final, rnd)
                kind += 1
        s = rnd.choice(sorted(active))
        try:
            lines.append(next(active[s]))
        except StopIteration:
            del active[s]
            continue
        if rnd.random() < 0.08:
            lines.append(rnd.choice(JUNK))
    return lines, sess.expected


def fen4(fen):
    return " ".join(fen.split()[:3])


def test_sessions():
    srcs = source_games()
    check(len(srcs) >= 100, "%d source games from the real SCID bases" % len(srcs))
    rnd = random.Random(20261124)
    lines, expected = write_session(srcs, rnd)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "session.log")
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
        games = read_games(path)
        got = {}
        for tags, fen, moves, clocks, emts, comments, warning in games:
            got.setdefault((tags.get("White"), tags.get("Black")), []).append(
                (tags, fen, moves, clocks, emts, comments, warning))
        nsegs = sum(len(v) for v in expected.values())
        check(len(games) == nsegs, "%d games rebuilt, %d expected" % (len(games), nsegs))
        exact = 0
        for key, segs in expected.items():
            have = got.get(key, [])
            if not check(len(have) == len(segs), "%s: %d games, %d expected" % (key, len(have),
                                                                                len(segs))):
                continue
            for seg, (tags, fen, moves, clocks, emts, comments, warning) in zip(segs, have):
                ok = True
                for t in ("White", "Black", "Result", "WhiteElo", "BlackElo", "TimeControl",
                          "GameNo"):
                    ok &= check(tags.get(t) == seg[t], "%s: %s %r, expected %r" % (
                        key, t, tags.get(t), seg[t]))
                ok &= check(fen4(fen) == fen4(seg["fen"]), "%s: start %s, expected %s" % (
                    key, fen, seg["fen"]))
                if fen4(seg["fen"]) != fen4("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"):
                    ok &= check(tags.get("SetUp") == "1" and "FEN" in tags, "%s: SetUp/FEN" % (key,))
                ok &= check([m.san for m in moves] == seg["sans"], "%s: moves %s, expected %s" % (
                    key, [m.san for m in moves][:12], seg["sans"][:12]))
                ok &= check(clocks == seg["clk"], "%s: clocks %s, expected %s" % (
                    key, clocks[:4], seg["clk"][:4]))
                ok &= check(emts == seg["emt"], "%s: emt %s, expected %s" % (
                    key, emts[:4], seg["emt"][:4]))
                if seg["gap"]:
                    ok &= check(any("not in the log" in c for c in comments),
                                "%s: the gap is said in a comment: %s" % (key, comments))
                # Warnings here can only be about the junk lines between the boards.
                ok &= check(warning is None or warning.endswith("skipped") or
                            "skipped (and" in warning, "%s: no warning (%s)" % (key, warning))
                exact += ok
        print("sessions: %d lines, %d source games, %d games rebuilt, %d exact" % (
            len(lines), len(expected), len(games), exact))
        # The junk <12> and <b1> lines (JUNK) cannot be used: each is a failure naming it.
        junk = [n for n, ln in enumerate(lines, 1) if ln in JUNK and ln.startswith("<")]
        named = {int(m) for f in FAILURES for m in re.findall(r": line (\d+): <", f)}
        check(len(junk) > 10 and set(junk) <= named, "the junk <12>/<b1> lines are failures: "
              "%d lines, %d named" % (len(junk), len(named & set(junk))))
        # The same log from stdin, through a pipe: the same PGN as from the file.
        rc, want, err = testsupport.run_tool("pgn", path)
        check(rc == 1, "gamedb pgn on the log: exit 1 for its junk lines: %d" % rc)
        with open(path, "rb") as f:
            p = subprocess.run([TOOL, "pgn", "-"], stdin=f, capture_output=True)
        check(p.returncode == 1 and p.stdout == want,
              "gamedb pgn - (a pipe) gives what the file gives: %d %s" % (
                  p.returncode, p.stderr.decode(errors="replace")[:300]))
        with open(path, "rb") as f:
            cat = subprocess.Popen(["cat"], stdin=f, stdout=subprocess.PIPE)
            p = subprocess.run([TOOL, "json", "-"], stdin=cat.stdout, capture_output=True)
            cat.stdout.close()  # so that cat ends (SIGPIPE) if the command stopped reading
            cat.wait()
        check(p.returncode == 1 and p.stdout.count(b'"index"') == len(games),
              "gamedb json - from a pipe: %d games" % p.stdout.count(b'"index"'))
        return lines


# ---- crazyhouse and bughouse ---------------------------------------------------------------------

ZH_GAMES = os.path.join(testsupport.SRCDIR, "testdata", "style12", "zh-games.json")


def zh_split(fen):
    """(placement with "~" marks, sorted hand letters, side to move) of a FEN with holdings."""
    place, rest = fen.split("[", 1)
    hands, rest = rest.split("]", 1)
    return place, "".join(sorted(hands)), rest.split()[0]


def zh_board(gameno, white, black, fen, before, uci, base, inc):
    """A <12> line of the position fen (after uci, played in the position before)."""
    place, _, _ = zh_split(fen)
    tail = fen.split("]", 1)[1].split()
    stm, castle, hm, fm = tail[0], tail[1], int(tail[3]), int(tail[4])
    ranks = []
    for r in place.replace("~", "").split("/"):
        ranks.append("".join("-" * int(c) if c.isdigit() else c for c in r))
    flags = ["1" if c in castle else "0" for c in "KQkq"]
    ep, verbose = -1, "none"
    if uci:
        if "@" in uci:
            verbose = "%s/@@-%s" % (uci[0].upper(), uci[2:4])
        else:
            b = board_of(fields_of_fen(zh_split(before)[0].replace("~", "") + " w - - 0 1")[0])
            pc = b[uci[0:2]].upper()
            if pc == "K" and uci[0] == "e" and uci[2] in "gc":
                verbose = "o-o" if uci[2] == "g" else "o-o-o"
            else:
                verbose = "%s/%s-%s" % (pc, uci[0:2], uci[2:4])
                if len(uci) == 5:
                    verbose += "=" + uci[4].upper()
            if pc == "P" and abs(int(uci[1]) - int(uci[3])) == 2:
                ep = "abcdefgh".index(uci[0])
    return "<12> %s %s %d %s %d %d %s %s 1 %d %d 39 39 %d %d %d %s (0:01) %s 0 0 0" % (
        " ".join(ranks), stm.upper(), ep, " ".join(flags), hm, gameno, white, black, base, inc,
        base * 60, base * 60, fm, verbose, uci or "none")


def zh_b1(gameno, fen, passed=""):
    hands = zh_split(fen)[1]
    line = "<b1> game %d white [%s] black [%s]" % (
        gameno, "".join(c for c in hands if c.isupper()),
        "".join(c.upper() for c in hands if c.islower()))
    if passed:
        line += " <- %s%s" % ("W" if passed.isupper() else "B", passed.upper())
    return line


def zh_log():
    """The crazyhouse game and the bughouse pair of testdata/style12/zh-games.json (played by
    fairy-stockfish, see tests/make-zh-games.py) written as a server sends them: (lines, the
    crazyhouse game, the bughouse names, moves and FENs per board)."""
    import json
    with open(ZH_GAMES) as f:
        data = json.load(f)
    zh = data["crazyhouse"]
    lines = ["Creating: zhwhite (1500) zhblack (1600) rated crazyhouse 3 0",
             "{Game 41 (zhwhite vs. zhblack) Creating rated crazyhouse match.}",
             zh_board(41, "zhwhite", "zhblack", zh["start"], None, None, 3, 0)]
    before = zh["start"]
    for k, (uci, fen) in enumerate(zip(zh["moves"], zh["fens"])):
        board = zh_board(41, "zhwhite", "zhblack", fen, before, uci, 3, 0)
        # <b1> after its board (as the style 12 help shows it) or before it (as FatICS sends it)
        lines += [board, zh_b1(41, fen)] if k % 2 else [zh_b1(41, fen), board]
        before = fen
    lines.append("{Game 41 (zhwhite vs. zhblack) zhblack resigns} 1-0")

    # The bughouse pair: games 51 (A1 vs. A2) and 52 (B1 vs. B2); A1 and B2 are partners.
    names = [("bugA1", "bugA2"), ("bugB1", "bugB2")]
    lines += ["Creating: bugA1 (1700) bugA2 (1710) rated bughouse 2 0",
              "{Game 51 (bugA1 vs. bugA2) Creating rated bughouse match.}",
              "Creating: bugB1 (1720) bugB2 (1730) rated bughouse 2 0",
              "{Game 52 (bugB1 vs. bugB2) Creating rated bughouse match.}"]
    fens = [zh["start"], zh["start"]]
    for b in (0, 1):
        lines += [zh_board(51 + b, names[b][0], names[b][1], fens[b], None, None, 2, 0),
                  zh_b1(51 + b, fens[b])]
    bug_moves = [[], []]
    bug_fens = [[], []]
    for b, uci, after, other, passed in data["bughouse"]:
        lines.append(zh_board(51 + b, names[b][0], names[b][1], after, fens[b], uci, 2, 0))
        lines.append(zh_b1(51 + b, after))
        fens[b], fens[1 - b] = after, other
        if passed:
            lines.append(zh_b1(52 - b, other, passed))
        bug_moves[b].append(uci)
        bug_fens[b].append(after)
    lines += ["{Game 51 (bugA1 vs. bugA2) bugA1 resigns} 0-1",
              "{Game 52 (bugB1 vs. bugB2) bugB2 resigns} 1-0"]
    return lines, zh, names, bug_moves, bug_fens


def test_zh_sessions():
    """A crazyhouse game and a bughouse pair written as a server sends them (zh_log()),
    rebuilt."""
    lines, zh, names, bug_moves, bug_fens = zh_log()
    # The real FatICS lines, <b1> lines among them, follow: they must not disturb the games.
    fatics = os.path.join(S12, "fatics", "fatics_style12_lines.txt")
    with open(fatics, encoding="utf-8", errors="replace") as f:
        real = [l.rstrip("\r\n") for l in f]
    check(sum(1 for l in real if "<b1>" in l) >= 3, "the FatICS lines hold <b1> lines")

    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "zh.log")
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(lines + real) + "\n")
        games = read_games(path)
        with gamedb.open(path, format="style12", errors="warn") as r:
            variants = {(g.tags.get("White"), g.tags.get("Black")): g.variant for g in r}
        # The command: the variant in JSON, the tag and "P@e4" drops in PGN.
        # The FatICS <b1> lines of a game not announced as crazyhouse or bughouse cannot be
        # used: failures naming them, exit 1.
        b1s = [len(lines) + n for n, ln in enumerate(real, 1) if ln.startswith("<b1>")]
        named = [int(m) for f in FAILURES for m in re.findall(r": line (\d+): <b1>", f)]
        check(named == b1s, "the FatICS <b1> lines are failures: %s, named %s" % (b1s, named))
        rc, js, err = testsupport.run_tool("json", path)
        check(rc == 1 and b'"variant": "crazyhouse"' in js and b'"variant": "bughouse"' in js,
              "gamedb json: the crazyhouse and bughouse variants (%d %s)" % (rc, err[:200]))
        rc, pgn, err = testsupport.run_tool("pgn", path)
        check(rc == 1 and b'[Variant "crazyhouse"]' in pgn and b'[BughousePartner "52 (bugB1 vs. bugB2)"]'
              in pgn and re.search(rb"\b[PNBRQ]@[a-h][1-8]", pgn) is not None,
              "gamedb pgn: variant and partner tags, drops written P@e4 (%d %s)" % (rc, err[:200]))
    byname = {}
    for tags, fen, moves, clocks, emts, comments, warning in games:
        byname.setdefault((tags.get("White"), tags.get("Black")), []).append(
            (tags, fen, moves, warning))

    # crazyhouse: every move, every position (board, promoted men, hands) as fairy-stockfish's
    have = byname.get(("zhwhite", "zhblack"), [])
    if check(len(have) == 1, "crazyhouse: one game, %d" % len(have)):
        tags, fen, moves, warning = have[0]
        check(tags.get("Variant") == "crazyhouse" and tags.get("Result") == "1-0",
              "crazyhouse: tags %s" % tags)
        check(variants[("zhwhite", "zhblack")] == "crazyhouse", "crazyhouse: variant")
        check(warning is None, "crazyhouse: no warning (%s)" % warning)
        check([m.uci for m in moves] == zh["moves"], "crazyhouse: moves %s, expected %s" % (
            [m.uci for m in moves][:20], zh["moves"][:20]))
        check(all(zh_split(m.fen) == zh_split(f) for m, f in zip(moves, zh["fens"])),
              "crazyhouse: every position, its promoted men and its hands as fairy-stockfish's")
        drops = [m for m in moves if "@" in m.uci]
        check(drops and all(m.from_square is None and m.san.startswith(m.uci[0].upper() + "@")
                            and m.piece for m in drops), "crazyhouse: drops in the events")
        check(any("=" in m.san for m in moves), "crazyhouse: the game has a promotion")
    # bughouse: each board a game, its moves, its boards, its partner named
    for b in (0, 1):
        key = names[b]
        have = byname.get(key, [])
        if not check(len(have) == 1, "bughouse board %d: one game, %d" % (b, len(have))):
            continue
        tags, fen, moves, warning = have[0]
        check(variants[key] == "bughouse" and tags.get("Variant") == "bughouse",
              "bughouse board %d: variant" % b)
        check(warning is None, "bughouse board %d: no warning (%s)" % (b, warning))
        check([m.uci for m in moves] == bug_moves[b], "bughouse board %d: moves %s, expected %s"
              % (b, [m.uci for m in moves][:20], bug_moves[b][:20]))
        check(all(zh_split(m.fen)[0].replace("~", "") == zh_split(f)[0].replace("~", "")
                  for m, f in zip(moves, bug_fens[b])), "bughouse board %d: every board" % b)
        # The men in hand after each move, those passed from the partner's board included,
        # as fairy-stockfish's bughouse game has them (the <b1> lines give them to the reader).
        bad = [(i, m.fen, f) for i, (m, f) in enumerate(zip(moves, bug_fens[b]))
               if zh_split(m.fen)[1] != zh_split(f)[1]]
        check(not bad and sum(1 for f in bug_fens[b] if zh_split(f)[1]) >= 5,
              "bughouse board %d: the hands after every move (%d differ: %s)" % (
                  b, len(bad), bad[:2]))
        other = names[1 - b]
        check(tags.get("BughousePartner") == "%d (%s vs. %s)" % (52 - b, other[0], other[1]),
              "bughouse board %d: partner tag %r" % (b, tags.get("BughousePartner")))
    # Holdings that are not what the moves give, a passed man not in the hand it names, <b1>
    # lines that are not: warnings, the moves kept.
    bad = list(lines[:3 + 2 * 12])
    k = next(i for i in range(len(bad) - 1, 0, -1) if bad[i].startswith("<b1>"))
    bad[k] = "<b1> game 41 white [QQQ] black []"
    bad += ["<b1> game 41 white [PX] black []", "<b1> game", "<b1> game 41 white [P] black [" +
            "Q" * 3000, "<b1> game 41 white [] black [] <- BN", "<b1> game 41 white [] black [] <-"]
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "zh-bad.log")
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(bad) + "\n")
        got = read_games(path)
    check(len(got) == 1 and [m.uci for m in got[0][2]] == zh["moves"][:12],
          "bad holdings: the game and its 12 moves kept")
    check(got and got[0][6] and "holdings" in got[0][6], "bad holdings: a warning (%s)" % (
        got and got[0][6],))
    # The last <b1> of a game matches no board: said when the game ends.
    last = lines[:3 + 2 * 2] + ["<b1> game 41 white [Q] black []",
                                "{Game 41 (zhwhite vs. zhblack) zhblack resigns} 1-0"]
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "zh-last.log")
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(last) + "\n")
        got = read_games(path)
    check(len(got) == 1 and got[0][6] and "holdings (white [Q] black [])" in got[0][6],
          "a last <b1> line that matches nothing: a warning (%s)" % (got and got[0][6],))
    print("crazyhouse/bughouse: %d plies, %d + %d bughouse plies, %d lines" % (
        len(zh["moves"]), len(bug_moves[0]), len(bug_moves[1]), len(lines)))


# ---- hostile logs -----------------------------------------------------------------------------

GOOD = [
    "<12> rnbqkbnr pppppppp -------- -------- -------- -------- PPPPPPPP RNBQKBNR W -1 1 1 1 1 0 7 alice bob 1 3 0 39 39 180 180 1 none (0:00) none 0 0 0",
    "<12> rnbqkbnr pppppppp -------- -------- ----P--- -------- PPPP-PPP RNBQKBNR B 4 1 1 1 1 0 7 alice bob -1 3 0 39 39 179 180 1 P/e2-e4 (0:01) e4 0 0 0",
    "<12> rnbqkbnr pppp-ppp -------- ----p--- ----P--- -------- PPPP-PPP RNBQKBNR W 4 1 1 1 1 0 7 alice bob 1 3 0 39 39 179 178 2 P/e7-e5 (0:02) e5 0 0 0",
    "{Game 7 (alice vs. bob) bob resigns} 1-0",
]


def run_tool_rss(*args):
    """Runs the command; (exit status, stdout, stderr, its peak resident size in KiB, or None
    when GNU time is not installed). Measured by /usr/bin/time, whose child is forked from it:
    a child forked (or vforked) from this Python would report Python's own peak (197 MB with
    the ASan runtime), since Linux keeps the peak across exec."""
    timer = "/usr/bin/time" if os.access("/usr/bin/time", os.X_OK) else None
    cmd = ([timer, "-f", "MAXRSS %M"] if timer else []) + [TOOL, *args]
    p = subprocess.run(cmd, capture_output=True, stdin=subprocess.DEVNULL)
    err = p.stderr.decode("utf-8", "replace")
    rss = None
    if timer:
        m = re.search(r"MAXRSS (\d+)\s*$", err)
        rss = int(m.group(1)) if m else None
        err = err[:m.start()] if m else err
        rc = p.returncode
    else:
        rc = p.returncode
    return rc, p.stdout, err, rss


def write(tmp, name, text):
    path = os.path.join(tmp, name)
    with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
        f.write(text)
    return path


def test_hostile(session_lines):
    with tempfile.TemporaryDirectory() as tmp:
        # Wrong field counts and bad fields: a failure (the line is not used) naming the line
        # and the field; the game goes on.
        bad = GOOD[0].split()
        cases = {
            "short": " ".join(bad[:20]),
            "nine-queens-and-pawns": GOOD[0].replace("RNBQKBNR W", "QQQQKQQQ W").replace(
                "-------- -------- -------- --------", "QQ------ -------- -------- --------"),
            "no-king": GOOD[0].replace("rnbqkbnr", "rnbq-bnr"),
            "bad-side": GOOD[0].replace(" W -1 ", " X -1 "),
            "bad-square": GOOD[0].replace("pppppppp", "ppppzppp"),
        }
        for name, text in cases.items():
            path = write(tmp, name + ".log", "\n".join([text] + GOOD) + "\n")
            games = read_games(path)
            check(len(games) == 1 and [m.san for m in games[0][2]] == ["e4", "e5"],
                  "%s: the good game is kept" % name)
            check(len(FAILURES) == 1 and ": line 1: " in FAILURES[0] and games[0][6] is None,
                  "%s: a failure naming line 1: %s" % (name, FAILURES))
            path2 = write(tmp, name + "-mid.log", "\n".join(GOOD[:2] + [text] + GOOD[2:]) + "\n")
            rc, out, err = testsupport.run_tool("pgn", path2)
            check(rc == 1 and b"1.e4" in out and b"e5" in out and ": line 3: " in err,
                  "%s: in the middle of a game: exit 1, the line named, the game whole (%d %s)"
                  % (name, rc, err))
        g = read_games(write(tmp, "short2.log", " ".join(bad[:20]) + "\n" + "\n".join(GOOD) + "\n"))
        # 20 fields: "<12>" and 19 after it; the help's 21st field, the initial time, is missing.
        check(FAILURES and "field 21 (initial time) is missing" in FAILURES[0],
              "wrong field count names the missing field: %s" % FAILURES)
        # Nine queens and no pawns is a position: a game of its own from it.
        nine = ("<12> -------k -------- -------- -------- Q------- QQ------ Q-QQ---- -QQQK--- W -1 0 0 0"
                " 0 0 8 carol dave 1 3 0 39 39 180 180 1 none (0:00) none 0 0 0")
        g = read_games(write(tmp, "nine.log", nine + "\n"))
        check(len(g) == 1 and g[0][0].get("FEN", "").startswith("7k/8/8/8/Q7/QQ6/Q1QQ4/1QQQK3 w"),
              "nine queens: a game from that board (%s)" % (g and g[0][0].get("FEN")))
        # A move that does not match the board: the move that gives the board, with a warning.
        mism = list(GOOD)
        mism[1] = mism[1].replace("P/e2-e4", "P/d2-d4")
        g = read_games(write(tmp, "mismatch.log", "\n".join(mism) + "\n"))
        check(len(g) == 1 and [m.san for m in g[0][2]] == ["e4", "e5"] and g[0][6] and
              "line 2" in g[0][6], "mismatch: the board wins, with a warning: %s" % (g and g[0][6]))
        # A board no legal move reaches: the game is cut there, with a warning.
        jump = list(GOOD)
        jump[2] = jump[2].replace("PPPP-PPP RNBQKBNR W", "PPPP-PPP RNBQKBN- W")
        g = read_games(write(tmp, "jump.log", "\n".join(jump) + "\n"))
        check(len(g) == 2 and [m.san for m in g[0][2]] == ["e4"] and g[0][6] and
              "line 3" in g[0][6] and g[1][0].get("Result") == "1-0",
              "no move gives the board: two games (%s)" % ([x[0].get("Result") for x in g],))
        # The reason of a game's end is server text: bytes that are not UTF-8 are CP1252.
        enc = list(GOOD)
        enc[3] = "{Game 7 (alice vs. bob) bob r\udce9signe} 1-0"
        g = read_games(write(tmp, "cp1252.log", "\n".join(enc) + "\n"))
        check(len(g) == 1 and g[0][5] == ["bob r\u00e9signe"], "reason in CP1252: %s" % (
            g and g[0][5]))
        # Every line cut short at a random point: no crash, valid output, exit 0 or 1.
        rnd = random.Random(5)
        cut = [ln[:rnd.randrange(0, len(ln) + 1)] for ln in session_lines[:4000]]
        path = write(tmp, "cut.log", "\n".join(cut) + "\n")
        rc, out, err, _ = run_tool_rss("pgn", path)
        check(rc in (0, 1), "cut lines: exit %d %s" % (rc, err[-300:]))
        rc, out, err, _ = run_tool_rss("json", path)
        check(rc in (0, 1), "cut lines (json): exit %d %s" % (rc, err[-300:]))
        # A line of 1 MiB between the boards: skipped with a warning.
        path = write(tmp, "long.log", GOOD[0] + "\n" + "<12> " + "x" * (1 << 20) + "\n" +
                     "\n".join(GOOD[1:]) + "\n")
        g = read_games(path)
        check(len(g) == 1 and [m.san for m in g[0][2]] == ["e4", "e5"] and FAILURES and
              "line 2: a <12> or <b1> line longer than" in FAILURES[0],
              "1 MiB line: skipped, a failure (%s)" % FAILURES)
        # 100 MB of junk between two games: both read, memory bounded.
        path = os.path.join(tmp, "junk.log")
        junk_line = ("fics% Foo(C) kibitzes: <12> not a board " * 3)[:100] + "\n"
        block = junk_line * ((1 << 20) // len(junk_line) + 1)
        with open(path, "w") as f:
            f.write("\n".join(GOOD[:3]) + "\n")
            for _ in range(100 * (1 << 20) // len(block)):
                f.write(block)
            f.write("\n".join(g.replace(" 7 alice bob", " 9 carol dave").replace(
                "Game 7 (alice vs. bob)", "Game 9 (carol vs. dave)") for g in GOOD) + "\n")
        size = os.path.getsize(path)
        rc, out, err, rss = run_tool_rss("pgn", path)
        check(rc == 0 and out.count(b"[White ") == 2,
              "junk: both games (%d, %d) %s" % (rc, out.count(b"[White "), err[-300:]))
        if rss is None:
            print("hostile: %d MB of junk read (no /usr/bin/time: memory not measured)" % (
                size >> 20))
        else:
            # The command's own peak: a few MiB (about 15 MiB under ASan), whatever the log.
            check(rss < 40 * 1024, "peak memory %d KiB for a %d MB log" % (rss, size >> 20))
            print("hostile: %d MB of junk read with a peak of %d KiB" % (size >> 20, rss))


def main():
    if not os.path.isdir(S12):
        sys.exit(done(skip="no real style 12 data in %s" % S12))
    test_real_lines()
    lines = test_sessions()
    test_zh_sessions()
    test_hostile(lines)
    sys.exit(done())


if __name__ == "__main__":
    main()
