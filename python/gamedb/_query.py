"""Search and the opening tree (gamedb_query_*, gamedb_tree_*): the C query behind
:meth:`Reader.search` and :meth:`Reader.tree`."""
from ctypes import byref
from typing import Any, Dict, Iterable, List, Optional, Union

from . import _ffi
from ._ffi import E_INVALID_ARGUMENT, FAILED, OK, GamedbError
from ._errors import _enc

_lib = _ffi.lib

# enum gamedb_tree_stat
_STATS = (("games", 1), ("white", 2), ("draws", 3), ("black", 4), ("elo_games", 6),
          ("white_elo", 7), ("black_elo", 8), ("performance", 9), ("avg_year", 11),
          ("last_year", 12))
_SCORE = 5
_MOVER = 13


class _Query:
    """A C query made from a position and header filters; close() frees it."""

    def __init__(self, fen: Optional[str], moves: Optional[str],
                 where: Union[str, Iterable[str], None]) -> None:
        self._ptr = _ffi.QueryP()
        _lib.gamedb_query_new(byref(self._ptr))
        try:
            if fen is not None or moves is not None:
                rc = _lib.gamedb_query_set_position(self._ptr, _enc(fen, "fen"),
                                                    _enc(moves, "moves"))
                self._check(rc)
            if where is None:
                where = ()
            elif isinstance(where, str):
                where = (where,)
            for w in where:
                self._check(_lib.gamedb_query_add_where(self._ptr, _enc(w, "a where filter")))
        except BaseException:
            self.close()
            raise

    def _check(self, rc: int) -> None:
        if rc != OK:
            raise GamedbError(rc, E_INVALID_ARGUMENT, _lib.gamedb_query_errmsg(self._ptr))

    def match(self, gp: Any) -> int:
        """1 matched, 0 not, or a negative status (the game's moves cannot be decoded)."""
        return int(_lib.gamedb_query_match(self._ptr, gp))

    def errmsg(self) -> str:
        return str(_lib.gamedb_query_errmsg(self._ptr))

    def close(self) -> None:
        if self._ptr:
            _lib.gamedb_query_free(self._ptr)
            self._ptr = _ffi.QueryP()


class _Tree:
    """A C tree; rows() reads it out, close() frees it."""

    def __init__(self) -> None:
        self._ptr = _ffi.TreeP()
        _lib.gamedb_tree_new(byref(self._ptr))

    def add(self, query: _Query, gp: Any) -> int:
        return int(_lib.gamedb_tree_add_game(self._ptr, query._ptr, gp))

    def rows(self) -> List[Dict[str, Any]]:
        """One dict per move, most played first: san, uci (None for the games that end at the
        position, san "[end]"), games, white, draws, black, score (White's percentage),
        elo_games, white_elo, black_elo, performance, avg_year, last_year (0: unknown)."""
        out = []
        for i in range(_lib.gamedb_tree_get_count(self._ptr)):
            uci = _lib.gamedb_tree_get_uci(self._ptr, i)
            row: Dict[str, Any] = {"san": _lib.gamedb_tree_get_san(self._ptr, i),
                                   "uci": uci or None}
            for name, stat in _STATS:
                row[name] = int(_lib.gamedb_tree_get_stat(self._ptr, i, stat))
            row["score"] = _lib.gamedb_tree_get_stat(self._ptr, i, _SCORE) / 10.0
            row["mover"] = "black" if _lib.gamedb_tree_get_stat(self._ptr, i, _MOVER) else "white"
            out.append(row)
        return out

    def close(self) -> None:
        if self._ptr:
            _lib.gamedb_tree_free(self._ptr)
            self._ptr = _ffi.TreeP()


def _failed(message: str) -> GamedbError:
    return GamedbError(FAILED, _ffi.E_CORRUPT, message)


