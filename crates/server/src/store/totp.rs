//! Second factors (migration 0017): each account's TOTP secret and its recovery codes' digests.

use sqlx::{AnyConnection, Row};

use crate::error::Result;

/// An account's second factor as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TotpRow {
    /// Base32, as authenticator apps take it.
    pub secret: String,
    /// Confirmed with a code: sign-in asks for one.
    pub enabled: bool,
    /// The last time step a code was accepted for.
    pub last_step: i64,
}

pub async fn totp(conn: &mut AnyConnection, name: &str) -> Result<Option<TotpRow>> {
    let row = sqlx::query("SELECT secret, enabled, last_step FROM totp WHERE name = $1")
        .bind(name)
        .fetch_optional(conn)
        .await?;
    row.map(|row| {
        Ok(TotpRow {
            secret: row.try_get("secret")?,
            enabled: row.try_get::<i64, _>("enabled")? != 0,
            last_step: row.try_get("last_step")?,
        })
    })
    .transpose()
}

/// Stores a new, not yet confirmed secret of `name` (replacing an unconfirmed one).
pub async fn set_pending_totp(
    conn: &mut AnyConnection,
    name: &str,
    secret: &str,
    now_ms: i64,
) -> Result<()> {
    delete_totp(&mut *conn, name).await?;
    sqlx::query(
        "INSERT INTO totp (name, secret, enabled, last_step, created_ms) \
         VALUES ($1, $2, 0, 0, $3)",
    )
    .bind(name)
    .bind(secret)
    .bind(now_ms)
    .execute(conn)
    .await?;
    Ok(())
}

/// Records a code accepted for `step` (and turns the factor on): false when a code of that
/// step or a later one was accepted already (by another node meanwhile, say).
pub async fn accept_totp_step(conn: &mut AnyConnection, name: &str, step: i64) -> Result<bool> {
    let done = sqlx::query(
        "UPDATE totp SET last_step = $1, enabled = 1 WHERE name = $2 AND last_step < $1",
    )
    .bind(step)
    .bind(name)
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Turns the second factor of `name` off: the secret and the recovery codes go.
pub async fn delete_totp(conn: &mut AnyConnection, name: &str) -> Result<()> {
    sqlx::query("DELETE FROM totp_recovery WHERE name = $1")
        .bind(name)
        .execute(&mut *conn)
        .await?;
    sqlx::query("DELETE FROM totp WHERE name = $1")
        .bind(name)
        .execute(conn)
        .await?;
    Ok(())
}

pub async fn insert_recovery_code(
    conn: &mut AnyConnection,
    name: &str,
    code_hash: &str,
) -> Result<()> {
    sqlx::query("INSERT INTO totp_recovery (name, code_hash) VALUES ($1, $2)")
        .bind(name)
        .bind(code_hash)
        .execute(conn)
        .await?;
    Ok(())
}

/// Spends a recovery code: whether it was one of `name`'s (each works once).
pub async fn take_recovery_code(
    conn: &mut AnyConnection,
    name: &str,
    code_hash: &str,
) -> Result<bool> {
    let done = sqlx::query("DELETE FROM totp_recovery WHERE name = $1 AND code_hash = $2")
        .bind(name)
        .bind(code_hash)
        .execute(conn)
        .await?;
    Ok(done.rows_affected() == 1)
}
