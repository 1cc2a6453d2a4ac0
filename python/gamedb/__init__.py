# libgamedb - the Pythonic layer of the ctypes binding.
#
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Read legacy chess game databases with libgamedb.

::

    import gamedb

    with gamedb.open("base.si4") as r:
        print(r.format, r.game_count)
        for game in r:
            print(game.index, game.tags["White"], "-", game.tags["Black"])
            for ev in game.moves(comments=False):
                if ev.type == "move":
                    print(ev.move_number, ev.colour, ev.san, ev.uci)

Lifetimes (how the binding maps the C ownership rules):

- A :class:`Game` is a snapshot: its index, tags, start FEN, variant and deleted mark are
  copied when the reader hands the game out. The game the C reader hands out is borrowed and
  reused by the next ``next_game``; the moves stay in the database until they are asked for.
  The first call of :meth:`Game.moves`, :meth:`Game.pgn` or :meth:`Game.json` gives the game
  its own copy (``gamedb_game_dup()``, which decodes the moves). While the reader is still on
  that game the copy is taken from it directly; after the iteration has moved on the reader
  seeks back to the game, copies it and returns to where it was (formats that can seek:
  SCID). When the reader is closed, every :class:`Game` object still alive gets its copy
  first, so games stay fully usable after the reader is closed. Listing headers therefore
  never decodes a move, and a game kept around costs nothing until its moves are asked for.
- A :class:`MoveIterator` holds its game, and a game holds its reader until it has its own
  copy (Python references), so neither goes away under them. :meth:`Game.close` frees the
  game's copy, but a move iterator made before it keeps working to its end: the copy is freed
  when the last iterator on it is done (deferred, not refused). After ``close()`` the game's
  own ``moves()``, ``pgn()``, ``json()`` and ``tag_raw()`` raise :class:`GamedbError`
  (``E_MISUSE``); its headers stay.
- An :class:`Event` is a snapshot too: every field is copied while the C event is valid.
- All strings are copied out of the library and decoded as UTF-8 at once.
- Memory given to :func:`open_memory` and objects given to :func:`open_io` are kept alive by
  the reader until it is closed.

Threads. The C library forbids using one handle from two threads at once; the binding makes
that safe instead of undefined. A :class:`Reader` and a :class:`Game` each carry a lock (a
:class:`threading.RLock`), and a :class:`MoveIterator` uses its game's (in C an iterator is
part of its game); every call into the library on an object runs under its lock. No thread
waits for a reader's lock while it holds a game's or the other way round, and finalisers never
wait for one, so they cannot deadlock. So:

- two threads iterating one reader share its games between them, each game whole and right
  (which thread gets which game is up to the scheduler); ``r[i]`` seeks and reads as one step;
- :meth:`Reader.close` from one thread while another reads games, or copies one for its
  moves, waits for the call in progress (close is deferred until that user is done); what the
  other thread then asks of the reader raises :class:`GamedbError` with ``detail`` ``E_MISUSE``
  and the message "the reader is closed". Games it already has keep working (close gives them
  their copy first);
- :meth:`Game.close` from one thread while another iterates the game's moves lets that
  iteration finish (see above); two threads may read one game, or take events from one move
  iterator (each event whole, in order, every event once between them);
- a converter or I/O callback runs inside a call on its reader: calling the reader from there
  raises :class:`GamedbError` (``E_MISUSE``), and ``close()`` from there happens when that
  call returns.

Formats: :func:`formats` lists the formats the library reads (name, description, file
extensions, capabilities, default charset, options), from the library's own registry.

Errors: a failing call raises :class:`GamedbError` with ``code`` (the status), ``detail`` (the
reader's detail code, e.g. ``E_IO``) and ``message`` (the library's message, which names the
file). The end of an iteration is ``StopIteration``.

The loss ledger: no game is lost without a word. A game the library cannot hand out raises
:class:`GameFailed` (a :class:`GamedbError` with ``index``, ``number`` and ``file``) from the
iteration, which then goes on with the next game on the next ``next()``; a game whose moves
cannot be decoded raises it from :meth:`Game.moves`, :meth:`Game.pgn` and :meth:`Game.json`.
A game delivered with a loss (a name replaced, a text converted with loss, a repaired record)
has the message in :attr:`Game.warning` (set when the game is read, or when its moves are first
decoded). ``Reader.ledger`` counts the games delivered, failed and warned::

    with gamedb.open("base.si4") as r:
        while True:
            try:
                game = next(r)
                text = game.pgn()
            except StopIteration:
                break
            except gamedb.GameFailed as e:
                print("game %d of %s: %s" % (e.number, e.file, e.message))
                continue
            ...
        print(r.ledger)   # Ledger(delivered=926, failed=2, warned=1); 926 + 2 == r.game_count

