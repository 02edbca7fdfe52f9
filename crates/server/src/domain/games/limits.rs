//! `ataxx limit`: at most n games at once. What counts is what the player chose: games in play,
//! and challenges the player accepted (or made signed in). Open challenges made by others need
//! no password (as in pbmserv), so they never count: a stranger cannot fill anyone's limit.
//! They are capped apart ([`check_waiting`]): each one mails its players.

use crate::error::{Error, Result};
use crate::model::UserRow;
use crate::store::{self, Conn};

/// Challenges a player may have waiting for their answer. Anyone may challenge anyone without
/// a password, and each challenge mails its players: one stranger mailed a user 40 times in
/// 10 s (issue #50).
pub const CHALLENGES_WAITING: i64 = 20;

/// Refuses one more challenge for `user` to answer when [`CHALLENGES_WAITING`] wait already.
pub async fn check_waiting(conn: &mut Conn, user: &UserRow) -> Result<()> {
    if store::challenges_waiting(conn, &user.name).await? >= CHALLENGES_WAITING {
        return Err(Error::InvalidChallenge(format!(
            "{} has {CHALLENGES_WAITING} challenges waiting for an answer: they must accept or \
             decline some first",
            user.name
        )));
    }
    Ok(())
}

/// Refuses one more game for `user` when it would pass their limit.
pub async fn check(conn: &mut Conn, user: &UserRow) -> Result<()> {
    if let Some(limit) = user.game_limit {
        if store::committed_games(conn, &user.name).await? >= limit {
            return Err(Error::InvalidChallenge(format!(
                "{} has reached their limit of {limit} games",
                user.name
            )));
        }
    }
    Ok(())
}
