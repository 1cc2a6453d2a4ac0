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

import builtins
import ctypes
import io as _io
import operator
import os
import threading
import warnings
import weakref
from typing import (Any, Callable, Dict, Iterable, List, Mapping, NoReturn, Optional, Tuple,
                    Union, overload)
from ctypes import byref, c_char_p, c_int64, c_size_t, c_uint64, c_void_p

from . import _ffi
from ._ffi import (E_CORRUPT, E_INVALID_ARGUMENT, E_IO, E_MISUSE, E_NOMEM, E_NONE, E_RANGE,
                   E_STRUCT_SIZE, E_UNKNOWN_OPTION, E_UNRECOGNIZED_FORMAT, E_UNSUPPORTED,
                   E_UNSUPPORTED_VERSION, E_ENCODING, E_ILLEGAL_MOVE, END, FAILED, FATAL, OK,
                   WARN, GamedbError, GamedbIOError)
from ._ffi import CAP_COUNT, CAP_MULTIFILE, CAP_SEEK, CAP_VARIATIONS, CAP_XIANGQI
from ._errors import GamedbWarning, _misuse, _UINT64_MAX, _enc, _int_arg, _c_unsigned
from ._ledger import GameFailed, Ledger, _Tally, _DELIVERED, _WARNED, _FAILED
from ._formats import (version, version_number, Format, FormatOption, formats, ScidInfo,
                       ChessbaseInfo)
from ._formats import CHESSASSISTANT_FIELDS as CHESSASSISTANT_FIELDS
from ._formats import CHESSBASE_FIELDS as CHESSBASE_FIELDS
from ._game import (PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING, ADVISOR, ELEPHANT, CANNON,
                    square_name, Event, MoveIterator, Game, _Closing, _Sink)
from ._game import PIECE_SYMBOLS as PIECE_SYMBOLS

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

_ERROR_POLICIES = ("raise", "warn", "skip")


#: A database as a path: what :func:`open` takes.
PathType = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]
#: The converter of :func:`open`: (charset, raw bytes) -> text, or None to let the library
#: convert.
Converter = Callable[[Optional[str], bytes], Optional[str]]


# ---- readers --------------------------------------------------------------------------

