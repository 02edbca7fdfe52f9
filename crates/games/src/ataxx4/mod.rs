//! Four-player Ataxx (spec `variants.md` section 2).
//!
//! Red, blue, green and yellow start in the corners of an n×n board (n = 5…8, usually 7:
//! red top-left, then clockwise) and move in that order. Moves are square Ataxx's: a single
//! grows into an empty neighbour, a jump moves a piece exactly two cells; either flips every
//! piece of **every other colour** next to the destination. A colour with no pieces is out and
//! skipped; a colour with pieces and no move passes. The game ends when at most one colour has
//! pieces, when no colour with pieces can move, or at the 100-ply clock; colours rank by piece
//! count, equal counts sharing a rank.
//!
//! ```
//! use games::ataxx4::{perft, Color, Position};
//! let mut pos: Position = "r5b/7/7/7/7/7/y5g r 0 1".parse().unwrap();
//! assert_eq!(perft(&pos, 5), 69952);
//! for mv in ["b6", "f6", "f2", "b2"] {
//!     pos.play(mv.parse().unwrap()).unwrap();
//! }
//! // A round is over: the fullmove number went up when the turn went from yellow to red.
//! assert_eq!(pos.to_string(), "r5b/1r3b1/7/7/7/1y3g1/y5g r 0 2");
//! assert_eq!(pos.turn(), Color::Red);
//! ```
//!
//! Moves, squares, bitboards and blocked layouts are the `ataxx` crate's.

mod color;
mod diagram;
mod encoding;
mod fen;
mod perft;
mod position;
mod rules;
mod svg;

pub use color::{Color, ParseColorError};
pub use encoding::{DecodeError, EncodeError, PackedBoard, PACKED_BYTES};
pub use fen::{BoardFieldError, FenError};
pub use perft::perft;
pub use position::{
    start_corners, Cell, Illegal, IllegalMoveError, MoveError, Position, StartError, DEFAULT_SIZE,
    HALFMOVE_LIMIT, MAX_SIZE, MIN_SIZE,
};
