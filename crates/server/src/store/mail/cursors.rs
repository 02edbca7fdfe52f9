//! `mail_boards`: where each board stood when it was last mailed, to mail only what changed.

use sqlx::{AnyConnection, Row};

use crate::error::{Error, Result};
use crate::model::BoardCursor;

/// Boards changed since their last mail (or never mailed), with their cursor if any.
pub async fn changed_boards(conn: &mut AnyConnection) -> Result<Vec<(i64, Option<BoardCursor>)>> {
    let rows = sqlx::query(
        "SELECT g.board AS board, m.version AS version, m.plies AS plies, m.status AS status, \
         m.nagged_ply AS nagged_ply, m.chat_seq AS chat_seq \
         FROM games g LEFT JOIN mail_boards m ON m.board = g.board \
         WHERE m.board IS NULL OR m.version <> g.version ORDER BY g.board",
    )
    .fetch_all(&mut *conn)
    .await?;
    let mut out = vec![];
    for row in rows {
        let board: i64 = row.try_get("board")?;
        let version: Option<i64> = row.try_get("version")?;
        let cursor = match version {
            Some(version) => Some(BoardCursor {
                version,
                plies: row.try_get("plies")?,
                status: row
                    .try_get::<String, _>("status")?
                    .parse()
                    .map_err(|err| Error::Database(Box::new(err)))?,
                nagged_ply: row.try_get("nagged_ply")?,
                chat_seq: row.try_get("chat_seq")?,
            }),
            None => None,
        };
        out.push((board, cursor));
    }
    Ok(out)
}

/// The board's nag mark (the ply it was nagged at, -1 when not).
pub async fn nagged_ply(conn: &mut AnyConnection, board: i64) -> Result<i64> {
    Ok(sqlx::query("SELECT nagged_ply FROM games WHERE board = $1")
        .bind(board)
        .fetch_one(&mut *conn)
        .await?
        .try_get("nagged_ply")?)
}

/// Records where `board` stands as mailed now.
pub async fn save_cursor(conn: &mut AnyConnection, board: i64, cursor: &BoardCursor) -> Result<()> {
    sqlx::query("DELETE FROM mail_boards WHERE board = $1")
        .bind(board)
        .execute(&mut *conn)
        .await?;
    sqlx::query(
        "INSERT INTO mail_boards (board, version, plies, status, nagged_ply, chat_seq) \
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(board)
    .bind(cursor.version)
    .bind(cursor.plies)
    .bind(cursor.status.as_str())
    .bind(cursor.nagged_ply)
    .bind(cursor.chat_seq)
    .execute(&mut *conn)
    .await?;
    Ok(())
}
