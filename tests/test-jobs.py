#!/usr/bin/env python3
"""gamedb pgn, json, fen, epd, uci, positions --jobs N: the output, the messages and the exit
status are those of --jobs 1, byte for byte, for every real base and every base of testdata,
with the options that choose games (--range, --games, --include-deleted, --partial), several
databases in one run, a damaged base (games that fail, names out of range) and the streams
(style 12 logs, standard input) that fall back to one job; and examples/parallel-export.c,
the same with the public API, gives gamedb's PGN.

What is compared is the command's own --jobs 1 run: the one-job path is the one the other
tests (tool, golden*) pin against Scid and the formats' descriptions. The checks that can fail
without a difference between the two runs are the ones on the damaged bases: the failures
must be reported at all (exit 1, a message per game), in the same order.
"""
import os
import random
import shutil
import subprocess
import sys
import tempfile

from testsupport import SKIP, TOOL, check, done, eq

REAL = os.environ.get("GAMEDB_REALDATA", "")
TESTDATA = os.environ.get("GAMEDB_TESTDATA", "")
INDEX_EXT = (".si4", ".si5", ".cbh", ".cbv", ".xqf", ".cdp")


def run(args, stdin=None):
    p = subprocess.run([TOOL, *args], capture_output=True,
                       stdin=stdin if stdin is not None else subprocess.DEVNULL)
    return p.returncode, p.stdout, p.stderr


def same(args, jobs=(2, 3, 8), what=None):
    """Runs args with --jobs 1 and each of jobs; checks that stdout, stderr and the exit
    status agree. Returns the --jobs 1 result."""
    ref = run([args[0], "--jobs", "1", *args[1:]])
    for j in jobs:
        got = run([args[0], "--jobs", str(j), *args[1:]])
        if not check(got == ref, "%s: --jobs %d differs from --jobs 1 (rc %d/%d, out %d/%d "
                     "bytes, err %r / %r)" % (what or " ".join(args), j, got[0], ref[0],
                                            len(got[1]), len(ref[1]), got[2][-300:],
                                            ref[2][-300:])):
            break
    return ref


def bases(root):
    out = []
    for d, _, files in os.walk(root):
        for f in sorted(files):
            if f.lower().endswith(INDEX_EXT):
                out.append(os.path.join(d, f))
    return sorted(out)


