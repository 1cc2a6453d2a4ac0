# libgamedb - games for the Python binding: Game, its events and move iterator, its writers.
#
# SPDX-License-Identifier: LGPL-2.1-or-later
"""A game (:class:`Game`: a snapshot of its headers, its moves on demand), the events of its
move stream (:class:`Event`, :class:`MoveIterator`), its PGN and JSON writers, and the piece
and square numbers events use. How long a game's moves stay available and how games are shared
between threads: see the package's documentation (``gamedb/__init__.py``)."""

import ctypes
import json as _json
import _thread
from itertools import repeat
from typing import TYPE_CHECKING, Any, Dict, Iterator, List, Optional, Tuple, TypeVar
from ctypes import byref, c_char_p, c_int32, c_size_t, c_uint64

from . import _ffi, _packed
from ._ffi import E_NONE, FAILED, OK, WARN, GamedbError
from ._errors import _UINT32_MAX, _c_unsigned, _enc, _misuse
from ._formats import CHESSASSISTANT_FIELDS, CHESSBASE_FIELDS
from ._ledger import GameFailed, _FAILED, _WARNED, _Tally

if TYPE_CHECKING:  # for the annotations only: _reader imports this module
    from ._reader import Reader

_lib = _ffi.lib
_get_status = _ffi.game_get_status_unchecked
_PACK_KEYED = _packed.PACK_GROUPED | _packed.PACK_KEYS
_reader_errcode = _ffi.reader_errcode_unchecked
# threading.RLock is a Python function that calls this (typeshed of older mypy lacks it)
_RLock: Any = getattr(_thread, "RLock")
_T = TypeVar("_T")


#: Piece numbers of Event.piece and Event.promotion. They are libgamedb's ``gamedb_piece``
#: values, which are also python-chess's piece types (chess.PAWN == 1 ... chess.KING == 6);
#: squares are numbered as in python-chess too (a1 = 0, h1 = 7, h8 = 63).
PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING = 1, 2, 3, 4, 5, 6
#: Xiangqi pieces beyond those (general = KING, chariot = ROOK, horse = KNIGHT, soldier = PAWN).
ADVISOR, ELEPHANT, CANNON = 7, 8, 9
PIECE_SYMBOLS = {PAWN: "p", KNIGHT: "n", BISHOP: "b", ROOK: "r", QUEEN: "q", KING: "k"}

#: Game._chessbase before the fields are read.
_LATER = object()
_CB_KEYS = tuple(CHESSBASE_FIELDS)
_CB_FIELDS = tuple(CHESSBASE_FIELDS.values())

_VARIANTS = {
    _ffi.VARIANT_CHESS: "chess",
    _ffi.VARIANT_CHESS960: "chess960",
    _ffi.VARIANT_XIANGQI: "xiangqi",
    _ffi.VARIANT_BUGHOUSE: "bughouse",
    _ffi.VARIANT_CRAZYHOUSE: "crazyhouse",
}

_EVENT_TYPES = {
    _ffi.EVENT_MOVE: "move",
    _ffi.EVENT_VARIATION_BEGIN: "variation_begin",
    _ffi.EVENT_VARIATION_END: "variation_end",
    _ffi.EVENT_COMMENT_BEFORE: "comment_before",
    _ffi.EVENT_COMMENT_AFTER: "comment_after",
    _ffi.EVENT_NAG: "nag",
    _ffi.EVENT_CLOCK: "clock",
    _ffi.EVENT_RESULT: "result",
    _ffi.EVENT_COMMAND: "command",
    _ffi.EVENT_ANNOTATION: "annotation",
}
#: Event.type of every byte a packed record's type may hold.
_TYPE_TABLE = tuple(_EVENT_TYPES.get(t, str(t)) for t in range(256))


