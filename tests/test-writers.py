# SPDX-License-Identifier: LGPL-2.1-or-later
"""What the writers give must be what other programs read (issue 26 item 6).

Bases are made here from testdata/scid/tags (Scid's own base): a game record of the .sg4 file
is replaced by one written by this script from the format's description (doc/formats/scid.md,
NOTES.md 1.4: extra tags as {name length, name, value length, value}, a 0, the start byte, the
move bytes, 15), so nothing of it comes from the library.

1. PGN tags. Extra tags whose names the PGN standard does not allow (section 8.1: letters,
   digits and the underscore, starting with a letter or a digit: spaces, quotes, ']', '}',
   non-ASCII, a tab, a leading underscore) and values holding newlines and control bytes. The
   output of `gamedb pgn` (both layouts) must follow the standard's grammar as this script's
   own small tag parser reads it, every tag must be found (a tag line, or the comment
   `{[%tag "NAME" "VALUE"]}` before the moves for a name PGN does not allow), pgn-extract must
   read it without a word on stderr and find as many games, and the game must come with a
   warning that says what was changed, after the reader's own warning when it has one.
2. JSON depth. A game whose variations nest 10,000 deep (e4 ( d4 ( e4 ( ... ) ) )) and one 40
   deep whose lines go on after their variations: every line of `gamedb json` must load with
   Python's json at its default recursion limit (and with jq when installed), nest no deeper
   than Ruby's JSON takes (100), follow the header's schema, and the tree rebuilt from
   "variations" and "variations_flat" must hold every move at its depth in PGN order, a NAG,
   comments and FENs deep inside included.
3. `gamedb book` of no position at all (an empty table): meant for the sanitizer build, where
   UBSan stops the run (halt_on_error) on a null pointer passed to qsort().
"""
import importlib.util
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

from testsupport import HERE, SRCDIR, check, done, eq, find_program, run_tool

# The command's summary line of a run with warnings (gamedb(1), EXIT STATUS): not a warning.
SUMMARY = re.compile(r"^gamedb: .*: [\d,]+ games? written, [\d,]+ failed, [\d,]+ with warnings$")

TESTDATA = os.environ.get("GAMEDB_TESTDATA", "")
SAN_ENV = {"ASAN_OPTIONS": os.environ.get("ASAN_OPTIONS", "") + ":exitcode=86",
           "UBSAN_OPTIONS": "halt_on_error=1:exitcode=87:print_stacktrace=1"}

SI4_HEADER, SI4_RECORD = 182, 47
E4, D4 = 0xCF, 0xBF  # pawn e (slot 12) and pawn d (slot 11), code 15: two squares forward
VAR_BEGIN, VAR_END, NAG, COMMENT, END = 0x0D, 0x0E, 0x0B, 0x0C, 0x0F


def copy_base(stem, work, name):
    """The three files of the SCID base stem as work/name.si4 ...; returns the new stem."""
    out = os.path.join(work, name)
    for ext in (".si4", ".sn4", ".sg4"):
        shutil.copyfile(stem + ext, out + ext)
    return out


def set_record(stem, game, record):
    """Appends record to stem.sg4 and points game (from 0) of stem.si4 at it."""
    with open(stem + ".si4", "rb") as f:
        si = bytearray(f.read())
    with open(stem + ".sg4", "rb") as f:
        sg = bytearray(f.read())
    assert len(record) < 0x20000
    p = SI4_HEADER + game * SI4_RECORD
    si[p:p + 4] = struct.pack(">I", len(sg))
    si[p + 4:p + 6] = struct.pack(">H", len(record) & 0xFFFF)
    si[p + 6] = (si[p + 6] & 0x7F) | (0x80 if len(record) >> 16 else 0)
    sg += record
    with open(stem + ".si4", "wb") as f:
        f.write(si)
    with open(stem + ".sg4", "wb") as f:
        f.write(sg)


def record_of(stem, game):
    with open(stem + ".si4", "rb") as f:
        si = f.read()
    with open(stem + ".sg4", "rb") as f:
        sg = f.read()
    p = SI4_HEADER + game * SI4_RECORD
    off = struct.unpack(">I", si[p:p + 4])[0]
    length = struct.unpack(">H", si[p + 4:p + 6])[0] | ((si[p + 6] & 0x80) << 9)
    return sg[off:off + length]


