//! Queuing outbound mail: a row per recipient in `mail_outbox`, written in the caller's
//! transaction, so a mail exists exactly when the change it tells of does. The relay sends it.

use sqlx::AnyConnection;

use super::MailConfig;
use crate::error::Result;
use crate::store::mail::{self as mail_store, OutboxRow};

/// A mail to queue (the recipients are given apart).
#[derive(Clone, Debug, Default)]
pub struct Outgoing {
    /// reply, board, challenge, chat, nag, end, message, refusal.
    pub kind: String,
    pub subject: String,
    pub body: String,
    /// The Message-ID answered, if any.
    pub in_reply_to: String,
    /// The thread: a board's stable id, so mail clients group a game.
    pub refs: String,
}

/// The stable thread id of a board: every mail about it names it in `References`.
pub fn board_thread(board: i64, config: &MailConfig) -> String {
    format!("<board-{board}@{}>", config.domain())
}

/// Queues `mail` to each address; returns how many were queued.
pub async fn queue(
    conn: &mut AnyConnection,
    config: &MailConfig,
    now_ms: i64,
    addresses: &[String],
    mail: &Outgoing,
) -> Result<usize> {
    for address in addresses {
        let row = OutboxRow {
            id: 0,
            created_ms: now_ms,
            recipient: address.clone(),
            kind: mail.kind.clone(),
            subject: mail.subject.clone(),
            body: mail.body.clone(),
            message_id: String::new(),
            in_reply_to: mail.in_reply_to.clone(),
            refs: mail.refs.clone(),
            status: String::new(),
            attempts: 0,
            next_try_ms: now_ms,
            last_error: String::new(),
            sent_ms: None,
        };
        mail_store::insert_outbox(conn, &row, config.domain()).await?;
    }
    Ok(addresses.len())
}

/// Queues `mail` to a user's addresses if they take mails of `event` (None: always, as for
/// the reply to their own command). Users without addresses (bots) get nothing.
pub async fn queue_to_user(
    conn: &mut AnyConnection,
    config: &MailConfig,
    now_ms: i64,
    user: &str,
    event: Option<&str>,
    mail: &Outgoing,
) -> Result<usize> {
    let Some((addresses, events)) = mail_store::mail_settings(conn, user).await? else {
        return Ok(0);
    };
    if event.is_some_and(|e| !events.iter().any(|have| have == e)) {
        return Ok(0);
    }
    queue(conn, config, now_ms, &addresses, mail).await
}
