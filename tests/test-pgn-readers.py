# SPDX-License-Identifier: LGPL-2.1-or-later
"""The default PGN, read back the way the common PGN readers read it.

A small reader written here (not the library's code) follows the rules of python-chess and
readers like it: a game's movetext ends at the first blank line once it has begun (a comment
counts), a line starting with '%' is an escape line, a `[%...]` command is read only when it
is whole on one line. It parses `gamedb pgn --include-deleted` of every real base and the
bundled fixtures, and for every game the counts must equal the library's own events: moves
(variations included), comments with text, arrows (%cal), coloured squares (%csl), clocks
(%clk).

The same reader on `--layout scid` (Scid's export layout, the old default) must find losses
in the real ChessBase data: the proof that it sees what the default layout fixed.

Its tag pairs, in both layouts, must follow the PGN standard's grammar (section 8.1: a name of
letters, digits and '_' starting with a letter or a digit, a value of printing characters with
'"' and '\\' escaped) and be the library's tags, in order, with what doc/output.md says the
writer does to the tags PGN cannot hold: a control character of a value written as a space, a
tag whose name is no PGN tag name in a `{[%tag "NAME" "VALUE"]}` comment line before the moves.
"""
import glob
import os
import re
import sys

from testsupport import check, done, eq, import_gamedb, run_tool

gamedb = import_gamedb()
REALDATA = os.environ.get("GAMEDB_REALDATA", "")
TESTDATA = os.environ.get("GAMEDB_TESTDATA", "")

COMMAND = re.compile(r"\[%(\w+)\s*([^\]\n]*)\]")
# The standard's tag pair and string token (printing ASCII but '"' and '\\', their escapes,
# and the non-ASCII of UTF-8 PGN), and the comment line that keeps a tag PGN has no name for.
TAG_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_]{0,254}\Z")
STRING = r'(?:[\x20\x21\x23-\x5b\x5d-\x7e\x80-\U0010ffff]|\\"|\\\\)*'
TAG_LINE = re.compile(r'\[([^ ]*) "(' + STRING + r')"\]\Z')
TAG_COMMENT = re.compile(r'\{\[%tag "(' + STRING + r')" "(' + STRING + r')"\]\}\Z')
MOVE = re.compile(r"^([PNBRQKA-Za-z][A-Za-z0-9=+#!?@-]*|O-O(-O)?[+#]?|--)$")


def read_pgn(text):
    """Games as dicts of counts, the way a common reader sees them."""
    games, cur, state = [], None, "between"
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if line.startswith("%"):
            continue  # an escape line
        stripped = line.strip()
        if state in ("between", "tags"):
            if stripped.startswith("["):
                if state == "between":
                    cur = {"moves": 0, "comments": 0, "cal": 0, "csl": 0, "clk": 0,
                           "tags": []}
                    games.append(cur)
                    state = "tags"
                cur["tags"].append(line)
                continue
            if not stripped:
                if state == "tags":
                    state = "movetext-wait"
                continue
            state = "movetext-wait"
        if state == "movetext-wait" and not stripped:
            continue
        if not stripped:  # a blank line once the movetext began ends the game
            state = "between"
            continue
        if state == "movetext-wait" and TAG_COMMENT.match(line):
            cur["tags"].append(line)  # a tag PGN has no name for, before the moves
            continue
        if state == "movetext-wait":
            state = "movetext"
        if state == "movetext" and stripped.startswith("[") and not stripped.startswith("[%"):
            # a tag line: a new game begins (the movetext ended without a blank line)
            cur = {"moves": 0, "comments": 0, "cal": 0, "csl": 0, "clk": 0, "tags": [line]}
            games.append(cur)
            state = "tags"
            continue
        # Tokens of this line; a comment may run on over the next lines.
        rest = line
        while rest:
            rest = rest.lstrip()
            if not rest:
                break
            if rest[0] == "{":
                body_lines = []
                end = rest.find("}")
                if end >= 0:
                    body_lines.append(rest[1:end])
                    rest = rest[end + 1:]
                else:
                    body_lines.append(rest[1:])
                    rest = ""
                    while i < len(lines):
                        nxt = lines[i]
                        i += 1
                        end = nxt.find("}")
                        if end >= 0:
                            body_lines.append(nxt[:end])
                            rest = nxt[end + 1:]
                            break
                        body_lines.append(nxt)
                text = ""
                for bl in body_lines:  # commands only whole on one line
                    for name, args in COMMAND.findall(bl):
                        if name in ("cal", "csl"):
                            cur[name] += len([a for a in args.split(",") if a.strip()])
                        elif name == "clk":
                            cur["clk"] += 1
                    text += " " + COMMAND.sub("", bl)
                if text.strip():
                    cur["comments"] += 1
                continue
            tok = rest.split(None, 1)[0]
            for stop in "(){":
                k = tok.find(stop, 1)
                if k > 0:
                    tok = tok[:k]
            rest = rest[len(tok):]
            if tok in ("(", ")") or tok.startswith("$") or tok in ("1-0", "0-1", "1/2-1/2", "*"):
                continue
            tok = re.sub(r"^\d+\.*", "", tok)
            if tok and MOVE.match(tok):
                cur["moves"] += 1
    return games


