#!/usr/bin/env python3
# libgamedb - the Python binding's walk of a base against the same walk in C and python-chess.
#
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Issue 32's measure of the Python binding: the first N games (1,500) of a ChessBase base
(TWIC 1134 by default) read with every tag, every move's SAN and every comment, timed as CPU
seconds of the walk, in rounds that alternate the rows so that a burst of load falls on all of
them alike; medians of the rounds, and ratios. The rows:

  (a) old path: ``for ev in gamedb.MoveIterator(g, 0)``, the per-event iterator (about ten
      calls through ctypes per move), the path ``Game.moves()`` took before the packed game;
  (b) fast path: ``for ev in g.moves()`` (the game packed in one call, gamedb_game_write_packed);
  (b') ``g.to_dict()`` (the library's JSON writer and Python's json);
  (b'') columns: ``m = g.moves()`` and ``m.column(...)`` of the events' SAN (None where an
      event is not a move: what counts the moves), UCI, squares and texts (the comments):
      lists made without an Event object per event; it reads what the C walk reads;
  (c) C: the same walk through the C API (bench-walk, built by bench/meson.build);
  (d) python-chess parsing the same games as PGN (``gamedb pgn`` of them), with each move's
      SAN and comment: skipped when ``import chess.pgn`` fails (put a checkout of
      niklasf/python-chess on PYTHONPATH for this script only).

  GAMEDB_LIBRARY=build-rel/lib/libgamedb.so PYTHONPATH=python:/tmp/python-chess \\
  python3 bench/python-walk.py --build build-rel [--base DB] [--games 1500] [--rounds 7]

