//! Personal API tokens and what each may do (its scopes).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// What a token may do. Every scope reads (a player must see the board it moves on); the
/// playing scopes add their changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Scope {
    /// Read-only use of the API (games, users, listings, the event streams).
    #[serde(rename = "read")]
    Read,
    /// Play the account's own games: challenges, seeks, moves, chat, tournaments' join.
    #[serde(rename = "board:play")]
    BoardPlay,
    /// Play as a bot (`ataxx bot`): what `board:play` allows, and making the account a bot.
    #[serde(rename = "bot:play")]
    BotPlay,
}

impl Scope {
    pub const ALL: [Scope; 3] = [Scope::Read, Scope::BoardPlay, Scope::BotPlay];

    pub fn as_str(self) -> &'static str {
        match self {
            Scope::Read => "read",
            Scope::BoardPlay => "board:play",
            Scope::BotPlay => "bot:play",
        }
    }
}

impl fmt::Display for Scope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown scope {0:?}: the scopes are read, board:play and bot:play")]
pub struct UnknownScope(pub String);

impl FromStr for Scope {
    type Err = UnknownScope;

    fn from_str(text: &str) -> Result<Scope, UnknownScope> {
        Scope::ALL
            .into_iter()
            .find(|scope| scope.as_str() == text)
            .ok_or_else(|| UnknownScope(text.to_string()))
    }
}

/// A token as its owner sees it listed: never its secret, which is kept only as a hash.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ApiTokenRow {
    pub id: String,
    /// The owner's name for it ("my bot on the laptop").
    pub label: String,
    pub scopes: Vec<Scope>,
    pub created_ms: i64,
}
