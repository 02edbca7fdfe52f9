//! Moves and their text.

use std::fmt;
use std::str::FromStr;

use arrayvec::ArrayVec;
use thiserror::Error;

use crate::move_text::{self, CellMove, TextFault};
use crate::Square;

/// One ply.
///
/// ```
/// use ataxx::Move;
/// let jump: Move = "c3b5".parse().unwrap();
/// assert_eq!(jump.to_string(), "c3b5");
/// assert_eq!(Move::parse_tolerant("C3-B5").unwrap(), jump);
/// assert_eq!(Move::parse_tolerant("b2b3").unwrap().to_string(), "b3");
/// assert_eq!(Move::parse_tolerant("pass").unwrap(), Move::Pass);
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Move {
    /// A new piece on an empty square next to one of the mover's pieces.
    Single(Square),
    /// A piece moves to an empty square at distance exactly 2.
    Jump { from: Square, to: Square },
    /// The side to move has no other move.
    Pass,
}

impl Move {
    /// The square the move fills, if any.
    pub const fn to(self) -> Option<Square> {
        match self {
            Move::Single(to) | Move::Jump { to, .. } => Some(to),
            Move::Pass => None,
        }
    }

    /// The square a jump empties.
    pub const fn from(self) -> Option<Square> {
        match self {
            Move::Jump { from, .. } => Some(from),
            _ => None,
        }
    }

    pub const fn is_jump(self) -> bool {
        matches!(self, Move::Jump { .. })
    }

    /// Reads move text as users, foreign engines and old records write it (spec section 2):
    /// any case, `pass`/`null`/`--`/`0000` and same-square pairs for a pass, from+to at distance 1
    /// for a single, one `-` or `^` between squares, and `x@`/`p@` drop prefixes.
    pub fn parse_tolerant(text: &str) -> Result<Move, ParseMoveError> {
        move_text::read_tolerant(text).map_err(|fault| ParseMoveError::new(text, fault))
    }
}

impl CellMove for Move {
    type Cell = Square;
    const PASS: Move = Move::Pass;

    fn read_cell(ascii: &[u8]) -> Option<Square> {
        Square::from_ascii(ascii)
    }

    fn distance(from: Square, to: Square) -> u8 {
        from.distance(to)
    }

    fn single(to: Square) -> Move {
        Move::Single(to)
    }

    fn jump(from: Square, to: Square) -> Move {
        Move::Jump { from, to }
    }
}

/// What was wrong with a move's text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MoveTextError {
    Shape,
    Square,
    TooFar,
    NotStrict,
}

impl fmt::Display for MoveTextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            MoveTextError::Shape => {
                "expected a square (d4), two squares (c3b5) or a pass (0000)"
            }
            MoveTextError::Square => "a square must be a file letter a-h then a rank digit 1-8",
            MoveTextError::TooFar => "the two squares are more than 2 apart",
            MoveTextError::NotStrict => {
                "strict notation writes a single as its destination (d4), a jump as from+to at distance 2 (c3b5) and a pass as 0000"
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
            TextFault::Cell => MoveTextError::Square,
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

    /// The strict reader of libataxx and python-ataxx: `d4`, `c3b5` or `0000`, lower case.
    fn from_str(s: &str) -> Result<Move, ParseMoveError> {
        move_text::read_strict(s).map_err(|fault| ParseMoveError::new(s, fault))
    }
}

impl fmt::Display for Move {
    /// The strict form: `d4`, `c3b5`, `0000`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Single(to) => write!(f, "{to}"),
            Move::Jump { from, to } => write!(f, "{from}{to}"),
            Move::Pass => f.write_str("0000"),
        }
    }
}

/// Room for every legal move of any position. Singles are at most the empty cells; jumps are at
/// most 16 per empty cell and 16 per piece, so at most 16·32 = 512 on 64 cells.
pub const MAX_MOVES: usize = 576;

/// Legal moves of a position, on the stack.
pub type MoveList = ArrayVec<Move, MAX_MOVES>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strict_reader_rejects_what_libataxx_rejects() {
        for bad in [
            "b2b3", "a1a1", "c3-b5", "pass", "D4", "a1d4", "", "a", "a1b", "0000 ",
        ] {
            assert!(bad.parse::<Move>().is_err(), "{bad}");
        }
        for good in ["d4", "c3b5", "0000", "a1c3", "g7e5"] {
            assert_eq!(good.parse::<Move>().unwrap().to_string(), good);
        }
    }

    #[test]
    fn tolerant_reader_follows_the_spec_table() {
        let cases = [
            ("D4", "d4"),
            ("C3B5", "c3b5"),
            ("pass", "0000"),
            ("null", "0000"),
            ("a1a1", "0000"),
            ("b2b3", "b3"),
            ("c3-b5", "c3b5"),
            ("a1-b2", "b2"),
            ("a1^c3", "a1c3"),
            ("x@f2", "f2"),
            ("p@f2", "f2"),
            ("--", "0000"),
            ("  e5 ", "e5"),
        ];
        for (input, strict) in cases {
            assert_eq!(
                Move::parse_tolerant(input).unwrap().to_string(),
                strict,
                "{input}"
            );
        }
        for bad in ["a1d4", "i1", "a0", "c3--b5", "c3b", "", "pa ss"] {
            assert!(Move::parse_tolerant(bad).is_err(), "{bad}");
        }
    }
}