def main():
    if not TOOL:
        print("GAMEDB_TOOL not set")
        return 1
    # Usage.
    rc, _, err = run(["pgn", "--jobs", "0", "x"])
    check(rc == 2 and b"--jobs" in err, "--jobs 0 -> 2")
    rc, _, err = run(["pgn", "--jobs", "x", "x"])
    check(rc == 2 and b"--jobs" in err, "--jobs x -> 2")
    rc, _, err = run(["pgn", "--jobs"])
    check(rc == 2 and b"needs a value" in err, "--jobs without value -> 2")

    dbs = bases(TESTDATA) + (bases(REAL) if REAL and os.path.isdir(REAL) else [])
    if not dbs:
        return done(skip="no bases under $GAMEDB_TESTDATA or $GAMEDB_REALDATA")
    failing = []
    for db in dbs:
        ref = same(["pgn", db], what="pgn " + db)
        same(["json", db], jobs=(3,), what="json " + db)
        if ref[0] != 0:
            failing.append(db)
    # Damaged real and test bases (games that fail to decode): their messages must be there.
    check(len(failing) > 0, "some base has a game that fails (exit 1)")

    # Options that choose games, on the largest bases of each kind.
    picks = [d for d in dbs if any(k in d for k in ("tactics.si4", "Hedgehog.cbh", "linares.cbh",
                                                    "five.si4", "deleted.si4", "Corrupt.cbh",
                                                    "BielMTO.cbh", "hand.cdp"))]
    for db in picks:
        for opts in (["--range", "4-17"], ["--range", "2-"], ["--range", "-2"],
                     ["--range", "6-6"], ["--games", "2,4-9,30-1000"], ["--include-deleted"],
                     ["--partial"], ["--layout", "scid"], ["--no-comments", "--no-variations"],
                     ["--no-nags", "--commands", "all"], ["--charset", "CP1252"],
                     ["--language", "ru"], ["--charset", "detect"]):
            same(["pgn", *opts, db])
        same(["json", "--range", "3-40", "--include-deleted", db], jobs=(2, 8))
        for cmd in (["fen", "--key"], ["epd"], ["uci"], ["positions", "--csv", "--key"],
                    ["positions", "--range", "4-50"]):
            same([*cmd, "--include-deleted", db], jobs=(3,))
    # Several databases in one run (JSON numbers its objects over all of them).
    if len(picks) >= 2:
        same(["json", *picks], jobs=(2, 8))
        same(["pgn", "--range", "2-9", *picks], jobs=(2, 8))
    # A range past the end: the warning, once per base.
    if picks:
        ref = same(["pgn", "--range", "100000001-", picks[0]])
        check(b"past its" in ref[2], "--range past the end: a warning")

    # Streams: style 12 logs (a file and standard input) fall back to one job.
    logs = [os.path.join(d, f) for d, _, fs in os.walk(os.path.join(REAL, "style12"))
            for f in fs if not f.endswith((".md", ".json"))] if REAL else []
    for log in sorted(logs)[:4]:
        same(["pgn", log], jobs=(2,))
        with open(log, "rb") as f1, open(log, "rb") as f2:
            a = subprocess.run([TOOL, "pgn", "--jobs", "1", "-"], stdin=f1, capture_output=True)
            b = subprocess.run([TOOL, "pgn", "--jobs", "4", "-"], stdin=f2, capture_output=True)
        check((a.returncode, a.stdout, a.stderr) == (b.returncode, b.stdout, b.stderr),
              "stdin %s: --jobs 4 = --jobs 1" % log)

    # A damaged copy of a real SCID base: index records overwritten here and there (games
    # that fail or whose names are replaced, each with its message) and the game file cut
    # short (the games stored at its end fail).
    src = next((d for d in dbs if d.endswith("tactics.si4")), None) or \
        next((d for d in dbs if d.endswith(".si4")), None)
    with tempfile.TemporaryDirectory() as tmp:
        stem = src[:-4]
        d = os.path.join(tmp, "d")
        for ext in (".si4", ".sn4", ".sg4"):
            shutil.copyfile(stem + ext, d + ext)
        rnd = random.Random(7)
        n = (os.path.getsize(d + ".si4") - 182) // 47
        with open(d + ".si4", "r+b") as f:  # SCID 4: a 182-byte header, 47-byte records
            for k in range(3, n, max(1, n // 20)):
                f.seek(182 + 47 * k + rnd.randrange(47))
                f.write(bytes(rnd.randrange(256) for _ in range(6)))
        with open(d + ".sg4", "r+b") as f:
            f.truncate(os.path.getsize(d + ".sg4") * 9 // 10)
        ref = same(["pgn", d + ".si4"])
        check(ref[0] == 1 and ref[2].count(b"\n") >= 2 and b"game " in ref[2],
              "damaged base: exit 1, one message per failed game (%d, %r)"
              % (ref[0], ref[2][:200]))
        same(["pgn", "--partial", "--include-deleted", d + ".si4"])
        same(["json", d + ".si4"], jobs=(2, 8))
        same(["fen", d + ".si4"], jobs=(2,))
        same(["pgn", "--range", "11-500", d + ".si4", src])
        # -o: the output is kept on exit 1, and is the same whatever the jobs.
        outs = []
        for j in ("1", "3"):
            out = os.path.join(tmp, "out%s.pgn" % j)
            rc, _, _ = run(["pgn", "--jobs", j, d + ".si4", "-o", out])
            check(rc == 1 and os.path.exists(out), "--jobs %s -o: written on exit 1" % j)
            outs.append(open(out, "rb").read() if os.path.exists(out) else None)
        check(outs[0] == outs[1] and outs[0] == ref[1], "-o: the same file with --jobs 1 and 3")

    # A device that refuses every write (/dev/full), as -o and as standard output: both
    # messages (at the failed write, at the close) and exit 2, the same whatever thread wrote
    # the failing chunk (errno is per thread: the close's message once named another error).
    if os.path.exists("/dev/full"):
        # The SCID base with the most games (the first failing chunk may be any worker's).
        big = max((d for d in dbs if d.endswith(".si4")), key=os.path.getsize)

        def full(cmd, j):
            with open("/dev/full", "wb") as f:
                p = subprocess.run([TOOL, cmd[0], "--jobs", j, *cmd[1:]], stdout=f,
                                   stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
            return p.returncode, p.stderr

        for cmd in (["pgn", big, "-o", "/dev/full"], ["json", big]):
            ref = full(cmd, "1")
            check(ref[0] == 2 and b"write error: " in ref[1],
                  "%s: /dev/full -> exit 2, a write error (%r)" % (cmd[0], ref[1][:200]))
            for j in ("2", "3"):
                got = full(cmd, j)
                check(got == ref, "%s to /dev/full: --jobs %s = --jobs 1 (%r / %r)"
                      % (cmd[0], j, got[1][-200:], ref[1][-200:]))

    # examples/parallel-export.c: the public API used the same way gives the same PGN.
    example = os.environ.get("GAMEDB_PARALLEL_EXPORT", "")
    if example and os.access(example, os.X_OK):
        for db in picks:
            ref = run(["pgn", "--jobs", "1", db])
            for j in ("1", "3"):
                p = subprocess.run([example, "-j", j, db], capture_output=True)
                check(p.stdout == ref[1] and (p.returncode == 0) == (ref[0] == 0),
                      "parallel-export -j %s %s: the PGN of gamedb pgn (rc %d/%d)"
                      % (j, db, p.returncode, ref[0]))
    return done()


if __name__ == "__main__":
    sys.exit(main())