def split_extra_tags(rec):
    """(the extra-tag bytes without their final 0, the rest of the record)."""
    i = 0
    while rec[i] != 0:
        n = rec[i]
        if n == 255:  # the old compact EventDate: 3 bytes, no length byte
            i += 4
            continue
        i += 1 + (n if n <= 240 else 0)
        i += 1 + rec[i]
    return rec[:i], rec[i + 1:]


def extra_tag(name, value):
    return bytes([len(name)]) + name + bytes([len(value)]) + value


# ---- 1. PGN tags --------------------------------------------------------------------------

# (name, value) as stored; names that PGN does not allow first.
BAD_NAMES = [
    (b"White Club", b"SK Nord"),
    (b'Say "hi"', b"quoted name"),
    (b"a]b", b"bracket"),
    (b"c}d", b"brace } too"),
    ("Straße".encode(), "Ölberg".encode()),
    (b"Tab\there", b"tab in the name"),
    (b"_Lead", b"underscore first"),
    (b"Line\nBreak", b"two\nlines"),
]
GOOD_NAMES = [
    (b"Note", b"first line\nsecond line"),
    (b"Ctl", b"a\x01b\tc\rd\x7fe\x1f"),
    (b"Esc", b'back\\slash "quote"'),
    (b"1st_Tag", "UTF-8 stays: Дмитрий 李 ♔".encode()),
]

NAME = re.compile(rb"[A-Za-z0-9][A-Za-z0-9_]{0,254}\Z")
# A string token's contents: printing ASCII but '"' and '\\', their escapes, UTF-8 (the output
# is UTF-8 PGN; checked as UTF-8 below).
STRING = rb'(?:[\x20\x21\x23-\x5b\x5d-\x7e\x80-\xff]|\\"|\\\\)*'
TAG_LINE = re.compile(rb'\[(' + rb"[^ ]*" + rb') "(' + STRING + rb')"\]\Z')
TAG_COMMENT = re.compile(rb'\{\[%tag "(' + STRING + rb')" "(' + STRING + rb')"\]\}')


def unescape(s):
    return re.sub(rb'\\(["\\])', rb"\1", s)


def expected(value, in_comment):
    """A stored tag text as the writer must give it: a control byte a space, in a comment a
    '}' a ')'."""
    out = re.sub(rb"[\x00-\x1f\x7f]", b" ", value)
    return out.replace(b"}", b")") if in_comment else out


def pgn_games(data):
    """(tag lines, movetext lines) per game, by this script's own reading of export PGN."""
    games = []
    for block in re.split(rb"\n\n(?=\[)", data.strip(b"\n")):
        head, _, moves = block.partition(b"\n\n")
        games.append((head.split(b"\n"), moves))
    return games


def check_tags_pgn(data, layout, oracle_tags):
    """The PGN of the made base: grammar, and every tag of game 1 found."""
    games = pgn_games(data)
    eq(len(games), 9, "%s: games" % layout)
    ok = True
    for k, (head, moves) in enumerate(games):
        for line in head:
            m = TAG_LINE.match(line)
            ok &= check(m is not None and NAME.match(m.group(1)) is not None,
                        "%s: game %d: not a PGN tag line: %r" % (layout, k + 1, line))
    check(ok, "%s: every tag line follows the standard" % layout)
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as e:
        check(False, "%s: not UTF-8: %s" % (layout, e))
    head, moves = games[0]
    tags = [TAG_LINE.match(line).groups() for line in head if TAG_LINE.match(line)]
    tags = [(n, unescape(v)) for n, v in tags]
    kept = [(unescape(n), unescape(v)) for n, v in TAG_COMMENT.findall(moves)]
    eq(tags, oracle_tags + [(n, expected(v, False)) for n, v in GOOD_NAMES],
       "%s: game 1: the tag lines" % layout)
    eq(kept, [(expected(n, True), expected(v, True)) for n, v in BAD_NAMES],
       "%s: game 1: the tags kept in comments" % layout)
    # The comments come first in the movetext, each a line of its own, before the moves.
    lines = moves.split(b"\n")
    eq([bool(TAG_COMMENT.fullmatch(x)) for x in lines[:len(BAD_NAMES) + 1]],
       [True] * len(BAD_NAMES) + [False], "%s: game 1: comment lines before the moves" % layout)
    check(lines[len(BAD_NAMES)].startswith(b"1.e4"), "%s: game 1: the moves follow: %r"
          % (layout, lines[len(BAD_NAMES)][:40]))


