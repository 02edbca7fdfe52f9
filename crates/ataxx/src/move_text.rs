//! The move text every game of Ataxx moves shares, whatever its cells (square Ataxx, Hexxagon):
//! a single as its destination, a jump as from+to, a pass as `0000`, read strictly or
//! tolerantly (spec section 2). Each game names its cells and distance; the readers here give
//! its move or what was wrong, which the game words in its own terms.
//!
//! ```
//! use ataxx::move_text::{self, TextFault};
//! use ataxx::Move;
//! assert_eq!(move_text::read_strict::<Move>("c3b5"), Ok("c3b5".parse().unwrap()));
//! assert_eq!(move_text::read_strict::<Move>("b2b3"), Err(TextFault::NotStrict));
//! assert_eq!(move_text::read_tolerant::<Move>("B2-B3").unwrap().to_string(), "b3");
//! ```

/// A move made of Ataxx's three kinds, on cells named by two ASCII bytes.
pub trait CellMove: Sized {
    /// A board cell.
    type Cell: Copy;
    /// The pass.
    const PASS: Self;
    /// Reads a cell from exactly its two lower-case bytes (`d4`).
    fn read_cell(ascii: &[u8]) -> Option<Self::Cell>;
    /// Steps between two cells: 1 for a single move, 2 for a jump.
    fn distance(from: Self::Cell, to: Self::Cell) -> u8;
    /// A new piece on `to`.
    fn single(to: Self::Cell) -> Self;
    /// A piece moving from `from` to `to`.
    fn jump(from: Self::Cell, to: Self::Cell) -> Self;
}

/// What was wrong with move text, before a game words it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextFault {
    /// Neither one cell, two cells nor a pass.
    Shape,
    /// A cell name that is not a cell of the board.
    Cell,
    /// Two cells more than 2 apart.
    TooFar,
    /// Readable, but not in the strict notation.
    NotStrict,
}

/// The strict reader of libataxx and python-ataxx: `d4`, `c3b5` or `0000`, lower case.
pub fn read_strict<M: CellMove>(text: &str) -> Result<M, TextFault> {
    let b = text.as_bytes();
    let cell = |ascii| M::read_cell(ascii).ok_or(TextFault::Cell);
    match b.len() {
        _ if text == "0000" => Ok(M::PASS),
        2 => cell(b).map(M::single),
        4 => {
            let (from, to) = (cell(&b[..2])?, cell(&b[2..])?);
            match M::distance(from, to) {
                2 => Ok(M::jump(from, to)),
                0 | 1 => Err(TextFault::NotStrict),
                _ => Err(TextFault::TooFar),
            }
        }
        _ => Err(TextFault::Shape),
    }
}

/// Reads move text as users, foreign engines and old records write it: any case and surrounding
/// space, `pass`/`null`/`--`/`0000` and same-cell pairs for a pass, from+to at distance 1 for a
/// single, one `-` or `^` between cells, and `x@`/`p@` drop prefixes.
pub fn read_tolerant<M: CellMove>(text: &str) -> Result<M, TextFault> {
    let lower = text.trim().to_ascii_lowercase();
    if matches!(lower.as_str(), "0000" | "pass" | "null" | "--") {
        return Ok(M::PASS);
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
        _ => return Err(TextFault::Shape),
    };
    let first = M::read_cell(first).ok_or(TextFault::Cell)?;
    let Some(second) = second else {
        return Ok(M::single(first));
    };
    let second = M::read_cell(second).ok_or(TextFault::Cell)?;
    match M::distance(first, second) {
        0 => Ok(M::PASS),
        1 => Ok(M::single(second)),
        2 => Ok(M::jump(first, second)),
        _ => Err(TextFault::TooFar),
    }
}
