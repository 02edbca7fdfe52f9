//! The moves of a board, one row per ply.

use sqlx::{AnyConnection, Row};

use crate::error::Result;
use crate::model::MoveRow;

pub async fn moves(conn: &mut AnyConnection, board: i64) -> Result<Vec<MoveRow>> {
    let rows =
        sqlx::query("SELECT ply, mv, auto, flips, at_ms FROM moves WHERE board = $1 ORDER BY ply")
            .bind(board)
            .fetch_all(conn)
            .await?;
    rows.iter()
        .map(|row| {
            Ok(MoveRow {
                ply: row.try_get("ply")?,
                mv: row.try_get("mv")?,
                auto: row.try_get::<i64, _>("auto")? != 0,
                flips: row.try_get("flips")?,
                at_ms: row.try_get("at_ms")?,
                seat: 0,
                fen: String::new(),
            })
        })
        .collect()
}

pub async fn insert_move(conn: &mut AnyConnection, board: i64, mv: &MoveRow) -> Result<()> {
    sqlx::query(
        "INSERT INTO moves (board, ply, mv, auto, flips, at_ms) VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(board)
    .bind(mv.ply)
    .bind(&mv.mv)
    .bind(mv.auto as i64)
    .bind(mv.flips)
    .bind(mv.at_ms)
    .execute(conn)
    .await?;
    Ok(())
}

/// Removes the plies from `ply` on (an accepted undo).
pub async fn delete_moves_from(conn: &mut AnyConnection, board: i64, ply: i64) -> Result<()> {
    sqlx::query("DELETE FROM moves WHERE board = $1 AND ply >= $2")
        .bind(board)
        .bind(ply)
        .execute(conn)
        .await?;
    Ok(())
}

/// The moves of a game's finished boards numbered from `first_board` on, as (board, move), in
/// board and ply order (the opening explorer replays them).
pub async fn finished_moves_from(
    conn: &mut AnyConnection,
    game: &str,
    first_board: i64,
) -> Result<Vec<(i64, String)>> {
    let rows = sqlx::query(
        "SELECT m.board, m.mv FROM moves m JOIN games g ON g.board = m.board \
         WHERE g.game = $1 AND g.status = 'finished' AND m.board >= $2 ORDER BY m.board, m.ply",
    )
    .bind(game)
    .bind(first_board)
    .fetch_all(conn)
    .await?;
    rows.iter()
        .map(|row| Ok((row.try_get("board")?, row.try_get("mv")?)))
        .collect()
}
