# SPDX-License-Identifier: LGPL-2.1-or-later
"""The position index (issue 30 item 1: gamedb index, tree and search --index).

Modes (one meson test each):
  real     On every real base of every format (SCID si3/si4/si5, ChessBase cbh/cbv/cbz,
           XQF, style 12 logs): an index built with `gamedb index`, then for 20 positions
           taken from the base's own games (gamedb fen) `gamedb tree --json --include-deleted
           --fen FEN` gives byte for byte the scan's output, exit status and messages with
           --index;
           for some of them also `gamedb search` (which reads only the games the index
           names: the same output, messages and exit status as the scan, with
           --include-deleted, --where, --range and --games) and `tree` with --where and
           --range.
  scid     test-tree-scid.py's pinned answers of Scid 4.7, asked through an index.
  stale    A base changed after its index was built (time, size, bytes) is refused with a
           clear message and exit status 2, as is an index of another base; -o never writes
           over a file of the base.
  damaged  Hand-made damaged index files (signature, version, section table, counts,
           postings, truncations at every length of the header and more): refused with a
           message naming the index, exit status 2, never a crash.
  unordered  Games added to the index writer in any order: the same answers.
  search   search --index against the scan on the test data's deleted games, texts that
           warn, and a CCBridge library with a game that cannot be read.
"""
import glob
import json
import os
import shutil
import sys
import tempfile
import time

from testsupport import SRCDIR, check, done, eq, load_script, run_tool

REALDATA = os.environ.get("GAMEDB_REALDATA", "")
TMP = tempfile.mkdtemp(prefix="gamedb-index-")


def build(bases, name="ix.gdbi"):
    path = os.path.join(TMP, name)
    rc, _, err = run_tool("index", *bases, "-o", path)
    return rc, err, path


def groups():
    out = []
    for pat in ("scid/**/*.si4", "scid/**/*.si3", "scid5/**/*.si5", "chessbase/**/*.cbh",
                "chessbase/**/*.cbv", "chessbase/**/*.cbz", "style12/**/*.txt"):
        out += [[p] for p in sorted(glob.glob(os.path.join(REALDATA, pat), recursive=True))]
    xqf = sorted(glob.glob(os.path.join(REALDATA, "xqf/**/*.xqf"), recursive=True))
    if xqf:
        out.append(xqf)  # one index, one tree over every XQF game
    return out


