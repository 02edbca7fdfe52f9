//! The queries of open seeks (migration 0006).

use sqlx::{AnyConnection, Row};

use crate::error::Result;

/// A seek row.
#[derive(Clone, Debug, PartialEq)]
pub struct SeekRow {
    pub id: i64,
    pub owner: String,
    /// The game's name ([`games::GameKind::name`]).
    pub game: String,
    pub size: Option<i64>,
    /// Blocked cells as given (`0` = none).
    pub blocks: String,
    /// A live seek's clock; None for correspondence.
    pub clock_base_ms: Option<i64>,
    pub clock_increment_ms: Option<i64>,
    pub rated: bool,
    /// The owner's pieces: `x`, `o` or `random`.
    pub color: String,
    pub rating_min: Option<i64>,
    pub rating_max: Option<i64>,
    pub created_ms: i64,
}

const SEEK_COLUMNS: &str = "id, owner, game, size, blocks, clock_base_ms, clock_increment_ms, \
     rated, color, rating_min, rating_max, created_ms";

fn seek_from_row(row: &sqlx::any::AnyRow) -> Result<SeekRow> {
    Ok(SeekRow {
        id: row.try_get("id")?,
        owner: row.try_get("owner")?,
        game: row.try_get("game")?,
        size: row.try_get("size")?,
        blocks: row.try_get("blocks")?,
        clock_base_ms: row.try_get("clock_base_ms")?,
        clock_increment_ms: row.try_get("clock_increment_ms")?,
        rated: row.try_get::<i64, _>("rated")? != 0,
        color: row.try_get("color")?,
        rating_min: row.try_get("rating_min")?,
        rating_max: row.try_get("rating_max")?,
        created_ms: row.try_get("created_ms")?,
    })
}

/// Every open seek, oldest first.
pub async fn seeks(conn: &mut AnyConnection) -> Result<Vec<SeekRow>> {
    let sql = format!("SELECT {SEEK_COLUMNS} FROM seeks ORDER BY created_ms, id");
    let rows = sqlx::query(&sql).fetch_all(conn).await?;
    rows.iter().map(seek_from_row).collect()
}

pub async fn seek(conn: &mut AnyConnection, id: i64) -> Result<Option<SeekRow>> {
    let sql = format!("SELECT {SEEK_COLUMNS} FROM seeks WHERE id = $1");
    let row = sqlx::query(&sql).bind(id).fetch_optional(conn).await?;
    row.as_ref().map(seek_from_row).transpose()
}

/// The number the next seek gets.
pub async fn next_seek(conn: &mut AnyConnection) -> Result<i64> {
    super::next_number(conn, "seek").await
}

pub async fn insert_seek(conn: &mut AnyConnection, seek: &SeekRow) -> Result<()> {
    let sql = format!(
        "INSERT INTO seeks ({SEEK_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, \
         $11, $12)"
    );
    sqlx::query(&sql)
        .bind(seek.id)
        .bind(&seek.owner)
        .bind(&seek.game)
        .bind(seek.size)
        .bind(&seek.blocks)
        .bind(seek.clock_base_ms)
        .bind(seek.clock_increment_ms)
        .bind(seek.rated as i64)
        .bind(&seek.color)
        .bind(seek.rating_min)
        .bind(seek.rating_max)
        .bind(seek.created_ms)
        .execute(conn)
        .await?;
    Ok(())
}

/// Deletes one seek; returns whether it was there. Taking a seek deletes it first, so that of
/// two transactions taking the same seek only the one that deleted it goes on (on PostgreSQL
/// the second waits for the first's row lock, then deletes nothing).
pub async fn delete_seek(conn: &mut AnyConnection, id: i64) -> Result<bool> {
    let done = sqlx::query("DELETE FROM seeks WHERE id = $1")
        .bind(id)
        .execute(conn)
        .await?;
    Ok(done.rows_affected() == 1)
}

/// The ids of a user's seeks: live ones only (`live`), or all of one game.
pub async fn seeks_of(
    conn: &mut AnyConnection,
    owner: &str,
    live_only: bool,
    game: Option<&str>,
) -> Result<Vec<i64>> {
    let mut sql = "SELECT id FROM seeks WHERE owner = $1".to_string();
    if live_only {
        sql.push_str(" AND clock_base_ms IS NOT NULL");
    }
    if game.is_some() {
        sql.push_str(" AND game = $2");
    }
    sql.push_str(" ORDER BY id");
    let mut query = sqlx::query(&sql).bind(owner);
    if let Some(game) = game {
        query = query.bind(game);
    }
    let rows = query.fetch_all(conn).await?;
    rows.iter()
        .map(|row| Ok(row.try_get::<i64, _>("id")?))
        .collect()
}

/// Deletes every live seek (at start: no page is open yet).
pub async fn delete_live_seeks(conn: &mut AnyConnection) -> Result<Vec<i64>> {
    let rows = sqlx::query("SELECT id FROM seeks WHERE clock_base_ms IS NOT NULL")
        .fetch_all(&mut *conn)
        .await?;
    let ids: Vec<i64> = rows
        .iter()
        .map(|row| row.try_get::<i64, _>("id"))
        .collect::<std::result::Result<_, _>>()?;
    sqlx::query("DELETE FROM seeks WHERE clock_base_ms IS NOT NULL")
        .execute(conn)
        .await?;
    Ok(ids)
}
