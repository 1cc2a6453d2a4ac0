# libgamedb - what the library is and reads, for the Python binding: its version, its registry
# of formats, and what only some formats have (SCID, Chess Assistant, ChessBase).
#
# SPDX-License-Identifier: LGPL-2.1-or-later
"""The library's version, the formats it reads (:func:`formats`) and the format-specific
information a reader or a game carries (:class:`ScidInfo`, :class:`ChessbaseInfo`, the fields
of ``Game.chessbase`` and ``Game.chessassistant``)."""

from typing import Any, Dict, List, NamedTuple, Tuple
from ctypes import byref, c_char_p, c_int32, c_size_t, c_uint32

from . import _ffi
from ._ffi import FAILED

_lib = _ffi.lib


def version() -> str:
    """The run-time library version as "MAJOR.MINOR.PATCH"."""
    return str(_lib.gamedb_version_string())


def version_number() -> int:
    """The run-time library version as MAJOR * 10000 + MINOR * 100 + PATCH."""
    return int(_lib.gamedb_version_number())


#: One option of a format, for ``options=`` of :func:`open` (Reader.set_option()): its
#: ``key``, the ``default`` the format uses when it is not set ("" = none) and a one-line
#: ``description``.
class FormatOption(NamedTuple):
    key: str
    default: str
    description: str

#: One format the library reads, from its registry (see :func:`formats`).
class Format(NamedTuple):
    name: str
    description: str
    extensions: Tuple[str, ...]
    opens: Tuple[str, ...]
    capabilities: int
    charset: str
    options: Tuple[FormatOption, ...]
    archives: Tuple[str, ...] = ()


def formats() -> List[Format]:
    """The formats the library reads, from its one registry, in the order it tries them.

    Each is a :class:`Format`: ``name`` ("scid", what ``format=`` takes), ``description``
    (one line), ``extensions`` (a tuple of every file of a base, lower case with the dot:
    first the files a base is opened by, then their siblings), ``opens`` (the leading part of
    ``extensions`` a base is opened by, e.g. (".si4", ".si3"); ChessBase's ends with its
    archives, (".cbh", ".cbv", ".cbz")), ``archives`` (the part of ``opens`` that are archives
    holding a whole base in one file: (".cbv", ".cbz"); a ``.cbz`` needs
    ``options={"password": ...}``), ``capabilities`` (the CAP_*
    bits every base of the format has), ``charset`` (the charset its text is read in unless
    ``charset=`` says otherwise) and ``options`` (a tuple of :class:`FormatOption`: the
    format's own options; "charset", "fallback-charset" and "password", which every format
    takes, are not listed). A GUI builds its file filter from ``opens``; copying a base means copying
    the files of every extension (an archive: that one file).
    """
    out: List[Format] = []
    for i in range(_lib.gamedb_format_count()):
        exts: List[str] = []
        opens: List[str] = []
        archives: List[str] = []
        flags = c_uint32()
        k = 0
        while True:
            ext = _lib.gamedb_format_get_extension(i, k, byref(flags))
            if ext is None:
                break
            exts.append(ext)
            if flags.value & _ffi.EXTENSION_OPENS:
                opens.append(ext)
            if flags.value & _ffi.EXTENSION_ARCHIVE:
                archives.append(ext)
            k += 1
        options: List[FormatOption] = []
        default, description = c_char_p(), c_char_p()
        k = 0
        while True:
            key = _lib.gamedb_format_get_option(i, k, byref(default), byref(description))
            if key is None:
                break
            options.append(FormatOption(key, _ffi._decode(default.value) or "",
                                        _ffi._decode(description.value) or ""))
            k += 1
        out.append(Format(_lib.gamedb_format_get_name(i),
                          _lib.gamedb_format_get_description(i), tuple(exts), tuple(opens),
                          _lib.gamedb_format_get_capabilities(i),
                          _lib.gamedb_format_get_charset(i), tuple(options),
                          tuple(archives)))
    return out


