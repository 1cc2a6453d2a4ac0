package org.petero.droidfish.book;

import java.util.*;
import org.petero.droidfish.book.DroidBook.BookEntry;
import org.petero.droidfish.book.IOpeningBook.BookPosInput;
import org.petero.droidfish.gamelogic.*;

/* Walks a book through DroidFish's AbkBook or CtgBook; prints the positions within maxPly of
 * the start (breadth-first over the positions, a position once with the moves of all paths)
 * as JSON Lines {"fen": first four fields, "ply": N, "moves": [sorted uci]}; then the FENs
 * given after maxPly, probed (ply -1). Written for libgamedb's tests (not DroidFish's code).
 *   java ... Driver BOOK MAXPLY [FEN...] */
public class Driver {
    static IOpeningBook book;
    static Position start;
    static Map<String, TreeSet<String>> moves = new HashMap<>();
    static Map<String, Position> posOf = new HashMap<>();
    static long queries = 0;

    static String fen4(Position p) {
        String[] f = TextIO.toFEN(p).split(" ");
        return f[0] + " " + f[1] + " " + f[2] + " " + f[3];
    }

    static List<Move> legalBook(Position pos, ArrayList<BookEntry> ents) {
        List<Move> out = new ArrayList<>();
        if (ents == null) return out;
        ArrayList<Move> legal = new MoveGen().legalMoves(pos);
        String key = fen4(pos);
        for (BookEntry e : ents) {
            boolean ok = false;
            for (Move m : legal) if (m.equals(e.move)) ok = true;
            if (!ok) { System.err.println("illegal " + TextIO.moveToUCIString(e.move) + " in " + key); continue; }
            out.add(e.move);
        }
        return out;
    }

    static void note(Position pos, List<Move> ms) {
        String k = fen4(pos);
        posOf.putIfAbsent(k, new Position(pos));
        TreeSet<String> s = moves.computeIfAbsent(k, x -> new TreeSet<>());
        for (Move m : ms) s.add(TextIO.moveToUCIString(m));
    }

    static void abkPaths(Position pos, ArrayList<Move> path) {
        queries++;
        List<Move> ms = legalBook(pos, book.getBookEntries(new BookPosInput(pos, start, path)));
        if (ms.isEmpty()) return;
        note(pos, ms);
        for (Move m : ms) {
            Position c = new Position(pos);
            c.makeMove(m, new UndoInfo());
            ArrayList<Move> p2 = new ArrayList<>(path);
            p2.add(m);
            abkPaths(c, p2);
        }
    }

    public static void main(String[] a) throws Exception {
        String file = a[0];
        int maxPly = Integer.parseInt(a[1]);
        start = TextIO.readFEN(TextIO.startPosFEN);
        BookOptions o = new BookOptions();
        o.filename = file;
        book = file.endsWith(".abk") ? new AbkBook() : new CtgBook();
        book.setOptions(o);
        long t0 = System.nanoTime();
        if (file.endsWith(".abk"))
            abkPaths(new Position(start), new ArrayList<>());
        // breadth-first over positions; ctg: each position probed when reached
        List<String> out = new ArrayList<>();
        Map<String, Integer> ply = new HashMap<>();
        ArrayDeque<Position> q = new ArrayDeque<>();
        ply.put(fen4(start), 0);
        q.add(new Position(start));
        long walked = 0;
        while (!q.isEmpty()) {
            Position p = q.poll();
            String k = fen4(p);
            int d = ply.get(k);
            if (!file.endsWith(".abk")) {
                queries++;
                note(p, legalBook(p, book.getBookEntries(new BookPosInput(p, null, null))));
            }
            TreeSet<String> s = moves.get(k);
            if (s == null || s.isEmpty()) continue;
            walked++;
            if (d <= maxPly)
                out.add("{\"fen\":\"" + k + "\",\"ply\":" + d + ",\"moves\":[\"" + String.join("\",\"", s) + "\"]}");
            if (d >= maxPly && file.endsWith(".abk") == false) continue;
            for (String u : s) {
                Position c = new Position(p);
                c.makeMove(TextIO.UCIstringToMove(u), new UndoInfo());
                String ck = fen4(c);
                if (!ply.containsKey(ck)) { ply.put(ck, d + 1); q.add(c); }
            }
        }
        long t1 = System.nanoTime();
        // positions to probe besides the walk (ctg only: abk answers only for move paths)
        for (int i = 2; i < a.length; i++) {
            Position p = TextIO.readFEN(a[i]);
            List<Move> ms = legalBook(p, book.getBookEntries(new BookPosInput(p, null, null)));
            List<String> u = new ArrayList<>();
            for (Move m : ms) u.add(TextIO.moveToUCIString(m));
            Collections.sort(u);
            out.add("{\"fen\":\"" + fen4(p) + "\",\"ply\":-1,\"moves\":[\"" + String.join("\",\"", u) + "\"]}");
        }
        Collections.sort(out);
        for (String l : out) System.out.println(l);
        System.err.printf("positions with moves: %d (within %d plies: %d), book queries %d, %.3f s, %.0f positions/s%n",
                          walked, maxPly, out.size(), queries, (t1 - t0) / 1e9, walked / ((t1 - t0) / 1e9));
    }
}
