#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Write encrypted ChessBase archives (.cbz) of our own into fuzz/cbz/corpus/.

    fuzz/cbz/make-corpus.py [--out DIR]

Each seed is one of fuzz/cbv's seed archives (fuzz/cbv/make-corpus.py: our own base packed
as stored, LZ, Huffman and Huffman + LZ blocks), padded with zeros to whole 8-byte blocks and
enciphered with DES, each block on its own (ECB), under the key of the password "password"
(the password itself, 8 bytes: doc/formats/cbv.md), which fuzz/cbz/target.c sets. The cipher
is OpenSSL's (`openssl enc -des-ecb`, from its legacy provider), a second implementation
beside the library's own. Nothing here derives from the real sample archives.
"""
import argparse
import importlib.util
import os
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
KEY = b"password".hex()


def cbv_seeds():
    spec = importlib.util.spec_from_file_location(
        "cbv_make_corpus", os.path.join(HERE, "..", "cbv", "make-corpus.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    base = mod.load_bases()["sample"].build()
    files = {"sample." + ext: data for ext, data in base.items()}
    for mode in ("stored", "lz", "huffman", "huffman-lz"):
        yield mode, mod.pack(files, mode)


def encipher(data):
    data += b"\0" * (-len(data) % 8)
    cmd = ["openssl", "enc", "-e", "-des-ecb", "-nopad", "-K", KEY,
           "-provider", "legacy", "-provider", "default"]
    return subprocess.run(cmd, input=data, stdout=subprocess.PIPE, check=True).stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.path.join(HERE, "corpus"))
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for mode, data in cbv_seeds():
        with open(os.path.join(args.out, "sample-%s.cbz" % mode), "wb") as f:
            f.write(encipher(data))


if __name__ == "__main__":
    main()
