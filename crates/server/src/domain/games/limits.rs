//! `ataxx limit`: at most n games at once. What counts is what the player chose: games in play,
//! and challenges the player accepted (or made signed in). Open challenges made by others need
//! no password (as in pbmserv), so they never count: a stranger cannot fill anyone's limit.

use sqlx::{AnyConnection, Row};

use crate::error::{Error, Result};
use crate::model::UserRow;

/// Games in play of `name` and the challenges `name` accepted.
pub async fn committed_games(conn: &mut AnyConnection, name: &str) -> Result<i64> {
    let row = sqlx::query(
        "SELECT COUNT(*) AS n FROM games JOIN seats ON seats.board = games.board \
         WHERE seats.name = $1 \
         AND (games.status = 'active' OR (games.status = 'challenge' AND seats.accepted <> 0))",
    )
    .bind(name)
    .fetch_one(conn)
    .await?;
    Ok(row.try_get("n")?)
}

/// Refuses one more game for `user` when it would pass their limit.
pub async fn check(conn: &mut AnyConnection, user: &UserRow) -> Result<()> {
    if let Some(limit) = user.game_limit {
        if committed_games(conn, &user.name).await? >= limit {
            return Err(Error::InvalidChallenge(format!(
                "{} has reached their limit of {limit} games",
                user.name
            )));
        }
    }
    Ok(())
}
