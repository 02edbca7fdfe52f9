//! Plain data the rooms share: boards and their seats, moves, chat, statuses, users and
//! ratings, the views and events the doors send. No queries and no rules live here: the store reads and writes these types, the
//! domain changes them, and the doors render them.

mod analysis;
mod api_token;
mod chat;
mod event;
mod game;
mod mail;
mod moderation;
mod moves;
mod rating;
mod status;
mod tournament;
mod user;
mod view;

pub use analysis::{
    AnalysedPosition, AnalysisJob, AnalysisReport, JobStatus, LiveLine, LiveLines, MoveClass,
    PlayerAnalysis, PlyAnalysis, Progress, StoredScore, FORCED_END,
};
pub use api_token::{ApiTokenRow, Scope};
pub use chat::{ChatRow, PLAYERS, SPECTATORS};
pub use event::{Event, EventKind};
pub use game::{GameFilter, GameRow, GameSearch, Outcome, SeatRow};
pub use mail::{BoardCursor, InboxRow, OutboxRow};
pub use moderation::{AdminAct, ReportRow};
pub use moves::{MoveRow, QueuedMove};
pub use rating::{RatingPoint, RatingRow};
pub use status::Status;
pub use tournament::{EntryRow, PairingRow, TournamentKind, TournamentRow, TournamentStatus};
pub use user::{Revocation, UserRow};
pub use view::{Accepted, Correspondence, GameSummary, GameView, LiveClock, Proposal, SeatSummary};
