//! What happened on a board, as every listener receives it: the kind of change, the board's
//! version and ply, and its summary after the change, serialized once.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::{ChatRow, GameSummary, JobStatus, MoveRow};

/// What happened on a board.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum EventKind {
    /// A new board waiting for its players to accept.
    Challenge,
    /// Every player accepted: the game began.
    Started,
    /// The challenge was declined or withdrawn.
    Cancelled,
    /// Moves were recorded (a player's move and the automatic passes after it).
    Moves {
        moves: Vec<MoveRow>,
    },
    /// A draw or undo proposal was made, accepted or rejected (see the summary's `proposal`).
    Proposal,
    /// A draw or undo proposal was rejected: `proposal` is `draw` or `undo`, `by` who rejected
    /// it (the proposer hears it on the board's and their own stream).
    Rejected {
        proposal: String,
        by: String,
    },
    /// An accepted undo took moves back: the board now has `ply` moves.
    Undone,
    Chat {
        chat: ChatRow,
    },
    /// The game ended (see the summary's result and termination).
    Ended,
    /// The player to move was reminded (correspondence nag time passed).
    Nag {
        user: String,
    },
    /// The board's computer analysis was asked for or went on: `done` positions of `total`
    /// analysed (the board itself did not change: its version is the same).
    Analysis {
        status: JobStatus,
        done: i64,
        total: i64,
    },
}

/// One event, serialized once for every listener.
#[derive(Clone, Debug)]
pub struct Event {
    pub board: i64,
    pub version: i64,
    pub kind: EventKind,
    pub game: Arc<GameSummary>,
    /// The JSON text sent to clients: `{"type":..., "board":..., "version":..., "ply":...,
    /// "game":{...}, ...}`.
    pub json: Arc<str>,
}

#[derive(Serialize)]
struct Wire<'a> {
    board: i64,
    version: i64,
    ply: i64,
    #[serde(flatten)]
    kind: &'a EventKind,
    game: &'a GameSummary,
}

impl Event {
    pub fn new(kind: EventKind, game: GameSummary) -> Event {
        let json = serde_json::to_string(&Wire {
            board: game.board,
            version: game.version,
            ply: game.ply,
            kind: &kind,
            game: &game,
        })
        .expect("events serialize");
        Event {
            board: game.board,
            version: game.version,
            kind,
            game: Arc::new(game),
            json: json.into(),
        }
    }
}

/// An event's wire text read back (an event another node sent, see [`crate::cluster`]).
#[derive(Deserialize)]
struct Received {
    #[serde(flatten)]
    kind: EventKind,
    game: GameSummary,
}

impl Event {
    /// The event whose wire text (its `json`) is `json`.
    pub fn from_json(json: &str) -> serde_json::Result<Event> {
        let Received { kind, game } = serde_json::from_str(json)?;
        Ok(Event {
            board: game.board,
            version: game.version,
            kind,
            game: Arc::new(game),
            json: json.into(),
        })
    }
}
