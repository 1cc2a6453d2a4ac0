# libgamedb - the raw ctypes layer: loading the library and one table entry per exported
# function of include/gamedb/gamedb.h.
#
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Raw ctypes declarations for libgamedb.

Nothing here is Pythonic: it is the C API, one entry per exported function, with explicit
argument and result types. The Pythonic layer is in the package's other modules, whose
public names ``gamedb/__init__.py`` re-exports.

Rules this table follows (STYLE.md, section Q):

- every function has an explicit ``restype`` (the ctypes default, ``c_int``, would truncate a
  64-bit pointer);
- each opaque struct has its own pointer type (``ReaderP``, ``GameP``, ``MoveIterP``,
  ``EventP``, ``ScidP``), so passing a game where a reader is expected fails in ctypes;
- borrowed ``const char *`` results are declared ``c_char_p``, which ctypes copies into a
  ``bytes`` object on return, and the ``errcheck`` hook decodes that copy to ``str`` at once;
- functions that return a status code get an ``errcheck`` hook that turns a negative status
  (other than ``WARN``) into :class:`GamedbError` and ``END`` into ``StopIteration``.
"""

import ctypes
import ctypes.util
import errno as _errno
import os
from typing import Any, List, Optional, Tuple
from collections import namedtuple
from ctypes import (CFUNCTYPE, POINTER, Structure, c_char_p, c_int32, c_int64, c_size_t,
                    c_uint32, c_uint64, c_void_p)

#: The oldest library version (MAJOR * 10000 + MINOR * 100 + PATCH) this binding works with.
REQUIRED_VERSION = 10200

#: The soname this binding is written against (on Windows, the DLL's name: gamedb-1.dll).
SONAME = "gamedb-1.dll" if os.name == "nt" else "libgamedb.so.1"

# ---- constants (the numbers are stable; see gamedb.h) -----------------------------------

OK = 0
END = 1
WARN = -20
FAILED = -25
FATAL = -30

E_NONE = 0
E_NOMEM = 1
E_IO = 2
E_UNRECOGNIZED_FORMAT = 3
E_CORRUPT = 4
E_UNSUPPORTED_VERSION = 5
E_ENCODING = 6
E_MISUSE = 7
E_RANGE = 8
E_STRUCT_SIZE = 9
E_UNSUPPORTED = 10
E_ILLEGAL_MOVE = 11
E_INVALID_ARGUMENT = 12
E_UNKNOWN_OPTION = 13
E_CANCELLED = 14

# enum gamedb_progress_unit: what a progress callback's done and total count.
PROGRESS_BYTES = 1
PROGRESS_GAMES = 2
PROGRESS_ENTRIES = 3

CAP_SEEK = 1
CAP_COUNT = 2
CAP_MULTIFILE = 4
CAP_VARIATIONS = 8
CAP_XIANGQI = 16

# gamedb_format_get_extension() flags
EXTENSION_OPENS = 1
EXTENSION_ARCHIVE = 2

VARIANT_CHESS = 1
VARIANT_CHESS960 = 2
VARIANT_XIANGQI = 3
VARIANT_BUGHOUSE = 4
VARIANT_CRAZYHOUSE = 5

EVENT_MOVE = 1
EVENT_VARIATION_BEGIN = 2
EVENT_VARIATION_END = 3
EVENT_COMMENT_BEFORE = 4
EVENT_COMMENT_AFTER = 5
EVENT_NAG = 6
EVENT_CLOCK = 7
EVENT_RESULT = 8
EVENT_COMMAND = 9
EVENT_ANNOTATION = 10

NOTATION_SAN = 1
NOTATION_UCI = 2
NOTATION_ICCS = 3
NOTATION_WXF = 4
NOTATION_CHINESE = 5

ITER_MAINLINE_ONLY = 1
ITER_SKIP_COMMENTS = 2
ITER_FEN = 4
ITER_PARTIAL = 8
ITER_UCI_KING_TAKES_ROOK = 16

PIECE_NONE = 0
PIECE_PAWN = 1
PIECE_KNIGHT = 2
PIECE_BISHOP = 3
PIECE_ROOK = 4
PIECE_QUEEN = 5
PIECE_KING = 6

WRITE_NO_COMMENTS = 1
WRITE_NO_VARIATIONS = 2
WRITE_NO_NAGS = 4
WRITE_NO_COMMANDS = 8
WRITE_WXF = 16
WRITE_CHINESE = 32


# ---- opaque handles ---------------------------------------------------------------------

class _Reader(Structure):
    """struct gamedb_reader (opaque)."""


class _Game(Structure):
    """struct gamedb_game (opaque)."""


class _MoveIter(Structure):
    """struct gamedb_move_iter (opaque)."""


class _Event(Structure):
    """struct gamedb_event (opaque)."""


class _Scid(Structure):
    """struct gamedb_scid (opaque)."""


class _Chessbase(Structure):
    """struct gamedb_chessbase (opaque)."""


class _ChessAssistant(Structure):
    """struct gamedb_chessassistant (opaque)."""


class _Book(Structure):
    """struct gamedb_book (opaque)."""


class _Query(Structure):
    """struct gamedb_query (opaque)."""


class _Tree(Structure):
    """struct gamedb_tree (opaque)."""


class _Index(Structure):
    """struct gamedb_index (opaque)."""


class _IndexWriter(Structure):
    """struct gamedb_index_writer (opaque)."""


class _BookReader(Structure):
    """struct gamedb_book_reader (opaque)."""


class _Style12Line(Structure):
    """struct gamedb_style12_line (opaque)."""


class _Style12Session(Structure):
    """struct gamedb_style12_session (opaque)."""


ReaderP = POINTER(_Reader)
GameP = POINTER(_Game)
MoveIterP = POINTER(_MoveIter)
EventP = POINTER(_Event)
ScidP = POINTER(_Scid)
ChessbaseP = POINTER(_Chessbase)
BookP = POINTER(_Book)
BookReaderP = POINTER(_BookReader)
ChessAssistantP = POINTER(_ChessAssistant)
QueryP = POINTER(_Query)
TreeP = POINTER(_Tree)
IndexP = POINTER(_Index)
IndexWriterP = POINTER(_IndexWriter)
Style12LineP = POINTER(_Style12Line)
Style12SessionP = POINTER(_Style12Session)


# ---- callback types and caller-filled structs -------------------------------------------

#: gamedb_text_converter_fn: (user_data, charset, in, in_len, out, out_cap, out_len) -> status.
#: ``in`` and ``out`` are declared ``c_void_p`` because they are not NUL-terminated.
TEXT_CONVERTER_FN = CFUNCTYPE(c_int32, c_void_p, c_char_p, c_void_p, c_size_t, c_void_p,
                              c_size_t, POINTER(c_size_t))

#: gamedb_write_fn: (user_data, data, len) -> 0 to go on. ``data`` is not NUL-terminated.
WRITE_FN = CFUNCTYPE(c_int32, c_void_p, c_void_p, c_size_t)
# gamedb_progress_fn: (unit, done, total, user_data) -> 0 to go on, non-zero to stop.
PROGRESS_FN = CFUNCTYPE(c_int32, c_int32, c_uint64, c_uint64, c_void_p)

#: struct gamedb_io callbacks.
IO_OPEN_FN = CFUNCTYPE(c_int32, c_void_p, c_char_p, POINTER(c_void_p), POINTER(c_uint64))
IO_READ_AT_FN = CFUNCTYPE(c_int64, c_void_p, c_void_p, c_uint64, c_void_p, c_size_t)
IO_CLOSE_FN = CFUNCTYPE(None, c_void_p, c_void_p)


class Io(Structure):
    """struct gamedb_io: caller I/O. Fill ``size`` with ``ctypes.sizeof(Io)``."""

    _fields_ = [
        ("size", c_size_t),
        ("open", IO_OPEN_FN),
        ("read_at", IO_READ_AT_FN),
        ("close", IO_CLOSE_FN),
    ]


# ---- errors ------------------------------------------------------------------------------

class GamedbError(Exception):
    """A libgamedb call failed.

    Attributes:
        code: the status code the call returned (``FAILED`` = -25 or ``FATAL`` = -30).
        detail: the detail code (``gamedb_reader_errcode()``: ``E_IO``, ``E_CORRUPT``, ...)
            when a reader is involved, else ``None``.
        message: the library's message (``gamedb_reader_errmsg()`` or
            ``gamedb_game_errmsg()``), naming the file and the place where it applies.
    """

    def __init__(self, code: int, detail: Optional[int] = None, message: Optional[str] = ""):
        self.code = code
        self.detail = detail
        self.message = message or _describe(code, detail)
        super().__init__(self.message)

    def __repr__(self) -> str:
        return "GamedbError(code=%r, detail=%r, message=%r)" % (self.code, self.detail,
                                                                self.message)


def _describe(code: int, detail: Optional[int]) -> str:
    """A fallback message made from gamedb_strerror() when the library gave none."""
    try:
        what = str(lib.gamedb_strerror(code))
        if detail:
            what += ": " + str(lib.gamedb_strerror(detail))
        return what
    except Exception:  # the library is not loaded (yet)
        return "libgamedb status %d" % code


def _decode(raw: Optional[bytes]) -> Optional[str]:
    """A ``bytes`` copy made by ctypes (or None) as str."""
    if raw is None:
        return None
    return raw.decode("utf-8", errors="replace")


# errcheck hooks. Each receives (result, function, arguments).

def _errcheck_str(result: Optional[bytes], func: Any, args: Tuple[Any, ...]) -> Optional[str]:
    """Borrowed ``const char *`` results: ctypes already copied them; decode now."""
    return _decode(result)


def _errcheck_new(result: Any, func: Any, args: Tuple[Any, ...]) -> Any:
    """Constructors that return NULL only when out of memory."""
    if not result:
        raise MemoryError("%s: out of memory" % func.__name__)
    return result


class GamedbIOError(GamedbError, OSError):
    """A GamedbError whose detail is ``E_IO`` (a file could not be opened or read): also an
    ``OSError``, so that ``except OSError`` catches it as it catches ``open()``'s errors.

    When the system said why (``gamedb_reader_get_os_error()``: a file of the base could not
    be opened or read), ``errno`` and ``strerror`` are set, ``filename`` too for a file that
    :func:`gamedb.open` could not open, and the error is one of the subclasses that are also
    Python's own, as Python's ``open()`` raises them: :class:`GamedbFileNotFoundError` (``FileNotFoundError``, ENOENT),
    :class:`GamedbNotADirectoryError` (``NotADirectoryError``, ENOTDIR: a folder on the way
    is a file), :class:`GamedbPermissionError` (``PermissionError``, EACCES or EPERM) and
    :class:`GamedbIsADirectoryError` (``IsADirectoryError``, EISDIR); another errno leaves
    it a GamedbIOError. ``str()`` is the library's message in every case."""

    def __init__(self, code: int, detail: Optional[int] = None, message: Optional[str] = ""):
        GamedbError.__init__(self, code, detail, message)

    def __str__(self) -> str:
        return self.message


