//! The mail door's records: the outbox (a row per recipient, written in the transaction of the
//! change it tells of, so a mail exists exactly when that change does), the inbox, each board's
//! mail cursor, and each account's mail settings, messages and address changes. The door
//! composes and sends; every write here is one transaction.

use std::sync::Arc;

use tokio::sync::Notify;

use crate::error::{Error, Result};
use crate::store::mail as mail_store;
use crate::store::{Storage, WriteTx};

use crate::model::{BoardCursor, InboxRow, OutboxRow};

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
async fn queue_to_user(
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

// ---------------------------------------------------------------------------------------------
// The inbox

/// A received message as the inbox took it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stored {
    /// Its inbox id (the first copy's, for a duplicate).
    pub id: i64,
    /// Whether a message with its Message-ID was stored before: this copy is dropped.
    pub duplicate: bool,
}

/// Stores a received message (its first `max_bytes`; a longer one is marked truncated and
/// answered with a refusal), unless one with the same Message-ID is stored already. Durable
/// when this returns.
pub async fn store_inbound(
    storage: &Storage,
    now_ms: i64,
    envelope_from: &str,
    message_id: Option<&str>,
    raw: &[u8],
    max_bytes: usize,
) -> Result<Stored> {
    let truncated = raw.len() > max_bytes;
    let kept = &raw[..raw.len().min(max_bytes)];
    let message_id = message_id.unwrap_or_default();
    let mut tx = storage.write().await?;
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

/// Stored messages not yet processed, oldest first.
pub async fn unprocessed(storage: &Storage, limit: i64) -> Result<Vec<InboxRow>> {
    let mut conn = storage.read().await?;
    mail_store::new_inbox(&mut conn, limit).await
}

/// Marks a message processed and queues its replies, in one transaction.
pub async fn finish_inbound(
    storage: &Storage,
    sender: &Sender<'_>,
    id: i64,
    status: &str,
    note: &str,
    replies: &[(Vec<String>, Outgoing)],
) -> Result<()> {
    let mut tx = storage.write().await?;
    for (addresses, reply) in replies {
        queue(&mut tx, sender, addresses, reply).await?;
    }
    mail_store::finish_inbox(&mut tx, id, status, note).await?;
    tx.commit().await?;
    Ok(())
}

/// How many messages came from `from` since `since_ms`.
pub async fn received_since(storage: &Storage, from: &str, since_ms: i64) -> Result<i64> {
    let mut conn = storage.read().await?;
    mail_store::inbox_count_since(&mut conn, from, since_ms).await
}

/// How many mails of `kind` (empty: of any kind) went to `address` since `since_ms`.
pub async fn sent_since(
    storage: &Storage,
    address: &str,
    kind: &str,
    since_ms: i64,
) -> Result<i64> {
    let mut conn = storage.read().await?;
    mail_store::outbox_count_since(&mut conn, address, kind, since_ms).await
}

/// How many mails of `kind` with this Subject were queued since `since_ms`.
pub async fn sent_with_subject_since(
    storage: &Storage,
    kind: &str,
    subject: &str,
    since_ms: i64,
) -> Result<i64> {
    let mut conn = storage.read().await?;
    mail_store::outbox_subject_count_since(&mut conn, kind, subject, since_ms).await
}

/// The kind of the mail this server sent with `message_id`, if it is one of its own.
pub async fn own_mail_kind(storage: &Storage, message_id: &str) -> Result<Option<String>> {
    let mut conn = storage.read().await?;
    mail_store::outbox_kind_of(&mut conn, message_id).await
}

/// The account a mail address belongs to.
pub async fn user_by_address(storage: &Storage, address: &str) -> Result<Option<String>> {
    let mut conn = storage.read().await?;
    mail_store::user_by_address(&mut conn, address).await
}

/// A user's mail addresses; None for an unknown user.
pub async fn addresses_of(storage: &Storage, user: &str) -> Result<Option<Vec<String>>> {
    let mut conn = storage.read().await?;
    Ok(mail_store::mail_settings(&mut conn, user)
        .await?
        .map(|(addresses, _)| addresses))
}

// ---------------------------------------------------------------------------------------------
// The outbox, for the sender

/// Makes mails a stopped sender had claimed due again; returns how many.
pub async fn reclaim_sending(storage: &Storage, now_ms: i64) -> Result<u64> {
    let mut tx = storage.write().await?;
    let n = mail_store::reclaim_sending(&mut tx, now_ms).await?;
    tx.commit().await?;
    Ok(n)
}

/// Mails due to be sent.
pub async fn due(storage: &Storage, now_ms: i64, limit: i64) -> Result<Vec<OutboxRow>> {
    let mut conn = storage.read().await?;
    mail_store::due_outbox(&mut conn, now_ms, limit).await
}

/// Claims a due mail until `until_ms`; false when another sender has it.
pub async fn claim(storage: &Storage, id: i64, now_ms: i64, until_ms: i64) -> Result<bool> {
    let mut tx = storage.write().await?;
    let claimed = mail_store::claim_outbox(&mut tx, id, now_ms, until_ms).await?;
    tx.commit().await?;
    Ok(claimed)
}

/// Marks a mail sent.
pub async fn mark_sent(storage: &Storage, id: i64, now_ms: i64) -> Result<()> {
    let mut tx = storage.write().await?;
    mail_store::mark_sent(&mut tx, id, now_ms).await?;
    tx.commit().await
}

/// Marks a send failed: tried again at `next_try_ms`, or never when `give_up`.
pub async fn mark_failed(
    storage: &Storage,
    id: i64,
    error: &str,
    next_try_ms: i64,
    give_up: bool,
) -> Result<()> {
    let mut tx = storage.write().await?;
    mail_store::mark_failed(&mut tx, id, error, next_try_ms, give_up).await?;
    tx.commit().await
}

// ---------------------------------------------------------------------------------------------
// Board mails

/// Boards changed since their last mail, with that mail's cursor.
pub async fn changed_boards(storage: &Storage) -> Result<Vec<(i64, Option<BoardCursor>)>> {
    let mut conn = storage.read().await?;
    mail_store::changed_boards(&mut conn).await
}

/// The ply of a board's last nag.
pub async fn nagged_ply(storage: &Storage, board: i64) -> Result<i64> {
    let mut conn = storage.read().await?;
    mail_store::nagged_ply(&mut conn, board).await
}

/// A board mail: the mail, the account setting that lets a recipient refuse it, the recipients.
pub struct BoardMail<'a> {
    pub mail: &'a Outgoing,
    pub event: &'a str,
    pub recipients: &'a [String],
}

