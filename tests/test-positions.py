# SPDX-License-Identifier: LGPL-2.1-or-later
"""gamedb fen / epd / uci / positions and json --fen --key, checked against what they are
made from and against a second program:

- `uci` lines are replayed by Stockfish (`position ... moves ...`, then `d`): the position it
  reaches must be the game's final FEN (board, side, castling, counters);
- `fen` gives, per game, ply 0 to the last, starting at the game's FEN and ending at its final
  FEN (both from `gamedb json`), each FEN with its Polyglot key as test-keys.py computes it;
- `epd` carries the FEN's first four fields and its counters as hmvc/fmvn, the Result tag as
  c0; `positions` (JSON Lines and --csv) one row per move played, the moves those of the UCI
  line, the result from the side to move's view; `json --fen --key` the same FENs and keys
  on its moves.
"""
import json
import os
import subprocess
import sys

from testsupport import HERE, check, done, eq, find_program, load_script, run_tool

REALDATA = os.environ.get("GAMEDB_REALDATA", "")
TESTDATA = os.environ.get("GAMEDB_TESTDATA", "")
keys = load_script(os.path.join(HERE, "test-keys.py"), "test_keys")

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def lines(*args):
    rc, out, err = run_tool(*args)
    check(rc == 0, "gamedb %s: exit %d %s" % (" ".join(args[:2]), rc, err[-200:]))
    return out.decode("utf-8").splitlines()


def stockfish_fens(sf, uci_lines):
    """The FEN Stockfish shows after each `position` line."""
    script = "".join("%s\nd\n" % l for l in uci_lines) + "quit\n"
    p = subprocess.run([sf], input=script, capture_output=True, text=True, timeout=600)
    return [l[5:].strip() for l in p.stdout.splitlines() if l.startswith("Fen: ")]


def same_position(a, b):
    fa, fb = a.split(), b.split()
    return fa[:3] == fb[:3] and fa[4:6] == fb[4:6]


def main():
    table = keys.polyglot_table()
    sf = find_program("stockfish")
    bases = [os.path.join(TESTDATA, "scid", n + ".si4")
             for n in ("moves", "long", "fen", "edge", "annotations")]
    for rel in ("scid/scidtopgn/five/five.si4", "chessbase/morphy/linares/linares.cbh",
                "chessbase/morphy/Hedgehog/Hedgehog.cbh", "scid/scidvspc-modern/si4/endings/endings.si4"):
        if REALDATA and os.path.exists(os.path.join(REALDATA, rel)):
            bases.append(os.path.join(REALDATA, rel))
    bases = [b for b in bases if os.path.exists(b)]
    total = 0
    for base in bases:
        games = [json.loads(l) for l in lines("json", "--fen", "--key", base)]
        fen = {}
        for l in lines("fen", "--key", base):
            g, ply, f, k = l.split("\t")
            fen.setdefault(int(g), []).append((int(ply), f, k))
        epd = {}
        for l in lines("epd", base):
            head, _, ops = l.partition(' id "game ')
            g, ply = ops.split('"')[0].split(" ply ")
            epd[(int(g), int(ply))] = (head, ops)
        uci = lines("uci", base)
        rows = [json.loads(l) for l in lines("positions", "--key", base)]
        csv = lines("positions", "--csv", base)
        eq(csv[0], "game,ply,fen,move,result", base + ": CSV header")
        eq(len(csv) - 1, len(rows), base + ": CSV rows = JSON rows")
        eq(len(uci), len(games), base + ": a UCI line per game")
        by_game = {}
        for r in rows:
            by_game.setdefault(r["game"], []).append(r)
        for i, g in enumerate(games):
            n = g["index"] + 1
            main = [m for m in g["moves"]]
            seq = fen.get(n, [])
            total += len(seq)
            if not eq([p for p, _, _ in seq], list(range(len(main) + 1)), "%s game %d plies" % (base, n)):
                continue
            eq(seq[0][1], g["fen"], "%s game %d: ply 0 is the game's FEN" % (base, n))
            eq(seq[-1][1], g["final_fen"], "%s game %d: last ply is the final FEN" % (base, n))
            for (ply, f, k), m in zip(seq[1:], main):
                if table and g["variant"] == "chess":
                    eq(int(k, 16), keys.polyglot_key(table, f), "%s game %d ply %d key" % (base, n, ply))
                eq((m.get("fen"), m.get("key")), (f, k), "%s game %d ply %d json fen/key" % (base, n, ply))
            for ply, f, _ in seq:
                head, ops = epd.get((n, ply), ("", ""))
                fields = f.split()
                eq(head, " ".join(fields[:4]), "%s game %d ply %d EPD position" % (base, n, ply))
                want = ' c0 "%s"; hmvc %s; fmvn %s;' % (g["tags"].get("Result", "*"), fields[4], fields[5])
                check(ops.endswith(want), "%s game %d ply %d EPD ops %r" % (base, n, ply, ops))
            moves = uci[i].split(" moves ")[1].split() if " moves " in uci[i] else []
            eq(moves, [m["uci"] for m in main], "%s game %d UCI moves" % (base, n))
            eq(uci[i].startswith("position startpos"), g["fen"] == START, "%s game %d startpos" % (base, n))
            prow = by_game.get(n, [])
            eq([r["move"] for r in prow], moves, "%s game %d positions moves" % (base, n))
            res = g["tags"].get("Result", "*")
            for r in prow:
                white = r["fen"].split()[1] == "w"
                want = {"1-0": 1 if white else 0, "0-1": 0 if white else 1, "1/2-1/2": 0.5}.get(res)
                if not eq(r["result"], want, "%s game %d ply %d result" % (base, n, r["ply"])):
                    break
        if sf:
            # A null move is "0000" in UCI; engines do not take it in `position`, so those
            # games are left to the other checks.
            replay = [(g, l) for g, l in zip(games, uci) if " 0000" not in l]
            got = stockfish_fens(sf, [l for _, l in replay])
            eq(len(got), len(replay), base + ": Stockfish answered each line")
            for (g, _), f in zip(replay, got):
                check(same_position(f, g["final_fen"]), "%s game %d: Stockfish reaches %s, we say %s"
                      % (base, g["index"] + 1, f, g["final_fen"]))
    print("%d bases, %d positions" % (len(bases), total))
    check(total > (50000 if REALDATA and os.path.isdir(REALDATA) else 500),
          "enough positions (%d)" % total)
    return done()


if __name__ == "__main__":
    sys.exit(main())
