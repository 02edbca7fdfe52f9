//! The halfmove clock and the fullmove number, which every Ataxx-like game keeps alike (square
//! Ataxx, Hexxagon, four-player Ataxx): how a ply moves them, when the clock ends the game, and
//! how FEN writes them.
//!
//! ```
//! use ataxx::Counters;
//! let mut counters = Counters::START;
//! counters.after_jump_or_pass(); // by the first side
//! counters.after_jump_or_pass(); // by the last side, which ends the round
//! counters.after_round();
//! assert_eq!((counters.halfmove, counters.fullmove), (2, 2));
//! counters.after_single();
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

    // A ply is counted by two or three calls rather than one taking flags: in the branches of
    // the move's match they cost nothing, while a flag re-tests the move (3% of four-player
    // perft's instructions).

    /// Counts a single move: the clock starts again.
    #[inline(always)]
    pub fn after_single(&mut self) {
        self.halfmove = 0;
    }

    /// Counts a jump or a pass: the clock runs on.
    #[inline(always)]
    pub fn after_jump_or_pass(&mut self) {
        self.halfmove += 1;
    }

    /// Counts the end of a round, once the last side in play has moved: the move number grows.
    #[inline(always)]
    pub fn after_round(&mut self) {
        self.fullmove += 1;
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
