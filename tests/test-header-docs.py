#!/usr/bin/env python3
"""The public header's documentation holds what the code does (issue 13, item 5).

header-docs: the option table of gamedb_reader_set_option() in include/gamedb/gamedb.h lists
  every option of every format with the default the code uses, and nothing else. The format
  options and their defaults are asked of the library (gamedb_format_get_option(), through
  the binding), the default charset too (gamedb_format_get_charset()); the fallback charset,
  which no API lists, is read from the formats' vtables (`.default_fallback`) and the core's
  default for formats that give none (gamedb__reader_fallback() in lib/core/reader.c).
json-schema: `gamedb json --fen --key --partial --include-deleted` over every real base (and
  the test data) writes only keys that the schema table of gamedb_game_write_json() names
  for that kind of object, each of its type; the keys the table says are always there are.
"""
import glob
import json
import os
import re
import subprocess
import sys

import testsupport
from testsupport import check, done, eq, SRCDIR, TOOL

HEADER = os.path.join(SRCDIR, "include", "gamedb", "gamedb.h")


def doc_block(text, symbol):
    """The Doxygen comment just before the declaration of symbol, its ' * ' stripped."""
    m = re.search(r"/\*\*((?:(?!\*/).)*)\*/\s*GAMEDB_EXPORT[^;]*\b%s\(" % symbol, text, re.S)
    if not m:
        return ""
    return "\n".join(re.sub(r"^\s*\* ?", "", l) for l in m.group(1).splitlines())


def table_rows(block):
    """The rows of the first Markdown table in block, as lists of cells (header skipped)."""
    rows = []
    for line in block.splitlines():
        line = line.strip()
        if not line.startswith("|"):
            if rows:
                break
            continue
        cells = [c.strip() for c in line.strip("|").split("|")]
        if all(set(c) <= set("-: ") for c in cells):
            continue  # the separator
        rows.append(cells)
    return rows[1:]


def unquote(cell):
    m = re.fullmatch(r"`([^`]*)`", cell)
    return m.group(1) if m else None


# ---- the options ---------------------------------------------------------------------------

def code_fallbacks():
    """{format name: fallback charset} from the vtables and the core's default."""
    with open(os.path.join(SRCDIR, "lib", "core", "reader.c")) as f:
        src = f.read()
    m = re.search(r"gamedb__reader_fallback\([^)]*\)\s*\{(.*?)\n\}", src, re.S)
    core = re.findall(r'"([^"]+)"', m.group(1)) if m else []
    check(len(core) == 1, "lib/core/reader.c: one default fallback in gamedb__reader_fallback()")
    out = {}
    for path in glob.glob(os.path.join(SRCDIR, "lib", "formats", "format-*.c")):
        with open(path) as f:
            src = f.read()
        for vt in re.finditer(r"const struct gamedb__format gamedb__format_\w+ = \{(.*?)\n\};",
                              src, re.S):
            body = vt.group(1)
            name = re.search(r'\.name\s*=\s*"([^"]+)"', body).group(1)
            fb = re.search(r"\.default_fallback\s*=\s*(NULL|\"[^\"]*\")", body)
            val = fb.group(1) if fb else "NULL"
            out[name] = core[0] if val == "NULL" and core else val.strip('"')
    return out


def core_options():
    """The keys gamedb_reader_set_option() handles in the core for every format (but charset
    and fallback-charset, whose defaults are per format), from lib/core/reader.c."""
    with open(os.path.join(SRCDIR, "lib", "core", "reader.c")) as f:
        src = f.read()
    m = re.search(r"gamedb_reader_set_option\(struct gamedb_reader \*r.*?\n\}", src, re.S)
    keys = set(re.findall(r'strcmp\(key, "([^"]+)"\) == 0', m.group(0) if m else ""))
    check(len(keys) >= 2, "lib/core/reader.c: the core's option keys (%s)" % sorted(keys))
    # The containers' options (lib/containers: `password` of the .cbz container) are reader
    # options too, whatever the format of the base inside: their option tables.
    folder = os.path.join(SRCDIR, "lib", "containers")
    for name in sorted(os.listdir(folder)) if os.path.isdir(folder) else ():
        if name.endswith(".c"):
            with open(os.path.join(folder, name)) as f:
                for table in re.findall(r"container_option\s+\w+\[\]\s*=\s*\{(.*?)\};",
                                        f.read(), re.S):
                    keys |= set(re.findall(r'\{\s*"([^"]+)",', table))
    return keys - {"charset", "fallback-charset"}


def check_options(text):
    gamedb = testsupport.import_gamedb()
    rows = table_rows(doc_block(text, "gamedb_reader_set_option"))
    check(len(rows) > 0, "gamedb_reader_set_option() has an option table")
    documented = {}
    for cells in rows:
        if len(cells) < 3 or unquote(cells[0]) is None or \
                (unquote(cells[2]) is None and cells[2] != "(none)"):
            check(False, "option row not of the form | `key` | format | `default` |: %r" % cells)
            continue
        key, fmt, default = unquote(cells[0]), cells[1], unquote(cells[2]) or ""

        check((key, fmt) not in documented, "option %s of %s documented once" % (key, fmt))
        documented[(key, fmt)] = default
    fallbacks = code_fallbacks()
    want = {}
    for f in gamedb.formats():
        want[("charset", f.name)] = f.charset
        want[("fallback-charset", f.name)] = fallbacks.get(f.name)
        for o in f.options:
            want[(o.key, f.name)] = o.default
    for key in core_options():
        want[(key, "every format")] = ""  # no default: nothing until the caller sets it
    check(len(want) >= 14, "the library lists the options (%d)" % len(want))
    for k, v in sorted(want.items()):
        eq(documented.get(k), v, "header: option %s of %s, its default" % k)
    for k in sorted(set(documented) - set(want)):
        check(False, "header documents option %s of %s, which the code does not have" % k)


