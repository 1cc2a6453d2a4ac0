#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""The ledger rule (doc/ledger.md): every game a base holds is written or reported.

    GAMEDB_TOOL=build/tools/gamedb python3 tests/test-ledger.py

1. Every real base (../shared/realdata, or $GAMEDB_REALDATA) and every test base, folder by
   folder, through `gamedb json` and `gamedb pgn --include-deleted` at --jobs 1, 2 and 3, alone
   and with a missing database before and after them: the games written (counted in the output)
   plus the games the summary lines report as failed equal the games `gamedb info` counts; exit
   0 only when nothing failed, 2 whenever a database is missing, and then the other bases' games
   are all written all the same.
2. Damaged copies (each file of each base cut, or bytes of it flipped; a fixed seed,
   $GAMEDB_LEDGER_COPIES of them, 2,000 by default): no run exits 0 with fewer games written than
   `info` counts, none is killed by a signal or hangs, and when a run reports failures the
   counts still add up.

The counts are taken from the output and from `info`, never from what the run says it wrote:
the summary line's own count of games written is checked against the output too.
"""
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

from testsupport import check, done, eq, SKIP

TOOL = os.environ.get("GAMEDB_TOOL", "")
REAL = os.environ.get("GAMEDB_REALDATA", "")
TESTDATA = os.environ.get("GAMEDB_TESTDATA", "")
PRIMARY = (".si3", ".si4", ".si5", ".cbh", ".cbv", ".xqf", ".cdp", ".cbl", ".cbr")
SUMMARY = re.compile(rb"^gamedb: (.*): ([\d,]+) games? written, ([\d,]+) failed, "
                     rb"([\d,]+) with warnings$", re.M)
TIMEOUT = 120


def num(b):
    return int(b.replace(b",", b""))


def ccbridge(path):
    """1 if path is a CCBridge file: ChessBase bases have .cbl files of their own."""
    with open(path, "rb") as f:
        return f.read(8) == b"CCBridge"


def folders(root):
    """(folder, [bases]) for each folder of root holding bases, in a stable order."""
    for folder, dirs, files in os.walk(root):
        dirs.sort()
        found = [os.path.join(folder, f) for f in sorted(files) if f.lower().endswith(PRIMARY)
                 and (not f.lower().endswith((".cbl", ".cbr")) or
                      ccbridge(os.path.join(folder, f)))]
        if found:
            yield folder, found


def run(args, timeout=TIMEOUT):
    """(exit status, stdout, stderr); status None when it hung."""
    try:
        p = subprocess.run([TOOL] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, b"", b""
    return p.returncode, p.stdout, p.stderr


def info_count(bases):
    """{base: games (deleted included)} for the bases `info` opens; the exit status."""
    rc, out, _ = run(["info"] + bases)
    counts = {}
    current = None
    for line in out.split(b"\n"):
        if line.startswith(b"file: "):
            current = os.fsdecode(line[6:])
        elif line.startswith(b"games: ") and current is not None:
            counts[current] = int(line[7:].split()[0])
    return counts, rc


def written(kind, out):
    """Games in an output: JSON Lines objects, or PGN games (their Event tag opens them)."""
    if kind == "json":
        return sum(1 for line in out.split(b"\n") if line.startswith(b"{"))
    return len(re.findall(rb"^\[Event ", out, re.M))


def summaries(err):
    """{base: (written, failed, warned)} from the summary lines."""
    return {os.fsdecode(m.group(1)): (num(m.group(2)), num(m.group(3)), num(m.group(4)))
            for m in SUMMARY.finditer(err)}


def extra_args(base):
    """The password of an encrypted test archive, as test-tool.py knows them."""
    name = os.path.basename(base)
    pw = {"small.cbz": "password", "small2.cbz": "pass", "small3.cbz": "my long password"}
    return ["--password", pw[name]] if name in pw else []


def healthy(tmp):
    """Part 1: every real and test base, alone and beside missing databases."""
    roots = [r for r in (REAL, TESTDATA) if r and os.path.isdir(r)]
    nfolders = nruns = nbases = 0
    missing = os.path.join(tmp, "missing.si4")
    for root in roots:
        for folder, bases in folders(root):
            counts, _ = info_count(bases)
            opened = [b for b in bases if b in counts]
            total = sum(counts.values())
            nfolders += 1
            nbases += len(opened)
            for kind in ("json", "pgn"):
                for jobs in ("1", "2", "3"):
                    for lead, tail in (([], []), ([missing], [missing])):
                        args = ([kind, "--include-deleted", "--jobs", jobs] + lead + opened +
                                tail)
                        rc, out, err = run(args)
                        nruns += 1
                        what = "%s --jobs %s %s%s" % (kind, jobs, os.path.relpath(folder, root),
                                                      " between missing bases" if lead else "")
                        if not check(rc is not None and rc >= 0, what + ": ran to its end"):
                            continue
                        n = written(kind, out)
                        sums = summaries(err)
                        failed = sum(s[1] for s in sums.values())
                        if rc == 0:
                            eq(n, total, what + ": exit 0, every game written")
                            # A summary on exit 0 only for warnings: no game failed.
                            eq(failed, 0, what + ": exit 0, no game failed in the summary")
                            if sums:
                                eq(sum(s[0] for s in sums.values()), n,
                                   what + ": the summary's games written are the output's")
                            continue
                        if lead:
                            eq(rc, 2, what + ": exit 2 for the missing database")
                        else:
                            eq(rc, 1, what + ": exit 1 when games failed")
                        eq(n + failed, total, what + ": written + failed = info's count")
                        eq(sum(s[0] for s in sums.values()), n,
                           what + ": the summary's games written are the output's")
                        for b in opened:
                            check(b in sums, what + ": a summary line for " + b)
    return nfolders, nbases, nruns


def family(base):
    """The files of the base whose index (or only file) is base."""
    folder, name = os.path.split(base)
    stem, ext = os.path.splitext(name)
    if ext.lower() in (".xqf", ".cbv", ".cbz", ".cbl", ".cbr"):
        return [base]
    return sorted(os.path.join(folder, f) for f in os.listdir(folder)
                  if os.path.splitext(f)[0] == stem and os.path.isfile(os.path.join(folder, f)))


def damaged(tmp, ncopies):
    """Part 2: damaged copies of every base (XQF: a sample of 20 files)."""
    rnd = random.Random(26)
    bases = []
    for root in (REAL, TESTDATA):
        if not root or not os.path.isdir(root):
            continue
        xqf = []
        for _, found in folders(root):
            for b in found:
                (xqf if b.lower().endswith(".xqf") else bases).append(b)
        bases += rnd.sample(xqf, min(20, len(xqf)))
    if not bases:
        return 0, 0, 0
    runs = 0
    for i in range(ncopies):
        base = bases[i % len(bases)]
        files = family(base)
        victim = rnd.choice(files)
        work = os.path.join(tmp, "copy")
        shutil.rmtree(work, ignore_errors=True)
        os.mkdir(work)
        for f in files:
            shutil.copyfile(f, os.path.join(work, os.path.basename(f)))
        path = os.path.join(work, os.path.basename(victim))
        data = bytearray(open(path, "rb").read())
        if data and rnd.random() < 0.3:
            cut = rnd.randrange(len(data))
            data = data[:cut]
            how = "cut at %d" % cut
        elif data:
            offs = [rnd.randrange(len(data)) for _ in range(rnd.choice((1, 1, 2, 4)))]
            for o in offs:
                data[o] ^= rnd.randrange(1, 256)
            how = "bytes flipped at %s" % offs
        else:
            continue
        with open(path, "wb") as f:
            f.write(data)
        copy = os.path.join(work, os.path.basename(base))
        what = "%s, %s %s" % (base, os.path.basename(victim), how)
        counts, irc = info_count([copy])
        check(irc is not None and irc >= 0, what + ": info ran to its end")
        jobs = "2" if i % 5 == 4 else "1"
        kind = "pgn" if i % 3 == 2 else "json"
        rc, out, err = run([kind, "--include-deleted", "--jobs", jobs] + extra_args(base) +
                           [copy])
        runs += 2
        if not check(rc is not None and rc >= 0, what + ": %s --jobs %s ran to its end" %
                     (kind, jobs)):
            continue
        if copy not in counts:
            check(rc != 0, what + ": info cannot open it, and the conversion says so")
            continue
        n = written(kind, out)
        if rc == 0:
            eq(n, counts[copy], what + ": exit 0 with every game info counts written")
            continue
        sums = summaries(err)
        if not check(sums, what + ": exit %d with a summary line" % rc):
            continue
        failed = sum(s[1] for s in sums.values())
        eq(n + failed, counts[copy], what + ": written + failed = info's count")
    return ncopies, len(bases), runs


def main():
    if not TOOL:
        print("SKIP: GAMEDB_TOOL is not set")
        return SKIP
    ncopies = int(os.environ.get("GAMEDB_LEDGER_COPIES", "2000"))
    with tempfile.TemporaryDirectory(prefix="gamedb-ledger-") as tmp:
        nfolders, nbases, nruns = healthy(tmp)
        print("healthy: %d bases in %d folders, %d runs" % (nbases, nfolders, nruns))
        ncopy, nsampled, druns = damaged(tmp, ncopies)
        print("damaged: %d copies of %d bases, %d runs" % (ncopy, nsampled, druns))
    if nfolders == 0:
        return done(skip="no base in GAMEDB_REALDATA or GAMEDB_TESTDATA")
    return done()


if __name__ == "__main__":
    sys.exit(main())
