//! The users' last lobby heartbeats (migration 0019).

use sqlx::{AnyConnection, Row};

use crate::error::Result;

/// Records that `name`'s page beat at `now_ms`.
pub async fn mark_seen(conn: &mut AnyConnection, name: &str, now_ms: i64) -> Result<()> {
    sqlx::query(
        "INSERT INTO presence (name, seen_ms) VALUES ($1, $2) \
         ON CONFLICT (name) DO UPDATE SET seen_ms = excluded.seen_ms",
    )
    .bind(name)
    .bind(now_ms)
    .execute(conn)
    .await?;
    Ok(())
}

/// Forgets the heartbeats before `before_ms`.
pub async fn forget_seen_before(conn: &mut AnyConnection, before_ms: i64) -> Result<()> {
    sqlx::query("DELETE FROM presence WHERE seen_ms < $1")
        .bind(before_ms)
        .execute(conn)
        .await?;
    Ok(())
}

/// The users seen at or after `since_ms`, by name.
pub async fn seen_since(conn: &mut AnyConnection, since_ms: i64) -> Result<Vec<String>> {
    let rows = sqlx::query("SELECT name FROM presence WHERE seen_ms >= $1 ORDER BY name")
        .bind(since_ms)
        .fetch_all(conn)
        .await?;
    rows.iter().map(|row| Ok(row.try_get("name")?)).collect()
}
