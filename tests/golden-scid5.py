#!/usr/bin/env python3
# libgamedb - golden test of the SCID 5 (si5/sn5/sg5) reader against the real Scid 5.
#
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Golden test: our PGN export of SCID 5 bases against Scid 5's own export.

  1. realdata: every base under $GAMEDB_REALDATA/scid5 (made by Scid 5.0.2 from the real si4
     bases) must equal the NAME.oracle.pgn beside it (Scid 5's export), game for game; and our
     output of it must equal our output of its si4 original under $GAMEDB_REALDATA/scid.
  2. fixtures (needs Scid 5: $GAMEDB_SCID5, else ../tools/scid5/scid5 beside the realdata):
     Scid 5 imports PGN of our own (testdata/scid/src: every case of the si4 fixtures;
     testdata/scid5/src: event dates far from game dates, every rating type; and, written
     here, more than 2^16 player names and more than 2^16 sites, and Chess960 games castling
     both ways from every king-between-rooks placement) into new si5 bases, marks the
     deleted games, sets the base's description, type and flag names, closes the base, opens
     it again from disk and exports every game with `sc_game pgn -width 75`. Our output must
     equal that export game for game.
  3. si4 twins: Scid 5 copies every testdata si4 fixture into a new si5 base (`sc_base
     copygames`, as its "copy all games" does); our output of the copy must equal Scid 5's
     export of it and our output of the si4 original.
     With an si4 and an si5 of one name, the base name opens the si4 and says so.
  4. `gamedb info` of a fixture names SCID 5, the description, the type and the flag names
     Scid 5 stored.

Only the export of the real Scid 5 is expected output: nothing expected comes from our code,
except where our si4 output is compared with our si5 output (3), which is also compared
with Scid. Tag values are escaped in Scid's export as in golden-scid.py (the one deliberate
difference). Exit status: 0 all passed, 1 a mismatch or an error, 77 nothing to test.
"""
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile

from testsupport import run_tool

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("golden_scid", os.path.join(HERE, "golden-scid.py"))
gs = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(gs)

ST = gs.ST
log = gs.log
error = gs.error

# The si4 fixtures (tests/scid-fixtures.txt), then SCID 5's own: name | PGN sources
# (testdata/scid5/src; @NAME: written here) | games to mark deleted
FIXTURES = gs.SCID_FIXTURES + gs.read_fixtures("""
eventdates  | eventdates.pgn  |
ratings     | ratings.pgn     |
manynames   | @manynames      | 3 70000
chess960    | @chess960       |
""")

INFO = {"description": "Bases of one's own: Ünïcode ✓", "type": "3",
        "flag1": "Mine", "flag2": "Zug", "flag6": "Last"}


def scid5_program():
    for cand in (os.environ.get("GAMEDB_SCID5"),
                 os.path.join(os.environ.get("GAMEDB_REALDATA", ""), "..", "tools", "scid5",
                              "scid5"),
                 "/work/shared/tools/scid5/scid5"):
        if cand and os.access(cand, os.X_OK):
            return os.path.abspath(cand)
    return None


def tcl_word(s):
    if re.search(r"[{}\\]", s):
        raise ValueError("no braces or backslashes in Tcl words here: %r" % s)
    return "{%s}" % s


def export_tcl(base, out):
    """Closes $db, opens the base again from disk and writes Scid 5's export of it to out."""
    return ("sc_base close $db\nset db [sc_base open SCID5 %s]\nset out %s\n"
            % (tcl_word(base), tcl_word(out)) + gs.EXPORT_TCL)


