//! Write transactions: SQLite's one write connection, BEGIN/COMMIT issued by hand so that a
//! failed commit never leaves a connection inside a transaction, and the group commit that
//! flushes the WAL once for every commit queued while the last flush ran.
//!
//! On SQLite every request is a round trip to the connection's thread (sqlx gives each SQLite
//! connection a thread of its own), and the write connection is held, so every other writer
//! waits, for all the round trips of a transaction. A move's transaction therefore makes as few
//! as it can (issue #29): its BEGIN goes with the read of its board
//! ([`Storage::begin_on_writer`]), and its last writes go with its COMMIT
//! ([`WriteTx::write_at_commit`]). sqlx 0.8 runs the statements of a SQLite request one after
//! the other, binding `$n` in each to the request's n-th argument; it calls that behaviour
//! deprecated (launchbadge/sqlx#3108), so an upgrade of sqlx has to keep it or replace this
//! (the test `move_cost` counts the requests, and every write of the tests goes through it).

use std::path::PathBuf;
use std::sync::Arc;

use sqlx::any::{AnyArguments, AnyConnectOptions, AnyRow};
use sqlx::pool::PoolConnection;
use sqlx::{Any, AnyConnection, AnyPool, Arguments, Connection, Executor};
use tokio::sync::{mpsc, oneshot, Mutex, OwnedMutexGuard};

use super::write_health::WriteHealth;
use super::Storage;
use crate::error::{Error, Result};

/// SQLite's write connection: opened when first needed and again after one was closed.
/// Writers queue for it instead of taking a pooled connection under a lock, so a write never
/// waits for a reader's connection, and its page cache stays warm across transactions.
#[derive(Clone)]
pub(super) struct Writer {
    connection: Arc<Mutex<Option<AnyConnection>>>,
    options: AnyConnectOptions,
}

impl Writer {
    /// A write connection to be opened when first needed.
    pub(super) fn new(options: AnyConnectOptions) -> Writer {
        Writer {
            connection: Arc::new(Mutex::new(None)),
            options,
        }
    }

    /// Waits for the write connection; opens it if there is none.
    async fn take(&self) -> Result<OwnedMutexGuard<Option<AnyConnection>>> {
        let mut guard = self.connection.clone().lock_owned().await;
        if guard.is_none() {
            let mut conn = AnyConnection::connect_with(&self.options).await?;
            sqlite_session(&mut conn).await?;
            *guard = Some(conn);
        }
        Ok(guard)
    }
}

/// The settings of every SQLite connection.
pub(super) async fn sqlite_session(
    conn: &mut AnyConnection,
) -> std::result::Result<(), sqlx::Error> {
    // WAL lets readers run beside the writer; the flusher makes commits durable (see the
    // module documentation).
    conn.execute("PRAGMA journal_mode = WAL").await?;
    conn.execute("PRAGMA synchronous = NORMAL").await?;
    conn.execute("PRAGMA foreign_keys = ON").await?;
    conn.execute("PRAGMA busy_timeout = 5000").await?;
    // Checkpoints run in the background (see `checkpoints`), not inside the commit that
    // happens to fill the WAL.
    conn.execute("PRAGMA wal_autocheckpoint = 0").await?;
    // When SQLite starts the WAL over, it cuts the file back to this size.
    conn.execute("PRAGMA journal_size_limit = 4194304").await?;
    Ok(())
}

/// The connection a write transaction runs on.
enum TxConnection {
    /// From the pool (PostgreSQL).
    Pooled(PoolConnection<Any>),
    /// SQLite's write connection, held (and so the write lock) until the transaction ends.
    Writer(OwnedMutexGuard<Option<AnyConnection>>),
}

impl TxConnection {
    fn connection(&mut self) -> &mut AnyConnection {
        match self {
            TxConnection::Pooled(conn) => conn,
            TxConnection::Writer(guard) => guard.as_mut().expect("the write connection is open"),
        }
    }

