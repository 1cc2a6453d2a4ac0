#!/usr/bin/env python3
"""The gamedb command keeps the loss ledger (issue 26): every game of every database it names is
written or reported, whatever else goes wrong in the run.

- A database that cannot be opened costs only itself: the others are written whole, on standard
  output and with -o (kept), at any --jobs; exit 2.
- At the end of a run where anything failed or was reported, one line per database on stderr:
  "gamedb: BASE: N games written, M failed, K with warnings" (or "gamedb: BASE: not opened"),
  the same at any --jobs; games left out on purpose (--range, deleted) are not failures.
- Standard input named twice is refused before anything is written.
- Hundreds of bases in one run under a low limit of open files: every game written (each base
  is opened when its turn comes).
- The output is never standard input when that is read (`pgn - -o log < log`); -o onto a
  dangling symbolic link creates the link's target.
- A file size limit (ulimit -f) under the output: a write error, the temporary file removed;
  above it, no preallocation trips it. Every signal that ends the command leaves no temporary
  file. A write error on standard output is exit 2 for every command (info > /dev/full).

Expected numbers come from the bases (headers, MANIFEST.md, testdata/scid/README.md), not from
the command.
"""
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

from testsupport import SKIP, TOOL, check, done, eq

REAL = os.environ.get("GAMEDB_REALDATA", "")
TESTDATA = os.environ.get("GAMEDB_TESTDATA", "")
FIVE = os.path.join(REAL, "scid", "scidtopgn", "five", "five")
MATE1 = os.path.join(REAL, "scid", "scidvspc-modern", "si4", "matein1", "matein1.si4")
BIEL = os.path.join(REAL, "chessbase", "libcbh", "NormalGames", "BielMTO.cbh")
CBV = os.path.join(REAL, "chessbase", "cb2pgn-srenault", "test", "test.cbv")
LOG = os.path.join(REAL, "style12", "fatics", "fatics_style12_lines.txt")


def run(args, stdin=None, limits=(), input=None):
    """gamedb args; limits: (resource, value) pairs set in the child. (rc, out, err text)."""
    def pre():
        for what, value in limits:
            resource.setrlimit(what, (value, value))
    p = subprocess.run([TOOL, *args], capture_output=True, input=input,
                       stdin=None if input is not None else (stdin or subprocess.DEVNULL),
                       preexec_fn=pre if limits else None)
    return p.returncode, p.stdout, p.stderr.decode("utf-8", "replace")


def ngames(pgn):
    return pgn.count(b"\n[Event ") + pgn.startswith(b"[Event ")


def si4_count(path):
    """The games of a SCID index: 3 bytes, big-endian, at offset 14 (MANIFEST.md)."""
    with open(path, "rb") as f:
        head = f.read(17)
    return int.from_bytes(head[14:17], "big")


def cbh_count(path):
    """The games of a ChessBase index: a big-endian uint32 at offset 6, less one (MANIFEST.md)."""
    with open(path, "rb") as f:
        head = f.read(10)
    return int.from_bytes(head[6:10], "big") - 1


def temps(folder):
    return [n for n in os.listdir(folder) if n.startswith(".gamedb-")]


def ledger_line(base, written, failed, warned):
    return "gamedb: %s: %s games written, %s failed, %s with warnings" % (
        base, format(written, ","), format(failed, ","), format(warned, ","))


