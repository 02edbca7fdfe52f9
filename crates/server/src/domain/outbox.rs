//! The outbox port: what a mail to queue is ([`Outgoing`]), the [`Outbox`] the mail door drains,
//! and [`queue`], which writes one row per recipient inside the transaction of the change the
//! mail tells of, so that a mail exists exactly when that change does.

use std::sync::Arc;

use tokio::sync::Notify;

use crate::error::Result;
use crate::model::OutboxRow;
use crate::store::mail as mail_store;
use crate::store::WriteTx;

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

/// The domain's way to queue mail, which the mail door drains: the domain that names the
/// Message-IDs and the board threads, who may `broadcast`, the site that reset mails link to,
/// and a bell rung when mail is queued. A server that sends no mail has none.
#[derive(Clone, Debug)]
pub struct Outbox {
    domain: Arc<str>,
    broadcasters: Arc<[String]>,
    site_url: Option<Arc<str>>,
    queued: Arc<Notify>,
}

impl Outbox {
    /// The outbox of mails whose Message-IDs `domain` names.
    pub fn new(domain: &str, broadcasters: &[String], site_url: Option<&str>) -> Outbox {
        Outbox {
            domain: domain.into(),
            broadcasters: broadcasters.into(),
            site_url: site_url.map(Into::into),
            queued: Arc::new(Notify::new()),
        }
    }

    /// Who queues mail now: the server's mail domain at `now_ms`.
    pub fn sender(&self, now_ms: i64) -> Sender<'_> {
        Sender {
            domain: &self.domain,
            now_ms,
        }
    }

    /// The stable thread id of a board: every mail about it names it in `References`.
    pub fn board_thread(&self, board: i64) -> String {
        format!("<board-{board}@{}>", self.domain)
    }

    /// Whether `user` may mail everyone.
    pub fn may_broadcast(&self, user: &str) -> bool {
        self.broadcasters.iter().any(|a| a == user)
    }

    /// The site's public URL, that reset mails link to.
    pub fn site_url(&self) -> Option<&str> {
        self.site_url.as_deref()
    }

    /// Tells the sender that mail is queued.
    pub fn ring(&self) {
        self.queued.notify_one();
    }

    /// Waits until mail is queued.
    pub async fn rung(&self) {
        self.queued.notified().await;
    }
}

/// Where queued mails go, and the domain that names their Message-IDs.
pub struct Sender<'a> {
    pub domain: &'a str,
    pub now_ms: i64,
}

/// Queues `mail` to each address; returns how many were queued.
pub(crate) async fn queue(
    tx: &mut WriteTx,
    sender: &Sender<'_>,
    addresses: &[String],
    mail: &Outgoing,
) -> Result<usize> {
    for address in addresses {
        let row = OutboxRow {
            id: 0,
            created_ms: sender.now_ms,
            recipient: address.clone(),
            kind: mail.kind.clone(),
            subject: mail.subject.clone(),
            body: mail.body.clone(),
            message_id: String::new(),
            in_reply_to: mail.in_reply_to.clone(),
            refs: mail.refs.clone(),
            status: String::new(),
            attempts: 0,
            next_try_ms: sender.now_ms,
            last_error: String::new(),
            sent_ms: None,
        };
        mail_store::insert_outbox(tx, &row, sender.domain).await?;
    }
    Ok(addresses.len())
}

/// Queues `mail` to a user's addresses if they take mails of `event` (None: always, as for
/// the reply to their own command). Users without addresses (bots) get nothing.
pub(crate) async fn queue_to_user(
    tx: &mut WriteTx,
    sender: &Sender<'_>,
    user: &str,
    event: Option<&str>,
    mail: &Outgoing,
) -> Result<usize> {
    let Some((addresses, events)) = mail_store::mail_settings(tx, user).await? else {
        return Ok(0);
    };
    if event.is_some_and(|e| !events.iter().any(|have| have == e)) {
        return Ok(0);
    }
    queue(tx, sender, &addresses, mail).await
}
