#!/usr/bin/env python3
"""The Python binding as a package (issue 13, item 6).

Usage: test-python-package.py BUILD_ROOT

1. `meson install --destdir` puts every module of python/gamedb/ (the .py files of the tree:
   one left out of python/meson.build's list fails here) and the PEP 561 marker py.typed
   into the interpreter's site-packages (skipped when meson is not on PATH);
2. `pip install --no-build-isolation --no-index ./python` (a copy of it: pip builds in the
   tree) works offline into a --target folder, with py.typed, and the installed package
   imports and reports the library's version; done with the first interpreter that has pip
   (this one, then Debian's /usr/bin/python3), else skipped;
3. in a fresh venv (`python3 -m venv`: pip and nothing else, no setuptools or wheel to build
   with), `pip install --no-index ./python` works offline with the project's own build
   backend (python/_build/gamedb_backend.py), and so does `pip install --no-index` of the
   sdist that backend makes; each installed package imports and reads testdata/scid/tags.si4
   (its Event tags those of tags.oracle.pgn, Scid's own export); the wheel's RECORD holds
   the sha256 and size of every other file of the wheel (the wheel spec), and the backend's
   own reader of pyproject.toml (for Pythons without tomllib) reads what tomllib reads
   (skipped when the venv cannot be made: Debian's package python3-venv);
4. `mypy --strict` passes on the package, and on tests/python/typed_client.py, a program
   that uses the public API (skipped without mypy: Debian's package `mypy`).
Exit 77 when all four were skipped.
"""
import base64
import hashlib
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile

from testsupport import check, done, eq, SRCDIR

PKG = os.path.join(SRCDIR, "python")
# The package's files: every module of the tree (the binding is split into modules by
# capability) and the PEP 561 marker. Each is checked in the meson install, the pip install
# and the wheel.
FILES = tuple(sorted(f for f in os.listdir(os.path.join(PKG, "gamedb")) if f.endswith(".py"))) \
    + ("py.typed",)


def find_installed(root):
    for d, _, fs in os.walk(root):
        if os.path.basename(d) == "gamedb" and "__init__.py" in fs and \
                ("site-packages" in d or "dist-packages" in d):
            return d
    return None


def meson_install(build):
    meson = shutil.which("meson")
    if not meson or not build:
        return False
    with tempfile.TemporaryDirectory(prefix="gamedb-pyinst-") as dest:
        p = subprocess.run([meson, "install", "-C", build, "--no-rebuild", "--quiet",
                            "--destdir", dest], capture_output=True, text=True)
        if not check(p.returncode == 0, "meson install: %s%s" % (p.stdout, p.stderr)):
            return True
        d = find_installed(dest)
        check(d is not None, "meson install: gamedb/ in site-packages")
        if d:
            for f in FILES:
                if check(os.path.isfile(os.path.join(d, f)), "meson install: gamedb/" + f) \
                        and f.endswith(".py"):
                    with open(os.path.join(d, f), "rb") as a, \
                            open(os.path.join(PKG, "gamedb", f), "rb") as b:
                        check(a.read() == b.read(), "meson install: gamedb/%s as in the tree" % f)
    return True


def can_build(py):
    p = subprocess.run([py, "-c", "import pip"], capture_output=True)
    return p.returncode == 0


def library_env(env):
    """env for a new interpreter that loads $GAMEDB_LIBRARY: an ASan build of the library
    needs its runtime first in it, as tests/pyrun.py arranges for the tests it launches."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import pyrun
    runtime = pyrun.sanitizer_runtime(os.environ.get("GAMEDB_LIBRARY"))
    if runtime:
        env["LD_PRELOAD"] = runtime
        env["ASAN_OPTIONS"] = ":".join(o for o in (env.get("ASAN_OPTIONS"), "detect_leaks=0")
                                       if o)
    return env


def copy_package(tmp):
    src = os.path.join(tmp, "src")
    shutil.copytree(PKG, src, ignore=shutil.ignore_patterns("__pycache__", "build",
                                                             "*.egg-info"))
    return src


def pip_install():
    pys = [sys.executable, "/usr/bin/python3"]
    py = next((p for p in pys if p and os.path.exists(p) and can_build(p)), None)
    if not py:
        print("pip: no interpreter with pip: skipped")
        return False
    with tempfile.TemporaryDirectory(prefix="gamedb-pip-") as tmp:
        src = copy_package(tmp)
        target = os.path.join(tmp, "target")
        env = dict(os.environ, PIP_NO_INDEX="1", PIP_DISABLE_PIP_VERSION_CHECK="1")
        p = subprocess.run([py, "-m", "pip", "install", "--no-build-isolation", "--no-index",
                            "--no-deps", "--target", target, src], capture_output=True,
                           text=True, env=env)
        if not check(p.returncode == 0, "pip install ./python: %s" % p.stderr[-2000:]):
            return True
        for f in FILES:
            check(os.path.isfile(os.path.join(target, "gamedb", f)), "pip install: gamedb/" + f)
        if os.environ.get("GAMEDB_LIBRARY"):
            env = library_env(dict(os.environ, PYTHONPATH=target))
            p = subprocess.run([py, "-c", "import gamedb, sys; sys.stdout.write(gamedb.version())"],
                               capture_output=True, text=True, env=env, cwd=tmp)
            check(p.returncode == 0 and p.stdout.count(".") == 2,
                  "the pip-installed package imports: %r %r" % (p.stdout, p.stderr[-500:]))
        print("pip install with %s: done" % py)
    return True


# Reads a base with the package installed in the venv: where it was imported from, then one
# Event tag per game.
READER = r"""
import sys, gamedb
print(gamedb.__file__)
with gamedb.open(sys.argv[1]) as r:
    for g in r:
        print(g.tags["Event"])
