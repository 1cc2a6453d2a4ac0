#!/usr/bin/env python3
"""The API documentation is installed, with clean page names (issue 13, item 5).

Usage: check-doc-install.py SOURCE_ROOT BUILD_ROOT  (a build with -Ddocs=true)

Runs `meson install --destdir` into a temporary folder and checks that
DATADIR/doc/libgamedb/html/index.html is there, and that no installed documentation file's
name, and no page's <title>, holds the source or the build folder's path, as such or in the
form doxygen makes of a path in a page name ("/tmp/src-1" -> "_tmp_src_1"). Exit 77 (skip)
without meson on PATH.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile


def mangled(path):
    return re.sub(r"[^A-Za-z0-9]", "_", path)


def main():
    src, build = (os.path.realpath(p) for p in sys.argv[1:3])
    meson = shutil.which("meson")
    if not meson:
        print("SKIP: no meson on PATH")
        return 77
    bad = []
    with tempfile.TemporaryDirectory(prefix="gamedb-docinst-") as dest:
        p = subprocess.run([meson, "install", "-C", build, "--no-rebuild", "--quiet",
                            "--destdir", dest], capture_output=True, text=True)
        if p.returncode != 0:
            print("FAIL: meson install: " + p.stdout + p.stderr)
            return 1
        index = [os.path.join(d, f) for d, _, fs in os.walk(dest) for f in fs
                 if f == "index.html" and d.replace(os.sep, "/").endswith("doc/libgamedb/html")]
        if not index:
            print("FAIL: no DATADIR/doc/libgamedb/html/index.html under the install")
            return 1
        html = os.path.dirname(index[0])
        forms = {src, build, mangled(src), mangled(build), mangled(src).lower(),
                 mangled(build).lower()}
        forms.discard("")
        pages = 0
        for d, _, fs in os.walk(html):
            for f in fs:
                rel = os.path.relpath(os.path.join(d, f), html)
                if any(x in rel or x.strip("_") in rel for x in forms):
                    bad.append("file name: " + rel)
                if f.endswith(".html"):
                    pages += 1
                    with open(os.path.join(d, f), encoding="utf-8", errors="replace") as fh:
                        m = re.search(r"<title>(.*?)</title>", fh.read(), re.S)
                    title = m.group(1) if m else ""
                    if any(x in title or x.strip("_") in title for x in forms):
                        bad.append("title of %s: %s" % (rel, title))
    for b in bad:
        print("FAIL: carries the build path: " + b)
    print("%d pages under DATADIR/doc/libgamedb/html, %d with the build path" % (pages, len(bad)))
    return 1 if bad or pages < 10 else 0


if __name__ == "__main__":
    sys.exit(main())
