//! Boards and their seats: one row per board in `games`, one per player in `seats`.

use std::sync::LazyLock;

use sqlx::any::AnyArguments;
use sqlx::{Any, AnyConnection, Arguments, Row};

use super::{is_postgres, Storage, WriteTx};
use crate::error::{Error, Result};
use crate::model::{GameFilter, GameRow};

mod counts;
mod seats;

pub use counts::*;
use seats::{seat_from_row, seat_writes, seats_of, write_seats, SEAT_COLUMNS, SEAT_QUERY_BOARDS};

pub(super) const GAME_COLUMNS: &str =
    "board, game, status, layout, start_fen, fen, plies, version, result, \
     termination, rated, nag_days, forfeit_days, total_days, clock_base_ms, clock_increment_ms, \
     proposal, proposal_by, nagged_ply, created_ms, started_ms, last_move_ms, finished_ms, \
     unrated_reason";

/// How many columns `GAME_COLUMNS` names.
const GAME_COLUMN_COUNT: usize = 24;

/// A board's row, without its seats.
fn game_from_row(row: &sqlx::any::AnyRow) -> Result<GameRow> {
    Ok(GameRow {
        board: row.try_get("board")?,
        game: row.try_get("game")?,
        seats: vec![],
        stored_seats: vec![],
        status: row
            .try_get::<String, _>("status")?
            .parse()
            .map_err(|err| Error::Database(Box::new(err)))?,
        layout: row.try_get("layout")?,
        start_fen: row.try_get("start_fen")?,
        fen: row.try_get("fen")?,
        plies: row.try_get("plies")?,
        version: row.try_get("version")?,
        result: row.try_get("result")?,
        termination: row.try_get("termination")?,
        rated: row.try_get::<i64, _>("rated")? != 0,
        nag_days: row.try_get("nag_days")?,
        forfeit_days: row.try_get("forfeit_days")?,
        total_days: row.try_get("total_days")?,
        clock_base_ms: row.try_get("clock_base_ms")?,
        clock_increment_ms: row.try_get("clock_increment_ms")?,
        proposal: row.try_get("proposal")?,
        proposal_by: row.try_get("proposal_by")?,
        nagged_ply: row.try_get("nagged_ply")?,
        created_ms: row.try_get("created_ms")?,
        started_ms: row.try_get("started_ms")?,
        last_move_ms: row.try_get("last_move_ms")?,
        finished_ms: row.try_get("finished_ms")?,
        unrated_reason: row.try_get("unrated_reason")?,
        queued_moves: None,
    })
}

/// Reads game rows and their seats: the seats of all the boards in one query (per
/// [`SEAT_QUERY_BOARDS`] boards), not one per board.
pub(super) async fn games_with_seats(
    conn: &mut AnyConnection,
    rows: Vec<sqlx::any::AnyRow>,
) -> Result<Vec<GameRow>> {
    let mut games = rows
        .iter()
        .map(game_from_row)
        .collect::<Result<Vec<GameRow>>>()?;
    let at: std::collections::HashMap<i64, usize> = games
        .iter()
        .enumerate()
        .map(|(i, game)| (game.board, i))
        .collect();
    for chunk in games
        .iter()
        .map(|g| g.board)
        .collect::<Vec<_>>()
        .chunks(SEAT_QUERY_BOARDS)
    {
        for (board, seat) in seats_of(conn, chunk).await? {
            if let Some(&i) = at.get(&board) {
                games[i].seats.push(seat);
            }
        }
    }
    for game in &mut games {
        game.stored_seats = game.seats.clone();
    }
    Ok(games)
}

/// A board with its seats.
pub async fn game(conn: &mut AnyConnection, board: i64) -> Result<Option<GameRow>> {
    one_game(conn, board).await
}

/// A board read to be changed: on PostgreSQL its row stays locked until the transaction ends,
/// so concurrent commands on one board, from any node, run one after the other.
///
/// On PostgreSQL the seats are read by a second statement, once the row is locked: a join
/// locking the board would, after waiting for another transaction's change of the board, see
/// that change but the seats as they were before it (read committed re-reads only the locked
/// row), and an acceptance made meanwhile would be lost. SQLite's one writer needs no lock.
pub async fn game_for_update(conn: &mut AnyConnection, board: i64) -> Result<Option<GameRow>> {
    if !is_postgres(conn) {
        return one_game(conn, board).await;
    }
    static SQL: LazyLock<String> = LazyLock::new(|| {
        format!("SELECT {GAME_COLUMNS}, {QUEUED} FROM games g WHERE board = $1 FOR UPDATE")
    });
    let row = sqlx::query(&SQL)
        .bind(board)
        .fetch_optional(&mut *conn)
        .await?;
    let queued = match &row {
        Some(row) => Some(row.try_get("queued")?),
        None => None,
    };
    let mut game = games_with_seats(conn, row.into_iter().collect())
        .await?
        .pop();
    if let Some(game) = &mut game {
        game.queued_moves = queued;
    }
    Ok(game)
}