def run_scid5(prog, tcl_text, tmpdir, label):
    tcl = os.path.join(tmpdir, "script.tcl")
    with open(tcl, "w", encoding="utf-8") as f:
        f.write("encoding system utf-8\n" + tcl_text)
    p = subprocess.run([prog, tcl], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode != 0:
        error("%s: Scid 5 failed (%d): %s %s" % (label, p.returncode,
                                                  p.stdout.decode("utf-8", "replace"),
                                                  p.stderr.decode("utf-8", "replace")))
        return False
    return True


def write_manynames(path):
    """More than 2^16 players (two new ones a game) and sites (one a game): ids past 16 bits."""
    with open(path, "w", encoding="utf-8") as f:
        for i in range(1, 70001):
            f.write('[Event "E%d"]\n[Site "Site %06d"]\n[Date "2000.01.01"]\n[Round "%d"]\n'
                    '[White "White %06d"]\n[Black "Black %06d"]\n[Result "%s"]\n\n%s\n\n'
                    % (i % 300, i, i % 1000, i, i, ("1-0", "0-1", "1/2-1/2", "*")[i % 4],
                       "1. e4 e5 2. Nf3 " + ("1-0", "0-1", "1/2-1/2", "*")[i % 4]))


CHESS960_GAMES = []  # filled by write_chess960()


def castle_ok(files, side):
    """Chess960 castling on a back rank (list of 8: "K", "R" or ""): side "O-O" or "O-O-O".
    Legal when every square the king and that rook cross or land on is empty but for them
    (nothing else on the rank attacks: pawns shield it)."""
    k = files.index("K")
    rooks = [i for i, c in enumerate(files) if c == "R"]
    rook = rooks[-1] if side == "O-O" else rooks[0]
    kd, rd = (6, 5) if side == "O-O" else (2, 3)
    span = set(range(min(k, kd), max(k, kd) + 1)) | set(range(min(rook, rd), max(rook, rd) + 1))
    return all(files[i] == "" or i in (k, rook) for i in span)


def write_chess960(path):
    """Chess960 games castling from every placement of a king between its two rooks
    (neighbouring squares, the king already on g1 or c1 included), the other pieces left out;
    each side castles one way, both ways over the games where the rules allow it; then a move
    of each castled rook. Half the games carry a Variant tag, half only the FEN (Scid 5 finds
    the variant from the position)."""
    del CHESS960_GAMES[:]
    with open(path, "w", encoding="utf-8") as f:
        for qr in range(8):
            for k in range(qr + 1, 8):
                for kr in range(k + 1, 8):
                    files = [""] * 8
                    files[qr] = files[kr] = "R"
                    files[k] = "K"
                    legal = [c for c in ("O-O", "O-O-O") if castle_ok(files, c)]
                    row = re.sub(r"1+", lambda m: str(len(m.group(0))),
                                 "".join(c or "1" for c in files))
                    fen = "%s/pppppppp/8/8/8/8/PPPPPPPP/%s w KQkq - 0 1" % (row.lower(), row)
                    for w in legal:
                        b = [c for c in legal if c != w] or [w]
                        b = b[0]
                        n = len(CHESS960_GAMES) + 1
                        wf = "f" if w == "O-O" else "d"
                        bf = "f" if b == "O-O" else "d"
                        moves = "1. %s %s 2. %s4 %s5 3. R%s3 R%s6" % (w, b, wf, bf, wf, bf)
                        variant = '[Variant "Chess960"]\n' if n % 2 else ""
                        f.write('[Event "960"]\n[Site "S"]\n[Date "2024.02.02"]\n'
                                '[Round "%d"]\n[White "W"]\n[Black "B"]\n[Result "*"]\n'
                                '%s[SetUp "1"]\n[FEN "%s"]\n\n%s *\n\n'
                                % (n, variant, fen, moves))
                        CHESS960_GAMES.append((fen, w, b, bool(variant)))


def source(name, tmpdir):
    if name == "@manynames":
        path = os.path.join(tmpdir, "manynames.pgn")
        write_manynames(path)
        return path
    if name == "@chess960":
        path = os.path.join(tmpdir, "chess960.pgn")
        write_chess960(path)
        return path
    for d in ("scid", "scid5"):
        path = os.path.join(os.environ["GAMEDB_TESTDATA"], d, "src", name)
        if os.path.exists(path):
            return path
    raise FileNotFoundError(name)


def ours(label, base):
    rc, out, err = run_tool("pgn", "--layout", "scid", "--include-deleted", base)
    if rc != 0:
        error("%s: gamedb pgn exited with %d: %s" % (label, rc, err.decode("utf-8", "replace")
                                                     if isinstance(err, bytes) else err))
    return out


def check_base(label, base, expected, want_deleted=None):
    got = ours(label, base)
    n = gs.compare(label, got, expected)
    deleted = gs.check_json(label, base, n)
    if want_deleted is not None and deleted != want_deleted:
        error("%s: deleted games %s, expected %s" % (label, sorted(deleted), sorted(want_deleted)))
    if deleted:
        gs.check_deleted(label, base, expected, deleted)
    return got


def realdata_bases(realdata):
    root = os.path.join(realdata, "scid5")
    if not os.path.isdir(root):
        log("note: no real SCID 5 data at %r" % root)
        return 0
    n = 0
    si4s = {}
    for d, dirs, files in os.walk(os.path.join(realdata, "scid")):
        dirs.sort()
        for fn in sorted(files):
            if fn.endswith(".si4"):
                si4s.setdefault(fn[:-4], os.path.join(d, fn))
    for d, dirs, files in os.walk(root):
        dirs.sort()
        for fn in sorted(files):
            if not fn.endswith(".si5"):
                continue
            n += 1
            base = os.path.join(d, fn)
            name = fn[:-4]
            label = "realdata:" + os.path.relpath(base, realdata)
            oracle = os.path.join(d, name + ".oracle.pgn")
            if not os.path.exists(oracle):
                error("%s: no %s" % (label, oracle))
                continue
            with open(oracle, "rb") as f:
                got = check_base(label, base, f.read())
            # The base name opens it too (there is no si4 of that name beside it).
            rc, out, _ = run_tool("pgn", "--layout", "scid", "--include-deleted", base[:-4])
            if rc != 0 or out != got:
                error("%s: opened by its base name, the output differs (exit %d)" % (label, rc))
            twin = si4s.get(name)
            if twin:
                gs.compare(label + " vs our si4 original", got,
                           ours(label + " (si4)", twin), escape=False)
            else:
                error("%s: no si4 original named %s under realdata/scid" % (label, name))
    return n


def fixtures(prog, tmpdir):
    n = 0
    for name, pgns, dels in FIXTURES:
        base = os.path.join(tmpdir, name)
        out = base + ".oracle.pgn"
        tcl = "set db [sc_base create SCID5 %s]\n" % tcl_word(base)
        for p in pgns:
            tcl += ("set r [sc_base import $db %s]\n"
                    "if {[string trim [lindex $r 1]] ne \"\"} "
                    "{ puts stderr [lindex $r 1]; exit 3 }\n" % tcl_word(source(p, tmpdir)))
        for g in sorted(dels):
            tcl += "sc_base gameflag $db %s set D\n" % g
        if name == "tags":
            for k, v in INFO.items():
                tcl += "sc_base extra $db %s %s\n" % (k, tcl_word(v))
        tcl += export_tcl(base, out)
        label = "fixture:" + name
        if not run_scid5(prog, tcl, tmpdir, label):
            continue
        n += 1
        with open(out, "rb") as f:
            expected = f.read()
        want_deleted = set(dels)
        if name == "deleted":
            want_deleted |= gs.TESTDATA_DELETED.get("deleted", set())
        check_base(label, base + ".si5", expected, want_deleted)
        if name == "tags":
            check_info(label, base + ".si5")
        if name == "chess960":
            check_chess960(label, base + ".si5", expected)
        if name == "manynames":
            with open(base + ".sn5", "rb") as f:
                size = len(f.read())
            if size < 3 * 65536 * 10:
                error("%s: the name file is smaller than 2^16 names" % label)
    return n


def check_chess960(label, base, expected):
    """Every game castled on both sides (Scid 5 kept all moves), is a chess960 game in JSON,
    and writes its castling moves as king takes rook in UCI."""
    ngames = len(CHESS960_GAMES)
    # the standard placement is chess for Scid 5: a Variant tag only where the PGN had one
    standard = sum(1 for g in CHESS960_GAMES if g[0].startswith("r3k2r/") and not g[3])
    if (ngames < 100 or expected.count(b"3.R") != ngames or
            expected.count(b"[Variant \"Chess960\"]") != ngames - standard or
            sum(1 for g in CHESS960_GAMES if "O-O-O" in g[1:3]) < ngames // 2):
        error("%s: Scid 5's export does not hold the %d games castling both ways"
              % (label, ngames))
    rc, out, err = run_tool("json", base)
    import json
    for n, line in enumerate(out.decode("utf-8").splitlines(), 1):
        obj = json.loads(line)
        if obj["fen"].startswith("r3k2r/"):  # the standard placement: Scid 5 keeps it chess
            if obj.get("variant") != "chess":
                error("%s: game %d: variant %r" % (label, n, obj.get("variant")))
            continue
        if obj.get("variant") != "chess960":
            error("%s: game %d: variant %r" % (label, n, obj.get("variant")))
            continue
        fen = obj["fen"].split(" ")[0].split("/")
        uci = [m["uci"] for m in obj["moves"][:2]]
        for side, row, mv in ((0, fen[7], uci[0]), (1, fen[0], uci[1])):
            files = [c for c in "".join("." * int(x) if x.isdigit() else x for x in row)]
            rank = "1" if side == 0 else "8"
            k = "abcdefgh"[[c.lower() for c in files].index("k")]
            rooks = ["abcdefgh"[i] for i, c in enumerate(files) if c.lower() == "r"]
            if mv[:2] != k + rank or mv[2] not in rooks or mv[3] != rank:
                error("%s: game %d: castling %s is not king takes rook (%s)"
                      % (label, n, mv, "/".join(fen)))


def check_info(label, base):
    rc, out, err = run_tool("info", base)
    text = out.decode("utf-8", "replace")
    want = ["scid version: 5", "description: " + INFO["description"], "base type: 3",
            "custom flag 1: Mine", "custom flag 2: Zug", "custom flag 6: Last"]
    for w in want:
        if w not in text:
            error("%s: gamedb info lacks %r:\n%s" % (label, w, text))
    if "custom flag 3" in text:
        error("%s: gamedb info names a flag Scid 5 has no name for:\n%s" % (label, text))
    if rc != 0:
        error("%s: gamedb info exited with %d" % (label, rc))


def twins(prog, tmpdir):
    n = 0
    tdir = os.path.join(os.environ["GAMEDB_TESTDATA"], "scid")
    for fn in sorted(os.listdir(tdir)):
        if not fn.endswith(".si4"):
            continue
        name = fn[:-4]
        src = os.path.join(tdir, name)
        base = os.path.join(tmpdir, "twin-" + name)
        out = base + ".oracle.pgn"
        tcl = ("set src [sc_base open SCID4 %s]\nset db [sc_base create SCID5 %s]\n"
               "sc_base copygames $src dbfilter $db\nsc_base close $src\n"
               % (tcl_word(src), tcl_word(base)))
        tcl += export_tcl(base, out)
        label = "si4 twin:" + name
        if not run_scid5(prog, tcl, tmpdir, label):
            continue
        n += 1
        with open(out, "rb") as f:
            got = check_base(label, base + ".si5", f.read())
        gs.compare(label + " vs our si4 original", got, ours(label + " (si4)", src + ".si4"),
                   escape=False)
        if name == "moves":
            check_both(label, src, base, got)
    return n


def check_both(label, si4, si5, si5_out):
    """An si4 and an si5 base of one name: the base name opens the si4 and says so."""
    for ext in (".si4", ".sn4", ".sg4"):
        os.symlink(si4 + ext, si5 + ext)
    rc, out, err = run_tool("pgn", "--layout", "scid", "--include-deleted", si5)
    want = ours(label + " (si4)", si4 + ".si4")
    if rc != 0 or out != want:
        error("%s: by base name with si4 and si5 beside: exit %d, output %s the si4's"
              % (label, rc, "equals" if out == want else "differs from"))
    if (si5 + ".si4") not in err or (si5 + ".si5") not in err or "was not read" not in err:
        error("%s: by base name with si4 and si5 beside: no note of which was read: %r"
              % (label, err))
    rc, out, err = run_tool("pgn", "--layout", "scid", "--include-deleted", si5 + ".si5")
    if rc != 0 or out != si5_out or err:
        error("%s: the si5 named beside its si4 twin: exit %d, %r" % (label, rc, err))


def main():
    for v in ("GAMEDB_TOOL", "GAMEDB_TESTDATA"):
        if not os.environ.get(v):
            log("SKIP: %s is not set (run through meson test)" % v)
            return 77
    realdata = os.environ.get("GAMEDB_REALDATA", "")
    nbases = realdata_bases(realdata) if realdata else 0
    prog = scid5_program()
    if not prog:
        ST.skipped.append("fixtures and si4 twins: Scid 5 not found (set GAMEDB_SCID5)")
    else:
        tmpdir = tempfile.mkdtemp(prefix="golden-scid5-")
        try:
            nbases += fixtures(prog, tmpdir)
            nbases += twins(prog, tmpdir)
        finally:
            shutil.rmtree(tmpdir, ignore_errors=True)
    return gs.finish(nbases, "no SCID 5 bases")


if __name__ == "__main__":
    sys.exit(main())
