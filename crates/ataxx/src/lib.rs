//! Ataxx rules for engines, servers and tools.
//!
//! A [`Position`] holds pieces, blocked cells, side to move and counters; it lists legal
//! [`Move`]s, plays them, and knows when the game is over and who won, exactly as libataxx does.
//! Positions read and write FEN, moves read and write the strict and tolerant move text of
//! the project's spec.
//!
//! ```
//! use ataxx::{perft, Position};
//! let pos: Position = "x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1".parse().unwrap();
//! assert_eq!(pos.legal_moves().len(), 14);
//! assert_eq!(perft(&pos, 3), 4184);
//! ```
//!
//! Boards from 3×3 to 8×8 share one bitboard layout (bit `8·rank + file`); the standard game is
//! 7×7. A board shape that is not a square grid (Hexxagon) needs its own neighbour tables and
//! plugs in beside [`Bitboard`]'s shift routines.

mod bitboard;
mod blocks;
mod color;
mod counters;
mod diagram;
mod encoding;
mod fen;
pub mod fen_parts;
mod game;
mod grid;
pub mod hex;
pub mod move_text;
mod moves;
mod perft;
pub mod pgn;
mod position;
pub mod record;
mod square;
mod zobrist;

pub use bitboard::Bitboard;
pub use blocks::{Layout, LayoutFromBoardError, MaskError, ParseCodeError};
pub use color::Color;
pub use counters::{CounterError, Counters, HALFMOVE_LIMIT};
pub use diagram::{grid_diagram, DiagramStyle};
pub use encoding::{
    DecodeError, EncodeError, PackedBoard, PositionMessage, BOARD_BYTES, MESSAGE_BYTES,
};
pub use fen::{BoardFieldError, FenError};
pub use game::{Adjudication, Game, GameMove, GameResult, Termination, ROSTER};
pub use grid::Grid;
pub use move_text::MoveTextError;
pub use moves::{count_with_pass, push_moves, Move, MoveList, ParseMoveError, MAX_MOVES};
pub use perft::{divide, perft, perft_bulk, MoveTree};
pub use position::{Outcome, Position};
pub use square::{ParseSquareError, Square, MAX_SIZE};

/// A move that the position does not allow.
pub type IllegalMoveError = move_text::IllegalMoveError<Square>;

/// Move text that could not be read, or names a move the position does not allow.
pub type MoveError = move_text::MoveError<Square>;