def one_base_not_opened(tmp):
    """Item 1: a base that cannot be opened never cuts the others short."""
    missing = os.path.join(tmp, "missing.si4")
    for good, n in ((MATE1, si4_count(MATE1)), (BIEL, None), (CBV, 7)):
        # (7: MANIFEST.md, test.cbv is the archive of test.cbh, "header count 8 (=> 7 games)";
        # none of the three bases has deleted games)
        if not os.path.exists(good):
            continue
        n = n or cbh_count(good)
        rc, alone, _ = run(["pgn", good, "--jobs", "1"])
        eq((rc, ngames(alone)), (0, n), "%s alone" % os.path.basename(good))
        for jobs in ("1", "2"):
            for order in ((good, missing), (missing, good)):
                name = "pgn %s --jobs %s" % (" ".join(map(os.path.basename, order)), jobs)
                rc, out, err = run(["pgn", *order, "--jobs", jobs])
                check(rc == 2 and out == alone, "%s: exit 2 and every game of the good base "
                      "on stdout (rc %d, %d of %d games)" % (name, rc, ngames(out), n))
                dest = os.path.join(tmp, "out.pgn")
                rc, out, err = run(["pgn", *order, "--jobs", jobs, "-o", dest])
                got = open(dest, "rb").read() if os.path.exists(dest) else None
                check(rc == 2 and got == alone, "%s -o: exit 2, the file kept with every game "
                      "of the good base (rc %d, %s)" % (name, rc, None if got is None
                                                       else ngames(got)))
                check("gamedb: %s: not opened" % missing in err.splitlines()
                      and ledger_line(good, n, 0, 0) in err.splitlines(),
                      "%s: the ledger names both: %r" % (name, err[-400:]))
                check(not temps(tmp), "%s: no temporary file" % name)
                if os.path.exists(dest):
                    os.unlink(dest)
    # json and a book too: the good base's games all go in.
    rc, alone, _ = run(["json", FIVE])
    rc2, out, _ = run(["json", missing, FIVE, "--jobs", "2"])
    check(rc == 0 and rc2 == 2 and out.replace(missing.encode(), b"") == alone,
          "json: a base not opened first leaves the other's objects whole")
    book1, book2 = os.path.join(tmp, "a.bin"), os.path.join(tmp, "b.bin")
    rc, _, _ = run(["book", MATE1, "--min-game", "1", "-o", book1])
    rc2, _, err = run(["book", MATE1, missing, "--min-game", "1", "-o", book2])
    check(rc == 0 and rc2 == 2 and os.path.exists(book2)
          and open(book1, "rb").read() == open(book2, "rb").read(),
          "book: a base not opened leaves the book of the others (%d %r)" % (rc2, err))


def the_ledger(tmp):
    """Item 2: one line per database at the end of a run where anything was reported."""
    # Nothing to report: nothing said.
    rc, _, err = run(["pgn", FIVE, FIVE])
    check(rc == 0 and err == "", "a clean run says nothing: %r" % err)
    # A damaged game record (as in test-tool.py): game 1 fails, the other 4 are written.
    base = os.path.join(tmp, "b")
    for ext in ("si4", "sn4", "sg4"):
        shutil.copy(FIVE + "." + ext, base + "." + ext)
    idx = open(base + ".si4", "rb").read()
    off = int.from_bytes(idx[182:186], "big")
    length = int.from_bytes(idx[186:188], "big")
    data = bytearray(open(base + ".sg4", "rb").read())
    data[off + length - 1] = 14  # "end of variation" outside any variation
    open(base + ".sg4", "wb").write(bytes(data))
    lat = os.path.join(TESTDATA, "scid", "latin1.si4")  # 3 games, each with Latin-1 text
    dele = os.path.join(TESTDATA, "scid", "deleted.si4")  # 6 games, 3 deleted (README.md)
    want = [ledger_line(base, 4, 1, 0), ledger_line(lat, 3, 0, 3), ledger_line(dele, 3, 0, 0),
            ledger_line(MATE1, 1212, 0, 0)]
    for jobs in ("1", "2", "3"):
        rc, _, err = run(["pgn", base, lat, dele, MATE1, "--jobs", jobs])
        eq((rc, err.splitlines()[-4:]), (1, want), "the ledger at --jobs %s" % jobs)
    # --range leaves games out on purpose: not failures.
    rc, _, err = run(["pgn", base, MATE1, "--range", "1-100", "--jobs", "2"])
    eq(err.splitlines()[-2:], [ledger_line(base, 4, 1, 0), ledger_line(MATE1, 100, 0, 0)],
       "the ledger with --range")
    # A game written in part (--partial) is reported: failed. With --partial, a game written
    # whole with a text read with loss is still said (the warnings were swallowed).
    rc, _, err = run(["pgn", base, lat, "--partial"])
    eq((rc, err.count("written in part"), err.count("warning: %s" % lat[:-4])),
       (1, 1, 3), "--partial: a game in part, and the warnings: %r" % err)
    eq(err.splitlines()[-2:], [ledger_line(base, 4, 1, 0), ledger_line(lat, 3, 0, 3)],
       "the ledger with --partial")


def stdin_twice():
    """Item 3: standard input named twice is refused before anything is written."""
    log = open(LOG, "rb").read()
    for args in (["json", "-", "-"], ["pgn", FIVE, "-", "--", "-"]):
        rc, out, err = run(args, input=log)
        check(rc == 2 and out == b"" and "standard input" in err,
              "%s < log: refused, nothing written (%d, %d bytes, %r)" % (" ".join(args), rc,
                                                                       len(out), err))


