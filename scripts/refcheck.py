#!/usr/bin/env python3
"""Writes what `gamedb` gives for every real and test base into a folder, one file per base and
command, with its stderr and exit status, so that two builds can be compared with `diff -r`:
the check that a change leaves every output byte-identical ("same bytes as before").

usage: refcheck.py GAMEDB OUTDIR [REALDATA] [TESTDATA]

Per base: `pgn`, `pgn --layout scid`, `json`, `fen`, `info` (stdout, stderr and exit status).
The bases are those compare-windows.py finds (SCID si3/si4/si5, ChessBase cbh/cbv, XQF, Chess
Assistant cdp, CCBridge cbl/cbr by their magic, style 12 logs) in REALDATA (default ../shared/realdata beside the source tree)
and TESTDATA (default testdata/).
"""
import os
import subprocess
import sys

PRIMARY = ('.si3', '.si4', '.si5', '.cbh', '.cbv', '.xqf', '.cdp')
RUNS = (('pgn', ['pgn']), ('scid', ['pgn', '--layout', 'scid']), ('json', ['json']),
        ('fen', ['fen']), ('info', ['info']))


def ccbridge(path):
    """A CCBridge library or record by its magic (a ChessBase base has a .cbl of its own)."""
    if not path.lower().endswith(('.cbl', '.cbr')):
        return False
    with open(path, 'rb') as f:
        return f.read(16) in (b'CCBridgeLibrary\0', b'CCBridge Record\0')


def bases(root):
    for folder, dirs, files in os.walk(root):
        dirs.sort()
        for f in sorted(files):
            if f.lower().endswith(PRIMARY) or ccbridge(os.path.join(folder, f)) or (
                    'style12' in folder and (f.endswith('_lines.txt') or f.endswith('.log'))):
                yield os.path.join(folder, f)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    tool, out = sys.argv[1], sys.argv[2]
    real = sys.argv[3] if len(sys.argv) > 3 else os.path.join(here, '..', '..', 'shared', 'realdata')
    test = sys.argv[4] if len(sys.argv) > 4 else os.path.join(here, '..', 'testdata')
    os.makedirs(out, exist_ok=True)
    n = 0
    for tag, root in (('real', real), ('test', test)):
        if not os.path.isdir(root):
            continue
        for base in bases(root):
            name = tag + '_' + os.path.relpath(base, root).replace('/', '_')
            for kind, args in RUNS:
                p = subprocess.run([tool] + args + ['--jobs', '1'] * (kind != 'info') + [base],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                with open(os.path.join(out, '%s.%s' % (name, kind)), 'wb') as f:
                    f.write(p.stdout)
                with open(os.path.join(out, '%s.%s.err' % (name, kind)), 'wb') as f:
                    f.write(p.stderr.replace(os.fsencode(root), b'ROOT'))
                    f.write(b'exit %d\n' % p.returncode)
            n += 1
    print('%d bases written to %s' % (n, out))
    return 0 if n else 1


if __name__ == '__main__':
    sys.exit(main())
