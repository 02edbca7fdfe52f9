//! The mail door's records: a received message, a mail waiting to be sent, and how far a
//! board's mails have gone.

use super::Status;

/// A message in the inbox.
#[derive(Clone, Debug)]
pub struct InboxRow {
    pub id: i64,
    pub received_ms: i64,
    pub envelope_from: String,
    pub raw: Vec<u8>,
    pub size: i64,
    pub truncated: bool,
    pub status: String,
    pub note: String,
}

/// One outbound mail to one recipient.
#[derive(Clone, Debug, serde::Serialize)]
pub struct OutboxRow {
    pub id: i64,
    pub created_ms: i64,
    pub recipient: String,
    /// What it is: reply, board, challenge, chat, nag, end, message, confirm, refusal.
    pub kind: String,
    pub subject: String,
    pub body: String,
    pub message_id: String,
    pub in_reply_to: String,
    pub refs: String,
    pub status: String,
    pub attempts: i64,
    pub next_try_ms: i64,
    pub last_error: String,
    pub sent_ms: Option<i64>,
}

/// What a board's mails have told so far.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardCursor {
    pub version: i64,
    pub plies: i64,
    pub status: Status,
    pub nagged_ply: i64,
    pub chat_seq: i64,
}