class GamedbFileNotFoundError(GamedbIOError, FileNotFoundError):
    """The file to open does not exist (``errno.ENOENT``)."""


class GamedbNotADirectoryError(GamedbIOError, NotADirectoryError):
    """A folder of the path to open is not one (``errno.ENOTDIR``)."""


class GamedbPermissionError(GamedbIOError, PermissionError):
    """The file to open may not be read (``errno.EACCES`` or ``EPERM``)."""


class GamedbIsADirectoryError(GamedbIOError, IsADirectoryError):
    """The path to open names a directory (``errno.EISDIR``)."""


_OS_ERROR_CLASSES = {
    _errno.ENOENT: GamedbFileNotFoundError, _errno.ENOTDIR: GamedbNotADirectoryError,
    _errno.EACCES: GamedbPermissionError, _errno.EPERM: GamedbPermissionError,
    _errno.EISDIR: GamedbIsADirectoryError,
}


def _os_error(e: GamedbIOError, path: str) -> GamedbIOError:
    """The open failure e of the database at path with its ``filename`` set, when the
    library gave the errno of its cause (``gamedb_reader_get_os_error()``, which _raise_for
    put in e.errno): the path given, or the file of its base the message names ("NAME:
    cannot open: ..."). e unchanged when there is no errno."""
    if e.errno is None:
        return e
    cut = e.message.find(": cannot open: ")
    if e.message.startswith(path + ": cannot open: "):
        e.filename = path  # the path given (which may itself contain the words)
    elif cut > 0 and "\ufffd" not in e.message[:cut]:
        e.filename = e.message[:cut]  # a file of its base (not known again if not UTF-8)
    return e


