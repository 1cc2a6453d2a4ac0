# libgamedb - readers for the Python binding: open(), Reader, its iteration and its ledger.
#
# SPDX-License-Identifier: LGPL-2.1-or-later
"""An open database (:class:`Reader`, made by :func:`open`; ``open_memory()`` and ``open_io()``
are in ``_io.py``): options, iteration and seeking under an error policy, the games' own copies
made on demand, the ledger of what became of every game, and closing. Locking and lifetimes:
see the package's documentation (``gamedb/__init__.py``)."""

import ctypes
import operator
import os
import _thread
import warnings
import weakref
from typing import (Any, Callable, Dict, Iterator, List, Mapping, Optional, Tuple, Union,
                    overload)
from ctypes import byref, c_uint64

from . import _ffi
from ._ffi import E_NONE, E_RANGE, E_UNSUPPORTED, FAILED, OK, WARN, GamedbError, _raise_for
from ._errors import GamedbWarning, _UINT64_MAX, _c_unsigned, _enc, _misuse
from ._formats import ChessbaseInfo, ScidInfo
from ._game import Game, _Closing
from ._ledger import GameFailed, Ledger, _DELIVERED, _FAILED, _Tally, _WARNED

_lib = _ffi.lib
# threading.RLock is a Python function that calls this (typeshed of older mypy lacks it)
_RLock: Any = getattr(_thread, "RLock")
_PRUNE_FIRST = 256
_next_game = _ffi.next_game_unchecked


_ERROR_POLICIES = ("raise", "warn", "skip")


#: A database as a path: what :func:`open` takes.
PathType = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]
#: The converter of :func:`open`: (charset, raw bytes) -> text, or None to let the library
#: convert.
Converter = Callable[[Optional[str], bytes], Optional[str]]
#: A progress callback: (unit, done, total) -> False to stop, anything else to go on. unit is
#: PROGRESS_BYTES, PROGRESS_GAMES or PROGRESS_ENTRIES; total 0 when it is not known.
Progress = Callable[[int, int, int], Any]


