//! What can go wrong, for every door: each variant says what was wrong in words a player reads.

use thiserror::Error;

use crate::model::Status;

/// A refused request or a server failure.
#[derive(Debug, Error)]
pub enum Error {
    /// Unknown userid, wrong password, bad or expired token: one answer for all of them.
    #[error("authentication failed: unknown userid, wrong password or invalid token")]
    Auth,
    #[error("too many attempts; try again in {retry_after_s} s")]
    RateLimited { retry_after_s: u64 },
    /// Too many expensive requests (password hashes, engine searches) at once: refused at once
    /// rather than queued without end.
    #[error("the server is busy with other {what}; try again in {retry_after_s} s")]
    Busy {
        what: &'static str,
        retry_after_s: u64,
    },
    /// A browser on another site sent the session cookie with a change or a WebSocket.
    #[error("a request from {0} may not use this site's session cookie")]
    ForeignOrigin(String),
    #[error("userid {0:?} is taken")]
    UserExists(String),
    #[error("invalid userid {userid:?}: {reason}")]
    InvalidUserid {
        userid: String,
        reason: &'static str,
    },
    #[error("invalid password: {0}")]
    InvalidPassword(&'static str),
    #[error("no user {0:?}")]
    UnknownUser(String),
    #[error("no board {0}")]
    UnknownBoard(i64),
    #[error("no open seek {0}: it was taken or withdrawn")]
    UnknownSeek(i64),
    #[error("no tournament {0}")]
    UnknownTournament(i64),
    #[error("seek {id} is not {user}'s")]
    NotYourSeek { id: i64, user: String },
    #[error("{user} does not play on board {board}")]
    NotAPlayer { board: i64, user: String },
    #[error("it is {to_move}'s move on board {board}, not {user}'s")]
    NotYourTurn {
        board: i64,
        user: String,
        to_move: String,
    },
    #[error("board {board} is {}, not in play", status_words(.status))]
    NotInPlay { board: i64, status: String },
    #[error("board {board} is not an open challenge (it is {status})")]
    NotAChallenge { board: i64, status: String },
    #[error("move number #{given} is stale: board {board} expects #{expected}")]
    Guard {
        board: i64,
        given: i64,
        expected: i64,
    },
    #[error("{0}")]
    Move(#[from] games::GameError),
    #[error("a pass is never chosen: the server passes for a player who cannot move")]
    PassRefused,
    /// A same-cell pair such as `a1a1`, which the move reader takes for a pass: told as what
    /// it is, since whoever typed it meant a move.
    #[error("{0} starts and ends on the same cell: a clone names only the cell it lands on (d4), a jump the cell it leaves and the one it lands on (c3b5)")]
    MoveGoesNowhere(String),
    /// No engine output about a game in play, to anyone (issue #32): it opens when the game ends.
    #[error(
        "this position stands on a board in play: the engine's analysis opens when the game ends"
    )]
    AnalysisOfGameInPlay,
    #[error(transparent)]
    UnknownGame(#[from] games::ParseGameKindError),
    /// A position text that is not one of its game's (a FEN with a mistake).
    #[error("{0}")]
    BadPosition(games::GameError),
    #[error("board {0} has no computer analysis yet: ask for it (POST /api/games/{0}/analysis, or the analysis command)")]
    NoAnalysis(i64),
    #[error("invalid challenge: {0}")]
    InvalidChallenge(String),
    #[error("{0}")]
    Proposal(&'static str),
    #[error("{bot} is a computer player and declines {what}: it plays every game to its end")]
    BotDeclines { bot: String, what: &'static str },
    #[error("{0}")]
    Command(String),
    #[error("{user} is muted for {minutes} more minutes: their chat is refused until then")]
    Muted { user: String, minutes: i64 },
    #[error("{0} is not a moderator")]
    NotAModerator(String),
    #[error("{0} is not one of the server's admins (serve --admin)")]
    NotAnAdmin(String),
    /// The right password of a banned user: told plainly, since they know it.
    #[error(
        "{0} is banned by the server's admins: they may not sign in, play, chat, seek or mail"
    )]
    Banned(String),
    #[error("no API token {0} of yours")]
    UnknownToken(String),
    /// An API token used beyond its scopes: names what the request needs.
    #[error("this API token lacks the scope this request needs: {0}")]
    MissingScope(String),
    /// A request no API token may make (managing tokens, the password): a signed-in session may.
    #[error("{0} needs a signed-in session, not an API token")]
    SessionOnly(&'static str),
    /// The right password of a user with a second factor on, without its code.
    #[error("{0} has a second factor on: give the code of the authenticator app (or a recovery code) too; in a command, after the password and a colon: PASSWORD:CODE")]
    SecondFactor(String),
    /// A field of a request over its limit (a token's name, a report's text): bad input (400).
    #[error("{what} is too long (at most {max} bytes)")]
    TooLong { what: &'static str, max: usize },
    /// A whole HTTP request body over the server's limit (413), refused before it is read.
    #[error("a request body is too long (at most {max} bytes)")]
    BodyTooLarge { max: usize },
    /// Ending a vacation that is not on: a conflict with the account's state, as ending a game
    /// that is over is.
    #[error("{0} is not on vacation")]
    NotOnVacation(String),
    #[error("configuration: {0}")]
    Config(String),
    /// A failure of the server's own that the request could not change (a search thread that
    /// panicked, a picture that would not draw).
    #[error("internal error: {0}")]
    Internal(String),
    #[error("internal database error")]
    Database(#[source] Box<dyn std::error::Error + Send + Sync>),
}

impl Error {
    /// The board the error concerns, so that replies can show it.
    pub fn board(&self) -> Option<i64> {
        match self {
            Error::NotAPlayer { board, .. }
            | Error::NotYourTurn { board, .. }
            | Error::NotInPlay { board, .. }
            | Error::Guard { board, .. } => Some(*board),
            _ => None,
        }
    }

    /// How long a refused client should wait before trying again, when the refusal says.
    pub fn retry_after_s(&self) -> Option<u64> {
        match self {
            Error::RateLimited { retry_after_s } | Error::Busy { retry_after_s, .. } => {
                Some(*retry_after_s)
            }
            _ => None,
        }
    }

    /// A short machine-readable name (JSON replies).
    pub fn code(&self) -> &'static str {
        match self {
            Error::Auth => "auth",
            Error::RateLimited { .. } => "rate_limited",
            Error::Busy { .. } => "busy",
            Error::ForeignOrigin(_) => "foreign_origin",
            Error::UserExists(_) => "user_exists",
            Error::InvalidUserid { .. } => "invalid_userid",
            Error::InvalidPassword(_) => "invalid_password",
            Error::UnknownUser(_) => "unknown_user",
            Error::UnknownBoard(_) => "unknown_board",
            Error::UnknownSeek(_) => "unknown_seek",
            Error::UnknownTournament(_) => "unknown_tournament",
            Error::NotYourSeek { .. } => "not_your_seek",
            Error::NotAPlayer { .. } => "not_a_player",
            Error::NotYourTurn { .. } => "not_your_turn",
            Error::NotInPlay { .. } => "not_in_play",
            Error::NotAChallenge { .. } => "not_a_challenge",
            Error::Guard { .. } => "stale_move_number",
            Error::Move(_) | Error::MoveGoesNowhere(_) => "illegal_move",
            Error::PassRefused => "pass_refused",
            Error::InvalidChallenge(_) => "invalid_challenge",
            Error::AnalysisOfGameInPlay => "in_play",
            Error::NoAnalysis(_) => "no_analysis",
            Error::UnknownGame(_) => "unknown_game",
            Error::BadPosition(_) => "bad_position",
            Error::Proposal(_) | Error::BotDeclines { .. } => "proposal",
            Error::Command(_) => "bad_command",
            Error::Muted { .. } => "muted",
            Error::NotAModerator(_) => "not_a_moderator",
            Error::NotAnAdmin(_) => "not_an_admin",
            Error::Banned(_) => "banned",
            Error::UnknownToken(_) => "unknown_token",
            Error::MissingScope(_) => "missing_scope",
            Error::SessionOnly(_) => "session_only",
            Error::SecondFactor(_) => "second_factor",
            Error::TooLong { .. } | Error::BodyTooLarge { .. } => "too_long",
            Error::NotOnVacation(_) => "not_on_vacation",
            Error::Config(_) => "config",
            Error::Internal(_) => "internal",
            Error::Database(_) => "internal",
        }
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

/// A board's status as a sentence says it: "a challenge", "finished", "declined".
fn status_words(status: &str) -> String {
    if status == Status::Challenge.as_str() {
        return "a challenge".to_string();
    }
    status.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_challenge_is_not_in_play_in_plain_words() {
        let err = Error::NotInPlay {
            board: 119,
            status: Status::Challenge.to_string(),
        };
        assert_eq!(err.to_string(), "board 119 is a challenge, not in play");
        let err = Error::NotInPlay {
            board: 119,
            status: Status::Finished.to_string(),
        };
        assert_eq!(err.to_string(), "board 119 is finished, not in play");
    }
}
