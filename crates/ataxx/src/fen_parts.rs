//! The parts of a FEN that every game drawn in rows shares (square Ataxx, Hexxagon,
//! four-player Ataxx): a row written with digits for runs of empty cells, and the two move
//! counters that end the text.
//!
//! ```
//! use ataxx::fen_parts::{write_row, Counters};
//! let mut row = String::new();
//! write_row(&mut row, [Some('x'), None, None, Some('-'), None]);
//! assert_eq!(row, "x2-1");
//! let counters = Counters::read(Some("3"), None).unwrap();
//! assert_eq!((counters.halfmove, counters.fullmove), (3, 1));
//! assert!(Counters::read(Some("-1"), None).is_err());
//! ```

use thiserror::Error;

/// Appends one row: a cell's letter, or a digit counting the empty cells (`None`) in a run.
pub fn write_row(out: &mut String, cells: impl IntoIterator<Item = Option<char>>) {
    let mut run = 0u32;
    for cell in cells {
        match cell {
            None => run += 1,
            Some(c) => {
                if run > 0 {
                    out.push_str(&run.to_string());
                    run = 0;
                }
                out.push(c);
            }
        }
    }
    if run > 0 {
        out.push_str(&run.to_string());
    }
}

/// The halfmove clock and fullmove number, the third and fourth FEN fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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
    /// Reads the two fields where present; a missing clock is 0 and a missing move number 1.
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
