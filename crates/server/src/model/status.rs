//! Where a board stands: a challenge, a game in play, or closed one of three ways.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// A board's status, stored and sent as its lower-case name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Waiting for every player to accept.
    Challenge,
    /// In play.
    Active,
    /// Played to its end (or resigned, forfeited, drawn by agreement).
    Finished,
    /// A player declined the challenge.
    Declined,
    /// The challenger withdrew it, or it was closed before anyone moved, or a live game was
    /// aborted because a player made no first move in time (termination `aborted`).
    Withdrawn,
}

impl Status {
    /// Every status, in the order a board can reach them.
    pub const ALL: [Status; 5] = [
        Status::Challenge,
        Status::Active,
        Status::Finished,
        Status::Declined,
        Status::Withdrawn,
    ];

    /// The name the store, the API and the command language use.
    pub const fn as_str(self) -> &'static str {
        match self {
            Status::Challenge => "challenge",
            Status::Active => "active",
            Status::Finished => "finished",
            Status::Declined => "declined",
            Status::Withdrawn => "withdrawn",
        }
    }

    /// A challenge or a game in play: the board may still change.
    pub const fn is_open(self) -> bool {
        matches!(self, Status::Challenge | Status::Active)
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A status name that is none of [`Status::ALL`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown board status {0:?}")]
pub struct UnknownStatus(pub String);

impl FromStr for Status {
    type Err = UnknownStatus;

    fn from_str(text: &str) -> Result<Status, UnknownStatus> {
        Status::ALL
            .into_iter()
            .find(|status| status.as_str() == text)
            .ok_or_else(|| UnknownStatus(text.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_status_reads_and_writes_its_lower_case_name() {
        assert_eq!("active".parse::<Status>(), Ok(Status::Active));
        assert_eq!(Status::Challenge.to_string(), "challenge");
        assert!(Status::Challenge.is_open() && !Status::Declined.is_open());
    }
}
