# libgamedb - the Pythonic layer of the ctypes binding.
#
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Read legacy chess game databases with libgamedb.

::

    import gamedb

    with gamedb.open("base.si4") as r:
        print(r.format, r.game_count)
        for game in r:
            print(game.index, game.tags["White"], "-", game.tags["Black"])
            for ev in game.moves(comments=False):
                if ev.type == "move":
                    print(ev.move_number, ev.colour, ev.san, ev.uci)

Lifetimes (how the binding maps the C ownership rules):

- A :class:`Game` is a snapshot: its index, tags, start FEN, variant and deleted mark are
  copied when the reader hands the game out. The game the C reader hands out is borrowed and
  reused by the next ``next_game``; the moves stay in the database until they are asked for.
  :meth:`Game.moves` takes all the events in one call (``gamedb_game_write_packed()``): while
  the reader is still on that game, straight from the reader's game, with no copy. Otherwise,
  and for :meth:`Game.pgn` or :meth:`Game.json`, the first call gives the game its own copy
  (``gamedb_game_dup()``, which decodes the moves). While the reader is still on that game
  the copy is taken from it directly; after the iteration has moved on the reader
  seeks back to the game, copies it and returns to where it was (formats that can seek:
  SCID). When the reader is closed, every :class:`Game` object still alive gets its copy
  first, so games stay fully usable after the reader is closed. Listing headers therefore
  never decodes a move, and a game kept around costs nothing until its moves are asked for.
- A :class:`MoveIterator` holds its game, and a game holds its reader until it has its own
  copy (Python references), so neither goes away under them. The iterator of
  :meth:`Game.moves` holds its events, not the C game. :meth:`Game.close` frees the game's
  copy, but a move iterator made before it keeps working to its end: the copy is freed when
  the last per-event iterator (``MoveIterator(game, flags)``) on it is done (deferred, not
  refused). After ``close()`` the game's
  own ``moves()``, ``pgn()``, ``json()`` and ``tag_raw()`` raise :class:`GamedbError`
  (``E_MISUSE``); its headers stay.
- An :class:`Event` is a snapshot too: every field is copied while the C event is valid.
- All strings are copied out of the library and decoded as UTF-8 at once.
- Memory given to :func:`open_memory` and objects given to :func:`open_io` are kept alive by
  the reader until it is closed.

Threads. The C library forbids using one handle from two threads at once; the binding makes
that safe instead of undefined. A :class:`Reader` and a :class:`Game` each carry a lock (a
:class:`threading.RLock`), and a :class:`MoveIterator` uses its game's (in C an iterator is
part of its game); every call into the library on an object runs under its lock. No thread
waits for a reader's lock while it holds a game's or the other way round, and finalisers never
wait for one, so they cannot deadlock. So:

- two threads iterating one reader share its games between them, each game whole and right
  (which thread gets which game is up to the scheduler); ``r[i]`` seeks and reads as one step;
- :meth:`Reader.close` from one thread while another reads games, or copies one for its
  moves, waits for the call in progress (close is deferred until that user is done); what the
  other thread then asks of the reader raises :class:`GamedbError` with ``detail`` ``E_MISUSE``
  and the message "the reader is closed". Games it already has keep working (close gives them
  their copy first);
- :meth:`Game.close` from one thread while another iterates the game's moves lets that
  iteration finish (see above); two threads may read one game, or take events from one move
  iterator (each event whole, in order, every event once between them);
- a converter or I/O callback runs inside a call on its reader: calling the reader from there
  raises :class:`GamedbError` (``E_MISUSE``), and ``close()`` from there happens when that
  call returns.

Formats: :func:`formats` lists the formats the library reads (name, description, file
extensions, capabilities, default charset, options), from the library's own registry.

Errors: a failing call raises :class:`GamedbError` with ``code`` (the status), ``detail`` (the
reader's detail code, e.g. ``E_IO``) and ``message`` (the library's message, which names the
file). The end of an iteration is ``StopIteration``. A file that could not be opened or read
raises :class:`GamedbIOError`, also an ``OSError``; :func:`open` of a file that does not exist,
under a file taken for a folder, that may not be read or that is a directory raises
:class:`GamedbFileNotFoundError`, :class:`GamedbNotADirectoryError`,
:class:`GamedbPermissionError` or :class:`GamedbIsADirectoryError`, which are also Python's
``FileNotFoundError``, ``NotADirectoryError``, ``PermissionError`` and ``IsADirectoryError``
(``errno``, ``strerror``, ``filename`` set), so ``except FileNotFoundError`` catches a missing base as it catches
``open()``'s. The errno is the one the library's own open or read got
(``gamedb_reader_get_os_error()``). A file no format reads raises :class:`GamedbError`
(``E_UNRECOGNIZED_FORMAT``), whose message says when the file is PGN already.

The loss ledger: no game is lost without a word. A game the library cannot hand out raises
:class:`GameFailed` (a :class:`GamedbError` with ``index``, ``number`` and ``file``) from the
iteration, which then goes on with the next game on the next ``next()``; a game whose moves
cannot be decoded raises it from :meth:`Game.moves`, :meth:`Game.pgn` and :meth:`Game.json`.
A game delivered with a loss (a name replaced, a text converted with loss, a repaired record)
has the message in :attr:`Game.warning` (set when the game is read, or when its moves are first
decoded). ``Reader.ledger`` counts the games delivered, failed and warned::

    with gamedb.open("base.si4") as r:
        while True:
            try:
                game = next(r)
                text = game.pgn()
            except StopIteration:
                break
            except gamedb.GameFailed as e:
                print("game %d of %s: %s" % (e.number, e.file, e.message))
                continue
            ...
        print(r.ledger)   # Ledger(delivered=926, failed=2, warned=1); 926 + 2 == r.game_count

