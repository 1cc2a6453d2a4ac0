# libgamedb - the fast path of the Python binding: a game in one call.
#
# SPDX-License-Identifier: LGPL-2.1-or-later
"""A game taken from the library in one call (``gamedb_game_write_packed()``, layout in
``doc/packed.md``) and unpacked with bulk operations: ``struct.iter_unpack`` over the fixed-size
event records, one UTF-8 decoding and ``str.split`` of all the strings. It replaces, per game,
the calls through ctypes per tag and per accessor per event (about ten per move) that made the
Python walk of a base 75 times slower than the same walk in C.

Nothing here is public: :class:`gamedb.Game` uses it for its headers and :meth:`Game.moves`."""

import ctypes
import struct
import threading
from ctypes import byref, c_size_t
from typing import Any, List, Optional, Tuple

from . import _ffi
from ._ffi import FAILED, WARN

_lib = _ffi.lib

#: The flags of gamedb_game_write_packed() beyond the iterator's (gamedb.h).
PACK_KEYS = 0x10000
PACK_NO_MOVES = 0x20000

# The header (56 bytes) and an event record (32 bytes), as gamedb.h lays them out.
_HEAD = struct.Struct("<4sIIIIIIIIIQII")
_REC = struct.Struct("<BBBBhhiiB3xIQ")
_MAGIC = b"GDBK"

# Record bits: which values of the event follow in the sections.
_SAN, _UCI, _CHINESE, _FEN, _TEXT, _LANGUAGE, _RAW, _KEY = 1, 2, 4, 8, 16, 32, 64, 128

# A buffer per thread, reused from game to game; grown for a large game, kept up to _KEEP.
_FIRST = 1 << 16
_KEEP = 1 << 22
_local = threading.local()


def _new_buffer(size: int) -> Tuple[bytearray, Any]:
    """A bytearray and the ctypes array over the same memory (passed to C as its address)."""
    data = bytearray(size)
    return data, (ctypes.c_char * size).from_buffer(data)


def _buffer() -> Tuple[bytearray, Any]:
    pair = getattr(_local, "buf", None)
    if pair is None or getattr(_local, "busy", False):
        pair = _new_buffer(_FIRST)
        if not getattr(_local, "busy", False):
            _local.buf = pair
    return pair


def write(gp: Any, flags: int) -> Tuple[int, memoryview]:
    """(status, bytes) of gp packed with flags: OK, or WARN for a partial game (ITER_PARTIAL).
    A failure raises GamedbError as the other calls on a game do (its message from the game).
    The bytes are a view of this thread's buffer, valid until the next call of write() in the
    thread: unpack them at once."""
    n = c_size_t()
    busy = getattr(_local, "busy", False)
    data, cbuf = _buffer()
    _local.busy = True  # a converter callback inside the call that reads a game gets its own
    try:
        rc = _lib.gamedb_game_write_packed(gp, flags, cbuf, len(data), byref(n))
        if rc < 0 and rc != WARN:
            _ffi._errcheck_game(rc, _lib.gamedb_game_write_packed, (gp,))
        if n.value > len(data):  # a large game: once more, with room for all of it
            data, cbuf = _new_buffer(n.value)
            rc = _lib.gamedb_game_write_packed(gp, flags, cbuf, len(data), byref(n))
            if rc < 0 and rc != WARN:
                _ffi._errcheck_game(rc, _lib.gamedb_game_write_packed, (gp,))
            if n.value > len(data):  # the game changed between the calls: cannot happen
                raise _ffi.GamedbError(FAILED, None, "gamedb_game_write_packed: size changed")
            if n.value <= _KEEP and not busy:
                _local.buf = data, cbuf
    finally:
        _local.busy = busy
    view = memoryview(data)[:n.value]
    if view[:4] != _MAGIC:
        raise _ffi.GamedbError(FAILED, None, "gamedb_game_write_packed: unknown layout")
    return rc, view


def header(view: memoryview) -> Tuple[int, List[Tuple[str, str]], str, int, bool]:
    """(index, tags as (name, value) pairs, start FEN, variant number, deleted) of a packed
    game."""
    (_, _, _, _, _, ntags, soff, slen, _, _, index, variant,
     deleted) = _HEAD.unpack_from(view)
    strs = str(view[soff:soff + slen], "utf-8", "replace").split("\0", 2 * ntags + 1)
    pairs = list(zip(strs[0:2 * ntags:2], strs[1:2 * ntags:2]))
    return index, pairs, strs[2 * ntags], variant, bool(deleted)


def events(view: memoryview, event_cls: Any, type_names: Any) -> List[Any]:
    """The events of a packed game as event_cls objects (gamedb.Event), each with the fields
    event_cls(evp) gives it from the C event: the slots of a move set on every event, the
    other fields only where the event has them (else the class's None)."""
    (_, _, hsize, _, nevents, ntags, soff, slen, roff, _, _, _, _) = _HEAD.unpack_from(view)
    strs = str(view[soff:soff + slen], "utf-8", "replace").split("\0")
    nxt = iter(strs[2 * ntags + 1:]).__next__
    raw_at = roff
    new = object.__new__
    out: List[Any] = []
    append = out.append
    get_type = type_names.get
    colours = ("white", "black")
    for (t, bits, piece, promo, frm, to, depth, num, colour, rawlen,
         key) in _REC.iter_unpack(view[hsize:hsize + 32 * nevents]):
        e = new(event_cls)
        e.depth = depth
        if t == 1:  # a move: the hot path
            e.type = "move"
            if bits == _SAN | _UCI:
                e.san = nxt()
                e.uci = nxt()
            else:
                e.san = nxt() if bits & _SAN else None
                e.uci = nxt() if bits & _UCI else None
                if bits & _CHINESE:
                    e.chinese = nxt()
                if bits & _FEN:
                    e.fen = nxt()
                if bits & _KEY:
                    e.key = key
            e.from_square = frm if frm >= 0 else None
            e.to_square = to if to >= 0 else None
            e.promotion = promo or None
            e.piece = piece or None
            e.move_number = num
            e.colour = colours[colour]
            append(e)
            continue
        e.type = get_type(t, str(t))
        e.san = e.uci = e.from_square = e.to_square = e.promotion = e.piece = None
        e.move_number = e.colour = None
        if bits & _TEXT:
            e.text = nxt()
        if bits & _LANGUAGE:
            e.language = nxt()
        if bits & _RAW:
            e.text_raw = bytes(view[raw_at:raw_at + rawlen])
            raw_at += rawlen
        if t == _ffi.EVENT_ANNOTATION:
            e.annotation_type = num
            if not bits & _RAW:
                e.text_raw = b""
        elif t == _ffi.EVENT_NAG:
            e.nag = num
        append(e)
    return out
