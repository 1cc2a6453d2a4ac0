#!/usr/bin/env python3
"""Tests of the gamedb command: options, ranges, exit codes, deleted games, errors.

Uses the real five-game SCID base (../shared/realdata) and the fixtures in testdata/scid.
Expected facts are written by hand from the bases (not produced by gamedb).
--password: the encrypted ChessBase archives of uncbv's tests (realdata chessbase/uncbv), with
the passwords uncbv's tests give them, against their unpacked twin small/ (a base of 0 games).
"""
import ctypes
import json
import re
import resource
import signal
import subprocess
import time
import os
import shutil
import sys
import tempfile

from testsupport import check, done, eq, run_tool as run

REAL = os.environ.get("GAMEDB_REALDATA", "")
FIVE = os.path.join(REAL, "scid", "scidtopgn", "five", "five")


def games(pgn_bytes):
    return [g for g in pgn_bytes.decode("utf-8").split("\n\n[") if g.strip()]


def registry_options():
    """The options of the formats, from the library's registry (gamedb_format_get_option()):
    {key: (default, set of the formats that have it)}."""
    lib = ctypes.CDLL(os.environ["GAMEDB_LIBRARY"])
    lib.gamedb_format_count.restype = ctypes.c_size_t
    lib.gamedb_format_get_name.restype = ctypes.c_char_p
    lib.gamedb_format_get_name.argtypes = [ctypes.c_size_t]
    lib.gamedb_format_get_option.restype = ctypes.c_char_p
    lib.gamedb_format_get_option.argtypes = [ctypes.c_size_t, ctypes.c_size_t,
                                             ctypes.POINTER(ctypes.c_char_p),
                                             ctypes.POINTER(ctypes.c_char_p)]
    opts = {}
    for i in range(lib.gamedb_format_count()):
        fmt = lib.gamedb_format_get_name(i).decode()
        k = 0
        while True:
            default = ctypes.c_char_p()
            key = lib.gamedb_format_get_option(i, k, ctypes.byref(default), None)
            if not key:
                break
            entry = opts.setdefault(key.decode(), [default.value.decode(), set()])
            entry[1].add(fmt)
            k += 1
    return opts


def option_table(td):
    """The command's option table (tools/cmdline.c): the options of the formats come from the
    library's registry, so every key it lists is an option, as --KEY VALUE and --KEY=VALUE,
    and reaches the reader of every database; an option nobody has is refused."""
    tags = os.path.join(td, "scid", "tags.si4")
    ca = os.path.join(td, "chessassistant", "hand.cdp")
    bases = [(b, f) for b, f in ((tags, "scid"), (ca, "chessassistant")) if os.path.exists(b)]
    opts = registry_options()
    check(len(opts) >= 3, "the registry lists the options of the formats: %r" % opts)
    for key, (default, fmts) in sorted(opts.items()):
        for base, fmt in bases:
            plain = run("pgn", base)
            a = run("pgn", base, "--" + key, default)
            b = run("pgn", base, "--%s=%s" % (key, default))
            eq(a, b, "pgn --%s %s is pgn --%s=%s" % (key, default, key, default))
            note = "gamedb: note: %s: the %s format has no option '%s'; ignored" % (base, fmt, key)
            # The format's own default changes nothing; a format without the option says so
            # once (the reader's answer: the option reached gamedb_reader_set_option()).
            want_err = plain[2] if fmt in fmts else note + "\n" + plain[2]
            check(a[0] == plain[0] and a[1] == plain[1] and a[2] == want_err,
                  "%s: --%s %s (the %s default) is taken, %s: %r" %
                  (base, key, default, "format's" if fmt in fmts else "other formats'",
                   "no note" if fmt in fmts else "one note", a[2]))
    # A value the format refuses costs that database only, with the library's message naming
    # the option; the other databases are written.
    if len(bases) == 2:
        rc0, alone, _ = run("pgn", tags)
        rc, out, err = run("pgn", tags, ca, "--direction", "up")
        check(rc == 2 and out == alone and "gamedb: %s: --direction: " % ca in err,
              "--direction up: the Chess Assistant base fails, the SCID base is written: %r" % err)
    # An option no format and not the command has: refused in one line naming it (then the
    # hint where the help is, as for every unknown option), nothing written.
    if bases:
        for args in (["--no-such-option", "x"], ["--no-such-option=x"]):
            rc, out, err = run("pgn", tags, *args)
            lines = err.splitlines()
            check(rc == 2 and not out and lines == ['gamedb: unknown option "--no-such-option"',
                                                    "Try 'gamedb pgn --help'."],
                  "%s: refused in one line: %r" % (args, err[:200]))
    # --charset (every format's, before the open) reaches the reader: latin1's text that looks
    # like UTF-8 (testdata/scid/README: "Ã©") is read as Latin-1 when forced, and without the
    # fallback warnings.
    lat = os.path.join(td, "scid", "latin1.si4")
    if os.path.exists(lat):
        rc0, dflt, err0 = run("pgn", lat)
        a = run("pgn", lat, "--charset", "ISO-8859-1")
        b = run("pgn", lat, "--charset=ISO-8859-1")
        check(a == b and a[0] == 0 and a[1] != dflt and "Ã©" in a[1].decode("utf-8")
              and "fallback" not in a[2] and "fallback" in err0,
              "--charset ISO-8859-1 changes latin1's text and is --charset=ISO-8859-1")
    # "--" ends the options (a database named -x), "-" is standard input, and PolyGlot's
    # single-dash book options are ours: -max-ply is --max-ply is --max-ply=.
    if bases:
        with tempfile.TemporaryDirectory() as tmp:
            for ext in (".si4", ".sn4", ".sg4"):
                shutil.copy(tags[:-4] + ext, os.path.join(tmp, "-tags" + ext))
            p = subprocess.run([os.environ["GAMEDB_TOOL"], "pgn", "--", "-tags"], cwd=tmp,
                               capture_output=True, stdin=subprocess.DEVNULL)
            check(p.returncode == 0 and p.stdout == run("pgn", tags)[1],
                  "pgn -- -tags: a database named -tags")
            books = []
            for args in (["-max-ply", "6", "-min-game", "1", "-uniform"],
                         ["--max-ply", "6", "--min-game", "1", "--uniform"],
                         ["--max-ply=6", "--min-game=1", "--uniform"]):
                out = os.path.join(tmp, "b%d.bin" % len(books))
                rc, _, err = run("book", tags, "-o", out, *args)
                books.append(open(out, "rb").read() if rc == 0 else None)
            check(books[0] and books[0] == books[1] == books[2],
                  "book: -max-ply -min-game -uniform = --max-ply ... = --max-ply=...")
    logs = os.path.join(REAL, "style12", "fatics", "fatics_style12_lines.txt")
    if os.path.exists(logs):
        with open(logs, "rb") as f:
            p = subprocess.run([os.environ["GAMEDB_TOOL"], "pgn", "--range=1-3", "-"], stdin=f,
                               capture_output=True)
        rc, out, err = run("pgn", "--range", "1-3", logs)
        check(p.returncode == rc and p.stdout == out and out,
              "pgn --range=1-3 - < log is pgn --range 1-3 log")


