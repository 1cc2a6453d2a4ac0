# SPDX-License-Identifier: LGPL-2.1-or-later
"""The Polyglot book `gamedb book --from` makes of an Arena book, read by PolyGlot 2.0.4 itself
(Debian package `polyglot`, the book oracle of test-book.py): `polyglot info-book` walks the
book's lines from the start for each side and counts the positions on them; their sum must be
the positions of the walk (62,289 for libra8.abk, DroidFish's count, pinned in
testdata/books/), no position isolated (every one reached from the start through book moves),
and `dump-book` must give the lines of 1.e4 and 1.d4. Skipped only when polyglot is absent.
"""
import json
import os
import re
import subprocess
import tempfile

from testsupport import SRCDIR, check, done, eq, find_program, run_tool

REALDATA = os.environ.get("GAMEDB_REALDATA", "")


def main():
    polyglot = find_program("polyglot")
    if not polyglot:
        return done("polyglot (Debian package polyglot) is not installed")
    book = os.path.join(REALDATA, "books", "chess-tools", "libra8.abk")
    if not os.path.exists(book):
        return done("no real books under $GAMEDB_REALDATA")
    with open(os.path.join(SRCDIR, "testdata", "books", "libra8.abk.droidfish.json")) as f:
        positions = json.load(f)["positions"]
    with tempfile.TemporaryDirectory() as work:
        out = os.path.join(work, "libra8.bin")
        rc, _, err = run_tool("book", "--from", book, "-o", out)
        eq((rc, err), (0, ""), "book --from libra8.abk")
        p = subprocess.run([polyglot, "info-book", "-bin", out], capture_output=True, text=True,
                           cwd=work)
        text = p.stdout + p.stderr
        nums = {k: int(v) for k, v in re.findall(r"^(.*?)\s*:\s*(\d+)\s*$", text, re.M)}
        eq(nums.get("Positions on lines for white", 0) + nums.get("Positions on lines for black", 0),
           positions, "polyglot info-book: positions on lines")
        eq(nums.get("Isolated positions"), 0, "polyglot info-book: none isolated")
        dumpf = os.path.join(work, "white.txt")
        p = subprocess.run([polyglot, "dump-book", "-bin", out, "-color", "white", "-out", dumpf],
                           capture_output=True, text=True, cwd=work)
        with open(dumpf) as f:
            lines = f.read()
        check(re.search(r"^\d+: 1\. e4\{", lines, re.M) is not None, "dump-book: a line of 1.e4")
        check(re.search(r"^\d+: 1\. d4\{", lines, re.M) is not None, "dump-book: a line of 1.d4")
    return done()


if __name__ == "__main__":
    raise SystemExit(main())
