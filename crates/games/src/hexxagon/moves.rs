//! Hexxagon moves and their text: the square game's moves and notation on hexagonal cells.

use ataxx::move_text::{self, CellWords};

use super::geometry::Cell;

/// One ply of Hexxagon.
///
/// ```
/// use games::hexxagon::Move;
/// let jump: Move = "a1c3".parse().unwrap();
/// assert_eq!(jump.to_string(), "a1c3");
/// assert_eq!(Move::parse_tolerant("A1-C3").unwrap(), jump);
/// assert_eq!(Move::parse_tolerant("a1b2").unwrap().to_string(), "b2"); // distance 1: a single
/// assert_eq!(Move::parse_tolerant("pass").unwrap(), Move::Pass);
/// ```
pub type Move = move_text::Move<Cell>;

/// Text that is not a Hexxagon move.
pub type ParseMoveError = move_text::ParseMoveError<Cell>;

impl move_text::Cell for Cell {
    const WORDS: CellWords = CellWords {
        noun: "cell",
        plural: "cells",
        single: "e5",
        jump: "a1c3",
        naming: "a cell is a letter a-i then a digit 1-9, inside the hexagon (letter and digit at most 4 apart, as e5, a1, i9)",
    };

    fn distance(self, other: Cell) -> u8 {
        Cell::distance(self, other)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strict_reader_accepts_only_canonical_text() {
        for good in ["e5", "a1c3", "0000", "a1a3", "i9g7", "e5g6"] {
            assert_eq!(good.parse::<Move>().unwrap().to_string(), good);
        }
        for bad in [
            "a1b2", "a1a1", "a1-c3", "pass", "E5", "a1d4", "", "a9", "a1c3 ",
        ] {
            assert!(bad.parse::<Move>().is_err(), "{bad}");
        }
    }

    #[test]
    fn tolerant_reader_follows_the_square_game_s_table() {
        let cases = [
            ("E5", "e5"),
            ("A1C3", "a1c3"),
            ("pass", "0000"),
            ("null", "0000"),
            ("--", "0000"),
            ("e5e5", "0000"),
            ("a1b2", "b2"),
            ("a1-b1", "b1"),
            ("a1^c3", "a1c3"),
            ("x@f2", "f2"),
            ("p@f2", "f2"),
            ("  e5 ", "e5"),
        ];
        for (input, strict) in cases {
            assert_eq!(
                Move::parse_tolerant(input).unwrap().to_string(),
                strict,
                "{input}"
            );
        }
        // b1 to a2 is 2 apart on the hexagon (dx = −1, dy = +1), unlike on a square board.
        assert!(Move::parse_tolerant("b1a2").unwrap() == "b1a2".parse().unwrap());
        for bad in [
            "a1d4", "j1", "a0", "a9", "c3--b5", "c3b", "", "pa ss", "e5é",
        ] {
            assert!(Move::parse_tolerant(bad).is_err(), "{bad}");
        }
        let err = Move::parse_tolerant("a1d1").unwrap_err().to_string();
        assert!(err.contains("more than 2 apart"), "{err}");
    }
}
