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

use std::borrow::Cow;
use std::path::PathBuf;
use std::sync::{Arc, LazyLock};

use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::migrate::{Migration, MigrationType, Migrator};
use sqlx::pool::PoolConnection;
use sqlx::{Any, AnyConnection, AnyPool, Connection, Executor, Row};
use tokio::sync::{mpsc, oneshot, Mutex, OwnedMutexGuard};

use crate::error::{Error, Result};

pub mod limits;
pub mod mail;
pub mod seeks;

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
    url: Arc<str>,
}

/// SQLite's write connection: opened when first needed and again after one was closed.
/// Writers queue for it instead of taking a pooled connection under a lock, so a write never
/// waits for a reader's connection, and its page cache stays warm across transactions.
#[derive(Clone)]
struct Writer {
    connection: Arc<Mutex<Option<AnyConnection>>>,
    options: AnyConnectOptions,
}

impl Writer {
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
async fn sqlite_session(conn: &mut AnyConnection) -> std::result::Result<(), sqlx::Error> {
    // WAL lets readers run beside the writer; the flusher makes commits durable (see the
    // module documentation).
    conn.execute("PRAGMA journal_mode = WAL").await?;
    conn.execute("PRAGMA synchronous = NORMAL").await?;
    conn.execute("PRAGMA foreign_keys = ON").await?;
    conn.execute("PRAGMA busy_timeout = 5000").await?;
    // Checkpoints run in the background (see `checkpoints`), not inside the commit that
    // happens to fill the WAL.
    conn.execute("PRAGMA wal_autocheckpoint = 0").await?;
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
}

impl WriteTx {
    /// Commits, lets the next writer in, and returns once the commit is durable. An error means
    /// the transaction may not have committed; nothing it wrote may be announced.
    pub async fn commit(mut self) -> Result<()> {
        self.in_flight = true;
        if let Err(err) = self.execute("COMMIT").await {
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
        Ok(())
    }
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

/// How many times a transaction PostgreSQL aborted to break a deadlock or a serialization
/// conflict is run again before the error goes to the caller.
pub const CONFLICT_RETRIES: u32 = 3;

/// Whether PostgreSQL aborted the transaction to resolve a conflict with another one
/// (SQLSTATE 40001 serialization failure, 40P01 deadlock): running it again may succeed.
pub fn is_conflict(err: &Error) -> bool {
    match err {
        Error::Database(sqlx::Error::Database(db)) => {
            matches!(db.code().as_deref(), Some("40001" | "40P01"))
        }
        _ => false,
    }
}

/// Runs a whole transaction (`attempt` begins, does and commits it) and runs it again, up to
/// [`CONFLICT_RETRIES`] times after a short random pause, when PostgreSQL aborted it as the
/// loser of a deadlock or serialization conflict: the other transaction has then gone through,
/// and the retry sees its result.
pub async fn retry_conflicts<T, F, Fut>(what: &str, mut attempt: F) -> Result<T>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Result<T>>,
{
    let mut retries = 0;
    loop {
        match attempt().await {
            Err(err) if is_conflict(&err) && retries < CONFLICT_RETRIES => {
                retries += 1;
                tracing::info!(%err, retry = retries, "{what}: conflict with another transaction, retrying");
                let pause = std::time::Duration::from_millis(rand::random_range(5..50));
                tokio::time::sleep(pause).await;
            }
            done => return done,
        }
    }
}

type FlushWaiter = oneshot::Sender<std::result::Result<(), String>>;

/// Flushes the SQLite WAL file for every commit waiting, one flush per round.
#[derive(Clone)]
struct Flusher {
    requests: mpsc::UnboundedSender<FlushWaiter>,
}

impl Flusher {
    fn start(wal: PathBuf) -> Flusher {
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

/// Copies the WAL into the database file once a second without blocking writers (a passive
/// checkpoint), until the pool closes.
async fn checkpoints(pool: AnyPool) {
    let mut ticker = tokio::time::interval(std::time::Duration::from_secs(1));
    while !pool.is_closed() {
        ticker.tick().await;
        if let Err(err) = sqlx::query("PRAGMA wal_checkpoint(PASSIVE)")
            .execute(&pool)
            .await
        {
            if !pool.is_closed() {
                tracing::warn!(%err, "WAL checkpoint");
            }
        }
    }
}

/// Creates a PostgreSQL database named by `url` when it does not exist yet (as SQLite creates
/// its file); two nodes starting at once may both try, and the loser finds it made.
async fn create_database(url: &str) -> Result<()> {
    use sqlx::migrate::MigrateDatabase;
    let fail = |err: sqlx::Error| {
        Error::Config(format!(
            "cannot create database {:?}: {}",
            crate::redact::redact_url(url),
            crate::redact::scrub(&err.to_string(), url)
        ))
    };
    if Any::database_exists(url).await.map_err(fail)? {
        return Ok(());
    }
    match Any::create_database(url).await {
        Ok(()) => Ok(()),
        Err(_) if Any::database_exists(url).await.unwrap_or(false) => Ok(()),
        Err(err) => Err(fail(err)),
    }
}

/// Whether a connection is to PostgreSQL (whose row locks several nodes rely on).
pub fn is_postgres(conn: &AnyConnection) -> bool {
    conn.backend_name() == "PostgreSQL"
}

/// The file of a `sqlite://PATH?...` URL (None for in-memory databases).
fn sqlite_file(url: &str) -> Option<PathBuf> {
    let rest = url
        .strip_prefix("sqlite://")
        .or_else(|| url.strip_prefix("sqlite:"))?;
    let path = rest.split('?').next()?;
    (!path.is_empty() && !path.starts_with(":memory:")).then(|| PathBuf::from(path))
}

/// Turns a `--db` argument into a database URL: URLs pass through, anything else is a SQLite
/// file path (created if missing).
pub fn database_url(db: &str) -> std::result::Result<String, String> {
    if db.contains("://") {
        return Ok(db.to_string());
    }
    if db.contains(['?', '#']) {
        return Err(format!(
            "database path {db:?} contains '?' or '#'; rename the file or pass a sqlite:// URL"
        ));
    }
    Ok(format!("sqlite://{db}?mode=rwc"))
}

fn migrations() -> Migrator {
    migrations_up_to(i64::MAX)
}

/// The migrations up to `last` (tests build old databases with fewer).
fn migrations_up_to(last: i64) -> Migrator {
    let files: [(i64, &str, &str); 9] = [
        (1, "init", include_str!("../../migrations/0001_init.sql")),
        (
            2,
            "queued moves",
            include_str!("../../migrations/0002_queued_moves.sql"),
        ),
        (
            3,
            "subscriptions",
            include_str!("../../migrations/0003_subscriptions.sql"),
        ),
        (
            4,
            "game kinds and seats",
            include_str!("../../migrations/0004_game_kinds_and_seats.sql"),
        ),
        (5, "mail", include_str!("../../migrations/0005_mail.sql")),
        (6, "seeks", include_str!("../../migrations/0006_seeks.sql")),
        (
            7,
            "cluster",
            include_str!("../../migrations/0007_cluster.sql"),
        ),
        (
            8,
            "rate limits",
            include_str!("../../migrations/0008_rate_limits.sql"),
        ),
        (
            9,
            "id counters",
            include_str!("../../migrations/0009_id_counters.sql"),
        ),
    ];
    Migrator {
        migrations: Cow::Owned(
            files
                .iter()
                .filter(|(version, _, _)| *version <= last)
                .map(|&(version, name, sql)| {
                    Migration::new(
                        version,
                        name.into(),
                        MigrationType::Simple,
                        sql.into(),
                        false,
                    )
                })
                .collect(),
        ),
        ignore_missing: false,
        locking: true,
        no_tx: false,
    }
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
            writer: sqlite.then(|| Writer {
                connection: Arc::new(Mutex::new(None)),
                options,
            }),
            flusher,
            url: url.into(),
        })
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
    pub async fn read(&self) -> Result<sqlx::pool::PoolConnection<Any>> {
        Ok(self.pool.acquire().await?)
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
        let mut tx = WriteTx {
            conn: Some(conn),
            in_flight: true,
            flusher: self.flusher.clone(),
        };
        tx.execute(begin).await?;
        tx.in_flight = false;
        Ok(tx)
    }

    pub fn is_closed(&self) -> bool {
        self.pool.is_closed()
    }

    pub async fn close(&self) {
        self.pool.close().await;
    }
}

// ---------------------------------------------------------------------------------------------
// Users

/// A user row.
#[derive(Clone, Debug)]
pub struct UserRow {
    pub name: String,
    pub password_hash: String,
    pub addresses: String,
    pub bot_level: Option<String>,
    pub refuses_challenges: bool,
    pub game_limit: Option<i64>,
    pub created_ms: i64,
}

const USER_COLUMNS: &str =
    "name, password_hash, addresses, bot_level, refuses_challenges, game_limit, created_ms";

fn user_from_row(row: &sqlx::any::AnyRow) -> Result<UserRow> {
    Ok(UserRow {
        name: row.try_get("name")?,
        password_hash: row.try_get("password_hash")?,
        addresses: row.try_get("addresses")?,
        bot_level: row.try_get("bot_level")?,
        refuses_challenges: row.try_get::<i64, _>("refuses_challenges")? != 0,
        game_limit: row.try_get("game_limit")?,
        created_ms: row.try_get("created_ms")?,
    })
}

pub async fn user(conn: &mut AnyConnection, name: &str) -> Result<Option<UserRow>> {
    let sql = format!("SELECT {USER_COLUMNS} FROM users WHERE name = $1");
    let row = sqlx::query(&sql).bind(name).fetch_optional(conn).await?;
    row.as_ref().map(user_from_row).transpose()
}

pub async fn users(conn: &mut AnyConnection) -> Result<Vec<UserRow>> {
    let sql = format!("SELECT {USER_COLUMNS} FROM users ORDER BY name");
    let rows = sqlx::query(&sql).fetch_all(conn).await?;
    rows.iter().map(user_from_row).collect()
}

pub async fn insert_user(conn: &mut AnyConnection, user: &UserRow) -> Result<()> {
    sqlx::query(
        "INSERT INTO users (name, password_hash, addresses, bot_level, refuses_challenges, \
         game_limit, created_ms) VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(&user.name)
    .bind(&user.password_hash)
    .bind(&user.addresses)
    .bind(&user.bot_level)
    .bind(user.refuses_challenges as i64)
    .bind(user.game_limit)
    .bind(user.created_ms)
    .execute(conn)
    .await?;
    Ok(())
}

pub async fn set_password_hash(conn: &mut AnyConnection, name: &str, hash: &str) -> Result<()> {
    sqlx::query("UPDATE users SET password_hash = $1 WHERE name = $2")
        .bind(hash)
        .bind(name)
        .execute(conn)
        .await?;
    Ok(())
}

pub async fn set_addresses(conn: &mut AnyConnection, name: &str, addresses: &str) -> Result<()> {
    sqlx::query("UPDATE users SET addresses = $1 WHERE name = $2")
        .bind(addresses)
        .bind(name)
        .execute(conn)
        .await?;
    Ok(())
}

pub async fn set_challenge_policy(
    conn: &mut AnyConnection,
    name: &str,
    refuses: bool,
    limit: Option<i64>,
) -> Result<()> {
    sqlx::query("UPDATE users SET refuses_challenges = $1, game_limit = $2 WHERE name = $3")
        .bind(refuses as i64)
        .bind(limit)
        .bind(name)
        .execute(conn)
        .await?;
    Ok(())
}

/// A user's rating and record in one game.
#[derive(Clone, Debug)]
pub struct RatingRow {
    pub name: String,
    /// The game's name ([`games::GameKind::name`]).
    pub game: String,
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    pub wins: i64,
    pub losses: i64,
    pub draws: i64,
    pub last_game_ms: Option<i64>,
}

const RATING_COLUMNS: &str =
    "name, game, rating, deviation, volatility, wins, losses, draws, last_game_ms";

fn rating_from_row(row: &sqlx::any::AnyRow) -> Result<RatingRow> {
    Ok(RatingRow {
        name: row.try_get("name")?,
        game: row.try_get("game")?,
        rating: row.try_get("rating")?,
        deviation: row.try_get("deviation")?,
        volatility: row.try_get("volatility")?,
        wins: row.try_get("wins")?,
        losses: row.try_get("losses")?,
        draws: row.try_get("draws")?,
        last_game_ms: row.try_get("last_game_ms")?,
    })
}

/// A user's rating in a game, the initial one if they have not played it.
pub async fn rating(conn: &mut AnyConnection, name: &str, game: &str) -> Result<RatingRow> {
    let sql = format!("SELECT {RATING_COLUMNS} FROM ratings WHERE name = $1 AND game = $2");
    let row = sqlx::query(&sql)
        .bind(name)
        .bind(game)
        .fetch_optional(conn)
        .await?;
    match row {
        Some(row) => rating_from_row(&row),
        None => Ok(RatingRow::initial(name, game)),
    }
}

/// Every rating of one game (players who played it), best first.
pub async fn ratings_of_game(conn: &mut AnyConnection, game: &str) -> Result<Vec<RatingRow>> {
    let sql =
        format!("SELECT {RATING_COLUMNS} FROM ratings WHERE game = $1 ORDER BY rating DESC, name");
    let rows = sqlx::query(&sql).bind(game).fetch_all(conn).await?;
    rows.iter().map(rating_from_row).collect()
}

/// Every rating of one user, by game name.
pub async fn ratings_of_user(conn: &mut AnyConnection, name: &str) -> Result<Vec<RatingRow>> {
    let sql = format!("SELECT {RATING_COLUMNS} FROM ratings WHERE name = $1 ORDER BY game");
    let rows = sqlx::query(&sql).bind(name).fetch_all(conn).await?;
    rows.iter().map(rating_from_row).collect()
}

/// Locks the rating rows of `names` in one game until the transaction ends (PostgreSQL; SQLite's
/// one writer needs none), creating initial rows for first games, in name order so that two
/// finishing games sharing players cannot deadlock.
pub async fn lock_ratings(conn: &mut AnyConnection, names: &[&str], game: &str) -> Result<()> {
    if !is_postgres(conn) {
        return Ok(());
    }
    let mut names = names.to_vec();
    names.sort_unstable();
    for name in names {
        let initial = RatingRow::initial(name, game);
        sqlx::query(
            "INSERT INTO ratings (name, game, rating, deviation, volatility, wins, losses, draws) \
             VALUES ($1, $2, $3, $4, $5, 0, 0, 0) ON CONFLICT (name, game) DO NOTHING",
        )
        .bind(name)
        .bind(game)
        .bind(initial.rating)
        .bind(initial.deviation)
        .bind(initial.volatility)
        .execute(&mut *conn)
        .await?;
        sqlx::query("SELECT name FROM ratings WHERE name = $1 AND game = $2 FOR UPDATE")
            .bind(name)
            .bind(game)
            .fetch_one(&mut *conn)
            .await?;
    }
    Ok(())
}

/// Stores a user's rating and record in a game after a game.
pub async fn update_rating(conn: &mut AnyConnection, rating: &RatingRow) -> Result<()> {
    sqlx::query("DELETE FROM ratings WHERE name = $1 AND game = $2")
        .bind(&rating.name)
        .bind(&rating.game)
        .execute(&mut *conn)
        .await?;
    sqlx::query(
        "INSERT INTO ratings (name, game, rating, deviation, volatility, wins, losses, draws, \
         last_game_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
    )
    .bind(&rating.name)
    .bind(&rating.game)
    .bind(rating.rating)
    .bind(rating.deviation)
    .bind(rating.volatility)
    .bind(rating.wins)
    .bind(rating.losses)
    .bind(rating.draws)
    .bind(rating.last_game_ms)
    .execute(conn)
    .await?;
    Ok(())
}

/// One point of a user's rating history.
#[derive(Clone, Debug, serde::Serialize)]
pub struct RatingPoint {
    pub board: i64,
    /// The game's name.
    pub game: String,
    pub at_ms: i64,
    pub rating: f64,
    pub deviation: f64,
}

pub async fn insert_rating_point(
    conn: &mut AnyConnection,
    name: &str,
    point: &RatingPoint,
) -> Result<()> {
    sqlx::query(
        "INSERT INTO rating_history (name, board, game, at_ms, rating, deviation) \
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(name)
    .bind(point.board)
    .bind(&point.game)
    .bind(point.at_ms)
    .bind(point.rating)
    .bind(point.deviation)
    .execute(conn)
    .await?;
    Ok(())
}

pub async fn rating_history(conn: &mut AnyConnection, name: &str) -> Result<Vec<RatingPoint>> {
    let rows = sqlx::query(
        "SELECT board, game, at_ms, rating, deviation FROM rating_history WHERE name = $1 \
         ORDER BY at_ms, board",
    )
    .bind(name)
    .fetch_all(conn)
    .await?;
    rows.iter()
        .map(|row| {
            Ok(RatingPoint {
                board: row.try_get("board")?,
                game: row.try_get("game")?,
                at_ms: row.try_get("at_ms")?,
                rating: row.try_get("rating")?,
                deviation: row.try_get("deviation")?,
            })
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Sessions

pub async fn insert_session(
    conn: &mut AnyConnection,
    token_hash: &str,
    name: &str,
    created_ms: i64,
    expires_ms: i64,
) -> Result<()> {
    sqlx::query(
        "INSERT INTO sessions (token_hash, name, created_ms, expires_ms) VALUES ($1, $2, $3, $4)",
    )
    .bind(token_hash)
    .bind(name)
    .bind(created_ms)
    .bind(expires_ms)
    .execute(conn)
    .await?;
    Ok(())
}

/// The user a live session token belongs to.
pub async fn session_user(
    conn: &mut AnyConnection,
    token_hash: &str,
    now_ms: i64,
) -> Result<Option<String>> {
    let row = sqlx::query("SELECT name FROM sessions WHERE token_hash = $1 AND expires_ms > $2")
        .bind(token_hash)
        .bind(now_ms)
        .fetch_optional(conn)
        .await?;
    Ok(row.map(|row| row.try_get("name")).transpose()?)
}

pub async fn delete_expired_sessions(conn: &mut AnyConnection, now_ms: i64) -> Result<()> {
    sqlx::query("DELETE FROM sessions WHERE expires_ms <= $1")
        .bind(now_ms)
        .execute(conn)
        .await?;
    Ok(())
}

pub async fn delete_session(conn: &mut AnyConnection, token_hash: &str) -> Result<()> {
    sqlx::query("DELETE FROM sessions WHERE token_hash = $1")
        .bind(token_hash)
        .execute(conn)
        .await?;
    Ok(())
}

pub async fn delete_sessions_of(conn: &mut AnyConnection, name: &str) -> Result<()> {
    sqlx::query("DELETE FROM sessions WHERE name = $1")
        .bind(name)
        .execute(conn)
        .await?;
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Games

/// A game row: a challenge, a game in play or a finished game.
#[derive(Clone, Debug)]
pub struct GameRow {
    pub board: i64,
    /// The game's name ([`games::GameKind::name`]): how `start_fen`, `fen` and the moves read.
    pub game: String,
    /// The players in seat order (seat 0 moves first).
    pub seats: Vec<SeatRow>,
    /// The seats as the store holds them (empty for a board not stored yet): [`update_game`]
    /// writes only those that differ, so a move writes its mover's clock and nothing else.
    pub stored_seats: Vec<SeatRow>,
    pub status: String,
    pub layout: String,
    pub start_fen: String,
    pub fen: String,
    pub plies: i64,
    pub version: i64,
    pub result: String,
    pub termination: String,
    pub rated: bool,
    pub nag_days: i64,
    pub forfeit_days: i64,
    pub total_days: Option<i64>,
    pub clock_base_ms: Option<i64>,
    pub clock_increment_ms: Option<i64>,
    pub proposal: String,
    pub proposal_by: String,
    pub nagged_ply: i64,
    pub created_ms: i64,
    pub started_ms: Option<i64>,
    pub last_move_ms: Option<i64>,
    pub finished_ms: Option<i64>,
    /// Why a game begun rated ended unrated (a side never moved); empty otherwise.
    pub unrated_reason: String,
}

/// One player of a board.
#[derive(Clone, Debug, PartialEq)]
pub struct SeatRow {
    pub name: String,
    pub accepted: bool,
    /// A live game's clock.
    pub remaining_ms: Option<i64>,
    pub used_ms: i64,
    /// Once finished: 1 for the best, equal ranks shared.
    pub rank: Option<i64>,
    pub rating_change: Option<f64>,
}

const GAME_COLUMNS: &str = "board, game, status, layout, start_fen, fen, plies, version, result, \
     termination, rated, nag_days, forfeit_days, total_days, clock_base_ms, clock_increment_ms, \
     proposal, proposal_by, nagged_ply, created_ms, started_ms, last_move_ms, finished_ms, \
     unrated_reason";

/// How many columns `GAME_COLUMNS` names.
const GAME_COLUMN_COUNT: usize = 24;

fn game_from_row(row: &sqlx::any::AnyRow) -> Result<GameRow> {
    Ok(GameRow {
        board: row.try_get("board")?,
        game: row.try_get("game")?,
        seats: vec![],
        stored_seats: vec![],
        status: row.try_get("status")?,
        layout: row.try_get("layout")?,
        start_fen: row.try_get("start_fen")?,
        fen: row.try_get("fen")?,
        plies: row.try_get("plies")?,
        version: row.try_get("version")?,
        result: row.try_get("result")?,
        termination: row.try_get("termination")?,
        rated: row.try_get::<i64, _>("rated")? != 0,
        nag_days: row.try_get("nag_days")?,
        forfeit_days: row.try_get("forfeit_days")?,
        total_days: row.try_get("total_days")?,
        clock_base_ms: row.try_get("clock_base_ms")?,
        clock_increment_ms: row.try_get("clock_increment_ms")?,
        proposal: row.try_get("proposal")?,
        proposal_by: row.try_get("proposal_by")?,
        nagged_ply: row.try_get("nagged_ply")?,
        created_ms: row.try_get("created_ms")?,
        started_ms: row.try_get("started_ms")?,
        last_move_ms: row.try_get("last_move_ms")?,
        finished_ms: row.try_get("finished_ms")?,
        unrated_reason: row.try_get("unrated_reason")?,
    })
}

/// Reads game rows and their seats: the seats of all the boards in one query (per
/// [`SEAT_QUERY_BOARDS`] boards), not one per board.
async fn games_with_seats(
    conn: &mut AnyConnection,
    rows: Vec<sqlx::any::AnyRow>,
) -> Result<Vec<GameRow>> {
    let mut games = rows
        .iter()
        .map(game_from_row)
        .collect::<Result<Vec<GameRow>>>()?;
    let at: std::collections::HashMap<i64, usize> = games
        .iter()
        .enumerate()
        .map(|(i, game)| (game.board, i))
        .collect();
    for chunk in games
        .iter()
        .map(|g| g.board)
        .collect::<Vec<_>>()
        .chunks(SEAT_QUERY_BOARDS)
    {
        for (board, seat) in seats_of(conn, chunk).await? {
            if let Some(&i) = at.get(&board) {
                games[i].seats.push(seat);
            }
        }
    }
    for game in &mut games {
        game.stored_seats = game.seats.clone();
    }
    Ok(games)
}

/// The most boards whose seats one query reads: well under the bound parameters SQLite and
/// PostgreSQL take in one statement.
const SEAT_QUERY_BOARDS: usize = 500;

/// The seats of `boards`, each with its board, in board and seat order.
async fn seats_of(conn: &mut AnyConnection, boards: &[i64]) -> Result<Vec<(i64, SeatRow)>> {
    if boards.is_empty() {
        return Ok(vec![]);
    }
    let slots: Vec<String> = (1..=boards.len()).map(|i| format!("${i}")).collect();
    let sql = format!(
        "SELECT board, {SEAT_COLUMNS} FROM seats WHERE board IN ({}) ORDER BY board, seat",
        slots.join(", ")
    );
    let mut query = sqlx::query(&sql);
    for board in boards {
        query = query.bind(*board);
    }
    let rows = query.fetch_all(conn).await?;
    rows.iter()
        .map(|row| Ok((row.try_get("board")?, seat_from_row(row)?)))
        .collect()
}

/// The columns of a seat row ([`seat_from_row`] reads them).
const SEAT_COLUMNS: &str = "name, accepted, remaining_ms, used_ms, finish_rank, rating_change";

fn seat_from_row(row: &sqlx::any::AnyRow) -> Result<SeatRow> {
    Ok(SeatRow {
        name: row.try_get("name")?,
        accepted: row.try_get::<i64, _>("accepted")? != 0,
        remaining_ms: row.try_get("remaining_ms")?,
        used_ms: row.try_get("used_ms")?,
        rank: row.try_get("finish_rank")?,
        rating_change: row.try_get("rating_change")?,
    })
}

/// Writes the seats of `game` that differ from its `stored_seats` (a new seat is inserted,
/// a changed one updated: a seat swap moves players between seats), then takes them as stored.
async fn write_seats(conn: &mut AnyConnection, game: &mut GameRow) -> Result<()> {
    for (i, seat) in game.seats.iter().enumerate() {
        let sql = match game.stored_seats.get(i) {
            Some(stored) if stored == seat => continue,
            Some(_) => {
                "UPDATE seats SET name = $3, accepted = $4, remaining_ms = $5, used_ms = $6, \
                 finish_rank = $7, rating_change = $8 WHERE board = $1 AND seat = $2"
            }
            None => {
                "INSERT INTO seats (board, seat, name, accepted, remaining_ms, used_ms, \
                 finish_rank, rating_change) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)"
            }
        };
        let query = sqlx::query(sql)
            .bind(game.board)
            .bind(i as i64)
            .bind(&seat.name)
            .bind(seat.accepted as i64)
            .bind(seat.remaining_ms)
            .bind(seat.used_ms)
            .bind(seat.rank);
        bind_nullable_double(query, seat.rating_change)
            .execute(&mut *conn)
            .await?;
    }
    if game.stored_seats.len() > game.seats.len() {
        sqlx::query("DELETE FROM seats WHERE board = $1 AND seat >= $2")
            .bind(game.board)
            .bind(game.seats.len() as i64)
            .execute(&mut *conn)
            .await?;
    }
    game.stored_seats = game.seats.clone();
    Ok(())
}

pub async fn game(conn: &mut AnyConnection, board: i64) -> Result<Option<GameRow>> {
    one_game(conn, board).await
}

/// A board read to be changed: on PostgreSQL its row stays locked until the transaction ends,
/// so concurrent commands on one board, from any node, run one after the other.
///
/// On PostgreSQL the seats are read by a second statement, once the row is locked: a join
/// locking the board would, after waiting for another transaction's change of the board, see
/// that change but the seats as they were before it (read committed re-reads only the locked
/// row), and an acceptance made meanwhile would be lost. SQLite's one writer needs no lock.
pub async fn game_for_update(conn: &mut AnyConnection, board: i64) -> Result<Option<GameRow>> {
    if !is_postgres(conn) {
        return one_game(conn, board).await;
    }
    let sql = format!("SELECT {GAME_COLUMNS} FROM games WHERE board = $1 FOR UPDATE");
    let row = sqlx::query(&sql)
        .bind(board)
        .fetch_optional(&mut *conn)
        .await?;
    Ok(games_with_seats(conn, row.into_iter().collect())
        .await?
        .pop())
}

/// One board with its seats, in one query (a row per seat; a move reads its board so).
async fn one_game(conn: &mut AnyConnection, board: i64) -> Result<Option<GameRow>> {
    static SQL: LazyLock<String> = LazyLock::new(|| {
        let game = GAME_COLUMNS.split(", ").map(|c| format!("g.{}", c.trim()));
        let seat = SEAT_COLUMNS.split(", ").map(|c| format!("s.{c}"));
        let columns = game.chain(seat).collect::<Vec<_>>().join(", ");
        format!(
            "SELECT {columns} FROM games g JOIN seats s ON s.board = g.board \
             WHERE g.board = $1 ORDER BY s.seat"
        )
    });
    let rows = sqlx::query(&SQL).bind(board).fetch_all(&mut *conn).await?;
    let Some(first) = rows.first() else {
        return Ok(None);
    };
    let mut game = game_from_row(first)?;
    game.seats = rows.iter().map(seat_from_row).collect::<Result<_>>()?;
    game.stored_seats = game.seats.clone();
    Ok(Some(game))
}

/// Which games a listing wants.
#[derive(Clone, Debug, Default)]
pub struct GameFilter {
    /// Games where this user plays.
    pub player: Option<String>,
    /// Games in one of these states (`challenge`, `active`, `finished`, ...); empty = any.
    pub statuses: Vec<&'static str>,
    /// Games of this game (a [`games::GameKind::name`]); None = any.
    pub game: Option<String>,
    pub limit: i64,
}

/// Games matching the filter, newest first.
pub async fn games(conn: &mut AnyConnection, filter: &GameFilter) -> Result<Vec<GameRow>> {
    let mut sql = format!("SELECT {GAME_COLUMNS} FROM games WHERE 1 = 1");
    let mut next = 1;
    if filter.player.is_some() {
        sql.push_str(&format!(
            " AND board IN (SELECT board FROM seats WHERE name = ${next})"
        ));
        next += 1;
    }
    if filter.game.is_some() {
        sql.push_str(&format!(" AND game = ${next}"));
        next += 1;
    }
    if !filter.statuses.is_empty() {
        let slots: Vec<String> = (0..filter.statuses.len())
            .map(|i| format!("${}", next + i))
            .collect();
        sql.push_str(&format!(" AND status IN ({})", slots.join(", ")));
        next += filter.statuses.len();
    }
    sql.push_str(&format!(
        " ORDER BY COALESCE(finished_ms, last_move_ms, created_ms) DESC, board DESC LIMIT ${next}"
    ));
    let mut query = sqlx::query(&sql);
    if let Some(player) = &filter.player {
        query = query.bind(player);
    }
    if let Some(game) = &filter.game {
        query = query.bind(game);
    }
    for status in &filter.statuses {
        query = query.bind(*status);
    }
    let rows = query.bind(filter.limit).fetch_all(&mut *conn).await?;
    games_with_seats(conn, rows).await
}

/// Boards in play or waiting for acceptance (for the sweeper and the bots).
pub async fn open_boards(conn: &mut AnyConnection) -> Result<Vec<GameRow>> {
    let sql = format!(
        "SELECT {GAME_COLUMNS} FROM games WHERE status IN ('challenge', 'active') ORDER BY board"
    );
    let rows = sqlx::query(&sql).fetch_all(&mut *conn).await?;
    games_with_seats(conn, rows).await
}

pub async fn active_game_count(conn: &mut AnyConnection, name: &str) -> Result<i64> {
    let row = sqlx::query(
        "SELECT COUNT(*) AS n FROM games WHERE status IN ('challenge', 'active') \
         AND board IN (SELECT board FROM seats WHERE name = $1)",
    )
    .bind(name)
    .fetch_one(conn)
    .await?;
    Ok(row.try_get("n")?)
}

/// How many boards of a game are in a state.
pub async fn count_games(conn: &mut AnyConnection, game: &str, status: &str) -> Result<i64> {
    let row = sqlx::query("SELECT COUNT(*) AS n FROM games WHERE game = $1 AND status = $2")
        .bind(game)
        .bind(status)
        .fetch_one(conn)
        .await?;
    Ok(row.try_get("n")?)
}

/// The number the next board gets: boards count from 101.
pub async fn next_board(conn: &mut AnyConnection) -> Result<i64> {
    next_number(conn, "board").await
}

/// The next value of a counter row (`board`, `seek`, `mail_inbox`, `mail_outbox`). The row stays
/// locked until the transaction ends, so concurrent writers on any node get distinct numbers.
pub async fn next_number(conn: &mut AnyConnection, counter: &str) -> Result<i64> {
    let row = sqlx::query("UPDATE counters SET value = value + 1 WHERE name = $1 RETURNING value")
        .bind(counter)
        .fetch_one(conn)
        .await?;
    Ok(row.try_get("value")?)
}

/// Stores a new board and its seats.
pub async fn insert_game(conn: &mut AnyConnection, game: &mut GameRow) -> Result<()> {
    static SQL: LazyLock<String> = LazyLock::new(|| {
        let slots: Vec<String> = (1..=GAME_COLUMN_COUNT).map(|i| format!("${i}")).collect();
        format!(
            "INSERT INTO games ({GAME_COLUMNS}) VALUES ({})",
            slots.join(", ")
        )
    });
    bind_game(sqlx::query(&SQL), game)
        .execute(&mut *conn)
        .await?;
    write_seats(conn, game).await
}

/// Writes every column of a game row back, and its seats that changed.
pub async fn update_game(conn: &mut AnyConnection, game: &mut GameRow) -> Result<()> {
    static SQL: LazyLock<String> = LazyLock::new(|| {
        let sets: Vec<String> = GAME_COLUMNS
            .split(", ")
            .enumerate()
            .skip(1)
            .map(|(i, column)| format!("{} = ${}", column.trim(), i + 1))
            .collect();
        format!("UPDATE games SET {} WHERE board = $1", sets.join(", "))
    });
    bind_game(sqlx::query(&SQL), game)
        .execute(&mut *conn)
        .await?;
    write_seats(conn, game).await
}

/// Binds an optional DOUBLE PRECISION. sqlx 0.8's Any driver swaps the types of its float NULLs:
/// a `None::<f64>` reaches PostgreSQL as a 4-byte REAL, the statement it prepares keeps that type,
/// and a later run binding a real f64 is refused ("incorrect binary data format"). A
/// `None::<f32>` is what arrives as an 8-byte NULL (SQLite takes either).
fn bind_nullable_double(query: AnyQuery<'_>, value: Option<f64>) -> AnyQuery<'_> {
    match value {
        Some(value) => query.bind(value),
        None => query.bind(None::<f32>),
    }
}

type AnyQuery<'q> = sqlx::query::Query<'q, Any, sqlx::any::AnyArguments<'q>>;

/// Binds a game's columns in `GAME_COLUMNS` order.
fn bind_game<'q>(query: AnyQuery<'q>, game: &'q GameRow) -> AnyQuery<'q> {
    query
        .bind(game.board)
        .bind(&game.game)
        .bind(&game.status)
        .bind(&game.layout)
        .bind(&game.start_fen)
        .bind(&game.fen)
        .bind(game.plies)
        .bind(game.version)
        .bind(&game.result)
        .bind(&game.termination)
        .bind(game.rated as i64)
        .bind(game.nag_days)
        .bind(game.forfeit_days)
        .bind(game.total_days)
        .bind(game.clock_base_ms)
        .bind(game.clock_increment_ms)
        .bind(&game.proposal)
        .bind(&game.proposal_by)
        .bind(game.nagged_ply)
        .bind(game.created_ms)
        .bind(game.started_ms)
        .bind(game.last_move_ms)
        .bind(game.finished_ms)
        .bind(&game.unrated_reason)
}

// ---------------------------------------------------------------------------------------------
// Moves and chat

/// One recorded ply.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct MoveRow {
    pub ply: i64,
    /// Strict move text (`0000` for a pass).
    #[serde(rename = "move")]
    pub mv: String,
    /// Inserted by the server (a forced pass).
    pub auto: bool,
    pub flips: i64,
    pub at_ms: i64,
    /// The seat that made it (not stored: found by replaying).
    pub seat: u8,
    /// The position after it (not stored: found by replaying).
    pub fen: String,
}

pub async fn moves(conn: &mut AnyConnection, board: i64) -> Result<Vec<MoveRow>> {
    let rows =
        sqlx::query("SELECT ply, mv, auto, flips, at_ms FROM moves WHERE board = $1 ORDER BY ply")
            .bind(board)
            .fetch_all(conn)
            .await?;
    rows.iter()
        .map(|row| {
            Ok(MoveRow {
                ply: row.try_get("ply")?,
                mv: row.try_get("mv")?,
                auto: row.try_get::<i64, _>("auto")? != 0,
                flips: row.try_get("flips")?,
                at_ms: row.try_get("at_ms")?,
                seat: 0,
                fen: String::new(),
            })
        })
        .collect()
}

pub async fn insert_move(conn: &mut AnyConnection, board: i64, mv: &MoveRow) -> Result<()> {
    sqlx::query(
        "INSERT INTO moves (board, ply, mv, auto, flips, at_ms) VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(board)
    .bind(mv.ply)
    .bind(&mv.mv)
    .bind(mv.auto as i64)
    .bind(mv.flips)
    .bind(mv.at_ms)
    .execute(conn)
    .await?;
    Ok(())
}

/// Removes the plies from `ply` on (an accepted undo).
pub async fn delete_moves_from(conn: &mut AnyConnection, board: i64, ply: i64) -> Result<()> {
    sqlx::query("DELETE FROM moves WHERE board = $1 AND ply >= $2")
        .bind(board)
        .bind(ply)
        .execute(conn)
        .await?;
    Ok(())
}

/// One chat line of a board.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct ChatRow {
    pub seq: i64,
    pub name: String,
    pub at_ms: i64,
    pub body: String,
}

pub async fn chat(conn: &mut AnyConnection, board: i64) -> Result<Vec<ChatRow>> {
    let rows = sqlx::query("SELECT seq, name, at_ms, body FROM chat WHERE board = $1 ORDER BY seq")
        .bind(board)
        .fetch_all(conn)
        .await?;
    rows.iter()
        .map(|row| {
            Ok(ChatRow {
                seq: row.try_get("seq")?,
                name: row.try_get("name")?,
                at_ms: row.try_get("at_ms")?,
                body: row.try_get("body")?,
            })
        })
        .collect()
}

pub async fn insert_chat(
    conn: &mut AnyConnection,
    board: i64,
    name: &str,
    at_ms: i64,
    body: &str,
) -> Result<ChatRow> {
    let row = sqlx::query("SELECT COALESCE(MAX(seq), 0) AS top FROM chat WHERE board = $1")
        .bind(board)
        .fetch_one(&mut *conn)
        .await?;
    let seq = row.try_get::<i64, _>("top")? + 1;
    sqlx::query("INSERT INTO chat (board, seq, name, at_ms, body) VALUES ($1, $2, $3, $4, $5)")
        .bind(board)
        .bind(seq)
        .bind(name)
        .bind(at_ms)
        .bind(body)
        .execute(conn)
        .await?;
    Ok(ChatRow {
        seq,
        name: name.to_string(),
        at_ms,
        body: body.to_string(),
    })
}

// ---------------------------------------------------------------------------------------------
// Queued moves

/// A move stored to be played when it becomes its player's turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueuedMove {
    pub mv: String,
    pub guard: Option<i64>,
}

/// Stores (or replaces) a player's queued move on a board.
pub async fn queue_move(
    conn: &mut AnyConnection,
    board: i64,
    name: &str,
    queued: &QueuedMove,
) -> Result<()> {
    sqlx::query("DELETE FROM queued_moves WHERE board = $1 AND name = $2")
        .bind(board)
        .bind(name)
        .execute(&mut *conn)
        .await?;
    sqlx::query("INSERT INTO queued_moves (board, name, mv, guard) VALUES ($1, $2, $3, $4)")
        .bind(board)
        .bind(name)
        .bind(&queued.mv)
        .bind(queued.guard)
        .execute(conn)
        .await?;
    Ok(())
}

/// Takes a player's queued move off a board, if there is one.
pub async fn take_queued_move(
    conn: &mut AnyConnection,
    board: i64,
    name: &str,
) -> Result<Option<QueuedMove>> {
    let row = sqlx::query("SELECT mv, guard FROM queued_moves WHERE board = $1 AND name = $2")
        .bind(board)
        .bind(name)
        .fetch_optional(&mut *conn)
        .await?;
    let Some(row) = row else {
        return Ok(None);
    };
    sqlx::query("DELETE FROM queued_moves WHERE board = $1 AND name = $2")
        .bind(board)
        .bind(name)
        .execute(conn)
        .await?;
    Ok(Some(QueuedMove {
        mv: row.try_get("mv")?,
        guard: row.try_get("guard")?,
    }))
}

/// Forgets every queued move of a board (its position changed under them).
pub async fn clear_queued_moves(conn: &mut AnyConnection, board: i64) -> Result<()> {
    sqlx::query("DELETE FROM queued_moves WHERE board = $1")
        .bind(board)
        .execute(conn)
        .await?;
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Subscriptions

/// Every (board, subscriber) pair.
pub async fn subscriptions(conn: &mut AnyConnection) -> Result<Vec<(i64, String)>> {
    let rows = sqlx::query("SELECT board, name FROM subscriptions ORDER BY board, name")
        .fetch_all(conn)
        .await?;
    rows.iter()
        .map(|row| Ok((row.try_get("board")?, row.try_get("name")?)))
        .collect()
}

/// The users who follow `board`, by name.
pub async fn subscribers(conn: &mut AnyConnection, board: i64) -> Result<Vec<String>> {
    let rows = sqlx::query("SELECT name FROM subscriptions WHERE board = $1 ORDER BY name")
        .bind(board)
        .fetch_all(conn)
        .await?;
    rows.iter().map(|row| Ok(row.try_get("name")?)).collect()
}

pub async fn set_subscription(
    conn: &mut AnyConnection,
    board: i64,
    name: &str,
    on: bool,
) -> Result<()> {
    sqlx::query("DELETE FROM subscriptions WHERE board = $1 AND name = $2")
        .bind(board)
        .bind(name)
        .execute(&mut *conn)
        .await?;
    if on {
        sqlx::query("INSERT INTO subscriptions (board, name) VALUES ($1, $2)")
            .bind(board)
            .bind(name)
            .execute(conn)
            .await?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An error as PostgreSQL reports it, with a SQLSTATE code.
    #[derive(Debug)]
    struct Sqlstate(&'static str);

    impl std::fmt::Display for Sqlstate {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            write!(f, "SQLSTATE {}", self.0)
        }
    }

    impl std::error::Error for Sqlstate {}

    impl sqlx::error::DatabaseError for Sqlstate {
        fn message(&self) -> &str {
            "aborted"
        }
        fn code(&self) -> Option<Cow<'_, str>> {
            Some(self.0.into())
        }
        fn as_error(&self) -> &(dyn std::error::Error + Send + Sync + 'static) {
            self
        }
        fn as_error_mut(&mut self) -> &mut (dyn std::error::Error + Send + Sync + 'static) {
            self
        }
        fn into_error(self: Box<Self>) -> Box<dyn std::error::Error + Send + Sync + 'static> {
            self
        }
        fn kind(&self) -> sqlx::error::ErrorKind {
            sqlx::error::ErrorKind::Other
        }
    }

    fn failure(code: &'static str) -> Error {
        Error::Database(sqlx::Error::Database(Box::new(Sqlstate(code))))
    }

    /// Runs `retry_conflicts` over attempts that fail with `codes` in turn, then succeed;
    /// returns the outcome and how many attempts ran.
    async fn attempts(codes: &[&'static str]) -> (Result<u32>, u32) {
        let runs = std::sync::atomic::AtomicU32::new(0);
        let outcome = retry_conflicts("a test", || {
            let run = runs.fetch_add(1, std::sync::atomic::Ordering::SeqCst) as usize;
            async move {
                match codes.get(run) {
                    Some(code) => Err(failure(code)),
                    None => Ok(run as u32),
                }
            }
        })
        .await;
        (outcome, runs.into_inner())
    }

    #[tokio::test]
    async fn deadlocks_and_serialization_failures_are_retried_a_bounded_number_of_times() {
        let (outcome, runs) = attempts(&["40P01", "40001"]).await;
        assert_eq!(outcome.unwrap(), 2);
        assert_eq!(runs, 3);
        // One more conflict than the retries allow: the last one goes to the caller.
        let codes = ["40P01"; CONFLICT_RETRIES as usize + 1];
        let (outcome, runs) = attempts(&codes).await;
        assert!(outcome.as_ref().is_err_and(is_conflict), "{outcome:?}");
        assert_eq!(runs, CONFLICT_RETRIES + 1);
    }

    #[tokio::test]
    async fn other_errors_are_not_retried() {
        // A unique violation: running again would fail the same way.
        let (outcome, runs) = attempts(&["23505"]).await;
        assert!(outcome.is_err());
        assert_eq!(runs, 1);
        assert!(!is_conflict(&Error::Auth));
    }

    #[tokio::test]
    async fn migration_4_moves_players_into_seats_and_ratings_into_the_ataxx_rows() {
        let path = std::env::temp_dir().join(format!(
            "ataxx-server-migration-{}-{}.db",
            std::process::id(),
            rand::random::<u64>()
        ));
        let url = database_url(path.to_str().unwrap()).unwrap();
        sqlx::any::install_default_drivers();
        {
            let pool = AnyPoolOptions::new().connect(&url).await.unwrap();
            migrations_up_to(3).run(&pool).await.unwrap();
            for (name, rating, wins, losses) in [("alice", 1662.5, 1, 0), ("bob", 1337.5, 0, 1)] {
                sqlx::query(
                    "INSERT INTO users VALUES ($1, 'h', '', NULL, 0, NULL, $2, 290.3, 0.06, $3, $4, \
                     0, 5, 9)",
                )
                .bind(name)
                .bind(rating)
                .bind(wins)
                .bind(losses)
                .execute(&pool)
                .await
                .unwrap();
            }
            sqlx::query(
                "INSERT INTO games VALUES (101, 'alice', 'bob', 1, 1, 'finished', '0', \
                 'x5o/7/7/7/7/7/o5x x 0 1', 'x5o/7/7/7/7/7/o5x x 0 1', 0, 9, '1-0', \
                 'resignation', 1, 7, 21, NULL, NULL, NULL, NULL, NULL, 1000, 2000, '', '', -1, \
                 1, 2, 3, 4, 162.5, -162.5)",
            )
            .execute(&pool)
            .await
            .unwrap();
            pool.close().await;
        }
        let storage = Storage::open(&url, Durability::Normal).await.unwrap();
        let mut conn = storage.read().await.unwrap();
        let game = game(&mut conn, 101).await.unwrap().unwrap();
        assert_eq!(game.game, "ataxx");
        let seat = |name: &str, used_ms, rank, change| SeatRow {
            name: name.into(),
            accepted: true,
            remaining_ms: None,
            used_ms,
            rank: Some(rank),
            rating_change: Some(change),
        };
        assert_eq!(
            game.seats,
            [seat("alice", 1000, 1, 162.5), seat("bob", 2000, 2, -162.5)]
        );
        let alice = rating(&mut conn, "alice", "ataxx").await.unwrap();
        assert_eq!(
            (alice.rating, alice.wins, alice.last_game_ms),
            (1662.5, 1, Some(9))
        );
        let fresh = rating(&mut conn, "alice", "hexxagon").await.unwrap();
        assert_eq!((fresh.rating, fresh.games_played()), (1500.0, 0));
        assert_eq!(user(&mut conn, "bob").await.unwrap().unwrap().created_ms, 5);
        drop(conn);
        storage.close().await;
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
        }
    }
}