    /// Closes the connection, ending whatever is left of its transaction on both databases;
    /// the pool, or the next writer, opens a fresh one.
    async fn close(self) {
        let _ = match self {
            TxConnection::Pooled(conn) => conn.close().await,
            TxConnection::Writer(mut guard) => match guard.take() {
                Some(conn) => conn.close().await,
                None => Ok(()),
            },
        };
    }
}

/// A write transaction on a connection of its own, holding the write lock until it commits or
/// is dropped (then rolled back). Dereferences to its connection for the queries inside it.
///
/// BEGIN and COMMIT are plain statements rather than sqlx's `Transaction`, whose bookkeeping
/// goes wrong when a COMMIT fails: SQLite may roll back by itself on a full disk, sqlx's ROLLBACK
/// then fails and it still counts the connection as inside a transaction, so the next
/// transactions on that pooled connection became savepoints of one that never committed, each
/// answered as done (issue #28). Here a connection whose COMMIT or ROLLBACK did not succeed, or
/// was interrupted, is closed instead of being used again: its state is unknown.
pub struct WriteTx {
    /// None once committed or handed to the rollback.
    conn: Option<TxConnection>,
    /// Set while BEGIN or COMMIT runs: dropped then, the connection's state is unknown.
    in_flight: bool,
    flusher: Option<Flusher>,
    write_health: WriteHealth,
    /// Writes to send with the COMMIT ([`WriteTx::write_at_commit`]): statements ending in
    /// `; `, their parameters numbered as one list.
    at_commit: String,
    at_commit_arguments: AnyArguments<'static>,
}

impl WriteTx {
    /// Commits, lets the next writer in, and returns once the commit is durable. An error means
    /// the transaction may not have committed; nothing it wrote may be announced.
    pub async fn commit(self) -> Result<()> {
        let write_health = self.write_health.clone();
        let outcome = self.commit_durably().await;
        write_health.record(&outcome);
        outcome
    }

    async fn commit_durably(mut self) -> Result<()> {
        let started = std::time::Instant::now();
        let database = match self.conn {
            Some(TxConnection::Pooled(_)) => "postgres",
            _ => "sqlite",
        };
        self.in_flight = true;
        let committed = if self.at_commit.is_empty() {
            self.execute("COMMIT").await
        } else {
            let mut sql = std::mem::take(&mut self.at_commit);
            sql.push_str("COMMIT");
            let arguments = std::mem::take(&mut self.at_commit_arguments);
            sqlx::query_with(&sql, arguments).execute(&mut *self).await
        };
        if let Err(err) = committed {
            if let Some(conn) = self.conn.take() {
                conn.close().await;
            }
            return Err(err.into());
        }
        self.in_flight = false;
        // Back to the pool, or the next writer in.
        self.conn = None;
        if let Some(flusher) = &self.flusher {
            flusher.flush().await?;
        }
        crate::metrics::metrics()
            .commit_seconds
            .with_label_values(&[database])
            .observe(crate::metrics::seconds_since(started));
        Ok(())
    }
}

impl WriteTx {
    /// Whether writes may wait for the COMMIT ([`WriteTx::write_at_commit`]): on SQLite's write
    /// connection, whose statements all go to its thread in one request.
    pub(super) fn defers_writes(&self) -> bool {
        matches!(self.conn, Some(TxConnection::Writer(_)))
    }

    /// Keeps a write, `sql` with its parameters `$1`, `$2`, … bound by `add_arguments`, to send
    /// with the COMMIT, in one round trip to the write connection's thread instead of one each.
    /// Only for a transaction's last writes: a statement run before the COMMIT would not see
    /// them. Only where [`WriteTx::defers_writes`].
    pub(super) fn write_at_commit(
        &mut self,
        sql: &str,
        add_arguments: impl FnOnce(&mut AnyArguments<'static>) -> Result<()>,
    ) -> Result<()> {
        // The statement's parameters follow those of the writes kept before it.
        let offset = self.at_commit_arguments.len();
        add_arguments(&mut self.at_commit_arguments)?;
        push_renumbered(&mut self.at_commit, sql, offset);
        self.at_commit.push_str("; ");
        Ok(())
    }
}

/// Appends `sql` to `out` with each parameter `$n` written `$(n + offset)`.
fn push_renumbered(out: &mut String, sql: &str, offset: usize) {
    let mut rest = sql;
    while let Some(at) = rest.find('$') {
        out.push_str(&rest[..=at]);
        rest = &rest[at + 1..];
        let digits = rest
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(rest.len());
        match rest[..digits].parse::<usize>() {
            Ok(number) => out.push_str(&(number + offset).to_string()),
            Err(_) => out.push_str(&rest[..digits]),
        }
        rest = &rest[digits..];
    }
    out.push_str(rest);
}

impl std::ops::Deref for WriteTx {
    type Target = AnyConnection;

