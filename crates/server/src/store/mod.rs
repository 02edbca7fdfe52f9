//! The database: a pool (and on SQLite one write connection), migrations at start, and every
//! query the server runs.
//!
//! SQL here is portable (SQLite and PostgreSQL): `$n` parameters (bound, never spliced), no
//! autoincrement, BIGINT flags; both databases run the same migrations. On SQLite, writers queue
//! for the one write connection, so SQLite never sees two writers of this process (its WAL mode
//! would refuse the second with a busy snapshot). On PostgreSQL, which several server nodes
//! share, there is no process lock: a write that reads a board to change it locks the board's
//! row ([`game_for_update`]), a finished game locks its players' rating rows in name order
//! ([`lock_ratings`]), and board numbers come from a counter row ([`next_board`]). Only those
//! helpers differ by database ([`is_postgres`]); every other query is the same text on both.
//!
//! Durability on SQLite: commits run with `synchronous = NORMAL` (written to the WAL, not yet
//! flushed), and [`WriteTx::commit`] then waits for a flush of the WAL file that one task makes
//! for every commit queued while the previous flush ran (group commit). A commit is therefore on
//! disk before it returns, as with `synchronous = FULL`, but concurrent games share the flushes
//! instead of queueing behind one each. [`Durability::Normal`] skips the wait: commits then survive a
//! crash of the server process (SIGKILL), not of the machine.

use std::path::PathBuf;
use std::sync::Arc;

use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::{Any, AnyPool};

use crate::error::{Error, Result};

mod admin;
mod analysis;
mod api_tokens;
pub mod backup;
mod board;
mod chat;
mod games;
mod in_use;
pub mod limits;
pub mod mail;
mod moderation;
mod moves;
pub mod notices;
mod open;
mod presence;
mod queued;
mod ratings;
mod resets;
mod retry;
mod search;
pub mod seeks;
mod sessions;
mod subscriptions;
pub mod totp;
pub mod tournaments;
mod tx;
mod users;
mod vacations;
mod write_health;

// The tables' queries, one file per table family, called as `store::game(…)`.
pub use admin::*;
pub use analysis::*;
pub use api_tokens::*;
pub use board::*;
pub use chat::*;
pub use games::*;
pub use moderation::*;
pub use moves::*;
use open::{create_database, migrations, sqlite_file};
pub use open::{database_url, is_postgres, migrations_done};
pub use presence::*;
pub use queued::*;
pub use ratings::*;
pub use resets::*;
pub use retry::retry_conflicts;
pub use search::search_games;
pub use sessions::*;
pub use subscriptions::*;
pub use totp::*;
pub use tx::WriteTx;
use tx::{checkpoints, sqlite_session, Flusher, Writer};
pub use users::*;
pub use vacations::*;

/// A database connection, as the store's queries take it.
pub type Conn = sqlx::AnyConnection;

/// A pooled connection for reads.
pub type ReadConn = sqlx::pool::PoolConnection<Any>;

impl From<sqlx::Error> for Error {
    fn from(err: sqlx::Error) -> Error {
        Error::Database(Box::new(err))
    }
}

/// How far a commit goes before it returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Durability {
    /// On disk (the WAL file flushed).
    #[default]
    Full,
    /// In the operating system's hands: survives a crash of the process, not of the machine.
    Normal,
}

/// The database and its write lock.
#[derive(Clone)]
pub struct Storage {
    /// Reads, and on PostgreSQL writes too.
    pool: AnyPool,
    /// SQLite's one write connection, which is also its one-writer lock; None on PostgreSQL
    /// (row locks instead, across nodes).
    writer: Option<Writer>,
    flusher: Option<Flusher>,
    write_health: write_health::WriteHealth,
    /// SQLite: the shared lock on the file that keeps `ataxx restore` away while it is open.
    _in_use: Option<in_use::InUse>,
    url: Arc<str>,
}

impl Storage {
    /// Connects (creating a SQLite file if needed) and applies pending migrations.
    pub async fn open(url: &str, sync: Durability) -> Result<Storage> {
        sqlx::any::install_default_drivers();
        let options: AnyConnectOptions = url.parse().map_err(|err: sqlx::Error| {
            Error::Config(format!(
                "database URL {:?}: {}",
                crate::redact::redact_url(url),
                crate::redact::scrub(&err.to_string(), url)
            ))
        })?;
        let sqlite = url.starts_with("sqlite:");
        if !sqlite {
            create_database(url).await?;
        }
        let pool = AnyPoolOptions::new()
            .max_connections(if sqlite { 4 } else { 16 })
            // A ping before each use finds PostgreSQL connections that died while idle; a
            // SQLite connection is a file in this process, and its ping cost a round trip to its
            // worker thread for every read (a move made three).
            .test_before_acquire(!sqlite)
            .after_connect(move |conn, _meta| {
                Box::pin(async move {
                    if sqlite {
                        sqlite_session(conn).await?;
                    }
                    Ok(())
                })
            })
            .connect_with(options.clone())
            .await
            .map_err(|err| {
                Error::Config(format!(
                    "cannot open database {:?}: {}",
                    crate::redact::redact_url(url),
                    crate::redact::scrub(&err.to_string(), url)
                ))
            })?;
        // The file exists once the pool has connected (mode=rwc creates it).
        let in_use = sqlite_file(url)
            .map(|file| in_use::InUse::share(&file))
            .transpose()?;
        migrations()
            .run(&pool)
            .await
            .map_err(|err| Error::Config(format!("database migration failed: {err}")))?;
        if sqlite {
            tokio::spawn(checkpoints(pool.clone()));
        }
        let flusher = match (sqlite_file(url), sync) {
            (Some(db), Durability::Full) => {
                let mut wal = db.into_os_string();
                wal.push("-wal");
                Some(Flusher::start(PathBuf::from(wal)))
            }
            _ => None,
        };
        Ok(Storage {
            pool,
            writer: sqlite.then(|| Writer::new(options)),
            flusher,
            write_health: Default::default(),
            _in_use: in_use,
            url: url.into(),
        })
    }

    /// [`Storage::open`] for a database that must already be a server's (see
    /// `open::require_server_database`): nothing is created.
    pub async fn open_existing(url: &str, sync: Durability) -> Result<Storage> {
        open::require_server_database(url).await?;
        Storage::open(url, sync).await
    }

    /// The database URL (it may hold a password: print it through [`crate::redact`]).
    pub fn url(&self) -> &str {
        &self.url
    }

    /// Whether several server nodes may share this database (PostgreSQL).
    pub fn is_shared(&self) -> bool {
        self.writer.is_none()
    }

    /// A connection for reads.
    pub async fn read(&self) -> Result<ReadConn> {
        Ok(self.pool.acquire().await?)
    }

    pub fn is_closed(&self) -> bool {
        self.pool.is_closed()
    }

    pub async fn close(&self) {
        self.pool.close().await;
    }
}
