#!/usr/bin/env python3
"""Pins what cchess's CCBridge reader says about the shared real files, for tests/test-ccbridge.py.

A second opinion, not ground truth: the test compares gamedb with these answers and says where
they must differ (doc/formats/ccbridge.md, "Where the readers disagree"). The tests never run
cchess; this script made testdata/ccbridge/cchess-pins.json with

    git -C "$(fetch github:walker8088/cchess)" archive 0a17e69b src | tar -x -C /tmp/cchess
    apt-get install python3-chardet       # cchess imports it
    PYTHONPATH=/tmp/cchess/src /usr/bin/python3 scripts/pin-ccbridge-cchess.py \
        ../shared/realdata/ccbridge/cchess testdata/ccbridge/cchess-pins.json

(walker8088/cchess commit 0a17e69b0bfb2eb3861bf636c92288cc64ef0ead, Debian's Python 3.11).
For each file: the library name, then per game as cchess hands them out: title, event, red,
black, result, and every complete line (main line first, then one per variation leaf) in ICCS
as Game.dump_iccs_moves() gives them.
"""
import json
import os
import sys

from cchess import Game


def game_pin(g):
    lines = g.dump_iccs_moves()
    return {
        "title": g.info.get("title", ""),
        "event": g.info.get("event", ""),
        "red": g.info.get("red", ""),
        "black": g.info.get("black", ""),
        "result": g.info.get("result", ""),
        "lines": [" ".join(line) for line in lines],
    }


def main():
    folder, out = sys.argv[1], sys.argv[2]
    pins = {"reader": "walker8088/cchess 0a17e69b0bfb2eb3861bf636c92288cc64ef0ead", "files": {}}
    for name in sorted(os.listdir(folder)):
        path = os.path.join(folder, name)
        ext = os.path.splitext(name)[1].lower()
        if ext == ".cbl":
            lib = Game.read_from_lib(path)
            pins["files"][name] = {"name": lib["name"], "games": [game_pin(g) for g in lib["games"]]}
        elif ext == ".cbr":
            pins["files"][name] = {"name": None, "games": [game_pin(Game.read_from(path))]}
    with open(out, "w", encoding="utf-8") as f:
        json.dump(pins, f, ensure_ascii=False, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