def _progress_fn(progress: Progress, owner: Any) -> Any:
    """The C callback (a PROGRESS_FN, to be kept alive by the caller) that calls progress:
    False returned stops the work; an exception raised stops it too and is kept on owner()
    (``_progress_error``), to be raised once the C call has returned."""
    def hook(unit: int, done: int, total: int, user_data: Any) -> int:
        try:
            return 1 if progress(unit, done, total) is False else 0
        except BaseException as e:
            target = owner()
            if target is not None:
                target._progress_error = e
            return 1

    return _ffi.PROGRESS_FN(hook)


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
                 options: Optional[Mapping[str, str]] = None,
                 progress: Optional[Progress] = None) -> None:
        if errors not in _ERROR_POLICIES:
            raise ValueError("errors must be one of %s" % ", ".join(_ERROR_POLICIES))
        self._ptr: Any = None
        self._lock = _RLock()
        self._busy = False
        self._close_requested = False
        self._keep: List[Any] = []  # objects the C reader points into: bytes, callbacks
        # The games handed out without a copy yet, as id(game) to a weak reference (no
        # callback: a game's death costs nothing; the dead are pruned when the entries reach
        # _prune_at, which doubles the live ones, so each costs O(1)).
        self._pending: Dict[int, "weakref.ReferenceType[Game]"] = {}
        self._prune_at = _PRUNE_FIRST
        # The C game next_game() gives, one for the reader (its value is the current game's)
        self._gp = _ffi.GameP()
        self._gp_ref = byref(self._gp)
        # weakref to the game whose borrowed C game is still valid
        self._current: Optional["weakref.ReferenceType[Game]"] = None
        self._current_ptr: Any = None
        self._pos = 0            # the index next_game would give
        self._at_end = False
        self._scid_ptr: Any = None
        self._cb_ptr: Any = None
        self._ca_ptr: Any = None
        self._callback_error: Optional[BaseException] = None
        self._progress_error: Optional[BaseException] = None  # raised by the progress callable
        self._name: Optional[str] = None  # the database as opened, for GameFailed.file
        self._tally = _Tally()  # the ledger; guarded by _lock
        self.errors = errors
        self.scid: Optional[ScidInfo] = None
        self.chessbase: Optional[ChessbaseInfo] = None
        self.chessassistant_comment: Optional[str] = None
        #: The base's own properties (a CCBridge library's name, source, creator; a SCID
        #: base's description), name to value, in the order the format gives them; the names
        #: each format gives are listed in gamedb.h (gamedb_reader_get_property_count()).
        self.properties: Dict[str, str] = {}
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
        if progress is not None:
            fn = _progress_fn(progress, weakref.ref(self))  # no reference cycle through it
            self._keep.append(fn)
            self._call(_lib.gamedb_reader_set_progress, fn, None)

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
            self._read_properties()
        finally:
            self._done()
        self._check_alive()  # a callback may have closed it
        return self

    def _read_properties(self) -> None:
        """Fills self.properties; a value repaired on reading (U+FFFD, a field with no
        terminator) is a GamedbWarning."""
        n = _lib.gamedb_reader_get_property_count(self._ptr)
        if n < 0:
            _raise_for(n, _lib.gamedb_reader_get_property_count,
                       _lib.gamedb_reader_errcode(self._ptr), _lib.gamedb_reader_errmsg(self._ptr))
        note = (_lib.gamedb_reader_errmsg(self._ptr)
                if _lib.gamedb_reader_errcode(self._ptr) != E_NONE else None)
        props: Dict[str, str] = {}
        for i in range(n):
            name = _lib.gamedb_reader_get_property_name(self._ptr, i)
            props[name] = _lib.gamedb_reader_get_property_value(self._ptr, i)
        self.properties = props
        if note:
            warnings.warn(GamedbWarning(note), stacklevel=4)

    def _opening(self, call: Any, *args: Any) -> "Reader":
        with self._lock:
            try:
                rc = self._call(call, *args)
            except GamedbError as e:
                err, self._callback_error = self._callback_error, None
                perr, self._progress_error = self._progress_error, None
                self.close()
                if perr is not None:  # the progress callable raised: its exception
                    raise perr from None
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

    def _pending_games(self) -> List[Game]:
        """The games alive without a copy yet, in the order of their index."""
        games = [ref() for ref in self._pending.values()]
        return sorted((g for g in games if g is not None), key=lambda g: g.index)

    def _prune_pending(self) -> None:
        """Drops the entries of the pending games that died."""
        self._pending = {k: ref for k, ref in self._pending.items() if ref() is not None}
        self._prune_at = max(_PRUNE_FIRST, 2 * len(self._pending))

    def _read(self, policy: Optional[str] = None) -> Game:
        """Reads the next game under an error policy (None: the reader's, ``errors``);
        StopIteration at the end. Also __next__ (a step less per game than a method that
        calls it)."""
        with self._lock:
            if not self._ptr or self._busy:
                self._check_alive()
            if self._at_end:
                raise StopIteration
            self._busy = True
            try:
                gp = self._gp
                while True:
                    self._current = self._current_ptr = None
                    try:
                        rc = _next_game(self._ptr, self._gp_ref)
                        if rc:  # not OK: END, WARN or a failure, as the table's errcheck says
                            rc = _ffi._errcheck_reader(rc, _lib.gamedb_reader_next_game,
                                                       (self._ptr,))
                    except StopIteration:
                        self._at_end = True
                        raise
                    except GamedbError as e:
                        err, self._callback_error = self._callback_error, None
                        perr, self._progress_error = self._progress_error, None
                        if perr is not None:  # the progress callable raised: its exception
                            raise perr from None
                        if e.code == FAILED:
                            # Every format gives one game per call, read or not: this one was
                            # game _pos, and the next call gives the one after it.
                            if policy is None:
                                policy = self.errors
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
                    ref = weakref.ref(game)  # no cycle
                    self._current, self._current_ptr = ref, gp
                    pending = self._pending
                    pending[id(game)] = ref
                    if len(pending) > self._prune_at:
                        self._prune_pending()
                    return game
            finally:
                self._busy = False
                if self._close_requested:
                    self._close_locked()

    def __iter__(self) -> "Reader":
        return self

    __next__ = _read

    # -- search and the opening tree

    def _matches(self, query: Any, game: Game) -> bool:
        """Whether game passes query; a game whose moves cannot be decoded follows errors."""
        rc = int(query.match(game._handle()))
        if rc >= 0:
            return rc == 1
        if self.errors == "raise":
            from ._query import _failed
            raise _failed(query.errmsg())
        if self.errors == "warn":
            warnings.warn(GamedbWarning(query.errmsg()), stacklevel=3)
        return False

    def search(self, fen: Optional[str] = None, moves: Optional[str] = None,
               where: Union[str, List[str], Tuple[str, ...], None] = None,
               index: Any = None) -> Iterator[Game]:
        """The games, from the current position on, that reach a position and pass header
        filters: the position of ``fen`` (None: the start) after ``moves`` ("e4 c5"; none: no
        position asked for), matched as Scid's exact board search matches (the men and the side
        to move; main line; see gamedb_query_set_position()); ``where`` one filter or a list
        ("White~Carlsen", "Date>=1995", "ECO=B90": pgn-extract's tag criteria, see
        gamedb_query_add_where()), all of which must pass. ``index``: the path of a position
        index of this base (:func:`build_index`): only the games it names are decoded; a stale
        one raises :class:`GamedbError`. A bad FEN, move or filter raises
        :class:`GamedbError` (``E_INVALID_ARGUMENT``) at once."""
        from ._query import _Index, _Query
        query = _Query(fen, moves, where)
        ix = None
        if index is not None:
            try:
                ix = _Index(index)
                ix.attach(query, self._ptr)
            except BaseException:
                if ix:
                    ix.close()
                query.close()
                raise

        def found() -> Iterator[Game]:
            try:
                for game in self:
                    if self._matches(query, game):
                        yield game
            finally:
                query.close()
                if ix:
                    ix.close()
        return found()

    def tree(self, fen: Optional[str] = None, moves: Optional[str] = None,
             where: Union[str, List[str], Tuple[str, ...], None] = None,
             include_deleted: bool = True, index: Any = None) -> List[Dict[str, Any]]:
        """The opening tree of the games from the current position on (as :meth:`search`
        finds them, ``fen`` or ``moves`` required): a dict per move played from the position,
        most played first, counted as Scid's tree counts them (each game once, at its first
        arrival): san, uci, games, white, draws, black, score (White's percentage), elo_games,
        white_elo, black_elo (averages over the games with both Elos), performance (the mover's),
        avg_year, last_year (0: unknown) and mover. The games that end at the position make a
        row with san "[end]" and uci None. Games marked deleted count unless
        ``include_deleted`` is False (Scid counts them). ``index``: the path of a position
        index of this base (:func:`build_index`): without ``where`` the tree is counted from
        it alone, every game of the base, none read; a stale one raises :class:`GamedbError`."""
        if fen is None and moves is None:
            raise ValueError("tree() needs a position: fen or moves")
        from ._query import _Index, _Query, _Tree, _failed, _hits
        query = _Query(fen, moves, where)
        tree = _Tree()
        ix = None
        try:
            if index is not None:
                ix = _Index(index)
                ix.attach(query, self._ptr)
                if where is None:
                    for _game, flags in _hits(query):
                        if flags & 1 and not include_deleted:
                            continue
                        if flags & 6:  # failed when the index was built
                            if self.errors == "raise":
                                raise _failed(query.errmsg())
                            if self.errors == "warn":
                                warnings.warn(GamedbWarning(query.errmsg()), stacklevel=2)
                            continue
                        if _lib.gamedb_tree_add_hit(tree._ptr, query._ptr) == -30:
                            raise MemoryError("tree: out of memory")
                    return tree.rows()
            for game in self:
                if not include_deleted and game.deleted:
                    continue
                rc = tree.add(query, game._handle())
                if rc == -30:
                    raise MemoryError("tree: out of memory")
                if rc < 0:
                    if self.errors == "raise":
                        raise _failed(query.errmsg())
                    if self.errors == "warn":
                        warnings.warn(GamedbWarning(query.errmsg()), stacklevel=2)
            return tree.rows()
        finally:
            tree.close()
            query.close()
            if ix:
                ix.close()

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

    def _packed_current(self, game: Game, flags: int) -> Optional[bytes]:
        """The events of ``game`` packed straight from the borrowed C game when it is still
        the reader's current one and has no copy (Game._packed_borrowed()); None otherwise,
        and the caller takes the game's copy as before."""
        with self._lock:
            if (game._ptr or not self._ptr or self._busy or self._current is None or
                    self._current() is not game):
                return None
            self._busy = True  # decoding the moves may call the converter
            try:
                return game._packed_borrowed(self._current_ptr, flags)
            finally:
                self._busy = False
                if self._close_requested:
                    self._close_locked()

    def _chessbase_current(self, game: Game) -> bool:
        """Reads the ChessBase fields of ``game`` from the borrowed C game when it is still the
        reader's current one; False otherwise."""
        with self._lock:
            if (not self._ptr or not self._cb_ptr or self._busy or self._current is None or
                    self._current() is not game):
                return False
            game._chessbase_from(self._cb_ptr, self._current_ptr)
            return True

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
            self._pending.pop(id(game), None)
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
            self._pending.pop(id(game), None)
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
            for game in self._pending_games():
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
            self._pending = {}
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


