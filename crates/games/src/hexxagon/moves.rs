//! Hexxagon moves and their text: the square game's notation on hexagonal cells.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use ataxx::move_text::{self, CellMove, TextFault};

use super::geometry::Cell;

/// One ply.
///
/// ```
/// use games::hexxagon::Move;
/// let jump: Move = "a1c3".parse().unwrap();
/// assert_eq!(jump.to_string(), "a1c3");
/// assert_eq!(Move::parse_tolerant("A1-C3").unwrap(), jump);
/// assert_eq!(Move::parse_tolerant("a1b2").unwrap().to_string(), "b2"); // distance 1: a single
/// assert_eq!(Move::parse_tolerant("pass").unwrap(), Move::Pass);
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Move {
    /// A new piece on an empty cell next to one of the mover's pieces.
    Single(Cell),
    /// A piece moves to an empty cell at distance exactly 2.
    Jump { from: Cell, to: Cell },
    /// The side to move has no other move.
    Pass,
}

impl Move {
    /// The cell the move fills, if any.
    pub const fn to(self) -> Option<Cell> {
        match self {
            Move::Single(to) | Move::Jump { to, .. } => Some(to),
            Move::Pass => None,
        }
    }

    /// The cell a jump empties.
    pub const fn from(self) -> Option<Cell> {
        match self {
            Move::Jump { from, .. } => Some(from),
            _ => None,
        }
    }

    /// Reads move text as people and foreign programs write it (the square game's tolerant
    /// reader, `ataxx.md` section 2): any case and surrounding space; `pass`, `null`, `--`,
    /// `0000` or the same cell twice for a pass; from+to at distance 1 for a single; one `-` or
    /// `^` between the cells; `x@`/`p@` drop prefixes.
    pub fn parse_tolerant(text: &str) -> Result<Move, ParseMoveError> {
        move_text::read_tolerant(text).map_err(|fault| ParseMoveError::new(text, fault))
    }
}

impl CellMove for Move {
    type Cell = Cell;
    const PASS: Move = Move::Pass;

    fn read_cell(ascii: &[u8]) -> Option<Cell> {
        Cell::from_ascii(ascii)
    }

    fn distance(from: Cell, to: Cell) -> u8 {
        from.distance(to)
    }

    fn single(to: Cell) -> Move {
        Move::Single(to)
    }

    fn jump(from: Cell, to: Cell) -> Move {
        Move::Jump { from, to }
    }
}

/// What was wrong with a move's text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MoveTextError {
    Shape,
    Cell,
    TooFar,
    NotStrict,
}

impl fmt::Display for MoveTextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            MoveTextError::Shape => "expected a cell (e5), two cells (a1c3) or a pass (0000)",
            MoveTextError::Cell => {
                "a cell is a letter a-i then a digit 1-9, inside the hexagon (letter and digit at most 4 apart, as e5, a1, i9)"
            }
            MoveTextError::TooFar => "the two cells are more than 2 apart",
            MoveTextError::NotStrict => {
                "strict notation writes a single as its destination (e5), a jump as from+to at distance 2 (a1c3) and a pass as 0000"
            }
        })
    }
}

/// Text that is not a move.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("invalid move {text:?}: {reason}")]
pub struct ParseMoveError {
    pub text: String,
    pub reason: MoveTextError,
}

impl ParseMoveError {
    fn new(text: &str, fault: TextFault) -> ParseMoveError {
        let reason = match fault {
            TextFault::Shape => MoveTextError::Shape,
            TextFault::Cell => MoveTextError::Cell,
            TextFault::TooFar => MoveTextError::TooFar,
            TextFault::NotStrict => MoveTextError::NotStrict,
        };
        ParseMoveError {
            text: text.to_string(),
            reason,
        }
    }
}

impl FromStr for Move {
    type Err = ParseMoveError;

    /// The strict reader: `e5`, `a1c3` or `0000`, lower case, nothing else.
    fn from_str(s: &str) -> Result<Move, ParseMoveError> {
        move_text::read_strict(s).map_err(|fault| ParseMoveError::new(s, fault))
    }
}

impl fmt::Display for Move {
    /// The strict form: `e5`, `a1c3`, `0000`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Single(to) => write!(f, "{to}"),
            Move::Jump { from, to } => write!(f, "{from}{to}"),
            Move::Pass => f.write_str("0000"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strict_reader_accepts_only_canonical_text() {
        for good in ["e5", "a1c3", "0000", "a1a3", "i9g7", "e5g6"] {
            assert_eq!(good.parse::<Move>().unwrap().to_string(), good);
        }
        for bad in [
            "a1b2", "a1a1", "a1-c3", "pass", "E5", "a1d4", "", "a9", "a1c3 ",
        ] {
            assert!(bad.parse::<Move>().is_err(), "{bad}");
        }
    }

    #[test]
    fn tolerant_reader_follows_the_square_game_s_table() {
        let cases = [
            ("E5", "e5"),
            ("A1C3", "a1c3"),
            ("pass", "0000"),
            ("null", "0000"),
            ("--", "0000"),
            ("e5e5", "0000"),
            ("a1b2", "b2"),
            ("a1-b1", "b1"),
            ("a1^c3", "a1c3"),
            ("x@f2", "f2"),
            ("p@f2", "f2"),
            ("  e5 ", "e5"),
        ];
        for (input, strict) in cases {
            assert_eq!(
                Move::parse_tolerant(input).unwrap().to_string(),
                strict,
                "{input}"
            );
        }
        // b1 to a2 is 2 apart on the hexagon (dx = −1, dy = +1), unlike on a square board.
        assert!(Move::parse_tolerant("b1a2").unwrap() == "b1a2".parse().unwrap());
        for bad in [
            "a1d4", "j1", "a0", "a9", "c3--b5", "c3b", "", "pa ss", "e5é",
        ] {
            assert!(Move::parse_tolerant(bad).is_err(), "{bad}");
        }
        let err = Move::parse_tolerant("a1d1").unwrap_err().to_string();
        assert!(err.contains("more than 2 apart"), "{err}");
    }
}
