//! Hexxagon moves and their text: the square game's notation on hexagonal cells.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

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
        let lower = text.trim().to_ascii_lowercase();
        let err = |reason| ParseMoveError {
            text: text.to_string(),
            reason,
        };
        if matches!(lower.as_str(), "0000" | "pass" | "null" | "--") {
            return Ok(Move::Pass);
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
        let first = Cell::from_ascii(first).ok_or(err(MoveTextError::Cell))?;
        let Some(second) = second else {
            return Ok(Move::Single(first));
        };
        let second = Cell::from_ascii(second).ok_or(err(MoveTextError::Cell))?;
        match first.distance(second) {
            0 => Ok(Move::Pass),
            1 => Ok(Move::Single(second)),
            2 => Ok(Move::Jump {
                from: first,
                to: second,
            }),
            _ => Err(err(MoveTextError::TooFar)),
        }
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

impl FromStr for Move {
    type Err = ParseMoveError;

    /// The strict reader: `e5`, `a1c3` or `0000`, lower case, nothing else.
    fn from_str(s: &str) -> Result<Move, ParseMoveError> {
        let err = |reason| ParseMoveError {
            text: s.to_string(),
            reason,
        };
        let b = s.as_bytes();
        match b.len() {
            _ if s == "0000" => Ok(Move::Pass),
            2 => Cell::from_ascii(b)
                .map(Move::Single)
                .ok_or(err(MoveTextError::Cell)),
            4 => {
                let from = Cell::from_ascii(&b[..2]).ok_or(err(MoveTextError::Cell))?;
                let to = Cell::from_ascii(&b[2..]).ok_or(err(MoveTextError::Cell))?;
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
