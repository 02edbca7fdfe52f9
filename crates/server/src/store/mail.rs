//! The mail door's tables (migration 0005): the inbox, the outbox and the board cursors.
//! Kept beside the door rather than in `storage.rs` so the door is one folder; the SQL follows
//! the same portable rules (`$n` parameters, BIGINT, no autoincrement: ids are the next
//! number, taken under the write lock).

use base64::Engine;
use sqlx::{AnyConnection, Row};

use crate::error::{Error, Result};
use crate::model::{BoardCursor, InboxRow, OutboxRow};

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

const OUTBOX_COLUMNS: &str = "id, created_ms, recipient, kind, subject, body, message_id, \
     in_reply_to, refs, status, attempts, next_try_ms, last_error, sent_ms";

fn outbox_row(row: &sqlx::any::AnyRow) -> Result<OutboxRow> {
    Ok(OutboxRow {
        id: row.try_get("id")?,
        created_ms: row.try_get("created_ms")?,
        recipient: row.try_get("recipient")?,
        kind: row.try_get("kind")?,
        subject: row.try_get("subject")?,
        body: row.try_get("body")?,
        message_id: row.try_get("message_id")?,
        in_reply_to: row.try_get("in_reply_to")?,
        refs: row.try_get("refs")?,
        status: row.try_get("status")?,
        attempts: row.try_get("attempts")?,
        next_try_ms: row.try_get("next_try_ms")?,
        last_error: row.try_get("last_error")?,
        sent_ms: row.try_get("sent_ms")?,
    })
}

/// Queues a mail; `message_id` is made from its id and `domain`.
pub async fn insert_outbox(
    conn: &mut AnyConnection,
    mail: &OutboxRow,
    domain: &str,
) -> Result<i64> {
    let id = crate::store::next_number(conn, "mail_outbox").await?;
    sqlx::query(&format!(
        "INSERT INTO mail_outbox ({OUTBOX_COLUMNS}) VALUES \
         ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'queued', 0, $10, '', NULL)"
    ))
    .bind(id)
    .bind(mail.created_ms)
    .bind(&mail.recipient)
    .bind(&mail.kind)
    .bind(&mail.subject)
    .bind(&mail.body)
    .bind(format!("<ataxx-{id}.{}@{domain}>", mail.created_ms))
    .bind(&mail.in_reply_to)
    .bind(&mail.refs)
    .bind(mail.created_ms)
    .execute(&mut *conn)
    .await?;
    Ok(id)
}

/// Mails due at `now_ms`, oldest first: queued ones, and ones a sender claimed and never
/// finished (it died, or its lease ran out) — sent again with their Message-ID.
pub async fn due_outbox(
    conn: &mut AnyConnection,
    now_ms: i64,
    limit: i64,
) -> Result<Vec<OutboxRow>> {
    let rows = sqlx::query(&format!(
        "SELECT {OUTBOX_COLUMNS} FROM mail_outbox WHERE status IN ('queued', 'sending') \
         AND next_try_ms <= $1 ORDER BY id LIMIT $2"
    ))
    .bind(now_ms)
    .bind(limit)
    .fetch_all(&mut *conn)
    .await?;
    rows.iter().map(outbox_row).collect()
}

/// Claims a due mail before it is handed to the relay: `sending`, one more attempt, not due
/// again before `lease_until_ms`. False when it is no longer due (sent or claimed meanwhile).
pub async fn claim_outbox(
    conn: &mut AnyConnection,
    id: i64,
    now_ms: i64,
    lease_until_ms: i64,
) -> Result<bool> {
    let claimed = sqlx::query(
        "UPDATE mail_outbox SET status = 'sending', attempts = attempts + 1, next_try_ms = $1 \
         WHERE id = $2 AND status IN ('queued', 'sending') AND next_try_ms <= $3",
    )
    .bind(lease_until_ms)
    .bind(id)
    .bind(now_ms)
    .execute(&mut *conn)
    .await?;
    Ok(claimed.rows_affected() == 1)
}

/// Makes every claimed mail due now: a new sender takes over what the last one was handing to
/// the relay when it died. Returns how many.
pub async fn reclaim_sending(conn: &mut AnyConnection, now_ms: i64) -> Result<u64> {
    Ok(sqlx::query(
        "UPDATE mail_outbox SET next_try_ms = $1 WHERE status = 'sending' AND next_try_ms > $1",
    )
    .bind(now_ms)
    .execute(&mut *conn)
    .await?
    .rows_affected())
}

