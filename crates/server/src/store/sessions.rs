//! Sign-in sessions, stored as hashes of their tokens.

use sqlx::{AnyConnection, Row};

use crate::error::Result;

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