class _Index:
    """A position index opened from its file (gamedb_index_open()); close() frees it."""

    def __init__(self, path: Any) -> None:
        import os
        self._ptr = _ffi.IndexP()
        rc = _lib.gamedb_index_open(byref(self._ptr), _enc(os.fsdecode(path), "the index path"))
        if rc != OK:
            msg = _lib.gamedb_index_errmsg(self._ptr) if self._ptr else "out of memory"
            self.close()
            raise GamedbError(rc, _ffi.E_CORRUPT if rc == FAILED else _ffi.E_NOMEM, msg)

    def attach(self, query: _Query, reader_ptr: Any) -> None:
        """Points query at this index for the base reader_ptr reads (refused when stale)."""
        rc = _lib.gamedb_query_set_index(query._ptr, self._ptr, reader_ptr)
        if rc != OK:
            raise GamedbError(rc, E_INVALID_ARGUMENT, query.errmsg())

    def close(self) -> None:
        if self._ptr:
            _lib.gamedb_index_free(self._ptr)
            self._ptr = _ffi.IndexP()


def _hits(query: _Query) -> Iterable[Any]:
    """(game number, flags) of each game the query's index names, in game order."""
    from ctypes import c_uint32, c_uint64
    game, flags = c_uint64(), c_uint32()
    while _lib.gamedb_query_next_hit(query._ptr, byref(game), byref(flags)) == OK:
        yield game.value, flags.value


def build_index(output: Any, *bases: Any) -> int:
    """Builds a position index of the games of ``bases`` (paths of bases of any format) and
    writes it to ``output`` (doc/index.md; the gamedb command's ``gamedb index``), for
    ``Reader.tree(..., index=output)`` and ``Reader.search(..., index=output)``. Returns the
    number of games that could not be read or decoded (recorded in the index and reported by a
    tree through it). A base that cannot be opened, or an ``output`` that is a file of a base,
    raises :class:`GamedbError`."""
    import os
    from . import _ffi as f
    out = os.fsdecode(output)
    w = f.IndexWriterP()
    _lib.gamedb_index_writer_new(byref(w))
    failed = 0
    try:
        for base in bases:
            r = _lib.gamedb_reader_new()
            if not r:
                raise MemoryError("build_index: out of memory")
            try:
                _lib.gamedb_reader_support_format_all(r)
                _lib.gamedb_reader_open_filename(r, _enc(os.fsdecode(base), "the base path"))
                if os.path.exists(out) and _lib.gamedb_reader_uses_file(r, _enc(out, "output")) != 0:
                    raise GamedbError(f.FATAL, E_INVALID_ARGUMENT,
                                      "%s: refusing to write over a file of the base" % out)
                while True:
                    g = f.GameP()
                    try:
                        _lib.gamedb_reader_next_game(r, byref(g))
                    except StopIteration:
                        break
                    except GamedbError as e:
                        if e.code != FAILED:
                            raise
                        failed += 1
                        g = f.GameP()  # recorded in its place, with the reader's message
                    rc = _lib.gamedb_index_writer_add_game(w, r, g)
                    if rc == f.FATAL:
                        raise MemoryError(_lib.gamedb_index_writer_errmsg(w))
                    failed += rc == FAILED
                rc = _lib.gamedb_index_writer_end_base(w, r)
                if rc != OK:
                    raise GamedbError(rc, E_INVALID_ARGUMENT, _lib.gamedb_index_writer_errmsg(w))
            finally:
                _lib.gamedb_reader_free(r)
        with open(out, "wb") as fh:
            def sink(_ud: Any, data: Any, n: int) -> int:
                from ctypes import string_at
                fh.write(string_at(data, n))
                return OK
            cb = f.WRITE_FN(sink)
            rc = _lib.gamedb_index_writer_write(w, cb, None)
            if rc != OK:
                raise GamedbError(rc, _ffi.E_IO, _lib.gamedb_index_writer_errmsg(w))
    finally:
        _lib.gamedb_index_writer_free(w)
    return failed