class Reader(_Closing):
    """An open database. Use :func:`open`, :func:`open_memory` or :func:`open_io`.

    Iterating gives :class:`Game` objects from the current position; ``seek(0)`` starts
    again. ``errors`` says what happens to a game the library cannot hand out: "raise" (the
    default: :class:`GameFailed`, which says which game of which file; ``next()`` then goes on
    with the following game), "warn" (skip it with a :class:`GamedbWarning`) or "skip" (skip
    it silently). A fatal error always raises :class:`GamedbError`: the reader cannot go on.
    A game delivered with a loss has it in :attr:`Game.warning`.

    ``ledger`` (a :class:`Ledger`; also ``delivered``, ``failed`` and ``warned``) counts what
    became of the games reached so far, whatever ``errors`` says: each game once, however
    often it is read, with its worst outcome (a game whose moves fail to decode when they are
    asked for counts as failed). It stays readable after :meth:`close`.

    A reader may be shared between threads: every call on it holds its lock (``_lock``, a
    :class:`threading.RLock`), so threads iterating one reader share its games between them,
    each game whole; and :meth:`close` waits for a call in progress in another thread. See the
    module documentation.
    """

    # Locking: _lock guards _ptr and every call on the C reader, the borrowed game (_current,
    # _current_ptr), _pending and the position (_pos, _at_end). Game construction from the
    # borrowed C game happens under it. _busy is set while a call that may run Python callbacks
    # (the converter, caller I/O) is in progress: such a callback runs in the thread that holds
    # the lock, so the RLock would let it in, and a call on the reader from there would run the
    # C reader inside itself. It raises instead, and close() from there is deferred
    # (_close_requested) until the call returns.

    def __init__(self, charset: Optional[str] = None, format: Optional[str] = None,
                 errors: str = "raise", converter: Optional[Converter] = None,
                 options: Optional[Mapping[str, str]] = None) -> None:
        if errors not in _ERROR_POLICIES:
            raise ValueError("errors must be one of %s" % ", ".join(_ERROR_POLICIES))
        self._ptr: Any = None
        self._lock = _RLock()
        self._busy = False
        self._close_requested = False
        self._keep: List[Any] = []  # objects the C reader points into: bytes, callbacks
        self._pending: "weakref.WeakSet[Game]" = weakref.WeakSet()  # games without a copy yet
        # weakref to the game whose borrowed C game is still valid
        self._current: Optional["weakref.ReferenceType[Game]"] = None
        self._current_ptr: Any = None
        self._pos = 0            # the index next_game would give
        self._at_end = False
        self._scid_ptr: Any = None
        self._cb_ptr: Any = None
        self._ca_ptr: Any = None
        self._callback_error: Optional[BaseException] = None
        self._name: Optional[str] = None  # the database as opened, for GameFailed.file
        self._tally = _Tally()  # the ledger; guarded by _lock
        self.errors = errors
        self.scid: Optional[ScidInfo] = None
        self.chessbase: Optional[ChessbaseInfo] = None
        self.chessassistant_comment: Optional[str] = None
        self.open_warning: Optional[str] = None
        self._ptr = _lib.gamedb_reader_new()
        if format is not None:
            _lib.gamedb_reader_set_format(self._ptr, _enc(format, "the format name"))
        else:
            _lib.gamedb_reader_support_format_all(self._ptr)
        if charset is not None:
            self.set_option("charset", charset)
        # The core's options now (the password of an encrypted archive is needed by the open
        # itself); a format's own options ("language", "charset-detect") once the format is
        # known, i.e. right after the open.
        self._late_options: List[Tuple[str, str]] = []
        for key, value in (options or {}).items():
            if key in ("charset", "fallback-charset", "password"):
                self.set_option(key, value)
            else:
                self._late_options.append((key, value))
        if converter is not None:
            self._set_converter(converter)

    # -- calls on the C reader

    def _check_alive(self) -> None:
        """Raises unless the reader may be called now; self._lock is held."""
        if not self._ptr:
            raise _misuse("the reader is closed")
        if self._busy:
            raise _misuse("the reader is in use: a callback of a call on the reader (converter, "
                          "I/O) cannot call the reader again")

    def _done(self) -> None:
        """Ends a busy stretch (self._lock is held): a close() asked for by a callback
        happens now."""
        self._busy = False
        if self._close_requested:
            self._close_locked()

    def _call(self, fn: Any, *args: Any) -> Any:
        """fn(C reader, *args) under the lock, marked busy."""
        with self._lock:
            self._check_alive()
            self._busy = True
            try:
                return fn(self._ptr, *args)
            finally:
                self._done()

    # -- opening

    def _after_open(self, rc: int) -> "Reader":
        self._check_alive()  # a callback may have closed it
        if rc == WARN:
            self.open_warning = _lib.gamedb_reader_errmsg(self._ptr)
        for key, value in self._late_options:
            self.set_option(key, value)
        self._busy = True  # ChessbaseInfo reads the base's texts
        try:
            sp = _lib.gamedb_reader_get_scid(self._ptr)
            if sp:
                self._scid_ptr = sp
                self.scid = ScidInfo(sp)
            cp = _lib.gamedb_reader_get_chessbase(self._ptr)
            if cp:
                self._cb_ptr = cp
                self.chessbase = ChessbaseInfo(cp)
            ap = _lib.gamedb_reader_get_chessassistant(self._ptr)
            if ap:
                self._ca_ptr = ap
                self.chessassistant_comment = _lib.gamedb_chessassistant_get_comment(ap)
        finally:
            self._done()
        self._check_alive()  # a callback may have closed it
        return self

    def _opening(self, call: Any, *args: Any) -> "Reader":
        with self._lock:
            try:
                rc = self._call(call, *args)
            except GamedbError as e:
                err, self._callback_error = self._callback_error, None
                self.close()
                if err is not None:
                    raise e from err
                raise
            except BaseException:
                self.close()
                raise
            try:
                return self._after_open(rc)
            except BaseException:
                self.close()
                raise

    def _set_converter(self, converter: Converter) -> None:
        me = weakref.ref(self)  # no reference cycle through the callback

        def hook(user_data: Any, charset: Optional[bytes], data: Any, in_len: int, out: Any,
                 out_cap: int, out_len: Any) -> int:
            try:
                text = converter(_ffi._decode(charset), ctypes.string_at(data, in_len))
                if text is None:
                    return 1  # decline: the library converts the text itself
                encoded = text.encode("utf-8")
                if len(encoded) > out_cap or b"\0" in encoded:
                    return 1  # too long, or a NUL that would end the C string: declined
                ctypes.memmove(out, encoded, len(encoded))
                out_len[0] = len(encoded)
                return OK
            except BaseException as e:
                reader = me()
                if reader is not None:
                    reader._callback_error = e
                return 1

        fn = _ffi.TEXT_CONVERTER_FN(hook)
        self._keep.append(fn)
        self._call(_lib.gamedb_reader_set_converter, fn, None)

    def set_option(self, key: str, value: Optional[str],
                   format: Optional[str] = None) -> int:
        """gamedb_reader_set_option(): e.g. ("charset", "CP1251"). Returns WARN when the
        key is known but not to the addressed format, else OK."""
        args = (_enc(format, "the format name"), _enc(key, "the option key"),
                _enc(value, "the option value"))
        return int(self._call(_lib.gamedb_reader_set_option, *args))

    # -- state

    @property
    def closed(self) -> bool:
        return not self._ptr

    @property
    def format(self) -> str:
        """The format name ("scid")."""
        return str(self._call(_lib.gamedb_reader_format))

    @property
    def capabilities(self) -> int:
        """The gamedb_capability bits (CAP_SEEK, CAP_COUNT, ...)."""
        return int(self._call(_lib.gamedb_reader_capabilities))

    def _count_locked(self) -> Optional[int]:
        n = c_uint64()
        try:
            _lib.gamedb_reader_game_count(self._ptr, byref(n))
        except GamedbError as e:
            if e.detail == E_UNSUPPORTED:
                return None
            raise
        return int(n.value)

    @property
    def game_count(self) -> Optional[int]:
        """The number of games (deleted ones included), or None for formats that cannot
        count without reading everything."""
        with self._lock:
            self._check_alive()
            return self._count_locked()

    def __len__(self) -> int:
        with self._lock:
            n = self.game_count
            if n is None:
                raise TypeError("this %s database cannot count its games" % self.format)
            return n

    # -- the ledger

    @property
    def ledger(self) -> Ledger:
        """What became of the games reached so far: a :class:`Ledger` (delivered, failed,
        warned); each game counted once, with its worst outcome."""
        with self._lock:
            return self._tally.ledger()

    @property
    def delivered(self) -> int:
        """The games handed out (with or without a warning) and not failed since."""
        return self.ledger.delivered

    @property
    def failed(self) -> int:
        """The games the library could not hand out, or whose moves could not be decoded."""
        return self.ledger.failed

    @property
    def warned(self) -> int:
        """The games handed out with a warning (:attr:`Game.warning`), not failed since."""
        return self.ledger.warned

    # -- iteration

    def _forget_current(self) -> None:
        self._current = None
        self._current_ptr = None

    def _read(self, policy: str) -> Game:
        """Reads the next game under an error policy; StopIteration at the end."""
        with self._lock:
            if not self._ptr or self._busy:
                self._check_alive()
            if self._at_end:
                raise StopIteration
            self._busy = True
            try:
                while True:
                    self._forget_current()
                    gp = _ffi.GameP()
                    try:
                        rc = _lib.gamedb_reader_next_game(self._ptr, byref(gp))
                    except StopIteration:
                        self._at_end = True
                        raise
                    except GamedbError as e:
                        err, self._callback_error = self._callback_error, None
                        if e.code == FAILED:
                            # Every format gives one game per call, read or not: this one was
                            # game _pos, and the next call gives the one after it.
                            index = self._pos
                            self._pos += 1
                            self._tally.mark(index, _FAILED)
                            if policy == "warn":
                                warnings.warn(GamedbWarning(e.message), stacklevel=3)
                                continue
                            if policy == "skip":
                                continue
                            raise GameFailed(e.code, e.detail, e.message, index,
                                             self._name) from err
                        if err is not None:
                            raise e from err
                        raise
                    warning = _lib.gamedb_reader_errmsg(self._ptr) if rc == WARN else None
                    game = Game(self, gp, warning)
                    self._tally.mark(game.index, _WARNED if game.warning else _DELIVERED)
                    self._pos = game.index + 1
                    self._current, self._current_ptr = weakref.ref(game), gp  # no cycle
                    self._pending.add(game)
                    return game
            finally:
                self._busy = False
                if self._close_requested:
                    self._close_locked()

    def __iter__(self) -> "Reader":
        return self

    def __next__(self) -> Game:
        return self._read(self.errors)

    def seek(self, index: int) -> None:
        """Makes the next game read be game ``index`` (0-based). An index that is no integer
        raises TypeError, a negative one or one beyond 2**64 - 1 OverflowError, one past the
        last game :class:`GamedbError` (``E_RANGE``)."""
        index = _c_unsigned(index, _UINT64_MAX, "game index")
        with self._lock:
            self._check_alive()
            self._forget_current()
            self._call(_lib.gamedb_reader_seek_game, index)
            self._pos = index
            self._at_end = False

    @overload
    def __getitem__(self, index: int) -> Game: ...

    @overload
    def __getitem__(self, index: slice) -> List[Game]: ...

    def __getitem__(self, index: Union[int, slice]) -> Union[Game, List[Game]]:
        """Game ``index``: seek, then read one game. As for a list, a negative index counts
        from the end (TypeError for a format that cannot count its games), an index out of
        range raises IndexError and one that is no integer TypeError. A game that cannot be
        read raises :class:`GameFailed`. A slice gives a list of games (``r[10:20]``,
        ``r[::100]``)."""
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        try:
            index = operator.index(index)
        except TypeError:
            raise TypeError("game indices must be integers or slices, not %s"
                            % type(index).__name__) from None
        with self._lock:  # no other thread moves the reader between the seek and the read
            if index < 0:
                count = len(self)
                if index + count < 0:
                    raise IndexError("game index %d out of range: the database has %d games"
                                     % (index, count))
                index += count
            if index > _UINT64_MAX:  # past any database; ctypes would keep its low 64 bits
                raise IndexError("game index %d out of range" % index)
            try:
                self.seek(index)
            except GamedbError as e:
                if e.detail == E_RANGE:
                    raise IndexError("game index out of range: " + e.message) from e
                raise
            try:
                return self._read("raise")
            except StopIteration:
                raise IndexError("game index out of range") from None

    def _materialize(self, game: Game) -> None:
        """Gives ``game`` its own C copy, going back for it if the reader moved on. Called
        without the game's lock."""
        with self._lock:
            if game._ptr:
                return  # another thread gave it one while we waited for the lock
            if game._closed:
                raise game._lost or _misuse("game %d: the game was closed" % (game.index + 1))
            if not self._ptr:
                raise game._lost or _misuse("game %d: the reader is closed" % (game.index + 1))
            if self._busy:
                self._check_alive()
            self._busy = True
            try:
                self._materialize_locked(game)
            finally:
                self._busy = False
                if self._close_requested:
                    self._close_locked()

    def _materialize_locked(self, game: Game) -> None:
        if self._current is not None and self._current() is game:
            game._adopt(self._current_ptr)
            self._pending.discard(game)
            return
        if not _lib.gamedb_reader_capabilities(self._ptr) & _ffi.CAP_SEEK:
            raise GamedbError(FAILED, E_UNSUPPORTED,
                              "game %d: the %s format cannot go back to a game the reader "
                              "has passed; call game.detach() before reading on"
                              % (game.index + 1, _lib.gamedb_reader_format(self._ptr)))
        saved, at_end = self._pos, self._at_end
        self._forget_current()
        _lib.gamedb_reader_seek_game(self._ptr, game.index)
        gp = _ffi.GameP()
        try:
            _lib.gamedb_reader_next_game(self._ptr, byref(gp))
            game._adopt(gp)
            self._pending.discard(game)
        finally:
            self._forget_current()
            self._pos, self._at_end = saved, at_end
            count = self._count_locked()
            if not at_end and count is not None and saved < count:
                _lib.gamedb_reader_seek_game(self._ptr, saved)
            else:
                self._at_end = True

    # -- closing

    def close(self) -> None:
        """Closes the database. Games still alive get their own copy first.

        A call on the reader in progress in another thread (reading a game, copying one for
        its moves) is waited for; what that thread asks of the reader afterwards raises
        :class:`GamedbError` (E_MISUSE, "the reader is closed"). Called from a converter or I/O
        callback, inside a call on this reader, the close happens when that call returns.
        """
        with self._lock:
            if self._busy:
                self._close_requested = True
                return
            self._close_locked()

    def _close_locked(self) -> None:
        self._close_requested = False
        if not self._ptr:
            return
        self._busy = True  # copies decode moves: callbacks may run
        try:
            for game in sorted(self._pending, key=lambda g: g.index):
                if game._ptr or game._closed:
                    continue
                try:
                    self._materialize_locked(game)
                except GamedbError as e:
                    game._reader = None
                    game._lost = e
        finally:
            self._busy = False
            self._close_requested = False
            ptr, self._ptr = self._ptr, None
            self._forget_current()
            self._pending = weakref.WeakSet()
            self._scid_ptr = None
            self._cb_ptr = None
            self._ca_ptr = None
            _lib.gamedb_reader_free(ptr)
            self._keep = []

    def __repr__(self) -> str:
        with self._lock:
            if not self._ptr:
                return "<gamedb.Reader closed>"
            return "<gamedb.Reader %s>" % _lib.gamedb_reader_format(self._ptr)


