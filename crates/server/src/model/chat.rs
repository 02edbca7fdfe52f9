//! A board's chat.

/// One chat line of a board.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct ChatRow {
    pub seq: i64,
    pub name: String,
    pub at_ms: i64,
    pub body: String,
    /// `players` or `spectators`: whose room the line was written in.
    #[serde(default = "players_channel")]
    pub channel: String,
}

/// The channel of lines written before there were two (and of events that predate it).
fn players_channel() -> String {
    PLAYERS.into()
}

/// The board's players' channel and everyone else's.
pub const PLAYERS: &str = "players";
pub const SPECTATORS: &str = "spectators";
