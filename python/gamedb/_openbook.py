# libgamedb - opening books read, for the Python binding: open_book().
#
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Opening books of other programs read (:func:`open_book`): Arena's ``.abk`` and ChessBase's
``.ctg`` (with its ``.ctb`` and ``.cto`` beside it), probed by FEN, walked, converted to
Polyglot (gamedb_book_reader_* of the C API)."""

import os
import threading
import warnings
from typing import Any, Dict, Iterator, List, Optional, Union
from ctypes import byref, c_int64

from . import _ffi
from ._ffi import END, FAILED, FATAL, OK, WARN, GamedbError
from ._errors import GamedbWarning, _enc
from ._game import _Sink

_lib = _ffi.lib

#: A book move: {"uci", "san", "weight", and the format's statistics} (ints but the two names).
BookMove = Dict[str, Union[str, int]]


class OpeningBook:
    """An opening book open for reading (:func:`open_book`). Iterating over it walks the whole
    book (:meth:`walk`). Not to be used from two threads at once (a lock keeps calls apart).
    """

    def __init__(self, bp: Any, path: str) -> None:
        self._bp = bp
        self._lock = threading.Lock()
        #: The path the book was opened by.
        self.path = path
        #: The warning of the open (records of the book that cannot be used), or None.
        self.open_warning: Optional[str] = None

    def _live(self) -> Any:
        if not self._bp:
            raise ValueError("the book is closed")
        return self._bp

    @property
    def format(self) -> str:
        """"abk" or "ctg"."""
        f = _lib.gamedb_book_reader_get_format(self._live())
        return f or ""

    def _moves(self, bp: Any) -> List[BookMove]:
        names = []
        k = 0
        while True:
            n = _lib.gamedb_book_reader_stat_name(bp, k)
            if n is None:
                break
            names.append(n)
            k += 1
        out: List[BookMove] = []
        value = c_int64()
        for i in range(_lib.gamedb_book_reader_move_count(bp)):
            m: BookMove = {"uci": _lib.gamedb_book_reader_move_get_uci(bp, i),
                           "san": _lib.gamedb_book_reader_move_get_san(bp, i)}
            for n in names:
                _lib.gamedb_book_reader_move_get_stat(bp, i, _enc(n), byref(value))
                m[n] = value.value
            out.append(m)
        return out

    def _stats(self, bp: Any) -> Dict[str, int]:
        out: Dict[str, int] = {}
        value = c_int64()
        k = 0
        while True:
            n = _lib.gamedb_book_reader_position_stat_name(bp, k)
            if n is None:
                return out
            if _lib.gamedb_book_reader_get_stat(bp, _enc(n), byref(value)) == OK:
                out[n] = value.value
            k += 1

    def position(self, fen: str) -> Dict[str, Any]:
        """The position of ``fen`` as the book has it: ``{"fen", "stats", "moves"}``: its own
        statistics (ChessBase books: games, wins, draws, losses for its side to move, elo,
        performance, recommendation, commentary; {} when the book does not have it or the
        format stores none) and its moves as :meth:`probe` gives them."""
        moves = self.probe(fen)
        with self._lock:
            return {"fen": fen, "stats": self._stats(self._live()), "moves": moves}

    def probe(self, fen: str) -> List[BookMove]:
        """The book moves of the position of ``fen``: a list of dicts ``{"uci", "san",
        "weight", and every statistic of the format}`` ([] when the book has none). A move the
        book holds that is not legal is left out with a :class:`GamedbWarning`; a FEN that
        cannot be read raises :class:`GamedbError`."""
        with self._lock:
            bp = self._live()
            rc = _lib.gamedb_book_reader_probe(bp, _enc(fen))
            if rc == FAILED:
                raise GamedbError(rc, _ffi.E_INVALID_ARGUMENT, _lib.gamedb_book_reader_errmsg(bp))
            if rc == WARN:
                warnings.warn(GamedbWarning(_lib.gamedb_book_reader_errmsg(bp)), stacklevel=2)
            return self._moves(bp) if rc in (OK, WARN) else []

    def walk(self, max_ply: Optional[int] = None) -> Iterator[Dict[str, Any]]:
        """Every position reachable from the standard start through book moves (at most
        ``max_ply`` of them; None: no limit), each once, nearest first: dicts ``{"fen", "ply",
        "stats", "moves"}`` (as :meth:`position` gives them). A position whose book moves were left
        out comes with a :class:`GamedbWarning` saying which; one that cannot be read at all
        is left out with its warning. A probe in between ends the walk."""
        if max_ply is not None and (not isinstance(max_ply, int) or max_ply < 0):
            raise ValueError("max_ply: a number from 0, or None")
        with self._lock:
            _lib.gamedb_book_reader_walk(self._live(), -1 if max_ply is None else max_ply)
        while True:
            with self._lock:
                bp = self._live()
                rc = _lib.gamedb_book_reader_next_position(bp)
                if rc == END:
                    return
                if rc == FATAL:
                    raise GamedbError(rc, _ffi.E_NOMEM, _lib.gamedb_book_reader_errmsg(bp))
                if rc in (WARN, FAILED):
                    warnings.warn(GamedbWarning(_lib.gamedb_book_reader_errmsg(bp)),
                                  stacklevel=2)
                if rc == FAILED:
                    continue
                pos = {"fen": _lib.gamedb_book_reader_get_fen(bp),
                       "ply": _lib.gamedb_book_reader_get_ply(bp), "stats": self._stats(bp),
                       "moves": self._moves(bp)}
            yield pos

    def __iter__(self) -> Iterator[Dict[str, Any]]:
        return self.walk()

    def to_polyglot(self, path: Optional[Union[str, "os.PathLike[str]"]] = None) -> Optional[bytes]:
        """The whole book as a Polyglot book (weights as doc/formats/abk.md and ctg.md say):
        its bytes, or written to ``path`` (None returned). Moves left out come with a
        :class:`GamedbWarning`."""
        sink = _Sink()
        with self._lock:
            bp = self._live()
            rc = _lib.gamedb_book_reader_write_polyglot(bp, sink.fn, None)
            msg = _lib.gamedb_book_reader_errmsg(bp)
        if sink.error is not None:
            raise sink.error
        if rc not in (OK, WARN):
            raise GamedbError(rc, _ffi.E_IO, msg)
        if rc == WARN:
            warnings.warn(GamedbWarning(msg), stacklevel=2)
        data = b"".join(sink.chunks)
        if path is None:
            return data
        with open(os.fspath(path), "wb") as f:
            f.write(data)
        return None

    def close(self) -> None:
        """Closes the book (again: nothing)."""
        with self._lock:
            if self._bp:
                _lib.gamedb_book_reader_free(self._bp)
                self._bp = None

    def __enter__(self) -> "OpeningBook":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # interpreter shutdown
            pass

    def __repr__(self) -> str:
        return "<gamedb.OpeningBook %r%s>" % (self.path, "" if self._bp else " closed")


def open_book(path: Union[str, "os.PathLike[str]"]) -> OpeningBook:
    """Opens an opening book: Arena ``.abk``, or ChessBase ``.ctg`` (its ``.ctb`` and ``.cto``
    found beside it). Records that cannot be used give a :class:`GamedbWarning` (also kept as
    ``open_warning``); a book that cannot be opened raises :class:`GamedbError` (detail
    ``E_IO`` or ``E_CORRUPT``)."""
    p = os.fspath(path)
    bp = _ffi.BookReaderP()
    if _lib.gamedb_book_reader_new(byref(bp)) != OK:
        raise MemoryError("gamedb_book_reader_new")
    rc = _lib.gamedb_book_reader_open_filename(bp, _enc(p))
    msg = _lib.gamedb_book_reader_errmsg(bp)
    if rc == FATAL:
        _lib.gamedb_book_reader_free(bp)
        raise GamedbError(rc, _ffi.E_IO if "cannot open" in msg else _ffi.E_CORRUPT, msg)
    book = OpeningBook(bp, p)
    if msg:
        book.open_warning = msg
        warnings.warn(GamedbWarning(msg), stacklevel=2)
    return book
