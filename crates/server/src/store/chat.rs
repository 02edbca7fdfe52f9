//! A board's chat lines.

use sqlx::any::AnyRow;
use sqlx::{AnyConnection, Row};

use crate::error::Result;
use crate::model::ChatRow;

/// A board's chat lines (`$1`), oldest first.
pub(super) const CHAT: &str =
    "SELECT seq, name, at_ms, body, channel FROM chat WHERE board = $1 ORDER BY seq";

pub async fn chat(conn: &mut AnyConnection, board: i64) -> Result<Vec<ChatRow>> {
    let rows = sqlx::query(CHAT).bind(board).fetch_all(conn).await?;
    rows.iter().map(chat_from_row).collect()
}

/// A row of [`CHAT`].
pub(super) fn chat_from_row(row: &AnyRow) -> Result<ChatRow> {
    Ok(ChatRow {
        seq: row.try_get("seq")?,
        name: row.try_get("name")?,
        at_ms: row.try_get("at_ms")?,
        body: row.try_get("body")?,
        channel: row.try_get("channel")?,
    })
}

pub async fn insert_chat(
    conn: &mut AnyConnection,
    board: i64,
    name: &str,
    at_ms: i64,
    body: &str,
    channel: &str,
) -> Result<ChatRow> {
    let row = sqlx::query("SELECT COALESCE(MAX(seq), 0) AS top FROM chat WHERE board = $1")
        .bind(board)
        .fetch_one(&mut *conn)
        .await?;
    let seq = row.try_get::<i64, _>("top")? + 1;
    sqlx::query(
        "INSERT INTO chat (board, seq, name, at_ms, body, channel) VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(board)
    .bind(seq)
    .bind(name)
    .bind(at_ms)
    .bind(body)
    .bind(channel)
    .execute(conn)
    .await?;
    Ok(ChatRow {
        seq,
        name: name.to_string(),
        at_ms,
        body: body.to_string(),
        channel: channel.to_string(),
    })
}