def text_of(text, c):
    """Whether a comment of the library has text besides commands; commands a format keeps
    inside comment text (SCID does) are counted as a reader counts them."""
    for name, args in COMMAND.findall(text.replace("\n", " ")):
        if name in ("cal", "csl"):
            c[name] += len([a for a in args.split(",") if a.strip()])
        elif name == "clk":
            c["clk"] += 1
    return bool(COMMAND.sub("", text.replace("\n", " ")).strip())


def library_counts(game):
    """The same counts from the library's events, grouped as the writer groups comments."""
    c = {"moves": 0, "comments": 0, "cal": 0, "csl": 0, "clk": 0}
    have_move = pending = False
    for e in game.moves():
        t = e.type
        if t == "move":
            c["comments"] += pending
            pending, have_move = False, True
            c["moves"] += 1
        elif t == "comment_after" and have_move:
            has_text = text_of(e.text or "", c)
            pending = pending or has_text
        elif t in ("comment_after", "comment_before"):
            c["comments"] += pending
            pending, have_move = False, False
            c["comments"] += text_of(e.text or "", c)
        elif t in ("variation_begin", "variation_end", "result"):
            c["comments"] += pending
            pending, have_move = False, False
        elif t in ("command", "clock"):
            name, _, args = (e.text or "").partition(" ")
            if name in ("%cal", "%csl"):
                c[name[1:]] += len([a for a in args.split(",") if a.strip()])
            elif name == "%clk":
                c["clk"] += 1
    return c


def unescape(s):
    return re.sub(r'\\(["\\\\])', r"\1", s)


def tags_read(lines):
    """(name, value) of a game's tag lines and tag comments; None for a line of neither
    form."""
    out = []
    for line in lines:
        m = TAG_LINE.match(line)
        if m and TAG_NAME.match(m.group(1)):
            out.append((m.group(1), unescape(m.group(2))))
            continue
        m = TAG_COMMENT.match(line)
        out.append((unescape(m.group(1)), unescape(m.group(2))) if m else None)
    return out


def tags_written(game):
    """The library's tags as the writer must give them (doc/output.md): the tag lines, then
    the tags PGN has no name for; a control character a space, in a comment '}' a ')'."""
    def clean(s, comment):
        s = re.sub(r"[\x00-\x1f\x7f]", " ", s.split("\x00")[0])
        return s.replace("}", ")") if comment else s
    lines = [(n, clean(v, False)) for n, v in game.tag_list if TAG_NAME.match(n)]
    return lines + [(clean(n, True), clean(v, True)) for n, v in game.tag_list
                    if not TAG_NAME.match(n)]


def compare(path, layout):
    args = ["pgn", "--include-deleted", path] + (["--layout", layout] if layout else [])
    rc, out, err = run_tool(*args)
    read = read_pgn(out.decode("utf-8", "replace"))
    want, want_tags = [], []
    with gamedb.open(path) as r:
        for g in r:
            try:
                want.append(library_counts(g))
                want_tags.append(tags_written(g))
            except gamedb.GamedbError:
                pass  # its moves fail: the writer leaves it out as well
    lines = [got.pop("tags") for got in read]
    bad_tags = [(k + 1, got) for k, (got, tags) in enumerate(zip(lines, want_tags))
                if tags_read(got) != tags]
    check(not bad_tags, "%s (%s layout): tag pairs not the library's tags as the PGN standard "
          "has them: game %s" % (path, layout or "default", bad_tags[:1]))
    lost = 0
    if len(read) != len(want):
        lost += abs(len(read) - len(want))
    for k, (a, b) in enumerate(zip(read, want)):
        if a != b:
            lost += 1
            if not layout:
                check(False, "%s game %d: a reader sees %s, the library has %s" % (path, k + 1, a, b))
    return len(want), lost


def bases():
    found = []
    for root, pats in ((TESTDATA, ["scid/*.si4"]),
                       (REALDATA, ["scid/**/*.si4", "scid5/**/*.si5", "chessbase/**/*.cbh",
                                   "xqf/**/*.xqf"])):
        if root and os.path.isdir(root):
            for p in pats:
                found += sorted(glob.glob(os.path.join(root, p), recursive=True))
    return found


def main():
    total = lost_scid = 0
    for path in bases():
        try:
            gamedb.open(path).close()
        except gamedb.GamedbError:
            continue  # pinned as unreadable by the format tests
        n, lost = compare(path, None)
        total += n
        eq(lost, 0, "%s: games a common reader reads differently" % path)
        if "chessbase" in path:
            lost_scid += compare(path, "scid")[1]
    print("%d games read back alike in the default layout" % total)
    if REALDATA and os.path.isdir(os.path.join(REALDATA, "chessbase")):
        # Scid's layout loses games or markup in these readers; the reader must see it.
        check(lost_scid > 0, "the reader finds the Scid layout's losses (%d games)" % lost_scid)
        print("--layout scid: %d ChessBase games read differently" % lost_scid)
    check(total > 0, "games compared")
    return done()


if __name__ == "__main__":
    sys.exit(main())
