//! Plain data the rooms share: boards and their seats, moves, chat, statuses, users and
//! ratings. No queries and no rules live here: the store reads and writes these types, the
//! domain changes them, and the doors render them.

mod chat;
mod game;
mod moves;
mod rating;
mod status;
mod user;

pub use chat::ChatRow;
pub use game::{GameFilter, GameRow, SeatRow};
pub use moves::{MoveRow, QueuedMove};
pub use rating::{RatingPoint, RatingRow};
pub use status::{Status, UnknownStatus};
pub use user::UserRow;
