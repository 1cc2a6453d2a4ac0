# libgamedb - the public surface of the Python binding, pinned.
#
# SPDX-License-Identifier: LGPL-2.1-or-later
"""The names the package ``gamedb`` offers, and what each public class and function offers,
are those of the binding when it was one module (python/gamedb/__init__.py at main 0ccffcb,
before issue 27 item 4 split it into modules by capability). The expectation below was taken
once from that code with the functions of this file (``surface()``), and committed: a name, a
member, a special method (iteration, ``len``, ``with``) or a parameter lost or changed by moving
code between modules fails here. A new public name must be added here on purpose.

Members are those the package's own classes define (their ``__dict__`` and annotations, and
the attributes an instance made without a database gets), not those of ``object``,
``Exception`` or ``tuple``, which change between Python versions.
"""
import inspect
import sys

import gamedb

# The expectation, from main 0ccffcb (see above). IMPORTED: what the one-module __init__.py
# imported from the standard library (its import lines) and so showed in dir(gamedb) by
# accident; they are not the binding's API and may come and go.
ALL = ['open', 'open_memory', 'open_io', 'book',
 'open_book', 'OpeningBook',  # issue 31: opening books read (added on purpose)
 'version', 'version_number', 'formats', 'Format',
 'FormatOption', 'CAP_SEEK', 'CAP_COUNT', 'CAP_MULTIFILE', 'CAP_VARIATIONS', 'CAP_XIANGQI',
 'Reader', 'Game', 'Event', 'MoveIterator', 'ScidInfo', 'ChessbaseInfo', 'Style12Line',
 'Style12Session', 'GamedbError', 'GamedbIOError',
 'GamedbFileNotFoundError', 'GamedbNotADirectoryError', 'GamedbPermissionError',
 'GamedbIsADirectoryError',  # issue 28
 'GamedbWarning', 'GameFailed', 'Ledger',
 'OK', 'END', 'WARN', 'FAILED', 'FATAL', 'E_NONE', 'E_NOMEM', 'E_IO', 'E_UNRECOGNIZED_FORMAT',
 'E_CORRUPT', 'E_UNSUPPORTED_VERSION', 'E_ENCODING', 'E_MISUSE', 'E_RANGE', 'E_STRUCT_SIZE',
 'E_UNSUPPORTED', 'E_ILLEGAL_MOVE', 'E_INVALID_ARGUMENT', 'E_UNKNOWN_OPTION',
 'E_CANCELLED', 'PROGRESS_BYTES', 'PROGRESS_GAMES', 'PROGRESS_ENTRIES',  # issue 28 (on purpose)
 'PAWN', 'KNIGHT', 'BISHOP', 'ROOK', 'QUEEN', 'KING', 'ADVISOR', 'ELEPHANT', 'CANNON', 'square_name',
 'build_index']  # issue 30: the position index (added on purpose)
PUBLIC = ['ADVISOR', 'BISHOP', 'CANNON', 'CAP_COUNT', 'CAP_MULTIFILE', 'CAP_SEEK', 'CAP_VARIATIONS',
 'CAP_XIANGQI', 'CHESSASSISTANT_FIELDS', 'CHESSBASE_FIELDS', 'ChessbaseInfo', 'Converter',
 'ELEPHANT', 'END', 'E_CANCELLED', 'E_CORRUPT', 'E_ENCODING', 'E_ILLEGAL_MOVE', 'E_INVALID_ARGUMENT', 'E_IO',
 'E_MISUSE', 'E_NOMEM', 'E_NONE', 'E_RANGE', 'E_STRUCT_SIZE', 'E_UNKNOWN_OPTION',
 'E_UNRECOGNIZED_FORMAT', 'E_UNSUPPORTED', 'E_UNSUPPORTED_VERSION', 'Event', 'FAILED', 'FATAL',
 'Format', 'FormatOption', 'Game', 'GameFailed', 'GamedbError', 'GamedbFileNotFoundError',
 'GamedbIOError', 'GamedbIsADirectoryError', 'GamedbNotADirectoryError',
 'GamedbPermissionError',  # issue 28
 'GamedbWarning', 'KING', 'KNIGHT', 'Ledger', 'MoveIterator', 'OK',
 'OpeningBook',  # issue 31 (on purpose)
 'PAWN', 'PIECE_SYMBOLS',
 'PROGRESS_BYTES', 'PROGRESS_ENTRIES', 'PROGRESS_GAMES', 'PathType', 'QUEEN', 'ROOK', 'Reader', 'ScidInfo', 'Style12Line', 'Style12Session', 'WARN',
 'book', 'build_index',  # issue 30: the position index (on purpose)
 'formats', 'open',
 'open_book',  # issue 31 (on purpose)
 'open_io', 'open_memory', 'square_name', 'version',
 'version_number']
