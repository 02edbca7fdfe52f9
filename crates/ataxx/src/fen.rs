//! FEN (spec section 3): `board [side [halfmove [fullmove]]]`.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::fen_parts::{self, read_grid, write_grid, GridBoard, GridError, RankWidthError, Setup};
use crate::{Color, Position, MAX_SIZE};

/// What was wrong with a FEN, and where.
pub type FenError = fen_parts::FenError<BoardFieldError>;

/// What was wrong with the board field of a FEN.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BoardFieldError {
    #[error("board field has {found} ranks; expected 3 to {max} ranks separated by '/'", max = MAX_SIZE)]
    RankCount { found: usize },
    #[error(transparent)]
    RankWidth(RankWidthError),
    #[error("board field: rank {rank} has {found:?}; expected x, o, - or a digit 1-{size}")]
    BadCell { rank: u8, found: char, size: u8 },
}

impl FromStr for Position {
    type Err = FenError;

    /// Reads 1–4 FEN fields (missing side = x, clock 0, move 1), the keyword `startpos`, and
    /// upper-case `X`/`O`.
    fn from_str(text: &str) -> Result<Position, FenError> {
        let Some(setup) = Setup::read(text, "x5o/7/7/7/7/7/o5x", read_board)? else {
            return Ok(Position::startpos());
        };
        let GridBoard { grid, pieces } = setup.board;
        Ok(Position::from_parts(
            grid,
            pieces,
            setup.turn,
            setup.counters,
        ))
    }
}

fn read_board(board: &str) -> Result<GridBoard<2>, BoardFieldError> {
    read_grid(board, 3..=MAX_SIZE, |c| {
        Color::from_char(c).map(Color::index)
    })
    .map_err(|err| match err {
        GridError::RankCount { found } => BoardFieldError::RankCount { found },
        GridError::RankWidth(width) => BoardFieldError::RankWidth(width),
        GridError::BadCell { rank, letter, size } => BoardFieldError::BadCell {
            rank,
            found: letter.found,
            size,
        },
    })
}

impl Position {
    /// The board field alone, e.g. `x5o/7/7/7/7/7/o5x`.
    pub fn board_fen(&self) -> String {
        write_grid(self.size(), |sq| {
            self.piece_at(sq)
                .map(|piece| piece.map_or('-', Color::char))
        })
    }
}

impl fmt::Display for Position {
    /// The full four-field FEN.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        Setup {
            board: self.board_fen(),
            turn: self.turn(),
            counters: self.counters,
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
            ("startpos", "x5o/7/7/7/7/7/o5x x 0 1"),
            ("x5o/7/7/7/7/7/o5x", "x5o/7/7/7/7/7/o5x x 0 1"),
            ("x5o/7/7/7/7/7/o5x o", "x5o/7/7/7/7/7/o5x o 0 1"),
            ("X5O/7/7/7/7/7/O5X x 3", "x5o/7/7/7/7/7/o5x x 3 1"),
            (
                "x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1",
                "x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1",
            ),
            ("x23o/7/7/7/7/7/o5x x 0 1", "x5o/7/7/7/7/7/o5x x 0 1"),
            ("7/7/7/7/7/7/7 x 0 1", "7/7/7/7/7/7/7 x 0 1"),
            ("x1o/3/o1x x 0 1", "x1o/3/o1x x 0 1"),
            ("x6o/8/8/8/8/8/8/o6x o 5 7", "x6o/8/8/8/8/8/8/o6x o 5 7"),
        ];
        for (input, output) in cases {
            let p: Position = input.parse().unwrap();
            assert_eq!(p.to_string(), output, "{input}");
        }
    }

    #[test]
    fn errors_name_the_field_and_rank() {
        let err = |s: &str| s.parse::<Position>().unwrap_err().to_string();
        assert_eq!(
            err(""),
            "empty FEN: expected a board such as x5o/7/7/7/7/7/o5x"
        );
        assert!(err("x5o/7/7/7/7/o5x").contains("rank 6 covers 7 files; expected 6"));
        assert!(err("x5o/7/7/7/7/7/7/7/7/o5x").contains("10 ranks"));
        assert!(err("x5o/7/7/6/7/7/o5x").contains("rank 4 covers 6 files; expected 7"));
        assert!(err("x5b/7/7/7/7/7/o5x").contains("rank 7 has 'b'"));
        assert!(err("x5o/7/7/7/7/7/o5x w").contains("side field"));
        assert!(err("x5o/7/7/7/7/7/o5x x -1").contains("halfmove"));
        assert!(err("x5o/7/7/7/7/7/o5x x 0 0").contains("fullmove"));
        assert!(err("x5o/7/7/7/7/7/o5x x 0 1 extra").contains("5 fields"));
        assert!(err("x5o/8/7/7/7/7/o5x").contains("has '8'"));
        assert!(err("x5o/7/7/7/7/7/o5x x 99999999999").contains("halfmove"));
    }
}
