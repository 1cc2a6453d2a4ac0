#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Write ChessBase archives (.cbv) of our own into fuzz/cbv/corpus/.

    fuzz/cbv/make-corpus.py [--out DIR]

Each seed archives one of the hand-made bases of fuzz/chessbase/make-corpus.py (built there
from the format description), packed here as doc/formats/cbv.md describes: once with stored
blocks, once with LZ blocks (literals, runs and back references), once with Huffman-coded
blocks (and Huffman + LZ). Nothing here derives from the real sample archives.
"""
import argparse
import importlib.util
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))


def load_bases():
    spec = importlib.util.spec_from_file_location(
        "cbh_make_corpus", os.path.join(HERE, "..", "chessbase", "make-corpus.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.sample_bases()


def lz(data):
    """LZ items: runs of a repeated byte, copies of the 3 bytes 3 back, else literals."""
    items, i = [], 0
    while i < len(data):
        run = 1
        while i + run < len(data) and data[i + run] == data[i] and run < 18:
            run += 1
        if run >= 3:
            items.append(bytes([run - 3, data[i]]))
            i += run
        elif i >= 3 and data[i:i + 3] == data[i - 3:i] and i + 3 <= len(data):
            items.append(bytes([0x30, 0x00]))
            i += 3
        else:
            items.append(data[i:i + 1])
            i += 1
    out = bytearray()
    for k in range(0, len(items), 16):
        group = items[k:k + 16]
        ctrl = 0
        for j, it in enumerate(group):
            if len(it) > 1:
                ctrl |= 0x8000 >> j
        out += struct.pack("<H", ctrl)
        for it in group:
            out += it
    return bytes(out)


def huffman(data):
    """Every byte value coded by itself in 8 bits (a full table), big-endian length first."""
    bits = []
    for s in range(256):
        bits += [int(b) for b in format(8, "04b")] + [int(b) for b in format(s, "08b")]
    for byte in data:
        bits += [int(b) for b in format(byte, "08b")]
    while len(bits) % 8:
        bits.append(0)
    coded = bytes(int("".join(map(str, bits[k:k + 8])), 2) for k in range(0, len(bits), 8))
    return struct.pack(">H", len(data)) + coded


def block(flags, payload):
    body = bytes([flags]) + payload
    return struct.pack("<HH", len(body), 0) + body


def pack(files, mode):
    names = sorted(files)
    datas = []
    for n in names:
        raw = files[n]
        blocks = b""
        for k in range(0, max(len(raw), 1), 4000):
            chunk = raw[k:k + 4000]
            if mode == "stored":
                blocks += block(0, chunk)
            elif mode == "lz":
                blocks += block(1, lz(chunk))
            elif mode == "huffman":
                blocks += block(2, huffman(chunk))
            else:
                blocks += block(3, huffman(lz(chunk)))
        datas.append((n, blocks, len(raw)))
    out = bytearray(b"\x08\x00" + struct.pack("<H", len(names)) + bytes([140, 0, 0, 0]))
    for n, blocks, size in datas:
        out += (b"base\\" + n.encode()).ljust(132, b"\0") + struct.pack("<ii", len(blocks), size)
    for _, blocks, _ in datas:
        out += blocks
    return bytes(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.path.join(HERE, "corpus"))
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    base = load_bases()["sample"].build()
    files = {"sample." + ext: data for ext, data in base.items()}
    for mode in ("stored", "lz", "huffman", "huffman-lz"):
        with open(os.path.join(args.out, "sample-%s.cbv" % mode), "wb") as f:
            f.write(pack(files, mode))


if __name__ == "__main__":
    main()