def check_pgn_extract(pgn_extract, path, layout, data):
    p = subprocess.run([pgn_extract, "-s", path], capture_output=True)
    eq(p.stderr.decode("utf-8", "replace"), "", "%s: pgn-extract's complaints" % layout)
    events = re.compile(rb"^\[Event ", re.M)
    eq(len(events.findall(p.stdout)), len(events.findall(data)),
       "%s: pgn-extract finds every game" % layout)
    for name, value in GOOD_NAMES:
        check(b"[" + name + b' "' in p.stdout, "%s: pgn-extract keeps tag %r" % (layout, name))
    eq(p.stdout.count(b'[%tag "'), len(BAD_NAMES), "%s: pgn-extract keeps the comments" % layout)


def test_tags(work):
    stem = copy_base(os.path.join(TESTDATA, "scid", "tags"), work, "badtags")
    extra, rest = split_extra_tags(record_of(stem, 0))
    mine = b"".join(extra_tag(n, v) for n, v in GOOD_NAMES + BAD_NAMES)
    set_record(stem, 0, extra + mine + b"\x00" + rest)
    # Game 1's own tags, as Scid exported them (testdata/scid/tags.oracle.pgn).
    with open(os.path.join(TESTDATA, "scid", "tags.oracle.pgn"), "rb") as f:
        oracle = pgn_games(f.read())[0][0]
    oracle_tags = [(m.group(1), unescape(m.group(2))) for m in map(TAG_LINE.match, oracle)]
    pgn_extract = find_program("pgn-extract")
    for layout, args in (("default", []), ("scid", ["--layout", "scid"])):
        out = os.path.join(work, "badtags-%s.pgn" % layout)
        rc, _, err = run_tool("pgn", "--jobs", "1", *args, stem + ".si4", "-o", out)
        eq(rc, 0, "%s: exit status (%s)" % (layout, err[-300:]))
        warn = [x for x in err.splitlines() if "warning" in x and not SUMMARY.match(x)]
        eq(len(warn), 1, "%s: one warning: %r" % (layout, err[-500:]))
        check(warn and "game 1: " in warn[0] and 'tag "White Club" (and 7 more) kept in a '
              'comment' in warn[0] and 'characters of tag "Note" (and ' in warn[0],
              "%s: the warning says what was changed: %r" % (layout, warn[:1]))
        with open(out, "rb") as f:
            data = f.read()
        check_tags_pgn(data, layout, oracle_tags)
        if pgn_extract:
            check_pgn_extract(pgn_extract, out, layout, data)
    if not pgn_extract:
        print("pgn-extract not installed (apt-get install pgn-extract): its part skipped")


def test_note_after_warning(work):
    """The writer's note comes after the reader's own warning of the game, in one message."""
    stem = copy_base(os.path.join(TESTDATA, "scid", "tags"), work, "latin")
    extra, rest = split_extra_tags(record_of(stem, 1))
    set_record(stem, 1, extra + extra_tag(b"Place", b"Caf\xe9") + extra_tag(b"My Tag", b"v") +
               b"\x00" + rest)
    for jobs in ("1", "2"):
        rc, out, err = run_tool("pgn", "--jobs", jobs, stem + ".si4")
        eq(rc, 0, "latin: exit status")
        warn = [x for x in err.splitlines() if "warning" in x and not SUMMARY.match(x)]
        eq(len(warn), 1, "latin --jobs %s: one warning: %r" % (jobs, err[-500:]))
        check(warn and re.search(r'game 2: text not UTF-8, .*"Caf\u00e9"; PGN: tag "My Tag" kept '
                                 r'in a comment', warn[0]) is not None,
              "latin --jobs %s: both in the message: %r" % (jobs, warn[:1]))
        check(b'\n[Place "Caf\xc3\xa9"]\n' in out and b'\n{[%tag "My Tag" "v"]}\n' in out,
              "latin --jobs %s: the tags" % jobs)


# ---- 2. JSON depth ------------------------------------------------------------------------

DEPTH = 10000
NEST_MAX = 30  # the deepest variation written nested (the header's JSON schema)
READER_DEPTH = 100  # the strictest common reader: Ruby's JSON (max_nesting)
NAG_AT, COMMENT_AT = 5000, 9999  # the variation depth of the move with a NAG, a comment


