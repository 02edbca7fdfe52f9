//! The queries of tournaments, their players and pairings (migration 0013).

use sqlx::{AnyConnection, Row};

use super::is_postgres;
use crate::error::{Error, Result};
use crate::model::{EntryRow, PairingRow, TournamentRow};

const COLUMNS: &str = "id, kind, name, game, creator, status, rounds, round, minutes, \
     clock_base_ms, clock_increment_ms, days, rated, created_ms, starts_ms, started_ms, \
     finished_ms";

fn stored(what: &str, err: String) -> Error {
    Error::Database(format!("stored tournament {what}: {err}").into())
}

fn from_row(row: &sqlx::any::AnyRow) -> Result<TournamentRow> {
    let kind: String = row.try_get("kind")?;
    let status: String = row.try_get("status")?;
    Ok(TournamentRow {
        id: row.try_get("id")?,
        kind: kind.parse().map_err(|e| stored("kind", e))?,
        name: row.try_get("name")?,
        game: row.try_get("game")?,
        creator: row.try_get("creator")?,
        status: status.parse().map_err(|e| stored("status", e))?,
        rounds: row.try_get("rounds")?,
        round: row.try_get("round")?,
        minutes: row.try_get("minutes")?,
        clock_base_ms: row.try_get("clock_base_ms")?,
        clock_increment_ms: row.try_get("clock_increment_ms")?,
        days: row.try_get("days")?,
        rated: row.try_get::<i64, _>("rated")? != 0,
        created_ms: row.try_get("created_ms")?,
        starts_ms: row.try_get("starts_ms")?,
        started_ms: row.try_get("started_ms")?,
        finished_ms: row.try_get("finished_ms")?,
    })
}

pub async fn next_tournament(conn: &mut AnyConnection) -> Result<i64> {
    super::next_number(conn, "tournament").await
}

pub async fn insert_tournament(conn: &mut AnyConnection, t: &TournamentRow) -> Result<()> {
    let sql = format!(
        "INSERT INTO tournaments ({COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, \
         $11, $12, $13, $14, $15, $16, $17)"
    );
    sqlx::query(&sql)
        .bind(t.id)
        .bind(t.kind.as_str())
        .bind(&t.name)
        .bind(&t.game)
        .bind(&t.creator)
        .bind(t.status.as_str())
        .bind(t.rounds)
        .bind(t.round)
        .bind(t.minutes)
        .bind(t.clock_base_ms)
        .bind(t.clock_increment_ms)
        .bind(t.days)
        .bind(i64::from(t.rated))
        .bind(t.created_ms)
        .bind(t.starts_ms)
        .bind(t.started_ms)
        .bind(t.finished_ms)
        .execute(conn)
        .await?;
    Ok(())
}

/// Writes a tournament's changing fields (status, round, start and end).
pub async fn update_tournament(conn: &mut AnyConnection, t: &TournamentRow) -> Result<()> {
    sqlx::query(
        "UPDATE tournaments SET status = $1, round = $2, rounds = $3, started_ms = $4, \
         finished_ms = $5 WHERE id = $6",
    )
    .bind(t.status.as_str())
    .bind(t.round)
    .bind(t.rounds)
    .bind(t.started_ms)
    .bind(t.finished_ms)
    .bind(t.id)
    .execute(conn)
    .await?;
    Ok(())
}

pub async fn tournament(conn: &mut AnyConnection, id: i64) -> Result<Option<TournamentRow>> {
    let sql = format!("SELECT {COLUMNS} FROM tournaments WHERE id = $1");
    let row = sqlx::query(&sql).bind(id).fetch_optional(conn).await?;
    row.as_ref().map(from_row).transpose()
}

/// A tournament read to be changed: on PostgreSQL its row stays locked until the transaction
/// ends, so two nodes never change one tournament at once (SQLite's one writer needs no lock).
pub async fn tournament_for_update(
    conn: &mut AnyConnection,
    id: i64,
) -> Result<Option<TournamentRow>> {
    if !is_postgres(conn) {
        return tournament(conn, id).await;
    }
    let sql = format!("SELECT {COLUMNS} FROM tournaments WHERE id = $1 FOR UPDATE");
    let row = sqlx::query(&sql).bind(id).fetch_optional(conn).await?;
    row.as_ref().map(from_row).transpose()
}

/// Every tournament, newest first (at most `limit`).
pub async fn tournaments(conn: &mut AnyConnection, limit: i64) -> Result<Vec<TournamentRow>> {
    let sql = format!("SELECT {COLUMNS} FROM tournaments ORDER BY id DESC LIMIT $1");
    let rows = sqlx::query(&sql).bind(limit).fetch_all(conn).await?;
    rows.iter().map(from_row).collect()
}

/// How many tournaments `creator` made that are not finished.
pub async fn unfinished_tournaments_by(conn: &mut AnyConnection, creator: &str) -> Result<i64> {
    let row = sqlx::query(
        "SELECT COUNT(*) AS n FROM tournaments WHERE creator = $1 AND status <> 'finished'",
    )
    .bind(creator)
    .fetch_one(conn)
    .await?;
    Ok(row.try_get("n")?)
}

