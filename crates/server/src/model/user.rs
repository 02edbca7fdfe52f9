//! Accounts as the server knows them.

use serde::{Deserialize, Serialize};

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

/// An ended session: every session of `user` (a password change, a closed account), or only
/// the one whose token hashes to `token_hash` (a logout). Travels between nodes as a notice.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Revocation {
    pub user: String,
    pub token_hash: Option<String>,
}
