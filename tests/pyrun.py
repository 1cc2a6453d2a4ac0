#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Runs a Python test that loads libgamedb through ctypes, in a sanitizer build too.

    python3 tests/pyrun.py SCRIPT [ARGS...]
    python3 tests/pyrun.py -m MODULE [ARGS...]        (e.g. -m pytest -q tests/python)

A libgamedb built with -Db_sanitize=address links the ASan runtime dynamically, and that
runtime refuses to start unless it is the first library of the process: python3 cannot load
such a library with ctypes.CDLL. So when `ldd $GAMEDB_LIBRARY` names libasan, this launcher
runs itself again with the runtime in LD_PRELOAD and detect_leaks=0 added to ASAN_OPTIONS (the
interpreter never frees everything at exit; the library's own leaks are caught by the C tests
and the gamedb command). Once the runtime is loaded, LD_PRELOAD and ASAN_OPTIONS go back to
what they were, so the programs the test starts (the gamedb command, pgn-extract, ...) run
with the environment meson gave, leak checks included. Then SCRIPT (or MODULE) runs as
__main__ in this process, with its own argv, and its exit status is this process's. Without a
sanitizer build it only runs SCRIPT.

Python programs a test starts that load the library themselves must be started through this
launcher too (tests/python/test_binding.py does so for the example).
"""
import json
import os
import re
import runpy
import subprocess
import sys

# Present only in the process this launcher re-executed: the variables it changed, as they
# were before (null for unset), to put back once the runtime is loaded.
SAVED = "GAMEDB_PYRUN_SAVED_ENV"
CHANGED = ("LD_PRELOAD", "ASAN_OPTIONS")


def sanitizer_runtime(library):
    """The path of the ASan runtime the library links against, or None."""
    if not library:
        return None
    try:
        out = subprocess.run(["ldd", library], capture_output=True, text=True).stdout
    except OSError:
        return None
    m = re.search(r"=>\s*(\S*libasan\.so\S*)", out)
    return m.group(1) if m else None


def preload_if_needed():
    """Re-executes this launcher with the ASan runtime preloaded when the library needs it;
    in the re-executed process, restores the environment. Returns only when ready."""
    saved = os.environ.pop(SAVED, None)
    if saved is not None:
        for name, value in json.loads(saved).items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        return
    runtime = sanitizer_runtime(os.environ.get("GAMEDB_LIBRARY"))
    if runtime is None:
        return
    env = dict(os.environ)
    env[SAVED] = json.dumps({name: os.environ.get(name) for name in CHANGED})
    env["LD_PRELOAD"] = ":".join([runtime] + ([env["LD_PRELOAD"]] if env.get("LD_PRELOAD")
                                              else []))
    env["ASAN_OPTIONS"] = ":".join(o for o in (env.get("ASAN_OPTIONS"), "detect_leaks=0") if o)
    sys.stdout.flush()
    sys.stderr.flush()
    os.execve(sys.executable, [sys.executable, os.path.abspath(__file__)] + sys.argv[1:], env)


def main():
    args = sys.argv[1:]
    if not args or (args[0] == "-m" and len(args) < 2):
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 2
    preload_if_needed()
    sys.dont_write_bytecode = True  # keep the source tree clean of __pycache__
    if args[0] == "-m":
        # As `python3 -m MODULE`: the current folder first on the path; argv[0] is set by runpy.
        sys.argv = args[1:]
        sys.path[0] = os.getcwd()
        runpy.run_module(args[1], run_name="__main__", alter_sys=True)
    else:
        # As `python3 SCRIPT`: the script's folder first on the path.
        sys.argv = args
        sys.path[0] = os.path.dirname(os.path.abspath(args[0]))
        runpy.run_path(args[0], run_name="__main__")
    return 0


if __name__ == "__main__":
    sys.exit(main())
