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

/// One act of an admin (`admin_log`): who did what, to whom or which board, when and why.
#[derive(Clone, Debug, serde::Serialize)]
pub struct AdminAct {
    pub id: i64,
    pub at_ms: i64,
    pub admin: String,
    /// `ban`, `unban`, `close`, `cheater`, `uncheater` or `abort`.
    pub act: String,
    /// A userid, or a board number for `abort`.
    pub target: String,
    pub reason: String,
}
