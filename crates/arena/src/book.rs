//! Opening books: plain text, one FEN per line, `#` starts a comment line (spec 7.4).
//!
//! ```
//! let text = "# two openings\nx5o/7/7/7/7/7/o3x2 o 1 1\n\nx5o/7/2-1-2/7/2-1-2/7/o5x x 0 1\n";
//! let book = arena::book::parse(text).unwrap();
//! assert_eq!(book.len(), 2);
//! assert_eq!(arena::book::parse(&arena::book::format(&book, "")).unwrap(), book);
//! ```

use std::fmt::Write;

use ataxx::{FenError, Position};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use thiserror::Error;

/// A book line that is not a playable opening.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BookError {
    #[error("line {line}: {source}")]
    Fen { line: usize, source: FenError },
    #[error("line {line}: the game is already over in {fen}")]
    GameOver { line: usize, fen: String },
    #[error("the book holds no positions")]
    Empty,
}

/// The positions of a book, in file order.
pub fn parse(text: &str) -> Result<Vec<Position>, BookError> {
    let mut positions = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let pos: Position = line.parse().map_err(|source| BookError::Fen {
            line: i + 1,
            source,
        })?;
        if pos.is_game_over() {
            return Err(BookError::GameOver {
                line: i + 1,
                fen: pos.to_string(),
            });
        }
        positions.push(pos);
    }
    if positions.is_empty() {
        return Err(BookError::Empty);
    }
    Ok(positions)
}

/// A book file: `comment` (each line prefixed `# `, none if empty), then one FEN per line.
pub fn format(positions: &[Position], comment: &str) -> String {
    let mut text = String::new();
    for line in comment.lines() {
        let _ = writeln!(text, "# {line}");
    }
    for pos in positions {
        let _ = writeln!(text, "{pos}");
    }
    text
}

/// Shuffles a book reproducibly: the same seed gives the same order.
pub fn shuffle(positions: &mut [Position], seed: u64) {
    positions.shuffle(&mut StdRng::seed_from_u64(seed));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_lines_are_named() {
        let err = parse("# c\nx5o/7/7/7/7/7/o5x x 0 1\nx5o/7/7 x\n").unwrap_err();
        assert!(matches!(err, BookError::Fen { line: 3, .. }), "{err}");
        let err = parse("x5o/7/7/7/7/7/o5x x 100 1").unwrap_err();
        assert!(matches!(err, BookError::GameOver { line: 1, .. }), "{err}");
        assert_eq!(parse("# only a comment\n\n"), Err(BookError::Empty));
    }

    #[test]
    fn shuffling_is_seeded() {
        let mut pos = Position::startpos();
        let mut book = vec![pos];
        for mv in pos.legal_moves().iter().take(9) {
            let mut next = pos;
            next.play_unchecked(*mv);
            book.push(next);
        }
        pos = book[0];
        let (mut a, mut b, mut c) = (book.clone(), book.clone(), book.clone());
        shuffle(&mut a, 7);
        shuffle(&mut b, 7);
        shuffle(&mut c, 8);
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert_ne!(a, book);
        assert!(a.contains(&pos));
    }
}
