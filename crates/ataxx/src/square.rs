//! Squares and their names.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

/// The largest board side the bitboard layout holds.
pub const MAX_SIZE: u8 = 8;

/// A cell of the board: file `a`… left to right, rank `1`… bottom to top.
///
/// Stored as its bit index `8·rank + file` (`a1` = 0), the same on every board size.
///
/// ```
/// use ataxx::Square;
/// let sq: Square = "c5".parse().unwrap();
/// assert_eq!((sq.file(), sq.rank()), (2, 4));
/// assert_eq!(sq.to_string(), "c5");
/// assert_eq!(sq.distance("a7".parse().unwrap()), 2);
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Square(u8);

/// Text that is not a square name.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("invalid square {text:?}: expected a file letter a-h then a rank digit 1-8")]
pub struct ParseSquareError {
    pub text: String,
}

impl Square {
    /// The square at `file` and `rank` (both from 0), if both are below [`MAX_SIZE`].
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file < MAX_SIZE && rank < MAX_SIZE {
            Some(Square(rank * 8 + file))
        } else {
            None
        }
    }

    /// The square with bit index `index`; `index` must be below 64.
    #[inline(always)]
    pub(crate) const fn from_index_unchecked(index: u8) -> Square {
        debug_assert!(index < 64);
        Square(index)
    }

    /// Bit index `8·rank + file`.
    #[inline(always)]
    pub const fn index(self) -> u8 {
        self.0
    }

    /// File from 0 (`a`).
    #[inline(always)]
    pub const fn file(self) -> u8 {
        self.0 & 7
    }

    /// Rank from 0 (rank `1`).
    #[inline(always)]
    pub const fn rank(self) -> u8 {
        self.0 >> 3
    }

    /// Chebyshev distance: 1 for a single move, 2 for a jump.
    pub const fn distance(self, other: Square) -> u8 {
        let df = self.file().abs_diff(other.file());
        let dr = self.rank().abs_diff(other.rank());
        if df > dr {
            df
        } else {
            dr
        }
    }

    /// Reads a square name from the first two bytes of `bytes` (lower-case only).
    pub(crate) fn from_ascii(bytes: &[u8]) -> Option<Square> {
        match bytes {
            [f @ b'a'..=b'h', r @ b'1'..=b'8', ..] => Square::new(f - b'a', r - b'1'),
            _ => None,
        }
    }
}

impl FromStr for Square {
    type Err = ParseSquareError;

    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        match s.as_bytes() {
            b @ [_, _] => Square::from_ascii(b),
            _ => None,
        }
        .ok_or_else(|| ParseSquareError {
            text: s.to_string(),
        })
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_for_every_square() {
        for rank in 0..8 {
            for file in 0..8 {
                let sq = Square::new(file, rank).unwrap();
                assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
            }
        }
    }

    #[test]
    fn bad_names_are_rejected() {
        for bad in ["", "a", "a0", "i1", "a9", "A1", "a1 ", "aa"] {
            assert!(bad.parse::<Square>().is_err(), "{bad}");
        }
    }
}