def deep_record():
    """e4 ( d4 ( e4 ( d4 ... ) ) ), DEPTH variations deep, the move at depth NAG_AT with NAG
    $3 and the one at COMMENT_AT with a comment."""
    rec = bytearray([0, 0, E4])  # no extra tags, the standard start, 1.e4
    for depth in range(1, DEPTH + 1):
        rec += bytes([VAR_BEGIN, D4 if depth % 2 else E4])
        if depth == NAG_AT:
            rec += bytes([NAG, 3])
        if depth == COMMENT_AT:
            rec += bytes([COMMENT])
    rec += bytes([VAR_END]) * DEPTH + bytes([END])
    rec += b"deep comment\x00"
    return bytes(rec)


E5 = 0xCF  # Black's pawn e (slot 12), two squares forward
WIDE = 40  # the depth of the second deep game
AFTER = (3, 35)  # the depths whose lines have a comment after their variation


def wide_record():
    """1.e4 ( 1.d4 ( 1.e4 ( ... ) 1...e5 ) 1...e5 ) 1...e5: each line a move, its variation,
    then Black's reply, WIDE deep; the lines at the depths of AFTER have a comment after
    their variation (Scid's byte order: the marker after the variation's end)."""
    rec = bytearray([0, 0, E4])
    for depth in range(1, WIDE + 1):
        rec += bytes([VAR_BEGIN, D4 if depth % 2 else E4])
    for depth in range(WIDE, 0, -1):
        rec += bytes([E5, VAR_END])
        if depth - 1 in AFTER:
            rec += bytes([COMMENT])
    rec += bytes([E5, END])
    for depth in sorted(AFTER, reverse=True):
        rec += b"after the variation at %d\x00" % depth
    return bytes(rec)


def json_depth(text):
    """The nesting depth of a JSON text (outside strings)."""
    depth = best = 0
    in_str = esc = False
    for c in text:
        if in_str:
            if esc:
                esc = False
            elif c == "\\":
                esc = True
            elif c == '"':
                in_str = False
        elif c == '"':
            in_str = True
        elif c in "[{":
            depth += 1
            best = max(best, depth)
        elif c in "]}":
            depth -= 1
    return best


def flatten(moves, depth, out):
    """(variation depth, move) of every move of a JSON line, in PGN order, with the moves of
    "variations_flat" at the depth their "depth" key gives."""
    for m in moves:
        out.append((depth, m))
        for line in m.get("variations", []):
            flatten(line, depth + 1, out)
        flat = m.get("variations_flat")
        if flat is not None:
            starts = [f.get("starts_variation", False) for f in flat]
            check(not flat or starts[0], "variations_flat starts with a variation's first move")
            for f in flat:
                check("variations" not in f and "variations_flat" not in f,
                      "a flat move holds no variations")
                out.append((depth + f["depth"], f))
    return out


