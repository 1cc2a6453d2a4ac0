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
from array import array
from ctypes import byref, c_size_t
from operator import itemgetter
from typing import Any, Dict, List, Optional, Tuple

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
assert _SAN | _UCI == 3  # (events() tests a move's bits against the literal)
_ANNOTATION, _NAG = _ffi.EVENT_ANNOTATION, _ffi.EVENT_NAG

# Buffers not in use, each (bytearray, the ctypes array over it, its size as a c_size_t, the
# c_size_t the packed size is written to, byref() of it): a call takes one (list.pop() and
# append() are atomic, so threads, and a converter callback inside a call, each get their
# own) and gives it back when the game is copied out of it. A game larger than the first
# buffer gets one of its size, kept up to _KEEP.
_FIRST = 1 << 16
_KEEP = 1 << 22
_pool: List[Any] = []
# The header's fields a reader of it needs, in one unpacking each (gamedb.h's layout: H at 8,
# the flags, E, T, the string section at 24 and its length, the index at 40, the variant,
# deleted; with PACK_GROUPED the six groups' offsets at 56).
_TAGS = struct.Struct("<20xIII8xQII")
_COLS = struct.Struct("<8xIII4xII24x6I")
_write_packed = _ffi.write_packed_unchecked


def _new_buffer(size: int) -> Tuple[bytearray, Any, Any, Any, Any]:
    """A buffer of _pool."""
    data = bytearray(size)
    n = c_size_t()
    return data, (ctypes.c_char * size).from_buffer(data), c_size_t(size), n, byref(n)


def _failed(gp: Any) -> None:
    """Raises the GamedbError of a packing that failed (its message from the game, as the
    other calls on a game)."""
    _ffi._errcheck_game(FAILED, _lib.gamedb_game_write_packed, (gp,))


def _again(gp: Any, flags: int, size: int, buf: Any) -> Tuple[int, bytearray, int, Any]:
    """A game larger than buf, packed again into a buffer of its size: (status, its bytes,
    their size, the buffer to give back to the pool: the new one up to _KEEP, else buf)."""
    big = _new_buffer(size)
    rc = _write_packed(gp, flags, big[1], big[2], big[4])
    if rc < 0 and rc != WARN:
        _failed(gp)
    if big[3].value > size:  # the game changed between the calls: cannot happen
        raise _ffi.GamedbError(FAILED, None, "gamedb_game_write_packed: size changed")
    return rc, big[0], big[3].value, big if size <= _KEEP else buf


def _bad_layout() -> None:
    raise _ffi.GamedbError(FAILED, None, "gamedb_game_write_packed: unknown layout")


# write() and write_header() take a buffer from the pool, pack into it (_pack()), copy out what
# they give, and give the buffer back.

def _pack(gp: Any, flags: int, buf: Any) -> Tuple[int, Any, int, Any]:
    """gp packed with flags into the pool buffer buf: (status, the bytes' buffer, their size,
    the pool buffer now used: a larger one when buf was too small). A failure raises
    GamedbError as the other calls on a game do (its message from the game)."""
    data, cbuf, cap, n, n_ref = buf
    rc = _write_packed(gp, flags, cbuf, cap, n_ref)
    if rc < 0 and rc != WARN:
        _failed(gp)
    size = n.value
    if size > len(data):
        rc, data, size, buf = _again(gp, flags, size, buf)
    if not data.startswith(_MAGIC):
        _bad_layout()
    return rc, data, size, buf


def write(gp: Any, flags: int) -> Tuple[int, bytes]:
    """(status, bytes) of gp packed with flags: OK, or WARN for a partial game (ITER_PARTIAL).
    A failure raises GamedbError as the other calls on a game do (its message from the
    game)."""
    try:
        buf = _pool.pop()
    except IndexError:
        buf = _new_buffer(_FIRST)
    try:
        rc, data, size, buf = _pack(gp, flags, buf)
        return rc, bytes(memoryview(data)[:size])
    finally:
        _pool.append(buf)


def write_header(gp: Any) -> Tuple[int, Tuple[List[str], List[str]], Dict[str, str], str, int,
                                   bool]:
    """header() of gp packed with PACK_NO_MOVES."""
    try:
        buf = _pool.pop()
    except IndexError:
        buf = _new_buffer(_FIRST)
    try:
        _, data, _, buf = _pack(gp, PACK_NO_MOVES, buf)
        return header(data)
    finally:
        _pool.append(buf)