# ---- style 12: live lines and sessions ----------------------------------------------------

_S12_INTS: Dict[str, int] = {
    "side_to_move": 1, "game_number": 2, "relation": 3, "base_minutes": 4,
    "increment_seconds": 5, "white_clock_ms": 6, "black_clock_ms": 7, "move_number": 8,
    "flip": 9, "time_taken_ms": 10, "halfmove_clock": 11, "double_push_file": 12,
    "white_material": 13, "black_material": 14, "clocks_in_ms": 15, "castling": 16, "ply": 17,
}
_S12_TEXTS: Dict[str, int] = {
    "white": 1, "black": 2, "move_verbose": 3, "move_san": 4, "move_uci": 5, "time_taken": 6,
    "white_holdings": 7, "black_holdings": 8, "passed": 9,
}


class Style12Line:
    """One ``<12>`` (board) or ``<b1>`` (holdings) line of FICS/ICC output, parsed.

    ``Style12Line(text)`` raises :class:`GamedbError` (``FAILED``) when the text is not such a
    line or a field is missing or bad; its message names the field ("field 25 (white's clock)
    is missing: ..."). Attributes: ``kind`` ("board" or "holdings"), ``fen`` (boards), the
    integer fields ``side_to_move`` (0 White, 1 Black), ``game_number``, ``relation``,
    ``base_minutes``, ``increment_seconds``, ``white_clock_ms``, ``black_clock_ms``,
    ``move_number``, ``flip``, ``time_taken_ms``, ``halfmove_clock``, ``double_push_file``,
    ``white_material``, ``black_material``, ``clocks_in_ms``, ``castling``, ``ply``, and the
    texts ``white``, ``black``, ``move_verbose``, ``move_san``, ``move_uci``, ``time_taken``,
    ``white_holdings``, ``black_holdings``, ``passed``; a field the line has not is None.
    """

    kind: str
    fen: Optional[str]
    side_to_move: Optional[int]
    game_number: Optional[int]
    relation: Optional[int]
    base_minutes: Optional[int]
    increment_seconds: Optional[int]
    white_clock_ms: Optional[int]
    black_clock_ms: Optional[int]
    move_number: Optional[int]
    flip: Optional[int]
    time_taken_ms: Optional[int]
    halfmove_clock: Optional[int]
    double_push_file: Optional[int]
    white_material: Optional[int]
    black_material: Optional[int]
    clocks_in_ms: Optional[int]
    castling: Optional[int]
    ply: Optional[int]
    white: Optional[str]
    black: Optional[str]
    move_verbose: Optional[str]
    move_san: Optional[str]
    move_uci: Optional[str]
    time_taken: Optional[str]
    white_holdings: Optional[str]
    black_holdings: Optional[str]
    passed: Optional[str]

    def __init__(self, text: Union[str, bytes]) -> None:
        data = text.encode("utf-8") if isinstance(text, str) else bytes(text)
        self._ptr = _lib.gamedb_style12_line_new()
        rc = _lib.gamedb_style12_line_parse(self._ptr, data, len(data))
        if rc != OK:
            msg = _lib.gamedb_style12_line_errmsg(self._ptr)
            self.close()
            raise GamedbError(rc, E_CORRUPT, msg)
        self._snapshot()

    def _snapshot(self) -> None:
        kind = _lib.gamedb_style12_line_get_kind(self._ptr)
        self.kind = "board" if kind == 12 else "holdings"
        self.fen = _lib.gamedb_style12_line_get_fen(self._ptr)
        v = c_int64()
        for name, f in _S12_INTS.items():
            ok = _lib.gamedb_style12_line_get_int(self._ptr, f, byref(v)) == OK
            setattr(self, name, v.value if ok else None)
        for name, f in _S12_TEXTS.items():
            setattr(self, name, _lib.gamedb_style12_line_get_text(self._ptr, f))

    def set_holdings(self, b1: "Style12Line") -> "Style12Line":
        """Gives this board the men in hand of a ``<b1>`` line of its game (``fen`` then has
        them in brackets). Raises :class:`GamedbError` when the lines do not fit."""
        if not self._ptr or not b1._ptr:
            raise _misuse("Style12Line.set_holdings: a line was closed")
        rc = _lib.gamedb_style12_line_set_holdings(self._ptr, b1._ptr)
        if rc != OK:
            raise GamedbError(rc, E_INVALID_ARGUMENT, "set_holdings: not a board and a <b1> "
                              "line of the same game")
        self._snapshot()
        return self

    def close(self) -> None:
        ptr, self._ptr = getattr(self, "_ptr", None), None
        if ptr:
            _lib.gamedb_style12_line_free(ptr)

    __del__ = close

    def __repr__(self) -> str:
        if self.kind == "board":
            return "<gamedb.Style12Line board %s %s-%s: %s>" % (
                self.game_number, self.white, self.black, self.fen)
        return "<gamedb.Style12Line holdings %s: [%s] [%s]>" % (
            self.game_number, self.white_holdings, self.black_holdings)


