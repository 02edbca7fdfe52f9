//! Board mails' records: each board's mail cursor (what its last mail told), and the queueing
//! of a board's mail with the cursor's move, in one transaction.

use super::Messages;
use crate::domain::outbox::{queue_to_user, Outgoing, Sender};
use crate::error::Result;
use crate::model::BoardCursor;
use crate::store::mail as mail_store;

/// A board mail: the mail, the account setting that lets a recipient refuse it, the recipients.
pub struct BoardMail<'a> {
    pub mail: &'a Outgoing,
    pub event: &'a str,
    pub recipients: &'a [String],
}

impl Messages {
    /// Boards changed since their last mail, with that mail's cursor.
    pub async fn changed_boards(&self) -> Result<Vec<(i64, Option<BoardCursor>)>> {
        let mut conn = self.storage.read().await?;
        mail_store::changed_boards(&mut conn).await
    }

    /// The ply of a board's last nag.
    pub async fn nagged_ply(&self, board: i64) -> Result<i64> {
        let mut conn = self.storage.read().await?;
        mail_store::nagged_ply(&mut conn, board).await
    }

    /// Queues a board's mail, if any, and moves its cursor, in one transaction; returns how many
    /// mails were queued.
    pub async fn board_mailed(
        &self,
        sender: &Sender<'_>,
        board: i64,
        mail: Option<BoardMail<'_>>,
        cursor: &BoardCursor,
    ) -> Result<usize> {
        let mut queued = 0;
        let mut tx = self.storage.write().await?;
        if let Some(mail) = mail {
            for user in mail.recipients {
                queued += queue_to_user(&mut tx, sender, user, Some(mail.event), mail.mail).await?;
            }
        }
        mail_store::save_cursor(&mut tx, board, cursor).await?;
        tx.commit().await?;
        Ok(queued)
    }
}
