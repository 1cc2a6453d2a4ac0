# libgamedb - the fast path of the Python binding: a game in one call.
#
# SPDX-License-Identifier: LGPL-2.1-or-later
"""A game taken from the library in one call (``gamedb_game_write_packed()``, layout in
``doc/packed.md``) and unpacked with bulk operations: ``struct.iter_unpack`` over the fixed-size
event records, one UTF-8 decoding and ``str.split`` of all the strings. It replaces, per game,
the calls through ctypes per tag and per accessor per event (about ten per move) that made the
Python walk of a base 75 times slower than the same walk in C.

Game.moves() packs with PACK_GROUPED (each kind of string in its own group) and keeps the
bytes: :class:`Columns` gives one field of every event as a list without an object per event
(MoveIterator.column()), events() the Event objects when the iteration starts.

Nothing here is public: :class:`gamedb.Game` uses it for its headers and :meth:`Game.moves`."""

import ctypes
import struct
import sys
import threading
from array import array
from ctypes import byref, c_size_t
from operator import itemgetter
from typing import Any, List, Optional, Tuple

from . import _ffi
from ._ffi import FAILED, WARN

_lib = _ffi.lib

#: The flags of gamedb_game_write_packed() beyond the iterator's (gamedb.h).
PACK_KEYS = 0x10000
PACK_NO_MOVES = 0x20000
PACK_GROUPED = 0x40000

# The header (56 bytes) and an event record (32 bytes), as gamedb.h lays them out.
_HEAD = struct.Struct("<4sIIIIIIIIIQII")
_GROUPS = struct.Struct("<6I")  # after _HEAD with PACK_GROUPED
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


def write(gp: Any, flags: int) -> Tuple[int, memoryview]:
    """(status, bytes) of gp packed with flags: OK, or WARN for a partial game (ITER_PARTIAL).
    A failure raises GamedbError as the other calls on a game do (its message from the game).
    The bytes are a view of this thread's buffer, valid until the next call of write() in the
    thread: unpack them at once."""
    n = c_size_t()
    loc = _local
    busy = getattr(loc, "busy", False)
    pair = None if busy else getattr(loc, "buf", None)
    if pair is None:
        pair = _new_buffer(_FIRST)
        if not busy:
            loc.buf = pair
    data, cbuf = pair
    loc.busy = True  # a converter callback inside the call that reads a game gets its own
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
        loc.busy = busy
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


def _groups(view: Any, end: int) -> List[List[str]]:
    """The six groups of strings of a packed game with PACK_GROUPED (SAN, UCI, Chinese, FEN,
    text, language), each a list; end is the end of the string section."""
    offs = _GROUPS.unpack_from(view, _HEAD.size) + (end,)
    return [str(view[offs[i]:offs[i + 1]], "utf-8", "replace").split("\0")[:-1]
            for i in range(6)]



def events(view: Any, event_cls: Any, type_names: Any) -> List[Any]:
    """The events of a packed game as event_cls objects (gamedb.Event), each with the fields
    event_cls(evp) gives it from the C event: the slots of a move set on every event, the
    other fields only where the event has them (else the class's None)."""
    (_, _, hsize, flags, nevents, ntags, soff, slen, roff, _, _, _, _) = _HEAD.unpack_from(view)
    if flags & PACK_GROUPED:
        san, uci, chinese, fen, text, language = (
            iter(g).__next__ for g in _groups(view, soff + slen))
        nxt = san
    else:
        strs = str(view[soff:soff + slen], "utf-8", "replace").split("\0")
        nxt = san = uci = chinese = fen = text = language = iter(strs[2 * ntags + 1:]).__next__
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
                e.san = san()
                e.uci = uci()
            else:
                e.san = san() if bits & _SAN else None
                e.uci = uci() if bits & _UCI else None
                if bits & _CHINESE:
                    e.chinese = chinese()
                if bits & _FEN:
                    e.fen = fen()
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
            e.text = text()
        if bits & _LANGUAGE:
            e.language = language()
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


# ---- columns: one field of every event, without an object per event ------------------

_LITTLE = sys.byteorder == "little"
# An Event's string fields and the bit that says the event has one.
_STRING_BITS = {"san": _SAN, "uci": _UCI, "chinese": _CHINESE, "fen": _FEN, "text": _TEXT,
                "language": _LANGUAGE}
# Byte to value where 0 means None (a piece, a promotion); -1 to None for a square.
_GROUP_OF = {_SAN: 0, _UCI: 1, _CHINESE: 2, _FEN: 3, _TEXT: 4, _LANGUAGE: 5}
# For each string bit, the bytes.translate() table of a record's bits to 1 (has it) or 0.
_HAS = {bit: bytes(1 if b & bit else 0 for b in range(256)) for bit in _STRING_BITS.values()}
_ZERO_NONE: Tuple[Optional[int], ...] = (None,) + tuple(range(1, 256))
_MOVE = 1