def square_name(square: int) -> str:
    """The name ("e4") of a chess square number (a1 = 0 ... h8 = 63)."""
    return "abcdefgh"[square % 8] + str(square // 8 + 1)


# ---- events and the move iterator -----------------------------------------------------

class Event:
    """One item of a game's move stream, copied from the library.

    ``type`` is one of "move", "variation_begin", "variation_end", "comment_before",
    "comment_after", "nag", "clock", "command", "annotation", "result". Fields that do not
    apply to the type are None.

    - move: ``san``, ``uci``, ``from_square``, ``to_square`` (0..63, a1 = 0; xiangqi 0..89,
      rank * 9 + file; a crazyhouse or bughouse drop has ``from_square`` None, ``piece`` the
      man dropped and ``san``/``uci`` "P@e4"), ``promotion`` (a piece number or None), ``piece`` (the moving piece,
      PAWN..KING, or ADVISOR, ELEPHANT, CANNON for xiangqi; None for a null move),
      ``move_number``, ``colour`` ("white" or "black"; Red is "white"), ``fen`` (the position
      after the move, only when the iterator was made with ``fen=True``), ``key`` (the 64-bit
      position key after the move, an int: the Polyglot key for chess; only when the iterator
      was made with ``key=True``); for xiangqi ``san``
      is WXF, ``uci`` is ICCS and ``chinese`` the Chinese notation;
    - comment_before / comment_after: ``text``, ``language`` (ISO 639-1, "" unknown) and
      ``text_raw``, the stored bytes before charset conversion; result: ``text`` ("1-0", ...);
    - clock / command: ``text`` in PGN command form without brackets ("%clk 0:01:02",
      "%csl Gd4");
    - annotation (stored, with no mapping): ``annotation_type`` (the format's code) and
      ``text_raw`` (its bytes);
    - nag: ``nag`` (1 = "!", 2 = "?", ...).

    ``depth`` is the variation depth of every event (0 on the main line).
    """

    # The fields a move has are slots, set on every event; the others (None on a move, and
    # on most events) are class attributes, None, that an event holding one of them shadows
    # in its own __dict__: a move is made with ten stores instead of eighteen.
    __slots__ = ("type", "depth", "san", "uci", "from_square", "to_square", "promotion",
                 "piece", "move_number", "colour", "__dict__")
    type: str
    depth: int
    san: Optional[str]
    uci: Optional[str]
    chinese: Optional[str] = None
    from_square: Optional[int]
    to_square: Optional[int]
    promotion: Optional[int]
    piece: Optional[int]
    fen: Optional[str] = None
    text: Optional[str] = None
    text_raw: Optional[bytes] = None
    language: Optional[str] = None
    annotation_type: Optional[int] = None
    nag: Optional[int] = None
    move_number: Optional[int]
    colour: Optional[str]
    key: Optional[int] = None

    def __init__(self, evp: Any, xiangqi: bool = True, fen: bool = True,
                 key: bool = False) -> None:
        # xiangqi=False, fen=False skip two calls that give NULL for chess moves and for an
        # iterator made without GAMEDB_ITER_FEN (the hot path of a move iteration).
        t = _lib.gamedb_event_get_type(evp)
        self.type = _EVENT_TYPES.get(t, str(t))
        self.depth = _lib.gamedb_event_get_depth(evp)
        self.san = self.uci = None
        self.from_square = self.to_square = self.promotion = self.piece = None
        self.move_number = self.colour = None
        if t == _ffi.EVENT_MOVE:
            frm, to, promo, colour = c_int32(), c_int32(), c_int32(), c_int32()
            if _lib.gamedb_event_get_move(evp, byref(frm), byref(to), byref(promo)) == OK:
                self.from_square = frm.value if frm.value >= 0 else None
                self.to_square = to.value
                self.promotion = promo.value or None
            self.piece = _lib.gamedb_event_get_piece(evp) or None
            self.san = _lib.gamedb_event_get_san(evp)
            self.uci = _lib.gamedb_event_get_uci(evp)
            if xiangqi:
                chinese = _lib.gamedb_event_get_notation(evp, _ffi.NOTATION_CHINESE)
                if chinese is not None:
                    self.chinese = chinese
            if fen:
                fen_text = _lib.gamedb_event_get_fen(evp)
                if fen_text is not None:
                    self.fen = fen_text
            if key:
                k = c_uint64()
                if _lib.gamedb_event_get_key(evp, byref(k)) == OK:
                    self.key = k.value
            self.move_number = _lib.gamedb_event_get_move_number(evp, byref(colour))
            self.colour = "black" if colour.value else "white"
        elif t == _ffi.EVENT_ANNOTATION:
            self.annotation_type = _lib.gamedb_event_get_annotation_type(evp)
            n = c_size_t()
            addr = _lib.gamedb_event_get_text_raw(evp, byref(n))
            self.text_raw = ctypes.string_at(addr, n.value) if addr else b""
        elif t in (_ffi.EVENT_COMMENT_BEFORE, _ffi.EVENT_COMMENT_AFTER, _ffi.EVENT_RESULT,
                   _ffi.EVENT_CLOCK, _ffi.EVENT_COMMAND):
            self.text = _lib.gamedb_event_get_text(evp)
            if t in (_ffi.EVENT_COMMENT_BEFORE, _ffi.EVENT_COMMENT_AFTER):
                self.language = _lib.gamedb_event_get_language(evp)
                n = c_size_t()
                addr = _lib.gamedb_event_get_text_raw(evp, byref(n))
                if addr:
                    self.text_raw = ctypes.string_at(addr, n.value)
        elif t == _ffi.EVENT_NAG:
            self.nag = _lib.gamedb_event_get_nag(evp)

    def __repr__(self) -> str:
        fields = ", ".join("%s=%r" % (k, getattr(self, k)) for k in _EVENT_FIELDS[1:]
                           if getattr(self, k) is not None)
        return "Event(%r%s)" % (self.type, ", " + fields if fields else "")


#: Every field of an Event, in the order of its documentation (repr() shows them so).
_EVENT_FIELDS = ("type", "depth", "san", "uci", "chinese", "from_square", "to_square",
                 "promotion", "piece", "fen", "text", "text_raw", "language", "annotation_type",
                 "nag", "move_number", "colour", "key")
_EVENT_FIELD_SET = frozenset(_EVENT_FIELDS)


class _Closing:
    """Context-manager and finaliser behaviour for objects that own a C handle: leaving a
    ``with`` block or being collected calls ``close()``, which must be idempotent."""

    def __enter__(self: _T) -> _T:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        raise NotImplementedError

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:
            pass


class MoveIterator(_Closing):
    """Iterates over the events of a game (made by :meth:`Game.moves`).

    Made by :meth:`Game.moves` it holds the game's events, taken from the library in one call
    (``gamedb_game_write_packed()``); the :class:`Event` objects are made when the iteration
    starts, and ``iter()`` of it is then their list's own iterator, which it shares its place
    with. Such an iterator also gives each field of every event as a list, without an object
    per event: :meth:`column`. Made directly, ``MoveIterator(game, flags, key)`` (flags the
    ``GAMEDB_ITER_*`` bits), it walks the C iterator event by event, as described below. Both
    give the same events.

    It runs on the game's own copy and holds the game (a Python reference), so it stays valid
    whatever happens to the reader, and :meth:`Game.close` leaves it running: the game's copy
    is freed when its last iterator is done. The C iterator is freed at the end of the
    iteration, by :meth:`close`, or by the garbage collector.

    The iterator uses its game's lock (``_lock``, a :class:`threading.RLock`): in C an iterator
    is part of its game, which must not be used from two threads at once, so each step runs
    under it. Two threads taking events from one iterator each get whole events, in order,
    and between them every event once.
    """

    _it: Iterator[Event]
    # What an iterator made by moves() holds until its iteration starts (_packed() sets only
    # what differs: a game is walked with fewer stores); __init__ sets each of its own.
    _ptr: Any = None
    _key = False
    _xiangqi = False
    _fen = False
    _events: Optional[List[Event]] = None
    _cols: Optional[_packed.Columns] = None
    _it = iter(())  # an exhausted iterator, which any number of iterators may share

    def __init__(self, game: "Game", flags: int, key: bool = False) -> None:
        self._ptr: Any = None
        self._events: Optional[List[Event]] = None  # the events of the packed game
        self._cols: Optional[_packed.Columns] = None  # the packed game, when moves() made it
        self._it = iter(())
        self._key = key
        self._game = game  # keeps the game, and so its copy, alive while the iterator runs
        self._lock = game._lock
        self._xiangqi = game.variant == "xiangqi"
        self._fen = bool(flags & _ffi.ITER_FEN)
        it = _ffi.MoveIterP()
        if not game._ptr:
            game._materialize()
        with self._lock:
            try:
                _lib.gamedb_move_iter_new(game._ptr or game._own(), flags, byref(it))
            except GamedbError as e:
                raise game._game_failed(e) from None
            self._ptr = it
            game._users += 1

    @classmethod
    def _packed(cls, game: "Game", data: bytes) -> "MoveIterator":
        """An iterator over the events the game gave in one call (gamedb_game_write_packed(),
        the bytes): it holds no C iterator, only the bytes, and their Event objects once the
        iteration starts."""
        self = cls.__new__(cls)  # _ptr, _key, _xiangqi, _fen, _events, _it: the class's
        self._game = game
        self._lock = game._lock
        self._cols = cols = _packed.Columns(data, _TYPE_TABLE)
        # column() answered by the columns themselves, without a step through this class's
        # method (what a columnar walk calls a few times a game: a tenth of its time)
        self.column = cols.column  # type: ignore[assignment]
        return self

    def _unpack(self) -> Iterator[Event]:
        """The iterator over the packed game's Event objects, made on first use."""
        if self._events is None:
            with self._lock:
                cols = self._cols
                if self._events is None and cols is not None:
                    events = _packed.events(cols._data, Event, _EVENT_TYPES)
                    self._it = iter(events)  # before _events: the test above reads it unlocked
                    self._events = events
        return self._it

    def column(self, field: str) -> List[Any]:
        """The value of ``field`` (the name of an :class:`Event` attribute: "type", "san",
        "from_square", "text", ...) of every event of the game, in order: a new list, as long
        as the events, whose item i is what the i-th event's attribute holds (None where the
        event has none). Made with a few operations over the whole game, without an Event
        object per event: reading the moves' SAN and squares and the comments this way is
        several times quicker than iterating (``bench/python-walk.py``). Only on an iterator
        made by :meth:`Game.moves`; it gives the whole game whatever the iteration took.
        Raises ValueError for a name that is not an Event field, TypeError on an iterator
        made directly."""
        cols = self._cols
        if cols is None:
            raise TypeError("MoveIterator.column: only on an iterator made by Game.moves()")
        if field not in _EVENT_FIELD_SET:
            raise ValueError("MoveIterator.column: no Event field %r" % (field,))
        return cols.column(field)

    def __iter__(self) -> Any:
        # The list's own iterator when the events came packed: the for loop then takes each
        # event without a call into Python. next() on this object shares its place.
        if self._cols is not None:
            return self._unpack()
        return self

    def __next__(self) -> Event:
        if self._cols is not None:
            # whole events: the list iterator is atomic under the GIL
            return next(self._unpack())
        with self._lock:
            ptr = self._ptr
            if not ptr:
                raise StopIteration
            ev = _ffi.EventP()
            try:
                _lib.gamedb_move_iter_next(ptr, byref(ev))
            except StopIteration:
                self._close_locked()
                raise
            # Copied while the C event is valid: before the next step.
            return Event(ev, self._xiangqi, self._fen, self._key)

    def close(self) -> None:
        """Frees the C iterator; later iteration gives nothing."""
        if self._cols is not None:
            with self._lock:
                events = self._events
                if events is None:
                    events = []
                    self._it = iter(events)
                    self._events = events
            events.clear()  # its iterators, also one a for loop holds, stop
            return
        with self._lock:
            self._close_locked()

    def _close_locked(self) -> None:
        ptr, self._ptr = self._ptr, None
        if ptr:
            _lib.gamedb_move_iter_free(ptr)
            self._game._release()

    def __del__(self) -> None:
        # A finaliser never waits for a lock: it may run in any thread, at any allocation,
        # also in one that holds a lock the holder of this one waits for. Nobody else can be
        # using an iterator that is being collected, and freeing the C iterator does not touch
        # the game, so when the game's lock is busy the iterator is freed without it and the
        # game counts it out later (_gone). An iterator without a C one (made by moves(), or
        # done) has nothing to free.
        try:
            if not self._ptr:
                return
            lock = self._lock
        except AttributeError:  # __init__ failed early
            return
        if lock.acquire(False):
            try:
                self._close_locked()
            finally:
                lock.release()
            return
        ptr, self._ptr = self._ptr, None
        if ptr:
            _lib.gamedb_move_iter_free(ptr)
            # Not atomic: two finalisers racing here could count one iterator too few, which
            # only keeps a closed game's copy until the game itself is collected.
            self._game._gone += 1


# ---- games ----------------------------------------------------------------------------

class _Sink:
    """A gamedb_write_fn that collects what a writer writes."""

    def __init__(self) -> None:
        self.chunks: List[bytes] = []
        self.error: Optional[BaseException] = None
        self.fn = _ffi.WRITE_FN(self._write)

    def _write(self, user_data: Any, data: Any, length: int) -> int:
        try:
            self.chunks.append(ctypes.string_at(data, length))
            return 0
        except BaseException as e:  # never let an exception cross the C frames
            self.error = e
            return 1

    def text(self) -> str:
        return b"".join(self.chunks).decode("utf-8", errors="replace")


def _write_flags(comments: bool, variations: bool, nags: bool) -> int:
    flags = 0
    if not comments:
        flags |= _ffi.WRITE_NO_COMMENTS
    if not variations:
        flags |= _ffi.WRITE_NO_VARIATIONS
    if not nags:
        flags |= _ffi.WRITE_NO_NAGS
    return flags


class Game:
    """One game: a snapshot of its headers, plus its moves on demand.

    Attributes: ``index`` (0-based position in the database), ``tags`` (a dict in PGN order:
    the Seven Tag Roster first; when a tag is repeated, the first value), ``tag_list`` (every
    tag as (name, value) pairs, repeats included, in PGN order), ``fen`` (the start position), ``variant`` ("chess",
    "chess960", "xiangqi", "bughouse" or "crazyhouse"), ``deleted`` (bool), ``warning`` (the reader's
    message when the game was delivered with a warning, or what was lost when its moves were
    first decoded, e.g. a comment converted with loss; else None), ``scid_flags`` (the
    SCID flag bits, None for other formats) and ``chessbase`` (a dict of the ChessBase fields
    no tag carries, keyed as CHESSBASE_FIELDS; None for other formats; read from the base when
    first asked for, or when the game takes its own copy, at the latest when the reader or the
    game is closed).

    See the module documentation for how long a game's moves stay available and how a game
    may be shared between threads.
    """

    __slots__ = ("index", "tags", "_tag_names", "_tag_list", "fen", "variant", "deleted", "warning", "scid_flags",
                 "_chessbase", "chessassistant", "_reader", "_ptr", "_lost", "_lock", "_users", "_gone",
                 "_zombie", "_closed", "_failure", "_tally", "__weakref__")
    index: int
    tags: Dict[str, str]
    _tag_names: Tuple[List[str], List[str]]  # the tags' names and values, as packed
    _tag_list: Optional[List[Tuple[str, str]]]  # the (name, value) pairs, once asked for
    fen: str
    variant: str
    deleted: bool
    warning: Optional[str]
    scid_flags: Optional[int]
    chessassistant: Optional[Dict[str, int]]
    _reader: Optional["Reader"]
    _ptr: Any
    _lost: Optional[BaseException]
    _lock: Any
    _users: int
    _gone: int
    _zombie: Any
    _closed: bool
    _failure: Optional[Tuple[Optional[str]]]
    _tally: Optional[_Tally]

    # Locking: _lock guards the game's own C copy (_ptr, _zombie, _users) and every call on
    # it; it is never held while waiting for the reader's lock, nor the reader's while waiting
    # for this one, so the two cannot deadlock (even when a finaliser runs in a thread that
    # holds one of them). The copy is made under the reader's lock only (Reader._materialize,
    # Reader.close), which looks at _ptr and _closed again once it has the lock; a game's _ptr
    # goes from None to a copy only there, and back to None only under _lock (close()).

    def __init__(self, reader: Optional["Reader"], gp: Any,
                 warning: Optional[str] = None) -> None:
        self._ptr = None
        self._lost = None
        self._reader = reader      # kept alive until the game has its own copy
        self._lock = _RLock()
        self._users = 0            # move iterators running on _ptr
        self._gone = 0             # iterators collected while _lock was busy, not counted out
        self._zombie = None        # a copy close() could not free yet (iterators still on it)
        self._closed = False
        self._failure = None       # (database,) once its copy showed the moves cannot be decoded
        # The reader's ledger, kept past the copy: a writer may find a loss later (a tag PGN
        # cannot hold as it is), and the game is then counted as warned.
        self._tally = reader._tally if reader is not None else None
        # The headers in one call (gamedb_game_write_packed(), no moves decoded): the index,
        # the tags (formats that keep tags outside their index, SCID, read them there, and with
        # them a non-standard start position), the start position, the variant, deleted.
        self.index, self._tag_names, self.tags, self.fen, v, self.deleted = \
            _packed.write_header(gp)
        self._tag_list = None
        self.variant = _VARIANTS.get(v) or str(v)
        if warning is None and reader is not None and \
                _reader_errcode(reader._ptr) != E_NONE:
            # Reading the tags kept outside the index failed: the headers are incomplete.
            warning = _lib.gamedb_reader_errmsg(reader._ptr)
        self.warning = warning
        self.scid_flags = None
        if reader is not None and reader._scid_ptr:
            self.scid_flags = _lib.gamedb_scid_get_game_flags(reader._scid_ptr, gp)
        # The ChessBase fields are read when first asked for (twelve calls, each reading the
        # game's index record again: a third of a header listing), or at the latest when the
        # game gets its own copy, which the reader gives every game alive before it closes.
        self._chessbase: Any = _LATER if reader is not None and reader._cb_ptr else None
        self.chessassistant = None
        if reader is not None and reader._ca_ptr:
            self.chessassistant = {
                k: _lib.gamedb_chessassistant_get_game_field(reader._ca_ptr, gp, f)
                for k, f in CHESSASSISTANT_FIELDS.items()}

    @property
    def tag_list(self) -> List[Tuple[str, str]]:
        """Every tag as (name, value) pairs, repeats included, in PGN order (made from the
        names and values when first asked for, then kept)."""
        if self._tag_list is None:
            self._tag_list = list(zip(*self._tag_names))
        return self._tag_list

    @property
    def chessbase(self) -> Optional[Dict[str, int]]:
        """The ChessBase fields no tag carries (keyed as CHESSBASE_FIELDS), None for other
        formats (and for a game whose record could not be read again)."""
        if self._chessbase is _LATER:
            reader = self._reader
            if reader is not None and not reader._chessbase_current(self):
                try:
                    self._materialize()  # the copy reads them (_adopt)
                except GamedbError:
                    if self._chessbase is _LATER:
                        raise
            if self._chessbase is _LATER:  # no reader left to read them from
                self._chessbase = None
        fields: Optional[Dict[str, int]] = self._chessbase
        return fields

    def _chessbase_from(self, cb: Any, gp: Any) -> None:
        """Reads the ChessBase fields from gp, a valid C game that is this game (the reader's
        lock is held), if they were not read yet."""
        if self._chessbase is _LATER:
            # Every field in one C-level loop (map over the ctypes function, no errcheck).
            self._chessbase = dict(zip(_CB_KEYS, map(_lib.gamedb_chessbase_get_game_field,
                                                     repeat(cb), repeat(gp), _CB_FIELDS)))

    def __repr__(self) -> str:
        t = self.tags
        return "<gamedb.Game %d: %s - %s %s>" % (self.index, t.get("White", "?"),
                                                 t.get("Black", "?"), t.get("Result", "*"))

    def __getitem__(self, tag: str) -> str:
        return self.tags[tag]

    def _adopt(self, gp: Any) -> None:
        """Makes the game's own copy from a valid C game (borrowed or not); the reader's lock
        is held. The copy decodes the moves: the reader's ledger learns whether they failed
        (the game is then failed) or lost text (a warning, if the game had none yet)."""
        out = _ffi.GameP()
        rc = _lib.gamedb_game_dup(gp, byref(out))  # WARN: the copy holds the decodable part
        reader = self._reader
        if reader is not None and reader._cb_ptr:
            self._chessbase_from(reader._cb_ptr, gp)  # the last moment the reader is at hand
        state = 0
        if rc == WARN:  # the moves could not all be decoded: moves() etc. raise GameFailed
            self._failure = (reader._name if reader is not None else None,)
            state = _FAILED
        elif self.warning is None and _lib.gamedb_game_get_status(out) == WARN:
            message = _lib.gamedb_game_errmsg(out)
            if message:  # a comment converted with loss, a repaired record: said as the tags'
                self.warning = message
                state = _WARNED
        if state and reader is not None:
            reader._tally.mark(self.index, state)
        self._ptr = out
        self._reader = None

    def _game_failed(self, e: GamedbError) -> GamedbError:
        """The error to raise for ``e``, a status of a call on the game's copy: GameFailed when
        the copy showed that the moves cannot be decoded."""
        if self._failure is None or e.code != FAILED or isinstance(e, GameFailed):
            return e
        return GameFailed(e.code, e.detail, e.message, self.index, self._failure[0])

    def _materialize(self) -> None:
        """Makes sure the game has its own C copy (made on first use). Called without
        self._lock; the caller then takes it and calls _own()."""
        if self._ptr:
            return
        reader = self._reader
        if reader is None or self._closed:
            raise self._lost or _misuse("game %d: the game was closed" % (self.index + 1))
        reader._materialize(self)

    def _own(self) -> Any:
        """The game's own C copy, once _materialize() made it; self._lock is held."""
        ptr = self._ptr
        if not ptr:  # close() in another thread came in between
            raise self._lost or _misuse("game %d: the game was closed" % (self.index + 1))
        return ptr

    def _handle(self) -> Any:
        """The game's own C copy, made on first use (for tests that call the C API on it)."""
        self._materialize()
        return self._own()

    def _reap(self) -> None:
        """Counts out the iterators collected while _lock was busy; self._lock is held."""
        gone, self._gone = self._gone, 0
        self._users -= gone

    def _release(self) -> None:
        """A move iterator is done with the copy (self._lock is held): free a copy close()
        left to the last one."""
        self._users -= 1
        if self._gone:
            self._reap()
        if not self._users and self._zombie:
            ptr, self._zombie = self._zombie, None
            _lib.gamedb_game_free(ptr)

    def detach(self) -> "Game":
        """Takes the game's own copy now (what pgn()/json() do on first use, and moves() once
        the reader has moved on)."""
        self._materialize()
        return self

    def moves(self, mainline_only: bool = False, comments: bool = True, fen: bool = False,
              partial: bool = False, key: bool = False,
              uci_king_takes_rook: bool = False) -> MoveIterator:
        """An iterator of :class:`Event` over the moves and annotations.

        mainline_only: leave out variations. comments: include comments. fen: fill
        ``Event.fen`` after each move. key: fill ``Event.key`` (the Polyglot key for chess).
        partial: when the moves cannot all be decoded, give the part before the failure
        instead of raising :class:`GameFailed`.
        uci_king_takes_rook: ``Event.uci`` of a castling is the king taking its own rook
        (e1h1; what UCI engines want in Chess960 mode, and what Chess960 games always give),
        not e1g1.
        """
        flags = _PACK_KEYED if key else _packed.PACK_GROUPED
        if uci_king_takes_rook:
            flags |= _ffi.ITER_UCI_KING_TAKES_ROOK
        if mainline_only:
            flags |= _ffi.ITER_MAINLINE_ONLY
        if not comments:
            flags |= _ffi.ITER_SKIP_COMMENTS
        if fen:
            flags |= _ffi.ITER_FEN
        if partial:
            flags |= _ffi.ITER_PARTIAL
        reader = self._reader
        if not self._ptr and reader is not None:  # (the step of a walk of a base: here)
            data = reader._packed_current(self, flags)
            if data is not None:
                return MoveIterator._packed(self, data)
        return MoveIterator._packed(self, self._packed_events(flags))

    def _packed_events(self, flags: int) -> bytes:
        """Every event of the move iterator with ``flags`` (with PACK_GROUPED, and PACK_KEYS
        for the keys), taken in one call (gamedb_game_write_packed()), packed: from the
        reader's borrowed game when it is still this one (moves() asks the reader first),
        else from the game's copy. _packed.events() makes from them each :class:`Event` as
        Event(evp) makes it from the C event, but without the ten calls through ctypes per
        move."""
        self._materialize()
        with self._lock:
            gp = self._own()
            try:
                return _packed.write(gp, flags)[1]
            except GamedbError as e:
                raise self._game_failed(e) from None

    def _packed_borrowed(self, gp: Any, flags: int) -> bytes:
        """_packed_events() on gp, the reader's borrowed C game that is this game (the
        reader's lock is held): no copy is made, the moves are decoded once, by the packing.
        The ledger learns what _adopt() would teach it: the moves failed (the game is then
        failed, as a copy would have shown), or a text was converted with a loss."""
        reader = self._reader
        try:
            rc, data = _packed.write(gp, flags)
        except GamedbError as e:
            if e.code == FAILED and self._failure is None and reader is not None:
                self._failure = (reader._name,)
                reader._tally.mark(self.index, _FAILED)
            raise self._game_failed(e) from None
        state = 0
        if rc == WARN:  # ITER_PARTIAL: the legal part of moves that failed
            if self._failure is None and reader is not None:
                self._failure = (reader._name,)
            state = _FAILED
        elif self.warning is None and _get_status(gp) == WARN:
            message = _lib.gamedb_game_errmsg(gp)
            if message:
                self.warning = message
                state = _WARNED
        if state and reader is not None:
            reader._tally.mark(self.index, state)
        return data

    def positions(self) -> Iterator[Tuple[str, int, str]]:
        """An iterator of (fen, key, uci) over the main line: each position from which a move
        was played, its key (the Polyglot key for chess) and that move."""
        fen, key = self.fen, self.start_key()
        for e in self.moves(mainline_only=True, comments=False, fen=True, key=True):
            if e.type == "move" and e.uci is not None:
                yield fen, key, e.uci
                fen, key = e.fen or "", e.key or 0

    def start_key(self) -> int:
        """The 64-bit key of the start position, an int: the Polyglot key for chess (the key
        of opening books), the key ``doc/keys.md`` defines for xiangqi."""
        self._materialize()
        with self._lock:
            k = c_uint64()
            _lib.gamedb_game_get_start_key(self._own(), byref(k))
            return int(k.value)

    def _write(self, fn: Any, flags: int) -> str:
        sink = _Sink()
        self._materialize()
        with self._lock:
            gp = self._own()
            try:
                rc = fn(gp, flags, sink.fn, None)
            except GamedbError as e:
                if sink.error is not None:
                    raise e from sink.error
                raise self._game_failed(e) from None
            if rc == WARN and self.warning is None:
                # Written with a loss the writer names (doc/output.md): a warning, as the
                # gamedb command prints it.
                self.warning = _lib.gamedb_game_errmsg(gp) or None
                if self.warning and self._tally is not None:
                    self._tally.mark(self.index, _WARNED)
        return sink.text()

    def pgn(self, comments: bool = True, variations: bool = True, nags: bool = True,
            flags: int = 0) -> str:
        """The game as PGN text (tags, a blank line, the movetext, a blank line).

        The keyword switches map to GAMEDB_WRITE_NO_*; ``flags`` adds raw writer flags (an
        unsigned 32-bit number: OverflowError outside it). Raises :class:`GameFailed` when the
        moves cannot be decoded.
        """
        return self._write(_lib.gamedb_game_write_pgn,
                           _c_unsigned(flags, _UINT32_MAX, "flags") |
                           _write_flags(comments, variations, nags))

    def json(self, comments: bool = True, variations: bool = True, nags: bool = True,
             flags: int = 0) -> str:
        """The game as one JSON document (the library's JSON Lines record, without its
        final newline). ``flags`` and failures as for :meth:`pgn`."""
        text = self._write(_lib.gamedb_game_write_json,
                           _c_unsigned(flags, _UINT32_MAX, "flags") |
                           _write_flags(comments, variations, nags))
        return text[:-1] if text.endswith("\n") else text

    def to_dict(self, comments: bool = True, variations: bool = True, nags: bool = True,
                flags: int = 0) -> Dict[str, Any]:
        """:meth:`json` parsed into Python objects."""
        d: Dict[str, Any] = _json.loads(self.json(comments, variations, nags, flags))
        return d

    def tag_raw(self, name: str) -> Optional[Tuple[bytes, Optional[str]]]:
        """(bytes, charset) of a tag as stored in the database, or None if there is none."""
        length, charset = c_size_t(), c_char_p()
        key = _enc(name, "the tag name")
        self._materialize()
        with self._lock:
            gp = self._own()
            addr = _lib.gamedb_game_get_tag_raw(gp, key, byref(length), byref(charset))
            if not addr:
                return None
            return ctypes.string_at(addr, length.value), _ffi._decode(charset.value)

    def close(self) -> None:
        """Frees the game's copy; its moves are then unavailable (headers stay).

        Move iterators made before go on to their end: the copy is freed when the last of
        them is done. Another thread writing this game's PGN is waited for.
        """
        if self._chessbase is _LATER:  # headers stay after close(): read them now
            try:
                self.chessbase
            except GamedbError:
                pass
        with self._lock:
            self._closed = True
            reader, self._reader = self._reader, None
        if reader is not None:
            with reader._lock:  # after this, no close() of the reader gives the game a copy
                reader._pending.pop(id(self), None)
        with self._lock:
            self._reap()
            ptr, self._ptr = self._ptr, None
            if ptr:
                if self._users:
                    self._zombie = ptr
                else:
                    _lib.gamedb_game_free(ptr)

    def __del__(self) -> None:
        # No iterator is left (each holds the game), so no other thread can be using it.
        try:
            for ptr in (self._ptr, self._zombie):
                if ptr:
                    _lib.gamedb_game_free(ptr)
            self._ptr = self._zombie = None
        except Exception:
            pass