# ---- SCID ---------------------------------------------------------------------------------

class ScidInfo:
    """What only SCID databases have, copied when the database is opened.

    Attributes: ``version`` (300 or 400), ``description``, ``base_type``, ``flag_names`` (the
    names of custom flags 1..6, "" when unnamed) and ``autoload`` (the game Scid loads first).
    """

    __slots__ = ("version", "description", "base_type", "flag_names", "autoload")
    version: int
    description: str
    base_type: int
    flag_names: List[str]
    autoload: int

    def __init__(self, sp: Any) -> None:
        self.version = _lib.gamedb_scid_get_version(sp)
        self.description = _lib.gamedb_scid_get_description(sp) or ""
        self.base_type = _lib.gamedb_scid_get_base_type(sp)
        self.flag_names = [_lib.gamedb_scid_get_flag_name(sp, n) or "" for n in range(1, 7)]
        self.autoload = _lib.gamedb_scid_get_autoload(sp)

    def __repr__(self) -> str:
        return "ScidInfo(version=%d, description=%r, base_type=%d, flag_names=%r, autoload=%d)" \
            % (self.version, self.description, self.base_type, self.flag_names, self.autoload)


# ---- Chess Assistant ----------------------------------------------------------------------

#: Game.chessassistant keys and their gamedb_chessassistant_field numbers.
CHESSASSISTANT_FIELDS = {
    "game_type": 1, "outcome": 2, "game_id": 3, "white_id": 4, "black_id": 5,
    "white_rating": 6, "white_fide_id": 7, "white_birthday": 8, "white_gender": 9,
    "black_rating": 10, "black_fide_id": 11, "black_birthday": 12, "black_gender": 13,
    "unknown_byte": 14,
}

# ---- ChessBase ----------------------------------------------------------------------------

#: Game.chessbase keys and their gamedb_chessbase_field numbers.
CHESSBASE_FIELDS = {
    "record_flags": 1, "medals": 2, "annotation_flags": 3, "magnitude": 4,
    "line_evaluation": 5, "sub_eco": 6, "tournament_type": 7, "tournament_category": 8,
    "tournament_rounds": 9, "tournament_flags": 10, "tournament_nation": 11,
    "mainline_moves": 12,
}


class ChessbaseInfo:
    """What only ChessBase databases have, copied when the database is opened.

    Attributes: ``charset`` (what the base's text is read as) and ``texts``, the guiding texts
    (text records of the base, never counted as games): a list of dicts with ``titles`` (a
    list of (language, title) pairs), ``format`` (the stored text format number), ``content``
    (the text as UTF-8; HTML for format 3) and ``error`` (None, or why it could not be read).
    """

    __slots__ = ("charset", "texts")
    charset: str
    texts: List[Dict[str, Any]]

    def __init__(self, cp: Any) -> None:
        self.charset = _lib.gamedb_chessbase_get_charset(cp)
        self.texts = []
        for i in range(_lib.gamedb_chessbase_get_text_count(cp)):
            titles: List[Tuple[str, str]] = []
            entry: Dict[str, Any] = {"titles": titles, "format": None, "content": None,
                                     "error": None}
            if _lib.gamedb_chessbase_load_text(cp, i) == FAILED:
                entry["error"] = "unreadable"
            else:
                lang = c_char_p()
                for k in range(_lib.gamedb_chessbase_get_text_title_count(cp)):
                    title = _lib.gamedb_chessbase_get_text_title(cp, k, byref(lang))
                    titles.append((_ffi._decode(lang.value or b"") or "", title))
                fmt, n = c_int32(), c_size_t()
                entry["content"] = _lib.gamedb_chessbase_get_text_content(cp, byref(fmt), byref(n))
                entry["format"] = fmt.value
            self.texts.append(entry)

    def __repr__(self) -> str:
        return "ChessbaseInfo(charset=%r, texts=%d)" % (self.charset, len(self.texts))
