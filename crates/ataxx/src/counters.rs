//! The halfmove clock and the fullmove number, which every Ataxx-like game keeps alike (square
//! Ataxx, Hexxagon, four-player Ataxx): how a ply moves them, when the clock ends the game, and
//! how FEN writes them.
//!
//! ```
//! use ataxx::Counters;
//! let mut counters = Counters::START;
//! counters.ply(false, false); // a jump by the first side
//! counters.ply(false, true); // a jump by the last side ends the round
//! assert_eq!((counters.halfmove, counters.fullmove), (2, 2));
//! counters.ply(true, false); // a single resets the clock
//! assert_eq!(counters.halfmove, 0);
//! assert!(!counters.clock_ran_out());
//! assert_eq!(Counters::read(Some("100"), None).unwrap().fullmove, 1);
//! assert!(Counters::read(Some("100"), None).unwrap().clock_ran_out());
//! assert!(Counters::read(Some("-1"), None).is_err());
//! ```

use thiserror::Error;

/// The halfmove clock value at which the game is drawn (spec 1.3).
pub const HALFMOVE_LIMIT: u32 = 100;

/// The halfmove clock (plies since the last single move) and the fullmove number (from 1, one
/// more after each round), the third and fourth FEN fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Counters {
    pub halfmove: u32,
    pub fullmove: u32,
}

/// A move counter field that is not a whole number in range.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CounterError {
    #[error("halfmove clock field is {found:?}; expected a whole number 0 or more")]
    Halfmove { found: String },
    #[error("fullmove number field is {found:?}; expected a whole number 1 or more")]
    Fullmove { found: String },
}

impl Counters {
    /// A game's first position: clock 0, move 1.
    pub const START: Counters = Counters {
        halfmove: 0,
        fullmove: 1,
    };

    /// Counts one ply: a single move (`single`) resets the clock, any other ply (a jump, a
    /// pass) adds one to it; the move number grows once the last side of the round has moved
    /// (`round_over`).
    #[inline(always)]
    pub fn ply(&mut self, single: bool, round_over: bool) {
        self.halfmove = if single { 0 } else { self.halfmove + 1 };
        self.fullmove += u32::from(round_over);
    }

    /// Whether the clock has reached [`HALFMOVE_LIMIT`], which ends the game.
    #[inline(always)]
    pub const fn clock_ran_out(self) -> bool {
        self.halfmove >= HALFMOVE_LIMIT
    }

    /// Reads the two FEN fields where present; a missing clock is 0 and a missing move number 1.
    pub fn read(halfmove: Option<&str>, fullmove: Option<&str>) -> Result<Counters, CounterError> {
        let number = |field: Option<&str>, min: u32| match field {
            None => Some(min),
            // Digits only: `+3` and ` 3` are not counters, though `u32::from_str` takes them.
            Some(s) if s.bytes().all(|b| b.is_ascii_digit()) => {
                s.parse::<u32>().ok().filter(|n| *n >= min)
            }
            Some(_) => None,
        };
        let halfmove = number(halfmove, 0).ok_or_else(|| CounterError::Halfmove {
            found: halfmove.unwrap_or_default().to_string(),
        })?;
        let fullmove = number(fullmove, 1).ok_or_else(|| CounterError::Fullmove {
            found: fullmove.unwrap_or_default().to_string(),
        })?;
        Ok(Counters { halfmove, fullmove })
    }
}
