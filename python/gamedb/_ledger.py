# libgamedb - the loss ledger of the Python binding: what became of every game a reader reached.
#
# SPDX-License-Identifier: LGPL-2.1-or-later
"""The loss ledger: :class:`GameFailed` (a game the library could not give), :class:`Ledger`
(``Reader.ledger``) and the tally of outcomes per game that readers and games keep."""

from typing import NamedTuple, Optional

from ._ffi import GamedbError


# ---- the loss ledger: what became of every game the reader reached ------------------------
#
# A game is delivered (headers handed out; its moves decode when asked for), delivered with a
# warning (something was lost or repaired: Game.warning says what), or failed (the library
# could not hand it out, or could not decode its moves when they were asked for). Failures
# raise GameFailed, which says which game of which file; the reader counts the outcomes per
# game index, the worst one winning, so that reading a game twice (r[i], seek) counts it once.

class GameFailed(GamedbError):
    """One game the library could not give; the reader goes on with the next game.

    Raised by iterating a :class:`Reader` (with ``errors="raise"``, the default) for a game
    the library cannot hand out, and by :meth:`Game.moves`, :meth:`Game.pgn` and
    :meth:`Game.json` of a game whose moves cannot be decoded. Besides ``code`` (``FAILED``),
    ``detail`` and ``message`` (the library's, naming file, game and place) it has ``index``
    (the game's 0-based index, as :attr:`Game.index` and ``r[i]``), ``number`` (``index + 1``,
    as messages and the command count) and ``file`` (the database, as it was opened; None for a
    game of a :class:`Style12Session`). After it, ``next(r)`` gives the following game.
    """

    def __init__(self, code: int, detail: Optional[int], message: Optional[str], index: int,
                 file: Optional[str]) -> None:
        super().__init__(code, detail, message)
        self.index = index
        self.file = file

    @property
    def number(self) -> int:
        """The game's number counted from 1, as the library's messages say it."""
        return self.index + 1

    def __repr__(self) -> str:
        return "GameFailed(index=%d, file=%r, message=%r)" % (self.index, self.file,
                                                              self.message)


#: What became of the games a :class:`Reader` reached (``Reader.ledger``): ``delivered``
#: (handed out, with or without a warning), ``failed`` (not handed out, or moves that could not
#: be decoded) and ``warned`` (the part of ``delivered`` handed out with a warning). After every
#: game was read and decoded, ``delivered + failed == game_count``.
class Ledger(NamedTuple):
    delivered: int
    failed: int
    warned: int


_DELIVERED, _WARNED, _FAILED = 1, 2, 3


class _Tally:
    """The outcome of each game index (0 not reached, then _DELIVERED < _WARNED < _FAILED; the
    worst seen stays) and how many games have each. One byte per game up to the highest index
    reached: only indexes of games the library read (or failed to read) are marked."""

    __slots__ = ("states", "counts")

    def __init__(self) -> None:
        self.states = bytearray()
        self.counts = [0, 0, 0, 0]  # per state; [0] is not used

    def mark(self, index: int, state: int) -> None:
        states = self.states
        if index >= len(states):
            states.extend(bytes(max(index + 1 - len(states), len(states))))
        old = states[index]
        if state > old:
            states[index] = state
            self.counts[old] -= 1
            self.counts[state] += 1

    def ledger(self) -> Ledger:
        c = self.counts
        return Ledger(c[_DELIVERED] + c[_WARNED], c[_FAILED], c[_WARNED])
