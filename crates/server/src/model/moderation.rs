//! What moderation keeps: reports of users, for the moderators.

/// One user's report of another.
#[derive(Clone, Debug, serde::Serialize)]
pub struct ReportRow {
    pub id: i64,
    pub reporter: String,
    pub reported: String,
    /// The board it happened on, when the reporter named one.
    pub board: Option<i64>,
    pub reason: String,
    pub at_ms: i64,
}