COMMANDS = ("info", "pgn", "json", "fen", "epd", "uci", "positions", "book")


def command_help():
    """Issue 28 item 8.2: each command has its own short help (gamedb CMD --help, gamedb help
    CMD), listing its options; gamedb help is the general help; a mistake on the command line
    is one line and a hint where the help is, not the whole usage (57 lines on every typo).
    The help's options come from the option table the command line is parsed with: every
    option a command's help lists is taken by that command (none is "unknown")."""
    rc, general, err = run("--help")
    check(rc == 0 and run("help") == (0, general, "") and run("-h") == (0, general, ""),
          "gamedb help and -h are gamedb --help")
    for cmd in COMMANDS:
        check(cmd.encode() in general, "the general help names the command %s" % cmd)
        rc, out, err = run(cmd, "--help")
        text = out.decode()
        check(rc == 0 and not err and text.startswith("usage: gamedb %s " % cmd)
              and len(text.splitlines()) <= 45 and text != general.decode(),
              "%s --help: its own short help (%d lines)" % (cmd, len(text.splitlines())))
        eq(run("help", cmd), (rc, out, err), "gamedb help %s is gamedb %s --help" % (cmd, cmd))
        eq(run(cmd, "-h"), (rc, out, err), "gamedb %s -h is gamedb %s --help" % (cmd, cmd))
        listed = re.findall(r"^  (?:-\w, )?(--[\w-]+)( \S+)?", text, re.M)
        check(len(listed) >= 3, "%s --help lists options: %r" % (cmd, listed))
        for name, arg in listed:
            value = arg.strip().split("|")[-1] if arg else None
            if value in ("FILE",):
                continue  # -o: its own tests
            args = [name] if value is None else [name, {"A:B": "0:1", "LIST": "1", "N": "1",
                                                        "PCT": "0", "MIB": "16"}.get(value, value)]
            rc2, _, err2 = run(cmd, *args, "/nonexistent/base.si4")
            check("unknown option" not in err2 and "takes no value" not in err2,
                  "%s --help lists %s, which %s takes: %r" % (cmd, " ".join(args), cmd, err2))
    for cmd, has, hasnt in (("pgn", "--layout", "--min-game"), ("book", "--min-game", "--layout"),
                            ("positions", "--csv", "--no-comments"), ("info", "--password", "-o")):
        text = run(cmd, "--help")[1].decode()
        check(re.search(r"^  (-\w, )?%s\b" % has, text, re.M) and
              not re.search(r"^  (-\w, )?%s\b" % hasnt, text, re.M),
              "%s --help lists %s, not %s" % (cmd, has, hasnt))
    # The options of the formats (the library's registry) are in each command's help.
    for key in registry_options():
        check(all(("--%s " % key).encode() in run(cmd, "--help")[1] for cmd in COMMANDS),
              "every command's help lists the format option --%s" % key)
    # A mistake: one line and the hint.
    for args, lines in ((["pgn", "--bogus", "x"], ['gamedb: unknown option "--bogus"',
                                                   "Try 'gamedb pgn --help'."]),
                        (["frobnicate", "x"], ['gamedb: unknown command "frobnicate"',
                                               "Try 'gamedb --help'."]),
                        (["help", "frobnicate"], ['gamedb: help: unknown command "frobnicate"',
                                                  "Try 'gamedb --help'."]),
                        (["book", "-o", "x.bin"], ["gamedb: no database given",
                                                   "Try 'gamedb book --help'."])):
        rc, out, err = run(*args)
        eq((rc, out, err.splitlines()), (2, b"", lines), "gamedb %s: one line and the hint"
           % " ".join(args))


