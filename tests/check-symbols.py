#!/usr/bin/env python3
# libgamedb - symbol discipline check.
#
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Compares the lists of public symbols that must agree, and fails on any difference.

1. the names in the GAMEDB_1.0 node (and later nodes) of lib/libgamedb.map;
2. the functions declared with GAMEDB_EXPORT in include/gamedb/*.h;
3. the dynamic symbols the built library defines (``nm -D --defined-only``): every one must
   start with ``gamedb_`` and carry its map node as version (``name@@GAMEDB_1.0``);
4. if python/gamedb/_ffi.py exists, the names in its ``_Api`` table.

It also checks that the library's SONAME is libgamedb.so.1, and the version (issue 28): the
project version of meson.build (which gamedb_version_string(), `gamedb --version` and gamedb.pc
follow) is at least the newest node of the map, since a program tests for a feature with the
version; python/pyproject.toml, gamedb.__version__ and the man page say the same version; and
the binding's REQUIRED_VERSION is at least the newest node of the names in its _Api table.

Usage: check-symbols.py SRCDIR LIBRARY [--nm NM] [--readelf READELF]
Exit status: 0 all lists agree, 1 a difference (printed), 77 the tools are missing.
"""

import argparse
import ast
import os
import re
import shutil
import subprocess
import sys

SONAME = "libgamedb.so.1"
PREFIX = "gamedb_"


def parse_map(path):
    """Returns {symbol: node} for every global name of the version script."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"#[^\n]*", " ", text)
    symbols = {}
    problems = []
    for m in re.finditer(r"([A-Za-z0-9_.]+)\s*\{(.*?)\}\s*([A-Za-z0-9_.]*)\s*;", text, flags=re.S):
        node, body = m.group(1), m.group(2)
        section = None
        for item in re.split(r";", body):
            item = item.strip()
            while True:
                sm = re.match(r"(global|local)\s*:\s*(.*)$", item, flags=re.S)
                if not sm:
                    break
                section, item = sm.group(1), sm.group(2).strip()
            if not item:
                continue
            if section == "local":
                if item != "*":
                    problems.append("%s: node %s: unexpected local entry %r" % (path, node, item))
                continue
            if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", item):
                problems.append("%s: node %s: entry %r is not a plain name (no wildcards)"
                                % (path, node, item))
                continue
            if item in symbols:
                problems.append("%s: %s is listed twice (%s and %s)"
                                % (path, item, symbols[item], node))
            symbols[item] = node
    if not any(node == "GAMEDB_1.0" for node in symbols.values()):
        problems.append("%s: no GAMEDB_1.0 node with global names" % path)
    return symbols, problems


def strip_c_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def parse_headers(include_dir):
    """Returns {name: header} for every function declared with GAMEDB_EXPORT."""
    names = {}
    problems = []
    for root, _dirs, files in os.walk(include_dir):
        for fn in sorted(files):
            if not (fn.endswith(".h") or fn.endswith(".h.in")):
                continue
            path = os.path.join(root, fn)
            with open(path, encoding="utf-8") as f:
                text = strip_c_comments(f.read())
            # Preprocessor lines define the macro itself; declarations never start with '#'.
            text = "\n".join(line for line in text.splitlines()
                             if not line.lstrip().startswith("#"))
            for m in re.finditer(r"\bGAMEDB_EXPORT\b([^;{]*?)\b([A-Za-z_][A-Za-z0-9_]*)\s*\(",
                                 text, flags=re.S):
                name = m.group(2)
                if name in names:
                    problems.append("%s: %s declared twice" % (path, name))
                names[name] = os.path.relpath(path, os.path.dirname(include_dir))
    return names, problems


def run(cmd):
    res = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         universal_newlines=True)
    if res.returncode != 0:
        raise RuntimeError("%s failed: %s" % (" ".join(cmd), res.stderr.strip()))
    return res.stdout


def library_symbols(nm, lib):
    """Returns ({name: version}, [problems]) for the dynamic symbols the library defines."""
    out = run([nm, "-D", "--defined-only", lib])
    syms = {}
    problems = []
    for line in out.splitlines():
        parts = line.split()
        if len(parts) < 2:
            continue
        typ, full = parts[-2], parts[-1]
        name, version = full, None
        if "@@" in full:
            name, version = full.split("@@", 1)
        elif "@" in full:
            name, version = full.split("@", 1)
        if typ == "A" and name == version:
            continue  # the version node itself (GAMEDB_1.0 A GAMEDB_1.0)
        if typ == "A" and name.startswith("GAMEDB_"):
            continue
        if not name.startswith(PREFIX):
            problems.append("exported symbol outside the gamedb_ namespace: %s (%s)"
                            % (full, typ))
            continue
        if name.startswith("gamedb__"):
            problems.append("internal symbol exported: %s" % full)
            continue
        syms[name] = version
    return syms, problems


def library_soname(readelf, objdump, lib):
    if readelf:
        out = run([readelf, "-d", lib])
        m = re.search(r"\(SONAME\)\s+Library soname: \[([^\]]+)\]", out)
        return m.group(1) if m else None
    out = run([objdump, "-p", lib])
    m = re.search(r"^\s*SONAME\s+(\S+)", out, flags=re.M)
    return m.group(1) if m else None


def ffi_names(path):
    """Names of the _Api(...) entries of the ctypes table, read without importing it."""
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), filename=path)
    names = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        fn = node.func
        fname = fn.id if isinstance(fn, ast.Name) else getattr(fn, "attr", None)
        if fname != "_Api" or not node.args:
            continue
        first = node.args[0]
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            names.append(first.value)
        elif hasattr(ast, "Str") and isinstance(first, getattr(ast, "Str")):  # Python < 3.8
            names.append(first.s)
    return names


def node_version(node):
    """(major, minor) of a map node name GAMEDB_MAJOR.MINOR, or None."""
    m = re.fullmatch(r"GAMEDB_(\d+)\.(\d+)", node)
    return (int(m.group(1)), int(m.group(2))) if m else None


def read_first(path, pattern):
    """The first group of the first match of pattern in the file, or None (no file too)."""
    try:
        with open(path, encoding="utf-8") as f:
            m = re.search(pattern, f.read(), flags=re.M | re.S)
    except OSError:
        return None
    return m.group(1) if m else None


def check_versions(srcdir, map_syms, ffi, problems):
    """The version checks of the docstring; returns the project version."""
    project = read_first(os.path.join(srcdir, "meson.build"),
                         r"^project\(.*?\bversion\s*:\s*'([^']*)'")
    m = re.fullmatch(r"(\d+)\.(\d+)\.(\d+)", project or "")
    if not m:
        problems.append("meson.build: no project version MAJOR.MINOR.PATCH (%r)" % project)
        return project
    have = (int(m.group(1)), int(m.group(2)))
    nodes = sorted(set(node_version(n) or (0, 0) for n in map_syms.values()))
    if nodes and nodes[-1] > have:
        problems.append("lib/libgamedb.map has node GAMEDB_%d.%d, newer than the project "
                        "version %s in meson.build: a program cannot test for its symbols "
                        "with the version" % (nodes[-1] + (project,)))
    for label, path, pattern in (
            ("python/pyproject.toml", os.path.join(srcdir, "python", "pyproject.toml"),
             r'^\[project\].*?^version\s*=\s*"([^"]*)"'),
            ("gamedb.__version__", os.path.join(srcdir, "python", "gamedb", "__init__.py"),
             r'^__version__\s*=\s*"([^"]*)"'),
            ("tools/gamedb.1", os.path.join(srcdir, "tools", "gamedb.1"),
             r'^\.TH\s.*?"libgamedb ([^"]*)"')):
        if os.path.exists(path):
            got = read_first(path, pattern)
            if got != project:
                problems.append("%s says version %s, meson.build %s" % (label, got, project))
    if ffi is not None:
        required = read_first(ffi, r"^REQUIRED_VERSION\s*=\s*(\d+)")
        bound = [node_version(map_syms[n]) for n in ffi_names(ffi) if n in map_syms]
        need = max((v for v in bound if v), default=None)
        if need and (required is None or int(required) < need[0] * 10000 + need[1] * 100):
            problems.append("%s: REQUIRED_VERSION %s, but its _Api table binds symbols of "
                            "GAMEDB_%d.%d" % ((ffi, required) + need))
    return project


def compare(label_a, a, label_b, b, problems):
    for name in sorted(set(a) - set(b)):
        problems.append("%s in %s but not in %s" % (name, label_a, label_b))
    for name in sorted(set(b) - set(a)):
        problems.append("%s in %s but not in %s" % (name, label_b, label_a))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("srcdir")
    ap.add_argument("library")
    ap.add_argument("--nm", default=os.environ.get("NM") or shutil.which("nm"))
    ap.add_argument("--readelf", default=shutil.which("readelf"))
    ap.add_argument("--objdump", default=shutil.which("objdump"))
    args = ap.parse_args()

    if not args.nm or (not args.readelf and not args.objdump):
        print("SKIP: nm and readelf/objdump are needed")
        return 77

    problems = []
    map_path = os.path.join(args.srcdir, "lib", "libgamedb.map")
    include_dir = os.path.join(args.srcdir, "include", "gamedb")
    ffi_path = os.path.join(args.srcdir, "python", "gamedb", "_ffi.py")

    map_syms, p = parse_map(map_path)
    problems += p
    hdr_syms, p = parse_headers(include_dir)
    problems += p
    lib_syms, p = library_symbols(args.nm, args.library)
    problems += p

    for name in sorted(map_syms):
        if not name.startswith(PREFIX) or name.startswith("gamedb__"):
            problems.append("map entry %s is outside the public gamedb_ namespace" % name)

    compare("lib/libgamedb.map", map_syms, "the GAMEDB_EXPORT declarations", hdr_syms, problems)
    compare("lib/libgamedb.map", map_syms, "the library's dynamic symbols", lib_syms, problems)

    # Each exported symbol carries the version of the map node that lists it.
    for name in sorted(set(map_syms) & set(lib_syms)):
        if lib_syms[name] != map_syms[name]:
            problems.append("%s has version %s in the library, map node %s"
                            % (name, lib_syms[name], map_syms[name]))

    soname = library_soname(args.readelf, args.objdump, args.library)
    if soname != SONAME:
        problems.append("SONAME is %s, expected %s" % (soname, SONAME))

    project = check_versions(args.srcdir, map_syms,
                             ffi_path if os.path.exists(ffi_path) else None, problems)

    checked = ["map (%d)" % len(map_syms), "headers (%d)" % len(hdr_syms),
               "library (%d)" % len(lib_syms), "SONAME", "version %s" % project]
    if os.path.exists(ffi_path):
        names = ffi_names(ffi_path)
        seen = set()
        for name in names:
            if name in seen:
                problems.append("%s: %s is in the _Api table twice" % (ffi_path, name))
            seen.add(name)
        compare("lib/libgamedb.map", map_syms, "python/gamedb/_ffi.py", seen, problems)
        checked.append("python/gamedb/_ffi.py (%d)" % len(seen))
    else:
        print("note: %s absent, the ctypes table is not checked" % ffi_path)

    if problems:
        for p in problems:
            print("FAIL: " + p)
        print("%d problem(s)" % len(problems))
        return 1
    print("OK: " + ", ".join(checked) + " agree")
    return 0


if __name__ == "__main__":
    sys.exit(main())
