# libgamedb - what the Python binding raises besides the library's own errors.
#
# SPDX-License-Identifier: LGPL-2.1-or-later
"""The binding's warnings and misuse errors, and the checks of arguments before they reach C.

:class:`GamedbError` and :class:`GamedbIOError` (a failing call of the library) and the
``errcheck`` hooks that raise them are in ``_ffi.py``; :class:`GameFailed` is part of the loss
ledger (``_ledger.py``).
"""

import operator
import os
from typing import Any, Optional

from ._ffi import E_MISUSE, FAILED, GamedbError


class GamedbWarning(UserWarning):
    """An unreadable game skipped by a reader opened with ``errors="warn"``, or left out of
    :func:`book`. (A game delivered with a loss says so in :attr:`Game.warning` instead.)"""


def _misuse(message: str) -> GamedbError:
    return GamedbError(FAILED, E_MISUSE, message)


# ---- arguments passed to C ----------------------------------------------------------------
#
# ctypes passes what it is given without a word: an int too large for the C type loses its
# high bits (r[2**64 + 5] was game 5), a negative one becomes a large unsigned one, and a string
# ends at its first NUL (open("a.si4\0x") opened a.si4). Every argument is checked here before
# it reaches the library, as Python's own functions check theirs.

_UINT32_MAX = 2 ** 32 - 1
_UINT64_MAX = 2 ** 64 - 1


def _enc(s: Any, what: str = "a string argument") -> Optional[bytes]:
    """A str or path as the bytes the C API takes (None stays None). A NUL inside raises
    ValueError ("embedded null byte", as Python's open() says): C would end the string there."""
    if s is None:
        return None
    if isinstance(s, bytes):
        data = s
    elif isinstance(s, str):
        data = s.encode("utf-8")
    else:
        data = os.fsencode(s)
    if b"\0" in data:
        raise ValueError("embedded null byte in %s" % what)
    return data


def _int_arg(value: Any, what: str) -> int:
    """An integer argument as int: an int, a bool or anything with __index__ (as a list index
    takes); TypeError for anything else (a float, a str)."""
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError("%s must be an integer, not %s" % (what, type(value).__name__)) from None


def _c_unsigned(value: Any, limit: int, what: str) -> int:
    """An integer argument for an unsigned C type whose largest value is ``limit``: TypeError
    if it is no integer, OverflowError if it is negative or above ``limit``."""
    v = _int_arg(value, what)
    if not 0 <= v <= limit:
        raise OverflowError("%s %d is out of range (0 to %d)" % (what, v, limit))
    return v
