#!/usr/bin/env python3
"""Converts a game database to PGN with the gamedb Python binding.

    python3 to_pgn.py BASE.si4 [-o OUT.pgn] [--charset CP1252] [--include-deleted]
                      [--no-comments] [--no-variations]

Like `gamedb pgn`, deleted games are skipped unless --include-deleted is given, and a game
whose moves cannot be decoded is reported on stderr and left out.
"""
import argparse
import sys

import gamedb


def main(argv=None):
    ap = argparse.ArgumentParser(description="Convert a game database to PGN.")
    ap.add_argument("database", help="the database (for SCID: base.si4 or base)")
    ap.add_argument("-o", "--output", help="the PGN file to write (default: stdout)")
    ap.add_argument("--charset", help="the source charset of the database's text")
    ap.add_argument("--include-deleted", action="store_true", help="also write deleted games")
    ap.add_argument("--no-comments", action="store_true", help="leave out comments")
    ap.add_argument("--no-variations", action="store_true", help="leave out variations")
    args = ap.parse_args(argv)

    out = open(args.output, "w", encoding="utf-8", newline="") if args.output else sys.stdout
    failed = 0
    try:
        with gamedb.open(args.database, charset=args.charset, errors="warn") as reader:
            for game in reader:
                if game.deleted and not args.include_deleted:
                    continue
                try:
                    out.write(game.pgn(comments=not args.no_comments,
                                       variations=not args.no_variations))
                except gamedb.GamedbError as e:
                    failed += 1
                    print("to_pgn: %s" % e.message, file=sys.stderr)
                finally:
                    game.close()  # the moves are written: free the game's copy now
    except gamedb.GamedbError as e:
        print("to_pgn: %s" % e.message, file=sys.stderr)
        return 1
    finally:
        if out is not sys.stdout:
            out.close()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