/// The ids of the tournaments that are not finished.
pub async fn unfinished_tournaments(conn: &mut AnyConnection) -> Result<Vec<i64>> {
    let rows = sqlx::query("SELECT id FROM tournaments WHERE status <> 'finished' ORDER BY id")
        .fetch_all(conn)
        .await?;
    rows.iter()
        .map(|r| r.try_get("id").map_err(Into::into))
        .collect()
}

/// A tournament's players, in seed order (rating when they joined, highest first; then name).
pub async fn entries(conn: &mut AnyConnection, tournament: i64) -> Result<Vec<EntryRow>> {
    let rows = sqlx::query(
        "SELECT name, rating, joined_ms, withdrawn FROM tournament_players \
         WHERE tournament = $1 ORDER BY rating DESC, name",
    )
    .bind(tournament)
    .fetch_all(conn)
    .await?;
    rows.iter()
        .map(|row| {
            Ok(EntryRow {
                name: row.try_get("name")?,
                rating: row.try_get("rating")?,
                joined_ms: row.try_get("joined_ms")?,
                withdrawn: row.try_get::<i64, _>("withdrawn")? != 0,
            })
        })
        .collect()
}

/// Adds a player, or brings back one who withdrew; false when they were in already.
pub async fn join(conn: &mut AnyConnection, tournament: i64, entry: &EntryRow) -> Result<bool> {
    let back = sqlx::query(
        "UPDATE tournament_players SET withdrawn = 0 \
         WHERE tournament = $1 AND name = $2 AND withdrawn <> 0",
    )
    .bind(tournament)
    .bind(&entry.name)
    .execute(&mut *conn)
    .await?;
    if back.rows_affected() > 0 {
        return Ok(true);
    }
    let added = sqlx::query(
        "INSERT INTO tournament_players (tournament, name, rating, joined_ms, withdrawn) \
         VALUES ($1, $2, $3, $4, 0) ON CONFLICT (tournament, name) DO NOTHING",
    )
    .bind(tournament)
    .bind(&entry.name)
    .bind(entry.rating)
    .bind(entry.joined_ms)
    .execute(conn)
    .await?;
    Ok(added.rows_affected() > 0)
}

/// Marks a player withdrawn; false when they were not in (or had withdrawn already).
pub async fn withdraw(conn: &mut AnyConnection, tournament: i64, name: &str) -> Result<bool> {
    let done = sqlx::query(
        "UPDATE tournament_players SET withdrawn = 1 \
         WHERE tournament = $1 AND name = $2 AND withdrawn = 0",
    )
    .bind(tournament)
    .bind(name)
    .execute(conn)
    .await?;
    Ok(done.rows_affected() > 0)
}

/// Removes a player who has not played (leaving an open tournament).
pub async fn remove_entry(conn: &mut AnyConnection, tournament: i64, name: &str) -> Result<bool> {
    let done = sqlx::query("DELETE FROM tournament_players WHERE tournament = $1 AND name = $2")
        .bind(tournament)
        .bind(name)
        .execute(conn)
        .await?;
    Ok(done.rows_affected() > 0)
}

/// A tournament's pairings, by round and board.
pub async fn pairings(conn: &mut AnyConnection, tournament: i64) -> Result<Vec<PairingRow>> {
    let rows = sqlx::query(
        "SELECT round, board, x, o, game, result FROM tournament_pairings \
         WHERE tournament = $1 ORDER BY round, board",
    )
    .bind(tournament)
    .fetch_all(conn)
    .await?;
    rows.iter()
        .map(|row| {
            Ok(PairingRow {
                round: row.try_get("round")?,
                board: row.try_get("board")?,
                x: row.try_get("x")?,
                o: row.try_get("o")?,
                game: row.try_get("game")?,
                result: row.try_get("result")?,
            })
        })
        .collect()
}

pub async fn insert_pairing(
    conn: &mut AnyConnection,
    tournament: i64,
    pairing: &PairingRow,
) -> Result<()> {
    sqlx::query(
        "INSERT INTO tournament_pairings (tournament, round, board, x, o, game, result) \
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(tournament)
    .bind(pairing.round)
    .bind(pairing.board)
    .bind(&pairing.x)
    .bind(&pairing.o)
    .bind(pairing.game)
    .bind(&pairing.result)
    .execute(conn)
    .await?;
    Ok(())
}

/// Records the result of a tournament's game, in the transaction that ends the game (a board
/// outside tournaments matches no row). Only a pairing still in play takes it.
pub async fn record_tournament_result(
    conn: &mut AnyConnection,
    board: i64,
    result: &str,
) -> Result<()> {
    sqlx::query("UPDATE tournament_pairings SET result = $1 WHERE game = $2 AND result = '*'")
        .bind(result)
        .bind(board)
        .execute(conn)
        .await?;
    Ok(())
}
