# SPDX-License-Identifier: LGPL-2.1-or-later
"""gamedb search, tree and --where (issue 30), without Scid (test-tree-scid.py has Scid's answers):

1. Scan on every real base of every format (SCID si3/si4/si5, ChessBase cbh/cbv/cbz, XQF,
   style 12 logs; chess, xiangqi, crazyhouse/bughouse): for 20 positions taken from the base's
   own games (gamedb fen), `gamedb tree --json` exits as `gamedb json` does on the base (no new
   failure), and its numbers equal what this script counts from `gamedb fen`'s lines (another
   path through the library: the move iterator and the FEN writer): the games reaching the
   position (each once, at its first arrival), how many end there, and how the others split
   by the next position.
2. --where as its documentation (gamedb_query_add_where(), gamedb.1) describes it, on the
   tags of a real base (tactics.si4, whose dates, players and Elos vary): the games `gamedb
   json --where ...` writes are those this script's reading of the description selects, and
   some cases spelled out.
3. Hostile --fen, --moves and --where: a clear message and exit status 2, never a crash.
"""
import collections
import glob
import json
import os
import sys

from testsupport import check, done, eq, run_tool

REALDATA = os.environ.get("GAMEDB_REALDATA", "")


def board(fen):
    """The men and the side to move of a FEN (holdings and promoted marks dropped: the
    match compares the board only, as Scid)."""
    f = fen.split()
    placement = f[0].split("[")[0].replace("~", "")
    if placement.count("/") == 8:  # crazyhouse holdings as a ninth rank
        placement = placement.rsplit("/", 1)[0]
    return placement + " " + f[1]


def fen_lines(bases):
    rc, out, _ = run_tool("fen", "--include-deleted", *bases)
    games = collections.defaultdict(list)
    for line in out.decode("utf-8", "replace").splitlines():
        parts = line.split("\t")
        if len(parts) >= 3:
            games[parts[0]].append(parts[2])
    return rc, games


def expected(games, target):
    total = ends = 0
    nexts = collections.Counter()
    for name, fens in games.items():
        # fen numbers games per base from 1; several bases: keys repeat, so keep them apart
        for k, fen in enumerate(fens):
            if board(fen) == target:
                total += 1
                if k + 1 == len(fens):
                    ends += 1
                else:
                    nexts[board(fens[k + 1])] += 1
                break
    return total, ends, sorted(nexts.values())


