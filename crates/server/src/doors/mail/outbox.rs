//! Outbound mail as the door writes it: the [`crate::domain::messages::Outgoing`] mail (queued by
//! [`crate::domain::messages`] in the transaction of the change it tells of) and the thread a
//! board's mails share. The relay sends it.

use super::MailConfig;
use crate::domain::messages::Sender;

/// The stable thread id of a board: every mail about it names it in `References`.
pub fn board_thread(board: i64, config: &MailConfig) -> String {
    format!("<board-{board}@{}>", config.domain())
}

/// Who queues mail now: the server's mail domain at `now_ms`.
pub fn sender(config: &MailConfig, now_ms: i64) -> Sender<'_> {
    Sender {
        domain: config.domain(),
        now_ms,
    }
}
