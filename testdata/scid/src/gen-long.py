#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Writes long.pgn: legal shuffle games of 324, 257 and 256 plies (run from this folder).

The moves only shuffle knights or kings back and forth, so every move is legal; Scid checks
them again when tests/make-scid-fixtures.sh imports the file."""

def movetext(plies, start_no, black_first, annot=None):
    out=[]; no=start_no; white = not black_first
    for i,m in enumerate(plies):
        if white: out.append(f"{no}. {m}")
        elif i==0: out.append(f"{no}... {m}")
        else: out.append(m)
        if annot and i in annot: out.append(annot[i])
        if not white: no+=1
        white = not white
    lines=[]; cur=""
    for w in out:
        if len(cur)+1+len(w)>78: lines.append(cur); cur=w
        else: cur = (cur+" "+w) if cur else w
    lines.append(cur)
    return "\n".join(lines)
def hdr(ev, rnd, res, fen=None, extra=()):
    h=[f'[Event "{ev}"]','[Site "libgamedb test data"]','[Date "2024.06.01"]',f'[Round "{rnd}"]',
       '[White "Shuffler, White"]','[Black "Shuffler, Black"]',f'[Result "{res}"]']
    h += list(extra)
    if fen: h += ['[SetUp "1"]', f'[FEN "{fen}"]']
    return "\n".join(h)+"\n\n"
cyc=["Nc3","Nf6","Ng1","Nb8","Nf3","Nc6","Nb1","Ng8"]
g1=["e4","e5","Nf3","Nc6"]+cyc*40
assert len(g1)==324
ann={299:"$2 {ply 300, far past 255} (150... Nb8 $1 {a variation past ply 255} 151. Nc3)", 323:"{last move}"}
s = hdr("Knight shuffle, 324 plies",1,"1/2-1/2",extra=['[PlyCount "324"]'])+movetext(g1,1,False,ann)+" 1/2-1/2\n\n"
kc=["Kd7","Kd2","Ke8","Ke1"]
g2=(kc*65)[:257]
s += hdr("King shuffle from a FEN, 257 plies",2,"1/2-1/2","4k3/p7/8/8/8/8/P7/4K3 b - - 0 50",['[PlyCount "257"]'])+movetext(g2,50,True,{255:"{ply 256}",256:"$10 {ply 257}"})+" 1/2-1/2\n\n"
g3=(["d4","d5"]+["Nd2","Nd7","Ngf3","Ngf6","Nb1","Nb8","Ng1","Ng8"]*32)[:256]
assert len(g3)==256
s += hdr("Exactly 256 plies",3,"0-1",extra=['[PlyCount "256"]'])+movetext(g3,1,False)+" 0-1\n"
open("long.pgn","w").write(s)
