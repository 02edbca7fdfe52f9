//! Moves stored to be played when it becomes their player's turn.

use sqlx::{AnyConnection, Row};

use crate::error::Result;
use crate::model::QueuedMove;

/// Stores (or replaces) a player's queued move on a board.
pub async fn queue_move(
    conn: &mut AnyConnection,
    board: i64,
    name: &str,
    queued: &QueuedMove,
) -> Result<()> {
    sqlx::query("DELETE FROM queued_moves WHERE board = $1 AND name = $2")
        .bind(board)
        .bind(name)
        .execute(&mut *conn)
        .await?;
    sqlx::query("INSERT INTO queued_moves (board, name, mv, guard) VALUES ($1, $2, $3, $4)")
        .bind(board)
        .bind(name)
        .bind(&queued.mv)
        .bind(queued.guard)
        .execute(conn)
        .await?;
    Ok(())
}

/// Takes a player's queued move off a board, if there is one.
pub async fn take_queued_move(
    conn: &mut AnyConnection,
    board: i64,
    name: &str,
) -> Result<Option<QueuedMove>> {
    let row = sqlx::query("SELECT mv, guard FROM queued_moves WHERE board = $1 AND name = $2")
        .bind(board)
        .bind(name)
        .fetch_optional(&mut *conn)
        .await?;
    let Some(row) = row else {
        return Ok(None);
    };
    sqlx::query("DELETE FROM queued_moves WHERE board = $1 AND name = $2")
        .bind(board)
        .bind(name)
        .execute(conn)
        .await?;
    Ok(Some(QueuedMove {
        mv: row.try_get("mv")?,
        guard: row.try_get("guard")?,
    }))
}

/// Forgets every queued move of a board (its position changed under them).
pub async fn clear_queued_moves(conn: &mut AnyConnection, board: i64) -> Result<()> {
    sqlx::query("DELETE FROM queued_moves WHERE board = $1")
        .bind(board)
        .execute(conn)
        .await?;
    Ok(())
}

/// The move `name` has queued on `board`, if any, left in the queue.
pub async fn queued_move_of(
    conn: &mut AnyConnection,
    board: i64,
    name: &str,
) -> Result<Option<String>> {
    let row = sqlx::query("SELECT mv FROM queued_moves WHERE board = $1 AND name = $2")
        .bind(board)
        .bind(name)
        .fetch_optional(&mut *conn)
        .await?;
    Ok(match row {
        Some(row) => Some(row.try_get("mv")?),
        None => None,
    })
}
