//! A board's chat.

/// One chat line of a board.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct ChatRow {
    pub seq: i64,
    pub name: String,
    pub at_ms: i64,
    pub body: String,
}