def scan_all():
    groups = []
    for pat in ("scid/**/*.si4", "scid/**/*.si3", "scid5/**/*.si5", "chessbase/**/*.cbh",
                "chessbase/**/*.cbv", "chessbase/**/*.cbz", "style12/**/*.txt"):
        groups += [[p] for p in sorted(glob.glob(os.path.join(REALDATA, pat), recursive=True))]
    xqf = sorted(glob.glob(os.path.join(REALDATA, "xqf/**/*.xqf"), recursive=True))
    if xqf:
        groups.append(xqf)  # one tree over every XQF game
    nbases = npos = 0
    for bases in groups:
        what = bases[0] if len(bases) == 1 else "%d XQF files" % len(bases)
        jrc, _, _ = run_tool("json", "--include-deleted", "-o", os.devnull, *bases)
        frc, games = fen_lines(bases) if len(bases) == 1 else (None, None)
        if games is None:  # several bases: fen numbers each base's games from 1 again
            games = {}
            for b in bases:
                _, g = fen_lines([b])
                for k, v in g.items():
                    games[b + "#" + k] = v
        if not games:
            continue
        nbases += 1
        allpos = [(name, k) for name in sorted(games) for k in range(len(games[name]))]
        step = max(1, len(allpos) // 20)
        for name, k in allpos[::step][:20]:
            fen = games[name][k]
            rc, out, err = run_tool("tree", "--json", "--include-deleted", "--fen", fen, *bases)
            if not eq(rc, jrc, "%s: tree --fen %r exits as json does (%s)" % (what, fen, err.strip())):
                continue
            rows = [json.loads(line) for line in out.decode().splitlines()]
            total, ends, splits = expected(games, board(fen))
            got_total = sum(r["games"] for r in rows)
            got_ends = sum(r["games"] for r in rows if r["san"] is None)
            got_splits = sorted(r["games"] for r in rows if r["san"] is not None)
            eq((got_total, got_ends, got_splits), (total, ends, splits),
               "%s: tree of %s (games, ending there, split by move)" % (what, fen))
            npos += 1
    print("%d bases, %d positions" % (nbases, npos))
    check(nbases >= 10 and npos >= 200, "enough bases and positions (%d, %d)" % (nbases, npos))


# ---- --where, from its description -----------------------------------------------------

def parse_where(expr):
    for op in ("<>", "!=", "<=", ">=", "=", "<", ">", "~"):
        tag, sep, value = expr.partition(op)
        if sep and tag.strip().isidentifier():
            return tag.strip(), op, value.strip().strip('"')
    raise ValueError(expr)


def date_cmp(a, b):
    """Field by field over the fields b gives; None when one to compare is unknown."""
    fa, fb = a.split("."), b.split(".")
    for k, y in enumerate(fb):
        if k >= len(fa) or not fa[k].isdigit() or not y.isdigit():
            return None
        if int(fa[k]) != int(y):
            return -1 if int(fa[k]) < int(y) else 1
    return 0


def whole(s):
    t = s[1:] if s[:1] in "+-" else s
    return t.isdigit()


def passes(tags, expr):
    tag, op, value = parse_where(expr)
    if tag == "Player":  # White or Black; not equal: neither is
        w = value_passes(tags.get("White"), "White", op, value)
        b = value_passes(tags.get("Black"), "Black", op, value)
        return (w and b) if op in ("<>", "!=") else (w or b)
    return value_passes(tags.get(tag), tag, op, value)


def value_passes(v, tag, op, value):
    if v is None:
        return op in ("<>", "!=")
    if op == "~":
        return value.lower() in v.lower()
    if tag in ("Date", "EventDate", "UTCDate"):
        c = date_cmp(v, value)
        if c is None:
            return False
    elif whole(v) and whole(value):
        c = (int(v) > int(value)) - (int(v) < int(value))
    else:
        c = (v.encode() > value.encode()) - (v.encode() < value.encode())
    return {"=": c == 0, "<>": c != 0, "!=": c != 0, "<": c < 0, "<=": c <= 0, ">": c > 0,
            ">=": c >= 0}[op]


def where_tests():
    base = os.path.join(REALDATA, "scid/scidvspc-modern/si4/tactics/tactics.si4")
    rc, out, _ = run_tool("json", "--include-deleted", base)
    games = [json.loads(line) for line in out.decode().splitlines()]
    check(len(games) == 928, "tactics.si4: 928 games (%d)" % len(games))
    exprs = ["Date>=1995", "Date<1970", "Date=1981", "Date=1981.??", "Date<>1981", "Date>1990.06",
             "White~fischer", "White=Fischer", "Black~AN", "Player~Tal", "Player<>Tal, M",
             "Result=1-0", "Result!=1-0", "WhiteElo>=2600", "WhiteElo<2000", "ECO>=B90",
             "ECO=C", "Site~solved", 'Event="?"', "Round<>?", "Annotator~T2", "Nosuchtag=1",
             "Nosuchtag<>1", "PlyCount>10", "PlyCount<=3", " White ~ Karpov "]
    for expr in exprs:
        want = [g["index"] for g in games if passes(g["tags"], expr.strip())]
        rc, out, err = run_tool("json", "--include-deleted", "--where", expr, base)
        got = [json.loads(line)["index"] for line in out.decode().splitlines()]
        eq((rc, got), (0, want), "--where %r selects the games the description says" % expr)
    # Spelled out: an unknown year never compares; a year alone is the whole year.
    tags = {"Date": "1995.??.??"}
    check(value_passes("1995.??.??", "Date", ">=", "1995"), "1995.??.?? >= 1995")
    check(not value_passes("1994.12.31", "Date", ">=", "1995"), "1994.12.31 < 1995")
    check(not value_passes("????.??.??", "Date", ">=", "1900"), "unknown year never passes")
    check(not value_passes("????.??.??", "Date", "<>", "1900"), "unknown year not even <>")
    check(not value_passes(tags["Date"], "Date", "=", "1995.06"), "unknown month never equal")
    # Two filters: both must pass; with a position: both.
    rc, out, _ = run_tool("json", "--include-deleted", "--where", "Date>=1980", "--where",
                          "Date<1982", base)
    got = [json.loads(line)["index"] for line in out.decode().splitlines()]
    want = [g["index"] for g in games if passes(g["tags"], "Date>=1980") and
            passes(g["tags"], "Date<1982")]
    eq(got, want, "two --where: both pass")
    check(len(want) > 50, "the two filters leave games (%d)" % len(want))
    # The same filter through every game-writing command, one job and two.
    for cmd in ("pgn", "fen", "uci"):
        for jobs in ("1", "2"):
            rc, out, _ = run_tool(cmd, "--jobs", jobs, "--where", "White~Fischer", base)
            n = out.decode().count("[Event ") if cmd == "pgn" else (
                len({l.split("\t")[0] for l in out.decode().splitlines()}) if cmd == "fen"
                else out.decode().count("\n"))
            eq(n, len([g for g in games if passes(g["tags"], "White~Fischer")]),
               "%s --jobs %s --where White~Fischer" % (cmd, jobs))
    # search = the games reaching a position that pass the filters, as json and as pgn
    rc, out, _ = run_tool("search", "--include-deleted", "--fen",
                          games[0]["fen"], "--where", "Result=1-0", base)
    got = [json.loads(line)["index"] for line in out.decode().splitlines()]
    check(rc == 0 and 0 in got, "search finds game 1 at its own start position")
    rc, pgn, _ = run_tool("search", "--pgn", "--include-deleted", "--fen", games[0]["fen"], base)
    check(rc == 0 and pgn.decode().count("[Event ") >= len(got), "search --pgn writes PGN")


def hostile():
    base = os.path.join(REALDATA, "scid/scidtopgn/five/five.si4")
    cases = [
        (["tree", "--fen", "", base], "FEN"),
        (["tree", "--fen", "not a fen at all", base], "FEN"),
        (["tree", "--fen", "9/8/8/8/8/8/8/8 w - - 0 1", base], "FEN"),
        (["tree", "--fen", "kkk5/8/8/8/8/8/8/K7 w - - 0 1", base], "FEN"),
        (["tree", "--fen", "8/8/8/8/8/8/8/8 w - - 0 1", base], "FEN"),
        (["tree", "--moves", "e4 e4", base], "move 2 \"e4\""),
        (["tree", "--moves", "Nf9", base], "move 1 \"Nf9\""),
        (["tree", "--moves", "e4 " + "x" * 5000, base], "longer than"),
        (["tree", "--moves", "e4 " * 20000, base], "move 2"),
        (["tree", "--moves", "\xff\xfe", base], "move 1"),
        (["tree", base], "give the position"),
        (["search", base], "give a position"),
        (["pgn", "--where", "", base], "--where"),
        (["pgn", "--where", "White", base], "--where"),
        (["pgn", "--where", "=Carlsen", base], "--where"),
        (["pgn", "--where", "Date>=", base], "--where"),
        (["pgn", "--where", "W" * 100 + "=1", base], "--where"),
        (["json", "--where", "Whi te=1", base], "--where"),
    ]
    for args, words in cases:
        rc, out, err = run_tool(*args)
        eq(rc, 2, "%s: exit status 2" % (" ".join(a[:40] for a in args[:-1])))
        check(words in err and err.startswith("gamedb: "),
              "%s: the message says what (%r in %r)" % (args[:-1][:2], words, err[:200]))
        check(out == b"", "%s: nothing written" % args[:2])


def fen_flag_kept():
    """--fen is json's flag (each position's FEN) and, for search and tree, a FEN: for the other
    commands it stays the flag it was, never taking the database as its FEN."""
    base = os.path.join(REALDATA, "scid/scidtopgn/five/five.si4")
    for cmd in ("pgn", "json", "fen"):
        rc, out, err = run_tool(cmd, "--fen", base)
        check(rc == 0 and out and not err, "%s --fen DB: DB is read (%d, %r)" % (cmd, rc, err))
    rc, out, _ = run_tool("json", "--fen", base)
    check(b'"fen":' in out.split(b"\n")[0], "json --fen adds the FEN of each position")


def main():
    if not os.path.isdir(os.path.join(REALDATA, "scid")):
        return done("no real data (set GAMEDB_REALDATA)")
    scan_all()
    where_tests()
    hostile()
    fen_flag_kept()
    return done()


if __name__ == "__main__":
    sys.exit(main())