def _io_error(result: int, detail: Optional[int], message: str, os_errno: int) -> GamedbIOError:
    """A GamedbIOError for an E_IO failure; with the system's errno (os_errno, not 0) the
    subclass that is Python's own for it, errno and strerror set, as Python's open() raises."""
    if not os_errno:
        return GamedbIOError(result, detail, message)
    e = _OS_ERROR_CLASSES.get(os_errno, GamedbIOError)(result, detail, message)
    e.errno = os_errno
    e.strerror = os.strerror(os_errno)
    return e


def _raise_for(result: int, func: Any, detail: Optional[int], message: Optional[str],
               os_errno: int = 0) -> int:
    if result == END:
        raise StopIteration
    if result < 0 and result != WARN:
        message = message or "%s: %s" % (func.__name__, _describe(result, detail))
        if detail == E_IO:
            raise _io_error(result, detail, message, os_errno)
        raise GamedbError(result, detail, message)
    return result


def _errcheck_book(result: int, func: Any, args: Tuple[Any, ...]) -> int:
    """Status from a function whose first argument is a book (WARN passes: a game left out)."""
    if result in (OK, WARN):
        return result
    b = args[0]
    return _raise_for(result, func, None, lib.gamedb_book_errmsg(b) if b else None)


def _errcheck_reader(result: int, func: Any, args: Tuple[Any, ...]) -> int:
    """Status from a function whose first argument is a reader."""
    if result == OK:
        return result
    r = args[0]
    detail = message = None
    os_errno = 0
    if r and result != END:
        detail = lib.gamedb_reader_errcode(r)
        message = lib.gamedb_reader_errmsg(r)
        if detail == E_IO:
            os_errno = lib.gamedb_reader_get_os_error(r)
    return _raise_for(result, func, detail, message, os_errno)


