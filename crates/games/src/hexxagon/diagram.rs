//! Plain-text Hexxagon boards: rows offset by half a cell so the board looks hexagonal.
//!
//! Cell (x, y) is drawn at column 2x − y (in characters, shifted so the widest row starts at
//! the left), so each cell sits between the two cells above it, (x, y+1) and (x+1, y+1), and
//! between the two below. Row numbers stand on the left; the letters run along the bottom and
//! up the lower-right edge, each letter one step below its column's lowest cell, so a letter's
//! cells go up and to the left from it.

use ataxx::Color;

use super::position::{CellState, Position};

impl Position {
    /// The board as text: `x`, `o`, `.` empty, `-` blocked; each line ends `\n`.
    ///
    /// ```
    /// use games::hexxagon::Position;
    /// let text = Position::start(3).unwrap().diagram();
    /// assert_eq!(
    ///     text,
    ///     "5   x . o\n\
    ///      4  . . . .\n\
    ///      3 o . . . x\n\
    ///      2  . . . . e\n\
    ///      1   x . o d\n\
    ///      \x20    a b c\n"
    /// );
    /// ```
    pub fn diagram(&self) -> String {
        let g = self.geometry();
        let n = i32::from(g.size());
        let rows = i32::from(g.rows());
        // Columns are 2x − y + (n − 1) + 2: two characters for the row number and a space.
        let column = |x: i32, y: i32| (2 * x - y + n - 1 + 2) as usize;
        let mut lines: Vec<Vec<u8>> = Vec::new();
        for y in (-1..rows).rev() {
            let mut line = vec![b' '; column(2 * n, y) + 1];
            if y >= 0 {
                line[0] = b'1' + y as u8;
                for i in g.row(y as u8) {
                    let cell = g.cell(i);
                    line[column(cell.x().into(), y)] =
                        match self.cell_state(cell).expect("the board's own cell") {
                            CellState::Empty => b'.',
                            CellState::Blocked => b'-',
                            CellState::Piece(Color::X) => b'x',
                            CellState::Piece(Color::O) => b'o',
                        };
                }
            }
            lines.push(line);
        }
        // Column x's lowest cell is (x, max(0, x − n + 1)); its letter goes one step further
        // down the column, on the line of row y − 1.
        for x in 0..rows {
            let y = (x - n + 1).max(0) - 1;
            let line = &mut lines[(rows - 1 - y) as usize];
            line[column(x, y)] = b'a' + x as u8;
        }
        let mut out = String::new();
        for line in lines {
            out.push_str(String::from_utf8(line).expect("ASCII").trim_end());
            out.push('\n');
        }
        out
    }
}