    fn deref(&self) -> &AnyConnection {
        match self.conn.as_ref().expect("a write transaction in progress") {
            TxConnection::Pooled(conn) => conn,
            TxConnection::Writer(guard) => guard.as_ref().expect("the write connection is open"),
        }
    }
}

impl std::ops::DerefMut for WriteTx {
    fn deref_mut(&mut self) -> &mut AnyConnection {
        self.conn
            .as_mut()
            .expect("a write transaction in progress")
            .connection()
    }
}

impl Drop for WriteTx {
    /// An uncommitted transaction is rolled back by a task that then lets the next writer in; a
    /// connection whose rollback fails, or whose BEGIN or COMMIT was cut short, is closed
    /// rather than used again.
    fn drop(&mut self) {
        let Some(mut conn) = self.conn.take() else {
            return;
        };
        let runtime = tokio::runtime::Handle::try_current();
        let (false, Ok(runtime)) = (self.in_flight, runtime) else {
            // Without a runtime to close it on: the pool closes its connection when dropped,
            // and the write connection is dropped (closing it) out of its slot.
            match &mut conn {
                TxConnection::Pooled(pooled) => pooled.close_on_drop(),
                TxConnection::Writer(guard) => drop(guard.take()),
            }
            return;
        };
        runtime.spawn(async move {
            if let Err(err) = conn.connection().execute("ROLLBACK").await {
                tracing::warn!(%err, "rollback failed; closing the connection");
                conn.close().await;
            }
        });
    }
}

type FlushWaiter = oneshot::Sender<std::result::Result<(), String>>;

/// Flushes the SQLite WAL file for every commit waiting, one flush per round.
#[derive(Clone)]
pub(super) struct Flusher {
    requests: mpsc::UnboundedSender<FlushWaiter>,
}

impl Flusher {
    pub(super) fn start(wal: PathBuf) -> Flusher {
        let (requests, mut queue) = mpsc::unbounded_channel::<FlushWaiter>();
        tokio::spawn(async move {
            while let Some(first) = queue.recv().await {
                let mut waiters = vec![first];
                while let Ok(next) = queue.try_recv() {
                    waiters.push(next);
                }
                let path = wal.clone();
                // Opened by path each round, so a WAL file SQLite recreated is the one flushed.
                let flushed = tokio::task::spawn_blocking(move || {
                    std::fs::OpenOptions::new()
                        .write(true)
                        .open(&path)
                        .and_then(|file| file.sync_data())
                        .map_err(|err| format!("flushing {}: {err}", path.display()))
                })
                .await
                .unwrap_or_else(|err| Err(err.to_string()));
                for waiter in waiters {
                    let _ = waiter.send(flushed.clone());
                }
            }
        });
        Flusher { requests }
    }

