//! Ratings (one row per user and game) and their history.

use std::collections::HashMap;

use sqlx::{AnyConnection, Row};

use super::is_postgres;
use crate::error::Result;
use crate::model::{RatingPoint, RatingRow};

const RATING_COLUMNS: &str =
    "name, game, rating, deviation, volatility, wins, losses, draws, last_game_ms";

fn rating_from_row(row: &sqlx::any::AnyRow) -> Result<RatingRow> {
    Ok(RatingRow {
        name: row.try_get("name")?,
        game: row.try_get("game")?,
        rating: row.try_get("rating")?,
        deviation: row.try_get("deviation")?,
        volatility: row.try_get("volatility")?,
        wins: row.try_get("wins")?,
        losses: row.try_get("losses")?,
        draws: row.try_get("draws")?,
        last_game_ms: row.try_get("last_game_ms")?,
    })
}

/// A user's rating in a game, the initial one if they have not played it.
pub async fn rating(conn: &mut AnyConnection, name: &str, game: &str) -> Result<RatingRow> {
    let sql = format!("SELECT {RATING_COLUMNS} FROM ratings WHERE name = $1 AND game = $2");
    let row = sqlx::query(&sql)
        .bind(name)
        .bind(game)
        .fetch_optional(conn)
        .await?;
    match row {
        Some(row) => rating_from_row(&row),
        None => Ok(RatingRow::initial(name, game)),
    }
}

/// Every rating of one game (players who played it), best first.
pub async fn ratings_of_game(conn: &mut AnyConnection, game: &str) -> Result<Vec<RatingRow>> {
    let sql =
        format!("SELECT {RATING_COLUMNS} FROM ratings WHERE game = $1 ORDER BY rating DESC, name");
    let rows = sqlx::query(&sql).bind(game).fetch_all(conn).await?;
    rows.iter().map(rating_from_row).collect()
}

/// Every rating of one user, by game name.
pub async fn ratings_of_user(conn: &mut AnyConnection, name: &str) -> Result<Vec<RatingRow>> {
    let sql = format!("SELECT {RATING_COLUMNS} FROM ratings WHERE name = $1 ORDER BY game");
    let rows = sqlx::query(&sql).bind(name).fetch_all(conn).await?;
    rows.iter().map(rating_from_row).collect()
}

/// Locks the rating rows of `names` in one game until the transaction ends (PostgreSQL; SQLite's
/// one writer needs none), creating initial rows for first games, in name order so that two
/// finishing games sharing players cannot deadlock.
pub async fn lock_ratings(conn: &mut AnyConnection, names: &[&str], game: &str) -> Result<()> {
    if !is_postgres(conn) {
        return Ok(());
    }
    let mut names = names.to_vec();
    names.sort_unstable();
    for name in names {
        let initial = RatingRow::initial(name, game);
        sqlx::query(
            "INSERT INTO ratings (name, game, rating, deviation, volatility, wins, losses, draws) \
             VALUES ($1, $2, $3, $4, $5, 0, 0, 0) ON CONFLICT (name, game) DO NOTHING",
        )
        .bind(name)
        .bind(game)
        .bind(initial.rating)
        .bind(initial.deviation)
        .bind(initial.volatility)
        .execute(&mut *conn)
        .await?;
        sqlx::query("SELECT name FROM ratings WHERE name = $1 AND game = $2 FOR UPDATE")
            .bind(name)
            .bind(game)
            .fetch_one(&mut *conn)
            .await?;
    }
    Ok(())
}

/// Stores a user's rating and record in a game after a game.
pub async fn update_rating(conn: &mut AnyConnection, rating: &RatingRow) -> Result<()> {
    sqlx::query("DELETE FROM ratings WHERE name = $1 AND game = $2")
        .bind(&rating.name)
        .bind(&rating.game)
        .execute(&mut *conn)
        .await?;
    sqlx::query(
        "INSERT INTO ratings (name, game, rating, deviation, volatility, wins, losses, draws, \
         last_game_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
    )
    .bind(&rating.name)
    .bind(&rating.game)
    .bind(rating.rating)
    .bind(rating.deviation)
    .bind(rating.volatility)
    .bind(rating.wins)
    .bind(rating.losses)
    .bind(rating.draws)
    .bind(rating.last_game_ms)
    .execute(conn)
    .await?;
    Ok(())
}

pub async fn insert_rating_point(
    conn: &mut AnyConnection,
    name: &str,
    point: &RatingPoint,
) -> Result<()> {
    sqlx::query(
        "INSERT INTO rating_history (name, board, game, at_ms, rating, deviation) \
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(name)
    .bind(point.board)
    .bind(&point.game)
    .bind(point.at_ms)
    .bind(point.rating)
    .bind(point.deviation)
    .execute(conn)
    .await?;
    Ok(())
}

pub async fn rating_history(conn: &mut AnyConnection, name: &str) -> Result<Vec<RatingPoint>> {
    let rows = sqlx::query(
        "SELECT board, game, at_ms, rating, deviation FROM rating_history WHERE name = $1 \
         ORDER BY at_ms, board",
    )
    .bind(name)
    .fetch_all(conn)
    .await?;
    rows.iter()
        .map(|row| {
            Ok(RatingPoint {
                board: row.try_get("board")?,
                game: row.try_get("game")?,
                at_ms: row.try_get("at_ms")?,
                rating: row.try_get("rating")?,
                deviation: row.try_get("deviation")?,
            })
        })
        .collect()
}

/// The ratings players of a game reached with its boards numbered from `first_board` on, as
/// (board, name, rating after the game).
pub async fn ratings_after_boards_from(
    conn: &mut AnyConnection,
    game: &str,
    first_board: i64,
) -> Result<Vec<(i64, String, f64)>> {
    let rows = sqlx::query(
        "SELECT board, name, rating FROM rating_history WHERE game = $1 AND board >= $2",
    )
    .bind(game)
    .bind(first_board)
    .fetch_all(conn)
    .await?;
    rows.iter()
        .map(|row| {
            Ok((
                row.try_get("board")?,
                row.try_get("name")?,
                row.try_get("rating")?,
            ))
        })
        .collect()
}

/// Finished rated games per player of a game: all of them, or only those with a clock
/// (`clocked` true) or without (false).
pub async fn rated_games_per_player(
    conn: &mut AnyConnection,
    game: &str,
    clocked: Option<bool>,
) -> Result<HashMap<String, i64>> {
    let speed = match clocked {
        None => "",
        Some(true) => " AND g.clock_base_ms IS NOT NULL",
        Some(false) => " AND g.clock_base_ms IS NULL",
    };
    let sql = format!(
        "SELECT s.name AS name, COUNT(*) AS n FROM seats s JOIN games g ON g.board = s.board \
         WHERE g.game = $1 AND g.status = 'finished' AND g.rated = 1{speed} GROUP BY s.name"
    );
    let rows = sqlx::query(&sql).bind(game).fetch_all(conn).await?;
    rows.iter()
        .map(|row| Ok((row.try_get("name")?, row.try_get("n")?)))
        .collect()
}