def header(view: Any) -> Tuple[int, Tuple[List[str], List[str]], Dict[str, str], str, int,
                               bool]:
    """(index, the tags' names and values as two lists, the tags as a dict (the first value
    of a repeated tag), start FEN, variant number, deleted) of a packed game (bytes, or a
    bytearray that starts with it). The (name, value) pairs are made from the two lists when
    first asked for (Game.tag_list): a walk that reads the dict does not pay for them."""
    ntags, soff, slen, index, variant, deleted = _TAGS.unpack_from(view)
    strs = view[soff:soff + slen].decode("utf-8", "replace").split("\0", 2 * ntags + 1)
    n2 = 2 * ntags
    names, values = strs[0:n2:2], strs[1:n2:2]
    tags: Dict[str, str] = dict(zip(names, values))
    if len(tags) != ntags:  # a repeated tag: the first one wins in the dict
        tags = {}
        for key, val in zip(names, values):
            tags.setdefault(key, val)
    return index, (names, values), tags, strs[n2], variant, bool(deleted)


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
    else:
        strs = str(view[soff:soff + slen], "utf-8", "replace").split("\0")
        san = uci = chinese = fen = text = language = iter(strs[2 * ntags + 1:]).__next__
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
            if bits == 3:  # _SAN | _UCI, as a literal: no lookups on the hot path
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
        if t == _ANNOTATION:
            e.annotation_type = num
            if not bits & _RAW:
                e.text_raw = b""
        elif t == _NAG:
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
# An Event's string field to its bit and the index of its group.
_STRING_FIELDS = {k: (bit, _GROUP_OF[bit]) for k, bit in _STRING_BITS.items()}
# For each string bit, the bytes.translate() table of a record's bits to 1 (has it) or 0.
_HAS = {bit: bytes(1 if b & bit else 0 for b in range(256)) for bit in _STRING_BITS.values()}
_ZERO_NONE: Tuple[Optional[int], ...] = (None,) + tuple(range(1, 256))
# A square's high byte when its low byte is b and the square is -1 (no square) or 0..254:
# 0xff for 0xff, else 0. A column of squares whose high bytes are these is read from its low
# bytes alone (255 is then -1, None).
_HIGH_OF = bytes(255 if b == 255 else 0 for b in range(256))
_MOVE = 1


def _spread(has: bytes, values: List[Any]) -> List[Any]:
    """A list as long as has: values in order at the places of its bytes 1, None at its bytes
    0. When the Nones are few (a SAN on every move but the result) they are inserted into
    values (which is used up); when values are many, runs of them are copied as slices (a
    Python step per byte 0); when few (a text on a result), set one by one."""
    missing = len(has) - len(values)
    if 8 * missing <= len(has):
        find = has.find
        i = find(0)
        while i >= 0:
            values.insert(i, None)
            i = find(0, i + 1)
        return values
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

    __slots__ = ("_data", "_kinds", "_bits", "_offs", "_start", "_end", "_type_table")

    def __init__(self, data: bytes, type_names: Any) -> None:
        hsize, flags, nevents, soff, slen, o0, o1, o2, o3, o4, o5 = _COLS.unpack_from(data)
        if not flags & PACK_GROUPED:
            raise ValueError("_packed.Columns: a game packed with PACK_GROUPED only")
        self._offs = (o0, o1, o2, o3, o4, o5, soff + slen)
        self._data = data
        self._start = hsize
        self._end = end = hsize + 32 * nevents
        self._kinds = data[hsize:end:32]
        self._bits = data[hsize + 1:end:32]
        self._type_table = type_names

    def __len__(self) -> int:
        return len(self._kinds)

    def column(self, field: str) -> List[Any]:
        """The values of field field of every event (a new list each call)."""
        kinds, bits = self._kinds, self._bits
        # (itemgetter and comprehensions: map over a bound method is slower)
        string = _STRING_FIELDS.get(field)
        if string is not None:
            bit, i = string
            a, b = self._offs[i], self._offs[i + 1]
            if a == b:
                return [None] * len(bits)
            group = self._data[a:b].decode("utf-8", "replace").split("\0")
            group.pop()  # after the last NUL
            if len(group) == len(bits):
                return group
            return _spread(bits.translate(_HAS[bit]), group)
        if field == "type":
            return _lookup(self._type_table, kinds)
        recs = memoryview(self._data)[self._start:self._end]  # no copy
        if field == "depth":
            depths: List[int] = _ints("i", recs)[2::8].tolist()
            return depths
        if field in ("from_square", "to_square"):
            # (not a move, or a drop: -1, None)
            data, end = self._data, self._end
            at = end - 32 * len(kinds) + (4 if field == "from_square" else 6)
            low = data[at:end:32]
            if data[at + 1:end:32] == low.translate(_HIGH_OF):
                squares: List[Any] = list(low)
                find = low.find
                i = find(255)
                while i >= 0:
                    squares[i] = None
                    i = find(255, i + 1)
                return squares
            squares = _ints("h", recs)[2 if field == "from_square" else 3::16].tolist()
            return _none_for(-1, squares)
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