/// The column that counts a board's queued moves (`g` being the board's row).
const QUEUED: &str = "(SELECT COUNT(*) FROM queued_moves q WHERE q.board = g.board) AS queued";

/// One board with its seats and its count of queued moves, in one query (a row per seat).
pub(super) static ONE_GAME: LazyLock<String> = LazyLock::new(|| {
    let game = GAME_COLUMNS.split(", ").map(|c| format!("g.{}", c.trim()));
    let seat = SEAT_COLUMNS.split(", ").map(|c| format!("s.{c}"));
    let columns = game.chain(seat).collect::<Vec<_>>().join(", ");
    format!(
        "SELECT {columns}, {QUEUED} FROM games g JOIN seats s ON s.board = g.board \
         WHERE g.board = $1 ORDER BY s.seat"
    )
});

/// One board with its seats, in one query (a move reads its board so).
async fn one_game(conn: &mut AnyConnection, board: i64) -> Result<Option<GameRow>> {
    let rows = sqlx::query(&ONE_GAME)
        .bind(board)
        .fetch_all(&mut *conn)
        .await?;
    one_game_from_rows(&rows)
}

/// The board of [`ONE_GAME`]'s rows.
pub(super) fn one_game_from_rows(rows: &[sqlx::any::AnyRow]) -> Result<Option<GameRow>> {
    let Some(first) = rows.first() else {
        return Ok(None);
    };
    let mut game = game_from_row(first)?;
    game.seats = rows.iter().map(seat_from_row).collect::<Result<_>>()?;
    game.stored_seats = game.seats.clone();
    game.queued_moves = Some(first.try_get("queued")?);
    Ok(Some(game))
}

impl Storage {
    /// Starts a write transaction and reads `board` in it to be changed ([`game_for_update`]).
    /// On SQLite the BEGIN and the read go to the database together, one round trip to its
    /// connection's thread instead of two.
    pub async fn write_game(&self, board: i64) -> Result<(WriteTx, Option<GameRow>)> {
        static BEGIN_AND_READ: LazyLock<String> =
            LazyLock::new(|| format!("BEGIN IMMEDIATE; {}", *ONE_GAME));
        let mut arguments = AnyArguments::default();
        add(&mut arguments, board)?;
        if let Some((tx, rows)) = self.begin_on_writer(&BEGIN_AND_READ, arguments).await? {
            return Ok((tx, one_game_from_rows(&rows)?));
        }
        let mut tx = self.write().await?;
        let game = game_for_update(&mut tx, board).await?;
        Ok((tx, game))
    }
}

/// Games matching the filter, newest first.
pub async fn games(conn: &mut AnyConnection, filter: &GameFilter) -> Result<Vec<GameRow>> {
    let mut sql = format!("SELECT {GAME_COLUMNS} FROM games WHERE 1 = 1");
    let mut next = 1;
    if filter.player.is_some() {
        sql.push_str(&format!(
            " AND board IN (SELECT board FROM seats WHERE name = ${next})"
        ));
        next += 1;
    }
    if filter.game.is_some() {
        sql.push_str(&format!(" AND game = ${next}"));
        next += 1;
    }
    if !filter.statuses.is_empty() {
        let slots: Vec<String> = (0..filter.statuses.len())
            .map(|i| format!("${}", next + i))
            .collect();
        sql.push_str(&format!(" AND status IN ({})", slots.join(", ")));
        next += filter.statuses.len();
    }
    sql.push_str(&format!(
        " ORDER BY COALESCE(finished_ms, last_move_ms, created_ms) DESC, board DESC LIMIT ${next}"
    ));
    let mut query = sqlx::query(&sql);
    if let Some(player) = &filter.player {
        query = query.bind(player);
    }
    if let Some(game) = &filter.game {
        query = query.bind(game);
    }
    for status in &filter.statuses {
        query = query.bind(status.as_str());
    }
    let rows = query.bind(filter.limit).fetch_all(&mut *conn).await?;
    games_with_seats(conn, rows).await
}

/// Boards in play or waiting for acceptance (for the sweeper and the bots).
pub async fn open_boards(conn: &mut AnyConnection) -> Result<Vec<GameRow>> {
    let sql = format!(
        "SELECT {GAME_COLUMNS} FROM games WHERE status IN ('challenge', 'active') ORDER BY board"
    );
    let rows = sqlx::query(&sql).fetch_all(&mut *conn).await?;
    games_with_seats(conn, rows).await
}