IMPORTED = ['builtins', 'ctypes', 'operator', 'os', 'threading', 'warnings', 'weakref', 'Any',
 'Callable', 'Dict', 'Iterable', 'Iterator', 'List', 'Mapping', 'NamedTuple', 'NoReturn',
 'Optional', 'Tuple', 'TypeVar', 'Union', 'overload', 'byref', 'c_char_p', 'c_int32', 'c_int64',
 'c_size_t', 'c_uint32', 'c_uint64', 'c_void_p']
VALUES = {'ADVISOR': 7,
 'BISHOP': 3,
 'CANNON': 9,
 'CAP_COUNT': 2,
 'CAP_MULTIFILE': 4,
 'CAP_SEEK': 1,
 'CAP_VARIATIONS': 8,
 'CAP_XIANGQI': 16,
 'CHESSASSISTANT_FIELDS': {'black_birthday': 12,
                           'black_fide_id': 11,
                           'black_gender': 13,
                           'black_id': 5,
                           'black_rating': 10,
                           'game_id': 3,
                           'game_type': 1,
                           'outcome': 2,
                           'unknown_byte': 14,
                           'white_birthday': 8,
                           'white_fide_id': 7,
                           'white_gender': 9,
                           'white_id': 4,
                           'white_rating': 6},
 'CHESSBASE_FIELDS': {'annotation_flags': 3,
                      'line_evaluation': 5,
                      'magnitude': 4,
                      'mainline_moves': 12,
                      'medals': 2,
                      'record_flags': 1,
                      'sub_eco': 6,
                      'tournament_category': 8,
                      'tournament_flags': 10,
                      'tournament_nation': 11,
                      'tournament_rounds': 9,
                      'tournament_type': 7},
 'ELEPHANT': 8,
 'END': 1,
 'E_CANCELLED': 14,
 'E_CORRUPT': 4,
 'E_ENCODING': 6,
 'E_ILLEGAL_MOVE': 11,
 'E_INVALID_ARGUMENT': 12,
 'E_IO': 2,
 'E_MISUSE': 7,
 'E_NOMEM': 1,
 'E_NONE': 0,
 'E_RANGE': 8,
 'E_STRUCT_SIZE': 9,
 'E_UNKNOWN_OPTION': 13,
 'E_UNRECOGNIZED_FORMAT': 3,
 'E_UNSUPPORTED': 10,
 'E_UNSUPPORTED_VERSION': 5,
 'FAILED': -25,
 'FATAL': -30,
 'KING': 6,
 'KNIGHT': 2,
 'OK': 0,
 'PAWN': 1,
 'PIECE_SYMBOLS': {1: 'p', 2: 'n', 3: 'b', 4: 'r', 5: 'q', 6: 'k'},
 'PROGRESS_BYTES': 1,
 'PROGRESS_ENTRIES': 3,
 'PROGRESS_GAMES': 2,
 'QUEEN': 5,
 'ROOK': 4,
 'WARN': -20}
