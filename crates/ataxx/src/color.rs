//! The two sides.

use std::fmt;
use std::ops::Not;

use crate::fen_parts::{letter_index, Side};

/// A side: `X` moves first (libataxx's "black", starting on a7 and g1), `O` second.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Color {
    X,
    O,
}

impl Color {
    /// Both sides, first player first.
    pub const ALL: [Color; 2] = [Color::X, Color::O];

    /// The FEN letters of [`Color::ALL`].
    const LETTERS: [char; 2] = ['x', 'o'];

    /// `'x'` or `'o'`, as in FEN.
    pub const fn char(self) -> char {
        Color::LETTERS[self as usize]
    }

    /// The side named by a FEN letter (either case).
    pub const fn from_char(c: char) -> Option<Color> {
        match letter_index(&Color::LETTERS, c) {
            Some(index) => Some(Color::ALL[index]),
            None => None,
        }
    }

    #[inline(always)]
    pub(crate) const fn index(self) -> usize {
        self as usize
    }
}

impl Side for Color {
    const SIDES: &'static [Color] = &Color::ALL;
    const LETTERS: &'static [char] = &Color::LETTERS;
}

impl Not for Color {
    type Output = Color;
    #[inline(always)]
    fn not(self) -> Color {
        match self {
            Color::X => Color::O,
            Color::O => Color::X,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}
