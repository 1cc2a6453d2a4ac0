"""gamedb.formats(): the format registry as the binding reads it.

What the listing says is checked against things outside the binding's own code:
- the `gamedb --help` text (a C program printing the same registry through the C API): the
  same formats in the same order, with the same opening extensions and descriptions;
- the real bases of ../shared/realdata: every extension a format is opened by opens a real
  base of that format (by its file and by its base name); the files a base is made of, taken
  by the listed extensions only, make a base that reads exactly like the one on disk; the
  capabilities the listing promises hold on real bases; the listed option defaults change
  nothing when set;
- Python's own codec registry for the default charset names;
- doc/formats/cbv.md and uncbv's samples for the archives: ChessBase is opened by its index and
  by its two archives (.cbv; .cbz, encrypted), each opening a real base read as its unpacked
  twin (realdata chessbase/uncbv, with the passwords uncbv's tests give the .cbz).
"""
import codecs
import os
import subprocess

import pytest

import gamedb

SRCDIR = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
REALDATA = os.environ.get("GAMEDB_REALDATA") or os.path.join(SRCDIR, "..", "shared", "realdata")
TOOL = os.environ.get("GAMEDB_TOOL")
# The formats of 1.0: realdata holds bases of each, so their checks may not skip.
KNOWN = ("scid", "chessbase", "xqf")
# Real bases made on purpose broken (their folders say so): not used to show a format opens.
BROKEN_HINTS = ("corrupt", "hostile", "broken")


def real_files():
    """{lower-case extension: [paths]} of every file under realdata, smallest first."""
    if not os.path.isdir(REALDATA):
        return None
    out = {}
    for top, _dirs, names in os.walk(REALDATA):
        for name in names:
            ext = os.path.splitext(name)[1].lower()
            if ext:
                out.setdefault(ext, []).append(os.path.join(top, name))
    for paths in out.values():
        paths.sort(key=lambda p: (os.path.getsize(p), p))
    return out


REAL = real_files()


def first_games(r, n=3):
    """The PGN of the first n games of an open reader."""
    out = []
    for game in r:
        out.append(game.pgn())
        if len(out) == n:
            break
    return out


_BASES = {}


def real_base(fmt, ext):
    """(path, count, first games) of the smallest real file with extension ext that opens as
    fmt and gives three games (else one game); None when realdata holds no such file."""
    if REAL is None:
        return None
    if (fmt.name, ext) in _BASES:
        return _BASES[(fmt.name, ext)]
    found = None
    for path in REAL.get(ext, []):
        if any(h in path.lower() for h in BROKEN_HINTS):
            continue
        try:
            with gamedb.open(path) as r:
                if r.format != fmt.name:
                    continue
                games = first_games(r)
                if games and (found is None or len(games) > len(found[2])):
                    found = (path, r.game_count, games)
                if len(games) == 3:
                    break
        except gamedb.GamedbError:
            continue
    _BASES[(fmt.name, ext)] = found
    return found


def format_named(name):
    return next(f for f in gamedb.formats() if f.name == name)


def assert_reads_as(r, fmt, count, games):
    """The reader r reads as the real base did: its format, its count, its first games."""
    with r:
        assert r.format == fmt.name
        assert r.game_count == count
        assert first_games(r) == games


def need_base(fmt, ext):
    base = real_base(fmt, ext)
    if base is None:
        if REAL is None:
            pytest.skip("real data not available: %s" % REALDATA)
        if fmt.name in KNOWN:
            pytest.fail("no real %s base opens by %s in %s" % (fmt.name, ext, REALDATA))
        pytest.skip("realdata holds no %s file of %s" % (ext, fmt.name))
    return base


def tool_help_formats():
    """[(name, opening extensions, description)] from `gamedb --help`."""
    if not TOOL or not os.path.exists(TOOL):
        pytest.skip("the gamedb command is not built (GAMEDB_TOOL)")
    out = subprocess.run([TOOL, "--help"], capture_output=True, text=True, check=True).stdout
    lines = out.splitlines()
    # The list follows the line that introduces it ("... Formats, and the files a base is
    # opened by:"), wherever that sentence starts.
    start = next(i for i, line in enumerate(lines) if "Formats" in line and line.endswith(":"))
    listed = []
    for line in lines[start + 1:]:
        if not line.startswith("  "):
            break
        words = line.split()
        exts = [w for w in words[1:] if w.startswith(".")]
        desc = " ".join(words[1 + len(exts):])
        listed.append((words[0], tuple(exts), desc))
    return listed


def test_the_known_formats_are_listed_well_formed():
    fmts = gamedb.formats()
    names = [f.name for f in fmts]
    assert set(KNOWN) <= set(names)
    assert len(names) == len(set(names))
    every_opening = []
    for f in fmts:
        assert isinstance(f, gamedb.Format)
        assert f.description and "\n" not in f.description
        assert f.opens, f.name + " is opened by no extension"
        assert f.extensions[:len(f.opens)] == f.opens
        assert len(set(f.extensions)) == len(f.extensions)
        for ext in f.extensions:
            assert ext.startswith(".") and ext == ext.lower() and len(ext) > 1
        every_opening += f.opens
        for opt in f.options:
            assert isinstance(opt, gamedb.FormatOption)
            assert opt.key and opt.default is not None and opt.description
    # One format per opening extension: otherwise a base name would be ambiguous.
    assert len(every_opening) == len(set(every_opening))


