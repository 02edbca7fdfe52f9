//! Ankor (Cameron Browne, 2008): a connection game of cubes stacked corner-down in a triangular
//! pyramid, the second game of seed 004. Rules, notation, position text and drawing follow the
//! project's spec (`ankor.md`); `docs/ankor.md` explains them for players.
//!
//! * [`Cell`]: a cell by its label, `d3`, `d3''` (also read as `d3^2`);
//! * [`Position`]: cubes, reserves, side to move, the win-height option, repetition history;
//!   its [`Display`](std::fmt::Display) and [`FromStr`](std::str::FromStr) are the position text
//!   `ankor <n> <H> <cells> <side> <reserves O> <reserves X> <ply>`;
//! * [`Move`]: `d3` (place), `d3-f4'` (move a cube), `swap`, `0000` (a forced pass);
//! * [`Position::diagram`] draws the spec's ASCII figure, [`Position::svg`] isometric cubes.
//!
//! Seats: seat 0 plays O and moves first, seat 1 plays X. `swap` (X's reply to the first
//! move) exchanges the players' colours, not the board: after it X is still to move, in the
//! position text too (`x`, ply 2), and the player who opened, now seated as X, makes ply 3
//! ([`Rules::swaps_seats`](crate::Rules::swaps_seats) is true for it).
//!
//! ```
//! use games::ankor::Position;
//! use games::Rules;
//! let mut pos = Position::new(6, 1).unwrap();
//! assert_eq!(pos.to_string(), "ankor 6 1 ...................../.............../........../....../.../. o 28 28 0");
//! assert_eq!(Rules::legal_moves(&pos).len(), 21);
//! let mv = pos.parse_move("d3").unwrap();
//! Rules::play(&mut pos, mv);
//! assert!(Rules::legal_moves(&pos).iter().any(|m| m.to_string() == "swap"));
//! ```

mod cell;
mod diagram;
mod distance;
mod moves;
mod position;
mod pyramid;
mod rules;
mod svg;
mod win;

pub use cell::{Cell, CellError, MAX_SIZE, MIN_SIZE};
pub use moves::Move;
pub use position::{Colour, Position};
pub use pyramid::tetrahedral;