MEMBERS = {'ChessbaseInfo': ['charset', 'texts'],
           'OpeningBook': ['close', 'format', 'position', 'probe', 'to_polyglot', 'walk'],  # issue 31
 'Event': ['annotation_type', 'chinese', 'colour', 'depth', 'fen', 'from_square', 'key',
           'language', 'move_number', 'nag', 'piece', 'promotion', 'san', 'text', 'text_raw',
           'to_square', 'type', 'uci'],
 'Format': ['archives', 'capabilities', 'charset', 'description', 'extensions', 'name', 'opens',
            'options'],  # archives: issue 28 (added on purpose)
 'FormatOption': ['default', 'description', 'key'],
 'Game': ['chessassistant', 'chessbase', 'close', 'deleted', 'detach', 'fen', 'index', 'json',
          'moves', 'pgn', 'positions', 'scid_flags', 'start_key', 'tag_list', 'tag_raw', 'tags',
          'to_dict', 'variant', 'warning'],
 'GameFailed': ['code', 'detail', 'file', 'index', 'message', 'number'],
 'GamedbError': ['code', 'detail', 'message'],
 'GamedbIOError': ['code', 'detail', 'message'],
 # issue 28: the OSError subclasses of open()'s failures
 'GamedbFileNotFoundError': ['code', 'detail', 'message'],
 'GamedbNotADirectoryError': ['code', 'detail', 'message'],
 'GamedbPermissionError': ['code', 'detail', 'message'],
 'GamedbIsADirectoryError': ['code', 'detail', 'message'],
 'GamedbWarning': [],
 'Ledger': ['delivered', 'failed', 'warned'],
 'MoveIterator': ['close', 'column'],  # column: issue 32 (the columnar walk)
 'Reader': ['capabilities', 'chessassistant_comment', 'chessbase', 'close', 'closed',
            'delivered', 'errors', 'failed', 'format', 'game_count', 'ledger', 'open_warning',
            'properties',  # issue 29: a base's own properties (on purpose)
            'scid', 'search', 'seek', 'set_option', 'tree', 'warned'],  # search, tree: issue 30
 'ScidInfo': ['autoload', 'base_type', 'description', 'flag_names', 'version'],
 'Style12Line': ['base_minutes', 'black', 'black_clock_ms', 'black_holdings', 'black_material',
                 'castling', 'clocks_in_ms', 'close', 'double_push_file', 'fen', 'flip',
                 'game_number', 'halfmove_clock', 'increment_seconds', 'kind', 'move_number',
                 'move_san', 'move_uci', 'move_verbose', 'passed', 'ply', 'relation',
                 'set_holdings', 'side_to_move', 'time_taken', 'time_taken_ms', 'white',
                 'white_clock_ms', 'white_holdings', 'white_material'],
 'Style12Session': ['close', 'end', 'feed', 'live_count', 'peek', 'warnings']}
SPECIAL = {'ChessbaseInfo': ['__init__', '__repr__'],
           'OpeningBook': ['__del__', '__enter__', '__exit__', '__init__', '__iter__',
                           '__repr__'],  # issue 31
 'Event': ['__init__', '__repr__'],
 'Format': [],
 'FormatOption': [],
 'Game': ['__del__', '__getitem__', '__init__', '__repr__'],
 'GameFailed': ['__init__', '__repr__'],
 'GamedbError': ['__init__', '__repr__'],
 'GamedbIOError': ['__init__', '__repr__', '__str__'],  # __str__: issue 28
 'GamedbFileNotFoundError': ['__init__', '__repr__', '__str__'],
 'GamedbNotADirectoryError': ['__init__', '__repr__', '__str__'],
 'GamedbPermissionError': ['__init__', '__repr__', '__str__'],
 'GamedbIsADirectoryError': ['__init__', '__repr__', '__str__'],
 'GamedbWarning': [],
 'Ledger': [],
 'MoveIterator': ['__del__', '__enter__', '__exit__', '__init__', '__iter__', '__next__'],
 'Reader': ['__del__', '__enter__', '__exit__', '__getitem__', '__init__', '__iter__',
            '__len__', '__next__', '__repr__'],
 'ScidInfo': ['__init__', '__repr__'],
 'Style12Line': ['__del__', '__init__', '__repr__'],
 'Style12Session': ['__del__', '__enter__', '__exit__', '__init__']}
