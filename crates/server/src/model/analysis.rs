//! Computer analysis of a finished game: its job in the queue, the positions analysed so far,
//! and the report every door shows (per ply: the score, the engine's move and line, the class;
//! per player: the accuracy and the flagged moves counted).

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// Where an analysis job stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum JobStatus {
    /// Waiting for a worker of any node.
    Queued,
    /// A worker holds its lease.
    Running,
    Done,
}

impl JobStatus {
    /// The name the store and the API use.
    pub const fn as_str(self) -> &'static str {
        match self {
            JobStatus::Queued => "queued",
            JobStatus::Running => "running",
            JobStatus::Done => "done",
        }
    }
}

impl fmt::Display for JobStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for JobStatus {
    type Err = String;

    fn from_str(text: &str) -> Result<JobStatus, String> {
        [JobStatus::Queued, JobStatus::Running, JobStatus::Done]
            .into_iter()
            .find(|status| status.as_str() == text)
            .ok_or_else(|| format!("unknown analysis status {text:?}"))
    }
}

/// A board's analysis job.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnalysisJob {
    pub board: i64,
    pub requested_by: String,
    pub requested_ms: i64,
    pub status: JobStatus,
    /// The positions to analyse: the game's plies plus its start.
    pub positions: i64,
}

/// A score as stored: hundredths of a piece (Ankor: of a cube of connection distance), or a
/// forced end: [`FORCED_END`] less the plies to it, negative for a loss.
pub type StoredScore = i64;

/// The stored score of a game won at once; a forced end `n` plies away is `FORCED_END - n`.
pub const FORCED_END: StoredScore = 100_000;

/// One analysed position: `ply` plies after the start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnalysedPosition {
    pub ply: i64,
    /// For the seat to move; once the game is over, for the seat that moved last.
    pub score: StoredScore,
    /// For the seat that made the ply before this position (None at the start).
    pub mover_score: Option<StoredScore>,
    /// The engine's move ("" once the game is over).
    pub best: String,
    /// The line the best move starts.
    pub line: Vec<String>,
}

/// How bad a move was, by the winning chances it lost (domain/analysis/judge.rs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MoveClass {
    Inaccuracy,
    Mistake,
    Blunder,
}

impl MoveClass {
    /// The PGN annotation: `?!`, `?`, `??`.
    pub const fn mark(self) -> &'static str {
        match self {
            MoveClass::Inaccuracy => "?!",
            MoveClass::Mistake => "?",
            MoveClass::Blunder => "??",
        }
    }

    /// The numeric annotation glyph of PGN: $6, $2, $4.
    pub const fn nag(self) -> u8 {
        match self {
            MoveClass::Inaccuracy => 6,
            MoveClass::Mistake => 2,
            MoveClass::Blunder => 4,
        }
    }

    pub const fn as_str(self) -> &'static str {
        match self {
            MoveClass::Inaccuracy => "inaccuracy",
            MoveClass::Mistake => "mistake",
            MoveClass::Blunder => "blunder",
        }
    }
}

/// A ply of an analysed game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlyAnalysis {
    /// 1 for the first move.
    pub ply: i64,
    #[serde(rename = "move")]
    pub mv: String,
    /// The letter of the seat that moved.
    pub seat: String,
    /// The position after the move for the seat that made it, in pieces (Ankor: cubes of
    /// connection distance); a forced end scores ±(1000 less the plies to it).
    pub score: f64,
    /// The plies to a forced end after the move, when the search saw one: positive when the
    /// mover wins, negative when it loses.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub win_in: Option<i64>,
    /// The mover's winning chances after the move, from -1 (lost) to 1 (won).
    pub chances: f64,
    /// The engine's move in the position before the ply: a legal move there.
    pub best: String,
    /// The best move's score for the mover, as `score`.
    pub best_score: f64,
    /// The line the best move starts.
    pub line: Vec<String>,
    /// The winning chances the move gave away against the best move (0 to 2).
    pub loss: f64,
    pub class: Option<MoveClass>,
}

/// A player's part of an analysed game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayerAnalysis {
    pub name: String,
    /// From 0 to 100: the mean of the player's move accuracies (judge.rs).
    pub accuracy: f64,
    pub inaccuracies: u32,
    pub mistakes: u32,
    pub blunders: u32,
}

/// How far an analysis has come: positions analysed of all.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Progress {
    pub done: i64,
    pub total: i64,
}

/// A board's analysis, as every door shows it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AnalysisReport {
    pub board: i64,
    pub game: String,
    pub status: JobStatus,
    pub progress: Progress,
    /// The plies analysed so far (all of them once done).
    pub plies: Vec<PlyAnalysis>,
    /// By seat letter; filled once done.
    pub players: BTreeMap<String, PlayerAnalysis>,
}

/// One of a position's best moves, searched live (the analysis board), for the seat to move.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LiveLine {
    #[serde(rename = "move")]
    pub mv: String,
    /// As [`PlyAnalysis::score`]: in pieces (Ankor: cubes of connection distance), a forced end
    /// ±(1000 less the plies to it).
    pub score: f64,
    /// The plies to a forced end, when the search saw one: positive when the seat to move wins.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub win_in: Option<i64>,
    /// The seat to move's winning chances by this move, from 0 (lost) to 1 (won): the
    /// judgement's chances (-1 to 1) put on that scale.
    pub win_chance: f64,
    /// The line the move starts, the move first.
    pub line: Vec<String>,
}

/// A position's best lines after one completed depth of a live search.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LiveLines {
    pub game: String,
    /// The position searched, as its game writes it.
    pub fen: String,
    pub depth: u32,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Best first; three, or every legal move when there are fewer.
    pub lines: Vec<LiveLine>,
}