(the TWIC base: antoyo/uncbv's tests/twic1134/, fetched, not committed; or $GAMEDB_TWIC)

Exit 77 (skipped) without the base. The table is markdown, for bench/README.md.
"""

import argparse
import gc
import itertools
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
# The base when --base is not given: $GAMEDB_TWIC, else where the real data would hold it.
DEFAULT_BASES = [
    os.environ.get("GAMEDB_TWIC", ""),
    os.path.join(HERE, "..", "..", "shared", "realdata", "chessbase", "twic1134", "twic1134.cbh"),
]


def first_games(gamedb, base, n):
    """The first n games of base, read as a program would (the reader open meanwhile)."""
    with gamedb.open(base) as r:
        yield from itertools.islice(r, n)


def walk_events(gamedb, base, n, events):
    """Each game's tags, then every event of events(game): a move's SAN, a comment's text."""
    games = moves = 0
    for g in first_games(gamedb, base, n):
        games += 1
        g.tags
        for ev in events(g):
            if ev.type == "move":
                ev.san
                moves += 1
            elif ev.type == "comment_before" or ev.type == "comment_after":
                ev.text
    return games, moves


def walk_old(gamedb, base, n):
    return walk_events(gamedb, base, n, lambda g: gamedb.MoveIterator(g, 0))


def walk_fast(gamedb, base, n):
    return walk_events(gamedb, base, n, lambda g: g.moves())


def walk_cols(gamedb, base, n):
    games = moves = 0
    for g in first_games(gamedb, base, n):
        games += 1
        g.tags
        m = g.moves()
        column = m.column
        sans = column("san")  # None on the events that are not moves
        moves += len(sans) - sans.count(None)
        column("uci")
        column("from_square")
        column("to_square")
        column("text")
    return games, moves


def walk_dict(gamedb, base, n):
    games = moves = 0
    for g in first_games(gamedb, base, n):
        games += 1
        d = g.to_dict()
        d["tags"]
        stack = [d["moves"]]
        while stack:
            for m in stack.pop():
                m["san"]
                moves += 1
                m.get("comment")
                for v in m.get("variations", ()):
                    stack.append(v)
    return games, moves


def walk_chess(chess_pgn, pgn_path, n):
    games = moves = 0
    # python-chess 1.x: node.comment (a str); later versions: node.comments (a list)
    comment = "comments" if "self.comments" in open(chess_pgn.__file__).read() else "comment"
    with open(pgn_path, encoding="utf-8") as f:
        while games < n:
            game = chess_pgn.read_game(f)
            if game is None:
                break
            games += 1
            dict(game.headers)
            getattr(game, comment)
            # Each move's SAN from a board carried along (node.san() would replay the game
            # from its start for every move): push, walk the node's lines, pop.
            board = game.board()
            stack = [(game, 0)]
            while stack:
                node, i = stack.pop()
                if i < len(node.variations):
                    child = node.variations[i]
                    stack.append((node, i + 1))
                    board.san(child.move)
                    getattr(child, comment)
                    moves += 1
                    board.push(child.move)
                    stack.append((child, 0))
                elif node is not game:
                    board.pop()
    return games, moves


def timed(fn, *args):
    gc.collect()
    t = time.process_time()
    result = fn(*args)
    return time.process_time() - t, result


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default=os.path.join(HERE, "..", "build-rel"))
    ap.add_argument("--base")
    ap.add_argument("--games", type=int, default=1500)
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--rows", default="a,b,b2,b3,d",
                    help="the Python rows to time (C is always timed), e.g. b,b3")
    args = ap.parse_args()
    wanted = set(args.rows.split(",")) | {"b"}  # the ratios' reference
    base = args.base or next((b for b in DEFAULT_BASES if b and os.path.exists(b)), None)
    if not base or not os.path.exists(base):
        print("python-walk: no base (TWIC 1134: antoyo/uncbv tests/twic1134); skipped")
        return 77
    os.environ.setdefault("GAMEDB_LIBRARY", os.path.join(args.build, "lib", "libgamedb.so"))
    sys.path.insert(0, os.path.join(HERE, "..", "python"))
    import gamedb
    try:
        import chess.pgn as chess_pgn
    except ImportError:
        chess_pgn = None
    tool = os.path.join(args.build, "tools", "gamedb")
    walker = os.path.join(args.build, "bench", "bench-walk")
    rows = {"a": [], "b": [], "b2": [], "b3": [], "c": [], "d": []}
    counts = {}
    with tempfile.TemporaryDirectory() as tmp:
        pgn_path = os.path.join(tmp, "games.pgn")
        if chess_pgn is not None:
            with open(pgn_path, "wb") as out:
                subprocess.run([tool, "pgn", "--range", "1-%d" % args.games, base],
                               stdout=out, check=True)
        for _ in range(args.rounds):
            for key, fn, fargs in (("a", walk_old, (gamedb, base, args.games)),
                                   ("b", walk_fast, (gamedb, base, args.games)),
                                   ("b2", walk_dict, (gamedb, base, args.games)),
                                   ("b3", walk_cols, (gamedb, base, args.games))):
                if key not in wanted:
                    continue
                dt, counts[key] = timed(fn, *fargs)
                rows[key].append(dt)
            out = subprocess.run([walker, "--games", str(args.games), base], check=True,
                                 capture_output=True, text=True).stdout
            rows["c"].append(float(out.split(": ")[1].split(" s")[0]))
            counts["c"] = tuple(int(w) for w in out.replace(",", "").split()[4:7:2])
            if chess_pgn is not None and "d" in wanted:
                dt, counts["d"] = timed(walk_chess, chess_pgn, pgn_path, args.games)
                rows["d"].append(dt)
    med = {k: statistics.median(v) for k, v in rows.items() if v}
    names = {
        "a": "(a) Python, old path: per-event iterator (`MoveIterator(g, 0)`)",
        "b": "(b) Python, fast path: `for ev in g.moves()` (packed game)",
        "b2": "(b') Python, `g.to_dict()` (JSON writer + json)",
        "b3": "(b'') Python, columns: `m = g.moves()`, `m.column(...)` (SAN, UCI, squares, texts)",
        "c": "(c) C, the same walk (bench-walk)",
        "d": "(d) python-chess %s, the same games as PGN" % (
            getattr(sys.modules.get("chess"), "__version__", "?") if chess_pgn else "-"),
    }
    games = counts["b"][0]
    print("%s: %d games, %d moves (main lines and variations), %d rounds, medians; Python %s"
          % (os.path.basename(base), games, counts["b"][1], args.rounds,
             sys.version.split()[0]))
    print()
    print("| walk | CPU s | games/s | / C | python-chess / this | fast path / this |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for k in ("a", "b", "b2", "b3", "c", "d"):
        if k not in med:
            print("| %s | skipped | | | | |" % names[k])
            continue
        print("| %s | %.4f | %s | %.2fx | %s | %.2fx |" % (
            names[k], med[k], "{:,.0f}".format(games / med[k]), med[k] / med["c"],
            "%.1fx" % (med["d"] / med[k]) if "d" in med else "-", med[k] / med["b"]))
    for k in ("a", "b2", "b3", "c", "d"):
        if k in counts and counts[k] != counts["b"]:
            print("warning: row %s counted %s, the fast path %s" % (k, counts[k], counts["b"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
