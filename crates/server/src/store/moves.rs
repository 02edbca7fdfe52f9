//! The moves of a board, one row per ply.

use sqlx::any::{AnyArguments, AnyRow};
use sqlx::{AnyConnection, Row};

use super::games::add;
use super::WriteTx;

use crate::error::Result;
use crate::model::MoveRow;

/// A board's moves (`$1`), in ply order.
pub(super) const MOVES: &str =
    "SELECT ply, mv, auto, flips, at_ms FROM moves WHERE board = $1 ORDER BY ply";

pub async fn moves(conn: &mut AnyConnection, board: i64) -> Result<Vec<MoveRow>> {
    let rows = sqlx::query(MOVES).bind(board).fetch_all(conn).await?;
    rows.iter().map(move_from_row).collect()
}

/// A row of [`MOVES`]; the seat and FEN are left for a replay to fill in.
pub(super) fn move_from_row(row: &AnyRow) -> Result<MoveRow> {
    Ok(MoveRow {
        ply: row.try_get("ply")?,
        mv: row.try_get("mv")?,
        auto: row.try_get::<i64, _>("auto")? != 0,
        flips: row.try_get("flips")?,
        at_ms: row.try_get("at_ms")?,
        seat: 0,
        fen: String::new(),
    })
}

/// Stores a move: `$1` the board, then ply, move, auto, flips and time.
const INSERT_MOVE: &str =
    "INSERT INTO moves (board, ply, mv, auto, flips, at_ms) VALUES ($1, $2, $3, $4, $5, $6)";

pub async fn insert_move(conn: &mut AnyConnection, board: i64, mv: &MoveRow) -> Result<()> {
    let mut arguments = AnyArguments::default();
    add_move(&mut arguments, board, mv)?;
    sqlx::query_with(INSERT_MOVE, arguments)
        .execute(conn)
        .await?;
    Ok(())
}

/// [`insert_move`] among the last writes of `tx`: on SQLite the row goes to the database with
/// the COMMIT (see `store/tx.rs`); nothing in `tx` may read the board's moves after
/// this. On PostgreSQL it is stored at once.
pub async fn insert_move_at_commit(tx: &mut WriteTx, board: i64, mv: &MoveRow) -> Result<()> {
    if !tx.defers_writes() {
        return insert_move(tx, board, mv).await;
    }
    tx.write_at_commit(INSERT_MOVE, |arguments| add_move(arguments, board, mv))
}

fn add_move(arguments: &mut AnyArguments<'static>, board: i64, mv: &MoveRow) -> Result<()> {
    add(arguments, board)?;
    add(arguments, mv.ply)?;
    add(arguments, mv.mv.clone())?;
    add(arguments, mv.auto as i64)?;
    add(arguments, mv.flips)?;
    add(arguments, mv.at_ms)
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
