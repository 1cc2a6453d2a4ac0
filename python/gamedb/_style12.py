# libgamedb - the style 12 live API of the Python binding: FICS/ICC lines and sessions.
#
# SPDX-License-Identifier: LGPL-2.1-or-later
"""The style 12 live API: one ``<12>`` or ``<b1>`` line parsed (:class:`Style12Line`), and a
live session fed the server's output as it comes, giving the games it rebuilds
(:class:`Style12Session`)."""

import threading
from typing import Any, Dict, List, NoReturn, Optional, Union
from ctypes import byref, c_int64

from . import _ffi
from ._ffi import E_CORRUPT, E_INVALID_ARGUMENT, END, FAILED, OK, WARN, GamedbError
from ._errors import _enc, _int_arg, _misuse
from ._game import Game

_lib = _ffi.lib
_RLock = threading.RLock


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
    ``warning``: None, or why the line was read with a loss (a name that is not UTF-8, read
    as CP1252).
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
        if rc not in (OK, WARN):
            msg = _lib.gamedb_style12_line_errmsg(self._ptr)
            self.close()
            raise GamedbError(rc, E_CORRUPT, msg)
        self.warning: Optional[str] = _lib.gamedb_style12_line_errmsg(self._ptr) \
            if rc == WARN else None
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
    ``Game.warning``; ``warnings`` collects the messages about lines that were skipped
    (a ``<12>`` or ``<b1>`` line that could not be used, named by its line number).
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
            if rc == FAILED:  # a line that could not be used; the games go on
                self.warnings.append(_lib.gamedb_style12_session_errmsg(self._ptr))
                continue
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
