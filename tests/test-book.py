# SPDX-License-Identifier: LGPL-2.1-or-later
"""Opening books (gamedb book, gamedb.book, gamedb_book_*) against PolyGlot's own make-book.

PolyGlot 2.0.4 (Debian package `polyglot`) is the oracle: it reads the PGN that `gamedb pgn`
writes of the same games (main lines only; PolyGlot's PGN reader cannot take set-up positions,
so those games are left out on both sides: `--standard-start` for gamedb) and its book must be
the very bytes of ours, for each set of options:
- every real SCID and ChessBase base of $GAMEDB_REALDATA, six option sets;
- two master bases a hundred times over (69,000 games): the first moves pass 16,384 games, so
  PolyGlot's halving of a position's counts must happen at the same games;
- the same book built with a 1 MiB table, which spills to temporary files, must equal the one
  built in memory.
"""
import glob
import os
import subprocess
import sys
import tempfile

from testsupport import check, done, eq, find_program, import_gamedb, run_tool

REALDATA = os.environ.get("GAMEDB_REALDATA", "")
gamedb = import_gamedb()

OPTION_SETS = [
    [],
    ["-min-game", "1"],
    ["-min-game", "1", "-max-ply", "10"],
    ["-min-game", "1", "-only-white"],
    ["-min-game", "2", "-only-black"],
    ["-min-game", "2", "-uniform"],
]


def standard_games(pgn):
    """The games of a PGN text that start from the standard position."""
    games, cur = [], []
    for line in pgn.splitlines(keepends=True):
        if line.startswith("[Event ") and cur:
            games.append("".join(cur))
            cur = []
        cur.append(line)
    if cur:
        games.append("".join(cur))
    return "".join(g for g in games if '[SetUp "1"]' not in g and "[FEN " not in g)


def polyglot_book(polyglot, pgn_path, options, work):
    out = os.path.join(work, "polyglot.bin")
    p = subprocess.run([polyglot, "make-book", "-pgn", pgn_path, "-bin", out] + options,
                       capture_output=True, text=True, cwd=work)
    if p.returncode != 0 or "error" in p.stdout.lower() + p.stderr.lower():
        return None, p.stdout + p.stderr
    with open(out, "rb") as f:
        return f.read(), ""


def main():
    polyglot = find_program("polyglot")
    if not polyglot:
        return done(skip="PolyGlot not installed (apt-get install polyglot)")
    if not os.path.isdir(REALDATA):
        return done(skip="no real data")
    bases = sorted(glob.glob(os.path.join(REALDATA, "scid", "**", "*.si4"), recursive=True) +
                   glob.glob(os.path.join(REALDATA, "chessbase", "**", "*.cbh"), recursive=True))
    with tempfile.TemporaryDirectory() as work:
        pgn_path = os.path.join(work, "games.pgn")
        rc, _, err = run_tool("pgn", "--no-comments", "--no-variations", "--no-nags",
                              "--no-commands", *bases, "-o", pgn_path)
        check(rc in (0, 1), "gamedb pgn of the real bases: %d %s" % (rc, err[-300:]))
        with open(pgn_path, encoding="utf-8") as f:
            std = standard_games(f.read())
        with open(pgn_path, "w", encoding="utf-8") as f:
            f.write(std)
        print("%d standard-start games from %d bases" % (std.count("[Event "), len(bases)))
        for opts in OPTION_SETS:
            want, why = polyglot_book(polyglot, pgn_path, opts, work)
            if not check(want is not None, "polyglot make-book %s: %s" % (opts, why[-300:])):
                continue
            ours = os.path.join(work, "ours.bin")
            rc, _, err = run_tool("book", "--standard-start", *opts, *bases, "-o", ours)
            check(rc in (0, 1), "gamedb book %s: %d %s" % (opts, rc, err[-300:]))
            with open(ours, "rb") as f:
                got = f.read()
            eq(len(got) // 16, len(want) // 16, "entries with %s" % opts)
            check(got == want, "gamedb book %s: the bytes of PolyGlot's book" % opts)
            print("options %-40s %6d entries, identical: %s" % (" ".join(opts) or "(defaults)",
                                                                len(want) // 16, got == want))

        # Halving: two master bases a hundred times over.
        masters = [os.path.join(REALDATA, "chessbase", "morphy", n, n + ".cbh")
                   for n in ("linares", "Hedgehog")]
        if all(os.path.exists(m) for m in masters):
            rc, _, err = run_tool("pgn", "--no-comments", "--no-variations", "--no-nags",
                                  "--no-commands", *masters, "-o", pgn_path)
            with open(pgn_path, encoding="utf-8") as f:
                one = standard_games(f.read())
            with open(pgn_path, "w", encoding="utf-8") as f:
                for _ in range(100):
                    f.write(one)
            want, why = polyglot_book(polyglot, pgn_path, ["-min-game", "1"], work)
            readers = []
            try:
                for _ in range(100):
                    readers += [gamedb.open(m) for m in masters]
                got = gamedb.book(readers, min_game=1, standard_start=True)
            finally:
                for r in readers:
                    r.close()
            check(want is not None, "polyglot on 100 copies: " + why[-300:])
            check(got == want, "100 copies (positions halved at 16,384 games): PolyGlot's bytes")
            print("100 copies: %d entries, identical: %s" % (len(got) // 16, got == want))

            # All real games through a 1 MiB table (32,768 entries at most, so it spills): the
        # same book as in memory.
            once = gamedb.book(bases, min_game=1, standard_start=True)
            spilled = gamedb.book(bases, min_game=1, standard_start=True, memory=1)
            check(len(once) > 16 * 40000, "enough entries to spill (%d)" % (len(once) // 16))
            check(spilled == once, "a 1 MiB table that spills gives the book built in memory")
    # Bad options fail clearly.
    # (The binding checks types first: a string for an integer option is a TypeError.)
    for key, value in (("max_ply", "x"), ("min_score", 101), ("uniform", "maybe"),
                       ("no_such", 1)):
        try:
            gamedb.book([], **{key: value})
            check(False, "option %s=%s accepted" % (key, value))
        except (gamedb.GamedbError, TypeError, ValueError) as e:
            check(str(e) != "", "option %s=%s: %s" % (key, value, e))
    return done()


if __name__ == "__main__":
    sys.exit(main())