SIGNATURES = {
 # issue 31: opening books read (added on purpose)
 'OpeningBook.__init__': [('self', 'POSITIONAL_OR_KEYWORD', None),
                          ('bp', 'POSITIONAL_OR_KEYWORD', None),
                          ('path', 'POSITIONAL_OR_KEYWORD', None)],
 'OpeningBook.close': [('self', 'POSITIONAL_OR_KEYWORD', None)],
 'OpeningBook.format': 'property',
 'OpeningBook.position': [('self', 'POSITIONAL_OR_KEYWORD', None),
                          ('fen', 'POSITIONAL_OR_KEYWORD', None)],
 'OpeningBook.probe': [('self', 'POSITIONAL_OR_KEYWORD', None),
                       ('fen', 'POSITIONAL_OR_KEYWORD', None)],
 'OpeningBook.to_polyglot': [('self', 'POSITIONAL_OR_KEYWORD', None),
                             ('path', 'POSITIONAL_OR_KEYWORD', 'None')],
 'OpeningBook.walk': [('self', 'POSITIONAL_OR_KEYWORD', None),
                      ('max_ply', 'POSITIONAL_OR_KEYWORD', 'None')],
 'open_book': [('path', 'POSITIONAL_OR_KEYWORD', None)],
 'build_index': [('output', 'POSITIONAL_OR_KEYWORD', None),  # issue 30 (on purpose)
                 ('bases', 'VAR_POSITIONAL', None)],
'ChessbaseInfo.__init__': [('self', 'POSITIONAL_OR_KEYWORD', None),
                            ('cp', 'POSITIONAL_OR_KEYWORD', None)],
 'Event.__init__': [('self', 'POSITIONAL_OR_KEYWORD', None),
                    ('evp', 'POSITIONAL_OR_KEYWORD', None),
                    ('xiangqi', 'POSITIONAL_OR_KEYWORD', 'True'),
                    ('fen', 'POSITIONAL_OR_KEYWORD', 'True'),
                    ('key', 'POSITIONAL_OR_KEYWORD', 'False')],
 'Game.__init__': [('self', 'POSITIONAL_OR_KEYWORD', None),
                   ('reader', 'POSITIONAL_OR_KEYWORD', None),
                   ('gp', 'POSITIONAL_OR_KEYWORD', None),
                   ('warning', 'POSITIONAL_OR_KEYWORD', 'None')],
 'Game.chessbase': 'property',  # issue 32: read when first asked for (on purpose)
 'Game.close': [('self', 'POSITIONAL_OR_KEYWORD', None)],
 'Game.detach': [('self', 'POSITIONAL_OR_KEYWORD', None)],
 'Game.json': [('self', 'POSITIONAL_OR_KEYWORD', None),
               ('comments', 'POSITIONAL_OR_KEYWORD', 'True'),
               ('variations', 'POSITIONAL_OR_KEYWORD', 'True'),
               ('nags', 'POSITIONAL_OR_KEYWORD', 'True'),
               ('flags', 'POSITIONAL_OR_KEYWORD', '0')],
 'Game.moves': [('self', 'POSITIONAL_OR_KEYWORD', None),
                ('mainline_only', 'POSITIONAL_OR_KEYWORD', 'False'),
                ('comments', 'POSITIONAL_OR_KEYWORD', 'True'),
                ('fen', 'POSITIONAL_OR_KEYWORD', 'False'),
                ('partial', 'POSITIONAL_OR_KEYWORD', 'False'),
                ('key', 'POSITIONAL_OR_KEYWORD', 'False'),
                ('uci_king_takes_rook', 'POSITIONAL_OR_KEYWORD', 'False')],
 'Game.pgn': [('self', 'POSITIONAL_OR_KEYWORD', None),
              ('comments', 'POSITIONAL_OR_KEYWORD', 'True'),
              ('variations', 'POSITIONAL_OR_KEYWORD', 'True'),
              ('nags', 'POSITIONAL_OR_KEYWORD', 'True'),
              ('flags', 'POSITIONAL_OR_KEYWORD', '0')],
 'Game.positions': [('self', 'POSITIONAL_OR_KEYWORD', None)],
 'Game.start_key': [('self', 'POSITIONAL_OR_KEYWORD', None)],
 'Game.tag_raw': [('self', 'POSITIONAL_OR_KEYWORD', None),
                  ('name', 'POSITIONAL_OR_KEYWORD', None)],
 'Game.tag_list': 'property',  # issue 32: the pairs made when first asked for (on purpose)
 'Game.to_dict': [('self', 'POSITIONAL_OR_KEYWORD', None),
                  ('comments', 'POSITIONAL_OR_KEYWORD', 'True'),
                  ('variations', 'POSITIONAL_OR_KEYWORD', 'True'),
                  ('nags', 'POSITIONAL_OR_KEYWORD', 'True'),
                  ('flags', 'POSITIONAL_OR_KEYWORD', '0')],
 'GameFailed.__init__': [('self', 'POSITIONAL_OR_KEYWORD', None),
                         ('code', 'POSITIONAL_OR_KEYWORD', None),
                         ('detail', 'POSITIONAL_OR_KEYWORD', None),
                         ('message', 'POSITIONAL_OR_KEYWORD', None),
                         ('index', 'POSITIONAL_OR_KEYWORD', None),
                         ('file', 'POSITIONAL_OR_KEYWORD', None)],
 'GameFailed.number': 'property',
 'GamedbError.__init__': [('self', 'POSITIONAL_OR_KEYWORD', None),
                          ('code', 'POSITIONAL_OR_KEYWORD', None),
                          ('detail', 'POSITIONAL_OR_KEYWORD', 'None'),
                          ('message', 'POSITIONAL_OR_KEYWORD', "''")],
 'GamedbIOError.__init__': [('self', 'POSITIONAL_OR_KEYWORD', None),
                            ('code', 'POSITIONAL_OR_KEYWORD', None),
                            ('detail', 'POSITIONAL_OR_KEYWORD', 'None'),
                            ('message', 'POSITIONAL_OR_KEYWORD', "''")],
 'GamedbFileNotFoundError.__init__': [('self', 'POSITIONAL_OR_KEYWORD', None),
     ('code', 'POSITIONAL_OR_KEYWORD', None), ('detail', 'POSITIONAL_OR_KEYWORD', 'None'),
     ('message', 'POSITIONAL_OR_KEYWORD', "''")],
 'GamedbNotADirectoryError.__init__': [('self', 'POSITIONAL_OR_KEYWORD', None),
     ('code', 'POSITIONAL_OR_KEYWORD', None), ('detail', 'POSITIONAL_OR_KEYWORD', 'None'),
     ('message', 'POSITIONAL_OR_KEYWORD', "''")],
 'GamedbPermissionError.__init__': [('self', 'POSITIONAL_OR_KEYWORD', None),
     ('code', 'POSITIONAL_OR_KEYWORD', None), ('detail', 'POSITIONAL_OR_KEYWORD', 'None'),
     ('message', 'POSITIONAL_OR_KEYWORD', "''")],
 'GamedbIsADirectoryError.__init__': [('self', 'POSITIONAL_OR_KEYWORD', None),
     ('code', 'POSITIONAL_OR_KEYWORD', None), ('detail', 'POSITIONAL_OR_KEYWORD', 'None'),
     ('message', 'POSITIONAL_OR_KEYWORD', "''")],
 'MoveIterator.__init__': [('self', 'POSITIONAL_OR_KEYWORD', None),
                           ('game', 'POSITIONAL_OR_KEYWORD', None),
                           ('flags', 'POSITIONAL_OR_KEYWORD', None),
                           ('key', 'POSITIONAL_OR_KEYWORD', 'False')],
 'MoveIterator.close': [('self', 'POSITIONAL_OR_KEYWORD', None)],
 'MoveIterator.column': [('self', 'POSITIONAL_OR_KEYWORD', None),
                         ('field', 'POSITIONAL_OR_KEYWORD', None)],
 'Reader.__init__': [('self', 'POSITIONAL_OR_KEYWORD', None),
                     ('charset', 'POSITIONAL_OR_KEYWORD', 'None'),
                     ('format', 'POSITIONAL_OR_KEYWORD', 'None'),
                     ('errors', 'POSITIONAL_OR_KEYWORD', "'raise'"),
                     ('converter', 'POSITIONAL_OR_KEYWORD', 'None'),
                     ('options', 'POSITIONAL_OR_KEYWORD', 'None'),
                     ('progress', 'POSITIONAL_OR_KEYWORD', 'None')],  # issue 28
 'Reader.capabilities': 'property',
 'Reader.close': [('self', 'POSITIONAL_OR_KEYWORD', None)],
 'Reader.closed': 'property',
 'Reader.delivered': 'property',
 'Reader.failed': 'property',
 'Reader.format': 'property',
 'Reader.game_count': 'property',
 'Reader.ledger': 'property',
 'Reader.search': [('self', 'POSITIONAL_OR_KEYWORD', None),  # issue 30
                   ('fen', 'POSITIONAL_OR_KEYWORD', 'None'),
                   ('moves', 'POSITIONAL_OR_KEYWORD', 'None'),
                   ('where', 'POSITIONAL_OR_KEYWORD', 'None'),
                   ('index', 'POSITIONAL_OR_KEYWORD', 'None')],  # the position index
 'Reader.seek': [('self', 'POSITIONAL_OR_KEYWORD', None),
                 ('index', 'POSITIONAL_OR_KEYWORD', None)],
 'Reader.set_option': [('self', 'POSITIONAL_OR_KEYWORD', None),
                       ('key', 'POSITIONAL_OR_KEYWORD', None),
                       ('value', 'POSITIONAL_OR_KEYWORD', None),
                       ('format', 'POSITIONAL_OR_KEYWORD', 'None')],
 'Reader.tree': [('self', 'POSITIONAL_OR_KEYWORD', None),  # issue 30
                 ('fen', 'POSITIONAL_OR_KEYWORD', 'None'),
                 ('moves', 'POSITIONAL_OR_KEYWORD', 'None'),
                 ('where', 'POSITIONAL_OR_KEYWORD', 'None'),
                 ('include_deleted', 'POSITIONAL_OR_KEYWORD', 'True'),
                 ('index', 'POSITIONAL_OR_KEYWORD', 'None')],  # the position index
 'Reader.warned': 'property',
 'ScidInfo.__init__': [('self', 'POSITIONAL_OR_KEYWORD', None),
                       ('sp', 'POSITIONAL_OR_KEYWORD', None)],
 'Style12Line.__init__': [('self', 'POSITIONAL_OR_KEYWORD', None),
                          ('text', 'POSITIONAL_OR_KEYWORD', None)],
 'Style12Line.close': [('self', 'POSITIONAL_OR_KEYWORD', None)],
 'Style12Line.set_holdings': [('self', 'POSITIONAL_OR_KEYWORD', None),
                              ('b1', 'POSITIONAL_OR_KEYWORD', None)],
 'Style12Session.__init__': [('self', 'POSITIONAL_OR_KEYWORD', None),
                             ('name', 'POSITIONAL_OR_KEYWORD', "'live'")],
 'Style12Session.close': [('self', 'POSITIONAL_OR_KEYWORD', None)],
 'Style12Session.end': [('self', 'POSITIONAL_OR_KEYWORD', None)],
 'Style12Session.feed': [('self', 'POSITIONAL_OR_KEYWORD', None),
                         ('data', 'POSITIONAL_OR_KEYWORD', None)],
 'Style12Session.live_count': 'property',
 'Style12Session.peek': [('self', 'POSITIONAL_OR_KEYWORD', None),
                         ('i', 'POSITIONAL_OR_KEYWORD', '0')],
 'book': [('databases', 'POSITIONAL_OR_KEYWORD', None),
          ('path', 'POSITIONAL_OR_KEYWORD', 'None'),
          ('progress', 'POSITIONAL_OR_KEYWORD', 'None'),  # issue 28
          ('options', 'VAR_KEYWORD', None)],
 'formats': [],
 'open': [('path', 'POSITIONAL_OR_KEYWORD', None),
          ('charset', 'POSITIONAL_OR_KEYWORD', 'None'),
          ('format', 'POSITIONAL_OR_KEYWORD', 'None'),
          ('errors', 'POSITIONAL_OR_KEYWORD', "'raise'"),
          ('converter', 'POSITIONAL_OR_KEYWORD', 'None'),
          ('options', 'POSITIONAL_OR_KEYWORD', 'None'),
          ('progress', 'POSITIONAL_OR_KEYWORD', 'None')],  # issue 28
 'open_io': [('source', 'POSITIONAL_OR_KEYWORD', None),
             ('name', 'POSITIONAL_OR_KEYWORD', None),
             ('kwargs', 'VAR_KEYWORD', None)],
 'open_memory': [('files', 'POSITIONAL_OR_KEYWORD', None),
                 ('primary', 'POSITIONAL_OR_KEYWORD', 'None'),
                 ('kwargs', 'VAR_KEYWORD', None)],
 'square_name': [('square', 'POSITIONAL_OR_KEYWORD', None)],
 'version': [],
 'version_number': []}

