//! The parts of a FEN that every game drawn in rows shares (square Ataxx, Hexxagon,
//! four-player Ataxx): the four fields, the side to move named by one letter, rows read and
//! written with digits for runs of empty cells, the square grid of ranks, and the two move
//! counters ([`Counters`]) that end the text. Each game supplies its board and letters and
//! words its own errors.
//!
//! ```
//! use ataxx::fen_parts::{write_row, Setup};
//! use ataxx::Color;
//! let mut row = String::new();
//! write_row(&mut row, [Some('x'), None, None, Some('-'), None]);
//! assert_eq!(row, "x2-1");
//! // Any board field will do here; a game reads its board and says what is wrong with it.
//! let board = |field: &str| Ok::<_, std::convert::Infallible>(field.to_string());
//! let read = |text: &str| Setup::<String, Color>::read(text, "x5o", board);
//! let setup = read("x5o/7 O 3").unwrap().unwrap();
//! assert_eq!((setup.board.as_str(), setup.turn, setup.counters.halfmove), ("x5o/7", Color::O, 3));
//! assert_eq!(setup.to_string(), "x5o/7 o 3 1");
//! assert_eq!(read("startpos").unwrap(), None);
//! assert_eq!(read("x5o w").unwrap_err().to_string(), "side field is \"w\"; expected x or o");
//! ```

use std::fmt;
use std::ops::RangeInclusive;

use thiserror::Error;

use crate::{Bitboard, CounterError, Counters, Grid, Square};

/// A side of a game that FEN names by one letter, read in either case.
pub trait Side: Copy + PartialEq + 'static {
    /// Every side in turn order; the first moves where a FEN has no side field.
    const SIDES: &'static [Self];
    /// The lower-case letter of each side of [`Side::SIDES`], in the same order.
    const LETTERS: &'static [char];

    /// The side's letter.
    fn letter(self) -> char {
        let index = Self::SIDES.iter().position(|side| *side == self);
        Self::LETTERS[index.expect("every side is in SIDES")]
    }

    /// The side a letter names (either case).
    fn from_letter(letter: char) -> Option<Self> {
        letter_index(Self::LETTERS, letter).map(|index| Self::SIDES[index])
    }
}

/// Where `letter` (either case) stands in `letters` (lower case): the reader behind each
/// game's `Color::from_char`, usable in `const` code.
///
/// ```
/// use ataxx::fen_parts::letter_index;
/// assert_eq!(letter_index(&['r', 'b', 'g', 'y'], 'G'), Some(2));
/// assert_eq!(letter_index(&['x', 'o'], 'r'), None);
/// ```
pub const fn letter_index(letters: &[char], letter: char) -> Option<usize> {
    let lower = letter.to_ascii_lowercase();
    let mut index = 0;
    while index < letters.len() {
        if letters[index] == lower {
            return Some(index);
        }
        index += 1;
    }
    None
}

/// A side field that is not one letter of a side.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("side field is {found:?}; expected {expected}")]
pub struct SideError {
    pub found: String,
    /// The game's letters, `x or o`.
    pub expected: String,
}

impl SideError {
    fn new<S: Side>(found: &str) -> SideError {
        let letters: Vec<String> = S::LETTERS.iter().map(char::to_string).collect();
        let expected = match letters.split_last() {
            Some((last, [])) => last.clone(),
            Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
            None => String::new(),
        };
        SideError {
            found: found.to_string(),
            expected,
        }
    }
}

/// A FEN in its parts: the game's board, the side to move and the counters. [`Setup::read`]
/// reads one; `Display` writes the four fields, the board by its own `Display`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Setup<B, S> {
    pub board: B,
    pub turn: S,
    pub counters: Counters,
}

/// What was wrong with a FEN, and where: the fields every game shares, or the board field,
/// which the game's own error `B` describes.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum FenError<B> {
    /// No fields, or more than four.
    #[error(transparent)]
    Fields(#[from] FieldsError),
    #[error(transparent)]
    Board(B),
    #[error(transparent)]
    Side(#[from] SideError),
    #[error(transparent)]
    Counter(#[from] CounterError),
}

impl<B, S: Side> Setup<B, S> {
    /// Reads 1–4 FEN fields (a missing side is the first of [`Side::SIDES`], clock 0, move 1);
    /// `None` for the keyword `startpos`. The board field goes to `read_board` first, so that a
    /// bad board is reported before a bad side or counter; `example`, a board of the game, is
    /// for the message when there is no field at all.
    pub fn read<E>(
        text: &str,
        example: &'static str,
        read_board: impl FnOnce(&str) -> Result<B, E>,
    ) -> Result<Option<Self>, FenError<E>> {
        let Some(fields) = Fields::split(text, example)? else {
            return Ok(None);
        };
        let board = read_board(fields.board).map_err(FenError::Board)?;
        let turn = fields.side()?;
        let counters = fields.counters()?;
        Ok(Some(Setup {
            board,
            turn,
            counters,
        }))
    }
}

impl<B: fmt::Display, S: Side> fmt::Display for Setup<B, S> {
    /// The full four-field FEN.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} {} {}",
            self.board,
            self.turn.letter(),
            self.counters.halfmove,
            self.counters.fullmove
        )
    }
}

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

    /// The side field, one letter of a side (either case), or the first side where the field
    /// is missing.
    pub fn side<S: Side>(&self) -> Result<S, SideError> {
        let Some(field) = self.side else {
            return Ok(S::SIDES[0]);
        };
        let mut chars = field.chars();
        match (chars.next().and_then(S::from_letter), chars.next()) {
            (Some(side), None) => Ok(side),
            _ => Err(SideError::new::<S>(field)),
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

/// What an n×n board field holds: the grid with its blocked cells, and one set of pieces per
/// piece letter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GridBoard<const N: usize> {
    pub grid: Grid,
    pub pieces: [Bitboard; N],
}

/// Reads the board field of an n×n grid, ranks from the top separated by `/`, `n` in `sizes`:
/// `-` is a blocked cell, a letter `piece` maps to an index below `N` a piece of that set.
pub fn read_grid<const N: usize>(
    board: &str,
    sizes: RangeInclusive<u8>,
    piece: impl Fn(char) -> Option<usize>,
) -> Result<GridBoard<N>, GridError> {
    let ranks: Vec<&str> = board.split('/').collect();
    let size = match u8::try_from(ranks.len()) {
        Ok(size) if sizes.contains(&size) => size,
        _ => return Err(GridError::RankCount { found: ranks.len() }),
    };
    let mut pieces = [Bitboard::EMPTY; N];
    let mut blocked = Bitboard::EMPTY;
    for (row, text) in ranks.iter().enumerate() {
        let rank = size - 1 - row as u8;
        let found = read_row(text, size, |file, c| {
            let set = match (c, piece(c)) {
                ('-', _) => &mut blocked,
                (_, Some(index)) if index < N => &mut pieces[index],
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
    Ok(GridBoard {
        grid: Grid::new(size, blocked),
        pieces,
    })
}

/// Writes the board field of an n×n grid, ranks from the top: `letter` gives each square's
/// letter, `None` for an empty one.
///
/// ```
/// use ataxx::fen_parts::write_grid;
/// let corner = "a1".parse().unwrap();
/// assert_eq!(write_grid(3, |sq| (sq == corner).then_some('x')), "3/3/x2");
/// ```
pub fn write_grid(size: u8, letter: impl Fn(Square) -> Option<char>) -> String {
    let letter = &letter;
    write_rows((0..size).rev().map(|rank| {
        (0..size).map(move |file| letter(Square::new(file, rank).expect("on the grid")))
    }))
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
