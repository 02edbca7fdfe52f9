//! `mail_outbox`: the mails to send, their claims by a sender, their tries and counts.

use sqlx::{AnyConnection, Row};

use crate::error::Result;
use crate::model::OutboxRow;

/// The columns of an outbox row ([`outbox_row`] reads them).
const OUTBOX_COLUMNS: &str = "id, created_ms, recipient, kind, subject, body, message_id, \
     in_reply_to, refs, status, attempts, next_try_ms, last_error, sent_ms";

/// A mail as its row holds it.
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

/// How many mails wait to be sent (queued, or being handed to the relay).
pub async fn outbox_waiting(conn: &mut AnyConnection) -> Result<i64> {
    let row =
        sqlx::query("SELECT COUNT(*) AS n FROM mail_outbox WHERE status IN ('queued', 'sending')")
            .fetch_one(conn)
            .await?;
    Ok(row.try_get("n")?)
}
