//! The outbox as the sender works it: claims with a lease, so that of several senders one sends
//! each mail, marks of sent and failed mails, and the take-over of a stopped sender's claims.

use super::Messages;
use crate::error::Result;
use crate::model::OutboxRow;
use crate::store::mail as mail_store;

impl Messages {
    /// Makes mails a stopped sender had claimed due again; returns how many.
    pub async fn reclaim_sending(&self, now_ms: i64) -> Result<u64> {
        let mut tx = self.storage.write().await?;
        let n = mail_store::reclaim_sending(&mut tx, now_ms).await?;
        tx.commit().await?;
        Ok(n)
    }

    /// Mails due to be sent.
    pub async fn due(&self, now_ms: i64, limit: i64) -> Result<Vec<OutboxRow>> {
        let mut conn = self.storage.read().await?;
        mail_store::due_outbox(&mut conn, now_ms, limit).await
    }

    /// Claims a due mail until `until_ms`; false when another sender has it.
    pub async fn claim(&self, id: i64, now_ms: i64, until_ms: i64) -> Result<bool> {
        let mut tx = self.storage.write().await?;
        let claimed = mail_store::claim_outbox(&mut tx, id, now_ms, until_ms).await?;
        tx.commit().await?;
        Ok(claimed)
    }

    /// Marks a mail sent.
    pub async fn mark_sent(&self, id: i64, now_ms: i64) -> Result<()> {
        let mut tx = self.storage.write().await?;
        mail_store::mark_sent(&mut tx, id, now_ms).await?;
        tx.commit().await
    }

    /// Marks a send failed: tried again at `next_try_ms`, or never when `give_up`.
    pub async fn mark_failed(
        &self,
        id: i64,
        error: &str,
        next_try_ms: i64,
        give_up: bool,
    ) -> Result<()> {
        let mut tx = self.storage.write().await?;
        mail_store::mark_failed(&mut tx, id, error, next_try_ms, give_up).await?;
        tx.commit().await
    }

    /// At most `limit` mails, queued and failed first, then the latest sent (`ataxx mailq`).
    pub async fn queue_listing(&self, limit: i64) -> Result<Vec<OutboxRow>> {
        let mut conn = self.storage.read().await?;
        mail_store::outbox(&mut conn, limit).await
    }
}
