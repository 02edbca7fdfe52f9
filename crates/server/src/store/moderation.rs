//! Moderators, mutes, blocks and reports (migration 0014).

use sqlx::{AnyConnection, Row};

use crate::error::Result;
use crate::model::ReportRow;

pub async fn is_moderator(conn: &mut AnyConnection, name: &str) -> Result<bool> {
    let row = sqlx::query("SELECT COUNT(*) AS n FROM moderators WHERE name = $1")
        .bind(name)
        .fetch_one(conn)
        .await?;
    Ok(row.try_get::<i64, _>("n")? > 0)
}

pub async fn grant_moderator(
    conn: &mut AnyConnection,
    name: &str,
    granted_by: &str,
    at_ms: i64,
) -> Result<()> {
    sqlx::query("DELETE FROM moderators WHERE name = $1")
        .bind(name)
        .execute(&mut *conn)
        .await?;
    sqlx::query("INSERT INTO moderators (name, granted_by, at_ms) VALUES ($1, $2, $3)")
        .bind(name)
        .bind(granted_by)
        .bind(at_ms)
        .execute(conn)
        .await?;
    Ok(())
}

/// Mutes `name` until `until_ms`, replacing an earlier mute.
pub async fn mute(
    conn: &mut AnyConnection,
    name: &str,
    until_ms: i64,
    muted_by: &str,
    reason: &str,
    at_ms: i64,
) -> Result<()> {
    sqlx::query("DELETE FROM mutes WHERE name = $1")
        .bind(name)
        .execute(&mut *conn)
        .await?;
    sqlx::query(
        "INSERT INTO mutes (name, until_ms, muted_by, reason, at_ms) VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(name)
    .bind(until_ms)
    .bind(muted_by)
    .bind(reason)
    .bind(at_ms)
    .execute(conn)
    .await?;
    Ok(())
}

/// Until when `name` is muted, if a mute was ever set (it may have run out).
pub async fn muted_until(conn: &mut AnyConnection, name: &str) -> Result<Option<i64>> {
    let row = sqlx::query("SELECT until_ms FROM mutes WHERE name = $1")
        .bind(name)
        .fetch_optional(conn)
        .await?;
    Ok(match row {
        Some(row) => Some(row.try_get("until_ms")?),
        None => None,
    })
}

pub async fn block(
    conn: &mut AnyConnection,
    blocker: &str,
    blocked: &str,
    at_ms: i64,
) -> Result<()> {
    unblock(&mut *conn, blocker, blocked).await?;
    sqlx::query("INSERT INTO blocks (blocker, blocked, at_ms) VALUES ($1, $2, $3)")
        .bind(blocker)
        .bind(blocked)
        .bind(at_ms)
        .execute(conn)
        .await?;
    Ok(())
}

pub async fn unblock(conn: &mut AnyConnection, blocker: &str, blocked: &str) -> Result<()> {
    sqlx::query("DELETE FROM blocks WHERE blocker = $1 AND blocked = $2")
        .bind(blocker)
        .bind(blocked)
        .execute(conn)
        .await?;
    Ok(())
}

/// The users `blocker` blocked, by name.
pub async fn blocked_by(conn: &mut AnyConnection, blocker: &str) -> Result<Vec<String>> {
    let rows = sqlx::query("SELECT blocked FROM blocks WHERE blocker = $1 ORDER BY blocked")
        .bind(blocker)
        .fetch_all(conn)
        .await?;
    rows.iter().map(|row| Ok(row.try_get("blocked")?)).collect()
}

pub async fn insert_report(conn: &mut AnyConnection, report: &ReportRow) -> Result<i64> {
    let row = sqlx::query("SELECT COALESCE(MAX(id), 0) AS top FROM reports")
        .fetch_one(&mut *conn)
        .await?;
    let id = row.try_get::<i64, _>("top")? + 1;
    sqlx::query(
        "INSERT INTO reports (id, reporter, reported, board, reason, at_ms) \
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(id)
    .bind(&report.reporter)
    .bind(&report.reported)
    .bind(report.board)
    .bind(&report.reason)
    .bind(report.at_ms)
    .execute(conn)
    .await?;
    Ok(id)
}

/// Every report, newest first.
pub async fn reports(conn: &mut AnyConnection) -> Result<Vec<ReportRow>> {
    let rows = sqlx::query(
        "SELECT id, reporter, reported, board, reason, at_ms FROM reports ORDER BY id DESC",
    )
    .fetch_all(conn)
    .await?;
    rows.iter()
        .map(|row| {
            Ok(ReportRow {
                id: row.try_get("id")?,
                reporter: row.try_get("reporter")?,
                reported: row.try_get("reported")?,
                board: row.try_get("board")?,
                reason: row.try_get("reason")?,
                at_ms: row.try_get("at_ms")?,
            })
        })
        .collect()
}
