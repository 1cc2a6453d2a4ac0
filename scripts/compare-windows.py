#!/usr/bin/env python3
"""Runs `gamedb pgn` of the Linux build and `gamedb.exe pgn` of the Windows build (under Wine)
on every real base in REALDATA (SCID si3/si4/si5, ChessBase cbh, XQF, CCBridge cbl/cbr, style
12 logs), one run per folder with all its bases, and checks that both write the same bytes and
exit with the same status. Exit status 0 when every folder matches, 1 otherwise, 77 (skipped) when there is
no real data.

usage: compare-windows.py LINUX_GAMEDB WINDOWS_GAMEDB_EXE DLL_DIR REALDATA [WINE]
"""
import hashlib
import os
import subprocess
import sys

PRIMARY = ('.si3', '.si4', '.si5', '.cbh', '.xqf')
# CCBridge libraries and records: only in the CCBridge folders (a ChessBase base has a .cbl of
# its own, which is no base to open).
CCBRIDGE = ('.cbl', '.cbr')


def bases(realdata):
    """(folder, [bases]) for each folder of realdata that holds bases, in a stable order."""
    for folder, dirs, files in os.walk(realdata):
        dirs.sort()
        found = [os.path.join(folder, f) for f in sorted(files)
                 if f.lower().endswith(PRIMARY) or
                 ('ccbridge' in folder and f.lower().endswith(CCBRIDGE)) or
                 ('style12' in folder and f.endswith('_lines.txt'))]
        if found:
            yield folder, found


def main():
    linux, windows, dll_dir, realdata = sys.argv[1:5]
    wine = sys.argv[5] if len(sys.argv) > 5 else 'wine'
    if not os.path.isdir(realdata):
        print('no real data in %s: skipped' % realdata)
        return 77
    env = dict(os.environ)
    env.setdefault('WINEDEBUG', '-all')
    env['WINEPATH'] = 'Z:' + os.path.abspath(dll_dir).replace('/', '\\')
    failed = folders = nbases = 0
    total = 0
    for folder, found in bases(realdata):
        folders += 1
        nbases += len(found)
        lin = subprocess.run([linux, 'pgn'] + found, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL)
        win = subprocess.run([wine, windows, 'pgn'] + found, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, env=env)
        rel = os.path.relpath(folder, realdata)
        same = lin.stdout == win.stdout and lin.returncode == win.returncode
        total += len(lin.stdout)
        print('%s %s: %d bases, %d bytes, sha256 %s, exit %d/%d' % (
            'ok  ' if same else 'FAIL', rel, len(found), len(lin.stdout),
            hashlib.sha256(lin.stdout).hexdigest()[:16], lin.returncode, win.returncode))
        if not same:
            failed += 1
            if len(lin.stdout) != len(win.stdout):
                print('     windows wrote %d bytes' % len(win.stdout))
            for i, (a, b) in enumerate(zip(lin.stdout, win.stdout)):
                if a != b:
                    print('     first difference at byte %d: %r / %r' % (
                        i, lin.stdout[max(0, i - 40):i + 40], win.stdout[max(0, i - 40):i + 40]))
                    break
    print('%d folders, %d bases, %d bytes of PGN: %d identical, %d different' % (
        folders, nbases, total, folders - failed, failed))
    return 1 if failed or folders == 0 else 0


if __name__ == '__main__':
    sys.exit(main())