/// Queues a board's mail, if any, and moves its cursor, in one transaction; returns how many
/// mails were queued.
pub async fn board_mailed(
    storage: &Storage,
    sender: &Sender<'_>,
    board: i64,
    mail: Option<BoardMail<'_>>,
    cursor: &BoardCursor,
) -> Result<usize> {
    let mut queued = 0;
    let mut tx = storage.write().await?;
    if let Some(mail) = mail {
        for user in mail.recipients {
            queued += queue_to_user(&mut tx, sender, user, Some(mail.event), mail.mail).await?;
        }
    }
    mail_store::save_cursor(&mut tx, board, cursor).await?;
    tx.commit().await?;
    Ok(queued)
}

// ---------------------------------------------------------------------------------------------
// Accounts' mail

/// A message queued: to whom, how many mails (one per address of those who take messages),
/// and how many addresses were held back (they had their share of messages this hour).
pub struct Sent {
    pub recipients: Vec<String>,
    pub queued: usize,
    pub held_back: usize,
}

const HOUR_MS: i64 = 3600 * 1000;

/// Queues a message to the named users (each must exist), or, with None, to everyone who takes
/// messages. An address that had `per_address_per_hour` messages in the last hour gets none.
pub async fn send_message(
    storage: &Storage,
    sender: &Sender<'_>,
    to: Option<&[String]>,
    mail: &Outgoing,
    per_address_per_hour: i64,
) -> Result<Sent> {
    let mut tx = storage.write().await?;
    let recipients = match to {
        Some(names) => {
            for name in names {
                if mail_store::mail_settings(&mut tx, name).await?.is_none() {
                    return Err(Error::UnknownUser(name.clone()));
                }
            }
            names.to_vec()
        }
        None => mail_store::all_recipients(&mut tx, "message")
            .await?
            .into_iter()
            .map(|(name, _)| name)
            .collect(),
    };
    let (mut queued, mut held_back) = (0, 0);
    let since = sender.now_ms - HOUR_MS;
    for name in &recipients {
        let Some((addresses, events)) = mail_store::mail_settings(&mut tx, name).await? else {
            continue;
        };
        if !events.iter().any(|e| e == "message") {
            continue;
        }
        for address in addresses {
            let had = mail_store::outbox_count_since(&mut tx, &address, "message", since).await?;
            if had >= per_address_per_hour {
                held_back += 1;
                continue;
            }
            queued += queue(&mut tx, sender, &[address], mail).await?;
        }
    }
    tx.commit().await?;
    Ok(Sent {
        recipients,
        queued,
        held_back,
    })
}

