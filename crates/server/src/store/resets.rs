//! Password reset tokens (migration 0017), stored as SHA-256 digests of the tokens mailed.

use sqlx::{AnyConnection, Row};

use crate::error::Result;

pub async fn insert_reset(
    conn: &mut AnyConnection,
    token_hash: &str,
    name: &str,
    created_ms: i64,
    expires_ms: i64,
) -> Result<()> {
    sqlx::query(
        "INSERT INTO password_resets (token_hash, name, created_ms, expires_ms, used_ms) \
         VALUES ($1, $2, $3, $4, 0)",
    )
    .bind(token_hash)
    .bind(name)
    .bind(created_ms)
    .bind(expires_ms)
    .execute(conn)
    .await?;
    Ok(())
}

/// How many reset tokens were made for `name` since `since_ms`.
pub async fn resets_since(conn: &mut AnyConnection, name: &str, since_ms: i64) -> Result<i64> {
    let row = sqlx::query(
        "SELECT COUNT(*) AS n FROM password_resets WHERE name = $1 AND created_ms >= $2",
    )
    .bind(name)
    .bind(since_ms)
    .fetch_one(conn)
    .await?;
    Ok(row.try_get("n")?)
}

/// The account of an unused token that is still good at `now_ms`.
pub async fn reset_user(
    conn: &mut AnyConnection,
    token_hash: &str,
    now_ms: i64,
) -> Result<Option<String>> {
    let row = sqlx::query(
        "SELECT name FROM password_resets WHERE token_hash = $1 AND used_ms = 0 \
         AND expires_ms > $2",
    )
    .bind(token_hash)
    .bind(now_ms)
    .fetch_optional(conn)
    .await?;
    Ok(row.map(|row| row.try_get("name")).transpose()?)
}

/// Takes the token: marks it and every other token of its account used, in one change that two
/// nodes cannot both make (the first UPDATE locks the row on PostgreSQL). The account, or None
/// when the token is unknown, used or expired.
pub async fn take_reset(
    conn: &mut AnyConnection,
    token_hash: &str,
    now_ms: i64,
) -> Result<Option<String>> {
    let taken = sqlx::query(
        "UPDATE password_resets SET used_ms = $1 WHERE token_hash = $2 AND used_ms = 0 \
         AND expires_ms > $1",
    )
    .bind(now_ms)
    .bind(token_hash)
    .execute(&mut *conn)
    .await?;
    if taken.rows_affected() != 1 {
        return Ok(None);
    }
    let row = sqlx::query("SELECT name FROM password_resets WHERE token_hash = $1")
        .bind(token_hash)
        .fetch_one(&mut *conn)
        .await?;
    let name: String = row.try_get("name")?;
    sqlx::query("UPDATE password_resets SET used_ms = $1 WHERE name = $2 AND used_ms = 0")
        .bind(now_ms)
        .bind(&name)
        .execute(conn)
        .await?;
    Ok(Some(name))
}

/// Deletes the tokens made before `before_ms`.
pub async fn forget_resets(conn: &mut AnyConnection, before_ms: i64) -> Result<()> {
    sqlx::query("DELETE FROM password_resets WHERE created_ms < $1")
        .bind(before_ms)
        .execute(conn)
        .await?;
    Ok(())
}