def _errcheck_game(result: int, func: Any, args: Tuple[Any, ...]) -> int:
    """Status from a function whose first argument is a game (detail is not known)."""
    if result == OK:
        return result
    g = args[0]
    message = lib.gamedb_game_errmsg(g) if g and result != END else None
    return _raise_for(result, func, None, message)


def _errcheck_status(result: int, func: Any, args: Tuple[Any, ...]) -> int:
    """Status from a function with no handle to ask for a message."""
    if result == OK:
        return result
    return _raise_for(result, func, None, None)


_Api = namedtuple("_Api", "name argtypes restype errcheck")

#: One entry per function exported by libgamedb (lib/libgamedb.map), in the header's order.
API = (
    # errors and version
    _Api("gamedb_strerror", [c_int32], c_char_p, _errcheck_str),
    _Api("gamedb_version_number", [], c_int32, None),
    _Api("gamedb_version_string", [], c_char_p, _errcheck_str),
    # formats (the registry)
    _Api("gamedb_format_count", [], c_size_t, None),
    _Api("gamedb_format_get_name", [c_size_t], c_char_p, _errcheck_str),
    _Api("gamedb_format_get_description", [c_size_t], c_char_p, _errcheck_str),
    _Api("gamedb_format_get_capabilities", [c_size_t], c_uint32, None),
    _Api("gamedb_format_get_charset", [c_size_t], c_char_p, _errcheck_str),
    _Api("gamedb_format_get_extension", [c_size_t, c_size_t, POINTER(c_uint32)], c_char_p,
         _errcheck_str),
    _Api("gamedb_format_get_option",
         [c_size_t, c_size_t, POINTER(c_char_p), POINTER(c_char_p)], c_char_p, _errcheck_str),
    # reader
    _Api("gamedb_reader_new", [], ReaderP, _errcheck_new),
    _Api("gamedb_reader_free", [ReaderP], None, None),
    _Api("gamedb_reader_support_format_all", [ReaderP], c_int32, _errcheck_reader),
    _Api("gamedb_reader_support_format_scid", [ReaderP], c_int32, _errcheck_reader),
    _Api("gamedb_reader_support_format_chessbase", [ReaderP], c_int32, _errcheck_reader),
    _Api("gamedb_reader_support_format_xqf", [ReaderP], c_int32, _errcheck_reader),
    _Api("gamedb_reader_support_format", [ReaderP, c_char_p], c_int32, _errcheck_reader),
    _Api("gamedb_reader_set_format", [ReaderP, c_char_p], c_int32, _errcheck_reader),
    _Api("gamedb_reader_set_option", [ReaderP, c_char_p, c_char_p, c_char_p], c_int32,
         _errcheck_reader),
    _Api("gamedb_reader_set_converter", [ReaderP, TEXT_CONVERTER_FN, c_void_p], c_int32,
         _errcheck_reader),
    _Api("gamedb_reader_set_progress", [ReaderP, PROGRESS_FN, c_void_p], c_int32,
         _errcheck_reader),
    _Api("gamedb_reader_open_filename", [ReaderP, c_char_p], c_int32, _errcheck_reader),
    _Api("gamedb_reader_open_memory", [ReaderP, c_char_p, c_void_p, c_size_t], c_int32,
         _errcheck_reader),
    _Api("gamedb_reader_open_memory_set",
         [ReaderP, POINTER(c_char_p), POINTER(c_void_p), POINTER(c_size_t), c_size_t],
         c_int32, _errcheck_reader),
    _Api("gamedb_io_init", [POINTER(Io), c_size_t], c_int32, _errcheck_status),
    _Api("gamedb_reader_open_io", [ReaderP, POINTER(Io), c_char_p, c_void_p], c_int32,
         _errcheck_reader),
    _Api("gamedb_reader_open_shared", [ReaderP, ReaderP], c_int32, _errcheck_reader),
    _Api("gamedb_reader_next_game", [ReaderP, POINTER(GameP)], c_int32, _errcheck_reader),
    _Api("gamedb_reader_seek_game", [ReaderP, c_uint64], c_int32, _errcheck_reader),
    _Api("gamedb_reader_game_count", [ReaderP, POINTER(c_uint64)], c_int32,
         _errcheck_reader),
    _Api("gamedb_reader_capabilities", [ReaderP], c_uint32, None),
    _Api("gamedb_reader_format", [ReaderP], c_char_p, _errcheck_str),
    _Api("gamedb_reader_uses_file", [ReaderP, c_char_p], c_int32, None),
    _Api("gamedb_reader_errmsg", [ReaderP], c_char_p, _errcheck_str),
    _Api("gamedb_reader_errcode", [ReaderP], c_int32, None),
    _Api("gamedb_reader_get_os_error", [ReaderP], c_int32, None),
    _Api("gamedb_reader_get_property_count", [ReaderP], c_int32, None),
    _Api("gamedb_reader_get_property_name", [ReaderP, c_int32], c_char_p, _errcheck_str),
    _Api("gamedb_reader_get_property_value", [ReaderP, c_int32], c_char_p, _errcheck_str),
    _Api("gamedb_reader_get_property", [ReaderP, c_char_p], c_char_p, _errcheck_str),
    # game
    _Api("gamedb_game_get_index", [GameP], c_uint64, None),
    _Api("gamedb_game_get_tag_count", [GameP], c_size_t, None),
    _Api("gamedb_game_get_tag_at", [GameP, c_size_t, POINTER(c_char_p), POINTER(c_char_p)],
         c_int32, _errcheck_status),
    _Api("gamedb_game_get_tag", [GameP, c_char_p], c_char_p, _errcheck_str),
    # The raw bytes may hold NULs: returned as an address, read with ctypes.string_at().
    _Api("gamedb_game_get_tag_raw", [GameP, c_char_p, POINTER(c_size_t), POINTER(c_char_p)],
         c_void_p, None),
    _Api("gamedb_game_get_fen", [GameP], c_char_p, _errcheck_str),
    _Api("gamedb_game_get_final_fen", [GameP], c_char_p, None),
    _Api("gamedb_game_get_start_key", [GameP, POINTER(c_uint64)], c_int32, _errcheck_game),
    _Api("gamedb_game_get_variant", [GameP], c_int32, None),
    _Api("gamedb_game_is_deleted", [GameP], c_int32, None),
    _Api("gamedb_game_get_status", [GameP], c_int32, None),
    _Api("gamedb_game_errmsg", [GameP], c_char_p, _errcheck_str),
    _Api("gamedb_game_dup", [GameP, POINTER(GameP)], c_int32, _errcheck_game),
    _Api("gamedb_game_free", [GameP], None, None),
    # move iterator and events
    _Api("gamedb_move_iter_new", [GameP, c_uint32, POINTER(MoveIterP)], c_int32,
         _errcheck_game),
    _Api("gamedb_move_iter_next", [MoveIterP, POINTER(EventP)], c_int32, _errcheck_status),
    _Api("gamedb_move_iter_free", [MoveIterP], None, None),
    _Api("gamedb_event_get_type", [EventP], c_int32, None),
    _Api("gamedb_event_get_move",
         [EventP, POINTER(c_int32), POINTER(c_int32), POINTER(c_int32)], c_int32, None),
    _Api("gamedb_event_get_piece", [EventP], c_int32, None),
    _Api("gamedb_event_get_san", [EventP], c_char_p, _errcheck_str),
    _Api("gamedb_event_get_uci", [EventP], c_char_p, _errcheck_str),
    _Api("gamedb_event_get_fen", [EventP], c_char_p, _errcheck_str),
    _Api("gamedb_event_get_key", [EventP, POINTER(c_uint64)], c_int32, None),
    _Api("gamedb_event_get_move_number", [EventP, POINTER(c_int32)], c_int32, None),
    _Api("gamedb_event_get_depth", [EventP], c_int32, None),
    _Api("gamedb_event_get_text", [EventP], c_char_p, _errcheck_str),
    # Stored bytes before conversion: returned as an address, read with ctypes.string_at().
    _Api("gamedb_event_get_text_raw", [EventP, POINTER(c_size_t)], c_void_p, None),
    _Api("gamedb_event_get_text_n", [EventP, POINTER(c_size_t)], c_void_p, None),
    _Api("gamedb_event_get_nag", [EventP], c_int32, None),
    _Api("gamedb_event_get_notation", [EventP, c_int32], c_char_p, _errcheck_str),
    _Api("gamedb_event_get_language", [EventP], c_char_p, _errcheck_str),
    _Api("gamedb_event_get_annotation_type", [EventP], c_int32, None),
    # writers
    _Api("gamedb_game_write_pgn", [GameP, c_uint32, WRITE_FN, c_void_p], c_int32,
         _errcheck_game),
    _Api("gamedb_game_write_positions", [GameP, c_int32, c_uint32, WRITE_FN, c_void_p], c_int32,
         _errcheck_game),
    _Api("gamedb_book_new", [POINTER(BookP)], c_int32, _errcheck_status),
    _Api("gamedb_book_set_option", [BookP, c_char_p, c_char_p], c_int32, _errcheck_book),
    _Api("gamedb_book_set_progress", [BookP, PROGRESS_FN, c_void_p], c_int32, _errcheck_book),
    _Api("gamedb_book_add_game", [BookP, GameP], c_int32, _errcheck_book),
    _Api("gamedb_book_write", [BookP, WRITE_FN, c_void_p], c_int32, _errcheck_book),
    _Api("gamedb_book_errmsg", [BookP], c_char_p, _errcheck_str),
    _Api("gamedb_book_free", [BookP], None, None),
    # opening books read (1.2); statuses are read by _openbook, not raised here
    _Api("gamedb_book_reader_new", [POINTER(BookReaderP)], c_int32, None),
    _Api("gamedb_book_reader_open_filename", [BookReaderP, c_char_p], c_int32, None),
    _Api("gamedb_book_reader_get_format", [BookReaderP], c_char_p, _errcheck_str),
    _Api("gamedb_book_reader_probe", [BookReaderP, c_char_p], c_int32, None),
    _Api("gamedb_book_reader_walk", [BookReaderP, c_int32], c_int32, None),
    _Api("gamedb_book_reader_next_position", [BookReaderP], c_int32, None),
    _Api("gamedb_book_reader_get_fen", [BookReaderP], c_char_p, _errcheck_str),
    _Api("gamedb_book_reader_get_ply", [BookReaderP], c_int32, None),
    _Api("gamedb_book_reader_move_count", [BookReaderP], c_int32, None),
    _Api("gamedb_book_reader_move_get_uci", [BookReaderP, c_int32], c_char_p, _errcheck_str),
    _Api("gamedb_book_reader_move_get_san", [BookReaderP, c_int32], c_char_p, _errcheck_str),
    _Api("gamedb_book_reader_stat_name", [BookReaderP, c_int32], c_char_p, _errcheck_str),
    _Api("gamedb_book_reader_move_get_stat", [BookReaderP, c_int32, c_char_p, POINTER(c_int64)],
         c_int32, None),
    _Api("gamedb_book_reader_position_stat_name", [BookReaderP, c_int32], c_char_p,
         _errcheck_str),
    _Api("gamedb_book_reader_get_stat", [BookReaderP, c_char_p, POINTER(c_int64)], c_int32,
         None),
    _Api("gamedb_book_reader_write_polyglot", [BookReaderP, WRITE_FN, c_void_p], c_int32, None),
    _Api("gamedb_book_reader_errmsg", [BookReaderP], c_char_p, _errcheck_str),
    _Api("gamedb_book_reader_free", [BookReaderP], None, None),
    _Api("gamedb_game_write_json", [GameP, c_uint32, WRITE_FN, c_void_p], c_int32,
         _errcheck_game),
    # The status is checked by the caller (_packed.write()): no errcheck hook per game.
    _Api("gamedb_game_write_packed", [GameP, c_uint32, c_void_p, c_size_t, POINTER(c_size_t)],
         c_int32, None),
    # SCID
    _Api("gamedb_reader_get_scid", [ReaderP], ScidP, None),
    _Api("gamedb_scid_get_version", [ScidP], c_int32, None),
    _Api("gamedb_scid_get_description", [ScidP], c_char_p, _errcheck_str),
    _Api("gamedb_scid_get_base_type", [ScidP], c_int32, None),
    _Api("gamedb_scid_get_flag_name", [ScidP, c_int32], c_char_p, _errcheck_str),
    _Api("gamedb_scid_get_autoload", [ScidP], c_int64, None),
    _Api("gamedb_scid_get_game_flags", [ScidP, GameP], c_uint32, None),
    # ChessBase
    _Api("gamedb_reader_get_chessassistant", [ReaderP], ChessAssistantP, None),
    _Api("gamedb_chessassistant_get_game_field", [ChessAssistantP, GameP, c_int32], c_int64,
         None),
    _Api("gamedb_chessassistant_get_comment", [ChessAssistantP], c_char_p, _errcheck_str),
    # style 12 live lines and sessions (statuses checked by the Pythonic layer)
    _Api("gamedb_style12_line_new", [], Style12LineP, _errcheck_new),
    _Api("gamedb_style12_line_parse", [Style12LineP, c_char_p, c_size_t], c_int32, None),
    _Api("gamedb_style12_line_get_kind", [Style12LineP], c_int32, None),
    _Api("gamedb_style12_line_errmsg", [Style12LineP], c_char_p, _errcheck_str),
    _Api("gamedb_style12_line_get_fen", [Style12LineP], c_char_p, _errcheck_str),
    _Api("gamedb_style12_line_get_int", [Style12LineP, c_int32, POINTER(c_int64)], c_int32, None),
    _Api("gamedb_style12_line_get_text", [Style12LineP, c_int32], c_char_p, _errcheck_str),
    _Api("gamedb_style12_line_set_holdings", [Style12LineP, Style12LineP], c_int32, None),
    _Api("gamedb_style12_line_free", [Style12LineP], None, None),
    _Api("gamedb_style12_session_new", [c_char_p], Style12SessionP, _errcheck_new),
    _Api("gamedb_style12_session_feed", [Style12SessionP, c_char_p, c_size_t], c_int32, None),
    _Api("gamedb_style12_session_end", [Style12SessionP], c_int32, None),
    _Api("gamedb_style12_session_next_game", [Style12SessionP, POINTER(GameP)], c_int32, None),
    _Api("gamedb_style12_session_get_live_count", [Style12SessionP], c_size_t, None),
    _Api("gamedb_style12_session_peek_game", [Style12SessionP, c_size_t, POINTER(GameP)],
         c_int32, None),
    _Api("gamedb_style12_session_errmsg", [Style12SessionP], c_char_p, _errcheck_str),
    _Api("gamedb_style12_session_free", [Style12SessionP], None, None),
    # search and the opening tree (statuses checked by the Pythonic layer, _query.py)
    _Api("gamedb_query_new", [POINTER(QueryP)], c_int32, _errcheck_status),
    _Api("gamedb_query_set_position", [QueryP, c_char_p, c_char_p], c_int32, None),
    _Api("gamedb_query_add_where", [QueryP, c_char_p], c_int32, None),
    _Api("gamedb_query_match", [QueryP, GameP], c_int32, None),
    _Api("gamedb_query_next", [QueryP, ReaderP, POINTER(GameP)], c_int32, None),
    _Api("gamedb_query_get_ply", [QueryP], c_int32, None),
    _Api("gamedb_query_errmsg", [QueryP], c_char_p, _errcheck_str),
    _Api("gamedb_query_free", [QueryP], None, None),
    _Api("gamedb_query_tree", [QueryP, ReaderP, POINTER(TreeP), POINTER(c_uint64)], c_int32,
         None),
    _Api("gamedb_tree_new", [POINTER(TreeP)], c_int32, _errcheck_status),
    _Api("gamedb_tree_add_game", [TreeP, QueryP, GameP], c_int32, None),
    _Api("gamedb_tree_merge", [TreeP, TreeP], c_int32, _errcheck_status),
    _Api("gamedb_tree_get_count", [TreeP], c_size_t, None),
    _Api("gamedb_tree_get_san", [TreeP, c_size_t], c_char_p, _errcheck_str),
    _Api("gamedb_tree_get_uci", [TreeP, c_size_t], c_char_p, _errcheck_str),
    _Api("gamedb_tree_get_stat", [TreeP, c_size_t, c_int32], c_int64, None),
    _Api("gamedb_tree_free", [TreeP], None, None),
    # the position index (issue 30)
    _Api("gamedb_index_writer_new", [POINTER(IndexWriterP)], c_int32, _errcheck_status),
    _Api("gamedb_index_writer_add_game", [IndexWriterP, ReaderP, GameP], c_int32, None),
    _Api("gamedb_index_writer_end_base", [IndexWriterP, ReaderP], c_int32, None),
    _Api("gamedb_index_writer_write", [IndexWriterP, WRITE_FN, c_void_p], c_int32, None),
    _Api("gamedb_index_writer_errmsg", [IndexWriterP], c_char_p, _errcheck_str),
    _Api("gamedb_index_writer_free", [IndexWriterP], None, None),
    _Api("gamedb_index_open", [POINTER(IndexP), c_char_p], c_int32, None),
    _Api("gamedb_index_open_memory", [POINTER(IndexP), c_void_p, c_size_t], c_int32, None),
    _Api("gamedb_index_errmsg", [IndexP], c_char_p, _errcheck_str),
    _Api("gamedb_index_get_count", [IndexP, c_int32], c_uint64, None),
    _Api("gamedb_index_free", [IndexP], None, None),
    _Api("gamedb_query_set_index", [QueryP, IndexP, ReaderP], c_int32, None),
    _Api("gamedb_query_next_hit", [QueryP, POINTER(c_uint64), POINTER(c_uint32)], c_int32, None),
    _Api("gamedb_tree_add_hit", [TreeP, QueryP], c_int32, None),
    _Api("gamedb_reader_get_chessbase", [ReaderP], ChessbaseP, None),
    _Api("gamedb_chessbase_get_game_field", [ChessbaseP, GameP, c_int32], c_int64, None),
    _Api("gamedb_chessbase_get_charset", [ChessbaseP], c_char_p, _errcheck_str),
    _Api("gamedb_chessbase_get_text_count", [ChessbaseP], c_uint64, None),
    _Api("gamedb_chessbase_load_text", [ChessbaseP, c_uint64], c_int32, None),
    _Api("gamedb_chessbase_get_text_title_count", [ChessbaseP], c_int32, None),
    _Api("gamedb_chessbase_get_text_title", [ChessbaseP, c_int32, POINTER(c_char_p)],
         c_char_p, _errcheck_str),
    _Api("gamedb_chessbase_get_text_content",
         [ChessbaseP, POINTER(c_int32), POINTER(c_size_t)], c_char_p, _errcheck_str),
)


