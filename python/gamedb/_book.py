# libgamedb - opening books for the Python binding: book().
#
# SPDX-License-Identifier: LGPL-2.1-or-later
"""A Polyglot opening book built from the main lines of the games of databases
(:func:`book`)."""

import builtins
import os
import warnings
from typing import Any, Iterable, List, Optional, Tuple, Union
from ctypes import byref

from . import _ffi
from ._ffi import FATAL, GamedbError
from ._errors import GamedbWarning, _enc, _int_arg
from ._game import _Sink
from ._reader import PathType, Progress, Reader, _progress_fn, open

_lib = _ffi.lib


#: The options of :func:`book` (gamedb_book_set_option()'s keys, with ``_`` for ``-``).
_BOOK_OPTIONS = ("max_ply", "min_game", "min_score", "only_white", "only_black", "uniform",
                 "standard_start", "memory")


class _BookState:
    """What a book's progress callback needs kept: its C callback and the exception it took."""

    def __init__(self) -> None:
        self.fn: Any = None
        self._progress_error: Optional[BaseException] = None


def book(databases: Union[PathType, Reader, Iterable[Union[PathType, Reader]]],
         path: Optional[PathType] = None, progress: Optional[Progress] = None,
         **options: Union[int, bool]) -> Optional[bytes]:
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

    progress: a callable (unit, done, total) (gamedb_book_set_progress()): the games added
    (``PROGRESS_GAMES``, every 4,096, total 0), then the entries merged by the write
    (``PROGRESS_ENTRIES``, every 4,096; the last report has done == total). Returning False
    stops the book: :class:`GamedbError` (detail "cancelled by the progress callback"); an
    exception the callable raises stops it too and is raised in its place.
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
    state = _BookState()
    try:
        if progress is not None:
            state.fn = _progress_fn(progress, lambda: state)  # kept alive by state
            _lib.gamedb_book_set_progress(bp, state.fn, None)
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
                        if state._progress_error is not None:
                            raise state._progress_error from None
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
            if state._progress_error is not None:
                raise state._progress_error from None
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