def many_bases(tmp):
    """Item 4: 200 bases under a limit of 64 open files: every game written."""
    many = os.path.join(tmp, "many")
    os.mkdir(many)
    names = []
    for i in range(200):
        for ext in ("si4", "sn4", "sg4"):
            shutil.copy(FIVE + "." + ext, os.path.join(many, "b%03d.%s" % (i, ext)))
        names.append(os.path.join(many, "b%03d.si4" % i))
    lim = [(resource.RLIMIT_NOFILE, 64)]
    rc, one, _ = run(["pgn", FIVE])
    dest = os.path.join(tmp, "many.pgn")
    for jobs in ("1", "3"):
        rc, out, err = run(["pgn", *names, "--jobs", jobs], limits=lim)
        check(rc == 0 and out == one * 200, "200 bases, ulimit -n 64, --jobs %s: every game "
              "(rc %d, %d of 1000 games, %r)" % (jobs, rc, ngames(out), err[:200]))
        # -o onto a file that is there: each base is asked whether it reads it.
        for _ in range(2):
            rc, out, err = run(["pgn", *names, "--jobs", jobs, "-o", dest], limits=lim)
            got = open(dest, "rb").read() if os.path.exists(dest) else b""
            check(rc == 0 and got == one * 200, "200 bases -o, ulimit -n 64, --jobs %s "
                  "(rc %d, %d games, %r)" % (jobs, rc, ngames(got), err[:200]))
    # The check still refuses the last base's file, the first base's, and a hard link.
    os.link(names[-1][:-4] + ".sg4", os.path.join(tmp, "hard.pgn"))
    for t in (names[-1][:-4] + ".sn4", names[0][:-4] + ".sg4", os.path.join(tmp, "hard.pgn")):
        before = open(t, "rb").read()
        rc, _, err = run(["pgn", *names, "-o", t], limits=lim)
        check(rc == 2 and "refusing to write over a file of the database" in err
              and open(t, "rb").read() == before, "-o %s refused" % os.path.basename(t))


def output_not_input(tmp):
    """Item 5: standard input is not overwritten; a dangling link is written through."""
    v = os.path.join(tmp, "v.log")
    shutil.copy(LOG, v)
    os.symlink("v.log", os.path.join(tmp, "v-link"))
    for target in (v, os.path.join(tmp, "v-link")):
        with open(v, "rb") as f:
            rc, out, err = run(["pgn", "-", "-o", target], stdin=f)
        check(rc == 2 and "refusing to write over standard input" in err
              and open(v, "rb").read() == open(LOG, "rb").read(),
              "pgn - -o %s < v.log: refused, the log unchanged (%d, %r)"
              % (os.path.basename(target), rc, err))
    # Another file as standard input: the output there is written over (no false refusal).
    other = os.path.join(tmp, "other.pgn")
    open(other, "wb").write(b"old\n")
    with open(v, "rb") as f:
        rc, out, err = run(["pgn", "-", "-o", other], stdin=f)
    # (The log's <b1> lines of an unannounced game are reported: exit 1, the games written.)
    check(rc in (0, 1) and open(other, "rb").read() == run(["pgn", "-"], input=open(v, "rb").read())[1],
          "pgn - -o other < v.log: written (%d, %r)" % (rc, err))
    # Standard input not named: it is not read, so a file that happens to be it is no input.
    with open(v, "rb") as f:
        rc, out, err = run(["pgn", FIVE, "-o", v], stdin=f)
    check(rc == 0 and open(v, "rb").read() == run(["pgn", FIVE])[1],
          "standard input not named is no input")
    # A dangling link, and a chain of two whose last dangles: the target is created.
    rc, five, _ = run(["pgn", FIVE])
    sub = os.path.join(tmp, "sub")
    os.mkdir(sub)
    os.symlink("sub/new.pgn", os.path.join(tmp, "dangling"))
    os.symlink("../dangling", os.path.join(sub, "chain"))
    for link, made in ((os.path.join(tmp, "dangling"), os.path.join(sub, "new.pgn")),
                       (os.path.join(sub, "chain"), os.path.join(sub, "new.pgn"))):
        rc, out, err = run(["pgn", FIVE, "-o", link])
        check(rc == 0 and os.path.islink(link) and os.path.isfile(made)
              and open(made, "rb").read() == five and not temps(tmp) and not temps(sub),
              "-o %s: the link stays, its target is written (%d, %r)"
              % (os.path.basename(link), rc, err))
        if os.path.exists(made):
            os.unlink(made)


