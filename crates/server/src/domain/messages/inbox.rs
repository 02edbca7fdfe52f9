//! The inbox: received messages stored before they are answered (before the SMTP `250` or
//! `mail-in`'s exit status), then processed oldest first, and what the mail door asks of past
//! mail to keep its limits: how much came from an address, what went to it, whose it is.

use super::Messages;
use crate::domain::outbox::{queue, Outgoing, Sender};
use crate::error::Result;
use crate::model::InboxRow;
use crate::store::mail as mail_store;

/// A received message as the inbox took it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stored {
    /// Its inbox id (the first copy's, for a duplicate).
    pub id: i64,
    /// Whether a message with its Message-ID was stored before: this copy is dropped.
    pub duplicate: bool,
}

impl Messages {
    /// Stores a received message (its first `max_bytes`; a longer one is marked truncated and
    /// answered with a refusal), unless one with the same Message-ID is stored already. Durable
    /// when this returns.
    pub async fn store_inbound(
        &self,
        envelope_from: &str,
        message_id: Option<&str>,
        raw: &[u8],
        max_bytes: usize,
    ) -> Result<Stored> {
        let now_ms = self.clock.now_ms();
        let truncated = raw.len() > max_bytes;
        let kept = &raw[..raw.len().min(max_bytes)];
        let message_id = message_id.unwrap_or_default();
        let mut tx = self.storage.write().await?;
        // The id counter first: the transaction starts by writing (see insert_inbox), so two copies
        // arriving at once are checked one after the other.
        let id = mail_store::insert_inbox(
            &mut tx,
            now_ms,
            envelope_from,
            message_id,
            kept,
            raw.len(),
            truncated,
        )
        .await?;
        if !message_id.is_empty() {
            if let Some(first) = mail_store::inbox_id_of(&mut tx, message_id).await? {
                if first != id {
                    drop(tx); // rolled back: nothing of this copy is kept
                    return Ok(Stored {
                        id: first,
                        duplicate: true,
                    });
                }
            }
        }
        tx.commit().await?;
        Ok(Stored {
            id,
            duplicate: false,
        })
    }

    /// At most `limit` stored messages, newest first (`ataxx mailq --inbox`).
    pub async fn inbox_listing(&self, limit: i64) -> Result<Vec<InboxRow>> {
        let mut conn = self.storage.read().await?;
        mail_store::inbox(&mut conn, limit).await
    }

    /// Stored messages not yet processed, oldest first.
    pub async fn unprocessed(&self, limit: i64) -> Result<Vec<InboxRow>> {
        let mut conn = self.storage.read().await?;
        mail_store::new_inbox(&mut conn, limit).await
    }

    /// Marks a message processed and queues its replies, in one transaction.
    pub async fn finish_inbound(
        &self,
        sender: &Sender<'_>,
        id: i64,
        status: &str,
        note: &str,
        replies: &[(Vec<String>, Outgoing)],
    ) -> Result<()> {
        let mut tx = self.storage.write().await?;
        for (addresses, reply) in replies {
            queue(&mut tx, sender, addresses, reply).await?;
        }
        mail_store::finish_inbox(&mut tx, id, status, note).await?;
        tx.commit().await?;
        Ok(())
    }

    /// How many messages came from `from` since `since_ms`.
    pub async fn received_since(&self, from: &str, since_ms: i64) -> Result<i64> {
        let mut conn = self.storage.read().await?;
        mail_store::inbox_count_since(&mut conn, from, since_ms).await
    }

    /// How many mails of `kind` (empty: of any kind) went to `address` since `since_ms`.
    pub async fn sent_since(&self, address: &str, kind: &str, since_ms: i64) -> Result<i64> {
        let mut conn = self.storage.read().await?;
        mail_store::outbox_count_since(&mut conn, address, kind, since_ms).await
    }

    /// How many mails of `kind` with this Subject were queued since `since_ms`.
    pub async fn sent_with_subject_since(
        &self,
        kind: &str,
        subject: &str,
        since_ms: i64,
    ) -> Result<i64> {
        let mut conn = self.storage.read().await?;
        mail_store::outbox_subject_count_since(&mut conn, kind, subject, since_ms).await
    }

    /// The kind of the mail this server sent with `message_id`, if it is one of its own.
    pub async fn own_mail_kind(&self, message_id: &str) -> Result<Option<String>> {
        let mut conn = self.storage.read().await?;
        mail_store::outbox_kind_of(&mut conn, message_id).await
    }

    /// The account a mail address belongs to.
    pub async fn user_by_address(&self, address: &str) -> Result<Option<String>> {
        let mut conn = self.storage.read().await?;
        mail_store::user_by_address(&mut conn, address).await
    }

    /// A user's mail addresses; None for an unknown user.
    pub async fn addresses_of(&self, user: &str) -> Result<Option<Vec<String>>> {
        let mut conn = self.storage.read().await?;
        Ok(mail_store::mail_settings(&mut conn, user)
            .await?
            .map(|(addresses, _)| addresses))
    }
}
