//! `ataxx limit`: at most n games at once. What counts is what the player chose: games in play,
//! and challenges the player accepted (or made signed in). Open challenges made by others need
//! no password (as in pbmserv), so they never count: a stranger cannot fill anyone's limit.

use crate::error::{Error, Result};
use crate::model::UserRow;
use crate::store::{self, Conn};

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
