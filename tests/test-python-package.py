#!/usr/bin/env python3
"""The Python binding as a package (issue 13, item 6).

Usage: test-python-package.py BUILD_ROOT

1. `meson install --destdir` puts gamedb/__init__.py, _ffi.py and the PEP 561 marker
   py.typed into the interpreter's site-packages (skipped when meson is not on PATH);
2. `pip install --no-build-isolation --no-index ./python` (a copy of it: pip builds in the
   tree) works offline into a --target folder, with py.typed, and the installed package
   imports and reports the library's version; done with the first interpreter that has pip,
   setuptools and wheel (this one, then Debian's /usr/bin/python3), else skipped;
3. `mypy --strict` passes on the package, and on tests/python/typed_client.py, a program
   that uses the public API (skipped without mypy: Debian's package `mypy`).
Exit 77 when all three were skipped.
"""
import os
import shutil
import subprocess
import sys
import tempfile

from testsupport import check, done, SRCDIR

PKG = os.path.join(SRCDIR, "python")
FILES = ("__init__.py", "_ffi.py", "py.typed")


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
                check(os.path.isfile(os.path.join(d, f)), "meson install: gamedb/" + f)
                if f.endswith(".py"):
                    with open(os.path.join(d, f), "rb") as a, \
                            open(os.path.join(PKG, "gamedb", f), "rb") as b:
                        check(a.read() == b.read(), "meson install: gamedb/%s as in the tree" % f)
    return True


def can_build(py):
    p = subprocess.run([py, "-c", "import setuptools, wheel, pip"], capture_output=True)
    return p.returncode == 0


def pip_install():
    pys = [sys.executable, "/usr/bin/python3"]
    py = next((p for p in pys if p and os.path.exists(p) and can_build(p)), None)
    if not py:
        print("pip: no interpreter with pip, setuptools and wheel: skipped")
        return False
    with tempfile.TemporaryDirectory(prefix="gamedb-pip-") as tmp:
        src = os.path.join(tmp, "src")
        shutil.copytree(PKG, src, ignore=shutil.ignore_patterns("__pycache__", "build",
                                                                 "*.egg-info"))
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
            env = dict(os.environ, PYTHONPATH=target)
            # An ASan build of the library needs its runtime first in the new interpreter, as
            # tests/pyrun.py arranges for the tests it launches.
            sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
            import pyrun
            runtime = pyrun.sanitizer_runtime(os.environ["GAMEDB_LIBRARY"])
            if runtime:
                env["LD_PRELOAD"] = runtime
                env["ASAN_OPTIONS"] = ":".join(
                    o for o in (env.get("ASAN_OPTIONS"), "detect_leaks=0") if o)
            p = subprocess.run([py, "-c", "import gamedb, sys; sys.stdout.write(gamedb.version())"],
                               capture_output=True, text=True, env=env, cwd=tmp)
            check(p.returncode == 0 and p.stdout.count(".") == 2,
                  "the pip-installed package imports: %r %r" % (p.stdout, p.stderr[-500:]))
        print("pip install with %s: done" % py)
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
    ran = [meson_install(build), pip_install(), mypy()]
    return done(None if any(ran) else "no meson, pip nor mypy")


if __name__ == "__main__":
    sys.exit(main())
