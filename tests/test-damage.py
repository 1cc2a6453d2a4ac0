#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""The loss ledger on damaged binary bases (issue 26): every game a base holds is delivered or
reported, never dropped without a word.

1. Index headers that count fewer games than the records present (SCID si4/si3 bytes 14-16,
   ChessBase .cbh bytes 6-9): the records past the count are delivered, the open warns naming
   the file and both counts, and `info` counts what `json` delivers.
2. A ChessBase base without one of its optional files while its index points into it (.cba
   annotations, .cbp/.cbt/.cbc/.cbs names, .cbe teams, .cbj team links): each game that loses
   something is written with a warning saying what, or (.cbj, which no index points into)
   the open warns once.
3. A SCID extra tag whose stored name holds a NUL byte is kept, with a warning on its game; a
   name id past the name file gives "?" and a warning the command prints (SCID, ChessBase); an
   index cut at a record boundary where no count tells (si5, .cbj) warns.
4. The sweep: for every real and test base of the binary formats (SCID si3/si4/si5, ChessBase
   cbh, Chess Assistant cdp, XQF), damaged copies (files cut short, bytes flipped), each read
   with `gamedb info` and `gamedb json --jobs 1 --include-deleted`. The rule: no crash (exit
   by signal), no hang, no sanitizer report, and never exit 0 with fewer games written than
   `info` counts. A fixed seed: the same copies every run.

The expectations come from the formats' descriptions (doc/formats/*.md): where a record's
offset fields are, which header bytes count the games; never from the reader's output.
"""
import os
import random
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time

from testsupport import check, eq, done, TOOL

REAL = os.environ.get("GAMEDB_REALDATA", "")
TESTDATA = os.environ.get("GAMEDB_TESTDATA", "")
SEED = 26
TIMEOUT = 20  # seconds for one command on one damaged copy (an ASan build is slow)
SANITIZER = re.compile(r"AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer|runtime error:")


def run(*args):
    """(exit status, stdout bytes, stderr text), or (None, b"", "timeout") after TIMEOUT."""
    try:
        p = subprocess.run([TOOL, *args], capture_output=True, stdin=subprocess.DEVNULL,
                           timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return None, b"", "timeout"
    return p.returncode, p.stdout, p.stderr.decode("utf-8", "replace")


def info_count(out):
    """The `games:` line of `gamedb info`, or None."""
    m = re.search(rb"^games: (\d+)$", out, re.M)
    return int(m.group(1)) if m else None


def siblings(primary):
    """The files of the base whose primary file is primary: same folder, same stem (any case)."""
    folder, name = os.path.split(primary)
    stem = os.path.splitext(name)[0].lower()
    return sorted(os.path.join(folder, f) for f in os.listdir(folder)
                  if os.path.splitext(f)[0].lower() == stem and os.path.isfile(os.path.join(folder, f)))


def copy_base(primary, dst):
    """Copies the base's files into the folder dst; the copy of the primary file."""
    for f in siblings(primary):
        shutil.copy(f, dst)
        os.chmod(os.path.join(dst, os.path.basename(f)), 0o644)
    return os.path.join(dst, os.path.basename(primary))


# ---- 1. header counts -----------------------------------------------------------------------

def set_bytes(path, off, data):
    with open(path, "r+b") as f:
        f.seek(off)
        f.write(data)


