//! Hexxagon FEN (`variants.md` 1.3): rows from the top (y = 2n−2) down to y = 0, each by
//! increasing x; digits count empty cells, `x` `o` pieces, `-` blocks; then side, halfmove
//! clock and fullmove number as on the square board.

use std::fmt;
use std::str::FromStr;

use ataxx::fen_parts::{self, read_row, write_rows, Setup};
use thiserror::Error;

use super::geometry::{Geometry, MAX_SIZE, MIN_SIZE};
use super::position::{CellState, Position};

/// What was wrong with a Hexxagon FEN, and where.
pub type FenError = fen_parts::FenError<BoardFieldError>;

/// What was wrong with the board field of a Hexxagon FEN. Rows are named by their number in
/// cell labels (row 1 is the bottom, y = 0, the last FEN row).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BoardFieldError {
    #[error("board field has {found} rows; a hexagon with n cells a side (n = {MIN_SIZE} to {MAX_SIZE}) has 2n-1 rows: 5, 7 or 9, separated by '/'")]
    RowCount { found: usize },
    #[error("board field: row {row} (FEN row {fen_row} from the top) covers {found} cells; expected {expected} (row lengths of the n = {n} hexagon run {lengths})")]
    RowLength {
        row: u8,
        fen_row: usize,
        found: usize,
        expected: usize,
        n: u8,
        lengths: String,
    },
    #[error("board field: row {row} (FEN row {fen_row} from the top) has {found:?}; expected x, o, - or a digit 1-9")]
    BadCell {
        row: u8,
        fen_row: usize,
        found: char,
    },
}

impl FromStr for Position {
    type Err = FenError;

    /// Reads 1–4 FEN fields (missing side = x, clock 0, move 1), the keyword `startpos` (the
    /// n = 5 start), and upper-case `X`/`O`. The board size follows from the row count.
    ///
    /// ```
    /// use games::hexxagon::Position;
    /// let p: Position = "x1o/4/o3x/4/x1o".parse().unwrap();
    /// assert_eq!((p.size(), p.to_string().as_str()), (3, "x1o/4/o3x/4/x1o x 0 1"));
    /// let err = "x3o/6/7/8/o7x/8/7/5/x3o".parse::<Position>().unwrap_err();
    /// assert!(err.to_string().contains("row 2 (FEN row 8 from the top) covers 5 cells; expected 6"));
    /// ```
    fn from_str(text: &str) -> Result<Position, FenError> {
        let Some(setup) = Setup::read(text, "x3o/6/7/8/o7x/8/7/6/x3o", read_board)? else {
            return Ok(Position::startpos());
        };
        let (n, [x, o], blocked) = setup.board;
        Ok(
            Position::from_parts(n, x, o, blocked, setup.turn, setup.counters)
                .expect("read_board returns a supported size"),
        )
    }
}

