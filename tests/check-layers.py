#!/usr/bin/env python3
"""Keeps the library's layers honest (ARCHITECTURE.md, issue 19 item 5).

The lower layers of lib/ may use only themselves, the layers below them and the public header:

    util   (lib/util: buffers)          nothing else of the library
    io     (lib/io: files and sources)  util
    text   (lib/text: charsets)         util
    board  (lib/board: rules)           util
    core   (lib/core: reader, game,     util, io, text, board, formats and containers (their
            move iterator)               registries only, below); never a writer
    write  (lib/write: PGN, JSON, ...)  util, the public API (a gamedb_* function, wherever it
                                        is defined) and of lib/core only the writers' cursor:
                                        the header core/cursor.h (which itself includes only
                                        the public header) and the gamedb__* functions it
                                        declares; so no writer reads a move node or a game's
                                        insides (issue 27)
    containers (lib/containers: files that hold a base, issue 27)
                                        util, io, and of lib/core only the error setter
                                        (core/error.c, core/error.h: a layer of its own here)
    books  (lib/books: opening books    util, io, board; never the reader core, a format of
            read, issue 31)             games or a writer

and the reader core (lib/core) names no format and no container: of lib/formats and
lib/containers it may include only the vtable headers (formats/format.h,
containers/container.h) and use only what their registries (registry.c) define.

Two checks, both over every file of those layers:

  1. includes: every `#include "..."` of a .c or .h file, resolved the way the compiler does
     (the file's own folder, then lib/, then include/), must land in an allowed layer or in the
     public include/gamedb/ (generated gamedb/*.h included); so no lower layer includes the
     reader's or the game's header (lib/core), a format's or a writer's;
  2. symbols: every symbol a lower layer's object file leaves undefined (`nm -u`) that another
     object of the library defines must be defined by an allowed layer; so no lower layer calls
     a function of lib/core (or of a format, or a writer), whatever header declared it.
Both hold for the core's rule too, with the headers and the registries as the only doors.

Usage: check-layers.py SOURCE_ROOT STATIC_ARCHIVE  (the gamedb-internal archive: all objects)
       check-layers.py --self-test                   (the checks catch what they must)
Exits 0 when all holds, 1 with one line per breach, 77 (skip) when there is no `nm`.
Before the real checks it runs its self-test, so a checker that has gone blind fails too.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

ALLOWED = {
    'util': {'util'},
    'io': {'util', 'io'},
    'text': {'util', 'text'},
    'board': {'util', 'board'},
    'core': {'util', 'io', 'text', 'board', 'core', 'core/error', 'formats', 'containers'},
    'write': {'util', 'write'},
    'containers': {'util', 'io', 'containers', 'core/error'},
    'books': {'util', 'io', 'board', 'books'},
}
# The files of lib/core that are a layer of their own: the error setter every layer may call.
OWN_LAYER = {'core/error.c': 'core/error', 'core/error.h': 'core/error'}
# The core's rule: the layers it may reach only through these headers and this source file.
CORE_DOORS = {
    'formats': ({'formats/format.h'}, 'registry.c'),
    'containers': ({'containers/container.h'}, 'registry.c'),
}
# Single files of another layer a layer may include (relative to lib/): each may itself
# include only the public header. Their gamedb__* functions the layer may call.
ALLOWED_FILES = {
    'write': {'core/cursor.h'},
}
# Layers built on the public API: they may call any exported gamedb_* function.
PUBLIC_API = {'write'}
INCLUDE_RE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)


def layer_of(path, lib_dir):
    """The layer (first folder under lib/) of a path, or None if it is not under lib/."""
    rel = os.path.relpath(os.path.realpath(path), os.path.realpath(lib_dir))
    if rel.startswith('..') or os.sep not in rel:
        return None if rel.startswith('..') else '(lib)'
    return OWN_LAYER.get(rel.replace(os.sep, '/'), rel.split(os.sep)[0])


def resolve(target, folder, lib_dir, inc_dir):
    """Where an include lands (the compiler's order), or None."""
    for base in (folder, lib_dir, inc_dir):
        cand = os.path.normpath(os.path.join(base, target))
        if os.path.exists(cand):
            return cand
    return None


def check_core_includes(root):
    """Breaches of the core's rule for includes: a format's or a container's own header."""
    lib_dir = os.path.join(root, 'lib')
    inc_dir = os.path.join(root, 'include')
    folder = os.path.join(lib_dir, 'core')
    out = []
    if not os.path.isdir(folder):
        return ['lib/core: no such folder']
    for name in sorted(os.listdir(folder)):
        if not name.endswith(('.c', '.h')):
            continue
        with open(os.path.join(folder, name), encoding='utf-8', errors='replace') as fh:
            text = fh.read()
        for target in INCLUDE_RE.findall(text):
            where = resolve(target, folder, lib_dir, inc_dir)
            if where is None:
                continue
            got = layer_of(where, lib_dir)
            if got not in CORE_DOORS:
                continue
            rel = os.path.relpath(os.path.realpath(where),
                                  os.path.realpath(lib_dir)).replace(os.sep, '/')
            if rel not in CORE_DOORS[got][0]:
                out.append(f'lib/core/{name}: includes "{target}": the core names no format and '
                           f'no container (of lib/{got} only {", ".join(sorted(CORE_DOORS[got][0]))})')
    return out


def check_core_symbols(defined_at, undefined):
    """defined_at: {symbol: (layer, source)}. Breaches of the core's rule for symbols."""
    out = []
    for (layer, obj), syms in sorted(undefined.items()):
        if layer != 'core':
            continue
        for sym in sorted(syms):
            owner = defined_at.get(sym)
            if owner and owner[0] in CORE_DOORS and owner[1] != CORE_DOORS[owner[0]][1]:
                out.append(f'lib/core/{obj}: uses {sym}, defined in lib/{owner[0]}/{owner[1]}: '
                           f'the core names no format and no container (only '
                           f'lib/{owner[0]}/{CORE_DOORS[owner[0]][1]})')
    return out


def check_includes(root):
    """Breaches of the include rule, as text lines."""
    lib_dir = os.path.join(root, 'lib')
    inc_dir = os.path.join(root, 'include')
    out = []
    for layer, allowed in sorted(ALLOWED.items()):
        folder = os.path.join(lib_dir, layer)
        if not os.path.isdir(folder):
            out.append(f'lib/{layer}: no such folder')
            continue
        for name in sorted(os.listdir(folder)):
            if not name.endswith(('.c', '.h')):
                continue
            path = os.path.join(folder, name)
            with open(path, encoding='utf-8', errors='replace') as fh:
                text = fh.read()
            for target in INCLUDE_RE.findall(text):
                where = resolve(target, folder, lib_dir, inc_dir)
                rel = f'lib/{layer}/{name}'
                if where is None:
                    # Only the generated public version header may be absent from the tree.
                    if not target.startswith('gamedb/'):
                        out.append(f'{rel}: includes "{target}", which is nowhere in lib/ or '
                                   f'include/')
                    continue
                if os.path.realpath(where).startswith(os.path.realpath(inc_dir) + os.sep):
                    continue  # the public header
                got = layer_of(where, lib_dir)
                if os.path.relpath(os.path.realpath(where), os.path.realpath(lib_dir)).replace(
                        os.sep, '/') in ALLOWED_FILES.get(layer, ()):
                    continue
                if got not in allowed:
                    out.append(f'{rel}: includes "{target}" (layer {got}); lib/{layer} may '
                               f'include only {", ".join(sorted(allowed))}'
                               f'{"".join(", " + f for f in sorted(ALLOWED_FILES.get(layer, ())))}'
                               f' and include/gamedb')
    # A single file a layer may include must not bring the rest of its layer along.
    for rel in sorted({f for files in ALLOWED_FILES.values() for f in files}):
        path = os.path.join(lib_dir, rel)
        if not os.path.exists(path):
            out.append(f'lib/{rel}: no such file')
            continue
        with open(path, encoding='utf-8', errors='replace') as fh:
            for target in INCLUDE_RE.findall(fh.read()):
                if not target.startswith('gamedb/'):
                    out.append(f'lib/{rel}: includes "{target}"; it may include only the '
                               f'public header')
    return out


def file_symbols(root):
    """{layer: the gamedb__* functions declared by the single files it may include}."""
    out = {}
    for layer, files in ALLOWED_FILES.items():
        names = set()
        for rel in files:
            path = os.path.join(root, 'lib', rel)
            if os.path.exists(path):
                with open(path, encoding='utf-8', errors='replace') as fh:
                    text = fh.read()
                # Declarations, not static inline functions (those are no symbols).
                text = re.sub(r'static\s+inline[^{;]*\{', '', text)
                names |= set(re.findall(r'\b(gamedb__\w+)\s*\(', text))
        out[layer] = names
    return out


def object_layer(member, sources):
    """The layer of an archive member (".../io_io.c.o"), from the list of lib sources."""
    base = os.path.basename(member)
    for layer, src in sources:
        stem = f'{layer}_{src}'
        if base in (stem + '.o', stem + '.obj'):
            return layer, src
    return None, None


def check_symbols(defined, undefined, allowed_syms=None):
    """defined: {symbol: layer}; undefined: {(layer, object): set of symbols}; allowed_syms:
    {layer: symbols of other layers it may use} (file_symbols()). Breaches."""
    out = []
    allowed_syms = allowed_syms or {}
    for (layer, obj), syms in sorted(undefined.items()):
        if layer not in ALLOWED:
            continue
        for sym in sorted(syms):
            owner = defined.get(sym)
            if layer in PUBLIC_API and sym.startswith('gamedb_') and not sym.startswith('gamedb__'):
                continue  # the public API
            if sym in allowed_syms.get(layer, ()):
                continue
            if owner is not None and owner not in ALLOWED[layer]:
                out.append(f'lib/{layer}/{obj}: uses {sym}, defined in lib/{owner}; lib/{layer} '
                           f'may use only {", ".join(sorted(ALLOWED[layer]))}')
    return out


def read_archive(nm, archive, root):
    """({symbol: defining layer}, {(layer, source file): undefined symbols}, problems,
    {symbol: (defining layer folder, source file)})."""
    lib_dir = os.path.join(root, 'lib')
    sources = []
    for layer in sorted(os.listdir(lib_dir)):
        folder = os.path.join(lib_dir, layer)
        if os.path.isdir(folder):
            sources += [(layer, n) for n in sorted(os.listdir(folder)) if n.endswith('.c')]
    res = subprocess.run([nm, '-A', archive], capture_output=True, text=True)
    if res.returncode != 0:
        return None, None, [f'{nm} -A {archive} failed: {res.stderr.strip()}'], None
    defined, undefined, seen, defined_at = {}, {}, set(), {}
    for line in res.stdout.splitlines():
        # "archive:member:address type name" or "archive:member:   U name"
        head, _, rest = line.rpartition(':')
        fields = rest.split()
        if len(fields) < 2:
            continue
        member = head.split(':', 1)[1] if ':' in head else head
        layer, src = object_layer(member, sources)
        if layer is None:
            continue
        seen.add((layer, src))
        kind, sym = fields[-2], fields[-1]
        undefined.setdefault((layer, src), set())
        if kind == 'U':
            undefined[(layer, src)].add(sym)
        elif kind.isupper() and kind not in ('U', 'W', 'V'):
            defined[sym] = OWN_LAYER.get(f'{layer}/{src}', layer)
            defined_at[sym] = (layer, src)
    # One platform part per layer is built (meson.build): io-posix.c or io-win.c, conv-iconv.c
    # or conv-win.c; the other platform's file has no object here.
    platform = ('-posix.c', '-win.c', '-iconv.c')
    problems = [f'no object file in {archive} for lib/{layer}/{src}'
                for layer, src in sources if (layer, src) not in seen and layer in ALLOWED
                and not src.endswith(platform)]
    return defined, undefined, problems, defined_at


def self_test():
    """The checks must see a planted breach of each kind (and pass a clean tree)."""
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        def write(rel, text):
            path = os.path.join(tmp, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, 'w', encoding='utf-8') as fh:
                fh.write(text)
        write('include/gamedb/gamedb.h', '')
        write('lib/util/buf.h', '')
        write('lib/core/reader.h', '')
        write('lib/core/game.h', '')
        write('lib/formats/format.h', '')
        write('lib/io/io.h', '#include "util/buf.h"\n#include "gamedb/gamedb.h"\n')
        write('lib/io/io.c', '#include "io/io.h"\n#include "gamedb/gamedb-version.h"\n')
        write('lib/text/text.h', '#include "../util/buf.h"\n')
        write('lib/board/board.h', '#include <stdint.h>\n')
        write('lib/util/buf.c', '#include "buf.h"\n')
        write('lib/core/cursor.h', '#include "gamedb/gamedb.h"\n'
              'int gamedb__cursor_next(void *it);\n'
              'static inline int gamedb__run_ply(int k) { return k; }\n')
        write('lib/core/game.c', '#include "core/game.h"\n#include "formats/format.h"\n')
        write('lib/write/json.c', '#include "core/cursor.h"\n#include "util/buf.h"\n')
        write('lib/containers/container.h', '#include "io/io.h"\n')
        write('lib/books/books.h', '#include "board/board.h"\n#include "io/io.h"\n')
        if check_includes(tmp):
            failures.append(f'a clean tree was refused: {check_includes(tmp)}')
        write('lib/io/io.c', '#include "io/io.h"\n#include "core/reader.h"\n')
        write('lib/text/text.c', '#  include "../core/game.h"\n')
        write('lib/board/board.c', '#include "formats/format.h"\n')
        write('lib/util/buf.c', '#include "io/io.h"\n')
        if file_symbols(tmp) != {'write': {'gamedb__cursor_next'}}:
            failures.append(f'the cursor header declares {file_symbols(tmp)}')
        write('lib/io/io.c', '#include "io/io.h"\n#include "core/reader.h"\n')
        write('lib/text/text.c', '#  include "../core/game.h"\n')
        write('lib/board/board.c', '#include "formats/format.h"\n')
        write('lib/util/buf.c', '#include "io/io.h"\n')
        write('lib/write/pgn.c', '#include "core/cursor.h"\n#include "core/game.h"\n')
        write('lib/write/book.c', '#include "../core/reader.h"\n')
        write('lib/core/iter.c', '#include "write/pgn.h"\n')
        write('lib/write/pgn.h', '')
        write('lib/books/book-x.c', '#include "core/reader.h"\n')
        got = check_includes(tmp)
        for rel, what in (('lib/io/io.c', 'core/reader.h'), ('lib/text/text.c', 'core/game.h'),
                          ('lib/board/board.c', 'formats/format.h'),
                          ('lib/util/buf.c', 'io/io.h'), ('lib/write/pgn.c', 'core/game.h'),
                          ('lib/write/book.c', 'core/reader.h'),
                          ('lib/core/iter.c', 'write/pgn.h'),
                          ('lib/books/book-x.c', 'core/reader.h')):
            if not any(g.startswith(rel + ':') and what in g for g in got):
                failures.append(f'include check missed {rel} including {what}: {got}')
        if any('lib/write/json.c' in g or 'lib/core/game.c' in g for g in got):
            failures.append(f'include check refused a clean file: {got}')
        write('lib/core/cursor.h', '#include "gamedb/gamedb.h"\n#include "core/game.h"\n')
        got = check_includes(tmp)
        if not any(g.startswith('lib/core/cursor.h:') and 'core/game.h' in g for g in got):
            failures.append(f'include check missed the cursor header including core/game.h: {got}')
        # Back to a clean core before the core's own rule is tried.
        write('lib/core/iter.c', '')
        write('lib/core/cursor.h', '#include "gamedb/gamedb.h"\n'
              'int gamedb__cursor_next(void *it);\n')
        # A container may include the error setter's header, not the reader's; the core the
        # vtable headers, not a format's or a container's own.
        write('lib/core/error.h', '')
        write('lib/formats/toolkit.h', '')
        write('lib/containers/container.h', '')
        write('lib/containers/cbv.h', '')
        write('lib/containers/cbv.c', '#include "containers/container.h"\n#include "core/error.h"\n'
              '#include "io/io.h"\n#include "../util/buf.h"\n')
        write('lib/core/reader.c', '#include "formats/format.h"\n#include "containers/container.h"\n'
              '#include "core/error.h"\n')
        got = check_includes(tmp) + check_core_includes(tmp)
        if any(g.startswith(('lib/containers/', 'lib/core/')) for g in got):
            failures.append(f'a clean container or core was refused: {got}')
        write('lib/containers/cbv.c', '#include "core/reader.h"\n')
        write('lib/core/reader.c', '#include "formats/toolkit.h"\n#include "containers/cbv.h"\n')
        got = check_includes(tmp) + check_core_includes(tmp)
        for rel, what in (('lib/containers/cbv.c', 'core/reader.h'),
                          ('lib/core/reader.c', 'formats/toolkit.h'),
                          ('lib/core/reader.c', 'containers/cbv.h')):
            if not any(g.startswith(rel + ':') and what in g for g in got):
                failures.append(f'include check missed {rel} including {what}: {got}')
    defined = {'gamedb__error': 'core', 'gamedb__buf_reserve': 'util',
               'gamedb__src_open': 'io', 'gamedb__mb_move': 'core',
               'gamedb__cursor_next': 'core', 'gamedb_move_iter_next': 'core',
               'gamedb_game_write_pgn': 'write', 'gamedb__json_put': 'write'}
    cursor = {'write': {'gamedb__cursor_next'}}
    clean = {('io', 'io.c'): {'gamedb__buf_reserve', 'malloc'},
             ('core', 'reader.c'): {'gamedb__src_open'},
             ('write', 'pgn.c'): {'gamedb__cursor_next', 'gamedb_move_iter_next',
                                  'gamedb__buf_reserve'}}
    if check_symbols(defined, clean, cursor):
        failures.append(f'a clean symbol table was refused: {check_symbols(defined, clean, cursor)}')
    bad = {('io', 'io.c'): {'gamedb__error'}, ('board', 'x.c'): {'gamedb__mb_move'},
           ('util', 'buf.c'): {'gamedb__src_open'}, ('write', 'json.c'): {'gamedb__mb_move'},
           ('core', 'iter.c'): {'gamedb__json_put'}, ('io', 'io-posix.c'): {'gamedb_move_iter_next'}}
    got = check_symbols(defined, bad, cursor)
    if len(got) != 6:
        failures.append(f'symbol check found {len(got)} of 6 planted breaches: {got}')
    defined.update({'gamedb__container_open': 'containers', 'gamedb__cbv_unpack': 'containers',
                    'gamedb__format_at': 'formats', 'gamedb__le_thing': 'formats',
                    'gamedb__error': 'core/error', 'gamedb__reader_charset': 'core'})
    defined_at = {'gamedb__container_open': ('containers', 'registry.c'),
                  'gamedb__cbv_unpack': ('containers', 'cbv.c'),
                  'gamedb__format_at': ('formats', 'registry.c'),
                  'gamedb__le_thing': ('formats', 'toolkit.c')}
    clean = {('containers', 'cbv.c'): {'gamedb__error', 'gamedb__src_open'},
             ('core', 'reader.c'): {'gamedb__container_open', 'gamedb__format_at'}}
    if check_symbols(defined, clean) or check_core_symbols(defined_at, clean):
        failures.append('a clean container or core symbol table was refused')
    bad = {('containers', 'cbv.c'): {'gamedb__reader_charset'},
           ('core', 'reader.c'): {'gamedb__cbv_unpack', 'gamedb__le_thing'}}
    got = check_symbols(defined, bad) + check_core_symbols(defined_at, bad)
    if len(got) != 3:
        failures.append(f'container/core symbol check found {len(got)} of 3 planted breaches: '
                        f'{got}')
    return failures


def main(argv):
    failures = self_test()
    if failures:
        print('check-layers self-test failed:', *failures, sep='\n  ')
        return 1
    if argv[1:] == ['--self-test']:
        print('self-test passed')
        return 0
    if len(argv) != 3:
        print(__doc__)
        return 2
    root, archive = argv[1], argv[2]
    problems = check_includes(root) + check_core_includes(root)
    nm = os.environ.get('NM') or shutil.which('nm')
    if not nm:
        print('\n'.join(problems) or 'includes: ok')
        print('no nm: the symbol check is skipped')
        return 1 if problems else 77
    defined, undefined, more, defined_at = read_archive(nm, archive, root)
    problems += more
    if defined is not None:
        problems += check_symbols(defined, undefined, file_symbols(root))
        problems += check_core_symbols(defined_at, undefined)
    if problems:
        print('\n'.join(problems))
        return 1
    print(f'layers hold: {sum(1 for k in undefined if k[0] in ALLOWED)} object files of '
          f'{", ".join(sorted(ALLOWED))} use only what they may; their includes too; lib/core '
          f'names no format and no container')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
