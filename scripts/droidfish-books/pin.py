#!/usr/bin/env python3
"""Pins DroidFish's answers for the book tests (testdata/books/*.droidfish.json).

DroidFish's own book readers (AbkBook, CtgBook: GPL, github:peterosterlund2/droidfish) are run
locally, never shipped: their sources and the board classes they need are taken from a checkout
of DroidFish into a scratch folder with the three files of this folder (Driver.java, ours: the
walk; DroidBook.java and IOpeningBook.java, ours: small stand-ins for DroidFish's Android-bound
classes) and a generated R.java, compiled with javac and run. The tests read only the JSON.

Command that made the pinned files (DroidFish commit 06948d542f5b354624a8d88fc5d6f3019669e539):

  scripts/droidfish-books/pin.py DROIDFISH_CHECKOUT ../shared/realdata/books/chess-tools/libra8.abk 5
  scripts/droidfish-books/pin.py DROIDFISH_CHECKOUT ../shared/realdata/books/ctgexporter/simple.ctg 99
  python3 tests/make-ctg-book.py /tmp/made > /tmp/made.json
  scripts/droidfish-books/pin.py DROIDFISH_CHECKOUT /tmp/made.ctg 99 \
      "8/4P3/8/8/8/8/2K5/6k1 w - - 0 1" "6k1/8/8/8/8/8/p7/2K5 b - - 0 1"

(made.ctg: the CTG book tests/make-ctg-book.py writes; the FENs after the ply are probed too.)

DROIDFISH_CHECKOUT: a folder holding DroidFishApp/src/main/java (git archive of the commit).
The pin holds every position of the walk within EXPLICIT plies written out, and the digest
(tests/booksupport.py) of the whole walk (every position with book moves, any depth).
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', '..', 'tests'))
import booksupport  # noqa: E402

GAMELOGIC = ['Move', 'Piece', 'Position', 'MoveGen', 'TextIO', 'UndoInfo', 'ChessParseError']


def build(checkout, work):
    src = os.path.join(checkout, 'DroidFishApp/src/main/java/org/petero/droidfish')
    pkg = os.path.join(work, 'src/org/petero/droidfish')
    os.makedirs(os.path.join(pkg, 'book'))
    os.makedirs(os.path.join(pkg, 'gamelogic'))
    for f in ('AbkBook', 'CtgBook', 'BookOptions'):
        shutil.copy(os.path.join(src, 'book', f + '.java'), os.path.join(pkg, 'book'))
    for f in GAMELOGIC:
        shutil.copy(os.path.join(src, 'gamelogic', f + '.java'), os.path.join(pkg, 'gamelogic'))
    for f in ('Driver.java', 'DroidBook.java', 'IOpeningBook.java'):
        shutil.copy(os.path.join(HERE, f), os.path.join(pkg, 'book'))
    names = set()
    for d in ('book', 'gamelogic'):
        for f in os.listdir(os.path.join(pkg, d)):
            with open(os.path.join(pkg, d, f)) as fh:
                names |= set(re.findall(r'R\.string\.(\w+)', fh.read()))
    with open(os.path.join(pkg, 'R.java'), 'w') as fh:
        fh.write('package org.petero.droidfish; public final class R { public static final class '
                 'string {\n')
        for i, n in enumerate(sorted(names)):
            fh.write(f'public static final int {n} = {i + 1};\n')
        fh.write('} }\n')
    files = [os.path.join(dp, f) for dp, _, fs in os.walk(os.path.join(work, 'src')) for f in fs]
    subprocess.run(['javac', '-nowarn', '-d', os.path.join(work, 'classes')] + files, check=True)


def main():
    checkout, book, explicit, fens = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
    with tempfile.TemporaryDirectory() as work:
        build(checkout, work)
        run = subprocess.run(['java', '-cp', os.path.join(work, 'classes'),
                              'org.petero.droidfish.book.Driver', book, '100000'] + fens,
                             check=True, capture_output=True, text=True)
    sys.stderr.write(run.stderr)
    probes = [l for l in run.stdout.splitlines() if '"ply":-1' in l]
    table = booksupport.walk_table([l for l in run.stdout.splitlines() if l not in probes])
    name = os.path.basename(book)
    pin = {
        'book': name,
        'made_by': 'scripts/droidfish-books/pin.py DROIDFISH_CHECKOUT BOOK ' + str(explicit),
        'droidfish_commit': '06948d542f5b354624a8d88fc5d6f3019669e539',
        'positions': len(table),
        'digest': booksupport.digest(table),
        'explicit_max_ply': explicit,
        'explicit': [[fen, ply, moves] for fen, (ply, moves) in sorted(table.items())
                     if ply <= explicit],
        'probes': [[fen, moves] for fen, (_, moves) in
                   sorted(booksupport.walk_table(probes).items())],
    }
    out = os.path.join(HERE, '..', '..', 'testdata', 'books', name + '.droidfish.json')
    with open(out, 'w') as fh:
        json.dump(pin, fh, indent=0, separators=(',', ':'))
        fh.write('\n')
    print(f'{out}: {len(table)} positions, {len(pin["explicit"])} written out')


if __name__ == '__main__':
    main()
