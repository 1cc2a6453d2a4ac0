# SPDX-License-Identifier: LGPL-2.1-or-later
"""The opening tree against the real Scid's (issue 30): for every pinned position of
testdata/tree/*.json (made by scripts/pin-scid-tree.py from Scid 4.7's `sc_search board RESET
Exact false 0` + `sc_tree stats`), `gamedb tree --json --include-deleted` of the same base must
give the same moves with the same games and score (SAN compared without '+'/'#').

Games Scid misses: Scid prunes a game by the final material stored in its index before it
decodes it (matsig_isReachable() in sc_search_board); the real bases store the start material
for their games without moves (stored before 2010), so Scid never finds those games at their
own position. The pin script asks Scid itself how many games without moves stand at each
position ("moveless" in the pinned file); they are the games of the "[end]" row that Scid's
answer lacks, and this test adds them to Scid's "[end]" row. Every other number must equal
Scid's.

The si3 bases of the real data are the same games (same .sg/.sn files) in Scid 3's index; Scid
4.7 opens no si3 base, so they are held to the answers of their si4 twins.
"""
import json
import os
import sys

from testsupport import SRCDIR, check, done, eq, run_tool

REALDATA = os.environ.get("GAMEDB_REALDATA", "")
TWINS = {
    "endings-si4": ["scid/scidvspc-modern/si3/endings/endings.si3"],
    "tactics-si4": ["scid/scidvspc-modern/si3/tactics/tactics.si3"],
}


def strip(san):
    return san.rstrip("+#") if san else "[end]"


def ours(base, fen):
    rc, out, err = run_tool("tree", "--json", "--include-deleted", "--fen", fen, base)
    check(rc == 0, "%s %s: gamedb tree exits 0 (%s)" % (base, fen, err.strip()))
    rows = [json.loads(line) for line in out.splitlines()]
    return {strip(r["san"]): (r["games"], "%.1f" % r["score"]) for r in rows}


def main():
    folder = os.path.join(SRCDIR, "testdata", "tree")
    if not os.path.isdir(os.path.join(REALDATA, "scid")):
        return done("no real data (set GAMEDB_REALDATA)")
    npos = 0
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".json"):
            continue
        doc = json.load(open(os.path.join(folder, name)))
        stem = name[:-5]
        for rel in [doc["base"]] + TWINS.get(stem, []):
            base = os.path.join(REALDATA, rel)
            for pos in doc["positions"]:
                want = {strip(r["san"]) if r["san"] != "[end]" else "[end]": (r["games"], r["score"])
                        for r in pos["rows"]}
                extra = pos.get("moveless", 0)
                if extra:
                    games, score = want.get("[end]", (0, None))
                    want["[end]"] = (games + extra, None)
                got = ours(base, pos["fen"])
                if extra:  # the score of the [end] row then counts games Scid left out
                    got = {k: (v[0], None) if k == "[end]" else v for k, v in got.items()}
                eq(got, want, "%s: tree of %s" % (rel, pos["fen"]))
                npos += 1
    check(npos >= 20, "at least 20 positions compared (%d)" % npos)
    print("%d positions compared with Scid's tree" % npos)
    return done()


if __name__ == "__main__":
    sys.exit(main())
