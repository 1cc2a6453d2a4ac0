#!/usr/bin/env python3
"""Pins the real Scid's opening tree for positions of the real SCID bases (testdata/tree/*.json).

    python3 scripts/pin-scid-tree.py build/tools/gamedb [REALDATA]

For each si4 base of REALDATA (Scid 4.7 opens no si3 base; the si3 bases of the real data hold
the same games, which tests/test-tree-scid.py checks against the same answers) (default ../shared/realdata beside the source tree), 24
positions are taken from the base's own games: the 14 positions (after ply 0) reached by the
most games, and 10 more at plies 1..30 of games spread over the base (gamedb fen lists them;
gamedb only chooses which positions to ask about). For four of them the same board is asked
again with the castling and en-passant fields emptied, and so are up to three positions of
the base's games that have an en-passant square (taken in the order of the games): the
answers show how Scid's exact search treats those rights (it ignores them).

The answers are the real Scid 4.7's (/usr/games/tkscid, headless), made by this Tcl, once per
position:

    sc_game new
    sc_game startBoard $fen
    sc_search board RESET Exact false 0
    sc_tree stats $db dbfilter

(Scid's Tree window runs the same two commands.) Then every game is loaded (sc_game load) and
those without moves (at the end at their start: sc_move start; sc_pos isAt end) are counted by their position (sc_pos fen): Scid's
search skips them by the start material its index stores for them, so for each position the
file says how many there are ("moveless"; tests/test-tree-scid.py says more). Each row of sc_tree stats' text is kept as
SAN (Scid's, with '+'), games and score (White's percentage, one decimal); the file names the
command above in "made_by". tests/test-tree-scid.py compares `gamedb tree --json` with them.
"""
import collections
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
BASES = [
    ("five", "scid/scidtopgn/five/five.si4"),
    ("endings-si4", "scid/scidvspc-modern/si4/endings/endings.si4"),
    ("tactics-si4", "scid/scidvspc-modern/si4/tactics/tactics.si4"),
    ("matein1-si4", "scid/scidvspc-modern/si4/matein1/matein1.si4"),
]
TKSCID = os.environ.get("TKSCID", "/usr/games/tkscid")
ROW = re.compile(r"^\s*\d+: (\S+)\s+(?:[A-E]\d\d\S*\s+)?(\d+):\s*\d+\.\d%\s+(\d+\.\d)%")
MADE_BY = ("real Scid 4.7 (/usr/games/tkscid) via scripts/pin-scid-tree.py: sc_game new; "
           "sc_game startBoard FEN; sc_search board RESET Exact false 0; sc_tree stats $db dbfilter")


def board_stm(fen):
    return " ".join(fen.split()[:2])


def positions_of(tool, base):
    out = subprocess.run([tool, "fen", "--include-deleted", base], capture_output=True,
                         text=True, check=False).stdout
    rows = [line.split("\t") for line in out.splitlines() if line.count("\t") >= 2]
    seen = collections.Counter()
    first = {}
    games = collections.defaultdict(set)
    for game, ply, fen in (r[:3] for r in rows):
        key = board_stm(fen)
        if game in games[key]:
            continue
        games[key].add(game)
        seen[key] += 1
        first.setdefault(key, fen)
    chosen = []
    for key, _ in seen.most_common():
        if len(chosen) == 14:
            break
        if key.startswith("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w"):
            continue
        chosen.append(first[key])
    spread = [r for r in rows if 1 <= int(r[1]) <= 30]
    step = max(1, len(spread) // 10)
    for r in spread[::step]:
        if len(chosen) == 24:
            break
        if r[2] not in chosen:
            chosen.append(r[2])
    # up to three positions with an en-passant square (a pawn just pushed two squares beside
    # an enemy pawn), and the same boards without castling and en-passant rights
    with_ep = []
    for r in rows:
        if r[2].split()[3] != "-" and r[2] not in chosen and r[2] not in with_ep:
            with_ep.append(r[2])
        if len(with_ep) == 3:
            break
    chosen += with_ep
    for fen in list(chosen[:4]) + with_ep:
        f = fen.split()
        if f[2] != "-" or f[3] != "-":
            chosen.append(" ".join(f[:2] + ["-", "-"] + f[4:]))
    return chosen


def scid_trees(base, fens):
    stem = base.rsplit(".", 1)[0]
    with tempfile.TemporaryDirectory() as tmp:
        tcl = os.path.join(tmp, "tree.tcl")
        with open(tcl, "w") as f:
            f.write("set db [sc_base open {%s}]\n" % stem)
            for k, fen in enumerate(fens):
                f.write("sc_game new\nsc_game startBoard {%s}\n" % fen)
                f.write("sc_search board RESET Exact false 0\n")
                f.write("puts \"@@POS %d\"\nputs [sc_tree stats $db dbfilter]\n" % k)
            # the games without moves, as Scid loads them (see "moveless" below)
            f.write("for {set i 1} {$i <= [sc_base numGames $db]} {incr i} {\n"
                    " sc_game load $i\n"
                    " sc_move start\n if {[sc_pos isAt end]} { puts \"@@MOVELESS [sc_pos fen]\" }\n"
                    "}\n")
            f.write("sc_base close $db\nexit 0\n")
        out = subprocess.run([TKSCID, tcl], capture_output=True, text=True, check=True).stdout
    trees = {}
    cur = None
    moveless = collections.Counter()
    for line in out.splitlines():
        if line.startswith("@@MOVELESS "):
            moveless[board_stm(line[len("@@MOVELESS "):])] += 1
            continue
        if line.startswith("@@POS "):
            cur = int(line.split()[1])
            trees[cur] = []
            continue
        m = ROW.match(line)
        if m and cur is not None:
            trees[cur].append({"san": m.group(1), "games": int(m.group(2)), "score": m.group(3)})
    return [trees.get(k, []) for k in range(len(fens))], moveless


def main():
    tool = os.path.abspath(sys.argv[1])
    realdata = sys.argv[2] if len(sys.argv) > 2 else os.path.join(HERE, "..", "..", "shared",
                                                                    "realdata")
    outdir = os.path.join(HERE, "..", "testdata", "tree")
    for name, rel in BASES:
        base = os.path.join(realdata, rel)
        fens = positions_of(tool, base)
        trees, moveless = scid_trees(base, fens)
        positions = []
        for fen, rows in zip(fens, trees):
            pos = {"fen": fen, "rows": rows}
            if moveless[board_stm(fen)]:
                pos["moveless"] = moveless[board_stm(fen)]
            positions.append(pos)
        doc = {"base": rel, "made_by": MADE_BY, "positions": positions}
        with open(os.path.join(outdir, name + ".json"), "w") as f:
            json.dump(doc, f, indent=1)
            f.write("\n")
        print("%s: %d positions, %d with moves" % (name, len(fens), sum(1 for t in trees if t)))


if __name__ == "__main__":
    main()
