//! Moves: the plies a board recorded and the moves waiting for their player's turn.

/// One recorded ply.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct MoveRow {
    pub ply: i64,
    /// Strict move text (`0000` for a pass).
    #[serde(rename = "move")]
    pub mv: String,
    /// Inserted by the server (a forced pass).
    pub auto: bool,
    pub flips: i64,
    pub at_ms: i64,
    /// The seat that made it (not stored: found by replaying).
    pub seat: u8,
    /// The position after it (not stored: found by replaying).
    pub fen: String,
}

/// A move stored to be played when it becomes its player's turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueuedMove {
    pub mv: String,
    pub guard: Option<i64>,
}
