//! Counts over the boards: in play, per player, per game and state, and what tells whether a
//! game's finished boards changed.

use sqlx::{AnyConnection, Row};

use crate::error::Result;
use crate::model::Status;

/// Whether a board of `game` in play stands at a position whose FEN begins with `prefix` (its
/// board and side to move, from a canonical FEN: no `%` or `_` in it).
pub async fn in_play_at(conn: &mut AnyConnection, game: &str, prefix: &str) -> Result<bool> {
    let row = sqlx::query(
        "SELECT COUNT(*) AS n FROM games WHERE status = 'active' AND game = $1 AND fen LIKE $2",
    )
    .bind(game)
    .bind(format!("{prefix}%"))
    .fetch_one(conn)
    .await?;
    Ok(row.try_get::<i64, _>("n")? > 0)
}

/// How many games are in play, of every kind.
pub async fn games_in_play(conn: &mut AnyConnection) -> Result<i64> {
    let row = sqlx::query("SELECT COUNT(*) AS n FROM games WHERE status = 'active'")
        .fetch_one(conn)
        .await?;
    Ok(row.try_get("n")?)
}

/// How many boards of a game are in a state.
pub async fn count_games(conn: &mut AnyConnection, game: &str, status: Status) -> Result<i64> {
    let row = sqlx::query("SELECT COUNT(*) AS n FROM games WHERE game = $1 AND status = $2")
        .bind(game)
        .bind(status.as_str())
        .fetch_one(conn)
        .await?;
    Ok(row.try_get("n")?)
}

/// What tells whether a game's finished boards changed (the opening explorer's cache key):
/// how many there are and when the last one ended. Boards only ever join the finished ones.
pub async fn finished_fingerprint(conn: &mut AnyConnection, game: &str) -> Result<(i64, i64)> {
    let row = sqlx::query(
        "SELECT COUNT(*) AS n, COALESCE(MAX(finished_ms), 0) AS last FROM games \
         WHERE game = $1 AND status = 'finished'",
    )
    .bind(game)
    .fetch_one(conn)
    .await?;
    Ok((row.try_get("n")?, row.try_get("last")?))
}
