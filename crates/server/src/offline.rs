//! What the `ataxx` binary does to a server's database without starting a server: `mail-in`
//! (one message into the inbox, as an MTA's pipe delivery, for the running server's mail worker),
//! `mailq` (the outbound queue and the inbox as they stand), and `backup`/`restore`. Each call
//! opens the database, does one thing through the services and closes it.

use std::path::Path;
use std::sync::Arc;

use crate::domain::clock::Clock;
use crate::domain::messages::Messages;
use crate::doors::mail::parse;
use crate::error::{Error, Result};
use crate::store::{self, backup as backups, Durability, Storage};

pub use crate::domain::messages::Stored;
pub use crate::model::{InboxRow, OutboxRow};
pub use crate::store::backup::BackupSummary;

/// The database URL of `db` (a SQLite path or a URL).
fn url_of(db: &str) -> Result<String> {
    store::database_url(db).map_err(Error::Config)
}

/// Runs `work` on the mail service over the database `db`, then closes it. `existing`: refuse a
/// database that is not a server's already, rather than create one.
async fn with_messages<T>(
    db: &str,
    existing: bool,
    work: impl AsyncFnOnce(&Messages) -> Result<T>,
) -> Result<T> {
    let url = url_of(db)?;
    let storage = match existing {
        true => Storage::open_existing(&url, Durability::Full).await?,
        false => Storage::open(&url, Durability::Full).await?,
    };
    let messages = Messages::new(storage.clone(), Arc::new(Clock::system()), None);
    let done = work(&messages).await;
    storage.close().await;
    done
}

/// `ataxx mail-in`: stores the message `raw` from the envelope sender `envelope_from` in the
/// inbox of the server database `db` (never a new database: the server would not read it, and
/// the MTA would drop the mail). A message longer than `max_bytes` is kept in part and refused
/// politely; a second copy of a Message-ID is dropped. Durable when this returns.
pub async fn mail_in(
    db: &str,
    envelope_from: &str,
    raw: &[u8],
    max_bytes: usize,
) -> Result<Stored> {
    let message_id = parse::message_id(raw);
    with_messages(db, true, async |messages: &Messages| {
        messages
            .store_inbound(envelope_from, message_id.as_deref(), raw, max_bytes)
            .await
    })
    .await
}

/// `ataxx mailq`: at most `limit` outbound mails, queued and failed first, then the latest sent.
pub async fn mailq(db: &str, limit: i64) -> Result<Vec<OutboxRow>> {
    with_messages(db, false, async |messages: &Messages| {
        messages.queue_listing(limit).await
    })
    .await
}

/// `ataxx mailq --inbox`: at most `limit` inbound messages, newest first.
pub async fn mail_inbox(db: &str, limit: i64) -> Result<Vec<InboxRow>> {
    with_messages(db, false, async |messages: &Messages| {
        messages.inbox_listing(limit).await
    })
    .await
}

/// `ataxx backup`: a consistent copy of the SQLite database `db` (the server may be running) in
/// the new file `output`, then checked; PostgreSQL is refused with a pointer to pg_dump.
pub async fn backup(db: &str, output: &Path) -> Result<BackupSummary> {
    backups::backup(&url_of(db)?, output).await?;
    backups::check_backup(output).await
}

/// `ataxx restore --check`: whether `input` is a whole server database, and what it holds.
pub async fn check_backup(input: &Path) -> Result<BackupSummary> {
    backups::check_backup(input).await
}

/// `ataxx restore`: checks `input`, then puts it in place of the (stopped) server's database
/// `db`.
pub async fn restore(input: &Path, db: &str) -> Result<BackupSummary> {
    backups::restore(input, &url_of(db)?).await
}
