//! The four colours and their turn order.

use std::fmt;
use std::str::FromStr;

use ataxx::fen_parts::{letter_index, Side};
use thiserror::Error;

/// A player's colour. The order of the variants is the turn order: red moves first, then blue,
/// green and yellow, clockwise from the top-left corner.
///
/// ```
/// use games::ataxx4::Color;
/// assert_eq!("g".parse::<Color>().unwrap(), Color::Green);
/// assert_eq!(Color::Yellow.next(), Color::Red);
/// assert_eq!(Color::Blue.to_string(), "b");
/// assert_eq!(Color::Blue.name(), "blue");
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Color {
    /// `r`, starts top-left (a7 on 7×7).
    Red,
    /// `b`, starts top-right.
    Blue,
    /// `g`, starts bottom-right.
    Green,
    /// `y`, starts bottom-left.
    Yellow,
}

impl Color {
    /// All four in turn order.
    pub const ALL: [Color; 4] = [Color::Red, Color::Blue, Color::Green, Color::Yellow];

    /// The FEN letters of [`Color::ALL`].
    const LETTERS: [char; 4] = ['r', 'b', 'g', 'y'];

    /// The FEN letter: `r`, `b`, `g` or `y`.
    pub const fn char(self) -> char {
        Color::LETTERS[self.index()]
    }

    /// The colour's name in words, for messages.
    pub const fn name(self) -> &'static str {
        match self {
            Color::Red => "red",
            Color::Blue => "blue",
            Color::Green => "green",
            Color::Yellow => "yellow",
        }
    }

    /// The colour a FEN letter names (either case).
    pub const fn from_char(c: char) -> Option<Color> {
        match letter_index(&Color::LETTERS, c) {
            Some(index) => Some(Color::from_index(index)),
            None => None,
        }
    }

    /// The seat number, 0 for red to 3 for yellow.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The colour of seat `index` (taken modulo 4).
    #[inline(always)]
    pub const fn from_index(index: usize) -> Color {
        Color::ALL[index % 4]
    }

    /// The colour after this one in the turn order, yellow wrapping to red.
    #[inline(always)]
    pub const fn next(self) -> Color {
        Color::from_index(self.index() + 1)
    }
}

impl Side for Color {
    const SIDES: &'static [Color] = &Color::ALL;
    const LETTERS: &'static [char] = &Color::LETTERS;
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

/// Text that is not one of the letters `r`, `b`, `g`, `y`.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("invalid colour {0:?}: expected r (red), b (blue), g (green) or y (yellow)")]
pub struct ParseColorError(pub String);

impl FromStr for Color {
    type Err = ParseColorError;

    fn from_str(s: &str) -> Result<Color, ParseColorError> {
        let mut chars = s.chars();
        match (chars.next().and_then(Color::from_char), chars.next()) {
            (Some(color), None) => Ok(color),
            _ => Err(ParseColorError(s.to_string())),
        }
    }
}