def limits_and_signals(tmp):
    """Item 6: ulimit -f, signals, write errors on standard output."""
    rc, whole, _ = run(["pgn", MATE1])
    dest = os.path.join(tmp, "out.pgn")
    # Below the limit: written (the 16 MiB preallocation tripped SIGXFSZ at 275 KB).
    lim = len(whole) + 4096
    rc, _, err = run(["pgn", MATE1, "-o", dest], limits=[(resource.RLIMIT_FSIZE, lim)])
    check(rc == 0 and os.path.exists(dest) and open(dest, "rb").read() == whole
          and not temps(tmp), "ulimit -f above the output: written (%d, %r)" % (rc, err))
    # Above the limit: a write error, no temporary file, nothing written; at any --jobs.
    for jobs in ("1", "2"):
        fresh = os.path.join(tmp, "fresh.pgn")
        rc, _, err = run(["pgn", MATE1, MATE1, "--jobs", jobs, "-o", fresh],
                         limits=[(resource.RLIMIT_FSIZE, lim)])
        check(rc == 2 and "File too large" in err and not os.path.exists(fresh)
              and not temps(tmp), "ulimit -f below the output, --jobs %s: a write error, "
              "nothing left (%d, %r, %s)" % (jobs, rc, err, os.listdir(tmp)))
    # Signals, sent while the command waits for more of standard input (a style 12 stream:
    # the log 20 times, the pipe left open) with its temporary file there: each ends it by that
    # signal and leaves no temporary file.
    log = open(LOG, "rb").read()
    sigs = [signal.SIGHUP, signal.SIGINT, signal.SIGTERM, signal.SIGQUIT, signal.SIGPIPE,
            signal.SIGUSR1, signal.SIGUSR2, signal.SIGALRM, signal.SIGXCPU, signal.SIGVTALRM,
            signal.SIGPROF]
    if hasattr(signal, "SIGRTMIN"):
        sigs.append(signal.SIGRTMIN + 1)
    for sig in sigs + [signal.SIGXFSZ]:
        name = getattr(sig, "name", "signal %d" % sig)
        d = os.path.join(tmp, "sig")
        os.mkdir(d)
        out = os.path.join(d, "out.pgn")
        p = subprocess.Popen([TOOL, "pgn", "-", "-o", out], stdin=subprocess.PIPE,
                             stderr=subprocess.DEVNULL,
                             preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_CORE, (0, 0)))
        def feed():
            try:
                p.stdin.write(log * 20)
                p.stdin.flush()
            except (BrokenPipeError, ValueError):
                pass
        writer = threading.Thread(target=feed)
        writer.start()
        t = time.time()
        while not temps(d) and time.time() - t < 20:
            time.sleep(0.01)
        check(temps(d), "%s: the temporary file is there before the signal" % name)
        writer.join(20)
        time.sleep(0.1)
        p.send_signal(sig)
        if sig == signal.SIGXFSZ:
            # Ignored (a write past the limit fails instead): the run goes on to its end.
            time.sleep(0.1)
            p.stdin.close()
            p.wait(30)
            rc, want, _ = run(["pgn", "-"], input=log * 20)
            check(p.returncode in (0, 1) and os.listdir(d) == ["out.pgn"]
                  and open(out, "rb").read() == want,
                  "SIGXFSZ from outside: ignored, the output written (%d)" % p.returncode)
        else:
            p.wait(30)
            try:
                p.stdin.close()
            except BrokenPipeError:
                pass
            check(p.returncode == -sig and os.listdir(d) == [],
                  "%s: ends the run by it, nothing left (%d, %s)" % (name, p.returncode,
                                                                   os.listdir(d)))
        shutil.rmtree(d)
    # A write error on standard output: exit 2 with a message, for every command.
    if os.path.exists("/dev/full"):
        for args in (["info", FIVE], ["--version"], ["--help"], ["pgn", FIVE],
                     ["json", MATE1, "--jobs", "2"], ["fen", FIVE]):
            with open("/dev/full", "wb") as full:
                p = subprocess.run([TOOL, *args], stdout=full, stderr=subprocess.PIPE)
            err = p.stderr.decode()
            check(p.returncode == 2 and err.count("write error") == 1,
                  "%s > /dev/full: exit 2, one write error (%d, %r)" % (" ".join(args),
                                                                        p.returncode, err))
    # Standard output closed from the start is no error for a run that writes none to it.
    p = subprocess.run(["sh", "-c", 'exec "$0" pgn "$1" -o "$2" >&-', TOOL, FIVE, dest],
                       capture_output=True)
    check(p.returncode == 0 and p.stderr == b"", "-o with standard output closed: exit 0 (%d, %r)"
          % (p.returncode, p.stderr))


