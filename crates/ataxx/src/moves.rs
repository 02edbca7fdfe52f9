//! Moves and their text.

use std::fmt;
use std::str::FromStr;

use arrayvec::ArrayVec;
use thiserror::Error;

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
        let lower = text.trim().to_ascii_lowercase();
        let err = |reason| ParseMoveError {
            text: text.to_string(),
            reason,
        };
        match lower.as_str() {
            "0000" | "pass" | "null" | "--" => return Ok(Move::Pass),
            _ => {}
        }
        let body = lower
            .strip_prefix("x@")
            .or_else(|| lower.strip_prefix("p@"))
            .unwrap_or(&lower);
        let b = body.as_bytes();
        let (first, second) = match b.len() {
            2 => (b, None),
            4 => (&b[..2], Some(&b[2..])),
            5 if b[2] == b'-' || b[2] == b'^' => (&b[..2], Some(&b[3..])),
            _ => return Err(err(MoveTextError::Shape)),
        };
        let first = Square::from_ascii(first).ok_or(err(MoveTextError::Square))?;
        let Some(second) = second else {
            return Ok(Move::Single(first));
        };
        let second = Square::from_ascii(second).ok_or(err(MoveTextError::Square))?;
        Move::from_squares(first, second).ok_or(err(MoveTextError::TooFar))
    }

    /// Move text that names two squares: same square = pass, distance 1 = single, 2 = jump.
    fn from_squares(from: Square, to: Square) -> Option<Move> {
        match from.distance(to) {
            0 => Some(Move::Pass),
            1 => Some(Move::Single(to)),
            2 => Some(Move::Jump { from, to }),
            _ => None,
        }
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

impl FromStr for Move {
    type Err = ParseMoveError;

    /// The strict reader of libataxx and python-ataxx: `d4`, `c3b5` or `0000`, lower case.
    fn from_str(s: &str) -> Result<Move, ParseMoveError> {
        let err = |reason| ParseMoveError {
            text: s.to_string(),
            reason,
        };
        let b = s.as_bytes();
        match b.len() {
            _ if s == "0000" => Ok(Move::Pass),
            2 => Square::from_ascii(b)
                .map(Move::Single)
                .ok_or(err(MoveTextError::Square)),
            4 => {
                let from = Square::from_ascii(&b[..2]).ok_or(err(MoveTextError::Square))?;
                let to = Square::from_ascii(&b[2..]).ok_or(err(MoveTextError::Square))?;
                match from.distance(to) {
                    2 => Ok(Move::Jump { from, to }),
                    0 | 1 => Err(err(MoveTextError::NotStrict)),
                    _ => Err(err(MoveTextError::TooFar)),
                }
            }
            _ => Err(err(MoveTextError::Shape)),
        }
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
