package org.petero.droidfish.book;
import org.petero.droidfish.gamelogic.Move;
import org.petero.droidfish.gamelogic.TextIO;
/* Stub for the driver: only the entry type the book readers return. */
public final class DroidBook {
    public static final class BookEntry {
        public Move move;
        public float weight;
        BookEntry(Move move) { this.move = move; weight = 1; }
        @Override public String toString() { return TextIO.moveToUCIString(move) + " (" + weight + ")"; }
    }
}
