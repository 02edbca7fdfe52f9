//! The two sides.

use std::fmt;
use std::ops::Not;

/// A side: `X` moves first (libataxx's "black", starting on a7 and g1), `O` second.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Color {
    X,
    O,
}

impl Color {
    /// Both sides, first player first.
    pub const ALL: [Color; 2] = [Color::X, Color::O];

    /// `'x'` or `'o'`, as in FEN.
    pub const fn char(self) -> char {
        match self {
            Color::X => 'x',
            Color::O => 'o',
        }
    }

    /// The side named by a FEN letter (either case).
    pub const fn from_char(c: char) -> Option<Color> {
        match c {
            'x' | 'X' => Some(Color::X),
            'o' | 'O' => Some(Color::O),
            _ => None,
        }
    }

    #[inline(always)]
    pub(crate) const fn index(self) -> usize {
        self as usize
    }
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