def test_json_depth(work):
    stem = copy_base(os.path.join(TESTDATA, "scid", "tags"), work, "deep")
    set_record(stem, 0, deep_record())
    set_record(stem, 1, wide_record())
    rc, out, err = run_tool("json", "--jobs", "1", stem + ".si4")
    eq(rc, 0, "json of the deep game: exit status (%s)" % err[-300:])
    lines = out.decode("utf-8").splitlines()
    eq(len(lines), 9, "json: one line per game")
    objs = []
    for n, line in enumerate(lines):
        try:
            objs.append(json.loads(line))  # the default recursion limit
        except (ValueError, RecursionError) as e:
            check(False, "json line %d does not load in Python: %s" % (n + 1, str(e)[:100]))
    check(json_depth(lines[0]) <= READER_DEPTH, "json nests %d deep (Ruby takes %d)"
          % (json_depth(lines[0]), READER_DEPTH))
    jq = find_program("jq")
    if jq:
        p = subprocess.run([jq, "-c", ".index"], input=out, capture_output=True)
        eq((p.returncode, p.stderr), (0, b""), "jq reads every line")
        eq(p.stdout.split(), [str(i).encode() for i in range(9)], "jq: the games' indexes")
    if not objs or len(objs) != 9:
        return
    moves = flatten(objs[0]["moves"], 0, [])
    eq(len(moves), DEPTH + 1, "every move of the deep game is there")
    eq([d for d, _ in moves], list(range(DEPTH + 1)), "each move at its depth, in order")
    eq([m["uci"] for _, m in moves[:4]], ["e2e4", "d2d4", "e2e4", "d2d4"], "the moves")
    eq(moves[NAG_AT][1].get("nags"), [3], "the NAG deep inside")
    eq(moves[COMMENT_AT][1].get("comment"), "deep comment", "the comment deep inside")
    eq(sum(1 for _, m in moves if "nags" in m or "comment" in m), 2, "no other NAG or comment")
    eq(sum(1 for _, m in moves if m.get("starts_variation")), DEPTH - NEST_MAX,
       "each flat variation starts once")
    # The second game: each line's reply after its variation, at every depth, in PGN order;
    # a comment after a variation stays the move's own where the variations nest (depth 3),
    # and becomes the next move's comment_before where they are flat (depth 35).
    moves = flatten(objs[1]["moves"], 0, [])
    want = list(range(WIDE + 1)) + list(range(WIDE, -1, -1))
    eq([d for d, _ in moves], want, "the second deep game: each move at its depth, in order")
    eq([m["uci"] for _, m in moves[WIDE + 1:WIDE + 3]], ["e7e5", "e7e5"], "the replies")
    eq(moves[3][1].get("comment"), "after the variation at 3",
       "a comment after the variations of a nested move")
    eq(moves[WIDE + 1 + (WIDE - 35)][1].get("comment_before"), "after the variation at 35",
       "a comment after the variations of a flat move: the next move's")
    # Every key where the header's JSON schema says (tests/test-header-docs.py reads it).
    spec = importlib.util.spec_from_file_location("header_docs",
                                                  os.path.join(HERE, "test-header-docs.py"))
    header_docs = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(header_docs)
    with open(os.path.join(SRCDIR, "include", "gamedb", "gamedb.h"), encoding="utf-8") as f:
        sch = header_docs.schema(f.read())
    rc, out_fen, err = run_tool("json", "--jobs", "1", "--fen", "--key", stem + ".si4")
    eq(rc, 0, "json --fen --key of the deep game: exit status (%s)" % err[-300:])
    for n, line in enumerate(out_fen.decode("utf-8").splitlines()[:2] + lines[:2]):
        errors = []
        header_docs.validate(json.loads(line), "game", sch, "game %d" % (n % 2 + 1), errors)
        check(not errors, "deep game %d (%s) against the header's schema: %s"
              % (n % 2 + 1, ("--fen --key", "plain")[n // 2], errors[:3]))
        check(json_depth(line) <= READER_DEPTH, "json nests %d deep" % json_depth(line))
    fens = [m.get("fen") for _, m in flatten(json.loads(out_fen.decode().splitlines()[0])["moves"],
                                             0, [])]
    # Every move of the game is a first move from the start: e4 at even depths, d4 at odd.
    eq(fens[-1], "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
       "the FEN after the deepest move (1.e4)")
    eq(fens[-2], "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1",
       "the FEN after the move above it (1.d4)")
    # Games not as deep keep the nested form (the other games of the base are unchanged).
    rc, out2, _ = run_tool("json", "--jobs", "1", os.path.join(TESTDATA, "scid", "tags.si4"))
    eq([re.sub(r'^\{"file": "[^"]*", ', "", x) for x in out2.decode("utf-8").splitlines()[2:]],
       [re.sub(r'^\{"file": "[^"]*", ', "", x) for x in lines[2:]],
       "json of the other games unchanged")


# ---- 3. A book of nothing -----------------------------------------------------------------

def test_empty_book(work):
    out = os.path.join(work, "empty.bin")
    base = os.path.join(TESTDATA, "scid", "tags.si4")
    for opts in (["--max-ply", "0"], ["--min-game", "1000000"]):
        rc, _, err = run_tool("book", *opts, base, "-o", out, env=SAN_ENV)
        eq(rc, 0, "book %s: exit status (%s)" % (opts, err[-400:]))
        check("runtime error" not in err, "book %s: no sanitizer report: %s" % (opts, err[-400:]))
        eq(os.path.getsize(out) if os.path.exists(out) else -1, 0, "book %s: empty" % opts)


def main():
    if not TESTDATA or not os.path.isdir(os.path.join(TESTDATA, "scid")):
        return done(skip="no testdata")
    with tempfile.TemporaryDirectory() as work:
        test_tags(work)
        test_note_after_warning(work)
        test_json_depth(work)
        test_empty_book(work)
    return done()


if __name__ == "__main__":
    sys.exit(main())
