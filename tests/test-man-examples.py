#!/usr/bin/env python3
"""The examples of the man page run (issue 13, item 5).

Takes the command lines between .nf and .fi in the EXAMPLES section of tools/gamedb.1,
turns the roff escapes back into text (\\- is -), and runs each with a shell in a fresh
folder where `testdata` is the source tree's testdata and `gamedb` is the built tool. Each
must exit with status 0 or 1 (2 is a database that could not be read) and write something:
on stdout, or into a file it names. A line that names a testdata file that does not exist
fails before it runs, so the page cannot send readers to files nobody has.
"""
import os
import re
import subprocess
import sys
import tempfile

from testsupport import check, done, SRCDIR, TOOL


def examples(page):
    with open(page, encoding="utf-8") as f:
        text = f.read()
    m = re.search(r"^\.SH EXAMPLES\n(.*?)(?=^\.SH )", text, re.S | re.M)
    if not m:
        return []
    out = []
    for block in re.findall(r"^\.nf\n(.*?)^\.fi$", m.group(1), re.S | re.M):
        for line in block.splitlines():
            line = line.replace("\\-", "-").replace("\\e", "\\").strip()
            if line and not line.startswith("."):
                out.append(line)
    return out


def main():
    if not TOOL or not os.path.exists(TOOL):
        print("SKIP: GAMEDB_TOOL is not set")
        return 77
    td = os.environ.get("GAMEDB_TESTDATA", os.path.join(SRCDIR, "testdata"))
    lines = examples(os.path.join(SRCDIR, "tools", "gamedb.1"))
    check(len(lines) >= 5, "the man page has examples (%d)" % len(lines))
    for line in lines:
        check(line.startswith("gamedb "), "an example runs gamedb: %s" % line)
        for name in re.findall(r"testdata/\S+", line):
            base = os.path.join(td, name[len("testdata/"):])
            exists = os.path.exists(base) or any(
                f.startswith(os.path.basename(base) + ".")
                for f in os.listdir(os.path.dirname(base)) if os.path.isdir(os.path.dirname(base)))
            check(exists, "%s: %s exists in testdata" % (line, name))
        with tempfile.TemporaryDirectory(prefix="gamedb-man-") as tmp:
            os.symlink(td, os.path.join(tmp, "testdata"))
            bindir = os.path.join(tmp, ".bin")
            os.mkdir(bindir)
            os.symlink(os.path.abspath(TOOL), os.path.join(bindir, "gamedb"))
            env = dict(os.environ, PATH=bindir + os.pathsep + os.environ.get("PATH", ""))
            p = subprocess.run(["sh", "-c", line], cwd=tmp, env=env, capture_output=True,
                               stdin=subprocess.DEVNULL, timeout=120)
            written = sum(os.path.getsize(os.path.join(tmp, f)) for f in os.listdir(tmp)
                          if os.path.isfile(os.path.join(tmp, f)) and f != "testdata")
            check(p.returncode < 2, "%s: exit %d: %s" % (line, p.returncode,
                                                          p.stderr.decode(errors="replace")))
            check(len(p.stdout) + written > 0, "%s: writes something" % line)
            print("%s: exit %d, %d bytes out" % (line, p.returncode, len(p.stdout) + written))
    return done()


if __name__ == "__main__":
    sys.exit(main())