"""


def check_record(wheel):
    """The wheel's RECORD lists every other file with its sha256 and size (wheel spec)."""
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        records = [n for n in names if n.endswith(".dist-info/RECORD")]
        if not check(len(records) == 1, "one RECORD in %s: %r" % (wheel, names)):
            return
        rows = {}
        for line in z.read(records[0]).decode("utf-8").splitlines():
            path, digest, size = line.rsplit(",", 2)
            rows[path] = (digest, size)
        eq(sorted(rows), sorted(names), "RECORD lists the files of the wheel")
        eq(rows.get(records[0]), ("", ""), "RECORD's own row has no hash")
        for n in names:
            if n == records[0] or n not in rows:
                continue
            data = z.read(n)
            want = "sha256=" + base64.urlsafe_b64encode(
                hashlib.sha256(data).digest()).rstrip(b"=").decode()
            eq(rows[n], (want, str(len(data))), "RECORD row of " + n)
        for n in ("gamedb/" + f for f in FILES):
            check(n in names, "the wheel holds " + n)
        check(not any("__pycache__" in n or n.endswith(".pyc") for n in names),
              "no bytecode in the wheel: %r" % names)


def venv_install():
    with open(os.path.join(SRCDIR, "testdata", "scid", "tags.oracle.pgn"),
              encoding="utf-8") as f:
        events = re.findall(r'^\[Event "(.*)"\]$', f.read(), flags=re.M)
    base = os.path.join(SRCDIR, "testdata", "scid", "tags.si4")
    with tempfile.TemporaryDirectory(prefix="gamedb-venv-") as tmp:
        venv = os.path.join(tmp, "venv")
        p = subprocess.run([sys.executable, "-m", "venv", venv], capture_output=True,
                           text=True)
        py = os.path.join(venv, "bin", "python")
        if p.returncode != 0 or not os.path.exists(py):
            print("venv: python3 -m venv failed (Debian: python3-venv): skipped: %s" %
                  p.stderr.strip()[-300:])
            return False
        src = copy_package(tmp)

        # The backend itself: the wheel's RECORD; its pyproject reader against tomllib.
        path = os.path.join(src, "_build", "gamedb_backend.py")
        installs = [("./python", src)]
        if check(os.path.isfile(path), "the build backend " + path):
            spec = importlib.util.spec_from_file_location("gamedb_backend", path)
            backend = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(backend)
            out = os.path.join(tmp, "dist")
            os.mkdir(out)
            check_record(os.path.join(out, backend.build_wheel(out)))
            installs.append(("the sdist", os.path.join(out, backend.build_sdist(out))))
            try:
                import tomllib
                with open(os.path.join(src, "pyproject.toml"), encoding="utf-8") as f:
                    text = f.read()
                saved, sys.modules["tomllib"] = sys.modules["tomllib"], None  # ImportError
                try:
                    mine = backend._toml_project(text)
                finally:
                    sys.modules["tomllib"] = saved
                eq(mine, tomllib.loads(text)["project"], "the backend's pyproject reader")
            except ImportError:
                pass

        env = {k: v for k, v in os.environ.items()
               if k not in ("PYTHONPATH", "PIP_TARGET", "PIP_FIND_LINKS")}
        env.update(PIP_NO_INDEX="1", PIP_DISABLE_PIP_VERSION_CHECK="1", PIP_NO_CACHE_DIR="1")
        for what, arg in installs:
            p = subprocess.run([py, "-m", "pip", "install", "--no-index", "--force-reinstall",
                                arg], capture_output=True, text=True, env=env, cwd=tmp)
            if not check(p.returncode == 0, "fresh venv: pip install --no-index %s: %s" %
                         (what, (p.stdout + p.stderr)[-2000:])):
                continue
            if not os.environ.get("GAMEDB_LIBRARY"):
                continue
            p = subprocess.run([py, "-c", READER, base], capture_output=True, text=True,
                               env=library_env(dict(env)), cwd=tmp)
            lines = p.stdout.splitlines()
            check(p.returncode == 0, "fresh venv, from %s: the package reads %s: %s" %
                  (what, base, p.stderr[-1000:]))
            check(bool(lines) and lines[0].startswith(venv + os.sep),
                  "fresh venv, from %s: gamedb imported from the venv: %r" % (what, lines[:1]))
            eq(lines[1:], events, "fresh venv, from %s: the Event tags of %s" % (what, base))
        print("fresh venv: pip install --no-index of ./python and of its sdist: done")
    return True


def mypy():
    exe = shutil.which("mypy")
    if not exe:
        print("mypy: not installed: skipped")
        return False
    with tempfile.TemporaryDirectory(prefix="gamedb-mypy-") as tmp:
        for what, args in (("the package", [os.path.join(PKG, "gamedb")]),
                           ("a strict client", [os.path.join(SRCDIR, "tests", "python",
                                                             "typed_client.py")])):
            p = subprocess.run([exe, "--strict", "--no-incremental", "--cache-dir",
                                os.path.join(tmp, "cache"), *args], capture_output=True,
                               text=True, cwd=tmp, env=dict(os.environ, MYPYPATH=PKG))
            check(p.returncode == 0, "mypy --strict on %s: %s" % (what, p.stdout[-3000:]))
            print("mypy --strict on %s: %s" % (what, p.stdout.strip().splitlines()[-1:]))
    return True


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else ""
    ran = [meson_install(build), pip_install(), venv_install(), mypy()]
    return done(None if any(ran) else "no meson, pip, venv nor mypy")


if __name__ == "__main__":
    sys.exit(main())
