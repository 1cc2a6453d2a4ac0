package org.petero.droidfish.book;
import java.util.ArrayList;
import org.petero.droidfish.book.DroidBook.BookEntry;
import org.petero.droidfish.gamelogic.Move;
import org.petero.droidfish.gamelogic.Position;
/* Stub for the driver: the interface without the Game class. */
public interface IOpeningBook {
    boolean enabled();
    void setOptions(BookOptions options);
    class BookPosInput {
        private final Position currPos, prevPos;
        private final ArrayList<Move> moves;
        public BookPosInput(Position currPos, Position prevPos, ArrayList<Move> moves) {
            this.currPos = currPos; this.prevPos = prevPos; this.moves = moves;
        }
        public Position getCurrPos() { return currPos; }
        public Position getPrevPos() { return prevPos; }
        public ArrayList<Move> getMoves() { return moves; }
    }
    ArrayList<BookEntry> getBookEntries(BookPosInput posInput);
}
