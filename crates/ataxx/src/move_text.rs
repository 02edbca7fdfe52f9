//! Ataxx's three kinds of move over any cells (square Ataxx's squares, Hexxagon's hexagons),
//! and their text: a single as its destination, a jump as from+to, a pass as `0000`, read
//! strictly or tolerantly (spec section 2). Each game names its cells, their distance and the
//! words its errors use; the moves, readers, writer and errors here are the same for all.
//!
//! ```
//! use ataxx::move_text::MoveTextError;
//! use ataxx::Move;
//! assert_eq!("c3b5".parse::<Move>().unwrap().to_string(), "c3b5");
//! assert_eq!("b2b3".parse::<Move>().unwrap_err().reason, MoveTextError::NotStrict);
//! assert_eq!(Move::parse_tolerant("B2-B3").unwrap().to_string(), "b3");
//! ```

use std::fmt;
use std::marker::PhantomData;
use std::str::FromStr;

use thiserror::Error;

/// A board cell that moves name with two ASCII bytes (`d4`), read by its `FromStr` from
/// exactly its two lower-case bytes and written by its `Display`.
pub trait Cell: Copy + fmt::Display + FromStr {
    /// How the game's errors speak of its cells.
    const WORDS: CellWords;
    /// Steps between two cells: 1 for a single move, 2 for a jump.
    fn distance(self, other: Self) -> u8;
}

/// Reads a cell from its two bytes.
fn read_cell<C: Cell>(ascii: &[u8]) -> Result<C, MoveTextError> {
    std::str::from_utf8(ascii)
        .ok()
        .and_then(|name| name.parse().ok())
        .ok_or(MoveTextError::Cell)
}

/// How move-text errors speak of a game's cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CellWords {
    /// One cell (`square`).
    pub noun: &'static str,
    /// Several (`squares`).
    pub plural: &'static str,
    /// A single move's text (`d4`).
    pub single: &'static str,
    /// A jump's text (`c3b5`).
    pub jump: &'static str,
    /// What a cell's name must be.
    pub naming: &'static str,
}

/// One ply.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Move<C> {
    /// A new piece on an empty cell next to one of the mover's pieces.
    Single(C),
    /// A piece moves to an empty cell at distance exactly 2.
    Jump { from: C, to: C },
    /// The side to move has no other move.
    Pass,
}

impl<C: Cell> Move<C> {
    /// The cell the move fills, if any.
    pub const fn to(self) -> Option<C> {
        match self {
            Move::Single(to) | Move::Jump { to, .. } => Some(to),
            Move::Pass => None,
        }
    }

    /// The cell a jump empties.
    pub const fn from(self) -> Option<C> {
        match self {
            Move::Jump { from, .. } => Some(from),
            _ => None,
        }
    }

    /// Whether the move is a jump.
    pub const fn is_jump(self) -> bool {
        matches!(self, Move::Jump { .. })
    }

    /// Reads move text as users, foreign engines and old records write it (spec section 2):
    /// any case and surrounding space, `pass`/`null`/`--`/`0000` and same-cell pairs for a
    /// pass, from+to at distance 1 for a single, one `-` or `^` between cells, and `x@`/`p@`
    /// drop prefixes.
    pub fn parse_tolerant(text: &str) -> Result<Move<C>, ParseMoveError<C>> {
        read_tolerant(text).map_err(|reason| ParseMoveError::new(text, reason))
    }
}

impl<C: Cell> FromStr for Move<C> {
    type Err = ParseMoveError<C>;

    /// The strict reader of libataxx and python-ataxx: `d4`, `c3b5` or `0000`, lower case.
    fn from_str(s: &str) -> Result<Move<C>, ParseMoveError<C>> {
        read_strict(s).map_err(|reason| ParseMoveError::new(s, reason))
    }
}

impl<C: Cell> fmt::Display for Move<C> {
    /// The strict form: `d4`, `c3b5`, `0000`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Single(to) => write!(f, "{to}"),
            Move::Jump { from, to } => write!(f, "{from}{to}"),
            Move::Pass => f.write_str("0000"),
        }
    }
}

/// What was wrong with a move's text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MoveTextError {
    /// Neither one cell, two cells nor a pass.
    Shape,
    /// A cell name that is not a cell of the board.
    Cell,
    /// Two cells more than 2 apart.
    TooFar,
    /// Readable, but not in the strict notation.
    NotStrict,
}

