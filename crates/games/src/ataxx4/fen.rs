//! FEN for four-player positions (spec `variants.md` 2.3): the square FEN with piece letters
//! `r b g y` and a side field naming one of them.

use std::fmt;
use std::str::FromStr;

use ataxx::fen_parts::{self, read_grid, write_grid, GridBoard, GridError, RankWidthError, Setup};
use thiserror::Error;

use super::position::{MAX_SIZE, MIN_SIZE};
use super::{Cell, Color, Position};

/// What was wrong with a four-player FEN, and where.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum FenError {
    /// A field, the board's included, does not read.
    #[error(transparent)]
    Fields(#[from] fen_parts::FenError<BoardFieldError>),
    #[error("side field is {}, but {} has no pieces and the game is not over: a colour that is out never has the move", .side.char(), .side.name())]
    SideOut { side: Color },
}

/// What was wrong with the board field of a four-player FEN.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BoardFieldError {
    #[error("board field has {found} ranks; four-player boards have {MIN_SIZE} to {MAX_SIZE} ranks separated by '/'")]
    RankCount { found: usize },
    #[error(transparent)]
    RankWidth(RankWidthError),
    #[error("board field: rank {rank}, character {position} is {found:?}; expected r, b, g, y, - or a digit 1-{size}{hint}", hint = two_player_hint(*.found))]
    BadCell {
        rank: u8,
        position: usize,
        found: char,
        size: u8,
    },
}

/// Points a two-player FEN's user at the right letters.
fn two_player_hint(found: char) -> &'static str {
    match found {
        'x' | 'o' | 'X' | 'O' => " (x and o are two-player pieces)",
        _ => "",
    }
}

impl FromStr for Position {
    type Err = FenError;

    /// Reads 1–4 FEN fields (missing side = r, clock 0, move 1), the keyword `startpos` (the
    /// 7×7 start), and upper-case letters.
    ///
    /// ```
    /// use games::ataxx4::Position;
    /// let pos: Position = "R5B/7/7/7/7/7/Y5G".parse().unwrap();
    /// assert_eq!(pos.to_string(), "r5b/7/7/7/7/7/y5g r 0 1");
    /// let err = "r5b/7/7/7/7/7/y5x r 0 1".parse::<Position>().unwrap_err();
    /// assert!(err.to_string().contains("rank 1, character 3 is 'x'"), "{err}");
    /// ```
    fn from_str(text: &str) -> Result<Position, FenError> {
        let Some(Setup {
            board: GridBoard { grid, pieces },
            turn,
            counters,
        }) = Setup::read(text, "r5b/7/7/7/7/7/y5g", read_board)?
        else {
            return Ok(Position::startpos());
        };
        let pos = Position::from_parts(grid, pieces, turn, counters);
        // Play never hands the move to a colour without pieces; a FEN that does would
        // leave the rules nothing to do but invent a skip the spec does not define.
        if !pos.in_play(turn) && !pos.is_game_over() {
            return Err(FenError::SideOut { side: turn });
        }
        Ok(pos)
    }
}

fn read_board(board: &str) -> Result<GridBoard<4>, BoardFieldError> {
    let letter = |c| Color::from_char(c).map(Color::index);
    read_grid(board, MIN_SIZE..=MAX_SIZE, letter).map_err(|err| match err {
        GridError::RankCount { found } => BoardFieldError::RankCount { found },
        GridError::RankWidth(width) => BoardFieldError::RankWidth(width),
        GridError::BadCell { rank, letter, size } => BoardFieldError::BadCell {
            rank,
            position: letter.position,
            found: letter.found,
            size,
        },
    })
}

impl Position {
    /// The board field alone, e.g. `r5b/7/7/7/7/7/y5g`.
    pub fn board_fen(&self) -> String {
        write_grid(self.grid().size(), |sq| match self.cell(sq)? {
            Cell::Empty => None,
            Cell::Blocked => Some('-'),
            Cell::Piece(color) => Some(color.char()),
        })
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
            ("startpos", "r5b/7/7/7/7/7/y5g r 0 1"),
            ("r5b/7/7/7/7/7/y5g", "r5b/7/7/7/7/7/y5g r 0 1"),
            ("r5b/7/7/7/7/7/y5g g", "r5b/7/7/7/7/7/y5g g 0 1"),
            ("R5B/7/7/7/7/7/Y5G Y 3", "r5b/7/7/7/7/7/y5g y 3 1"),
            ("r23b/7/7/7/7/7/y5g r 0 1", "r5b/7/7/7/7/7/y5g r 0 1"),
            (
                "r5b/7/2-1-2/7/2-1-2/7/y5g r 0 1",
                "r5b/7/2-1-2/7/2-1-2/7/y5g r 0 1",
            ),
            ("r3b/5/5/5/y3g b 7 9", "r3b/5/5/5/y3g b 7 9"),
            ("r6b/8/8/8/8/8/8/y6g r 0 1", "r6b/8/8/8/8/8/8/y6g r 0 1"),
            // No pieces at all: the game is over, so any side may be named.
            ("7/7/7/7/7/7/7 g 0 1", "7/7/7/7/7/7/7 g 0 1"),
            // Only red left: over, and blue may be named.
            ("r6/7/7/7/7/7/7 b 0 1", "r6/7/7/7/7/7/7 b 0 1"),
        ];
        for (input, output) in cases {
            let p: Position = input.parse().unwrap();
            assert_eq!(p.to_string(), output, "{input}");
        }
    }

    #[test]
    fn errors_name_the_field_rank_and_character() {
        let err = |s: &str| s.parse::<Position>().unwrap_err().to_string();
        assert!(err("").starts_with("empty FEN"));
        assert!(err("r3b/5/5/y3g").contains("4 ranks; four-player boards have 5 to 8"));
        assert!(err("r5b/7/7/7/7/6/y5g").contains("rank 2 covers 6 files; expected 7"));
        assert!(err("r5b/7/7/7/7/7/y5g1").contains("rank 1 covers 8 files"));
        assert!(err("r5b/7/7/7/7/7/y5x").contains("rank 1, character 3 is 'x'"));
        assert!(err("r5b/7/7/7/7/7/y5x").contains("two-player pieces"));
        assert!(err("r5b/7/7/8/7/7/y5g").contains("rank 4, character 1 is '8'"));
        assert!(err("r5b/7/7/7/7/7/y5g o").contains("side field is \"o\""));
        assert!(err("r5b/7/7/7/7/7/y5g r -1").contains("halfmove clock field"));
        assert!(err("r5b/7/7/7/7/7/y5g r 0 0").contains("fullmove number field"));
        assert!(err("r5b/7/7/7/7/7/y5g r 0 1 x").contains("5 fields"));
        assert_eq!(
            err("r5b/7/7/7/7/7/y6 g 0 1"),
            "side field is g, but green has no pieces and the game is not over: a colour that is out never has the move"
        );
    }
}
