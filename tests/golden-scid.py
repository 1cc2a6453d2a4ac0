#!/usr/bin/env python3
# libgamedb - golden test of the SCID reader and the PGN writer against the real Scid.
#
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Golden test: our PGN export of SCID bases against the real Scid's own export.

For every SCID base (*.si4, *.si3) under $GAMEDB_TESTDATA/scid and $GAMEDB_REALDATA/scid:

  * `$GAMEDB_TOOL pgn --include-deleted BASE` must exit 0 and its output must equal Scid's
    export game by game:
      - testdata: the committed NAME.oracle.pgn next to the base (written by the real Scid,
        see tests/make-scid-fixtures.sh);
      - realdata si4: Scid's export made now with scid-export.sh (skipped with a message
        when Scid, /usr/games/tkscid, is not installed);
      - si3 (Scid 4.7.4 cannot open them): the si4 twin in ../si4/NAME/ must exist; our
        output must equal our output of the twin, and Scid's export of the twin.
  * `$GAMEDB_TOOL pgn BASE` (deleted games left out) must give the expected games minus the
    deleted ones (testdata, where we know which games were deleted), or the same output as
    with --include-deleted when no game is deleted.
  * `$GAMEDB_TOOL json --include-deleted BASE` must exit 0 and give one JSON object per line,
    one line per game, with syntactically valid "fen" and "final_fen".

One deliberate difference is allowed: Scid writes tag values raw, we escape '"' and '\\' as
the PGN standard asks. Scid's tag lines are escaped the same way before comparing; nothing else
is changed.

