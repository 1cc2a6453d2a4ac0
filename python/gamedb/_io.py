# libgamedb - caller I/O for the Python binding: databases in memory and through Python I/O.
#
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Databases the caller gives instead of a path: bytes in memory (:func:`open_memory`) and
Python I/O, a dict of bytes or file objects or a callable (:func:`open_io`, which hands the
library a ``struct gamedb_io`` of Python callbacks). The reader keeps what it is given alive
until it is closed."""

import ctypes
import io as _io
import os
import weakref
from typing import Any, Callable, Dict, Mapping, Optional, Tuple, Union
from ctypes import byref, c_char_p, c_size_t, c_void_p

from . import _ffi
from ._errors import _enc
from ._reader import Reader

_lib = _ffi.lib


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
