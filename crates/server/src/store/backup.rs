//! Backups of a SQLite database while the server runs, and their checks before a restore.
//!
//! `VACUUM INTO` writes a consistent copy from one read transaction: every commit before it
//! began is in the copy, none after, and writers are not held up (the database is in WAL mode).
//! A PostgreSQL database is backed up with its own tools (`pg_dump`; docs/deploy.md).

use std::path::{Path, PathBuf};

use sqlx::{AnyConnection, Connection, Row};

use super::open::{migrations, sqlite_file};
use crate::error::{Error, Result};

/// What a checked backup holds.
#[derive(Clone, Debug)]
pub struct BackupSummary {
    /// The migrations applied to it.
    pub migrations: i64,
    pub users: i64,
    pub games: i64,
    pub moves: i64,
}

/// The SQLite file of `url`, or a clear refusal for another database.
pub fn sqlite_path(url: &str) -> Result<PathBuf> {
    if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        return Err(Error::Config(
            "this is a PostgreSQL database: back it up with pg_dump (pg_dump --format=custom \
             --file=ataxx.dump URL) and restore it with pg_restore; docs/deploy.md says more"
                .into(),
        ));
    }
    sqlite_file(url).ok_or_else(|| {
        Error::Config(format!(
            "{:?} names no SQLite file",
            crate::redact::redact_url(url)
        ))
    })
}

async fn connect(path: &Path, mode: &str) -> Result<AnyConnection> {
    sqlx::any::install_default_drivers();
    let url = format!("sqlite://{}?mode={mode}", path.display());
    AnyConnection::connect(&url)
        .await
        .map_err(|err| Error::Config(format!("cannot open {}: {err}", path.display())))
}

/// Copies the database at `url` (a server's, possibly in use) into the new file `output`.
pub async fn backup(url: &str, output: &Path) -> Result<()> {
    let source = sqlite_path(url)?;
    if !source.is_file() {
        return Err(Error::Config(format!(
            "no database at {}",
            source.display()
        )));
    }
    if output.exists() {
        return Err(Error::Config(format!(
            "{} exists: give a new file for the backup",
            output.display()
        )));
    }
    let mut conn = connect(&source, "ro").await?;
    // SQLite waits this long for a writer's lock to pass instead of failing at once.
    sqlx::query("PRAGMA busy_timeout = 10000")
        .execute(&mut conn)
        .await?;
    let target = output
        .to_str()
        .ok_or_else(|| Error::Config(format!("{}: the path is not UTF-8", output.display())))?;
    sqlx::query("VACUUM INTO $1")
        .bind(target)
        .execute(&mut conn)
        .await?;
    let _ = conn.close().await;
    Ok(())
}

/// Checks that `file` is a whole server database this build can run: SQLite's integrity check
/// passes, and its migrations are this build's (none missing is not required: the server applies
/// them at start; none unknown is).
pub async fn check_backup(file: &Path) -> Result<BackupSummary> {
    if !file.is_file() {
        return Err(Error::Config(format!("no backup at {}", file.display())));
    }
    let bad =
        |why: String| Error::Config(format!("{} is not a usable backup: {why}", file.display()));
    let mut conn = connect(file, "ro")
        .await
        .map_err(|err| bad(err.to_string()))?;
    let integrity: String = sqlx::query("PRAGMA integrity_check")
        .fetch_one(&mut conn)
        .await
        .map_err(|err| bad(err.to_string()))?
        .try_get(0)?;
    if integrity != "ok" {
        return Err(bad(format!("SQLite's integrity check says {integrity}")));
    }
    let count = |sql: &'static str| sqlx::query(sql);
    let mut numbers = vec![];
    for sql in [
        "SELECT COUNT(*) FROM _sqlx_migrations WHERE success = TRUE",
        "SELECT COALESCE(MAX(version), 0) FROM _sqlx_migrations",
        "SELECT COUNT(*) FROM users",
        "SELECT COUNT(*) FROM games",
        "SELECT COUNT(*) FROM moves",
    ] {
        let row = count(sql)
            .fetch_one(&mut conn)
            .await
            .map_err(|err| bad(format!("not a server's database ({err})")))?;
        numbers.push(row.try_get::<i64, _>(0)?);
    }
    let _ = conn.close().await;
    let known = migrations().migrations.len() as i64;
    if numbers[1] > known {
        return Err(bad(format!(
            "it has migration {} and this build knows {known}: restore it with a newer ataxx",
            numbers[1]
        )));
    }
    Ok(BackupSummary {
        migrations: numbers[0],
        users: numbers[2],
        games: numbers[3],
        moves: numbers[4],
    })
}

/// Replaces the SQLite database at `url` with the checked backup `file`: copied beside it, then
/// renamed over it (its WAL and shared-memory files removed first), so that a failed copy leaves
/// the old database. Refused while a server (or any process through [`super::Storage`]) has it
/// open; none may open it until the restore is done.
pub async fn restore(file: &Path, url: &str) -> Result<BackupSummary> {
    let target = sqlite_path(url)?;
    let _alone = match target.exists() {
        true => Some(super::in_use::InUse::exclusive(&target)?),
        false => None,
    };
    let summary = check_backup(file).await?;
    let mut partial = target.clone().into_os_string();
    partial.push(".restoring");
    let partial = PathBuf::from(partial);
    let io = |what: &str, err: std::io::Error| Error::Config(format!("{what}: {err}"));
    std::fs::copy(file, &partial).map_err(|err| io("copying the backup", err))?;
    for suffix in ["-wal", "-shm"] {
        let mut side = target.clone().into_os_string();
        side.push(suffix);
        match std::fs::remove_file(&side) {
            Err(err) if err.kind() != std::io::ErrorKind::NotFound => {
                return Err(io("removing the old database's WAL", err))
            }
            _ => {}
        }
    }
    std::fs::rename(&partial, &target).map_err(|err| io("putting the backup in place", err))?;
    Ok(summary)
}
