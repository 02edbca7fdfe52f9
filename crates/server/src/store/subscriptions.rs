//! Users who follow boards they do not play on (`ataxx subscribe`).

use sqlx::{AnyConnection, Row};

use crate::error::Result;

/// Every (board, subscriber) pair.
pub async fn subscriptions(conn: &mut AnyConnection) -> Result<Vec<(i64, String)>> {
    let rows = sqlx::query("SELECT board, name FROM subscriptions ORDER BY board, name")
        .fetch_all(conn)
        .await?;
    rows.iter()
        .map(|row| Ok((row.try_get("board")?, row.try_get("name")?)))
        .collect()
}

/// The users who follow a board (`$1`), by name.
pub(super) const SUBSCRIBERS: &str =
    "SELECT name FROM subscriptions WHERE board = $1 ORDER BY name";

/// The users who follow `board`, by name.
pub async fn subscribers(conn: &mut AnyConnection, board: i64) -> Result<Vec<String>> {
    let rows = sqlx::query(SUBSCRIBERS).bind(board).fetch_all(conn).await?;
    rows.iter().map(|row| Ok(row.try_get("name")?)).collect()
}

pub async fn set_subscription(
    conn: &mut AnyConnection,
    board: i64,
    name: &str,
    on: bool,
) -> Result<()> {
    sqlx::query("DELETE FROM subscriptions WHERE board = $1 AND name = $2")
        .bind(board)
        .bind(name)
        .execute(&mut *conn)
        .await?;
    if on {
        sqlx::query("INSERT INTO subscriptions (board, name) VALUES ($1, $2)")
            .bind(board)
            .bind(name)
            .execute(conn)
            .await?;
    }
    Ok(())
}