def test_python_and_gamedb_help_agree():
    fmts = gamedb.formats()
    assert tool_help_formats() == [(f.name, f.opens, f.description) for f in fmts]


def test_default_charsets_are_charsets():
    for f in gamedb.formats():
        codecs.lookup(f.charset)  # LookupError if Python knows no such charset


def test_chessbase_lists_its_archives():
    """Issue 28: the Open dialog offers the archives (.cbv, .cbz) with the index (.cbh)."""
    cb = format_named("chessbase")
    assert cb.opens == (".cbh", ".cbv", ".cbz")
    assert cb.archives == (".cbv", ".cbz")
    assert cb.extensions[:3] == cb.opens
    assert ".cbg" in cb.extensions and ".cbg" not in cb.opens
    for f in gamedb.formats():
        assert set(f.archives) <= set(f.opens), f.name
        if f.name != "chessbase":
            assert not f.archives, f.name


# The archives of uncbv's tests and the passwords they are made with (None: not encrypted).
ARCHIVES = {".cbv": [("small.cbv", None), ("decrypted_small.cbv", None)],
            ".cbz": [("small.cbz", "password"), ("small2.cbz", "pass"),
                     ("small3.cbz", "my long password")]}


ARCHIVE_EXTS = [(f.name, e) for f in gamedb.formats() for e in f.archives]


@pytest.mark.parametrize("name_ext", ARCHIVE_EXTS, ids=["%s%s" % ne for ne in ARCHIVE_EXTS])
def test_every_archive_extension_opens_a_real_base(name_ext):
    """Each listed archive opens, and reads as its unpacked twin (small/: a base of 0 games)."""
    fmt = format_named(name_ext[0])
    folder = os.path.join(REALDATA, fmt.name, "uncbv")
    if not os.path.isdir(folder):
        pytest.skip("real data not available: %s" % folder)
    twin = os.path.join(folder, "small", "small.cbh")
    with gamedb.open(twin) as r:
        count, games = r.game_count, first_games(r)
    for name, password in ARCHIVES[name_ext[1]]:
        options = {"password": password} if password else None
        assert_reads_as(gamedb.open(os.path.join(folder, name), options=options), fmt, count,
                        games)


@pytest.mark.parametrize("name_ext", [(f.name, e) for f in gamedb.formats() for e in f.opens
                                      if e not in f.archives],
                         ids=lambda ne: "%s%s" % ne)
def test_every_opening_extension_opens_a_real_base(name_ext):
    fmt = format_named(name_ext[0])
    path, count, games = need_base(fmt, name_ext[1])
    # By the base name too: the opener tries the listed extensions.
    assert_reads_as(gamedb.open(os.path.splitext(path)[0]), fmt, count, games)


@pytest.mark.parametrize("name", [f.name for f in gamedb.formats()])
def test_listed_extensions_are_every_file_a_base_needs(name):
    """A base copied by the listed extensions alone (in memory) reads as the base on disk."""
    fmt = format_named(name)
    path, count, games = need_base(fmt, fmt.opens[0])
    folder, primary = os.path.split(path)
    stem = os.path.splitext(primary)[0]
    files = {}
    for entry in sorted(os.listdir(folder)):
        base, ext = os.path.splitext(entry)
        if base == stem and ext.lower() in fmt.extensions:
            with open(os.path.join(folder, entry), "rb") as fh:
                files[entry] = fh.read()
    assert primary in files
    # A base of a format of several files is made of several here: the siblings are tried.
    if fmt.capabilities & gamedb.CAP_MULTIFILE:
        assert len(files) > 1, files.keys()
    assert_reads_as(gamedb.open_memory(files, primary), fmt, count, games)


@pytest.mark.parametrize("name", [f.name for f in gamedb.formats()])
def test_listed_capabilities_hold_on_a_real_base(name):
    fmt = format_named(name)
    path, count, _games = need_base(fmt, fmt.opens[0])
    with gamedb.open(path) as r:
        assert fmt.capabilities & ~r.capabilities == 0
        game = next(iter(r))
        assert (game.variant == "xiangqi") == bool(fmt.capabilities & gamedb.CAP_XIANGQI)
        if fmt.capabilities & gamedb.CAP_COUNT:
            assert count is not None and count > 0
        if fmt.capabilities & gamedb.CAP_SEEK:
            assert r[0].pgn() == game.pgn()


@pytest.mark.parametrize("name_key", [(f.name, o.key) for f in gamedb.formats()
                                      for o in f.options], ids=lambda nk: "%s-%s" % nk)
def test_listed_option_defaults_change_nothing(name_key):
    fmt = format_named(name_key[0])
    opt = next(o for o in fmt.options if o.key == name_key[1])
    path, count, games = need_base(fmt, fmt.opens[0])
    assert_reads_as(gamedb.open(path, format=fmt.name, options={opt.key: opt.default}), fmt,
                    count, games)


def test_an_option_no_format_lists_is_refused():
    keys = {o.key for f in gamedb.formats() for o in f.options}
    key = "no-such-option"
    assert key not in keys
    with pytest.raises(gamedb.GamedbError) as err:
        gamedb.Reader().set_option(key, "1")
    assert err.value.detail == gamedb.E_UNKNOWN_OPTION
