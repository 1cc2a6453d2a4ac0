#!/usr/bin/env python3
"""The examples of the man page run (issue 13, item 5).

Takes the command lines between .nf and .fi in the EXAMPLES section of tools/gamedb.1,
turns the roff escapes back into text (\\- is -), and runs each with a shell in a fresh
folder where `testdata` is the source tree's testdata and `gamedb` is the built tool. Each
must exit with status 0 or 1 (2 is a database that could not be read) and write something:
on stdout, or into a file it names. A line that names a testdata file that does not exist
fails before it runs, so the page cannot send readers to files nobody has.
"""
import ctypes
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


def page_formats(page):
    """The FORMATS section of the page: [(name, [extensions a base is opened by], what)], from
    its entries .TP / .B NAME / .IR "EXTENSIONS" : / DESCRIPTION."""
    with open(page, encoding="utf-8") as f:
        text = f.read()
    m = re.search(r"^\.SH FORMATS\n(.*?)(?=^\.SH )", text, re.S | re.M)
    if not m:
        return []
    return [(name, exts.split(), what.replace("\\-", "-"))
            for name, exts, what in re.findall(r'^\.TP\n\.B (\S+)\n\.IR "([^"]*)" :\n(.*)$',
                                               m.group(1), re.M)]


def registry_formats():
    """The same from the library's registry (gamedb_format_get_name/extension/description;
    GAMEDB_EXTENSION_OPENS, 1, marks the extensions that open a base)."""
    lib = ctypes.CDLL(os.environ["GAMEDB_LIBRARY"])
    lib.gamedb_format_count.restype = ctypes.c_size_t
    for f in ("name", "description"):
        getattr(lib, "gamedb_format_get_" + f).restype = ctypes.c_char_p
        getattr(lib, "gamedb_format_get_" + f).argtypes = [ctypes.c_size_t]
    ext = lib.gamedb_format_get_extension
    ext.restype = ctypes.c_char_p
    ext.argtypes = [ctypes.c_size_t, ctypes.c_size_t, ctypes.POINTER(ctypes.c_uint32)]
    out = []
    for i in range(lib.gamedb_format_count()):
        exts, k = [], 0
        while True:
            flags = ctypes.c_uint32()
            e = ext(i, k, ctypes.byref(flags))
            if not e:
                break
            if flags.value & 1:
                exts.append(e.decode())
            k += 1
        out.append((lib.gamedb_format_get_name(i).decode(), exts,
                    lib.gamedb_format_get_description(i).decode()))
    return out


def formats_agree(page):
    """Issue 28 item 1: the page's list of formats is the registry's (a format or an extension
    added to the library and not to the page fails here), and so is gamedb --help's."""
    listed, reg = page_formats(page), registry_formats()
    check(len(reg) >= 5, "the registry lists the formats: %r" % reg)
    check(listed == reg, "gamedb.1's FORMATS is the registry's list:\n page     %r\n registry %r"
          % (listed, reg))
    p = subprocess.run([TOOL, "--help"], capture_output=True, text=True)
    lines = [" ".join(l.split()) for l in p.stdout.splitlines()]
    for name, exts, what in reg:
        want = " ".join([name] + exts + what.split())
        check(want in lines, "gamedb --help lists %s: %s" % (name, want))


def main():
    if not TOOL or not os.path.exists(TOOL):
        print("SKIP: GAMEDB_TOOL is not set")
        return 77
    td = os.environ.get("GAMEDB_TESTDATA", os.path.join(SRCDIR, "testdata"))
    formats_agree(os.path.join(SRCDIR, "tools", "gamedb.1"))
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
