//! Moves and their text.

use arrayvec::ArrayVec;

use crate::move_text::{self, Cell, CellWords};
use crate::{Bitboard, Square};

/// One ply of square Ataxx.
///
/// ```
/// use ataxx::Move;
/// let jump: Move = "c3b5".parse().unwrap();
/// assert_eq!(jump.to_string(), "c3b5");
/// assert_eq!(Move::parse_tolerant("C3-B5").unwrap(), jump);
/// assert_eq!(Move::parse_tolerant("b2b3").unwrap().to_string(), "b3");
/// assert_eq!(Move::parse_tolerant("pass").unwrap(), Move::Pass);
/// ```
pub type Move = move_text::Move<Square>;

/// Text that is not a move of square Ataxx.
pub type ParseMoveError = move_text::ParseMoveError<Square>;

impl Cell for Square {
    const WORDS: CellWords = CellWords {
        noun: "square",
        plural: "squares",
        single: "d4",
        jump: "c3b5",
        naming: "a square must be a file letter a-h then a rank digit 1-8",
    };

    fn distance(self, other: Square) -> u8 {
        Square::distance(self, other)
    }
}

/// Room for every legal move of any position. Singles are at most the empty cells; jumps are at
/// most 16 per empty cell and 16 per piece, so at most 16·32 = 512 on 64 cells.
pub const MAX_MOVES: usize = 576;

/// Legal moves of a position, on the stack.
pub type MoveList = ArrayVec<Move, MAX_MOVES>;

/// Appends the moves of a side with pieces `us` into the `empty` cells of a square grid:
/// singles by destination, then jumps by origin, and a lone pass when there are none. The
/// caller checks first that the game is not over.
#[inline(always)]
pub fn push_moves(us: Bitboard, empty: Bitboard, moves: &mut MoveList) {
    let before = moves.len();
    for to in us.neighbours() & empty {
        moves.push(Move::Single(to));
    }
    for from in us {
        for to in Bitboard::jump_targets_of(from) & empty {
            moves.push(Move::Jump { from, to });
        }
    }
    if moves.len() == before {
        moves.push(Move::Pass);
    }
}

/// How many moves a side with pieces has when it has `moves` singles and jumps: those, or when
/// it has none a lone pass if the game goes on (`game_goes_on`: another side can still move),
/// else none, the game being over. Every Ataxx-like game's bulk count ends here.
///
/// ```
/// use ataxx::count_with_pass;
/// assert_eq!(count_with_pass(16, || unreachable!()), 16);
/// assert_eq!(count_with_pass(0, || true), 1);
/// assert_eq!(count_with_pass(0, || false), 0);
/// ```
#[inline(always)]
pub fn count_with_pass(moves: u32, game_goes_on: impl FnOnce() -> bool) -> u64 {
    match moves {
        0 if game_goes_on() => 1,
        n => u64::from(n),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strict_reader_rejects_what_libataxx_rejects() {
        for bad in [
            "b2b3", "a1a1", "c3-b5", "pass", "D4", "a1d4", "", "a", "a1b", "0000 ",
        ] {
            assert!(bad.parse::<Move>().is_err(), "{bad}");
        }
        for good in ["d4", "c3b5", "0000", "a1c3", "g7e5"] {
            assert_eq!(good.parse::<Move>().unwrap().to_string(), good);
        }
    }

    #[test]
    fn tolerant_reader_follows_the_spec_table() {
        let cases = [
            ("D4", "d4"),
            ("C3B5", "c3b5"),
            ("pass", "0000"),
            ("null", "0000"),
            ("a1a1", "0000"),
            ("b2b3", "b3"),
            ("c3-b5", "c3b5"),
            ("a1-b2", "b2"),
            ("a1^c3", "a1c3"),
            ("x@f2", "f2"),
            ("p@f2", "f2"),
            ("--", "0000"),
            ("  e5 ", "e5"),
        ];
        for (input, strict) in cases {
            assert_eq!(
                Move::parse_tolerant(input).unwrap().to_string(),
                strict,
                "{input}"
            );
        }
        for bad in ["a1d4", "i1", "a0", "c3--b5", "c3b", "", "pa ss"] {
            assert!(Move::parse_tolerant(bad).is_err(), "{bad}");
        }
    }
}