    async fn flush(&self) -> Result<()> {
        let (done, flushed) = oneshot::channel();
        self.requests
            .send(done)
            .map_err(|_| Error::Config("the WAL flusher stopped".into()))?;
        flushed
            .await
            .map_err(|_| Error::Config("the WAL flusher stopped".into()))?
            .map_err(Error::Config)
    }
}

/// A WAL holding more than this many pages (4 KiB each) after a passive checkpoint is emptied
/// with a truncating one.
const WAL_TRUNCATE_PAGES: i64 = 1024;

/// Copies the WAL into the database file four times a second without blocking writers (a
/// passive checkpoint; one that finds nothing to copy costs next to nothing), until the pool
/// closes. Under steady play readers always hold a snapshot, so SQLite seldom starts the WAL
/// over and the file only grew (55 MB for a 643 KB database, issue #50): past
/// [`WAL_TRUNCATE_PAGES`] a truncating checkpoint waits for the readers (at most the busy
/// timeout, blocking writers meanwhile), copies the rest and empties the file.
pub(super) async fn checkpoints(pool: AnyPool) {
    let mut ticker = tokio::time::interval(std::time::Duration::from_millis(250));
    while !pool.is_closed() {
        ticker.tick().await;
        let checkpointed = async {
            // (busy, pages in the WAL, pages copied)
            let (_, pages, _): (i64, i64, i64) = sqlx::query_as("PRAGMA wal_checkpoint(PASSIVE)")
                .fetch_one(&pool)
                .await?;
            if pages > WAL_TRUNCATE_PAGES {
                sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)")
                    .execute(&pool)
                    .await?;
            }
            Ok::<_, sqlx::Error>(())
        };
        if let Err(err) = checkpointed.await {
            if !pool.is_closed() {
                tracing::warn!(%err, "WAL checkpoint");
            }
        }
    }
}

impl Storage {
    /// On SQLite: takes the write connection and runs `sql`, which begins the transaction
    /// (`BEGIN IMMEDIATE; …`) and reads what it is to change, in one round trip to the
    /// connection's thread; answers the transaction and the rows read. None on PostgreSQL, where
    /// a parameterized request holds one statement.
    pub(super) async fn begin_on_writer(
        &self,
        sql: &str,
        arguments: AnyArguments<'_>,
    ) -> Result<Option<(WriteTx, Vec<AnyRow>)>> {
        let Some(writer) = &self.writer else {
            return Ok(None);
        };
        let mut tx = self.beginning(TxConnection::Writer(writer.take().await?));
        let rows = sqlx::query_with(sql, arguments).fetch_all(&mut *tx).await?;
        tx.in_flight = false;
        Ok(Some((tx, rows)))
    }

    /// A transaction on `conn` whose BEGIN is about to run (so, dropped now, its connection is
    /// closed: see `in_flight`).
    fn beginning(&self, conn: TxConnection) -> WriteTx {
        WriteTx {
            conn: Some(conn),
            in_flight: true,
            flusher: self.flusher.clone(),
            write_health: self.write_health.clone(),
            at_commit: String::new(),
            at_commit_arguments: AnyArguments::default(),
        }
    }

    /// Starts a write transaction (waiting for the write lock).
    pub async fn write(&self) -> Result<WriteTx> {
        let (conn, begin) = match &self.writer {
            // IMMEDIATE takes SQLite's write lock now, waiting for it (busy_timeout) while
            // another process writes, rather than at the first write, where a snapshot older
            // than that process's commit fails at once.
            Some(writer) => (
                TxConnection::Writer(writer.take().await?),
                "BEGIN IMMEDIATE",
            ),
            None => (TxConnection::Pooled(self.pool.acquire().await?), "BEGIN"),
        };
        let mut tx = self.beginning(conn);
        tx.execute(begin).await?;
        tx.in_flight = false;
        Ok(tx)
    }
}

#[cfg(test)]
mod tests {
    use super::push_renumbered;

    #[test]
    fn parameters_are_numbered_after_those_kept_before() {
        let mut sql = String::from("UPDATE a SET x = $1 WHERE id = $2; ");
        push_renumbered(&mut sql, "UPDATE b SET y = $2, z = $10 WHERE id = $1", 2);
        assert_eq!(
            sql,
            "UPDATE a SET x = $1 WHERE id = $2; UPDATE b SET y = $4, z = $12 WHERE id = $3"
        );
        let mut sql = String::new();
        push_renumbered(&mut sql, "SELECT '$' || $1 AS $x", 5);
        assert_eq!(sql, "SELECT '$' || $6 AS $x");
    }
}