def main():
    # Usage errors: exit 2 with a message.
    rc, out, err = run()
    check(rc == 2 and "usage" in err, "no arguments -> 2 + usage")
    rc, out, err = run("frobnicate", "x")
    check(rc == 2 and "unknown command" in err, "unknown command -> 2")
    rc, out, err = run("pgn", "--bogus", "x")
    check(rc == 2 and "unknown option" in err, "unknown option -> 2")
    for bad in ("5-2", "abc", "0-3", "3", "1-2-3", "1:2-3", "2:1", "-0"):
        rc, out, err = run("pgn", "--range", bad, "x")
        eq((rc, err.splitlines()), (2, ['gamedb: --range wants FIRST-LAST, games counted from 1 '
                                         'with FIRST <= LAST (5-9, 5-, -9), got "%s"' % bad]),
           "--range %s -> 2, one line" % bad)
    rc, out, err = run("pgn", "-o")
    check(rc == 2 and "needs a value" in err, "-o without value -> 2")
    rc, out, err = run("--version")
    check(rc == 0 and out.startswith(b"gamedb "), "--version")
    rc, out, err = run("--help")
    check(rc == 0 and b"usage" in out, "--help")
    for cmd in ("pgn", "json", "info", "book", "fen"):
        rc, out, err = run(cmd, "--help")
        check(rc == 0 and b"usage" in out and not err, "%s --help -> 0 + usage on stdout" % cmd)
    command_help()
    # --name=value is --name value for every option that takes a value (it held for --range
    # and --jobs only); a flag given a value is refused.
    td = os.environ.get("GAMEDB_TESTDATA", "")
    edge = os.path.join(td, "scid", "edge.si4")
    if td and os.path.exists(edge):
        for opts in (["--range", "2-3"], ["--games", "2,3"], ["--layout", "scid"],
                     ["--commands", "all"], ["--jobs", "2"], ["--charset", "CP1252"]):
            a = run("pgn", edge, *opts)
            b = run("pgn", edge, "%s=%s" % tuple(opts))
            check(a[0] == 0 and a == b, "pgn %s=%s is pgn %s %s" % (tuple(opts) * 2))
        rc, out, err = run("pgn", edge, "--partial=1")
        check(rc == 2 and "takes no value" in err, "--partial=1 -> 2, takes no value")
        rc, out, err = run("pgn", edge, "--range=")
        check(rc == 2 and "--range" in err, "--range= (empty) -> 2")
    # "--" ends the options: a name starting with '-' is a database.
    rc, out, err = run("pgn", "--", "-no-such-base")
    check(rc == 2 and "-no-such-base" in err and "unknown option" not in err,
          "pgn -- -name: the name is a database")

    # A database that does not exist: exit 2, the message names the file.
    rc, out, err = run("pgn", "/nonexistent/base.si4")
    check(rc == 2 and "/nonexistent/base.si4" in err, "missing database -> 2 naming the file")

    # Not a database.
    with tempfile.TemporaryDirectory() as tmp:
        junk = os.path.join(tmp, "junk.si4")
        with open(junk, "wb") as f:
            f.write(b"this is not a chess database at all\n" * 10)
        rc, out, err = run("info", junk)
        check(rc == 2 and "junk.si4" in err, "junk file -> 2 naming the file")

    if not os.path.exists(FIVE + ".si4"):
        print("SKIP: real data not found; only usage tests ran")
        return done()

    # info: format, count, description.
    rc, out, err = run("info", FIVE + ".si4")
    text = out.decode()
    check(rc == 0, "info exit 0")
    check("format: scid" in text and "games: 5" in text and "description: Test" in text,
          "info fields: " + text)

    # Opening by base name equals opening by index file.
    rc1, out1, _ = run("pgn", FIVE)
    rc2, out2, _ = run("pgn", FIVE + ".si4")
    check(rc1 == 0 and rc2 == 0 and out1 == out2 and len(games(out1)) == 5, "base name == .si4")

    # First game facts (from the base itself: Hossain - Murshed, 1/2-1/2, 19.Nxe6).
    first = games(out1)[0]
    check('[White "Hossain, Enam"]' in first and '[Result "1/2-1/2"]' in first
          and "19.Nxe6 1/2-1/2" in first, "first game content")

    # --range FIRST-LAST: games counted from 1 as --games counts them, both ends included
    # (issue 28 item 8.4: it counted from 0 and left out the last, unlike everything else).
    rc, out, err = run("pgn", FIVE, "--range", "2-3")
    g = games(out)
    check(rc == 0 and len(g) == 2 and not err, "range 2-3 gives 2 games")
    check(g and '[Round "5.2"]' in g[0], "range 2-3 starts at the second game")
    eq(out, run("pgn", FIVE, "--games", "2-3")[1], "--range 2-3 is --games 2-3")
    rc, out, _ = run("pgn", FIVE, "--range", "4-")
    check(len(games(out)) == 2, "range 4- gives 2 games")
    rc, out, _ = run("pgn", FIVE, "--range", "-1")
    check(len(games(out)) == 1, "range -1 gives 1 game")
    rc, out, _ = run("pgn", FIVE, "--range", "5-5")  # five.pgn: the fifth is round 7.7
    check(len(games(out)) == 1 and '[Round "7.7"]' in out.decode(), "range 5-5: the fifth game")
    rc, out, err = run("pgn", FIVE, "--range", "11-20")
    check(rc == 0 and out == b"", "range past the end gives nothing")
    eq(err, "gamedb: warning: %s: --range starts at game 11, past its 5 games\n" % FIVE,
       "--range past the end warns, naming the first game as given")
    # The old form A:B (from 0, B left out) still takes the same games, with a note giving
    # the new spelling, so that a script is not silently shifted by one game.
    for old, new in (("1:3", "2-3"), ("3:", "4-"), (":1", "-1"), ("0:5", "-5")):
        rc, out, err = run("pgn", FIVE, "--range", old)
        eq((rc, out, err), (0, run("pgn", FIVE, "--range", new)[1],
                            "gamedb: note: --range %s counts games from 0 and leaves out the last "
                            "(the old form, kept for scripts); games are counted from 1: write "
                            "--range %s\n" % (old, new)),
           "--range %s (old form): the games of --range %s, and a note" % (old, new))
    # JSON Lines of two databases: "file" and a running "n" beside each database's "index".
    rc, out, err = run("json", FIVE, FIVE + ".si4")
    objs = [json.loads(l) for l in out.splitlines()]
    check(rc == 0 and [o["n"] for o in objs] == list(range(len(objs))), "json: n runs on")
    check([o["index"] for o in objs] == list(range(len(objs) // 2)) * 2,
          "json: index restarts per database")
    check([o["file"] for o in objs] == [FIVE] * (len(objs) // 2) + [FIVE + ".si4"] * (len(objs) // 2),
          "json: file names the database as given")
    # Clocks as numbers next to their text: "clock" and "elapsed" are the seconds of %clk/%emt.
    logs = os.path.join(REAL, "style12", "fatics", "fatics_style12_lines.txt")
    if os.path.exists(logs):
        rc, out, err = run("json", logs)
        seen = 0
        def secs(t):
            neg, t = t.startswith("-"), t.lstrip("-")
            v = 0.0
            for part in t.split(":"):
                v = v * 60 + float(part)
            return -v if neg else v
        def walk(moves):
            global_seen = 0
            for m in moves:
                for c in m.get("commands", []):
                    key = {"%clk": "clock", "%emt": "elapsed"}.get(c.split(" ")[0])
                    if key:
                        eq(m.get(key), secs(c.split(" ", 1)[1]), "json %s of %r" % (key, c))
                        global_seen += 1
                for v in m.get("variations", []):
                    global_seen += walk(v)
            return global_seen
        for l in out.splitlines():
            seen += walk(json.loads(l)["moves"])
        check(seen >= 40, "json clocks compared (%d)" % seen)
    # --partial: a game whose moves fail is written up to the failure, with a comment saying
    # where, and still reported (exit 1); without it the game is left out.
    corrupt = os.path.join(REAL, "chessbase", "libcbh", "Chess960Corrupt", "Corrupt.cbh")
    if os.path.exists(corrupt):
        rc0, out0, _ = run("pgn", corrupt)
        rc, out, err = run("pgn", "--partial", corrupt)
        n = out.count(b"\n[Event ") + out.startswith(b"[Event ")
        check(rc0 == 1 and b"[Event " not in out0, "without --partial the failing games are left out")
        check(rc == 1 and n == 4 and out.count(b"could not be read past here") == 4
              and err.count("written in part") == 4, "--partial writes the 4 games in part")
        # A game written in part has no result: its Result tag is "*" like its movetext, in
        # PGN and in JSON (which says where it stopped in "partial").
        check(out.count(b'[Result "*"]') == 4 and b'[Result "1-0"]' not in out,
              "--partial: the Result tag of a partial game is *")
        rc, out, err = run("json", "--partial", corrupt)
        objs = [json.loads(l) for l in out.splitlines()]
        check(rc == 1 and len(objs) == 4
              and all(o["tags"].get("Result") == "*" for o in objs)
              and all("offset" in o.get("partial", "") for o in objs),
              "json --partial: 4 games, Result *, \"partial\" says where")
    # --games: Scid's 1-based numbers, single or ranges, in any order.
    rc, out, _ = run("json", FIVE, "--games", "4,1-2")
    check(rc == 0 and [json.loads(l)["index"] for l in out.splitlines()] == [0, 1, 3],
          "--games 4,1-2 gives games 1, 2 and 4")
    for bad in ("0", "3-1", "x", "1,,2"):
        rc, _, err = run("pgn", FIVE, "--games", bad)
        check(rc == 2 and "--games" in err, "--games %s -> 2" % bad)
    # A file of a base that does not open it: the message names the one that does.
    rc, _, err = run("pgn", FIVE + ".sg4")
    check(rc == 2 and "open " + FIVE + ".si4" in err, "a .sg4 names its .si4: %r" % err)
    with tempfile.TemporaryDirectory() as tmp:
        pgn = os.path.join(tmp, "games.txt")
        with open(pgn, "w") as f:
            f.write('[Event "x"]\n\n1.e4 *\n')
        rc, _, err = run("info", pgn)
        check(rc == 2 and "is PGN already" in err, "PGN input is named as PGN: %r" % err)
    # Concatenated ranges give the whole base: the point of --range for batch splitting.
    parts = b"".join(run("pgn", FIVE, "--range", r)[1] for r in ("1-2", "3-4", "5-"))
    check(parts == out1, "ranges concatenate to the whole")

    # -o writes a file; stdout stays empty; no progress output when stderr is not a tty.
    with tempfile.TemporaryDirectory() as tmp:
        dest = os.path.join(tmp, "out.pgn")
        rc, out, err = run("pgn", FIVE, "-o", dest)
        check(rc == 0 and out == b"" and err == "", "-o: quiet stdout/stderr")
        check(open(dest, "rb").read() == out1, "-o content")
        rc, out, err = run("pgn", FIVE, "-o", os.path.join(tmp, "no", "such", "dir.pgn"))
        check(rc == 2 and "dir.pgn" in err, "unwritable -o -> 2")
        # An output that cannot be made says so, with the system's reason, in one line: a
        # missing folder, a file in place of a folder, a name whose folder cannot be looked
        # into (a loop of symbolic links: ELOOP; as a user, a folder without permission)
        # ("cannot tell whether it belongs to" the database was said instead).
        os.symlink("loop", os.path.join(tmp, "loop"))
        open(os.path.join(tmp, "plain"), "w").close()
        cases = [(os.path.join(tmp, "no", "x.pgn"), "No such file or directory"),
                 (os.path.join(tmp, "plain", "x.pgn"), "Not a directory"),
                 (os.path.join(tmp, "loop", "x.pgn"), "Too many levels of symbolic links")]
        if os.geteuid() != 0:
            locked = os.path.join(tmp, "locked")
            os.mkdir(locked, 0)
            cases.append((os.path.join(locked, "x.pgn"), "Permission denied"))
        for dest, why in cases:
            for db in (FIVE, FIVE + ".si4"):
                rc, out, err = run("pgn", db, "-o", dest)
                eq((rc, out, err), (2, b"", "gamedb: cannot create %s: %s\n" % (dest, why)),
                   "-o %s: cannot create, %s" % (dest, why))
        # -o - is standard output, as - is standard input (it made a file named "-").
        for args in (["-o", "-"], ["--output=-"]):
            p = subprocess.run([os.environ["GAMEDB_TOOL"], "pgn", FIVE] + args, cwd=tmp,
                               capture_output=True, stdin=subprocess.DEVNULL)
            check(p.returncode == 0 and p.stdout == out1 and not os.path.exists(
                os.path.join(tmp, "-")), "pgn %s: the games on standard output, no file -"
                  % " ".join(args))

    # book ends with a summary on stderr (an empty book was written without a word, exit 0):
    # the games read and used, why the others were left out, the book's positions (distinct
    # keys) and entries (16 bytes each), counted here from the book file itself.
    mate1 = os.path.join(REAL, "scid", "scidvspc-modern", "si4", "matein1", "matein1.si4")
    with tempfile.TemporaryDirectory() as tmp:
        dest = os.path.join(tmp, "b.bin")
        # matein1: 1,212 mate-in-one problems, each from a set-up position (MANIFEST.md).
        if os.path.exists(mate1):
            rc, out, err = run("book", mate1, "-o", dest, "--standard-start")
            eq((rc, err), (0, "gamedb: book: 1,212 games read, 0 used (1,212 start from a set-up "
                           "position: see --standard-start), 0 positions, 0 entries written to "
                           "%s: empty, no game was used\n" % dest),
               "book --standard-start of set-up games: the summary says why it is empty")
            rc, out, err = run("book", mate1, "-o", dest)
            check(rc == 0 and err.startswith("gamedb: book: 1,212 games read, 1,212 used, 0 "
                                             "positions, 0 entries written to %s: empty" % dest)
                  and "--min-game" in err and len(err.splitlines()) == 1,
                  "book of one-move games: empty, --min-game named: %r" % err)
        for opts in ([], ["--min-game", "1"]):
            rc, out, err = run("book", FIVE, "-o", dest, *opts)
            data = open(dest, "rb").read()
            keys = {data[i:i + 8] for i in range(0, len(data), 16)}
            eq((rc, err), (0, "gamedb: book: 5 games read, 5 used, %s positions, %s entries "
                           "written to %s\n" % (format(len(keys), ","),
                                                 format(len(data) // 16, ","), dest)),
               "book %s of the five games: the summary" % opts)
            check(len(data) > 0, "book %s: not empty" % opts)

    # -o never writes over a file of a database it reads (issue 8: `-o base.sg4` emptied the
    # game file). Each file of the base, by its name, through a symbolic link and through a
    # hard link, with the base given by its index file or by its base name: exit 2, a message,
    # every file of the base unchanged, no temporary file left behind.
    with tempfile.TemporaryDirectory() as tmp:
        base = os.path.join(tmp, "b")
        for ext in ("si4", "sn4", "sg4"):
            shutil.copy(FIVE + "." + ext, base + "." + ext)
        before = {e: open(base + "." + e, "rb").read() for e in ("si4", "sn4", "sg4")}
        os.symlink("b.sg4", os.path.join(tmp, "link.pgn"))
        os.link(base + ".sn4", os.path.join(tmp, "hard.pgn"))
        targets = [base + ".si4", base + ".sn4", base + ".sg4",
                   os.path.join(tmp, "link.pgn"), os.path.join(tmp, "hard.pgn")]
        for db in (base + ".si4", base):
            for t in targets:
                for cmd in ("pgn", "json"):
                    rc, out, err = run(cmd, FIVE, db, "-o", t)
                    check(rc == 2 and "refusing to write over a file of the database" in err
                          and os.path.basename(t) in err,
                          "%s %s -o %s -> 2 (%d: %s)" % (cmd, os.path.basename(db),
                                                        os.path.basename(t), rc, err.strip()))
        after = {e: open(base + "." + e, "rb").read() for e in ("si4", "sn4", "sg4")}
        check(after == before, "-o onto the base: every file of the base unchanged")
        check(sorted(os.listdir(tmp)) == ["b.sg4", "b.si4", "b.sn4", "hard.pgn", "link.pgn"],
              "-o onto the base: nothing else in the folder (%s)" % sorted(os.listdir(tmp)))

        # A symbolic link to a file that is not part of a base is written through.
        real = os.path.join(tmp, "real.pgn")
        open(real, "wb").write(b"old\n")
        os.chmod(real, 0o640)
        os.symlink("real.pgn", os.path.join(tmp, "out-link.pgn"))
        rc, out, err = run("pgn", FIVE, "-o", os.path.join(tmp, "out-link.pgn"))
        check(rc == 0 and open(real, "rb").read() == out1
              and os.path.islink(os.path.join(tmp, "out-link.pgn")),
              "-o through a symbolic link writes its target")
        check(os.stat(real).st_mode & 0o777 == 0o640, "-o keeps the permissions of the file")

        # A database that cannot be opened costs only its own games (issue 26): the file is
        # written with the other's and kept, exit 2, the ledger names the one not opened.
        missing = os.path.join(tmp, "missing")
        open(real, "wb").write(b"old\n")
        rc, out, err = run("pgn", FIVE, missing, "-o", real)
        check(rc == 2 and "not written" not in err and open(real, "rb").read() == out1
              and ("gamedb: %s: not opened" % missing) in err.splitlines(),
              "a base not opened: -o holds the other's games, exit 2 (%d, %r)" % (rc, err))
        fresh = os.path.join(tmp, "fresh.pgn")
        rc, out, err = run("pgn", missing, FIVE, "-o", fresh)
        check(rc == 2 and os.path.exists(fresh) and open(fresh, "rb").read() == out1,
              "the base not opened first: -o still holds the other's games")
        check(not [n for n in os.listdir(tmp) if n.startswith(".gamedb-")],
              "no temporary file is left behind")
        # A run that stops (the output cannot be written) writes nothing and leaves what was
        # there: a file size limit (ulimit -f) below the output.
        def fsize(limit):
            return lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
        p = subprocess.run([os.environ["GAMEDB_TOOL"], "pgn", FIVE, "-o", real],
                           capture_output=True, preexec_fn=fsize(1000))
        check(p.returncode == 2 and b"File too large" in p.stderr and b"not written" in p.stderr
              and open(real, "rb").read() == out1,
              "failed run: the old output is left as it was (%d, %r)" % (p.returncode, p.stderr))
        check(not [n for n in os.listdir(tmp) if n.startswith(".gamedb-")],
              "no temporary file is left behind")

        # Devices and FIFOs are written directly, never replaced.
        rc, out, err = run("pgn", FIVE, "-o", "/dev/null")
        check(rc == 0 and err == "" and os.path.exists("/dev/null")
              and not os.path.isfile("/dev/null"), "-o /dev/null stays a device")
        fifo = os.path.join(tmp, "fifo")
        os.mkfifo(fifo)
        got = []
        import threading
        reader = threading.Thread(target=lambda: got.append(open(fifo, "rb").read()))
        reader.start()
        rc, out, err = run("pgn", FIVE, "-o", fifo)
        reader.join(30)
        check(rc == 0 and got == [out1] and not os.path.isfile(fifo), "-o FIFO is written through")

    # A run stopped by a signal leaves no temporary file and no half output.
    m1 = os.path.join(REAL, "scid", "scidvspc-modern", "si4", "matein1", "matein1")
    with tempfile.TemporaryDirectory() as tmp:
        dest = os.path.join(tmp, "out.pgn")
        rc, whole, _ = run("pgn", *([m1] * 8))
        p = subprocess.Popen([os.environ["GAMEDB_TOOL"], "pgn", *([m1] * 8), "-o", dest],
                             stderr=subprocess.DEVNULL)
        time.sleep(0.01)
        p.send_signal(signal.SIGTERM)
        p.wait(30)
        left = sorted(os.listdir(tmp))
        # The signal may come after the rename, the output whole and the exit status -15.
        check(left == [] or (left == ["out.pgn"] and open(dest, "rb").read() == whole),
              "SIGTERM: either the whole output or nothing (%s, %s)" % (left, p.returncode))

    # Filters.
    rc, out, _ = run("pgn", FIVE, "--no-comments", "--no-variations")
    check(rc == 0 and b"{" not in out and b"(" not in out.split(b"\n\n", 1)[1], "filters")

    # JSON: one object per game, keys present.
    rc, out, _ = run("json", FIVE)
    lines = out.decode().splitlines()
    check(rc == 0 and len(lines) == 5, "json: 5 lines")
    objs = [json.loads(l) for l in lines]
    o = objs[0]
    check(o["index"] == 0 and o["variant"] == "chess" and o["deleted"] is False, "json keys")
    check(o["tags"]["White"] == "Hossain, Enam" and o["moves"][0]["san"] == "e4"
          and o["moves"][0]["uci"] == "e2e4", "json first move")
    check(o["moves"][-1]["san"] == "Nxe6" and len(o["moves"]) == 37, "json main line length")
    check(o["fen"].startswith("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq"), "json fen")
    check([x["index"] for x in objs] == [0, 1, 2, 3, 4], "json indexes")

    # Several databases in one run.
    rc, out, _ = run("pgn", FIVE, FIVE)
    check(rc == 0 and len(games(out)) == 10, "two databases")

    # A corrupt game record: exit 1, the game is reported, the others are written.
    with tempfile.TemporaryDirectory() as tmp:
        for ext in ("si4", "sn4", "sg4"):
            shutil.copy(FIVE + "." + ext, os.path.join(tmp, "b." + ext))
        sg = os.path.join(tmp, "b.sg4")
        data = bytearray(open(sg, "rb").read())
        # The first index record (after the 182-byte si4 header) gives the record's offset
        # and length; its last byte is the end-of-game marker (15) since it has no comments.
        idx = open(os.path.join(tmp, "b.si4"), "rb").read()
        off = int.from_bytes(idx[182:186], "big")
        length = int.from_bytes(idx[186:188], "big")
        check(data[off + length - 1] == 15, "first record ends with the end marker")
        data[off + length - 1] = 14  # "end of variation" outside any variation
        open(sg, "wb").write(bytes(data))
        rc, out, err = run("pgn", os.path.join(tmp, "b"))
        check(rc == 1, f"corrupt game -> exit 1 (got {rc})")
        check("game 1" in err and "b.sg4" in err and "offset" in err, "error names game, file, offset: " + err)
        check(len(games(out)) == 4, "the other four games are written")

    # A base copied from Windows with upper-case names opens by its base name too, with the
    # same games as the original.
    with tempfile.TemporaryDirectory() as tmp:
        for ext in ("si4", "sn4", "sg4"):
            shutil.copy(FIVE + "." + ext, os.path.join(tmp, "FIVE." + ext.upper()))
        rc, out_up, err = run("pgn", os.path.join(tmp, "FIVE"))
        rc2, out_low, _ = run("pgn", FIVE + ".si4")
        check(rc == 0 and out_up == out_low and len(games(out_up)) == 5,
              "upper-case base FIVE.SI4/.SN4/.SG4 by its base name: " + err)

    # Options of one format given for several databases: each database's format takes those
    # it has; for the others a note on stderr, once per database and option, never an abort.
    td = os.environ.get("GAMEDB_TESTDATA", "")
    tags = os.path.join(td, "scid", "tags.si4")
    ca = os.path.join(td, "chessassistant", "hand.cdp")
    cb = os.path.join(REAL, "chessbase", "libcbh", "NormalGames", "BielMTO.cbh")
    if os.path.exists(tags) and os.path.exists(ca):
        rc0, alone, _ = run("pgn", tags)
        rc, out, err = run("pgn", tags, ca, "--charset", "detect", "--language", "de")
        check(rc == 0 and out.startswith(alone) and len(games(out)) > len(games(alone)),
              "format options for other formats do not abort: %d %r" % (rc, err))
        for opt in ("charset-detect", "language"):
            eq(err.count("note: %s: the scid format has no option '%s'; ignored" % (tags, opt)),
               1, "one note for %s of the SCID base" % opt)
        eq(err.count("note: %s: the chessassistant format has no option 'language'" % ca), 1,
           "one note for language of the Chess Assistant base")
        check("chessassistant format has no option 'charset-detect'" not in err,
              "Chess Assistant has charset-detect (CP1251 or CP1252): no note")
        # --direction: Chess Assistant's column direction. The fixture is written counting
        # right (make-chessassistant-fixtures.py): left makes moves illegal, right is the
        # default's reading.
        rc_r, right, _ = run("pgn", ca, "--direction", "right")
        rc_a, auto, _ = run("pgn", ca)
        rc_l, _, err_l = run("pgn", ca, "--direction", "left")
        check(rc_r == 0 and right == auto, "--direction right reads the fixture as auto does")
        check(rc_l == 1 and "is not legal" in err_l, "--direction left: moves become illegal")
        rc, _, err = run("pgn", ca, "--direction", "up")
        check(rc == 2 and "--direction" in err, "--direction up -> 2")
        if os.path.exists(cb):
            rc, _, err = run("pgn", tags, cb, "--direction", "left")
            check(rc == 0 and err.count("has no option 'direction'") == 2,
                  "--direction: a note for SCID and ChessBase: %r" % err)

    # Text that is not UTF-8 in a SCID base is read in the fallback charset (Latin-1) and said
    # once per game, naming file, game and text (testdata/scid/README: Latin-1 comments in
    # each of latin1's 3 games); the same games in UTF-8 say nothing.
    lat = os.path.join(td, "scid", "latin1.si4")
    if os.path.exists(lat):
        rc, out, err = run("pgn", lat)
        lines = [l for l in err.splitlines() if "fallback charset" in l]
        check(rc == 0 and len(lines) == 3 and all(
            re.match(r"gamedb: warning: %s: offset \d+: game %d: text not UTF-8, read as "
                     r"ISO-8859-1" % (re.escape(lat[:-4] + ".sg4"), k + 1), l)
            for k, l in enumerate(lines)), "latin1: one fallback warning per game: %r" % err)
        check("Genève" in lines[0] if lines else False, "the warning quotes the text")
        rc, out, err = run("pgn", os.path.join(td, "scid", "utf8.si4"))
        check(rc == 0 and "warning" not in err, "utf8: no warning: %r" % err)

    # Deleted games: skipped unless --include-deleted (fixture built with the real Scid).
    dels = [os.path.join(td, "scid", f[:-4]) for f in sorted(os.listdir(os.path.join(td, "scid")))
            if f.endswith(".si4") and "delet" in f] if os.path.isdir(os.path.join(td, "scid")) else []
    for base in dels:
        rc, out_all, _ = run("pgn", base, "--include-deleted")
        rc2, out_live, _ = run("pgn", base)
        rc3, info, _ = run("info", base)
        ndel = int([l for l in info.decode().splitlines() if l.startswith("deleted:")][0].split()[1])
        check(ndel > 0, f"{base}: has deleted games")
        check(len(games(out_all)) - len(games(out_live)) == ndel, f"{base}: deleted skipped by default")

    # --password opens an encrypted ChessBase archive; without it, or with a wrong one, the
    # message says why (exit 2).
    uncbv = os.path.join(REAL, "chessbase", "uncbv")
    if os.path.isdir(uncbv):
        for name, pw in (("small.cbz", "password"), ("small2.cbz", "pass"),
                         ("small3.cbz", "my long password")):
            path = os.path.join(uncbv, name)
            rc, out, err = run("info", path, "--password", pw)
            check(rc == 0 and b"format: chessbase" in out and b"games: 0" in out,
                  f"{name} --password {pw!r}: opens (0 games, as small/)")
            rc, out, err = run("pgn", path)
            check(rc == 2 and "needs the password" in err and "--password" in err,
                  f"{name} without --password -> 2, saying a password is needed")
            rc, out, err = run("pgn", path, "--password", "wrong")
            check(rc == 2 and "password does not open" in err, f"{name} wrong password -> 2")
        rc, out, err = run("info", "--password")
        check(rc == 2 and "needs a value" in err, "--password without value -> 2")

    if td:
        option_table(td)
    return done()


if __name__ == "__main__":
    sys.exit(main())