# ---- loading -----------------------------------------------------------------------------

def _installed() -> List[Tuple[str, str]]:
    """The library `meson install` put beside this package, from gamedb/_paths.py (written
    by the install only): first the library's folder taken relative to where the package is
    now (a prefix moved, or installed with --destdir), then the folder as installed."""
    try:
        from . import _paths  # type: ignore[attr-defined]
    except ImportError:
        return []  # the source tree, or a pip install: the loader's search path only
    here = os.path.dirname(os.path.abspath(__file__))
    libdir = str(_paths.LIBDIR)
    folders = [libdir]
    try:
        folders.insert(0, os.path.join(here, os.path.relpath(libdir, str(_paths.PACKAGE_DIR))))
    except ValueError:
        pass  # Windows: the library and the package on different drives
    found: List[Tuple[str, str]] = []
    for folder in folders:
        path = os.path.normpath(os.path.join(folder, SONAME))
        if os.path.isfile(path) and path not in (w for _, w in found):
            found.append(("installed with the package", path))
    return found


def _candidates() -> List[Tuple[str, str]]:
    """Where to look for the library, in order, as (how, what) pairs."""
    env = os.environ.get("GAMEDB_LIBRARY")
    if env:
        # An explicit choice is the only candidate: falling back would hide a broken setup.
        return [("GAMEDB_LIBRARY", env)]
    found = _installed()
    found.append(("soname", SONAME))
    if os.name == "nt":
        # Python 3.8+ no longer loads DLLs from PATH by name; look there for gamedb-1.dll.
        for folder in os.environ.get("PATH", "").split(os.pathsep):
            path = os.path.join(folder, SONAME)
            if folder and os.path.isfile(path):
                found.append(("PATH", path))
    name = ctypes.util.find_library("gamedb")
    if name:
        found.append(("find_library", name))
    return found


