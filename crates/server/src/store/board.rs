//! A board as it is shown: its row and seats, its moves, chat and followers.

use std::sync::LazyLock;

use futures_util::TryStreamExt;
use sqlx::any::AnyRow;
use sqlx::{AnyConnection, Either, Executor, Row};

use super::chat::{chat_from_row, CHAT};
use super::games::{one_game_from_rows, ONE_GAME};
use super::moves::{move_from_row, MOVES};
use super::subscriptions::SUBSCRIBERS;
use super::{chat, game, is_postgres, moves, subscribers};
use crate::error::Result;
use crate::model::{ChatRow, GameRow, MoveRow};

/// What a board's page or mail shows, as stored.
pub struct BoardRows {
    pub game: GameRow,
    /// In ply order, without seats and FENs (a replay fills them in).
    pub moves: Vec<MoveRow>,
    pub chat: Vec<ChatRow>,
    /// Users following the board without playing on it.
    pub subscribers: Vec<String>,
}

/// A board with its moves, chat and followers; None if there is no such board. On SQLite the
/// four reads go to the connection's thread as one request (one round trip instead of four;
/// sqlx 0.8 runs the statements of a SQLite request in turn and ends each with its result,
/// which splits the rows). PostgreSQL takes one parameterized statement a request.
pub async fn board_rows(conn: &mut AnyConnection, board: i64) -> Result<Option<BoardRows>> {
    if is_postgres(conn) {
        let Some(game) = game(conn, board).await? else {
            return Ok(None);
        };
        return Ok(Some(BoardRows {
            game,
            moves: moves(conn, board).await?,
            chat: chat(conn, board).await?,
            subscribers: subscribers(conn, board).await?,
        }));
    }
    static SQL: LazyLock<String> =
        LazyLock::new(|| format!("{}; {MOVES}; {CHAT}; {SUBSCRIBERS}", *ONE_GAME));
    // The rows of each statement in turn: a result ends a statement's rows.
    let mut statements: Vec<Vec<AnyRow>> = vec![vec![]];
    let mut stream = conn.fetch_many(sqlx::query(&SQL).bind(board));
    while let Some(item) = stream.try_next().await? {
        match item {
            Either::Left(_) => statements.push(vec![]),
            Either::Right(row) => {
                if let Some(rows) = statements.last_mut() {
                    rows.push(row);
                }
            }
        }
    }
    drop(stream);
    let mut statements = statements.into_iter();
    let mut next = || statements.next().unwrap_or_default();
    let Some(game) = one_game_from_rows(&next())? else {
        return Ok(None);
    };
    Ok(Some(BoardRows {
        game,
        moves: next().iter().map(move_from_row).collect::<Result<_>>()?,
        chat: next().iter().map(chat_from_row).collect::<Result<_>>()?,
        subscribers: next()
            .iter()
            .map(|row| Ok(row.try_get("name")?))
            .collect::<Result<_>>()?,
    }))
}
