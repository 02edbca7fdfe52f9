//! Plain-text boards in the square game's style: rank numbers on the left, the top rank first,
//! file letters underneath, FEN letters for pieces, `.` empty and `-` blocked.

use ataxx::grid_diagram;

use super::{Cell, Position};

impl Position {
    /// The board as text, one line per rank and a line of file letters, each line ending `\n`.
    ///
    /// ```
    /// use games::ataxx4::Position;
    /// let pos: Position = "r3b/5/2-2/5/y3g".parse().unwrap();
    /// assert_eq!(
    ///     pos.diagram(),
    ///     "5 r . . . b\n4 . . . . .\n3 . . - . .\n2 . . . . .\n1 y . . . g\n  a b c d e\n"
    /// );
    /// ```
    pub fn diagram(&self) -> String {
        grid_diagram(self.grid().size(), |sq| match self.cell(sq) {
            Some(Cell::Piece(color)) => color.char(),
            Some(Cell::Blocked) => '-',
            Some(Cell::Empty) | None => '.',
        })
    }
}
