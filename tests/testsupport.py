# SPDX-License-Identifier: LGPL-2.1-or-later
"""What the Python test scripts of tests/ share: check counters and the closing line, the
gamedb command, other programs, the binding and the fixture scripts. Standard library only.

    from testsupport import check, done
    check(rc == 0, "info exits 0")   # counts; prints "FAIL: ..." to stderr when false
    return done()                    # prints "N passed, N failed"; 1 if any failed, else 0

Scripts that load libgamedb (import_gamedb) run through tests/pyrun.py, which preloads the
sanitizer runtime in an ASan build. CHESSBASE_UNSUPPORTED lists the real ChessBase games the
library cannot decode yet, for the tests that decode every real game.
"""
import importlib.util
import os
import shutil
import subprocess
import sys

import pyrun

HERE = os.path.dirname(os.path.abspath(__file__))
SRCDIR = os.path.dirname(HERE)
TOOL = os.environ.get("GAMEDB_TOOL", "")
SKIP = 77  # what meson counts as a skipped test

passed = failed = 0


def check(cond, what):
    """Counts one check; reports what failed on stderr. Returns cond."""
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print("FAIL:", what, file=sys.stderr)
    return cond


def eq(got, want, what):
    return check(got == want, "%s: got %r, want %r" % (what, got, want))


def done(skip=None):
    """Prints "N passed, N failed" and returns the exit status: 1 if a check failed, else
    SKIP when skip (the reason, printed) is given, else 0."""
    print("%d passed, %d failed" % (passed, failed))
    if failed:
        return 1
    if skip:
        print("SKIP: " + skip)
        return SKIP
    return 0


# Games of the real ChessBase bases that libgamedb cannot decode yet, pinned as exact
# expectations (issue "ChessBase: Chess960 and every move-encoding mode, games without their
# final marker"): (base under $GAMEDB_REALDATA/chessbase without ".cbh", first game, last game,
# reason). Each of these games must fail, the library's message ending with "game N: " and
# the reason (N: the CBH record number, as the messages count; in these bases, which hold no
# texts, also the game's number); every other game must decode. Whoever implements the
# support removes the entries it covers: a pinned game that decodes, or fails for another
# reason, fails the tests. tests/test-cbg.c keeps the same list in C (unsupported[]).
CHESSBASE_UNSUPPORTED = [
    # Deliberately damaged: the black castling rook squares are bytes past the board.
    ("libcbh/Chess960Corrupt/Corrupt", 1, 4,
     "bad setup position: a Chess960 castling rook square is bad"),
]


def chessbase_name(stem):
    """A base's name in CHESSBASE_UNSUPPORTED: its path (without ".cbh") under
    $GAMEDB_REALDATA/chessbase."""
    return os.path.relpath(stem, os.path.join(os.environ.get("GAMEDB_REALDATA", ""),
                                              "chessbase")).replace(os.sep, "/")


def chessbase_unsupported(stem):
    """The pinned games of the base at stem: {CBH record number: how its message ends}."""
    return {n: "game %d: %s" % (n, reason) for base, first, last, reason in CHESSBASE_UNSUPPORTED
            if base == chessbase_name(stem) for n in range(first, last + 1)}


def check_chessbase_unsupported_read(stems):
    """Checks that every base of CHESSBASE_UNSUPPORTED is among stems (the bases a test read):
    a misspelt or stale entry pins nothing."""
    missing = {base for base, _, _, _ in CHESSBASE_UNSUPPORTED} - {chessbase_name(s)
                                                                   for s in stems}
    return check(not missing, "bases of CHESSBASE_UNSUPPORTED not read: %s" % sorted(missing))


def find_program(name):
    """A program from PATH, or from /usr/games (Debian puts tkscid there, outside a
    non-login PATH) or /usr/bin; None when it is not installed."""
    return shutil.which(name) or next((p for p in ("/usr/games/" + name, "/usr/bin/" + name)
                                       if os.access(p, os.X_OK)), None)


def run_tool(*args, env=None):
    """Runs $GAMEDB_TOOL with args (stdin empty; env: variables set over the environment).
    Returns (exit status, stdout bytes, stderr text)."""
    p = subprocess.run([TOOL, *args], capture_output=True, stdin=subprocess.DEVNULL,
                       env=dict(os.environ, **env) if env else None)
    return p.returncode, p.stdout, p.stderr.decode("utf-8", "replace")


def import_gamedb():
    """The in-tree binding (python/gamedb), loading $GAMEDB_LIBRARY. An ASan build of the
    library kills a process that has not preloaded its runtime: say how to run instead."""
    try:
        with open("/proc/self/maps") as f:
            preloaded = "libasan" in f.read()
    except OSError:  # not Linux: no ldd either, so no preload to ask for
        preloaded = False
    if not preloaded and pyrun.sanitizer_runtime(os.environ.get("GAMEDB_LIBRARY")):
        sys.exit("%s: $GAMEDB_LIBRARY is an ASan build: run python3 tests/pyrun.py %s"
                 % (sys.argv[0], " ".join(sys.argv)))
    sys.path.insert(0, os.path.join(SRCDIR, "python"))
    import gamedb
    return gamedb


def load_script(path, name):
    """A Python file whose name is not a module name (make-corpus.py), imported as name."""
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod
