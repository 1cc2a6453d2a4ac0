#!/usr/bin/env python3
"""The Windows DLL exports exactly the global names of lib/libgamedb.map (the Linux library's
exports): objdump -p's export table against the map. Usage: check-dll-exports.py MAP DLL"""
import re
import shutil
import subprocess
import sys


def map_names(path):
    text = re.sub(r'/\*.*?\*/', '', open(path, encoding='utf-8').read(), flags=re.S)
    names = set()
    for block in re.finditer(r'global:(.*?)(?:local:|\})', text, flags=re.S):
        names.update(re.findall(r'([A-Za-z_][A-Za-z0-9_]*)\s*;', block.group(1)))
    return names


def dll_names(dll):
    objdump = shutil.which('x86_64-w64-mingw32-objdump') or shutil.which('objdump')
    out = subprocess.run([objdump, '-p', dll], check=True, capture_output=True,
                         text=True).stdout
    names, table = set(), False
    for line in out.splitlines():
        if '[Ordinal/Name Pointer] Table' in line:
            table = True
            continue
        if table:
            m = re.match(r'\s*\[\s*\d+\]\s+(\S+)\s*$', line)
            if m:
                names.add(m.group(1))
            elif line.strip() == '':
                break
    return names


def main():
    want, got = map_names(sys.argv[1]), dll_names(sys.argv[2])
    for name in sorted(want - got):
        print('not exported: ' + name)
    for name in sorted(got - want):
        print('exported but not in the map: ' + name)
    print('%d names in the map, %d exported by %s' % (len(want), len(got), sys.argv[2]))
    return 0 if want == got and want else 1


if __name__ == '__main__':
    sys.exit(main())
