//! The rate limits' rows (crates/server/src/throttle.rs): failed logins per (address, account)
//! and counting windows. A failure locks its pair's row (PostgreSQL) so that two nodes counting
//! at once both count.

use sqlx::{AnyConnection, Row};

use super::is_postgres;
use crate::error::Result;

/// The failed logins of one (address, account) pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LoginFailures {
    pub failures: i64,
    pub last_failure_ms: i64,
    /// 0 when not locked.
    pub locked_until_ms: i64,
}

const FAILURE_COLUMNS: &str = "failures, last_failure_ms, locked_until_ms";

fn failures_from_row(row: &sqlx::any::AnyRow) -> Result<LoginFailures> {
    Ok(LoginFailures {
        failures: row.try_get("failures")?,
        last_failure_ms: row.try_get("last_failure_ms")?,
        locked_until_ms: row.try_get("locked_until_ms")?,
    })
}

/// The records of the pairs `(address, account)` for each of `pairs`, in one query: the pairs an
/// attempt is counted in, read before each login.
pub async fn login_failure_records(
    conn: &mut AnyConnection,
    pairs: &[(&str, &str)],
) -> Result<Vec<((String, String), LoginFailures)>> {
    let wanted: Vec<String> = (0..pairs.len())
        .map(|i| format!("(address = ${} AND account = ${})", 2 * i + 1, 2 * i + 2))
        .collect();
    let sql = format!(
        "SELECT address, account, {FAILURE_COLUMNS} FROM login_failures WHERE {}",
        wanted.join(" OR ")
    );
    let mut query = sqlx::query(&sql);
    for (address, account) in pairs {
        query = query.bind(*address).bind(*account);
    }
    let rows = query.fetch_all(conn).await?;
    rows.iter()
        .map(|row| {
            let pair = (row.try_get("address")?, row.try_get("account")?);
            Ok((pair, failures_from_row(row)?))
        })
        .collect()
}

/// Whether `account` was signed in to from `address` since `since_ms`.
pub async fn is_known_login(
    conn: &mut AnyConnection,
    account: &str,
    address: &str,
    since_ms: i64,
) -> Result<bool> {
    let row = sqlx::query(
        "SELECT 1 FROM known_logins WHERE account = $1 AND address = $2 AND last_login_ms >= $3",
    )
    .bind(account)
    .bind(address)
    .bind(since_ms)
    .fetch_optional(conn)
    .await?;
    Ok(row.is_some())
}

/// Records a sign-in to `account` from `address` at `now_ms`.
pub async fn remember_login(
    conn: &mut AnyConnection,
    account: &str,
    address: &str,
    now_ms: i64,
) -> Result<()> {
    sqlx::query(
        "INSERT INTO known_logins (account, address, last_login_ms) VALUES ($1, $2, $3) \
         ON CONFLICT (account, address) DO UPDATE SET last_login_ms = excluded.last_login_ms",
    )
    .bind(account)
    .bind(address)
    .bind(now_ms)
    .execute(conn)
    .await?;
    Ok(())
}

/// Deletes the sign-ins older than `before_ms`.
pub async fn forget_known_logins(conn: &mut AnyConnection, before_ms: i64) -> Result<()> {
    sqlx::query("DELETE FROM known_logins WHERE last_login_ms < $1")
        .bind(before_ms)
        .execute(conn)
        .await?;
    Ok(())
}

/// The pair's record, its row locked until the transaction ends (PostgreSQL). A pair without
/// one gets an empty row first, so that there is a row to lock (its failures long forgotten).
pub async fn lock_login_failures(
    conn: &mut AnyConnection,
    address: &str,
    account: &str,
) -> Result<Option<LoginFailures>> {
    sqlx::query(
        "INSERT INTO login_failures (address, account, failures, last_failure_ms, \
         locked_until_ms) VALUES ($1, $2, 0, 0, 0) ON CONFLICT (address, account) DO NOTHING",
    )
    .bind(address)
    .bind(account)
    .execute(&mut *conn)
    .await?;
    let lock = if is_postgres(conn) { " FOR UPDATE" } else { "" };
    let sql = format!(
        "SELECT {FAILURE_COLUMNS} FROM login_failures WHERE address = $1 AND account = $2{lock}"
    );
    let row = sqlx::query(&sql)
        .bind(address)
        .bind(account)
        .fetch_optional(&mut *conn)
        .await?;
    row.as_ref().map(failures_from_row).transpose()
}

pub async fn set_login_failures(
    conn: &mut AnyConnection,
    address: &str,
    account: &str,
    record: &LoginFailures,
) -> Result<()> {
    sqlx::query(
        "INSERT INTO login_failures (address, account, failures, last_failure_ms, \
         locked_until_ms) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (address, account) DO UPDATE \
         SET failures = excluded.failures, last_failure_ms = excluded.last_failure_ms, \
         locked_until_ms = excluded.locked_until_ms",
    )
    .bind(address)
    .bind(account)
    .bind(record.failures)
    .bind(record.last_failure_ms)
    .bind(record.locked_until_ms)
    .execute(conn)
    .await?;
    Ok(())
}

pub async fn clear_login_failures(
    conn: &mut AnyConnection,
    address: &str,
    account: &str,
) -> Result<()> {
    sqlx::query("DELETE FROM login_failures WHERE address = $1 AND account = $2")
        .bind(address)
        .bind(account)
        .execute(conn)
        .await?;
    Ok(())
}

/// Deletes the pairs whose last failure is older than `before_ms` and that are not locked.
pub async fn forget_login_failures(conn: &mut AnyConnection, before_ms: i64) -> Result<()> {
    sqlx::query("DELETE FROM login_failures WHERE last_failure_ms < $1 AND locked_until_ms < $1")
        .bind(before_ms)
        .execute(conn)
        .await?;
    Ok(())
}

/// A key's window: (started_ms, attempts used).
pub async fn window(conn: &mut AnyConnection, key: &str) -> Result<Option<(i64, i64)>> {
    let row = sqlx::query("SELECT started_ms, used FROM rate_windows WHERE name = $1")
        .bind(key)
        .fetch_optional(conn)
        .await?;
    row.map(|row| Ok((row.try_get("started_ms")?, row.try_get("used")?)))
        .transpose()
}

/// Counts one attempt of `key` at `now_ms`: in its window, or in a new one from `now_ms` when
/// the window started before `expired_before_ms`. One statement, atomic on both databases.
pub async fn count_in_window(
    conn: &mut AnyConnection,
    key: &str,
    now_ms: i64,
    expired_before_ms: i64,
) -> Result<()> {
    sqlx::query(
        "INSERT INTO rate_windows (name, started_ms, used) VALUES ($1, $2, 1) \
         ON CONFLICT (name) DO UPDATE SET \
         used = CASE WHEN rate_windows.started_ms < $3 THEN 1 ELSE rate_windows.used + 1 END, \
         started_ms = CASE WHEN rate_windows.started_ms < $3 THEN $2 ELSE rate_windows.started_ms END",
    )
    .bind(key)
    .bind(now_ms)
    .bind(expired_before_ms)
    .execute(conn)
    .await?;
    Ok(())
}