Arguments are checked before they reach C: a string with a NUL in it raises ValueError
("embedded null byte"), an integer out of its C type's range OverflowError (``r[i]``:
IndexError, and negative indexes count from the end), an argument that is no integer TypeError.
"""

# The package is split by capability. Every public name is defined in one of these modules and
# re-exported here, the same object (gamedb.Reader is gamedb._reader.Reader). A module imports
# _ffi and modules above it in this list, none below it, so there is no import cycle (_game
# names Reader in annotations only, imported under TYPE_CHECKING):
#   _ffi      the C API: the library loaded, one ctypes entry per function, the constants,
#             GamedbError and the errcheck hooks that raise it
#   _errors   GamedbWarning, misuse errors, the checks of arguments before they reach C
#   _ledger   the loss ledger: GameFailed, Ledger, the per-game tally
#   _formats  version(), formats() and what only some formats have (ScidInfo, ChessbaseInfo)
#   _game     Game, Event, MoveIterator, the PGN and JSON writers, piece and square numbers
#   _query    the C query and tree behind Reader.search() and Reader.tree()
#   _reader   Reader and open(): iteration, seeking, the games' copies, the reader's ledger
#   _style12  the style 12 live API: Style12Line, Style12Session
#   _book     book(): Polyglot opening books
#   _openbook open_book(): opening books read (Arena .abk, ChessBase .ctg)
#   _io       caller I/O: open_memory(), open_io()
from . import _ffi
from ._ffi import (E_CORRUPT, E_INVALID_ARGUMENT, E_IO, E_MISUSE, E_NOMEM, E_NONE, E_RANGE,
                   E_STRUCT_SIZE, E_UNKNOWN_OPTION, E_UNRECOGNIZED_FORMAT, E_UNSUPPORTED,
                   E_UNSUPPORTED_VERSION, E_ENCODING, E_ILLEGAL_MOVE, E_CANCELLED, END, FAILED,
                   FATAL, OK, WARN, GamedbError, GamedbIOError, GamedbFileNotFoundError,
                   GamedbNotADirectoryError, GamedbPermissionError, GamedbIsADirectoryError)
from ._ffi import PROGRESS_BYTES, PROGRESS_ENTRIES, PROGRESS_GAMES
from ._ffi import CAP_COUNT, CAP_MULTIFILE, CAP_SEEK, CAP_VARIATIONS, CAP_XIANGQI
from ._errors import GamedbWarning
from ._ledger import GameFailed, Ledger
from ._formats import (version, version_number, Format, FormatOption, formats, ScidInfo,
                       ChessbaseInfo)
from ._game import (PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING, ADVISOR, ELEPHANT, CANNON,
                    square_name, Event, MoveIterator, Game)
from ._reader import Reader, open
from ._style12 import Style12Line, Style12Session
from ._book import book
from ._openbook import OpeningBook, open_book
from ._io import open_memory, open_io
from ._query import build_index
# Public names that are not in __all__ (module globals of the one-module binding): imported
# "as" themselves, which mypy --strict takes as an export.
from ._formats import CHESSASSISTANT_FIELDS as CHESSASSISTANT_FIELDS
from ._formats import CHESSBASE_FIELDS as CHESSBASE_FIELDS
from ._game import PIECE_SYMBOLS as PIECE_SYMBOLS
from ._reader import Converter as Converter
from ._reader import PathType as PathType

__all__ = [
    "open", "open_memory", "open_io", "book", "open_book", "OpeningBook", "version", "version_number", "formats",
    "Format", "FormatOption",
    "CAP_SEEK", "CAP_COUNT", "CAP_MULTIFILE", "CAP_VARIATIONS", "CAP_XIANGQI",
    "Reader", "Game", "Event", "MoveIterator", "ScidInfo", "ChessbaseInfo",
    "Style12Line", "Style12Session",
    "GamedbError", "GamedbIOError", "GamedbFileNotFoundError", "GamedbNotADirectoryError",
    "GamedbPermissionError", "GamedbIsADirectoryError", "GamedbWarning", "GameFailed", "Ledger",
    "OK", "END", "WARN", "FAILED", "FATAL",
    "E_NONE", "E_NOMEM", "E_IO", "E_UNRECOGNIZED_FORMAT", "E_CORRUPT",
    "E_UNSUPPORTED_VERSION", "E_ENCODING", "E_MISUSE", "E_RANGE", "E_STRUCT_SIZE",
    "E_UNSUPPORTED", "E_ILLEGAL_MOVE", "E_INVALID_ARGUMENT", "E_UNKNOWN_OPTION", "E_CANCELLED",
    "PROGRESS_BYTES", "PROGRESS_GAMES", "PROGRESS_ENTRIES",
    "PAWN", "KNIGHT", "BISHOP", "ROOK", "QUEEN", "KING", "ADVISOR", "ELEPHANT", "CANNON",
    "square_name", "build_index",
]

__version__ = "1.2.0"

_lib = _ffi.lib  # the loaded library (tests call the C API through it)
