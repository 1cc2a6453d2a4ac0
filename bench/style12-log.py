#!/usr/bin/env python3
"""Benchmark: a big style 12 log read in constant memory, through the reader and through the
live session.

    style12-log.py [SIZE_MB]        (default 1024, or BENCH_STYLE12_MB)

Writes a log of SIZE_MB (default 1 GiB) into BENCH_WORKDIR (default a temporary folder,
removed at the end) by repeating the log of tests/test-style12.py's session writer (real SCID
games, four at once, interleaved, takebacks, lost lines, ms and s clocks, junk), then times
under /usr/bin/time:
  - `gamedb pgn LOG`                      the reader, the log read from the file;
  - `style12-live 4096 < LOG`             examples/style12-live: the session fed 4 KiB chunks;
and prints the boards in the log, user seconds, boards per second and the peak resident
size. Both outputs must be identical (the session gives the reader's games). Environment:
GAMEDB_TOOL, GAMEDB_STYLE12_LIVE, GAMEDB_LIBRARY, GAMEDB_REALDATA (the SCID games). Exit 77
without the real data or /usr/bin/time.
"""
import hashlib
import os
import random
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests"))
import testsupport  # noqa: E402


def timed(cmd, stdin_path=None):
    """(user s, peak KiB, sha256 of stdout, bytes of stdout)."""
    h = hashlib.sha256()
    n = 0
    with tempfile.TemporaryFile() as err:
        fin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL
        p = subprocess.Popen(["/usr/bin/time", "-f", "TIME %U %M"] + cmd, stdin=fin,
                             stdout=subprocess.PIPE, stderr=err)
        for chunk in iter(lambda: p.stdout.read(1 << 20), b""):
            h.update(chunk)
            n += len(chunk)
        p.wait()
        if stdin_path:
            fin.close()
        err.seek(0)
        line = [l for l in err.read().decode(errors="replace").splitlines()
                if l.startswith("TIME ")][-1]
    _, user, rss = line.split()
    return float(user), int(rss), h.hexdigest(), n


def main():
    if not os.access("/usr/bin/time", os.X_OK):
        sys.exit(77)
    size = int(sys.argv[1]) if len(sys.argv) > 1 else int(os.environ.get("BENCH_STYLE12_MB",
                                                                           "1024"))
    t12 = testsupport.load_script(os.path.join(HERE, "..", "tests", "test-style12.py"), "t12")
    if not os.path.isdir(t12.S12):
        sys.exit(77)
    lines, _ = t12.write_session(t12.source_games(), random.Random(20261124))
    block = ("\n".join(lines) + "\n").encode()
    boards_per_block = sum(1 for l in lines if "<12> " in l)
    work = os.environ.get("BENCH_WORKDIR") or tempfile.mkdtemp(prefix="s12bench-")
    path = os.path.join(work, "big.log")
    reps = max(1, (size << 20) // len(block))
    with open(path, "wb") as f:
        for _ in range(reps):
            f.write(block)
    boards = boards_per_block * reps
    print("log: %d MiB, %d boards (%d copies of a %d-line session)" % (
        os.path.getsize(path) >> 20, boards, reps, len(lines)))
    tool = os.environ["GAMEDB_TOOL"]
    live = os.environ.get("GAMEDB_STYLE12_LIVE", "")
    results = [("gamedb pgn (reader)", timed([tool, "pgn", path]))]
    if live:
        results.append(("style12-live 4096 (session)", timed([live, "4096"], path)))
    for name, (user, rss, digest, n) in results:
        print("%-28s %7.2f s user  %9.0f boards/s  peak %6.1f MiB  (%d MiB of PGN)" % (
            name, user, boards / user if user else 0, rss / 1024, n >> 20))
    same = len({r[1][2] for r in results}) == 1
    print("outputs identical:", same)
    if not os.environ.get("BENCH_WORKDIR"):
        shutil.rmtree(work)
    sys.exit(0 if same else 1)


if __name__ == "__main__":
    main()
