"""What the book tests share: a walk's positions in a form two readers can be compared in.

A position is its FEN's first four fields, the en-passant square kept only when a pawn of the
side to move stands beside the pawn that made the double step (DroidFish writes it after every
double step, libgamedb only when an enemy pawn stands beside: the same position either way);
its moves a sorted list of UCI strings. The canonical text of a walk is one line per position,
sorted: "FEN<TAB>PLY<TAB>UCI UCI ...", and its digest the SHA-256 of that text.
"""
import hashlib
import json


def norm_fen(fen):
    board, side, castle, ep = fen.split()[:4]
    if ep != '-':
        rows = []
        for r in board.split('/'):
            rows.append(''.join('.' * int(c) if c.isdigit() else c for c in r))
        f = ord(ep[0]) - 97
        row = 8 - (5 if side == 'w' else 4)
        pawn = 'P' if side == 'w' else 'p'
        if not any(0 <= f + d < 8 and rows[row][f + d] == pawn for d in (-1, 1)):
            ep = '-'
    return ' '.join((board, side, castle, ep))


def walk_table(lines):
    """JSON Lines of a walk (moves as UCI strings or objects with "uci") -> {fen: (ply, moves)}."""
    out = {}
    for line in lines:
        if not line.strip():
            continue
        o = json.loads(line)
        moves = sorted(m if isinstance(m, str) else m['uci'] for m in o['moves'])
        out[norm_fen(o['fen'])] = (o['ply'], moves)
    return out


def canonical(table):
    return ''.join(f'{fen}\t{ply}\t{" ".join(moves)}\n'
                   for fen, (ply, moves) in sorted(table.items()))


def digest(table):
    return hashlib.sha256(canonical(table).encode()).hexdigest()
