//! Boards and their seats: one row per board in `games`, one per player in `seats`.

use std::sync::LazyLock;

use sqlx::{Any, AnyConnection, Row};

use super::is_postgres;
use crate::error::{Error, Result};
use crate::model::{GameFilter, GameRow, SeatRow, Status};

pub(super) const GAME_COLUMNS: &str =
    "board, game, status, layout, start_fen, fen, plies, version, result, \
     termination, rated, nag_days, forfeit_days, total_days, clock_base_ms, clock_increment_ms, \
     proposal, proposal_by, nagged_ply, created_ms, started_ms, last_move_ms, finished_ms, \
     unrated_reason";

/// How many columns `GAME_COLUMNS` names.
const GAME_COLUMN_COUNT: usize = 24;

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

/// The most boards whose seats one query reads: well under the bound parameters SQLite and
/// PostgreSQL take in one statement.
const SEAT_QUERY_BOARDS: usize = 500;

/// The seats of `boards`, each with its board, in board and seat order.
async fn seats_of(conn: &mut AnyConnection, boards: &[i64]) -> Result<Vec<(i64, SeatRow)>> {
    if boards.is_empty() {
        return Ok(vec![]);
    }
    let slots: Vec<String> = (1..=boards.len()).map(|i| format!("${i}")).collect();
    let sql = format!(
        "SELECT board, {SEAT_COLUMNS} FROM seats WHERE board IN ({}) ORDER BY board, seat",
        slots.join(", ")
    );
    let mut query = sqlx::query(&sql);
    for board in boards {
        query = query.bind(*board);
    }
    let rows = query.fetch_all(conn).await?;
    rows.iter()
        .map(|row| Ok((row.try_get("board")?, seat_from_row(row)?)))
        .collect()
}

/// The columns of a seat row ([`seat_from_row`] reads them).
const SEAT_COLUMNS: &str = "name, accepted, remaining_ms, used_ms, finish_rank, rating_change";

fn seat_from_row(row: &sqlx::any::AnyRow) -> Result<SeatRow> {
    Ok(SeatRow {
        name: row.try_get("name")?,
        accepted: row.try_get::<i64, _>("accepted")? != 0,
        remaining_ms: row.try_get("remaining_ms")?,
        used_ms: row.try_get("used_ms")?,
        rank: row.try_get("finish_rank")?,
        rating_change: row.try_get("rating_change")?,
    })
}

/// Writes the seats of `game` that differ from its `stored_seats` (a new seat is inserted,
/// a changed one updated: a seat swap moves players between seats), then takes them as stored.
async fn write_seats(conn: &mut AnyConnection, game: &mut GameRow) -> Result<()> {
    for (i, seat) in game.seats.iter().enumerate() {
        let sql = match game.stored_seats.get(i) {
            Some(stored) if stored == seat => continue,
            Some(_) => {
                "UPDATE seats SET name = $3, accepted = $4, remaining_ms = $5, used_ms = $6, \
                 finish_rank = $7, rating_change = $8 WHERE board = $1 AND seat = $2"
            }
            None => {
                "INSERT INTO seats (board, seat, name, accepted, remaining_ms, used_ms, \
                 finish_rank, rating_change) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)"
            }
        };
        let query = sqlx::query(sql)
            .bind(game.board)
            .bind(i as i64)
            .bind(&seat.name)
            .bind(seat.accepted as i64)
            .bind(seat.remaining_ms)
            .bind(seat.used_ms)
            .bind(seat.rank);
        bind_nullable_double(query, seat.rating_change)
            .execute(&mut *conn)
            .await?;
    }
    if game.stored_seats.len() > game.seats.len() {
        sqlx::query("DELETE FROM seats WHERE board = $1 AND seat >= $2")
            .bind(game.board)
            .bind(game.seats.len() as i64)
            .execute(&mut *conn)
            .await?;
    }
    game.stored_seats = game.seats.clone();
    Ok(())
}

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
    let sql = format!("SELECT {GAME_COLUMNS} FROM games WHERE board = $1 FOR UPDATE");
    let row = sqlx::query(&sql)
        .bind(board)
        .fetch_optional(&mut *conn)
        .await?;
    Ok(games_with_seats(conn, row.into_iter().collect())
        .await?
        .pop())
}

