#!/usr/bin/env python3
"""Writes a Windows module-definition file (.def) from the version script lib/libgamedb.map, so
that gamedb-1.dll exports exactly the symbols the Linux library exports (the map's global
names), whatever else is marked GAMEDB_EXPORT. Usage: map2def.py MAP DLLNAME OUT.def"""
import re
import sys


def main():
    src, dll, out = sys.argv[1:4]
    text = re.sub(r'/\*.*?\*/', '', open(src, encoding='utf-8').read(), flags=re.S)
    names = []
    for block in re.finditer(r'global:(.*?)(?:local:|\})', text, flags=re.S):
        for name in re.findall(r'([A-Za-z_][A-Za-z0-9_]*)\s*;', block.group(1)):
            if name not in names:
                names.append(name)
    if not names:
        sys.exit('map2def: no global symbols in ' + src)
    with open(out, 'w', encoding='utf-8', newline='\n') as f:
        f.write('LIBRARY %s\nEXPORTS\n' % dll)
        for name in names:
            f.write('\t%s\n' % name)


if __name__ == '__main__':
    main()
