//! A cell of the pyramid named as players name it: letter, number and level (`d3`, `d3''`).

use std::fmt;
use std::str::FromStr;

/// The largest board Ankor is played on (holes per side), and so the highest letter (`h`).
pub const MAX_SIZE: u8 = 8;
/// The smallest board.
pub const MIN_SIZE: u8 = 3;

/// A cell by its label: the ground hole's letter and number, and its level above the board.
///
/// `letter` counts from 0 (`a`), `number` from 1, `level` from 0 (the board's holes). A label
/// names a cell on every board big enough to hold its letter, so cells (and moves) read and
/// print without knowing the board: `X'` rests on `X`, on the cell one lower in number with the
/// same letter, and on the cell with the previous letter and number − 1.
///
/// ```
/// use games::ankor::Cell;
/// let cell: Cell = "d3^2".parse().unwrap();
/// assert_eq!(cell.to_string(), "d3''");
/// assert_eq!((cell.letter(), cell.number(), cell.level()), (3, 3, 2));
/// assert!("d3'''".parse::<Cell>().is_err()); // d3 carries at most two levels
/// assert!("c4".parse::<Cell>().is_err()); // letter c has holes 1 to 3
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Cell {
    letter: u8,
    number: u8,
    level: u8,
}

/// Why a cell label does not read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct CellError(pub String);

impl Cell {
    /// The cell with this letter index (0 = `a`), number (from 1) and level (0 = a hole), if
    /// such a label exists on the largest board.
    pub fn new(letter: u8, number: u8, level: u8) -> Result<Cell, CellError> {
        if letter >= MAX_SIZE {
            return Err(CellError(format!(
                "letter {:?} is past h, the last letter of the largest board",
                (b'a' + letter.min(25)) as char
            )));
        }
        let name = (b'a' + letter) as char;
        if number == 0 || number > letter + 1 {
            return Err(CellError(format!(
                "{name}{number} is not a hole: letter {name} has holes {name}1 to {name}{}",
                letter + 1
            )));
        }
        if level + 1 > number {
            return Err(CellError(format!(
                "{name}{number} carries at most {} level{} above the board, not {level}",
                number - 1,
                if number == 2 { "" } else { "s" }
            )));
        }
        Ok(Cell {
            letter,
            number,
            level,
        })
    }

    /// The letter index, 0 for `a`.
    pub const fn letter(self) -> u8 {
        self.letter
    }

    /// The number, from 1.
    pub const fn number(self) -> u8 {
        self.number
    }

    /// The level, 0 for a hole of the board.
    pub const fn level(self) -> u8 {
        self.level
    }

    /// Reads one label at the start of `text`, returning the rest.
    pub(crate) fn read_prefix(text: &str) -> Result<(Cell, &str), CellError> {
        let bytes = text.as_bytes();
        let letter = match bytes.first() {
            Some(b) if b.is_ascii_alphabetic() => b.to_ascii_lowercase() - b'a',
            _ => {
                return Err(CellError(format!(
                    "{text:?} does not start with a cell's letter (a to h)"
                )))
            }
        };
        let number = match bytes.get(1) {
            Some(b) if b.is_ascii_digit() => b - b'0',
            _ => {
                return Err(CellError(format!(
                    "{text:?}: a cell is a letter and a number (d3)"
                )))
            }
        };
        if bytes.get(2).is_some_and(u8::is_ascii_digit) {
            return Err(CellError(format!(
                "{text:?}: numbers run from 1 to 8 on the largest board"
            )));
        }
        let mut rest = &text[2..];
        let mut level = 0u8;
        if let Some(after) = rest.strip_prefix('^') {
            let digits = after.bytes().take_while(u8::is_ascii_digit).count();
            if digits == 0 || digits > 1 {
                return Err(CellError(format!(
                    "{text:?}: '^' takes the level, one digit (d3^2)"
                )));
            }
            level = after.as_bytes()[0] - b'0';
            rest = &after[1..];
        } else {
            while let Some(after) = rest.strip_prefix('\'') {
                level += 1;
                rest = after;
                if level > MAX_SIZE {
                    break;
                }
            }
        }
        Ok((Cell::new(letter, number, level)?, rest))
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.letter) as char, self.number)?;
        for _ in 0..self.level {
            f.write_str("'")?;
        }
        Ok(())
    }
}

impl FromStr for Cell {
    type Err = CellError;

    /// Reads `d3`, `d3''` or `d3^2` (letters in either case, spaces around ignored).
    fn from_str(s: &str) -> Result<Cell, CellError> {
        let text = s.trim();
        let (cell, rest) = Cell::read_prefix(text)?;
        if !rest.is_empty() {
            return Err(CellError(format!(
                "{text:?}: unexpected {rest:?} after the cell {cell}"
            )));
        }
        Ok(cell)
    }
}