# ---- the JSON schema -----------------------------------------------------------------------

def schema(text):
    """{object: {key: (type, always)}} from the table of gamedb_game_write_json()."""
    out = {}
    for cells in table_rows(doc_block(text, "gamedb_game_write_json")):
        if len(cells) < 4 or unquote(cells[1]) is None:
            check(False, "schema row not of the form | object | `key` | type | when |: %r" % cells)
            continue
        out.setdefault(cells[0], {})[unquote(cells[1])] = (cells[2],
                                                           cells[3].startswith("always"))
    return out


def type_ok(value, typ, sch, where, errors):
    if typ == "string":
        return isinstance(value, str)
    if typ == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if typ == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if typ == "boolean":
        return isinstance(value, bool)
    if typ.startswith("object of "):
        inner = typ[len("object of "):]
        return isinstance(value, dict) and all(type_ok(v, inner, sch, where, errors)
                                               for v in value.values())
    if typ.startswith("array of "):
        inner = typ[len("array of "):]
        return isinstance(value, list) and all(type_ok(v, inner, sch, where, errors)
                                               for v in value)
    if typ in sch:
        validate(value, typ, sch, where, errors)
        return isinstance(value, dict)
    errors.append("%s: the schema names an unknown type %r" % (where, typ))
    return False


def validate(obj, kind, sch, where, errors):
    if not isinstance(obj, dict):
        errors.append("%s: a %s is not an object" % (where, kind))
        return
    keys = sch[kind]
    for k, v in obj.items():
        if k not in keys:
            errors.append("%s: key %r of a %s is not in the schema" % (where, k, kind))
        elif not type_ok(v, keys[k][0], sch, where + "." + k, errors):
            errors.append("%s: key %r of a %s is not a %s: %r" % (where, k, kind, keys[k][0],
                                                                 v))
    for k, (typ, always) in keys.items():
        if always and k not in obj:
            errors.append("%s: a %s lacks key %r, which is always there" % (where, kind, k))


def bases():
    found = []
    real = os.environ.get("GAMEDB_REALDATA", "")
    td = os.environ.get("GAMEDB_TESTDATA", os.path.join(SRCDIR, "testdata"))
    for root, pats in ((td, ["scid/*.si4", "chessassistant/*.cdp", "xqf/*.xqf",
                             "style12/*.txt"]),
                       (real, ["scid/**/*.si4", "scid/**/*.si3", "scid5/**/*.si5",
                               "chessbase/**/*.cbh", "chessbase/**/*.cbv", "xqf/**/*.xqf",
                               "style12/**/*.txt"])):
        if root and os.path.isdir(root):
            for p in pats:
                found += sorted(glob.glob(os.path.join(root, p), recursive=True))
    return found


def check_json(text):
    sch = schema(text)
    check(set(sch) >= {"game", "move"}, "the schema has games and moves: %s" % sorted(sch))
    if not TOOL or not os.path.exists(TOOL) or "game" not in sch:
        return
    objects = keys_seen = 0
    seen = set()
    for path in bases():
        p = subprocess.run([TOOL, "json", "--fen", "--key", "--partial", "--include-deleted",
                            path], capture_output=True, stdin=subprocess.DEVNULL)
        if p.returncode == 2:
            continue  # a base no format reads (pinned by the format tests)
        errors = []
        for n, line in enumerate(p.stdout.splitlines()):
            try:
                obj = json.loads(line)
            except ValueError as e:
                errors.append("line %d is not JSON: %s" % (n + 1, e))
                continue
            validate(obj, "game", sch, "game %d" % (n + 1), errors)
            objects += 1

            def walk(o, kind):
                if isinstance(o, dict):
                    for k, v in o.items():
                        if kind in sch:
                            seen.add((kind, k))
                        t = sch.get(kind, {}).get(k, ("",))[0]
                        inner = t.split("array of ")[-1] if t.startswith("array of") else t
                        walk(v, inner)
                elif isinstance(o, list):
                    for v in o:
                        walk(v, kind)
            walk(obj, "game")
        check(not errors, "%s: JSON against the schema: %s" % (path, errors[:3]))
    keys_seen = len(seen)
    print("json-schema: %d objects, %d (object, key) pairs seen of %d documented"
          % (objects, keys_seen, sum(len(v) for v in sch.values())))
    check(objects > 0, "some JSON was checked")
    # The real data exercises most of the schema; these must have been seen.
    if os.environ.get("GAMEDB_REALDATA") and os.path.isdir(os.environ["GAMEDB_REALDATA"]):
        for pair in (("game", "file"), ("game", "n"), ("move", "fen"), ("move", "key"),
                     ("move", "variations"), ("move", "commands"), ("move", "clock"),
                     ("comment", "language"), ("annotation", "hex"), ("game", "partial")):
            check(pair in seen, "the real data shows %s key %r" % pair)


def main():
    with open(HEADER, encoding="utf-8") as f:
        text = f.read()
    which = sys.argv[1] if len(sys.argv) > 1 else "all"
    if which in ("options", "all"):
        check_options(text)
    if which in ("json", "all"):
        check_json(text)
    return done()


if __name__ == "__main__":
    sys.exit(main())
