//! A board: its game, its players' seats and where it stands.

use super::Status;

/// A game row: a challenge, a game in play or a finished game.
#[derive(Clone, Debug)]
pub struct GameRow {
    pub board: i64,
    /// The game's name ([`games::GameKind::name`]): how `start_fen`, `fen` and the moves read.
    pub game: String,
    /// The players in seat order (seat 0 moves first).
    pub seats: Vec<SeatRow>,
    /// The seats as the store holds them (empty for a board not stored yet): [`crate::store::update_game`]
    /// writes only those that differ, so a move writes its mover's clock and nothing else.
    pub stored_seats: Vec<SeatRow>,
    pub status: Status,
    pub layout: String,
    pub start_fen: String,
    pub fen: String,
    pub plies: i64,
    pub version: i64,
    pub result: String,
    pub termination: String,
    pub rated: bool,
    pub nag_days: i64,
    pub forfeit_days: i64,
    pub total_days: Option<i64>,
    pub clock_base_ms: Option<i64>,
    pub clock_increment_ms: Option<i64>,
    pub proposal: String,
    pub proposal_by: String,
    pub nagged_ply: i64,
    pub created_ms: i64,
    pub started_ms: Option<i64>,
    pub last_move_ms: Option<i64>,
    pub finished_ms: Option<i64>,
    /// Why a game begun rated ended unrated (a side never moved); empty otherwise.
    pub unrated_reason: String,
    /// How many moves are queued on the board ([`crate::store::queue_move`]), counted when it
    /// was read to be changed ([`crate::store::game_for_update`]), so that a move looks for a
    /// queued answer only when there is one; None when not counted.
    pub queued_moves: Option<i64>,
}

/// One player of a board.
#[derive(Clone, Debug, PartialEq)]
pub struct SeatRow {
    pub name: String,
    pub accepted: bool,
    /// A live game's clock.
    pub remaining_ms: Option<i64>,
    pub used_ms: i64,
    /// Once finished: 1 for the best, equal ranks shared.
    pub rank: Option<i64>,
    pub rating_change: Option<f64>,
}

/// Which games a listing wants.
#[derive(Clone, Debug, Default)]
pub struct GameFilter {
    /// Games where this user plays.
    pub player: Option<String>,
    /// Games in one of these states (`challenge`, `active`, `finished`, ...); empty = any.
    pub statuses: Vec<Status>,
    /// Games of this game (a [`games::GameKind::name`]); None = any.
    pub game: Option<String>,
    pub limit: i64,
}

/// A searched player's outcome in a finished game, as a seat's `outcome` tells it: a draw when
/// every seat ranks first, a win for another first rank, a loss for any other.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Win,
    Loss,
    Draw,
}

/// What the games search selects among finished games, and which page of them.
#[derive(Clone, Debug, Default)]
pub struct GameSearch {
    /// Games where this user plays.
    pub player: Option<String>,
    /// Games of this game (a [`games::GameKind::name`]).
    pub game: Option<String>,
    /// Some(true): games with a clock (live); Some(false): correspondence games.
    pub clocked: Option<bool>,
    /// The player's outcome; a draw needs no player (every seat first).
    pub outcome: Option<Outcome>,
    pub rated: Option<bool>,
    /// Finished at or after this time (ms since the epoch).
    pub from_ms: Option<i64>,
    /// Finished before this time.
    pub until_ms: Option<i64>,
    /// Games to skip (newest first) and the most to return.
    pub offset: i64,
    pub limit: i64,
}
