//! The parts of a FEN that every game drawn in rows shares (square Ataxx, Hexxagon,
//! four-player Ataxx): the four fields, rows read and written with digits for runs of empty
//! cells, the square grid of ranks, and the two move counters that end the text. Each game
//! supplies its letters and words its own errors.
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

use std::ops::RangeInclusive;

use thiserror::Error;

use crate::{Bitboard, Square};

/// The fields of a FEN, `board [side [halfmove [fullmove]]]`, split at white space.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fields<'a> {
    pub board: &'a str,
    pub side: Option<&'a str>,
    pub halfmove: Option<&'a str>,
    pub fullmove: Option<&'a str>,
}

/// Text that has no board field, or more than four fields.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum FieldsError {
    /// No field at all; `example` is a board of the game, for the message.
    #[error("empty FEN: expected a board such as {example}")]
    Empty { example: &'static str },
    #[error(
        "FEN has {found} fields; expected at most 4 (board, side, halfmove clock, fullmove number)"
    )]
    TooMany { found: usize },
}

impl<'a> Fields<'a> {
    /// Splits a FEN into its fields, `None` for the keyword `startpos` (`example`, a board of
    /// the game, is for the message when there are none). The side and counters are read
    /// after the board, by the game, so that a bad board is reported first.
    pub fn split(text: &'a str, example: &'static str) -> Result<Option<Fields<'a>>, FieldsError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        match fields.as_slice() {
            [] => Err(FieldsError::Empty { example }),
            ["startpos"] => Ok(None),
            f if f.len() > 4 => Err(FieldsError::TooMany { found: f.len() }),
            f => Ok(Some(Fields {
                board: f[0],
                side: f.get(1).copied(),
                halfmove: f.get(2).copied(),
                fullmove: f.get(3).copied(),
            })),
        }
    }

    /// The side field, one letter (either case) that `from_letter` reads, or `default` where
    /// the field is missing; an error gives the field back.
    pub fn side<C>(
        &self,
        default: C,
        from_letter: impl Fn(char) -> Option<C>,
    ) -> Result<C, String> {
        let Some(field) = self.side else {
            return Ok(default);
        };
        let mut chars = field.chars();
        match (chars.next().and_then(from_letter), chars.next()) {
            (Some(side), None) => Ok(side),
            _ => Err(field.to_string()),
        }
    }

    /// The move counters ([`Counters::read`]).
    pub fn counters(&self) -> Result<Counters, CounterError> {
        Counters::read(self.halfmove, self.fullmove)
    }
}

/// A character of a board row that is neither a cell letter nor a digit in range.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BadLetter {
    /// Its place in the row's text, from 1.
    pub position: usize,
    pub found: char,
}

/// Reads one row of a board field: a digit up to `longest_run` skips that many empty cells, any
/// other character goes to `place` with the index of its cell, which says whether it is a cell
/// letter. Returns how many cells the row covers (indices past the row's end are passed on too,
/// for the caller to ignore, so that a long row is reported by its width).
pub fn read_row(
    text: &str,
    longest_run: u8,
    mut place: impl FnMut(usize, char) -> bool,
) -> Result<usize, BadLetter> {
    let mut at = 0usize;
    for (index, c) in text.chars().enumerate() {
        match c.to_digit(10) {
            Some(run @ 1..=9) if run <= u32::from(longest_run) => at += run as usize,
            _ if place(at, c) => at += 1,
            _ => {
                return Err(BadLetter {
                    position: index + 1,
                    found: c,
                })
            }
        }
    }
    Ok(at)
}

/// A rank (numbered from 1 at the bottom) covering the wrong number of files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[error("board field: rank {rank} covers {found} files; expected {expected} (the board has {expected} ranks, and an n×n board needs n files per rank)")]
pub struct RankWidthError {
    pub rank: u8,
    pub found: usize,
    pub expected: u8,
}

/// What was wrong with the board field of a square grid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GridError {
    /// Not a rank count the game allows.
    RankCount {
        found: usize,
    },
    RankWidth(RankWidthError),
    /// A character that is neither a letter of the game nor a digit up to the board's size.
    BadCell {
        rank: u8,
        letter: BadLetter,
        size: u8,
    },
}

/// The sets an n×n board field fills: one per piece letter, and the blocked cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Grid<const N: usize> {
    pub size: u8,
    pub pieces: [Bitboard; N],
    pub blocked: Bitboard,
}

/// Reads the board field of an n×n grid, ranks from the top separated by `/`, `n` in `sizes`:
/// `-` is a blocked cell, a letter `piece` maps to an index below `N` a piece of that set.
pub fn read_grid<const N: usize>(
    board: &str,
    sizes: RangeInclusive<u8>,
    piece: impl Fn(char) -> Option<usize>,
) -> Result<Grid<N>, GridError> {
    let ranks: Vec<&str> = board.split('/').collect();
    let size = match u8::try_from(ranks.len()) {
        Ok(size) if sizes.contains(&size) => size,
        _ => return Err(GridError::RankCount { found: ranks.len() }),
    };
    let mut grid = Grid {
        size,
        pieces: [Bitboard::EMPTY; N],
        blocked: Bitboard::EMPTY,
    };
    for (row, text) in ranks.iter().enumerate() {
        let rank = size - 1 - row as u8;
        let found = read_row(text, size, |file, c| {
            let set = match (c, piece(c)) {
                ('-', _) => &mut grid.blocked,
                (_, Some(index)) if index < N => &mut grid.pieces[index],
                _ => return false,
            };
            // Past the rank's end nothing is stored; the width check below reports the rank.
            if file < size as usize {
                *set |= Bitboard::from_square(Square::new(file as u8, rank).expect("on the grid"));
            }
            true
        })
        .map_err(|letter| GridError::BadCell {
            rank: rank + 1,
            letter,
            size,
        })?;
        if found != size as usize {
            return Err(GridError::RankWidth(RankWidthError {
                rank: rank + 1,
                found,
                expected: size,
            }));
        }
    }
    Ok(grid)
}

/// Writes a board field: each row as [`write_row`] does, `/` between rows.
pub fn write_rows<R: IntoIterator<Item = Option<char>>>(
    rows: impl IntoIterator<Item = R>,
) -> String {
    let mut out = String::with_capacity(80);
    for (i, row) in rows.into_iter().enumerate() {
        if i > 0 {
            out.push('/');
        }
        write_row(&mut out, row);
    }
    out
}

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