class Style12Session:
    """A live FICS/ICC session: feed it the server's output as it comes (any chunks), get the
    games it rebuilds, exactly as :func:`open` gives them for the same bytes read as a log.

    ``feed(data)`` and ``end()`` return the list of :class:`Game` objects that ended (each
    with its own copy: moves, PGN and JSON stay available); ``end()`` ends the games still in
    flight with "*". ``live_count`` is the number of games in flight, ``peek(i)`` a snapshot
    of one of them (moves so far, result "*"). A game delivered with a warning has it in
    ``Game.warning``; ``warnings`` collects the messages about lines that were skipped.
    """

    def __init__(self, name: str = "live") -> None:
        self._ptr = _lib.gamedb_style12_session_new(_enc(name, "the session name"))
        self._lock = _RLock()
        self.warnings: List[str] = []

    def _alive(self) -> Any:
        if not self._ptr:
            raise _misuse("the session was closed")
        return self._ptr

    def _raise(self, rc: int) -> NoReturn:
        raise GamedbError(rc, None, _lib.gamedb_style12_session_errmsg(self._ptr))

    def _take(self) -> List["Game"]:
        out: List[Game] = []
        while True:
            gp = _ffi.GameP()
            rc = _lib.gamedb_style12_session_next_game(self._ptr, byref(gp))
            if rc == END:
                msg = _lib.gamedb_style12_session_errmsg(self._ptr)
                if msg:
                    self.warnings.append(msg)
                return out
            if rc not in (OK, WARN):
                self._raise(rc)
            warning = _lib.gamedb_style12_session_errmsg(self._ptr) if rc == WARN else None
            game = Game(None, gp, warning)
            game._adopt(gp)
            out.append(game)

    def feed(self, data: Union[str, bytes]) -> List["Game"]:
        """Feeds bytes (or str, as UTF-8); returns the games that ended in them."""
        if isinstance(data, str):
            data = data.encode("utf-8")
        data = bytes(data)
        with self._lock:
            ptr = self._alive()
            rc = _lib.gamedb_style12_session_feed(ptr, data, len(data))
            if rc != OK:
                self._raise(rc)
            return self._take()

    def end(self) -> List["Game"]:
        """The end of the output: returns the games that were still in flight (with "*")."""
        with self._lock:
            ptr = self._alive()
            rc = _lib.gamedb_style12_session_end(ptr)
            if rc != OK:
                self._raise(rc)
            return self._take()

    @property
    def live_count(self) -> int:
        with self._lock:
            return int(_lib.gamedb_style12_session_get_live_count(self._alive()))

    def peek(self, i: int = 0) -> "Game":
        """A snapshot (a :class:`Game`) of game ``i`` in flight, 0 the oldest; as for a list,
        -1 is the newest, an index out of range raises IndexError and one that is no integer
        TypeError."""
        i = _int_arg(i, "the game index")
        with self._lock:
            ptr = self._alive()
            live = _lib.gamedb_style12_session_get_live_count(ptr)
            if i < 0:
                i += live
            if not 0 <= i < live:
                raise IndexError("no game %d in flight: %d are" % (i if i >= 0 else i - live,
                                                                  live))
            gp = _ffi.GameP()
            rc = _lib.gamedb_style12_session_peek_game(ptr, i, byref(gp))
            if rc not in (OK, WARN):
                if rc == FAILED and i >= _lib.gamedb_style12_session_get_live_count(ptr):
                    raise IndexError(_lib.gamedb_style12_session_errmsg(ptr))
                self._raise(rc)
            game = Game(None, gp, _lib.gamedb_style12_session_errmsg(ptr) if rc == WARN
                        else None)
            game._ptr = gp  # the snapshot is already the caller's own copy
            return game

    def close(self) -> None:
        ptr, self._ptr = getattr(self, "_ptr", None), None
        if ptr:
            _lib.gamedb_style12_session_free(ptr)

    __del__ = close

    def __enter__(self) -> "Style12Session":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open(path: PathType, charset: Optional[str] = None, format: Optional[str] = None,
         errors: str = "raise", converter: Optional[Converter] = None,
         options: Optional[Mapping[str, str]] = None) -> Reader:
    """Opens a database file (for SCID the .si4/.si3 file, or the base name without it).

    charset: the source charset of the database's text (an iconv name), replacing the
    format's default. format: a format name ("scid") to skip detection. errors: see
    :class:`Reader`. converter: a callable (charset, raw_bytes) -> str or None (None lets
    the library convert), tried before the library's own conversion (a text with a NUL in it
    is declined too: C would end it there). options: further {key: value} for
    gamedb_reader_set_option(), e.g. ``{"password": "..."}`` for an encrypted ChessBase
    archive (.cbz). A NUL in the path or in any of these strings raises ValueError
    ("embedded null byte"), as Python's own open() does: C would end the string there.
    """
    name = _enc(path, "the path")
    r = Reader(charset, format, errors, converter, options)
    r._name = os.fsdecode(path)
    return r._opening(_lib.gamedb_reader_open_filename, name)