/// Checks a mail address before anything is mailed to it: `local@domain`, printable ASCII
/// without spaces, quotes, brackets or separators (nothing that could end a header line or
/// add a recipient), at most 254 bytes.
///
/// ```
/// use ataxx_server::domain::messages::check_address;
/// assert!(check_address("alice@example.org").is_ok());
/// assert!(check_address("x@example.org\r\nBcc: hidden@example.org").is_err());
/// assert!(check_address("a@b@c").is_err());
/// ```
pub fn check_address(address: &str) -> Result<()> {
    let bad = |why: &str| {
        Err(Error::Command(format!(
            "{address:?} is not a mail address: {why}"
        )))
    };
    let Some((local, domain)) = address.split_once('@') else {
        return bad("it has no @");
    };
    if address.len() > 254 || local.is_empty() || domain.is_empty() || domain.contains('@') {
        return bad("give one local@domain of at most 254 bytes");
    }
    let allowed = |c: char| {
        c.is_ascii_graphic()
            && !matches!(
                c,
                '<' | '>' | '"' | '(' | ')' | ',' | ';' | ':' | '\\' | '[' | ']'
            )
    };
    if !address.chars().all(allowed) || domain.starts_with('.') || domain.ends_with('.') {
        return bad("only letters, digits and .-_+ and the like, no spaces or brackets");
    }
    Ok(())
}

/// Sets the events that mail a user (space-separated).
pub async fn set_mail_events(storage: &Storage, user: &str, events: &str) -> Result<()> {
    let mut tx = storage.write().await?;
    mail_store::set_mail_events(&mut tx, user, events).await?;
    tx.commit().await
}

/// Keeps `addresses` waiting for `token` and queues the mail that asks to confirm them.
pub async fn request_address_change(
    storage: &Storage,
    sender: &Sender<'_>,
    user: &str,
    addresses: &[String],
    token: &str,
    confirmation: &Outgoing,
) -> Result<()> {
    let mut tx = storage.write().await?;
    mail_store::set_pending_addresses(&mut tx, user, &addresses.join(" "), token).await?;
    queue(&mut tx, sender, addresses, confirmation).await?;
    tx.commit().await
}

/// Makes the addresses waiting for `token` the user's; returns them (space-separated), or None
/// when no change waits for that token.
pub async fn confirm_address_change(
    storage: &Storage,
    user: &str,
    token: &str,
) -> Result<Option<String>> {
    let mut tx = storage.write().await?;
    let Some(addresses) = mail_store::take_pending_addresses(&mut tx, user, token).await? else {
        return Ok(None);
    };
    tx.commit().await?;
    Ok(Some(addresses))
}