def _load() -> ctypes.CDLL:
    errors: List[str] = []
    for how, what in _candidates():
        try:
            return ctypes.CDLL(what)
        except OSError as e:
            errors.append("%s %s: %s" % (how, what, e))
    raise ImportError("gamedb: cannot load libgamedb (" + "; ".join(errors) +
                      "); set GAMEDB_LIBRARY to the path of " + SONAME)


def _bind(cdll: ctypes.CDLL) -> Any:
    for api in API:
        try:
            fn = getattr(cdll, api.name)
        except AttributeError:
            raise ImportError("gamedb: %s has no symbol %s" % (cdll._name, api.name)) from None
        fn.argtypes = api.argtypes
        fn.restype = api.restype
        if api.errcheck is not None:
            fn.errcheck = api.errcheck
    return cdll


#: The loaded library, its functions typed by API (ctypes: their results are Any).
lib: Any = _bind(_load())



def _unchecked(name: str, restype: Any) -> Any:
    """A second handle on the function ``name`` (the table's entry is unchanged), with its
    restype and no argtypes: ctypes then converts no argument (the conversions of the declared
    argtypes cost as much as the call itself), and the caller passes only ctypes objects of the
    declared types, or Python ints where the parameter is a 32-bit int. No errcheck hook: the
    caller checks the status. For the calls made once per game on the path of a walk of a base
    (Reader.__next__, Game.moves()); bench/python-walk.py measures them."""
    fn = lib[name]  # indexing gives a new function object: the table's keeps its argtypes
    fn.restype = restype
    return fn


#: (reader, byref(GameP))
next_game_unchecked = _unchecked("gamedb_reader_next_game", c_int32)
#: (game, flags as an int, buffer, capacity as a c_size_t, byref(c_size_t))
write_packed_unchecked = _unchecked("gamedb_game_write_packed", c_int32)
#: (reader)
reader_errcode_unchecked = _unchecked("gamedb_reader_errcode", c_int32)
#: (game)
game_get_status_unchecked = _unchecked("gamedb_game_get_status", c_int32)

_version = lib.gamedb_version_number()
if _version < REQUIRED_VERSION:
    raise ImportError("gamedb: %s is version %d, this binding needs %d or later" %
                      (lib._name, _version, REQUIRED_VERSION))
