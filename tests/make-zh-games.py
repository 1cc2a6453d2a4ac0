#!/usr/bin/env python3
"""Writes testdata/style12/zh-games.json: a crazyhouse game and a bughouse pair whose moves are
legal, played by fairy-stockfish (Debian package fairy-stockfish, UCI_Variant crazyhouse) against
itself with random choices mixed in (drops preferred now and then). Not run by the tests: its
output is committed. The file used is the crazyhouse game of seed 23 (promotions, castling,
drops) and the bughouse pair of seed 7: `make-zh-games.py SEED` writes /tmp/zhgen/games.json.

Bughouse is played as two crazyhouse boards: the man a capture puts into the capturer's hand
(fairy-stockfish already turns a promoted man back into a pawn) is taken out of it and put into
the hand of the capturer's partner, who has the other colour on the other board.

crazyhouse: {"start", "moves": [uci], "fens": [fairy-stockfish's FEN after each ply]}
bughouse: [[board 0/1, uci, FEN of that board after, FEN of the other board after,
            the man passed to the other board ("" if none; upper case: to white)]]
"""
import subprocess, json, random, re, sys
class FS:
    def __init__(self):
        self.p = subprocess.Popen(["/usr/games/fairy-stockfish"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send("uci"); self.wait("uciok")
        self.send("setoption name UCI_Variant value crazyhouse")
        self.send("isready"); self.wait("readyok")
    def send(self, s): self.p.stdin.write(s + "\n")
    def wait(self, tok):
        out = []
        while True:
            l = self.p.stdout.readline()
            out.append(l)
            if l.startswith(tok): return out
    def fen_after(self, fen, moves):
        self.send("position fen %s moves %s" % (fen, " ".join(moves)) if moves else "position fen %s" % fen)
        self.send("d"); self.send("isready")
        out = self.wait("readyok")
        f = [l for l in out if l.startswith("Fen:")][0][5:].strip()
        return f
    def best(self, fen, depth, rnd):
        self.send("position fen " + fen)
        self.send("go depth %d" % depth)
        out = self.wait("bestmove")
        bm = out[-1].split()[1]
        return bm
    def legal(self, fen):
        self.send("position fen " + fen); self.send("go perft 1")
        out = self.wait("Nodes searched")
        return [l.split(":")[0] for l in out if re.match(r"^\S+: 1$", l.strip())]
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1"
def hands(fen):
    m = re.search(r"\[([A-Za-z]*)\]", fen); return m.group(1)
def set_hands(fen, h):
    return re.sub(r"\[[A-Za-z]*\]", "[" + h + "]", fen)
import os
os.makedirs("/tmp/zhgen", exist_ok=True)
fs = FS(); rnd = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else 7)
def pick(fen):
    legal = fs.legal(fen)
    if not legal: return None
    drops = [m for m in legal if "@" in m]
    if rnd.random() < 0.35 and drops:
        return rnd.choice(drops)
    if rnd.random() < 0.3:
        return rnd.choice(legal)
    return fs.best(fen, 3, rnd)
# crazyhouse game
zh = {"start": START, "moves": [], "fens": []}
fen = START
for ply in range(70):
    m = pick(fen)
    if m is None or m == "(none)": break
    fen = fs.fen_after(fen, [m])
    zh["moves"].append(m); zh["fens"].append(fen)
# bughouse pair
boards = [START, START]
ev = []
for step in range(90):
    b = rnd.randrange(2)
    fen = boards[b]
    m = pick(fen)
    if m is None or m == "(none)": continue
    after = fs.fen_after(fen, [m])
    mover = 0 if fen.split()[1] == "w" else 1
    hb, ha = hands(fen), hands(after)
    from collections import Counter
    hb2 = hb
    if "@" in m:
        pc = m[0].upper() if mover == 0 else m[0].lower()
        hb2 = hb.replace(pc, "", 1)
    d = Counter(ha) - Counter(hb2)
    assert sum(d.values()) <= 1, (fen, m, after)
    got = next(iter(d)) if d else None
    if got is not None:
        # after = hb2 + got; remove got from mover hand
        ha = hb2
        after = set_hands(after, ha)
        # partner of the mover plays the other colour on the other board
        other = boards[1 - b]
        passed = got.lower() if mover == 0 else got.upper()
        boards[1 - b] = set_hands(other, "".join(sorted(hands(other) + passed)))
    boards[b] = after
    ev.append([b, m, after, boards[1 - b], passed if got else ""])
json.dump({"crazyhouse": zh, "bughouse": ev}, open("/tmp/zhgen/games.json", "w"), indent=0)
print(len(zh["moves"]), zh["fens"][-1], len(ev), boards)
