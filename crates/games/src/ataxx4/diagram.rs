//! Plain-text boards in the square game's style: rank numbers on the left, the top rank first,
//! file letters underneath, FEN letters for pieces, `.` empty and `-` blocked.

use ataxx::Square;

use super::Position;

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
        let mut out = String::new();
        for rank in (0..self.size()).rev() {
            out.push_str(&(rank + 1).to_string());
            for file in 0..self.size() {
                let sq = Square::new(file, rank).expect("on the grid");
                let cell = self.cell(sq).expect("on the board");
                out.push(' ');
                out.push_str(&cell.to_string());
            }
            out.push('\n');
        }
        out.push(' ');
        for file in 0..self.size() {
            out.push(' ');
            out.push((b'a' + file) as char);
        }
        out.push('\n');
        out
    }
}