def positions(bases):
    fens = []
    for b in bases:
        _, out, _ = run_tool("fen", "--include-deleted", b)
        fens += [line.split("\t")[2] for line in out.decode("utf-8", "replace").splitlines()
                 if line.count("\t") >= 2]
    step = max(1, len(fens) // 20)
    return fens[::step][:20]


def real():
    if not REALDATA or not os.path.isdir(REALDATA):
        return done("no real data (set GAMEDB_REALDATA)")
    nbases = npos = 0
    for bases in groups():
        what = bases[0] if len(bases) == 1 else "%d XQF files" % len(bases)
        fens = positions(bases)
        if not fens:
            continue
        rc, err, ix = build(bases)
        if not check(rc in (0, 1), "%s: gamedb index exits 0 or 1 (%d: %s)" % (what, rc, err.strip())):
            continue
        nbases += 1
        for k, fen in enumerate(fens):
            extra = [["--include-deleted"]]
            if k % 7 == 0:
                extra.append(["--where", "Result=1-0"])
                extra.append(["--range", "2-40"])
            for opts in extra:
                a = run_tool("tree", "--json", *opts, "--fen", fen, *bases)
                b = run_tool("tree", "--json", *opts, "--fen", fen, "--index", ix, *bases)
                eq((b[0], b[1]), (a[0], a[1]), "%s: tree %s --fen %r: index = scan" % (what, opts, fen))
                # the same messages (failed games, lines not used), whatever order threads gave
                eq(sorted(b[2].splitlines()), sorted(a[2].splitlines()),
                   "%s: tree %s --fen %r: the index's messages are the scan's" % (what, opts, fen))
            if k % 5 == 0:
                # search --index reads only the games the index names (a seek to each): the
                # same games written, the same messages (failed games, warnings, the ledger)
                # and exit status as the scan, which reads every game.
                variants = [[]] if k % 10 else [[], ["--include-deleted"], ["--where", "Result=1-0"],
                                                 ["--range", "2-40"], ["--games", "1,3-5,9"]]
                for opts in variants:
                    a = run_tool("search", *opts, "--fen", fen, "-j", "1", *bases)
                    b = run_tool("search", *opts, "--fen", fen, "--index", ix, *bases)
                    eq((b[0], b[1], b[2]), (a[0], a[1], a[2]),
                       "%s: search %s --fen %r: index = scan" % (what, opts, fen))
            npos += 1
        # The start position (every game that starts there: the deleted ones, the ones that
        # fail) through search, with and without --include-deleted: the index's path meets
        # the base's deleted and failed games as the scan does.
        for opts in ([], ["--include-deleted"]):
            a = run_tool("search", *opts, "--moves", "", "-j", "1", *bases)
            b = run_tool("search", *opts, "--moves", "", "--index", ix, *bases)
            eq((b[0], b[1], b[2]), (a[0], a[1], a[2]),
               "%s: search %s --moves '': index = scan" % (what, opts))
        os.unlink(ix)
    print("%d bases, %d positions" % (nbases, npos))
    check(nbases >= 10 and npos >= 200, "enough bases and positions (%d, %d)" % (nbases, npos))
    return done()


def search():
    """search --index, which reads only the games the index names (a seek to each), against
    the scan, which reads every game, on the test data's bases that hold what the real ones
    lack: deleted games (scid/deleted.si4), games whose text warns (scid/latin1.si4), and a
    CCBridge library whose fourth entry cannot be read at all (its slot count patched past the
    file: the base cannot deliver that game, and the index records the place). The same
    output, messages and exit status, with and without --include-deleted, --range, --games."""
    testdata = os.path.join(SRCDIR, "testdata")
    lib = open(os.path.join(testdata, "ccbridge", "fixtures.cbl"), "rb").read()
    damaged = bytearray(lib)
    e3 = 66624 + 276 * 3  # index entry 3 (test-ccbridge.py's layout): its slot count at +8
    damaged[e3 + 8:e3 + 12] = (100000).to_bytes(4, "little")
    cbl = os.path.join(TMP, "unread.cbl")
    with open(cbl, "wb") as f:
        f.write(damaged)
    cases = [os.path.join(testdata, "scid", "deleted.si4"),
             os.path.join(testdata, "scid", "latin1.si4"), cbl]
    n = 0
    for base in cases:
        rc, err, ix = build([base], "search.gdbi")
        if not check(rc in (0, 1), "%s: gamedb index exits 0 or 1 (%d: %s)" % (base, rc, err.strip())):
            continue
        # (--range 1-2 stops before the library's unread place, 1-3 reaches it)
        for opts in ([], ["--include-deleted"], ["--range", "2-5"], ["--range", "1-2"],
                     ["--range", "1-3"], ["--games", "1,3-4"]):
            a = run_tool("search", *opts, "--moves", "", "-j", "1", base)
            b = run_tool("search", *opts, "--moves", "", "--index", ix, base)
            eq((b[0], b[1], b[2]), (a[0], a[1], a[2]), "%s: search %s --moves '': index = scan" % (base, opts))
            n += 1
        os.unlink(ix)
    # What the cases are there for: they must hold it.
    a = run_tool("search", "--include-deleted", "--moves", "", cases[0])
    b = run_tool("search", "--moves", "", cases[0])
    check(a[1].count(b"\n") > b[1].count(b"\n") > 0, "deleted.si4: deleted games the start position reaches")
    a = run_tool("search", "--moves", "", cbl)
    check(a[0] == 1 and "failed" in a[2], "unread.cbl: a game that cannot be read: %r" % ((a[0], a[2]),))
    check(n == 18, "every case asked (%d)" % n)
    return done()


def unordered():
    """Games added to the writer in any order (gamedb_index_writer_add_game() allows it: a
    reader seeked back): the index answers as the scan does. Built here through the C API,
    the games of a SCID base of the test data added last to first; each posting list is
    written as gaps between game numbers, which must then come sorted."""
    import testsupport
    from ctypes import byref, string_at
    gamedb = testsupport.import_gamedb()
    f = gamedb._ffi
    lib = f.lib
    base = os.path.join(SRCDIR, "testdata", "scid", "long.si4")
    with gamedb.open(base) as rd:
        n = len(list(rd))
    check(n >= 3, "the base has games to put out of order (%d)" % n)
    path = os.path.join(TMP, "unordered.gdbi")
    w = f.IndexWriterP()
    lib.gamedb_index_writer_new(byref(w))
    r = lib.gamedb_reader_new()
    lib.gamedb_reader_support_format_all(r)
    lib.gamedb_reader_open_filename(r, base.encode())
    for i in reversed(range(n)):
        g = f.GameP()
        lib.gamedb_reader_seek_game(r, i)
        lib.gamedb_reader_next_game(r, byref(g))
        eq(lib.gamedb_index_writer_add_game(w, r, g), f.OK, "game %d added" % (i + 1))
    eq(lib.gamedb_index_writer_end_base(w, r), f.OK, "the base ends")
    with open(path, "wb") as fh:
        cb = f.WRITE_FN(lambda _u, data, k: fh.write(string_at(data, k)) and f.OK)
        eq(lib.gamedb_index_writer_write(w, cb, None), f.OK, "the index written")
    lib.gamedb_index_writer_free(w)
    lib.gamedb_reader_free(r)
    fens = positions([base])
    check(len(fens) >= 5, "positions to ask (%d)" % len(fens))
    for fen in fens:
        a = run_tool("tree", "--json", "--fen", fen, base)
        b = run_tool("tree", "--json", "--fen", fen, "--index", path, base)
        eq((b[0], b[1]), (a[0], a[1]), "games added last to first: tree --fen %r: index = scan" % fen)
    return done()


def scid():
    mod = load_script(os.path.join(SRCDIR, "tests", "test-tree-scid.py"), "tree_scid")
    made = {}

    def with_index(*args, env=None):
        base = args[-1]
        if base not in made:
            rc, err, made[base] = build([base], "scid%d.gdbi" % len(made))
            check(rc == 0, "%s: gamedb index exits 0 (%s)" % (base, err.strip()))
        return run_tool(*args[:-1], "--index", made[base], base, env=env)

    mod.run_tool = with_index
    rc = mod.main()
    check(len(made) >= 2, "the pinned bases were asked through an index (%d)" % len(made))
    return done() if rc != 77 else rc


def copy_base(src_si4, dest):
    """A SCID base (.si4 .sn4 .sg4) copied to dest (a name without extension)."""
    stem = src_si4[:-4]
    for ext in (".si4", ".sn4", ".sg4"):
        shutil.copyfile(stem + ext, dest + ext)
    return dest


def small_si4():
    c = sorted(glob.glob(os.path.join(REALDATA, "scid/**/*.si4"), recursive=True),
               key=os.path.getsize)
    return c[0] if c else None


def stale():
    si4 = small_si4()
    if not si4:
        return done("no real SCID base (set GAMEDB_REALDATA)")
    base = copy_base(si4, os.path.join(TMP, "b"))
    other = copy_base(si4, os.path.join(TMP, "other"))
    rc, err, ix = build([base])
    eq(rc, 0, "index of the copy (%s)" % err.strip())
    want = run_tool("tree", "--json", "--moves", "", base)
    got = run_tool("tree", "--json", "--moves", "", "--index", ix, base)
    eq(got[:2], want[:2], "fresh index: the scan's tree")
    # an index of another base (same bytes, another name)
    rc, _, err = run_tool("tree", "--moves", "", "--index", ix, other)
    eq(rc, 2, "index of another base: exit 2")
    check("was not built from" in err and "other.si4" in err, "says so: %r" % err)
    # the time of one file changed
    st = os.stat(base + ".sn4")
    os.utime(base + ".sn4", (st.st_atime, st.st_mtime + 10))
    rc, out, err = run_tool("tree", "--moves", "", "--index", ix, base)
    eq((rc, b"\n 1:" in out), (2, False), "modified base: exit 2, no move counted")
    check("stale" in err and "b.sn4 was modified" in err, "says which file: %r" % err)
    rc, _, err = run_tool("search", "--moves", "", "--index", ix, base)
    check(rc == 2 and "stale" in err, "search refuses it too: %d %r" % (rc, err))
    os.utime(base + ".sn4", (st.st_atime, st.st_mtime))
    eq(run_tool("tree", "--moves", "", "--index", ix, base)[0], 0, "time put back: fresh again")
    # a game appended (the size), then the same size with other bytes and the old time
    with open(base + ".sg4", "rb") as f:
        sg = f.read()
    st = os.stat(base + ".sg4")
    with open(base + ".sg4", "ab") as f:
        f.write(b"\0")
    rc, _, err = run_tool("tree", "--moves", "", "--index", ix, base)
    check(rc == 2 and "b.sg4 has another size" in err, "grown file: %d %r" % (rc, err))
    with open(base + ".sg4", "wb") as f:
        f.write(bytes([sg[0] ^ 0xFF]) + sg[1:])
    os.utime(base + ".sg4", (st.st_atime, st.st_mtime))
    rc, _, err = run_tool("tree", "--moves", "", "--index", ix, base)
    check(rc == 2 and "b.sg4 holds other bytes" in err, "rewritten file: %d %r" % (rc, err))
    os.unlink(base + ".sn4")
    rc, _, err = run_tool("tree", "--moves", "", "--index", ix, other)
    eq(rc, 2, "base gone: exit 2")
    # -o over a file of the base: refused, the base untouched
    before = open(other + ".si4", "rb").read()
    rc, _, err = run_tool("index", other, "-o", other + ".si4")
    check(rc == 2 and "refusing" in err, "index -o over the base: refused (%d %r)" % (rc, err))
    eq(open(other + ".si4", "rb").read(), before, "the base is untouched")
    rc, _, err = run_tool("index", other)
    check(rc == 2 and "-o FILE" in err, "index without -o: refused (%d %r)" % (rc, err))
    return done()


def u64(b, at):
    return int.from_bytes(b[at:at + 8], "little")


def put(b, at, v):
    b[at:at + 8] = (v % (1 << 64)).to_bytes(8, "little")


def damaged():
    si4 = small_si4()
    if not si4:
        return done("no real SCID base (set GAMEDB_REALDATA)")
    base = copy_base(si4, os.path.join(TMP, "d"))
    rc, err, ix = build([base])
    eq(rc, 0, "index (%s)" % err.strip())
    good = open(ix, "rb").read()
    secs = [(u64(good, 64 + 16 * i), u64(good, 72 + 16 * i)) for i in range(8)]
    bad_path = os.path.join(TMP, "bad.gdbi")

    def ask(data, what, msg=None, allow_ok=False):
        with open(bad_path, "wb") as f:
            f.write(data)
        for cmd in (["tree", "--moves", "e4"], ["tree", "--moves", ""], ["search", "--moves", ""]):
            rc, out, err = run_tool(*cmd, "--index", bad_path, base)
            if allow_ok and rc in (0, 1):
                continue
            if not check(rc == 2, "%s: %s exits 2 (%d: %s)" % (what, cmd[0], rc, err.strip())):
                return
            check("bad.gdbi" in err and (msg is None or msg in err),
                  "%s: the message names the index%s: %r" % (what, " and says " + repr(msg) if msg else "", err))

    b = bytearray(good)
    b[0:8] = b"GDBINDX2"
    ask(bytes(b), "signature", "no GDBINDX1 signature")
    b = bytearray(good)
    b[8] = 2
    ask(bytes(b), "version", "another version")
    b = bytearray(good)
    put(b, 16, 1 << 60)
    ask(bytes(b), "a huge base count", "more bases")
    b = bytearray(good)
    put(b, 32, u64(good, 32) + 1)
    ask(bytes(b), "a key count one too many", "does not match its count")
    b = bytearray(good)
    put(b, 64 + 16 * 2 + 8, 1 << 62)
    ask(bytes(b), "a section size past the end", "does not fit")
    b = bytearray(good)
    put(b, 64 + 16 * 3, secs[3][0] + 8)
    ask(bytes(b), "a section out of its place", "does not fit")
    ask(good + b"\0", "a byte more at the end", "longer than its sections")
    # the first posting's game gap far past the games (a varint of 9 bytes)
    post_off = secs[5][0]
    b = bytearray(good)
    b[post_off:post_off + 2] = b"\xff\xff"
    ask(bytes(b), "a posting past the games", None, allow_ok=True)
    # every offset of the key table pointing past the postings
    b = bytearray(good)
    for k in range(secs[4][1] // 8):
        put(b, secs[4][0] + 8 * k, secs[5][1] + 1 + k)
    ask(bytes(b), "key offsets past the postings", "outside their section")
    # keys out of order
    if secs[2][1] >= 16:
        b = bytearray(good)
        put(b, secs[2][0] + 8, 0)
        ask(bytes(b), "keys out of order", None, allow_ok=True)
    # a file name length past its section
    b = bytearray(good)
    b[secs[0][0] + 24 + 24:secs[0][0] + 24 + 28] = (1 << 31).to_bytes(4, "little")
    ask(bytes(b), "a file name past its section", "name runs past")
    # truncated: every length of the header and table, then some more
    for n in list(range(0, 64 + 128 + 1, 7)) + [len(good) // 2, len(good) - 1]:
        ask(good[:n], "cut to %d bytes" % n)
    # random bytes in every section: no crash (a valid-looking answer is allowed)
    import random
    rnd = random.Random(30)
    for i in range(40):
        b = bytearray(good)
        for _ in range(4):
            at = rnd.randrange(len(b))
            b[at] = rnd.randrange(256)
        with open(bad_path, "wb") as f:
            f.write(b)
        rc, _, err = run_tool("tree", "--moves", "e4 e5", "--index", bad_path, base)
        check(rc in (0, 1, 2), "random damage %d: exit 0, 1 or 2, no crash (%d %s)" % (i, rc, err.strip()))
    return done()


if __name__ == "__main__":
    mode = sys.argv[1] if len(sys.argv) > 1 else "real"
    try:
        sys.exit({"real": real, "scid": scid, "stale": stale, "damaged": damaged,
                  "unordered": unordered, "search": search}[mode]())
    finally:
        shutil.rmtree(TMP, ignore_errors=True)
