//! Hexxagon: Ataxx on a hexagon of hexagonal cells (`variants.md` section 1).
//!
//! The board has n = 3 to 5 cells a side (default 5: 61 cells) in axial coordinates, labelled
//! `a1`…`i9`; each cell has six neighbours and twelve cells at distance 2. Moves, flips,
//! passes, counters, game over and the result are the square game's. Pieces are `u64` bit sets
//! over the cells, with each cell's neighbour and jump rings precomputed per board size.
//!
//! ```
//! use games::hexxagon::{perft, Position};
//! let mut pos = Position::startpos();
//! assert_eq!(pos.to_string(), "x3o/6/7/8/o7x/8/7/6/x3o x 0 1");
//! assert_eq!(perft(&pos, 2), 570);
//! let mv = pos.parse_move("a1c2").unwrap();
//! pos.play(mv).unwrap();
//! assert_eq!(pos.to_string(), "x3o/6/7/8/o7x/8/7/2x3/4o o 1 1");
//! ```

mod diagram;
mod fen;
mod geometry;
mod moves;
mod perft;
mod position;
mod seam;
mod svg;

pub use ataxx::MoveTextError;
pub use fen::{BoardFieldError, FenError};
pub use geometry::{Cell, Geometry, ParseCellError, MAX_CELLS, MAX_SIZE, MIN_SIZE};
pub use moves::{Move, ParseMoveError};
pub use perft::perft;
pub use position::{CellState, IllegalMoveError, MoveError, Position};