#: The options of :func:`book` (gamedb_book_set_option()'s keys, with ``_`` for ``-``).
_BOOK_OPTIONS = ("max_ply", "min_game", "min_score", "only_white", "only_black", "uniform",
                 "standard_start", "memory")


def book(databases: Union[PathType, Reader, Iterable[Union[PathType, Reader]]],
         path: Optional[PathType] = None, **options: Union[int, bool]) -> Optional[bytes]:
    """A Polyglot opening book built from the main lines of every game of ``databases`` (paths
    or open :class:`Reader` objects), as PolyGlot's ``make-book`` builds it from their PGN.

    options (PolyGlot's, with ``_`` for ``-``): ``max_ply`` (1024), ``min_game`` (3),
    ``min_score`` (a percentage, 0), ``only_white``, ``only_black``, ``uniform``,
    ``standard_start`` (bools), ``memory`` (MiB before the table spills, 256). An option
    that is not one of these raises TypeError, as does a value that is no integer (or bool);
    a value out of its range (negative, ``max_ply`` or ``min_game`` over 1,000,000,
    ``min_score`` over 100, ``memory`` 0, a bool that is not 0 or 1) raises ValueError.
    Returns the book's bytes, or writes them to ``path`` and returns None. Games the book
    cannot hold (other variants; with ``standard_start``, set-up positions) are left out; a
    game whose moves cannot be decoded, or that a database given by its path cannot hand out,
    is left out with a :class:`GamedbWarning`.
    """
    settings: List[Tuple[str, int]] = []
    for key, value in options.items():
        if key not in _BOOK_OPTIONS:
            raise TypeError("book() got an unexpected keyword argument %r" % key)
        v = _int_arg(value, "book option " + key)
        if v < 0:
            raise ValueError("book option %s=%d: negative" % (key, v))
        settings.append((key, v))
    bp = _ffi.BookP()
    _lib.gamedb_book_new(byref(bp))
    try:
        for key, v in settings:
            try:
                _lib.gamedb_book_set_option(bp, _enc(key.replace("_", "-")), _enc(str(v)))
            except GamedbError as e:  # the library's bounds: said, never cut
                raise ValueError("book option %s=%d: %s" % (key, v, e.message)) from None
        if isinstance(databases, (str, bytes, os.PathLike, Reader)):
            databases = [databases]
        for db in databases:
            r = db if isinstance(db, Reader) else open(db, errors="warn")
            try:
                for g in r:
                    try:
                        _lib.gamedb_book_add_game(bp, g._handle())
                    except GamedbError as e:
                        if e.code == FATAL:
                            raise
                        # As the command: a game whose moves fail is reported and left out.
                        warnings.warn(GamedbWarning("game %d: %s" % (g.index + 1, e)),
                                      stacklevel=2)
                    g.close()
            finally:
                if r is not db:
                    r.close()
        sink = _Sink()
        try:
            _lib.gamedb_book_write(bp, sink.fn, None)
        except GamedbError as e:
            if sink.error is not None:
                raise e from sink.error
            raise
    finally:
        _lib.gamedb_book_free(bp)
    data = b"".join(sink.chunks)
    if path is None:
        return data
    with builtins.open(path, "wb") as f:
        f.write(data)
    return None


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
