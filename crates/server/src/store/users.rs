//! The users table.

use sqlx::{AnyConnection, Row};

use crate::error::Result;
use crate::model::UserRow;

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

/// How many boards `name` has a seat on, whatever their status.
pub async fn board_count(conn: &mut AnyConnection, name: &str) -> Result<i64> {
    let row = sqlx::query("SELECT COUNT(*) AS n FROM seats WHERE name = $1")
        .bind(name)
        .fetch_one(&mut *conn)
        .await?;
    Ok(row.try_get("n")?)
}

/// Sets the label of the computer player behind an account.
pub async fn set_bot_level(conn: &mut AnyConnection, name: &str, level: &str) -> Result<()> {
    sqlx::query("UPDATE users SET bot_level = $1 WHERE name = $2")
        .bind(level)
        .bind(name)
        .execute(conn)
        .await?;
    Ok(())
}

/// The users whose computer player has this label, by name.
pub async fn users_with_bot_level(conn: &mut AnyConnection, level: &str) -> Result<Vec<UserRow>> {
    let rows = sqlx::query("SELECT name FROM users WHERE bot_level = $1 ORDER BY name")
        .bind(level)
        .fetch_all(&mut *conn)
        .await?;
    let mut users = vec![];
    for row in rows {
        let name: String = row.try_get("name")?;
        users.extend(user(conn, &name).await?);
    }
    Ok(users)
}

/// The challenges waiting for `name`'s answer (not accepted yet).
pub async fn challenges_waiting(conn: &mut AnyConnection, name: &str) -> Result<i64> {
    let row = sqlx::query(
        "SELECT COUNT(*) AS n FROM games JOIN seats ON seats.board = games.board \
         WHERE seats.name = $1 AND games.status = 'challenge' AND seats.accepted = 0",
    )
    .bind(name)
    .fetch_one(conn)
    .await?;
    Ok(row.try_get("n")?)
}

/// Games in play of `name` and the challenges `name` accepted: what `ataxx limit` counts.
pub async fn committed_games(conn: &mut AnyConnection, name: &str) -> Result<i64> {
    let row = sqlx::query(
        "SELECT COUNT(*) AS n FROM games JOIN seats ON seats.board = games.board \
         WHERE seats.name = $1 \
         AND (games.status = 'active' OR (games.status = 'challenge' AND seats.accepted <> 0))",
    )
    .bind(name)
    .fetch_one(conn)
    .await?;
    Ok(row.try_get("n")?)
}