def header_counts(tmp):
    """An index header that counts fewer games than the records present."""
    cases = []
    endings = os.path.join(REAL, "scid/scidvspc-modern/si4/endings/endings.si4")
    endings3 = os.path.join(REAL, "scid/scidvspc-modern/si3/endings/endings.si3")
    biel = os.path.join(REAL, "chessbase/libcbh/NormalGames/BielMTO.cbh")
    for src in (endings, endings3):
        if os.path.exists(src):
            size = os.path.getsize(src)
            hdr, rec = (182, 47) if src.endswith("4") else (128, 46)
            cases.append((src, 14, (60).to_bytes(3, "big"), 60, (size - hdr) // rec))
    if os.path.exists(biel):
        # The header holds the next game id: games + 1.
        cases.append((biel, 6, struct.pack(">I", 501), 500, os.path.getsize(biel) // 46 - 1))
    for src, off, data, said, present in cases:
        d = tempfile.mkdtemp(dir=tmp)
        base = copy_base(src, d)
        rc0, out0, _ = run("json", "--jobs", "1", "--include-deleted", src)
        set_bytes(base, off, data)
        what = os.path.basename(base)
        rc, out, err = run("info", base)
        eq(rc, 0, "%s counting %d of %d: info exits 0" % (what, said, present))
        eq(info_count(out), present, "%s counting %d of %d: info counts the records" % (what, said, present))
        check(what in err and str(said) in err and str(present) in err and "warning" in err,
              "%s counting %d of %d: the open warns naming the file and both counts: %r"
              % (what, said, present, err))
        rc, out, err = run("json", "--jobs", "1", "--include-deleted", base)
        eq(rc, 0, "%s counting %d of %d: json exits 0" % (what, said, present))
        eq(len(out.splitlines()), present, "%s counting %d of %d: json writes every record" % (what, said, present))
        check(what in err and str(said) in err and str(present) in err,
              "%s: json's open warns naming both counts: %r" % (what, err))
        # The same games as the undamaged base (file names aside).
        eq(out.replace(os.fsencode(base), b"B"), out0.replace(os.fsencode(src), b"B"),
           "%s counting %d of %d: the games are those of the undamaged base" % (what, said, present))
    return len(cases)


# ---- 2. missing ChessBase files --------------------------------------------------------------

def cbh_records(cbh):
    """(record number, cbg offset, cba offset, player ids, tournament, annotator, source) of
    every game record of a .cbh (doc/formats/chessbase.md: 46-byte records after a 46-byte
    header; bit 1 of byte 0 marks a guiding text)."""
    d = open(cbh, "rb").read()
    out = []
    for i in range(1, len(d) // 46):
        r = d[46 * i:46 * i + 46]
        if r[0] & 2:
            continue
        out.append((i, struct.unpack(">I", r[1:5])[0], struct.unpack(">I", r[5:9])[0]))
    return out


def missing_files(tmp):
    """Each optional ChessBase file removed in turn from bases that use it."""
    root = os.path.join(REAL, "chessbase")
    n = 0
    # (base, removed extension, what each game's warning must say, games that must warn)
    for rel in ("morphy/test-annotations/test-annotations", "libcbh/Annotation/TestBase"):
        src = os.path.join(root, rel + ".cbh")
        if not os.path.exists(src):
            continue
        d = tempfile.mkdtemp(dir=tmp)
        base = copy_base(src, d)
        stem = os.path.splitext(base)[0]
        cba = os.path.basename(stem) + ".cba"
        os.remove(stem + ".cba")
        want = sum(1 for _, _, a in cbh_records(base) if a)
        rc, out, err = run("json", "--jobs", "1", "--include-deleted", base)
        got = len(re.findall(r"annotations at offset \d+ not read: %s is missing" % re.escape(cba), err))
        check(want > 0, "%s: some games have annotations" % rel)
        eq(got, want, "%s without its .cba: one warning per annotated game" % rel)
        eq(rc, 0, "%s without its .cba: json exits 0 (warnings)" % rel)
        n += 1
    # Name files: every game points into each (players, tournament, annotator and source ids).
    src = os.path.join(root, "morphy/cb12/cb12.cbh")
    if os.path.exists(src):
        for ext, tag in ((".cbp", "White"), (".cbt", "Event"), (".cbc", "Annotator"),
                         (".cbs", "Source"), (".cbe", "WhiteTeam")):
            d = tempfile.mkdtemp(dir=tmp)
            base = copy_base(src, d)
            stem = os.path.splitext(base)[0]
            os.remove(stem + ext)
            games = len(cbh_records(base))
            rc, out, err = run("json", "--jobs", "1", "--include-deleted", base)
            name = os.path.basename(stem) + ext
            per_game = len(re.findall(r"game \d+: .*%s.*%s is missing" % (re.escape(tag), re.escape(name)), err))
            eq(per_game, games, "cb12 without %s: each game's warning names %s and the file: %r"
               % (ext, tag, err))
            eq(rc, 0, "cb12 without %s: json exits 0 (warnings)" % ext)
            n += 1
        # The .cbj links games to teams: no index points into it, the open says what is lost.
        d = tempfile.mkdtemp(dir=tmp)
        base = copy_base(src, d)
        os.remove(os.path.splitext(base)[0] + ".cbj")
        rc, out, err = run("info", base)
        check(re.search(r"cb12\.cbj is missing.*team", err) is not None,
              "cb12 without .cbj: the open warns that team tags are not read: %r" % err)
        n += 1
    return n


# ---- 3. a SCID tag name with a NUL -----------------------------------------------------------

def scid_nul_tag(tmp):
    """tags.sg4 (testdata/scid, tests/make-scid-fixtures.sh) holds extra tags stored by name:
    one such name gets a NUL in its middle. The record layout is doc/formats/scid.md's: a
    record starts with its tags, each a length byte (1-240: the name follows), the name, a
    value length byte and the value; 0 ends them."""
    src = os.path.join(TESTDATA, "scid", "tags.si4")
    if not os.path.exists(src):
        return 0
    d = tempfile.mkdtemp(dir=tmp)
    base = copy_base(src, d)
    si = open(base, "rb").read()
    sg = bytearray(open(os.path.splitext(base)[0] + ".sg4", "rb").read())
    ngames = int.from_bytes(si[14:17], "big")
    for g in range(ngames):
        rec = si[182 + 47 * g:182 + 47 * g + 47]
        off = struct.unpack(">I", rec[0:4])[0]
        p = off
        tl = sg[p]
        if 2 <= tl <= 240 and all(0x41 <= c <= 0x7a for c in sg[p + 1:p + 1 + tl]):
            name = bytes(sg[p + 1:p + 1 + tl])
            value = bytes(sg[p + 2 + tl:p + 2 + tl + sg[p + 1 + tl]])
            sg[p + 2] = 0
            break
    else:
        check(False, "tags.sg4 has a game whose first tag is stored by name")
        return 1
    open(os.path.splitext(base)[0] + ".sg4", "wb").write(sg)
    rc, out, err = run("json", "--jobs", "1", "--games", str(g + 1), base)
    kept = name[:1] + "\ufffd".encode() + name[2:]
    check(kept.decode() in out.decode("utf-8", "replace"),
          "a tag named %r with a NUL in place of byte 2 is in the JSON as %r: %r" % (name, kept, out[:400]))
    check(("game %d" % (g + 1)) in err and "NUL" in err,
          "the game's warning says the tag name held a NUL: %r" % err)
    eq(rc, 0, "json of a game with a NUL in a tag name exits 0 (a warning)")
    rc, out, err = run("pgn", "--jobs", "1", "--games", str(g + 1), base)
    # U+FFFD is no letter of a PGN tag name: the PGN writer keeps such a tag in a comment
    # before the moves (doc/output.md), the name and value whole.
    want_comment = b'{[%tag "' + kept + b'" "' + value + b'"]}'
    check(want_comment in out, "the tag is in the PGN as %r: %r" % (want_comment, out[:600]))
    return 1


def bad_name_ids(tmp):
    """A game record whose name id is past the name file (SCID si4: White id bits 16-19 in the
    high nibble of record byte 9, bits 0-15 in bytes 10-11; ChessBase: White id in bytes 9-11
    of the .cbh record): the game is delivered with "?" and a warning the command prints."""
    n = 0
    for src, off, data in (
            (os.path.join(REAL, "scid/scidvspc-modern/si4/endings/endings.si4"), 182 + 47 * 2 + 9,
             b"\xf0\xff\xff"),
            (os.path.join(REAL, "chessbase/morphy/cb12/cb12.cbh"), 46 + 9, b"\x00\x10\x00")):
        if not os.path.exists(src):
            continue
        d = tempfile.mkdtemp(dir=tmp)
        base = copy_base(src, d)
        game = 3 if src.endswith(".si4") else 1
        set_bytes(base, off, data)
        rc, out, err = run("json", "--jobs", "1", "--games", str(game), base)
        what = os.path.basename(base)
        eq(rc, 0, "%s with a bad White id: json exits 0" % what)
        check(re.search(r"warning: .*%s: offset \d+: game %d: a name id is out of range"
                        % (re.escape(what), game), err) is not None,
              "%s with a bad White id: the game's warning is printed: %r" % (what, err))
        check(b'"White": "?"' in out, "%s with a bad White id: White is \"?\"" % what)
        n += 1
    return n


def scid_text_without_marker(tmp):
    """A SCID record's last comment (the record ends with the NUL-terminated comments, in the
    order of their markers; doc/formats/scid.md) with a space turned into a NUL: the part after
    it is a text no marker points to, and the game says so."""
    src = os.path.join(TESTDATA, "scid", "annotations.si4")
    if not os.path.exists(src):
        return 0
    d = tempfile.mkdtemp(dir=tmp)
    base = copy_base(src, d)
    si = open(base, "rb").read()
    sgp = os.path.splitext(base)[0] + ".sg4"
    sg = bytearray(open(sgp, "rb").read())
    rec = si[182:182 + 47]
    off = struct.unpack(">I", rec[0:4])[0]
    length = struct.unpack(">H", rec[4:6])[0] | (rec[6] & 0x80) << 9
    end = off + length
    check(sg[end - 1] == 0, "annotations.sg4: game 1's record ends with a comment's NUL")
    start = sg.rindex(0, off, end - 1) + 1  # the last comment's first byte
    space = sg.index(b" ", start, end)
    sg[space] = 0
    open(sgp, "wb").write(sg)
    rc, out, err = run("json", "--jobs", "1", "--games", "1", base)
    check(re.search(r"annotations\.sg4: offset \d+: game 1: %d bytes after its moves and comments are not read"
                    % (end - space - 1), err) is not None,
          "a text without a marker after game 1's comments: the game warns: %r" % err)
    eq(rc, 0, "a text without a marker: json exits 0 (a warning)")
    return 1


def xqf_unreached_records(tmp):
    """An XQF 1.0 file (testdata/xqf/plain-v10.xqf, tests/make-xqf-fixtures.py) whose first
    record (at 0x400: from, to, flags, then a 4-byte comment length; flags & 0xF0 = a next
    move follows) loses its child flag: the records after it are reached by no flag, and the
    game must say they are not read instead of coming out without moves and without a word."""
    src = os.path.join(TESTDATA, "xqf", "plain-v10.xqf")
    if not os.path.exists(src):
        return 0
    d = tempfile.mkdtemp(dir=tmp)
    base = copy_base(src, d)
    data = open(base, "rb").read()
    check(data[2] == 10 and data[0x402] & 0xF0, "plain-v10.xqf: version 10, the start record has a child")
    set_bytes(base, 0x402, bytes([data[0x402] & 0x0F]))
    rc, out, err = run("json", "--jobs", "1", base)
    check(re.search(r"plain-v10\.xqf: offset \d+: \d+ bytes after the end of the move tree are not read", err)
          is not None, "plain-v10.xqf without its first child flag: the game warns: %r" % err)
    eq(rc, 0, "plain-v10.xqf without its first child flag: json exits 0 (a warning)")
    return 1


def scid_unknown_tag_code(tmp):
    """A SCID extra tag stored by a name code (a length byte of 241-250 stands for one of ten
    common tag names; doc/formats/scid.md) whose code is damaged into 251-254, which name no
    tag: the game says the tag is left out. latin1.sg4's first record starts with code 243."""
    src = os.path.join(TESTDATA, "scid", "latin1.si4")
    if not os.path.exists(src):
        return 0
    d = tempfile.mkdtemp(dir=tmp)
    base = copy_base(src, d)
    si = open(base, "rb").read()
    sgp = os.path.splitext(base)[0] + ".sg4"
    off = struct.unpack(">I", si[182:186])[0]
    check(241 <= open(sgp, "rb").read()[off] <= 250, "latin1.sg4: game 1 starts with a coded tag")
    set_bytes(sgp, off, bytes([252]))
    rc, out, err = run("json", "--jobs", "1", "--games", "1", base)
    check(re.search(r"latin1\.sg4: offset %d: game 1: a tag with the unknown name code 252" % off, err)
          is not None, "a tag with the name code 252: the game warns: %r" % err)
    eq(rc, 0, "a tag with the name code 252: json exits 0 (a warning)")
    return 1


def cut_at_records(tmp):
    """Index files cut at a record boundary, where no count tells: a si5 index (56-byte
    records, no header; doc/formats/scid.md) whose .sg5 goes on past its last game, and a
    .cbj (32-byte header counting its records) that ends before a game's record."""
    n = 0
    src = os.path.join(REAL, "scid5/five/five.si5")
    if os.path.exists(src):
        d = tempfile.mkdtemp(dir=tmp)
        base = copy_base(src, d)
        for keep in (2, 0):
            with open(base, "r+b") as f:
                f.truncate(56 * keep)
            for cmd in (["info"], ["json", "--jobs", "1"]):
                rc, out, err = run(*cmd, base)
                check(re.search(r"five\.sg5: offset \d+: \d+ bytes past the end of every game .*cut short", err)
                      is not None, "five.si5 cut to %d records: %s warns: %r" % (keep, cmd[0], err))
        n += 1
    src = os.path.join(REAL, "chessbase/morphy/cb12/cb12.cbh")
    if os.path.exists(src):
        d = tempfile.mkdtemp(dir=tmp)
        base = copy_base(src, d)
        with open(os.path.splitext(base)[0] + ".cbj", "r+b") as f:
            f.truncate(60)  # the header and part of the first record
        rc, out, err = run("json", "--jobs", "1", base)
        check(re.search(r"game 1: WhiteTeam, BlackTeam not read: cb12\.cbj ends before", err) is not None,
              "cb12 with its .cbj cut: game 1 warns that its teams are not read: %r" % err)
        eq(rc, 0, "cb12 with its .cbj cut: json exits 0 (a warning)")
        n += 1
    return n


# ---- 4. the sweep ----------------------------------------------------------------------------

def find_bases():
    """(format, primary file) of every real and test base of the binary formats."""
    out = []
    for root in (REAL, TESTDATA):
        if not root or not os.path.isdir(root):
            continue
        for folder, dirs, files in os.walk(root):
            dirs.sort()
            for f in sorted(files):
                low = f.lower()
                p = os.path.join(folder, f)
                if low.endswith((".si3", ".si4", ".si5")):
                    out.append(("scid", p))
                elif low.endswith(".cbh"):
                    out.append(("chessbase", p))
                elif low.endswith(".cdp"):
                    out.append(("chessassistant", p))
                elif low.endswith(".xqf"):
                    out.append(("xqf", p))
                elif low.endswith((".cbl", ".cbr")):
                    with open(p, "rb") as fh:  # ChessBase bases have .cbl files of their own
                        if fh.read(8) == b"CCBridge":
                            out.append(("ccbridge", p))
    return out


def damage(rng, files, d):
    """Damages one file of the copy in folder d: cut short, or 1-8 bytes flipped (half of them
    in the first 256 bytes, where the headers are). Returns (the file's name, a description)."""
    f = rng.choice(files)
    path = os.path.join(d, os.path.basename(f))
    data = bytearray(open(path, "rb").read())
    if not data:
        return "%s empty, untouched" % os.path.basename(f)
    if rng.random() < 0.3:
        k = rng.randrange(len(data)) if rng.random() < 0.7 else rng.randrange(min(len(data), 64))
        del data[k:]
        what = "%s cut at %d" % (os.path.basename(f), k)
    else:
        offs = []
        for _ in range(rng.randint(1, 8)):
            k = rng.randrange(min(len(data), 256)) if rng.random() < 0.5 else rng.randrange(len(data))
            data[k] ^= rng.randint(1, 255)
            offs.append(k)
        what = "%s flipped at %s" % (os.path.basename(f), offs)
    open(path, "wb").write(data)
    return os.path.basename(f), what


def sweep(tmp, copies_per_base, xqf_bases):
    rng = random.Random(SEED)
    bases = find_bases()
    xqf = [b for b in bases if b[0] == "xqf"]
    # Every base but XQF, whose 263 real single files are sampled (each is one game).
    bases = [b for b in bases if b[0] != "xqf"] + sorted(rng.sample(xqf, min(xqf_bases, len(xqf))))
    stats = {}
    copies = 0
    t0 = time.monotonic()
    for fmt, primary in bases:
        files = siblings(primary)
        st = stats.setdefault(fmt, [0, 0, {}])
        st[0] += 1
        rc0, out0, _ = run("info", primary)
        n0 = info_count(out0) if rc0 == 0 else None
        for _ in range(copies_per_base):
            d = tempfile.mkdtemp(dir=tmp)
            base = copy_base(primary, d)
            hit, what = damage(rng, files, d)
            label = "%s (%s)" % (os.path.relpath(primary, os.path.dirname(os.path.dirname(primary))), what)
            rci, outi, erri = run("info", base)
            rcj, outj, errj = run("json", "--jobs", "1", "--include-deleted", base)
            copies += 1
            st[1] += 1
            st[2][rcj] = st[2].get(rcj, 0) + 1
            for cmd, rc, err in (("info", rci, erri), ("json", rcj, errj)):
                check(rc is not None, "%s %s: hangs" % (cmd, label))
                check(rc is None or rc >= 0, "%s %s: killed by signal %s" % (cmd, label, -rc if rc else rc))
                check(not SANITIZER.search(err), "%s %s: sanitizer report: %s" % (cmd, label, err[-2000:]))
            n = info_count(outi)
            lines = len(outj.splitlines())
            if rcj == 0 and n is not None:
                check(lines >= n, "%s: json exits 0 with %d games written, info counts %d: %s"
                      % (label, lines, n, errj[-600:]))
            # Games lost without a word: fewer than the undamaged base holds, exit 0, nothing
            # said. And a base whose index is whole counts its games as before.
            if rcj == 0 and n0 is not None:
                check(lines >= n0 or errj.strip(), "%s: json exits 0 with %d games of %d and says nothing"
                      % (label, lines, n0))
            if rci == 0 and n0 is not None and hit != os.path.basename(primary) and fmt != "chessassistant":
                eq(n, n0, "%s: info's count with the index whole" % label)
            shutil.rmtree(d)
    secs = time.monotonic() - t0
    for fmt, (nb, nc, rcs) in sorted(stats.items()):
        print("sweep: %-15s %3d bases, %4d damaged copies, json exit statuses %s"
              % (fmt, nb, nc, ", ".join("%s: %d" % (k, v) for k, v in sorted(rcs.items(), key=str))))
    print("sweep: %d damaged copies of %d bases in %.1f s (seed %d)"
          % (copies, sum(s[0] for s in stats.values()), secs, SEED))
    return copies


def main():
    if not TOOL or not os.path.exists(TOOL):
        print("SKIP: no $GAMEDB_TOOL")
        return 77
    copies = int(os.environ.get("GAMEDB_DAMAGE_COPIES", "6"))
    xqf_bases = int(os.environ.get("GAMEDB_DAMAGE_XQF", "40"))
    tmp = tempfile.mkdtemp(prefix="gamedb-damage-")
    try:
        n = (header_counts(tmp) + missing_files(tmp) + scid_nul_tag(tmp) + bad_name_ids(tmp) +
             cut_at_records(tmp) + scid_text_without_marker(tmp) + xqf_unreached_records(tmp) +
             scid_unknown_tag_code(tmp))
        if not n and not find_bases():
            return done(skip="no real or test base found")
        sweep(tmp, copies, xqf_bases)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return done()


if __name__ == "__main__":
    sys.exit(main())