/// The newest `limit` finished boards of a game by board number, newest first, with seats.
pub async fn newest_finished(
    conn: &mut AnyConnection,
    game: &str,
    limit: i64,
) -> Result<Vec<GameRow>> {
    let sql = format!(
        "SELECT {GAME_COLUMNS} FROM games WHERE game = $1 AND status = 'finished' \
         ORDER BY board DESC LIMIT $2"
    );
    let rows = sqlx::query(&sql)
        .bind(game)
        .bind(limit)
        .fetch_all(&mut *conn)
        .await?;
    games_with_seats(conn, rows).await
}

/// The number the next board gets: boards count from 101.
pub async fn next_board(conn: &mut AnyConnection) -> Result<i64> {
    next_number(conn, "board").await
}

/// The next value of a counter row (`board`, `seek`, `mail_inbox`, `mail_outbox`). The row stays
/// locked until the transaction ends, so concurrent writers on any node get distinct numbers.
pub async fn next_number(conn: &mut AnyConnection, counter: &str) -> Result<i64> {
    let row = sqlx::query("UPDATE counters SET value = value + 1 WHERE name = $1 RETURNING value")
        .bind(counter)
        .fetch_one(conn)
        .await?;
    Ok(row.try_get("value")?)
}

/// Stores a new board and its seats.
pub async fn insert_game(conn: &mut AnyConnection, game: &mut GameRow) -> Result<()> {
    static SQL: LazyLock<String> = LazyLock::new(|| {
        let slots: Vec<String> = (1..=GAME_COLUMN_COUNT).map(|i| format!("${i}")).collect();
        format!(
            "INSERT INTO games ({GAME_COLUMNS}) VALUES ({})",
            slots.join(", ")
        )
    });
    let mut arguments = AnyArguments::default();
    add_game(&mut arguments, game)?;
    sqlx::query_with(&SQL, arguments)
        .execute(&mut *conn)
        .await?;
    write_seats(conn, game).await
}

/// Writes every column of a game row back: `$1` the board, then the others in `GAME_COLUMNS`
/// order.
static UPDATE_GAME: LazyLock<String> = LazyLock::new(|| {
    let sets: Vec<String> = GAME_COLUMNS
        .split(", ")
        .enumerate()
        .skip(1)
        .map(|(i, column)| format!("{} = ${}", column.trim(), i + 1))
        .collect();
    format!("UPDATE games SET {} WHERE board = $1", sets.join(", "))
});

/// Writes every column of a game row back, and its seats that changed.
pub async fn update_game(conn: &mut AnyConnection, game: &mut GameRow) -> Result<()> {
    let mut arguments = AnyArguments::default();
    add_game(&mut arguments, game)?;
    sqlx::query_with(&UPDATE_GAME, arguments)
        .execute(&mut *conn)
        .await?;
    write_seats(conn, game).await
}

/// [`update_game`] as the last writes of `tx`: on SQLite they go to the database with its
/// COMMIT, in one round trip (see `store/tx.rs`); nothing in `tx` may read the
/// board after this. On PostgreSQL they are written at once.
pub async fn update_game_at_commit(tx: &mut WriteTx, game: &mut GameRow) -> Result<()> {
    if !tx.defers_writes() {
        return update_game(tx, game).await;
    }
    tx.write_at_commit(&UPDATE_GAME, |arguments| add_game(arguments, game))?;
    for write in seat_writes(game) {
        tx.write_at_commit(write.sql(), |arguments| {
            write.add_arguments(game.board, arguments)
        })?;
    }
    game.stored_seats = game.seats.clone();
    Ok(())
}

/// Adds an argument to a statement's.
pub(super) fn add<T>(arguments: &mut AnyArguments<'static>, value: T) -> Result<()>
where
    T: 'static + sqlx::Encode<'static, Any> + sqlx::Type<Any>,
{
    arguments.add(value).map_err(sqlx::Error::Encode)?;
    Ok(())
}

/// Adds a game's columns, in `GAME_COLUMNS` order, to `a`.
fn add_game(a: &mut AnyArguments<'static>, game: &GameRow) -> Result<()> {
    add(a, game.board)?;
    add(a, game.game.clone())?;
    add(a, game.status.as_str())?;
    add(a, game.layout.clone())?;
    add(a, game.start_fen.clone())?;
    add(a, game.fen.clone())?;
    add(a, game.plies)?;
    add(a, game.version)?;
    add(a, game.result.clone())?;
    add(a, game.termination.clone())?;
    add(a, game.rated as i64)?;
    add(a, game.nag_days)?;
    add(a, game.forfeit_days)?;
    add(a, game.total_days)?;
    add(a, game.clock_base_ms)?;
    add(a, game.clock_increment_ms)?;
    add(a, game.proposal.clone())?;
    add(a, game.proposal_by.clone())?;
    add(a, game.nagged_ply)?;
    add(a, game.created_ms)?;
    add(a, game.started_ms)?;
    add(a, game.last_move_ms)?;
    add(a, game.finished_ms)?;
    add(a, game.unrated_reason.clone())
}
