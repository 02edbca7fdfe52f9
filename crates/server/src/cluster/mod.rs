//! Several server nodes on one PostgreSQL database (docs/scaling.md).
//!
//! The database is the source of truth; nodes keep nothing another node needs to know, except
//! two caches fed from it:
//! - **Events.** A change's events are sent with `NOTIFY` inside its transaction
//!   ([`crate::store::notices::send_event`]); PostgreSQL delivers them when it commits, in commit order, to every node
//!   that `LISTEN`s, the sender included ([`listen`]), and each node hands them to its own hub
//!   (WebSockets, bots). A board's row lock orders its commits, so a board's events arrive in
//!   version order on every node; a client that reconnects to another node resyncs by version
//!   as it does on one. An event too long for a notification (8000 bytes) travels through the
//!   `event_bodies` table and the notification names its row.
//! - **Subscriptions** (`ataxx subscribe`): loaded at start, then kept by notices.
//! - **The lobby** (seeks posted and withdrawn): notices sent after the change commits.
//!
//! Notifications sent while a node's `LISTEN` connection is down never reach it. A node notices
//! a dropped connection when the driver reports it, and a silent one (a database host restarted
//! without a word to its clients: nothing more arrives, and nothing says so) by a probe: a node
//! that has heard nothing for `listen::PROBE_WHEN_IDLE` sends itself a notice, and if it does
//! not come back within `listen::PROBE_WAIT` it listens on a new connection. The node keeps
//! the version and ply of every open board as it last pushed them (`Pushed`); once listening
//! again it reads the open boards (and those it knew open) and pushes, as events carrying each
//! board's current summary, whatever advanced meanwhile (`catch_up`); notifications of those
//! changes that still arrive afterwards are dropped as already pushed. Then every socket of the
//! node resyncs ([`crate::events::Hub::gap`]): a board's gets a snapshot, which also brings the
//! chat lines and proposals the events do not carry, and the lobby reloads its seeks.
//!
//! Singletons (bots, the deadline sweeper, later the mail sender) run on the leader only: the
//! node holding a PostgreSQL advisory lock on a connection of its own ([`crate::domain::leader::Leader`]). The lock
//! goes with that connection, so when the leader dies (even by SIGKILL: the kernel closes its
//! socket) PostgreSQL releases it and another node, retrying every [`ELECTION_RETRY`], takes
//! over. A database restart ends the lock with the connection: the leader stops leading within
//! [`ELECTION_RETRY`] (or `elect::ALIVE_WITHIN` if its connection went silent), and the nodes
//! campaign again once the database is back. On SQLite the one node always leads.

mod elect;
mod listen;

pub use elect::{elect, ELECTION_RETRY};
pub use listen::{listen, Node};