/// One board with its seats, in one query (a row per seat; a move reads its board so).
async fn one_game(conn: &mut AnyConnection, board: i64) -> Result<Option<GameRow>> {
    static SQL: LazyLock<String> = LazyLock::new(|| {
        let game = GAME_COLUMNS.split(", ").map(|c| format!("g.{}", c.trim()));
        let seat = SEAT_COLUMNS.split(", ").map(|c| format!("s.{c}"));
        let columns = game.chain(seat).collect::<Vec<_>>().join(", ");
        format!(
            "SELECT {columns} FROM games g JOIN seats s ON s.board = g.board \
             WHERE g.board = $1 ORDER BY s.seat"
        )
    });
    let rows = sqlx::query(&SQL).bind(board).fetch_all(&mut *conn).await?;
    let Some(first) = rows.first() else {
        return Ok(None);
    };
    let mut game = game_from_row(first)?;
    game.seats = rows.iter().map(seat_from_row).collect::<Result<_>>()?;
    game.stored_seats = game.seats.clone();
    Ok(Some(game))
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

/// Whether a board of `game` in play stands at a position whose FEN begins with `prefix` (its
/// board and side to move, from a canonical FEN: no `%` or `_` in it).
pub async fn in_play_at(conn: &mut AnyConnection, game: &str, prefix: &str) -> Result<bool> {
    let row = sqlx::query(
        "SELECT COUNT(*) AS n FROM games WHERE status = 'active' AND game = $1 AND fen LIKE $2",
    )
    .bind(game)
    .bind(format!("{prefix}%"))
    .fetch_one(conn)
    .await?;
    Ok(row.try_get::<i64, _>("n")? > 0)
}

/// How many games are in play, of every kind.
pub async fn games_in_play(conn: &mut AnyConnection) -> Result<i64> {
    let row = sqlx::query("SELECT COUNT(*) AS n FROM games WHERE status = 'active'")
        .fetch_one(conn)
        .await?;
    Ok(row.try_get("n")?)
}

pub async fn active_game_count(conn: &mut AnyConnection, name: &str) -> Result<i64> {
    let row = sqlx::query(
        "SELECT COUNT(*) AS n FROM games WHERE status IN ('challenge', 'active') \
         AND board IN (SELECT board FROM seats WHERE name = $1)",
    )
    .bind(name)
    .fetch_one(conn)
    .await?;
    Ok(row.try_get("n")?)
}

/// How many boards of a game are in a state.
pub async fn count_games(conn: &mut AnyConnection, game: &str, status: Status) -> Result<i64> {
    let row = sqlx::query("SELECT COUNT(*) AS n FROM games WHERE game = $1 AND status = $2")
        .bind(game)
        .bind(status.as_str())
        .fetch_one(conn)
        .await?;
    Ok(row.try_get("n")?)
}

/// What tells whether a game's finished boards changed (the opening explorer's cache key):
/// how many there are and when the last one ended. Boards only ever join the finished ones.
pub async fn finished_fingerprint(conn: &mut AnyConnection, game: &str) -> Result<(i64, i64)> {
    let row = sqlx::query(
        "SELECT COUNT(*) AS n, COALESCE(MAX(finished_ms), 0) AS last FROM games \
         WHERE game = $1 AND status = 'finished'",
    )
    .bind(game)
    .fetch_one(conn)
    .await?;
    Ok((row.try_get("n")?, row.try_get("last")?))
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
    bind_game(sqlx::query(&SQL), game)
        .execute(&mut *conn)
        .await?;
    write_seats(conn, game).await
}

/// Writes every column of a game row back, and its seats that changed.
pub async fn update_game(conn: &mut AnyConnection, game: &mut GameRow) -> Result<()> {
    static SQL: LazyLock<String> = LazyLock::new(|| {
        let sets: Vec<String> = GAME_COLUMNS
            .split(", ")
            .enumerate()
            .skip(1)
            .map(|(i, column)| format!("{} = ${}", column.trim(), i + 1))
            .collect();
        format!("UPDATE games SET {} WHERE board = $1", sets.join(", "))
    });
    bind_game(sqlx::query(&SQL), game)
        .execute(&mut *conn)
        .await?;
    write_seats(conn, game).await
}

/// Binds an optional DOUBLE PRECISION. sqlx 0.8's Any driver swaps the types of its float NULLs:
/// a `None::<f64>` reaches PostgreSQL as a 4-byte REAL, the statement it prepares keeps that type,
/// and a later run binding a real f64 is refused ("incorrect binary data format"). A
/// `None::<f32>` is what arrives as an 8-byte NULL (SQLite takes either).
fn bind_nullable_double(query: AnyQuery<'_>, value: Option<f64>) -> AnyQuery<'_> {
    match value {
        Some(value) => query.bind(value),
        None => query.bind(None::<f32>),
    }
}

type AnyQuery<'q> = sqlx::query::Query<'q, Any, sqlx::any::AnyArguments<'q>>;

/// Binds a game's columns in `GAME_COLUMNS` order.
fn bind_game<'q>(query: AnyQuery<'q>, game: &'q GameRow) -> AnyQuery<'q> {
    query
        .bind(game.board)
        .bind(&game.game)
        .bind(game.status.as_str())
        .bind(&game.layout)
        .bind(&game.start_fen)
        .bind(&game.fen)
        .bind(game.plies)
        .bind(game.version)
        .bind(&game.result)
        .bind(&game.termination)
        .bind(game.rated as i64)
        .bind(game.nag_days)
        .bind(game.forfeit_days)
        .bind(game.total_days)
        .bind(game.clock_base_ms)
        .bind(game.clock_increment_ms)
        .bind(&game.proposal)
        .bind(&game.proposal_by)
        .bind(game.nagged_ply)
        .bind(game.created_ms)
        .bind(game.started_ms)
        .bind(game.last_move_ms)
        .bind(game.finished_ms)
        .bind(&game.unrated_reason)
}