def _ours(cls):
    return cls.__module__ == "gamedb" or cls.__module__.startswith("gamedb.")


def _members(cls, instance=None):
    names = set()
    for c in cls.__mro__:
        if _ours(c):
            names.update(c.__dict__)
            names.update(c.__dict__.get("__annotations__", {}))
    if instance is not None:
        names.update(vars(instance) if hasattr(instance, "__dict__") else ())
    return sorted(n for n in names if not n.startswith("_"))


def _special(cls):
    """The special methods the binding's own code defines on a class (its protocols:
    iteration, len, indexing, with): written in the package, not made by NamedTuple."""
    names = set()
    for c in cls.__mro__:
        if _ours(c):
            for n, a in c.__dict__.items():
                f = getattr(a, "__func__", a)
                code = getattr(f, "__code__", None)
                if n.startswith("__") and code is not None and \
                        "gamedb" in code.co_filename.replace("\\", "/").split("/"):
                    names.add(n)
    return sorted(names)


def _signature(fn):
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return None
    return [(p.name, p.kind.name, None if p.default is p.empty else repr(p.default))
            for p in sig.parameters.values()]


def surface():
    """(public names, values, members, special methods, signatures) of the package now."""
    public = sorted(n for n in dir(gamedb) if not n.startswith("_") and n not in IMPORTED)
    instances = {
        "Reader": gamedb.Reader(),
        "Style12Session": gamedb.Style12Session(),
        "GamedbError": gamedb.GamedbError(gamedb.FAILED, gamedb.E_IO, "m"),
        "GamedbIOError": gamedb.GamedbIOError(gamedb.FAILED, gamedb.E_IO, "m"),
        "GamedbFileNotFoundError": gamedb.GamedbFileNotFoundError(gamedb.FAILED, gamedb.E_IO, "m"),
        "GamedbNotADirectoryError": gamedb.GamedbNotADirectoryError(gamedb.FAILED, gamedb.E_IO,
                                                                    "m"),
        "GamedbPermissionError": gamedb.GamedbPermissionError(gamedb.FAILED, gamedb.E_IO, "m"),
        "GamedbIsADirectoryError": gamedb.GamedbIsADirectoryError(gamedb.FAILED, gamedb.E_IO,
                                                                  "m"),
        "GameFailed": gamedb.GameFailed(gamedb.FAILED, gamedb.E_IO, "m", 0, "f"),
    }
    classes, functions, values, specials = {}, {}, {}, {}
    for n in public:
        o = getattr(gamedb, n)
        if isinstance(o, type):
            classes[n] = _members(o, instances.get(n))
            specials[n] = _special(o)
            if "__init__" in specials[n]:
                functions[n + ".__init__"] = _signature(o.__init__)
            for m in classes[n]:
                a = inspect.getattr_static(o, m, None)
                if isinstance(a, (staticmethod, classmethod)):
                    a = a.__func__
                if inspect.isfunction(a):
                    functions["%s.%s" % (n, m)] = _signature(a)
                elif isinstance(a, property):
                    functions["%s.%s" % (n, m)] = "property"
        elif inspect.isfunction(o):
            functions[n] = _signature(o)
        elif isinstance(o, (int, str, dict, tuple)):
            values[n] = o
    for i in instances.values():
        getattr(i, "close", lambda: None)()
    return public, values, classes, specials, functions


def test_all_is_unchanged():
    assert gamedb.__all__ == ALL
    for n in gamedb.__all__:
        assert hasattr(gamedb, n), n


def test_public_names_are_unchanged():
    public, values, _, _, _ = surface()
    assert public == PUBLIC
    assert values == VALUES


def test_public_classes_are_unchanged():
    _, _, members, specials, _ = surface()
    assert members == MEMBERS
    assert specials == SPECIAL


def test_signatures_are_unchanged():
    assert surface()[4] == SIGNATURES


def test_each_name_is_the_object_its_module_defines():
    """gamedb.X is the class or function of the module that defines it (gamedb.Reader is
    gamedb._reader.Reader): re-exported, never copied or wrapped."""
    for n in PUBLIC:
        o = getattr(gamedb, n)
        if isinstance(o, type) or inspect.isfunction(o):
            home = sys.modules[o.__module__]
            assert home.__name__ == "gamedb" or home.__name__.startswith("gamedb."), n
            assert getattr(home, o.__qualname__) is o, n