impl MoveTextError {
    /// The fault in the words of a game whose cells speak as `words` say.
    pub fn explain(self, words: &CellWords) -> String {
        let CellWords {
            noun,
            plural,
            single,
            jump,
            naming,
        } = words;
        match self {
            MoveTextError::Shape => {
                format!("expected a {noun} ({single}), two {plural} ({jump}) or a pass (0000)")
            }
            MoveTextError::Cell => naming.to_string(),
            MoveTextError::TooFar => format!("the two {plural} are more than 2 apart"),
            MoveTextError::NotStrict => format!(
                "strict notation writes a single as its destination ({single}), a jump as from+to at distance 2 ({jump}) and a pass as 0000"
            ),
        }
    }
}

/// Text that is not a move of a game with cells `C`.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("invalid move {text:?}: {}", self.explanation())]
pub struct ParseMoveError<C: Cell> {
    pub text: String,
    pub reason: MoveTextError,
    cell: PhantomData<C>,
}

impl<C: Cell> ParseMoveError<C> {
    fn new(text: &str, reason: MoveTextError) -> ParseMoveError<C> {
        ParseMoveError {
            text: text.to_string(),
            reason,
            cell: PhantomData,
        }
    }

    /// What was wrong, in the words of the game, without the text.
    pub fn explanation(&self) -> String {
        self.reason.explain(&C::WORDS)
    }
}

/// A move that the position does not allow.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("illegal move {mv} in {fen}: {reason}")]
pub struct IllegalMoveError<C: Cell> {
    pub mv: Move<C>,
    pub fen: String,
    pub reason: &'static str,
}

impl<C: Cell> IllegalMoveError<C> {
    /// `mv` back where the rules allow it (`verdict` is `Ok`), else the error that names the
    /// position by its FEN (`position`'s `Display`) and gives the rules' reason.
    ///
    /// ```
    /// use ataxx::{IllegalMoveError, Position};
    /// let pos = Position::startpos();
    /// let mv = "d4".parse().unwrap();
    /// let err = IllegalMoveError::check(mv, &pos, Err("no own piece is next to the destination"));
    /// assert_eq!(
    ///     err.unwrap_err().to_string(),
    ///     "illegal move d4 in x5o/7/7/7/7/7/o5x x 0 1: no own piece is next to the destination"
    /// );
    /// assert_eq!(IllegalMoveError::check(mv, &pos, Ok(())), Ok(mv));
    /// ```
    pub fn check(
        mv: Move<C>,
        position: &impl fmt::Display,
        verdict: Result<(), &'static str>,
    ) -> Result<Move<C>, IllegalMoveError<C>> {
        verdict.map(|()| mv).map_err(|reason| IllegalMoveError {
            mv,
            fen: position.to_string(),
            reason,
        })
    }
}

/// Move text that could not be read, or names a move the position does not allow.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MoveError<C: Cell> {
    #[error(transparent)]
    Parse(#[from] ParseMoveError<C>),
    #[error(transparent)]
    Illegal(#[from] IllegalMoveError<C>),
}

/// The strict reader of libataxx and python-ataxx: `d4`, `c3b5` or `0000`, lower case.
fn read_strict<C: Cell>(text: &str) -> Result<Move<C>, MoveTextError> {
    let b = text.as_bytes();
    match b.len() {
        _ if text == "0000" => Ok(Move::Pass),
        2 => read_cell(b).map(Move::Single),
        4 => {
            let (from, to) = (read_cell(&b[..2])?, read_cell(&b[2..])?);
            match C::distance(from, to) {
                2 => Ok(Move::Jump { from, to }),
                0 | 1 => Err(MoveTextError::NotStrict),
                _ => Err(MoveTextError::TooFar),
            }
        }
        _ => Err(MoveTextError::Shape),
    }
}

/// Reads move text as users, foreign engines and old records write it: any case and surrounding
/// space, `pass`/`null`/`--`/`0000` and same-cell pairs for a pass, from+to at distance 1 for a
/// single, one `-` or `^` between cells, and `x@`/`p@` drop prefixes.
fn read_tolerant<C: Cell>(text: &str) -> Result<Move<C>, MoveTextError> {
    let lower = text.trim().to_ascii_lowercase();
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
        _ => return Err(MoveTextError::Shape),
    };
    let first = read_cell(first)?;
    let Some(second) = second else {
        return Ok(Move::Single(first));
    };
    let second: C = read_cell(second)?;
    match C::distance(first, second) {
        0 => Ok(Move::Pass),
        1 => Ok(Move::Single(second)),
        2 => Ok(Move::Jump {
            from: first,
            to: second,
        }),
        _ => Err(MoveTextError::TooFar),
    }
}
