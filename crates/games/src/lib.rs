//! The games the system plays, behind one seam.
//!
//! Every game implements [`Rules`]: a position type that reads and writes its FEN, lists and
//! plays its moves, knows when it is over and how the seats rank, and draws itself as text and
//! SVG. Code that knows the game at compile time (perft, players, the engine) is generic over
//! [`Rules`]; code that learns it at run time (the server, the CLI) holds a
//! [`Box<dyn AnyPosition>`](AnyPosition) made by [`GameKind::parse_position`] or
//! [`GameKind::start`] and never branches on the game itself.
//!
//! ```
//! use games::GameKind;
//! let mut pos = GameKind::Ataxx.start(&Default::default()).unwrap();
//! assert_eq!(pos.legal_moves().len(), 16);
//! pos.play("g2").unwrap();
//! assert_eq!(pos.fen(), "x5o/7/7/7/7/6x/o5x o 0 1");
//! ```

pub mod ankor;
mod any;
pub mod ataxx4;
pub mod hexxagon;
mod kind;
mod outcome;
mod rules;
mod square;
mod two_sides;

pub use any::AnyPosition;
pub use kind::{GameKind, ParseGameKindError, StartOptions};
pub use outcome::{Outcome, Seat, MAX_SEATS};
pub use rules::{GameError, PlayedMove, Rules};
