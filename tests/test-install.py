#!/usr/bin/env python3
"""The installed command and Python package find the installed library (issue 28, item 2).

Usage: test-install.py BUILD_ROOT

`meson install -C BUILD_ROOT --destdir TMP` puts the whole install under TMP (the rpath of
the command is relative to itself, $ORIGIN/..., so a DESTDIR copy runs as the real install
would). Then, with LD_LIBRARY_PATH and GAMEDB_LIBRARY unset:

1. the installed `gamedb` resolves libgamedb.so.1 to the library under TMP (the dynamic
   loader's own list, LD_TRACE_LOADED_OBJECTS=1), and `gamedb info` on testdata/scid/tags.si4
   says 9 games (the count of games in tags.oracle.pgn, Scid's own export of that base);
   its `--version` (the library's) and the installed gamedb.pc say meson's project version;
2. the installed package, imported from TMP's site-packages, loads the library under TMP and
   reads the 9 games of the same base, each with the Event tag of the oracle;
3. GAMEDB_LIBRARY still wins over the installed library (the tests rely on it).

Skipped (77) without meson in PATH; the package's checks are skipped when the build installs
no package (-Dpython=disabled).
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

from testsupport import check, eq, done, SRCDIR
import pyrun

BASE = os.path.join(SRCDIR, "testdata", "scid", "tags.si4")
ORACLE = os.path.join(SRCDIR, "testdata", "scid", "tags.oracle.pgn")

# Reads the base with the package, prints the library's path, then one Event tag per game.
READER = r"""
import sys, gamedb, gamedb._ffi
print(gamedb._ffi.lib._name)
with gamedb.open(sys.argv[1]) as r:
    for g in r:
        print(g.tags["Event"])
"""


def clean_env(extra=None):
    """The environment without the variables that would find the library for them."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("LD_LIBRARY_PATH", "GAMEDB_LIBRARY", "PYTHONPATH", "LD_PRELOAD")}
    env.update(extra or {})
    return env


def find(root, name, kind):
    for d, dirs, fs in os.walk(root):
        if (kind == "file" and name in fs) or (kind == "dir" and name in dirs):
            yield os.path.join(d, name)


def inside(path, root):
    path = os.path.realpath(path)
    return os.path.commonpath([path, os.path.realpath(root)]) == os.path.realpath(root)


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else ""
    meson = shutil.which("meson")
    if not meson or not build:
        return done("no meson in PATH (or no build folder given)")
    with open(ORACLE, encoding="utf-8") as f:
        events = re.findall(r'^\[Event "(.*)"\]$', f.read(), flags=re.M)
    eq(len(events), 9, "games in %s" % ORACLE)

    with tempfile.TemporaryDirectory(prefix="gamedb-install-") as dest:
        p = subprocess.run([meson, "install", "-C", build, "--no-rebuild", "--quiet",
                            "--destdir", dest], capture_output=True, text=True)
        if not check(p.returncode == 0, "meson install: %s%s" % (p.stdout, p.stderr)):
            return done()
        tools = [t for t in find(dest, "gamedb", "file") if os.path.basename(
            os.path.dirname(t)) == "bin"]
        libs = list(find(dest, "libgamedb.so.1", "file"))
        if not (check(len(tools) == 1, "one bin/gamedb installed: %r" % tools) and
                check(len(libs) == 1, "one libgamedb.so.1 installed: %r" % libs)):
            return done()
        tool, lib = tools[0], libs[0]
        # In a sanitizer build the runtime must come first in the interpreter (tests/pyrun.py);
        # the command links it itself.
        runtime = pyrun.sanitizer_runtime(lib)
        py_env = {"LD_PRELOAD": runtime,
                  "ASAN_OPTIONS": ":".join(o for o in (os.environ.get("ASAN_OPTIONS"),
                                                       "detect_leaks=0") if o)} if runtime else {}

        # 1. The command.
        p = subprocess.run([tool], capture_output=True, text=True,
                           env=clean_env({"LD_TRACE_LOADED_OBJECTS": "1"}))
        m = re.search(r"libgamedb\.so\.1 => (\S+)", p.stdout)
        check(m is not None and os.path.exists(m.group(1)) and inside(m.group(1), dest),
              "the installed gamedb loads the installed libgamedb.so.1: %s" % p.stdout.strip())
        p = subprocess.run([tool, "info", BASE], capture_output=True, text=True,
                           env=clean_env(), cwd=dest)
        check(p.returncode == 0, "installed gamedb info: exit %d, %s" % (p.returncode,
                                                                         p.stderr.strip()))
        eq(re.findall(r"^games: (\d+)$", p.stdout, flags=re.M), [str(len(events))],
           "installed gamedb info: games")

        # The version a program tests for features with: the installed command's (it prints
        # the library's), the installed gamedb.pc's and meson's project version agree.
        p = subprocess.run([meson, "introspect", "--projectinfo", build], capture_output=True,
                           text=True)
        m = re.search(r'"version":\s*"([^"]*)"', p.stdout)
        project = m.group(1) if m else None
        p = subprocess.run([tool, "--version"], capture_output=True, text=True,
                           env=clean_env())
        eq(p.stdout.strip(), "gamedb %s" % project, "installed gamedb --version")
        pcs = list(find(dest, "gamedb.pc", "file"))
        if check(len(pcs) == 1, "one gamedb.pc installed: %r" % pcs):
            with open(pcs[0], encoding="utf-8") as f:
                eq(re.findall(r"^Version:\s*(\S+)$", f.read(), flags=re.M), [project],
                   "gamedb.pc: Version")

        # 2. The package, from the site-packages the install made.
        pkgs = [os.path.dirname(d) for d in find(dest, "gamedb", "dir")
                if os.path.isfile(os.path.join(d, "__init__.py"))]
        if not pkgs:
            # -Dpython=disabled, or no python3 for meson: the command's checks only.
            print("no Python package installed: its checks skipped")
        elif check(len(pkgs) == 1, "one gamedb package installed: %r" % pkgs):
            env = clean_env(dict(py_env, PYTHONPATH=pkgs[0], PYTHONDONTWRITEBYTECODE="1"))
            p = subprocess.run([sys.executable, "-c", READER, BASE], capture_output=True,
                               text=True, env=env, cwd=dest)
            lines = p.stdout.splitlines()
            check(p.returncode == 0, "the installed package imports and reads %s: %s" %
                  (BASE, p.stderr.strip()[-1500:]))
            check(bool(lines) and os.path.exists(lines[0]) and inside(lines[0], dest),
                  "the installed package loads the installed library: %r" % lines[:1])
            eq(lines[1:], events, "the installed package reads the games of the base")

            # 3. GAMEDB_LIBRARY first, even when it names a missing file.
            missing = os.path.join(dest, "no-such-libgamedb.so.1")
            env["GAMEDB_LIBRARY"] = missing
            p = subprocess.run([sys.executable, "-c", "import gamedb"], capture_output=True,
                               text=True, env=env, cwd=dest)
            check(p.returncode != 0 and missing in p.stderr,
                  "GAMEDB_LIBRARY wins over the installed library: exit %d, %s" %
                  (p.returncode, p.stderr.strip()[-500:]))
    return done()


if __name__ == "__main__":
    sys.exit(main())
