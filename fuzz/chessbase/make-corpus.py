#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Write tiny ChessBase bases of our own, and seed fuzz/chessbase/corpus/ with them.

    fuzz/chessbase/make-corpus.py [--out DIR] [--bases DIR]

The bases are built here from the format description (doc/formats/chessbase.md), not copied
from anywhere: `Base` below writes the .cbh, .cbg, .cbj and the little-endian name files. The
test tests/test-chessbase.py imports this file for its fixtures, tests/test-cbh-annotations.py
for its DECODE table; the fuzz seeds are the same bases in the framing fuzz/chessbase/target.c
reads:

    [8 x uint32 LE: lengths of cbh, cbg, cba, cbp, cbt, cbc, cbs, cbe][those files][cbj: the rest]

--bases DIR also writes each base as files (DIR/NAME.cbh, ...), to look at or open by hand.
Nothing here derives from the real sample databases (../shared/realdata).
"""
import argparse
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

# The byte substitution of the move stream (the seed description's decoding table):
# op = DECODE[(byte - n) mod 256], n = moves decoded so far in the game. The one Python copy
# (the C ones are in lib/formats/cbh-moves.c and tests/test-cbg.c).
DECODE = [
    162, 149, 67, 245, 193, 61, 74, 108, 83, 131, 204, 124, 255, 174, 104, 173,
    209, 146, 139, 141, 53, 129, 94, 116, 38, 142, 171, 202, 253, 154, 243, 160,
    165, 21, 252, 177, 30, 237, 48, 234, 34, 235, 167, 205, 78, 111, 46, 36,
    50, 148, 65, 140, 110, 88, 130, 80, 187, 2, 138, 216, 250, 96, 222, 82,
    186, 70, 172, 41, 157, 215, 223, 8, 33, 1, 102, 163, 241, 25, 39, 181,
    145, 213, 66, 14, 180, 76, 217, 24, 95, 188, 37, 166, 150, 4, 86, 106,
    170, 51, 28, 43, 115, 240, 221, 164, 55, 211, 197, 16, 191, 90, 35, 52,
    117, 91, 184, 85, 210, 107, 9, 58, 87, 18, 179, 119, 72, 133, 155, 15,
    158, 199, 200, 161, 127, 122, 192, 189, 49, 109, 246, 62, 195, 17, 113, 206,
    125, 218, 168, 84, 144, 151, 31, 68, 64, 22, 201, 227, 44, 203, 132, 236,
    159, 63, 92, 230, 118, 11, 60, 32, 183, 54, 0, 220, 231, 249, 79, 247,
    175, 6, 7, 224, 26, 10, 169, 75, 12, 214, 99, 135, 137, 29, 19, 27,
    228, 112, 5, 71, 103, 123, 47, 238, 226, 232, 152, 13, 239, 207, 196, 244,
    251, 176, 23, 153, 100, 242, 212, 42, 3, 77, 120, 198, 254, 101, 134, 136,
    121, 69, 59, 229, 73, 143, 45, 185, 190, 98, 147, 20, 233, 208, 56, 156,
    178, 194, 89, 93, 182, 114, 81, 248, 40, 126, 97, 57, 225, 219, 105, 128,
]
ENCODE = [0] * 256
for _b, _op in enumerate(DECODE):
    ENCODE[_op] = _b

# Move opcodes used by the fixtures (doc/formats/chessbase.md): pawn k (1 = a-pawn, in the
# order of the start position) push one / push two = 111 + 4 (k - 1) + 0 / 1; knight 1 and 2
# steps (dx, dy) in this order from 95 and 103.
KNIGHT_STEPS = [(2, 1), (1, 2), (-1, 2), (-2, 1), (-2, -1), (-1, -2), (1, -2), (2, -1)]
END = 255


def pawn(k, double=False):
    return 111 + 4 * (k - 1) + (1 if double else 0)


def knight(k, dx, dy):
    return (95 if k == 1 else 103) + KNIGHT_STEPS.index((dx, dy))


# 1.e4 e5 2.Nf3 Nc6: the e-pawns are pawn 5, Nf3 is the g1 knight (knight 2), Nc6 the b8 one.
OPENING = [pawn(5, True), pawn(5, True), knight(2, -1, 2), knight(1, 1, -2)]


def encode_moves(ops):
    """The stored bytes of a stream of opcodes (each a move, or END)."""
    out, n = bytearray(), 0
    for op in ops:
        out.append((ENCODE[op] + n) & 255)
        if op < 235:
            n += 1
    return bytes(out)


PIECE_CODES = {'K': 1, 'Q': 2, 'N': 3, 'B': 4, 'R': 5, 'P': 6}


def setup_block(fen):
    """The 28-byte setup block of a FEN (placement, side to move, castling, move number)."""
    fields = fen.split()
    board = {}
    for r, row in enumerate(fields[0].split('/')):
        f = 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            else:
                board[(f, 7 - r)] = ch
                f += 1
    bits = ''
    for f in range(8):           # column-major: a1, a2, ..., a8, b1, ...
        for rank in range(8):
            ch = board.get((f, rank))
            if ch is None:
                bits += '0'
            else:
                code = 0x10 | (0x08 if ch.islower() else 0) | PIECE_CODES[ch.upper()]
                bits += format(code, '05b')
    bits = bits.ljust(192, '0')
    stream = int(bits, 2).to_bytes(24, 'big')
    castle = fields[2]
    cbits = (1 if 'Q' in castle else 0) | (2 if 'K' in castle else 0) | \
        (4 if 'q' in castle else 0) | (8 if 'k' in castle else 0)
    ep = 0 if fields[3] == '-' else ord(fields[3][0]) - ord('a') + 1
    return bytes([1, ep | (0x10 if fields[1] == 'b' else 0), cbits, int(fields[5])]) + stream


def date24(y=0, m=0, d=0):
    return (y << 9) | (m << 5) | d


class Base:
    """A ChessBase base built from Python values; build() gives {ext: bytes}."""

    def __init__(self, old=False):
        self.old = old            # CB6 era: header 36, 28-byte name headers, no .cbj/.cbe
        self.ents = {'cbp': [], 'cbt': [], 'cbc': [], 'cbs': [], 'cbe': []}
        self.records = []         # (is_text, fields)

    def _ent(self, ext, payload, deleted):
        self.ents[ext].append((payload, deleted))
        return len(self.ents[ext]) - 1

    @staticmethod
    def _s(b, n):
        b = b.encode('cp1252') if isinstance(b, str) else b
        return b[:n].ljust(n, b'\0')

    def player(self, last, first='', deleted=False):
        return self._ent('cbp', self._s(last, 30) + self._s(first, 20) + struct.pack('<ii', 1, 1),
                         deleted)

    def tournament(self, title, place='', date=0, ttype=0, team=False, nation=0, category=0,
                   flags=0, rounds=0, deleted=False):
        p = self._s(title, 40) + self._s(place, 30) + struct.pack('<I', date) + \
            bytes([ttype, 1 if team else 0, nation, 0, category, flags, rounds, 0]) + \
            struct.pack('<ii', 1, 1)
        return self._ent('cbt', p, deleted)

    def annotator(self, name, deleted=False):
        return self._ent('cbc', self._s(name, 45) + struct.pack('<ii', 1, 1), deleted)

    def source(self, title, publisher='', deleted=False):
        return self._ent('cbs', self._s(title, 25) + self._s(publisher, 16) +
                         bytes(10) + struct.pack('<ii', 1, 1), deleted)

    def team(self, title, number=0, season=False, year=0, nation=0, deleted=False):
        p = self._s(title, 45) + struct.pack('<iBiB', number, 1 if season else 0, year, nation) + \
            struct.pack('<ii', 1, 1)
        return self._ent('cbe', p, deleted)

    def game(self, white=0, black=0, tournament=0, annotator=0, source=0, date=0, result=2,
             line_eval=0, round=0, subround=0, welo=0, belo=0, eco=0, medals=0, flags=0,
             magnitude=0, moves=None, fen=None, deleted=False, teams=(-1, -1), raw_moves=None,
             mode=0):
        self.records.append((False, dict(locals())))
        return len(self.records)

    def text(self, titles=(), contents=(), fmt=3, tournament=0, source=0, annotator=0,
             deleted=False):
        self.records.append((True, dict(locals())))
        return len(self.records)

    def _entity_file(self, ext):
        size = {'cbp': 58, 'cbt': 90, 'cbc': 53, 'cbs': 59, 'cbe': 63}[ext]
        recs = self.ents[ext]
        live = sum(1 for _, d in recs if not d)
        extra = 0 if self.old else 4
        hdr = struct.pack('<iiiiiii', len(recs), 0 if recs else -1, 1234567890, size, -1, live,
                          extra) + bytes(extra)
        body = b''
        for payload, deleted in recs:
            assert len(payload) == size, (ext, len(payload))
            body += struct.pack('<iib', -999 if deleted else -1, -1, 0) + payload
        return hdr + body

    def build(self):
        cbg = bytearray(26)
        cbh = bytearray(46)
        cbj = bytearray()
        for is_text, f in self.records:
            off = len(cbg)
            if is_text:
                body = struct.pack('<hh', f['fmt'], len(f['titles']))
                for lang, t in f['titles']:
                    t = t.encode('cp1252') if isinstance(t, str) else t
                    body += struct.pack('<hH', lang, len(t)) + t
                body += bytes([1]) + struct.pack('<h', len(f['contents']))
                for lang, t in f['contents']:
                    t = t.encode('cp1252') if isinstance(t, str) else t
                    if f['fmt'] == 1:
                        body += struct.pack('<hH', lang, len(t)) + t + struct.pack('<H', 0)
                    elif f['fmt'] == 2:
                        body += struct.pack('<hI', lang, len(t)) + t + struct.pack('<I', 0)
                    else:
                        body += struct.pack('<hI', lang, len(t)) + t + struct.pack('<I', 0)
                rec = bytes([0x80]) + (len(body) + 4).to_bytes(3, 'big') + body
                cbg += rec
                r = bytes([0x83 if f['deleted'] else 0x03]) + struct.pack('>I', off) + bytes(2) + \
                    f['tournament'].to_bytes(3, 'big') + f['source'].to_bytes(3, 'big') + \
                    f['annotator'].to_bytes(3, 'big') + bytes(30)
                teams = (-1, -1)
            else:
                if f['raw_moves'] is not None:
                    body = f['raw_moves']
                else:
                    body = (setup_block(f['fen']) if f['fen'] else b'') + \
                        encode_moves(list(f['moves'] or []) + [END])
                head = (0x40 if f['fen'] else 0) | f['mode']
                cbg += bytes([head]) + (len(body) + 4).to_bytes(3, 'big') + body
                flags = f['flags'] | (1 if f['fen'] else 0)
                eco = f['eco']
                r = bytes([0x81 if f['deleted'] else 0x01]) + struct.pack('>II', off, 0) + \
                    b''.join(f[k].to_bytes(3, 'big') for k in
                             ('white', 'black', 'tournament', 'annotator', 'source')) + \
                    f['date'].to_bytes(3, 'big') + \
                    bytes([f['result'], f['line_eval'], f['round'], f['subround']]) + \
                    struct.pack('>HHHHIH', f['welo'], f['belo'], eco, f['medals'], flags,
                                f['magnitude']) + bytes([min(len(f['moves'] or []) // 2, 255)])
                teams = f['teams']
            assert len(r) == 46, len(r)
            cbh += r
            j = struct.pack('>iii', teams[0], teams[1], -1) + struct.pack('>Q', 0) + bytes(10) + \
                struct.pack('>Q', off)
            cbj += j.ljust(120, b'\0')
        n = len(self.records)
        cbh[0:6] = bytes([0, 0, 36 if self.old else 44, 0, 46, 1])
        cbh[6:10] = struct.pack('>I', n + 1)
        if not self.old:
            cbh[40:44] = struct.pack('>I', n + 1)
        size = len(cbg)
        cbg[0:26] = struct.pack('>HIIQQ', 26, size, 0, size, 0)
        cba = struct.pack('>HIIQQ', 26, 26, 0, 26, 0)
        files = {'cbh': bytes(cbh), 'cbg': bytes(cbg), 'cba': cba}
        for ext in ('cbp', 'cbt', 'cbc', 'cbs', 'cbe'):
            if ext == 'cbe' and self.old:
                continue
            files[ext] = self._entity_file(ext)
        if not self.old:
            files['cbj'] = struct.pack('<iii', 11, 120, n) + bytes(20) + bytes(cbj)
        return files


def sample_bases():
    """The fixture bases: name -> Base. Facts the test checks are noted where they are made."""
    bases = {}

    b = Base()
    w = b.player('Petrov', 'Ivan')
    bl = b.player('Lékó', 'Péter')
    b.player('Gone', 'Player', deleted=True)                      # id 2: deleted
    t = b.tournament('Test Open', 'Wijk aan Zee', date24(2001, 1, 12), ttype=3, nation=103,
                     category=19, flags=6, rounds=13)
    t2 = b.tournament('League', 'Bochum', date24(1999), ttype=0x44, team=True, nation=53)
    a = b.annotator('')
    a2 = b.annotator('Annotator, A')
    s = b.source('')
    s2 = b.source('Test Source', 'Us')
    tm = b.team('Team A', 1, False, 1999, 53)
    tm2 = b.team('Team B', 2, True, 1999, 53)
    b.game(w, bl, t, a, s, date24(2001, 1, 13), result=2, round=3, welo=2500, belo=2600,
           eco=(1 + 100 * 2 + 42) << 7 | 7, medals=0x8001, moves=OPENING)      # C42/07
    b.text(titles=[(0, 'Intro'), (1, 'Einleitung')],
           contents=[(0, '<html><body>Hello</body></html>'),
                     (1, '<html><body>Hallo</body></html>')])
    b.game(bl, w, t2, a2, s2, date24(1999, 5), result=3, line_eval=0x12, round=1, subround=2,
           moves=OPENING[:2], teams=(tm, tm2))
    b.game(w, 2, t, 7, 9, result=4, moves=[], deleted=True)         # bad ids, deleted game
    b.game(w, bl, t, a, s, result=1, fen='8/8/8/4k3/8/8/4P3/4K3 w - - 0 1',
           moves=[pawn(1, True)])
    b.game(w, bl, t, a, s, result=0, eco=(65536 - 960 + 518), flags=1 << 27, moves=OPENING)
    b.text(titles=[(0, 'Plain')], contents=[(0, 'plain text')], fmt=1, deleted=True)
    bases['sample'] = b

    # CB6 era: 36-byte header marker, 28-byte name headers, no .cbj, no .cbe.
    b = Base(old=True)
    b.player('Old', 'Timer')
    b.tournament('Old Event', 'Somewhere', date24(1990))
    b.annotator('')
    b.source('')
    b.game(0, 0, 0, 0, 0, date24(1990, 2, 3), result=1, moves=OPENING)
    bases['old'] = b

    # Cyrillic names (CP1251) for charset-detect.
    b = Base()
    b.player('Петров'.encode('cp1251'), 'Иван'.encode('cp1251'))
    b.player('Смирнов'.encode('cp1251'), 'Олег'.encode('cp1251'))
    b.tournament('Чемпионат'.encode('cp1251'), 'Москва'.encode('cp1251'))
    b.annotator('')
    b.source('')
    b.game(0, 1, 0, 0, 0, result=2, moves=OPENING)
    bases['cyrillic'] = b
    return bases


def frame(files):
    order = ('cbh', 'cbg', 'cba', 'cbp', 'cbt', 'cbc', 'cbs', 'cbe')
    parts = [files.get(e, b'') for e in order]
    return struct.pack('<8I', *map(len, parts)) + b''.join(parts) + files.get('cbj', b'')


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--out', default=os.path.join(HERE, 'corpus'))
    ap.add_argument('--bases', help='also write each base as files into this folder')
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for old in os.listdir(args.out):
        if old.startswith('seed-'):
            os.remove(os.path.join(args.out, old))
    for name, base in sample_bases().items():
        files = base.build()
        with open(os.path.join(args.out, 'seed-' + name), 'wb') as f:
            f.write(frame(files))
        if args.bases:
            os.makedirs(args.bases, exist_ok=True)
            for ext, data in files.items():
                with open(os.path.join(args.bases, name + '.' + ext), 'wb') as f:
                    f.write(data)
    print(f'make-corpus: {len(sample_bases())} seed(s) written to {args.out}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
