//! The mail door's tables (migration 0005): the inbox, the outbox and the board cursors, and
//! the users' mail addresses and events. The SQL follows the same portable rules as the rest of
//! the store (`$n` parameters, BIGINT, no autoincrement: ids are the next number, taken under
//! the write lock). Called as `store::mail::insert_inbox(…)`.

mod cursors;
mod inbox;
mod outbox;
mod recipients;

pub use cursors::*;
pub use inbox::*;
pub use outbox::*;
pub use recipients::*;