Exit status: 0 all passed, 1 a mismatch or an error, 77 nothing to test.
Only the Python standard library and tests/testsupport.py are used. Games compared and the
other checks are counted apart (Stats below), so the checks of testsupport are not used.
"""
import difflib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

from testsupport import find_program, run_tool

TKSCID = os.environ.get("GAMEDB_TKSCID") or find_program("tkscid") or "/usr/games/tkscid"
MAX_DIFFS = 5  # unified diffs printed per base



def read_fixtures(text):
    """Fixture lines "name | PGN sources | games to mark deleted" (tests/scid-fixtures.txt):
    a list of (name, [sources], {deleted games, 1-based})."""
    out = []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        name, pgns, dels = [x.strip() for x in line.split("|")]
        out.append((name, pgns.split(), {int(g) for g in dels.split()}))
    return out


_HERE = os.path.dirname(os.path.abspath(__file__))

# The testdata/scid bases, as tests/make-scid-fixtures.sh builds them.
with open(os.path.join(_HERE, "scid-fixtures.txt"), encoding="utf-8") as _f:
    SCID_FIXTURES = read_fixtures(_f.read())

# Scid's export of every game of the open base $db into the file $out; ends Scid.
with open(os.path.join(_HERE, "scid-export.tcl"), encoding="utf-8") as _f:
    EXPORT_TCL = _f.read()

# Games (1-based) that tests/make-scid-fixtures.sh marks as deleted, or that carry
# [ScidFlags "D..."] in their source (game 4 of deleted.pgn); every other testdata game is not
# deleted.
TESTDATA_DELETED = {name: dels for name, _, dels in SCID_FIXTURES if dels}
TESTDATA_DELETED["deleted"] = TESTDATA_DELETED.get("deleted", set()) | {4}


def log(*a):
    print(*a, flush=True)


class Stats:
    def __init__(self):
        self.passed = 0
        self.failed = 0
        self.errors = 0  # checks other than game comparisons
        self.skipped = []


ST = Stats()


def error(msg):
    ST.errors += 1
    log("FAIL: " + msg)


def split_games(data):
    """Splits a PGN export into games: a game starts at an [Event line that opens the file
    or follows an empty line. Each piece keeps its own text up to the next game."""
    starts = [m.start() for m in re.finditer(rb"(?:^|(?<=\n\n))\[Event ", data)]
    if not starts:
        return [data] if data.strip() else []
    if starts[0] != 0:
        starts.insert(0, 0)
    return [data[a:b] for a, b in zip(starts, starts[1:] + [len(data)])]


_TAG = re.compile(rb'^(\[[A-Za-z0-9_+#=:-]+ ")(.*)("\])$')


def escape_tags(game):
    """Scid's tag lines with '"' and '\\' escaped in the value, as our writer does."""
    out = []
    lines = game.split(b"\n")
    for i, line in enumerate(lines):
        if line == b"":  # the tag section ends at the first empty line
            out.extend(lines[i:])
            break
        m = _TAG.match(line)
        if m:
            v = m.group(2).replace(b"\\", b"\\\\").replace(b'"', b'\\"')
            line = m.group(1) + v + m.group(3)
        out.append(line)
    return b"\n".join(out)


def show(data):
    return data.decode("utf-8", "replace").splitlines(keepends=True)


def compare(label, ours, expected, escape=True):
    """Compares two exports game by game; counts games; prints the first few diffs."""
    got = split_games(ours)
    want = split_games(expected)
    if escape:
        want = [escape_tags(g) for g in want]
    shown = 0
    if len(got) != len(want):
        error("%s: %d games in our output, %d expected" % (label, len(got), len(want)))
    for i in range(max(len(got), len(want))):
        g = got[i] if i < len(got) else b""
        w = want[i] if i < len(want) else b""
        if g == w:
            ST.passed += 1
            continue
        ST.failed += 1
        if shown < MAX_DIFFS:
            shown += 1
            log("MISMATCH: %s: game %d" % (label, i + 1))
            sys.stdout.writelines(difflib.unified_diff(
                show(w), show(g), "expected (Scid) game %d" % (i + 1),
                "ours game %d" % (i + 1), n=2))
            log("")
    return len(want)


_RANK = re.compile(r"^[pnbrqkPNBRQK1-8]+$")


def fen_ok(fen):
    """A syntactically valid chess FEN (six fields)."""
    if not isinstance(fen, str):
        return False
    f = fen.split(" ")
    if len(f) != 6:
        return False
    ranks = f[0].split("/")
    if len(ranks) != 8:
        return False
    for r in ranks:
        if not _RANK.match(r) or re.search(r"[1-8]{2}", r):
            return False
        if sum(int(c) if c.isdigit() else 1 for c in r) != 8:
            return False
    if f[1] not in ("w", "b"):
        return False
    if f[2] != "-" and not re.match(r"^[KQA-H]{0,2}[kqa-h]{0,2}$", f[2]):
        return False
    if f[2] == "":
        return False
    if not re.match(r"^(-|[a-h][36])$", f[3]):
        return False
    if not re.match(r"^\d+$", f[4]) or not re.match(r"^[1-9]\d*$", f[5]):
        return False
    return True


def check_json(label, base, ngames):
    rc, out, err = run_tool("json", "--include-deleted", base)
    if rc != 0:
        error("%s: gamedb json exited with %d: %s" % (label, rc, err.strip()))
    lines = out.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    if len(lines) != ngames:
        error("%s: gamedb json gave %d lines for %d games" % (label, len(lines), ngames))
    deleted = set()
    for n, line in enumerate(lines, 1):
        try:
            obj = json.loads(line.decode("utf-8"))
        except (ValueError, UnicodeDecodeError) as e:
            error("%s: json line %d does not parse: %s" % (label, n, e))
            continue
        if not isinstance(obj, dict):
            error("%s: json line %d is not an object" % (label, n))
            continue
        for key in ("fen", "final_fen"):
            if not fen_ok(obj.get(key)):
                error("%s: json line %d: bad %s %r" % (label, n, key, obj.get(key)))
        if obj.get("index") != n - 1:
            error("%s: json line %d: index %r" % (label, n, obj.get("index")))
        if obj.get("deleted"):
            deleted.add(n)
    return deleted


def check_deleted(label, base, expected, deleted):
    """Without --include-deleted, exactly the games not deleted are written."""
    rc, out, err = run_tool("pgn", "--layout", "scid", base)
    if rc != 0:
        error("%s: gamedb pgn (no deleted) exited with %d: %s" % (label, rc, err.strip()))
    want = b"".join(g for i, g in enumerate(split_games(expected), 1) if i not in deleted)
    compare(label + " (deleted games left out)", out, want)


_export_cache = {}


def scid_export(base_noext, tmpdir):
    """Scid's own export of an si4 base (path without extension), or None without Scid."""
    if base_noext in _export_cache:
        return _export_cache[base_noext]
    if not os.access(TKSCID, os.X_OK):
        return None
    script = None
    for cand in (os.environ.get("GAMEDB_SCID_EXPORT"),
                 os.path.join(os.environ.get("GAMEDB_REALDATA", ""), "..", "tools",
                              "scid-export.sh"),
                 "/work/shared/tools/scid-export.sh"):
        if cand and os.path.isfile(cand):
            script = cand
            break
    out = os.path.join(tmpdir, "export-%d.pgn" % len(_export_cache))
    if script:
        p = subprocess.run(["bash", script, base_noext, out], stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE)
    else:  # the same Tcl as scid-export.sh
        tcl = os.path.join(tmpdir, "export.tcl")
        with open(tcl, "w", encoding="utf-8") as f:
            f.write("set db [sc_base open {%s}]\nset out {%s}\n" % (base_noext, out) + EXPORT_TCL)
        p = subprocess.run([TKSCID, tcl], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if p.returncode != 0 or not os.path.exists(out):
        error("%s: Scid's export failed: %s" % (base_noext, p.stderr.decode("utf-8", "replace")))
        data = b""
    else:
        with open(out, "rb") as f:
            data = f.read()
    _export_cache[base_noext] = data
    return data


def find_bases(root):
    bases = []
    for d, dirs, files in os.walk(root):
        dirs.sort()
        for fn in sorted(files):
            if fn.endswith(".si4") or fn.endswith(".si3"):
                bases.append(os.path.join(d, fn))
    return bases


def ours(label, base):
    rc, out, err = run_tool("pgn", "--layout", "scid", "--include-deleted", base)
    if rc != 0:
        error("%s: gamedb pgn exited with %d: %s" % (label, rc, err.strip()))
    return out


def test_base(base, kind, tmpdir):
    label = "%s:%s" % (kind, os.path.relpath(base, os.environ["GAMEDB_%s" % kind.upper()]))
    d, fn = os.path.split(base)
    name, ext = os.path.splitext(fn)
    got = ours(label, base)
    ngames = None

    if ext == ".si3":
        twin = os.path.normpath(os.path.join(d, "..", "..", "si4", name, name + ".si4"))
        if not os.path.exists(twin):
            error("%s: no si4 twin at %s" % (label, twin))
        else:
            twin_out = ours(label + " (si4 twin)", twin)
            ngames = compare(label + " vs our si4 twin", got, twin_out, escape=False)
            exp = scid_export(twin[:-4], tmpdir)
            if exp is None:
                ST.skipped.append(label + " vs Scid's export of the si4 twin (Scid not installed)")
            else:
                ngames = compare(label + " vs Scid's export of the si4 twin", got, exp)
    elif kind == "testdata":
        oracle = os.path.join(d, name + ".oracle.pgn")
        if not os.path.exists(oracle):
            error("%s: no expected output %s" % (label, oracle))
        else:
            with open(oracle, "rb") as f:
                exp = f.read()
            ngames = compare(label, got, exp)
    else:
        exp = scid_export(base[:-4], tmpdir)
        if exp is None:
            ST.skipped.append(label + " (Scid not installed)")
        else:
            ngames = compare(label, got, exp)

    if ngames is None:
        ngames = len(split_games(got))
    deleted = check_json(label, base, ngames)
    if kind == "testdata" and ext == ".si4" and ngames:
        want_deleted = TESTDATA_DELETED.get(name, set())
        if deleted != want_deleted:
            error("%s: deleted games %s, expected %s" % (label, sorted(deleted),
                                                         sorted(want_deleted)))
        if want_deleted:
            with open(os.path.join(d, name + ".oracle.pgn"), "rb") as f:
                check_deleted(label, base, f.read(), want_deleted)
    if not deleted:
        rc, out, err = run_tool("pgn", "--layout", "scid", base)
        if rc != 0 or out != got:
            error("%s: without --include-deleted the output differs (exit %d)" % (label, rc))


def main():
    for v in ("GAMEDB_TOOL", "GAMEDB_TESTDATA"):
        if not os.environ.get(v):
            log("SKIP: %s is not set (run through meson test)" % v)
            return 77
    roots = [("testdata", os.path.join(os.environ["GAMEDB_TESTDATA"], "scid"))]
    realdata = os.environ.get("GAMEDB_REALDATA", "")
    if realdata and os.path.isdir(os.path.join(realdata, "scid")):
        roots.append(("realdata", os.path.join(realdata, "scid")))
    else:
        log("note: no real SCID data at %r; testing the committed fixtures only" % realdata)
    if not os.access(TKSCID, os.X_OK):
        log("note: Scid (%s) is not installed; real bases are compared only where no Scid "
            "export is needed" % TKSCID)

    tmpdir = tempfile.mkdtemp(prefix="golden-scid-")
    nbases = 0
    try:
        for kind, root in roots:
            for base in find_bases(root):
                nbases += 1
                test_base(base, kind, tmpdir)
    finally:
        shutil.rmtree(tmpdir, ignore_errors=True)

    return finish(nbases, "no SCID bases found")


def finish(nbases, none_found):
    """The closing lines of a golden run (also golden-scid5.py's) and its exit status."""
    for s in ST.skipped:
        log("SKIP: " + s)
    log("%d bases; games: %d passed, %d failed; other check failures: %d"
        % (nbases, ST.passed, ST.failed, ST.errors))
    if nbases == 0:
        log("SKIP: " + none_found)
        return 77
    return 1 if ST.failed or ST.errors else 0


if __name__ == "__main__":
    sys.exit(main())