Arguments are checked before they reach C: a string with a NUL in it raises ValueError
("embedded null byte"), an integer out of its C type's range OverflowError (``r[i]``:
IndexError, and negative indexes count from the end), an argument that is no integer TypeError.
"""

import ctypes
import io as _io
import os
import threading
import weakref
from typing import Any, Callable, Dict, Mapping, Optional, Tuple, Union
from ctypes import byref, c_char_p, c_size_t, c_void_p

from . import _ffi
from ._ffi import (E_CORRUPT, E_INVALID_ARGUMENT, E_IO, E_MISUSE, E_NOMEM, E_NONE, E_RANGE,
                   E_STRUCT_SIZE, E_UNKNOWN_OPTION, E_UNRECOGNIZED_FORMAT, E_UNSUPPORTED,
                   E_UNSUPPORTED_VERSION, E_ENCODING, E_ILLEGAL_MOVE, END, FAILED, FATAL, OK,
                   WARN, GamedbError, GamedbIOError)
from ._ffi import CAP_COUNT, CAP_MULTIFILE, CAP_SEEK, CAP_VARIATIONS, CAP_XIANGQI
from ._errors import GamedbWarning, _enc
from ._ledger import GameFailed, Ledger
from ._formats import (version, version_number, Format, FormatOption, formats, ScidInfo,
                       ChessbaseInfo)
from ._formats import CHESSASSISTANT_FIELDS as CHESSASSISTANT_FIELDS
from ._formats import CHESSBASE_FIELDS as CHESSBASE_FIELDS
from ._game import (PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING, ADVISOR, ELEPHANT, CANNON,
                    square_name, Event, MoveIterator, Game)
from ._game import PIECE_SYMBOLS as PIECE_SYMBOLS
from ._reader import Reader, open
from ._reader import PathType as PathType
from ._reader import Converter as Converter
from ._style12 import Style12Line, Style12Session
from ._book import book

__all__ = [
    "open", "open_memory", "open_io", "book", "version", "version_number", "formats",
    "Format", "FormatOption",
    "CAP_SEEK", "CAP_COUNT", "CAP_MULTIFILE", "CAP_VARIATIONS", "CAP_XIANGQI",
    "Reader", "Game", "Event", "MoveIterator", "ScidInfo", "ChessbaseInfo",
    "Style12Line", "Style12Session",
    "GamedbError", "GamedbIOError", "GamedbWarning", "GameFailed", "Ledger",
    "OK", "END", "WARN", "FAILED", "FATAL",
    "E_NONE", "E_NOMEM", "E_IO", "E_UNRECOGNIZED_FORMAT", "E_CORRUPT",
    "E_UNSUPPORTED_VERSION", "E_ENCODING", "E_MISUSE", "E_RANGE", "E_STRUCT_SIZE",
    "E_UNSUPPORTED", "E_ILLEGAL_MOVE", "E_INVALID_ARGUMENT", "E_UNKNOWN_OPTION",
    "PAWN", "KNIGHT", "BISHOP", "ROOK", "QUEEN", "KING", "ADVISOR", "ELEPHANT", "CANNON",
    "square_name",
]

__version__ = "1.1.0"

_lib = _ffi.lib
_RLock = threading.RLock

def open_memory(files: Mapping[str, Union[bytes, bytearray, memoryview]],
                primary: Optional[str] = None, **kwargs: Any) -> Reader:
    """Opens a database held in memory.

    files: {name: bytes} with every file of the database ("base.si4", "base.sn4",
    "base.sg4"); siblings are found by name. primary: the name the database is opened by
    (default: the first name). The bytes are not copied; the reader keeps them alive.
    Other keyword arguments are those of :func:`open`.
    """
    if not files:
        raise ValueError("open_memory: no files given")
    items = [(name, data if isinstance(data, bytes) else bytes(data))
             for name, data in files.items()]
    if primary is None:
        primary = items[0][0]
    items.sort(key=lambda item: item[0] != primary)  # the primary file first
    if items[0][0] != primary:
        raise KeyError(primary)
    n = len(items)
    names = (c_char_p * n)(*[_enc(name, "a file name") for name, _ in items])
    buffers = [c_char_p(data) for _, data in items]  # point into the bytes, no copy
    datas = (c_void_p * n)(*[ctypes.cast(b, c_void_p).value for b in buffers])
    sizes = (c_size_t * n)(*[len(data) for _, data in items])
    r = Reader(**kwargs)
    r._name = primary
    r._keep.extend([items, names, buffers, datas, sizes])
    return r._opening(_lib.gamedb_reader_open_memory_set, names, datas, sizes, n)


class _IoFiles:
    """The Python side of struct gamedb_io: handles are small integers."""

    def __init__(self, reader: Reader, source: Any) -> None:
        self.reader = weakref.ref(reader)  # the reader keeps this object, not the reverse
        self.source = source
        self.handles: Dict[int, Tuple[Any, Any]] = {}
        self.next_handle = 1
        io = _ffi.Io()
        _lib.gamedb_io_init(byref(io), ctypes.sizeof(io))
        io.open = _ffi.IO_OPEN_FN(self._open)
        io.read_at = _ffi.IO_READ_AT_FN(self._read_at)
        io.close = _ffi.IO_CLOSE_FN(self._close)
        self.io = io

    def _failed(self, e: BaseException) -> None:
        reader = self.reader()
        if reader is not None:
            reader._callback_error = e

    def _lookup(self, name: str) -> Tuple[Any, bool]:
        """(object, owned) for a file name, or (None, False)."""
        src = self.source
        if callable(src):
            obj = src(name)
            return obj, not isinstance(obj, (bytes, bytearray, memoryview))
        if name in src:
            return src[name], False
        base = os.path.basename(name)
        for key, value in src.items():
            if os.path.basename(key) == base:
                return value, False
        return None, False

    def _open(self, user_data: Any, name: Optional[bytes], handle: Any, size: Any) -> int:
        try:
            obj, owned = self._lookup(_ffi._decode(name) or "")
            if obj is None:
                return 1
            if isinstance(obj, (bytes, bytearray, memoryview)):
                view = memoryview(obj).cast("B")
                length = len(view)
                entry = (view, None)
            else:
                length = obj.seek(0, _io.SEEK_END)
                entry = (obj, obj if owned else None)
            h = self.next_handle
            self.next_handle += 1
            self.handles[h] = entry
            handle[0] = h
            size[0] = length
            return 0
        except BaseException as e:
            self._failed(e)
            return 1

    def _read_at(self, user_data: Any, handle: int, offset: int, buf: Any, length: int) -> int:
        try:
            obj = self.handles[handle][0]
            if isinstance(obj, memoryview):
                data = bytes(obj[offset:offset + length])
            else:
                obj.seek(offset)
                data = obj.read(length)
            if len(data) > length:
                data = data[:length]
            ctypes.memmove(buf, data, len(data))
            return len(data)
        except BaseException as e:
            self._failed(e)
            return -1

    def _close(self, user_data: Any, handle: int) -> None:
        try:
            _, owned = self.handles.pop(handle, (None, None))
            if owned is not None:
                owned.close()
        except BaseException as e:
            self._failed(e)


def open_io(source: Union[Mapping[str, Any], Callable[[str], Any]], name: str,
            **kwargs: Any) -> Reader:
    """Opens a database through Python I/O.

    source: either a dict {name: bytes-like or binary file object} or a callable that takes
    a file name and returns bytes, a binary seekable file object (closed by the reader when
    it is done with it) or None when there is no such file. name: the file the database is
    opened by ("base.si4"); the library asks for siblings ("base.sg4") by name. Exceptions
    raised by the callable are chained to the resulting :class:`GamedbError`.
    Other keyword arguments are those of :func:`open`.
    """
    opened_by = _enc(name, "the file name")
    r = Reader(**kwargs)
    r._name = name
    files = _IoFiles(r, source)
    r._keep.append(files)
    return r._opening(_lib.gamedb_reader_open_io, byref(files.io), opened_by, None)
