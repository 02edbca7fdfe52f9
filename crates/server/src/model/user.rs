//! Accounts as the server knows them.

/// A user row.
#[derive(Clone, Debug)]
pub struct UserRow {
    pub name: String,
    pub password_hash: String,
    pub addresses: String,
    pub bot_level: Option<String>,
    pub refuses_challenges: bool,
    pub game_limit: Option<i64>,
    pub created_ms: i64,
}