/// The whole queue for `ataxx mailq`: sending, queued and failed first, then the latest sent.
pub async fn outbox(conn: &mut AnyConnection, limit: i64) -> Result<Vec<OutboxRow>> {
    let rows = sqlx::query(&format!(
        "SELECT {OUTBOX_COLUMNS} FROM mail_outbox ORDER BY \
         CASE status WHEN 'sending' THEN 0 WHEN 'queued' THEN 1 WHEN 'failed' THEN 2 ELSE 3 END, id DESC LIMIT $1"
    ))
    .bind(limit)
    .fetch_all(&mut *conn)
    .await?;
    rows.iter().map(outbox_row).collect()
}

/// Records the relay's acceptance of a claimed mail. A password reset's body, which holds its
/// token, is not kept past it.
pub async fn mark_sent(conn: &mut AnyConnection, id: i64, now_ms: i64) -> Result<()> {
    sqlx::query(
        "UPDATE mail_outbox SET status = 'sent', sent_ms = $1, \
         body = CASE WHEN kind = 'reset' THEN '' ELSE body END WHERE id = $2",
    )
    .bind(now_ms)
    .bind(id)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Records a failed try of a claimed mail: queued again at `next_try_ms`, or `failed` when
/// `give_up`.
pub async fn mark_failed(
    conn: &mut AnyConnection,
    id: i64,
    error: &str,
    next_try_ms: i64,
    give_up: bool,
) -> Result<()> {
    sqlx::query(
        "UPDATE mail_outbox SET status = $1, last_error = $2, next_try_ms = $3 WHERE id = $4",
    )
    .bind(if give_up { "failed" } else { "queued" })
    .bind(error)
    .bind(next_try_ms)
    .bind(id)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Mails to a recipient since a time, of one kind or (`kind` empty) of any (the rate limits on
/// answers to strangers, errors, confirmations and messages).
pub async fn outbox_count_since(
    conn: &mut AnyConnection,
    recipient: &str,
    kind: &str,
    since_ms: i64,
) -> Result<i64> {
    Ok(sqlx::query(
        "SELECT COUNT(*) AS n FROM mail_outbox WHERE recipient = $1 AND created_ms >= $2 \
         AND ($3 = '' OR kind = $3)",
    )
    .bind(recipient)
    .bind(since_ms)
    .bind(kind)
    .fetch_one(&mut *conn)
    .await?
    .try_get("n")?)
}

/// Mails of a kind with this Subject since a time (a user's messages: "message from USER").
pub async fn outbox_subject_count_since(
    conn: &mut AnyConnection,
    kind: &str,
    subject: &str,
    since_ms: i64,
) -> Result<i64> {
    Ok(sqlx::query(
        "SELECT COUNT(*) AS n FROM mail_outbox WHERE kind = $1 AND subject = $2 \
         AND created_ms >= $3",
    )
    .bind(kind)
    .bind(subject)
    .bind(since_ms)
    .fetch_one(&mut *conn)
    .await?
    .try_get("n")?)
}

/// The kind of the mail this server sent with `message_id` (`<...>`), if it is one of ours.
pub async fn outbox_kind_of(conn: &mut AnyConnection, message_id: &str) -> Result<Option<String>> {
    let row = sqlx::query("SELECT kind FROM mail_outbox WHERE message_id = $1")
        .bind(message_id)
        .fetch_optional(&mut *conn)
        .await?;
    Ok(match row {
        Some(row) => Some(row.try_get("kind")?),
        None => None,
    })
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

/// Boards changed since their last mail (or never mailed), with their cursor if any.
pub async fn changed_boards(conn: &mut AnyConnection) -> Result<Vec<(i64, Option<BoardCursor>)>> {
    let rows = sqlx::query(
        "SELECT g.board AS board, m.version AS version, m.plies AS plies, m.status AS status, \
         m.nagged_ply AS nagged_ply, m.chat_seq AS chat_seq \
         FROM games g LEFT JOIN mail_boards m ON m.board = g.board \
         WHERE m.board IS NULL OR m.version <> g.version ORDER BY g.board",
    )
    .fetch_all(&mut *conn)
    .await?;
    let mut out = vec![];
    for row in rows {
        let board: i64 = row.try_get("board")?;
        let version: Option<i64> = row.try_get("version")?;
        let cursor = match version {
            Some(version) => Some(BoardCursor {
                version,
                plies: row.try_get("plies")?,
                status: row
                    .try_get::<String, _>("status")?
                    .parse()
                    .map_err(|err| Error::Database(Box::new(err)))?,
                nagged_ply: row.try_get("nagged_ply")?,
                chat_seq: row.try_get("chat_seq")?,
            }),
            None => None,
        };
        out.push((board, cursor));
    }
    Ok(out)
}

/// The board's nag mark (the ply it was nagged at, -1 when not).
pub async fn nagged_ply(conn: &mut AnyConnection, board: i64) -> Result<i64> {
    Ok(sqlx::query("SELECT nagged_ply FROM games WHERE board = $1")
        .bind(board)
        .fetch_one(&mut *conn)
        .await?
        .try_get("nagged_ply")?)
}

pub async fn save_cursor(conn: &mut AnyConnection, board: i64, cursor: &BoardCursor) -> Result<()> {
    sqlx::query("DELETE FROM mail_boards WHERE board = $1")
        .bind(board)
        .execute(&mut *conn)
        .await?;
    sqlx::query(
        "INSERT INTO mail_boards (board, version, plies, status, nagged_ply, chat_seq) \
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(board)
    .bind(cursor.version)
    .bind(cursor.plies)
    .bind(cursor.status.as_str())
    .bind(cursor.nagged_ply)
    .bind(cursor.chat_seq)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// A user's mail addresses and the events that mail them; None for an unknown user.
pub async fn mail_settings(
    conn: &mut AnyConnection,
    name: &str,
) -> Result<Option<(Vec<String>, Vec<String>)>> {
    let row = sqlx::query("SELECT addresses, mail_events FROM users WHERE name = $1")
        .bind(name)
        .fetch_optional(&mut *conn)
        .await?;
    Ok(match row {
        Some(row) => {
            let words = |col: &str| -> Result<Vec<String>> {
                let text: String = row.try_get(col)?;
                Ok(text.split_whitespace().map(String::from).collect())
            };
            Some((words("addresses")?, words("mail_events")?))
        }
        None => None,
    })
}

/// Every account's addresses that take `event` (broadcasts).
pub async fn all_recipients(
    conn: &mut AnyConnection,
    event: &str,
) -> Result<Vec<(String, Vec<String>)>> {
    let rows = sqlx::query("SELECT name, addresses, mail_events FROM users ORDER BY name")
        .fetch_all(&mut *conn)
        .await?;
    let mut out = vec![];
    for row in rows {
        let events: String = row.try_get("mail_events")?;
        let addresses: String = row.try_get("addresses")?;
        if events.split_whitespace().any(|e| e == event) && !addresses.trim().is_empty() {
            out.push((
                row.try_get("name")?,
                addresses.split_whitespace().map(String::from).collect(),
            ));
        }
    }
    Ok(out)
}

pub async fn set_mail_events(conn: &mut AnyConnection, name: &str, events: &str) -> Result<()> {
    sqlx::query("UPDATE users SET mail_events = $1 WHERE name = $2")
        .bind(events)
        .bind(name)
        .execute(&mut *conn)
        .await?;
    Ok(())
}

/// Which user's addresses a message's From is (the first match), if any.
pub async fn user_by_address(conn: &mut AnyConnection, address: &str) -> Result<Option<String>> {
    let rows = sqlx::query("SELECT name, addresses FROM users WHERE addresses LIKE $1")
        .bind(format!("%{address}%"))
        .fetch_all(&mut *conn)
        .await?;
    for row in rows {
        let addresses: String = row.try_get("addresses")?;
        if addresses
            .split_whitespace()
            .any(|a| a.eq_ignore_ascii_case(address))
        {
            return Ok(Some(row.try_get("name")?));
        }
    }
    Ok(None)
}

/// Stores addresses waiting for the confirmation `token`.
pub async fn set_pending_addresses(
    conn: &mut AnyConnection,
    name: &str,
    addresses: &str,
    token: &str,
) -> Result<()> {
    sqlx::query("UPDATE users SET pending_addresses = $1, address_token = $2 WHERE name = $3")
        .bind(addresses)
        .bind(token)
        .bind(name)
        .execute(&mut *conn)
        .await?;
    Ok(())
}

/// With the right token, makes the waiting addresses the user's and returns them.
pub async fn take_pending_addresses(
    conn: &mut AnyConnection,
    name: &str,
    token: &str,
) -> Result<Option<String>> {
    let row = sqlx::query("SELECT pending_addresses, address_token FROM users WHERE name = $1")
        .bind(name)
        .fetch_optional(&mut *conn)
        .await?;
    let Some(row) = row else { return Ok(None) };
    let (pending, expected): (String, String) = (
        row.try_get("pending_addresses")?,
        row.try_get("address_token")?,
    );
    if expected.is_empty() || pending.is_empty() || expected != token {
        return Ok(None);
    }
    sqlx::query("UPDATE users SET addresses = $1, pending_addresses = '', address_token = '' WHERE name = $2")
        .bind(&pending)
        .bind(name)
        .execute(&mut *conn)
        .await?;
    Ok(Some(pending))
}

/// How many mails wait to be sent (queued, or being handed to the relay).
pub async fn outbox_waiting(conn: &mut AnyConnection) -> Result<i64> {
    let row =
        sqlx::query("SELECT COUNT(*) AS n FROM mail_outbox WHERE status IN ('queued', 'sending')")
            .fetch_one(conn)
            .await?;
    Ok(row.try_get("n")?)
}