/// The row lengths of the size-`n` hexagon from the top, for messages: `5, 6, 7, 8, 9, 8, 7, 6, 5`.
fn lengths(g: &Geometry) -> String {
    (0..g.rows())
        .rev()
        .map(|y| g.row(y).len().to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

fn read_board(board: &str) -> Result<(u8, [u64; 2], u64), BoardFieldError> {
    let rows: Vec<&str> = board.split('/').collect();
    let found = rows.len();
    let g = match found {
        5 | 7 | 9 => Geometry::of(found.div_ceil(2) as u8).expect("3 to 5"),
        _ => return Err(BoardFieldError::RowCount { found }),
    };
    let (mut x, mut o, mut blocked) = (0u64, 0u64, 0u64);
    for (fen_row, text) in rows.iter().enumerate() {
        let y = g.rows() - 1 - fen_row as u8;
        let cells = g.row(y);
        let at = read_row(text, 9, |at, c| {
            let set = match c {
                'x' | 'X' => &mut x,
                'o' | 'O' => &mut o,
                '-' => &mut blocked,
                _ => return false,
            };
            // Past the row's end nothing is stored; the length check below reports it.
            if at < cells.len() {
                *set |= 1 << (cells.start + at);
            }
            true
        })
        .map_err(|letter| BoardFieldError::BadCell {
            row: y + 1,
            fen_row: fen_row + 1,
            found: letter.found,
        })?;
        if at != cells.len() {
            return Err(BoardFieldError::RowLength {
                row: y + 1,
                fen_row: fen_row + 1,
                found: at,
                expected: cells.len(),
                n: g.size(),
                lengths: lengths(g),
            });
        }
    }
    Ok((g.size(), [x, o], blocked))
}

impl Position {
    /// The board field alone, e.g. `x3o/6/7/8/o7x/8/7/6/x3o`.
    pub fn board_fen(&self) -> String {
        let g = self.geometry();
        write_rows((0..g.rows()).rev().map(|y| {
            g.row(y).map(
                |i| match self.cell_state(g.cell(i)).expect("the board's own cell") {
                    CellState::Empty => None,
                    CellState::Piece(color) => Some(color.char()),
                    CellState::Blocked => Some('-'),
                },
            )
        }))
    }
}

impl fmt::Display for Position {
    /// The full four-field FEN.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        Setup {
            board: self.board_fen(),
            turn: self.turn(),
            counters: self.counters(),
        }
        .fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writer_is_strict_and_reader_tolerant() {
        let cases = [
            ("startpos", "x3o/6/7/8/o7x/8/7/6/x3o x 0 1"),
            ("x3o/6/7/8/o7x/8/7/6/x3o", "x3o/6/7/8/o7x/8/7/6/x3o x 0 1"),
            (
                "X3O/6/7/8/O7X/8/7/6/X3O o 7",
                "x3o/6/7/8/o7x/8/7/6/x3o o 7 1",
            ),
            ("x12o/6/7/8/o7x/8/7/6/x3o", "x3o/6/7/8/o7x/8/7/6/x3o x 0 1"),
            (
                "x3o/6/7/4-3/o2-4x/4-3/7/6/x3o x 0 1",
                "x3o/6/7/4-3/o2-4x/4-3/7/6/x3o x 0 1",
            ),
            ("3/4/5/4/3 o 3 9", "3/4/5/4/3 o 3 9"),
            ("x2o/5/6/o5x/6/5/x2o", "x2o/5/6/o5x/6/5/x2o x 0 1"),
        ];
        for (input, output) in cases {
            let p: Position = input.parse().unwrap();
            assert_eq!(p.to_string(), output, "{input}");
        }
    }

    #[test]
    fn errors_name_the_field_and_row() {
        let err = |s: &str| s.parse::<Position>().unwrap_err().to_string();
        assert!(err("").contains("empty FEN"));
        // A square 7×7 FEN has 7 rows but not the hexagon's lengths.
        let square = err("x5o/7/7/7/7/7/o5x x 0 1");
        assert!(
            square.contains("row 7 (FEN row 1 from the top) covers 7 cells; expected 4")
                && square.contains("4, 5, 6, 7, 6, 5, 4"),
            "{square}"
        );
        assert!(err("x3o/6/7/8/o7x/8/7/6").contains("8 rows"));
        assert!(err("x3o/6/7/8/o7x/8/7/6/x3o/5").contains("10 rows"));
        assert!(err("x3o/6/7/8/o8x/8/7/6/x3o")
            .contains("row 5 (FEN row 5 from the top) covers 10 cells; expected 9"));
        assert!(err("x3b/6/7/8/o7x/8/7/6/x3o").contains("row 9 (FEN row 1 from the top) has 'b'"));
        assert!(err("x3o/6/7/8/o7x/8/7/6/x0o").contains("has '0'"));
        assert!(err("x3o/6/7/8/o7x/8/7/6/x3o w").contains("side field is \"w\""));
        assert!(err("x3o/6/7/8/o7x/8/7/6/x3o x -1").contains("halfmove clock field is \"-1\""));
        assert!(err("x3o/6/7/8/o7x/8/7/6/x3o x 0 0").contains("fullmove number field is \"0\""));
        assert!(err("x3o/6/7/8/o7x/8/7/6/x3o x 0 1 z").contains("5 fields"));
        assert!(err("x3o/6/7/8/o7x/8/7/6/x3o x 99999999999").contains("halfmove"));
    }
}
