//! `mail_inbox`: the messages received, kept until processed (their raw text goes then).

use base64::Engine;
use sqlx::{AnyConnection, Row};

use crate::error::Result;
use crate::model::InboxRow;

/// Stores a received message with status `new`; returns its id. The first statement writes (the
/// id counter), so that on SQLite the transaction starts by writing: `ataxx mail-in`, another
/// process than the server, then waits for the write lock (busy timeout) instead of failing on a
/// stale read snapshot.
pub async fn insert_inbox(
    conn: &mut AnyConnection,
    now_ms: i64,
    envelope_from: &str,
    message_id: &str,
    raw: &[u8],
    size: usize,
    truncated: bool,
) -> Result<i64> {
    let id = crate::store::next_number(conn, "mail_inbox").await?;
    sqlx::query(
        "INSERT INTO mail_inbox (id, received_ms, envelope_from, message_id, raw_base64, size, \
         truncated, status, note) VALUES ($1, $2, $3, $4, $5, $6, $7, 'new', '')",
    )
    .bind(id)
    .bind(now_ms)
    .bind(envelope_from)
    .bind(message_id)
    .bind(base64::engine::general_purpose::STANDARD.encode(raw))
    .bind(size as i64)
    .bind(truncated as i64)
    .execute(&mut *conn)
    .await?;
    Ok(id)
}

/// The inbox id of a message stored before with this Message-ID, if any.
pub async fn inbox_id_of(conn: &mut AnyConnection, message_id: &str) -> Result<Option<i64>> {
    let row = sqlx::query("SELECT MIN(id) AS id FROM mail_inbox WHERE message_id = $1")
        .bind(message_id)
        .fetch_one(&mut *conn)
        .await?;
    Ok(row.try_get("id")?)
}

/// A message as its row holds it.
fn inbox_row(row: &sqlx::any::AnyRow) -> Result<InboxRow> {
    let raw: String = row.try_get("raw_base64")?;
    Ok(InboxRow {
        id: row.try_get("id")?,
        received_ms: row.try_get("received_ms")?,
        envelope_from: row.try_get("envelope_from")?,
        raw: base64::engine::general_purpose::STANDARD
            .decode(raw)
            .unwrap_or_default(),
        size: row.try_get("size")?,
        truncated: row.try_get::<i64, _>("truncated")? != 0,
        status: row.try_get("status")?,
        note: row.try_get("note")?,
    })
}

/// Messages waiting to be processed, oldest first.
pub async fn new_inbox(conn: &mut AnyConnection, limit: i64) -> Result<Vec<InboxRow>> {
    let rows = sqlx::query(
        "SELECT id, received_ms, envelope_from, raw_base64, size, truncated, status, note \
         FROM mail_inbox WHERE status = 'new' ORDER BY id LIMIT $1",
    )
    .bind(limit)
    .fetch_all(&mut *conn)
    .await?;
    rows.iter().map(inbox_row).collect()
}

/// Records how a message was processed, with a note, and drops its raw text.
pub async fn finish_inbox(
    conn: &mut AnyConnection,
    id: i64,
    status: &str,
    note: &str,
) -> Result<()> {
    // The raw message goes: its Subject holds the command's password.
    sqlx::query("UPDATE mail_inbox SET status = $1, note = $2, raw_base64 = '' WHERE id = $3")
        .bind(status)
        .bind(note)
        .bind(id)
        .execute(&mut *conn)
        .await?;
    Ok(())
}

/// Messages from a sender (by From address, noted at processing) since a time.
pub async fn inbox_count_since(
    conn: &mut AnyConnection,
    sender: &str,
    since_ms: i64,
) -> Result<i64> {
    Ok(
        sqlx::query(
            "SELECT COUNT(*) AS n FROM mail_inbox WHERE note LIKE $1 AND received_ms >= $2",
        )
        .bind(format!("from {sender}%"))
        .bind(since_ms)
        .fetch_one(&mut *conn)
        .await?
        .try_get("n")?,
    )
}

/// The latest inbound messages for `ataxx mailq --inbox`, newest first.
pub async fn inbox(conn: &mut AnyConnection, limit: i64) -> Result<Vec<InboxRow>> {
    let rows = sqlx::query(
        "SELECT id, received_ms, envelope_from, raw_base64, size, truncated, status, note \
         FROM mail_inbox ORDER BY id DESC LIMIT $1",
    )
    .bind(limit)
    .fetch_all(&mut *conn)
    .await?;
    rows.iter().map(inbox_row).collect()
}