def _spread(has: bytes, values: List[Any]) -> List[Any]:
    """A list as long as has: values in order at the places of its bytes 1, None at its bytes
    0. A Python step per byte 0 when values are many (a SAN on every move), per value when
    they are few (a text on a result): runs of the rest are copied as slices."""
    if 2 * len(values) >= len(has):
        out: List[Any] = []
        at = 0
        for run in has.split(b"\0"):
            if run:
                out += values[at:at + len(run)]
                at += len(run)
            out.append(None)
        out.pop()
        return out
    out = [None] * len(has)
    find = has.find
    i = -1
    for v in values:
        i = find(1, i + 1)
        out[i] = v
    return out


def _none_for(value: int, items: List[Any]) -> List[Any]:
    """items with None for each item equal to value (few: searched, not stepped over)."""
    i = -1
    try:
        while True:
            i = items.index(value, i + 1)
            items[i] = None
    except ValueError:
        return items


def _lookup(table: Tuple[Any, ...], keys: Any) -> List[Any]:
    """[table[k] for k in keys], in one C loop."""
    if len(keys) > 1:
        return list(itemgetter(*keys)(table))
    return [table[k] for k in keys]


def _ints(code: str, data: Any) -> Any:
    """The records as a sequence of little-endian integers of the given array type code."""
    if _LITTLE:
        return memoryview(data).cast(code)  # no copy
    a = array(code)
    a.frombytes(data)
    if not _LITTLE:
        a.byteswap()
    return a


class Columns:
    """The events of a game packed with PACK_GROUPED (the bytes of write(), kept) as
    columns: column(name) gives, for each event in order, the value of the Event field name
    (what events() would set on it, None where the event has none), made with bulk
    operations: strided slices and casts of the records, lookups through itemgetter, the
    field's group of strings spread over the events by runs, and one comprehension for the
    fields that depend on the event's type."""

    __slots__ = ("_data", "_recs", "_kinds", "_bits", "_offs", "_type_table")

    def __init__(self, data: bytes, type_names: Any) -> None:
        (_, _, hsize, flags, nevents, _, soff, slen, _, _, _, _, _) = _HEAD.unpack_from(data)
        if not flags & PACK_GROUPED:
            raise ValueError("_packed.Columns: a game packed with PACK_GROUPED only")
        self._offs = _GROUPS.unpack_from(data, _HEAD.size) + (soff + slen,)
        self._data = data
        end = hsize + 32 * nevents
        self._recs = memoryview(data)[hsize:end]  # no copy
        self._kinds = data[hsize:end:32]
        self._bits = data[hsize + 1:end:32]
        self._type_table = type_names

    def __len__(self) -> int:
        return len(self._kinds)

    def column(self, field: str) -> List[Any]:
        """The values of field field of every event (a new list each call)."""
        recs, kinds, bits = self._recs, self._kinds, self._bits
        # (itemgetter and comprehensions: map over a bound method is slower)
        bit = _STRING_BITS.get(field)
        if bit is not None:
            i = _GROUP_OF[bit]
            a, b = self._offs[i], self._offs[i + 1]
            if a == b:
                return [None] * len(bits)
            group = str(self._data[a:b], "utf-8", "replace").split("\0")
            group.pop()  # after the last NUL
            if len(group) == len(bits):
                return group
            return _spread(bits.translate(_HAS[bit]), group)
        if field == "type":
            return _lookup(self._type_table, kinds)
        if field == "depth":
            depths: List[int] = _ints("i", recs)[2::8].tolist()
            return depths
        if field in ("from_square", "to_square"):
            squares: List[Any] = _ints("h", recs)[2 if field == "from_square" else 3::16].tolist()
            return _none_for(-1, squares)  # not a move, or a drop
        if field == "piece":
            return _lookup(_ZERO_NONE, recs[2::32])
        if field == "promotion":
            return _lookup(_ZERO_NONE, recs[3::32])
        if field in ("move_number", "nag", "annotation_type"):
            want = {"move_number": _MOVE, "nag": _ffi.EVENT_NAG,
                    "annotation_type": _ffi.EVENT_ANNOTATION}[field]
            nums = _ints("i", recs)[3::8]
            return [n if k == want else None for k, n in zip(kinds, nums)]
        if field == "colour":
            return [("black" if c else "white") if k == _MOVE else None
                    for k, c in zip(kinds, recs[16::32])]
        if field == "key":
            keys = _ints("Q", recs)[3::4]
            return [q if b & _KEY else None for b, q in zip(bits, keys)]
        if field == "text_raw":
            lens = _ints("I", recs)[5::8]
            (_, _, _, _, _, _, _, _, roff, _, _, _, _) = _HEAD.unpack_from(self._data)
            data, at = self._data, roff
            out: List[Optional[bytes]] = []
            for k, b, n in zip(kinds, bits, lens):
                if b & _RAW:
                    out.append(data[at:at + n])
                    at += n
                else:
                    out.append(b"" if k == _ffi.EVENT_ANNOTATION else None)
            return out
        raise ValueError("MoveIterator.column: no Event field %r" % (field,))