def named_once(tmp):
    """Item 6 of issue 28: a message about a game names each file and the game once. The
    library's messages name their file and often the game; the command said "BASE: game N: "
    before them all the same ("Corrupt.cbh: game 1: Corrupt.cbg: offset 58: game 1: ...")."""
    cbh = os.path.join(REAL, "chessbase", "libcbh", "Chess960Corrupt", "Corrupt.cbh")
    xqf = os.path.join(REAL, "xqf", "walker8088-cchess", "tests-data", "BadMoveTest3.xqf")
    # Corrupt.cbh: 4 games, each with a bad Chess960 setup (MANIFEST.md); BadMoveTest3.xqf:
    # one game whose main line has a move from an empty square.
    for db, n, cmd in ((cbh, 4, "pgn"), (xqf, 1, "pgn"), (cbh, 4, "json"), (xqf, 1, "fen")):
        if not os.path.exists(db):
            continue
        for extra in ([], ["--partial"], ["--jobs", "2"]):
            if extra and cmd != "pgn":
                continue
            rc, _, err = run([cmd, db] + extra)
            lines = [l for l in err.splitlines() if "games written" not in l]
            check(rc == 1 and len(lines) == n, "%s %s %s: a line per game: %r"
                  % (cmd, db, extra, err))
            stem = db[:-4]
            for i, line in enumerate(lines):
                check(line.count(stem) == 1 and line.count("game %d:" % (i + 1)) == 1
                      and line.startswith("gamedb: "),
                      "%s %s: the file and the game once: %r" % (db, extra, line))
                if extra == ["--partial"]:
                    check("written in part" in line, "--partial says it: %r" % line)
    # A stream's line that cannot be used: the library's message names the log and the line;
    # the command adds nothing before it (it said the log's path twice). The FatICS log's
    # <b1> lines 52, 64 and 66 belong to a game not announced as bughouse (MANIFEST.md).
    if os.path.exists(LOG):
        for extra in ([], ["--jobs", "2"]):
            rc, _, err = run(["pgn", LOG] + extra)
            lines = [l for l in err.splitlines() if "games written" not in l]
            check(rc == 1 and len(lines) == 3 and all(
                l.count(LOG) == 1 and l.startswith("gamedb: " + LOG + ": line ") for l in lines),
                "%s %s: each unused line names the log once: %r" % (LOG, extra, err))
    # The damaged SCID game of the_ledger (a message naming neither its file nor its game
    # keeps the command's "BASE: game N: ").
    base = os.path.join(tmp, "b")
    for ext in ("si4", "sn4", "sg4"):
        shutil.copy(FIVE + "." + ext, base + "." + ext)
    idx = open(base + ".si4", "rb").read()
    off = int.from_bytes(idx[182:186], "big")
    length = int.from_bytes(idx[186:188], "big")
    data = bytearray(open(base + ".sg4", "rb").read())
    data[off + length - 1] = 14
    open(base + ".sg4", "wb").write(bytes(data))
    rc, _, err = run(["pgn", base])
    line = err.splitlines()[0]
    check(rc == 1 and line.count(base) == 1 and line.count("game 1:") == 1,
          "the damaged SCID game: named once: %r" % line)


def main():
    if not TOOL:
        print("GAMEDB_TOOL not set")
        return 1
    if not os.path.exists(FIVE + ".si4") or not os.path.exists(MATE1) or not TESTDATA:
        return done(skip="real data not found")
    with tempfile.TemporaryDirectory() as tmp:
        one_base_not_opened(tmp)
    with tempfile.TemporaryDirectory() as tmp:
        the_ledger(tmp)
    with tempfile.TemporaryDirectory() as tmp:
        named_once(tmp)
    stdin_twice()
    with tempfile.TemporaryDirectory() as tmp:
        many_bases(tmp)
    with tempfile.TemporaryDirectory() as tmp:
        output_not_input(tmp)
    with tempfile.TemporaryDirectory() as tmp:
        limits_and_signals(tmp)
    return done()


if __name__ == "__main__":
    sys.exit(main())