def open(path: PathType, charset: Optional[str] = None, format: Optional[str] = None,
         errors: str = "raise", converter: Optional[Converter] = None,
         options: Optional[Mapping[str, str]] = None,
         progress: Optional[Progress] = None) -> Reader:
    """Opens a database file (for SCID the .si4/.si3 file, or the base name without it).

    charset: the source charset of the database's text (an iconv name), replacing the
    format's default. format: a format name ("scid") to skip detection. errors: see
    :class:`Reader`. converter: a callable (charset, raw_bytes) -> str or None (None lets
    the library convert), tried before the library's own conversion (a text with a NUL in it
    is declined too: C would end it there). options: further {key: value} for
    gamedb_reader_set_option(), e.g. ``{"password": "..."}`` for an encrypted ChessBase
    archive (.cbz). A NUL in the path or in any of these strings raises ValueError
    ("embedded null byte"), as Python's own open() does: C would end the string there.
    progress: a callable (unit, done, total) called as the work goes on
    (gamedb_reader_set_progress()): the bytes of an archive unpacked by the open or of a
    style 12 log read (``PROGRESS_BYTES``, every MiB), the games of a base read
    (``PROGRESS_GAMES``, every 4,096); the last report has done == total. Returning False
    stops the work: the open or the next game raises :class:`GamedbError` (FATAL,
    ``E_CANCELLED``) and the reader cannot go on; an exception the callable raises
    stops it too, and is raised in its place once the C call has returned.
    """
    name = _enc(path, "the path")
    r = Reader(charset, format, errors, converter, options, progress)
    r._name = os.fsdecode(path)
    try:
        return r._opening(_lib.gamedb_reader_open_filename, name)
    except _ffi.GamedbIOError as e:
        better = _ffi._os_error(e, r._name)
        if better is e:
            raise
        raise better.with_traceback(e.__traceback__) from e.__cause__
