//! Bans, cheater marks and the admin log (migration 0015), and the record every sign-in reads.

use sqlx::{AnyConnection, Row};

use crate::error::Result;
use crate::model::AdminAct;

/// The tables of marks an admin sets on a user; the names are written only here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    Banned,
    Cheater,
}

impl Mark {
    fn table(self) -> &'static str {
        match self {
            Mark::Banned => "bans",
            Mark::Cheater => "cheaters",
        }
    }

    fn by_column(self) -> &'static str {
        match self {
            Mark::Banned => "banned_by",
            Mark::Cheater => "marked_by",
        }
    }
}

pub async fn is_marked(conn: &mut AnyConnection, mark: Mark, name: &str) -> Result<bool> {
    let sql = format!("SELECT COUNT(*) AS n FROM {} WHERE name = $1", mark.table());
    let row = sqlx::query(&sql).bind(name).fetch_one(conn).await?;
    Ok(row.try_get::<i64, _>("n")? > 0)
}

/// What a sign-in reads of a user, in one statement (a move by the text door or mail pays for
/// no second one).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SignInRecord {
    pub password_hash: String,
    pub banned: bool,
    /// A second factor (TOTP) is on: its code is checked next.
    pub second_factor: bool,
}

pub async fn sign_in_record(conn: &mut AnyConnection, name: &str) -> Result<Option<SignInRecord>> {
    let row = sqlx::query(
        "SELECT u.password_hash, (SELECT COUNT(*) FROM bans b WHERE b.name = u.name) AS banned, \
         (SELECT COUNT(*) FROM totp t WHERE t.name = u.name AND t.enabled <> 0) AS totp \
         FROM users u WHERE u.name = $1",
    )
    .bind(name)
    .fetch_optional(conn)
    .await?;
    match row {
        Some(row) => Ok(Some(SignInRecord {
            password_hash: row.try_get("password_hash")?,
            banned: row.try_get::<i64, _>("banned")? > 0,
            second_factor: row.try_get::<i64, _>("totp")? > 0,
        })),
        None => Ok(None),
    }
}

/// Every user carrying `mark`, by name.
pub async fn marked(conn: &mut AnyConnection, mark: Mark) -> Result<Vec<String>> {
    let sql = format!("SELECT name FROM {} ORDER BY name", mark.table());
    let rows = sqlx::query(&sql).fetch_all(conn).await?;
    rows.iter().map(|row| Ok(row.try_get("name")?)).collect()
}

/// Sets `mark` on `name`, replacing an earlier one (its admin and reason).
pub async fn set_mark(
    conn: &mut AnyConnection,
    mark: Mark,
    name: &str,
    by: &str,
    reason: &str,
    at_ms: i64,
) -> Result<()> {
    clear_mark(&mut *conn, mark, name).await?;
    let sql = format!(
        "INSERT INTO {} (name, {}, reason, at_ms) VALUES ($1, $2, $3, $4)",
        mark.table(),
        mark.by_column()
    );
    sqlx::query(&sql)
        .bind(name)
        .bind(by)
        .bind(reason)
        .bind(at_ms)
        .execute(conn)
        .await?;
    Ok(())
}

/// Clears `mark` from `name`; whether there was one.
pub async fn clear_mark(conn: &mut AnyConnection, mark: Mark, name: &str) -> Result<bool> {
    let sql = format!("DELETE FROM {} WHERE name = $1", mark.table());
    let done = sqlx::query(&sql).bind(name).execute(conn).await?;
    Ok(done.rows_affected() > 0)
}

/// Appends an act to the admin log; returns its number.
pub async fn insert_admin_act(conn: &mut AnyConnection, act: &AdminAct) -> Result<i64> {
    let row = sqlx::query("SELECT COALESCE(MAX(id), 0) AS top FROM admin_log")
        .fetch_one(&mut *conn)
        .await?;
    let id = row.try_get::<i64, _>("top")? + 1;
    sqlx::query(
        "INSERT INTO admin_log (id, at_ms, admin, act, target, reason) \
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(id)
    .bind(act.at_ms)
    .bind(&act.admin)
    .bind(&act.act)
    .bind(&act.target)
    .bind(&act.reason)
    .execute(conn)
    .await?;
    Ok(id)
}

/// The latest `limit` acts of the admin log, newest first.
pub async fn admin_log(conn: &mut AnyConnection, limit: i64) -> Result<Vec<AdminAct>> {
    let rows = sqlx::query(
        "SELECT id, at_ms, admin, act, target, reason FROM admin_log ORDER BY id DESC LIMIT $1",
    )
    .bind(limit)
    .fetch_all(conn)
    .await?;
    rows.iter()
        .map(|row| {
            Ok(AdminAct {
                id: row.try_get("id")?,
                at_ms: row.try_get("at_ms")?,
                admin: row.try_get("admin")?,
                act: row.try_get("act")?,
                target: row.try_get("target")?,
                reason: row.try_get("reason")?,
            })
        })
        .collect()
}
