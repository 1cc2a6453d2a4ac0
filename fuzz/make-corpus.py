#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Seed fuzz/scid/corpus/ from the small SCID bases in testdata/scid.

    fuzz/make-corpus.py [--testdata DIR] [--out DIR]

Every base NAME.si4 (or NAME.si3) with its two siblings becomes one input file
`seed-NAME-si4`, and testdata/scid/moves.si4 with a hand-made record in place of its first
game becomes the `handmade-*` inputs (regression cases; see HANDMADE below), all in the
framing that fuzz/scid/target.c reads:

    [len(index): uint32 LE][len(names): uint32 LE][index][names][games]

Only files from testdata/ are used: the committed corpus must not hold anything derived from
the real sample databases (../shared/realdata), whose licences are not ours. To fuzz locally
with other bases as seeds, point --testdata at them and --out at a folder outside the tree.
Existing seed-* and handmade-* files in the output folder are replaced; other files (crash-*
regressions found by the fuzzer) stay.
"""
import argparse
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def frame(index: bytes, names: bytes, games: bytes) -> bytes:
    return struct.pack('<II', len(index), len(names)) + index + names + games


# Hand-made records, each put in place of game 1 of testdata/scid/moves.si4: inputs that once
# broke the library (found by tests/test-hostile.c) or that random mutation is unlikely to
# build. Move bytes: 0xCF is 1.e4 and 0xBF is 1.d4 from the standard start (piece numbers 12
# and 11, code 15 = pawn double step); 0x0B NAG, 0x0C comment, 0x0D variation start,
# 0x0E variation end, 0x0F end of game.
E4, D4 = 0xCF, 0xBF


def deep_nesting(depth: int) -> bytes:
    rec = bytearray([0x00, 0x00, E4])          # no extra tags, standard start, 1.e4
    for i in range(depth):                     # ( 1.d4 ( 1.e4 ( 1.d4 ...
        rec += bytes([0x0D, E4 if i & 1 else D4])
    rec += bytes([0x0E]) * depth + bytes([0x0F])
    return bytes(rec)


HANDMADE = {
    # Variations nested as deep as a record of 128 KiB allows: the JSON writer recursed once
    # per level and overflowed the stack.
    'handmade-deep-nesting': deep_nesting(43689),
    # Comment markers, then no comment text: the partial game handed out comment events whose
    # text pointed into stale memory (GAMEDB_ITER_PARTIAL, gamedb_game_dup()).
    'handmade-comment-no-text': bytes([0x00, 0x00, 0x0C, E4, 0x0C, 0x0F]),
    # The same with an illegal move after the comments.
    'handmade-comment-then-illegal': bytes([0x00, 0x00, 0x0C, E4, 0x0C, E4, 0x0F]),
    # A variation left open by a decode error: the partial stream must still be balanced.
    'handmade-open-variation': bytes([0x00, 0x00, E4, 0x0D, D4, 0x0D, 0x0D, 0x0F]),
    # Start positions that do not parse, one of them not even UTF-8.
    'handmade-fen-no-white-king': b'\x00\x01k7/8/8/8/8/8/8/8 w - - 0 1\x00\x0F',
    'handmade-fen-not-utf8': b'\x00\x01rnbqkbnr/pppp\xffppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\x00\x0F',
    # A move byte for a piece number that does not exist.
    'handmade-missing-piece': b'\x00\x014k3/8/8/8/8/8/8/4K3 w - - 0 1\x00\x51\x0F',
    # 10,000 NAGs and comments on one move, all well formed.
    'handmade-many-annotations': bytes([0x00, 0x00, 0x0C, E4]) + bytes([0x0B, 1, 0x0C]) * 10000
    + bytes([0x0F]) + b'c\x00' * 10001,
}


def handmade(testdata: str, out: str) -> int:
    stem = os.path.join(testdata, 'moves')
    try:
        with open(stem + '.si4', 'rb') as f:
            si = f.read()
        with open(stem + '.sn4', 'rb') as f:
            sn = f.read()
        with open(stem + '.sg4', 'rb') as f:
            sg = f.read()
    except OSError:
        print(f'make-corpus: no moves.si4/.sn4/.sg4 in {testdata}: hand-made inputs left out',
              file=sys.stderr)
        return 0
    for old in os.listdir(out):
        if old.startswith('handmade-'):
            os.remove(os.path.join(out, old))
    for name, rec in HANDMADE.items():
        assert len(rec) <= 0x1FFFF, name
        idx = bytearray(si)
        at = 182                                  # game 1's index record (si4)
        idx[at:at + 4] = struct.pack('>I', len(sg))
        idx[at + 4:at + 6] = struct.pack('>H', len(rec) & 0xFFFF)
        idx[at + 6] = (idx[at + 6] & 0x7F) | (0x80 if len(rec) > 0xFFFF else 0)
        with open(os.path.join(out, name), 'wb') as f:
            f.write(frame(bytes(idx), sn, sg + rec))
    return len(HANDMADE)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--testdata', default=os.path.join(ROOT, 'testdata', 'scid'))
    ap.add_argument('--out', default=os.path.join(HERE, 'scid', 'corpus'))
    args = ap.parse_args()

    if not os.path.isdir(args.testdata):
        print(f'make-corpus: {args.testdata}: no such folder', file=sys.stderr)
        return 1
    os.makedirs(args.out, exist_ok=True)
    for old in os.listdir(args.out):
        if old.startswith('seed-'):
            os.remove(os.path.join(args.out, old))
    made = 0
    for name in sorted(os.listdir(args.testdata)):
        stem, ext = os.path.splitext(name)
        if ext not in ('.si4', '.si3'):
            continue
        v = ext[-1]
        parts = []
        for e in ('.si', '.sn', '.sg'):
            path = os.path.join(args.testdata, stem + e + v)
            if not os.path.isfile(path):
                break
            with open(path, 'rb') as f:
                parts.append(f.read())
        if len(parts) != 3:
            print(f'make-corpus: {stem}{ext}: a sibling file is missing, left out', file=sys.stderr)
            continue
        out = os.path.join(args.out, f'seed-{stem}-si{v}')
        with open(out, 'wb') as f:
            f.write(frame(*parts))
        made += 1
    hand = handmade(args.testdata, args.out)
    print(f'make-corpus: {made} seed(s) and {hand} hand-made input(s) written to {args.out}')
    return 0 if made else 1


if __name__ == '__main__':
    sys.exit(main())
