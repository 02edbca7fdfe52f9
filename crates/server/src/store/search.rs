//! The games search: finished games by player, game, speed, outcome, rating and date, newest
//! first, a page at a time, with the count of every match.

use sqlx::{AnyConnection, Row};

use super::games::{games_with_seats, GAME_COLUMNS};
use crate::error::Result;
use crate::model::{GameRow, GameSearch, Outcome};

/// A value bound to a `$n` of the search's SQL.
enum Bound {
    Text(String),
    Number(i64),
}

/// The search's `WHERE` clause and its values, in `$n` order.
fn conditions(search: &GameSearch) -> (String, Vec<Bound>) {
    let mut sql = String::from("status = 'finished'");
    let mut values = vec![];
    let mut slot = |sql: &mut String, text: &str, value: Bound| {
        values.push(value);
        sql.push_str(&text.replace('?', &format!("${}", values.len())));
    };
    // A seat of the searched player with a rank the outcome allows.
    let player_rank = match search.outcome {
        Some(Outcome::Win | Outcome::Draw) => " AND finish_rank = 1",
        Some(Outcome::Loss) => " AND finish_rank > 1",
        None => "",
    };
    if let Some(player) = &search.player {
        let text = format!(" AND board IN (SELECT board FROM seats WHERE name = ?{player_rank})");
        slot(&mut sql, &text, Bound::Text(player.clone()));
    }
    // Whether some seat ranks other than first: a draw has none, a win (over the rank-1
    // condition above) some.
    let not_all_first =
        "EXISTS (SELECT 1 FROM seats o WHERE o.board = games.board AND o.finish_rank <> 1)";
    match search.outcome {
        Some(Outcome::Win) => sql.push_str(&format!(" AND {not_all_first}")),
        Some(Outcome::Draw) => sql.push_str(&format!(" AND NOT {not_all_first}")),
        _ => {}
    }
    if let Some(game) = &search.game {
        slot(&mut sql, " AND game = ?", Bound::Text(game.clone()));
    }
    match search.clocked {
        Some(true) => sql.push_str(" AND clock_base_ms IS NOT NULL"),
        Some(false) => sql.push_str(" AND clock_base_ms IS NULL"),
        None => {}
    }
    if let Some(rated) = search.rated {
        slot(&mut sql, " AND rated = ?", Bound::Number(rated.into()));
    }
    if let Some(from) = search.from_ms {
        slot(&mut sql, " AND finished_ms >= ?", Bound::Number(from));
    }
    if let Some(until) = search.until_ms {
        slot(&mut sql, " AND finished_ms < ?", Bound::Number(until));
    }
    (sql, values)
}

fn bind<'q>(
    mut query: sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments<'q>>,
    values: &'q [Bound],
) -> sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments<'q>> {
    for value in values {
        query = match value {
            Bound::Text(text) => query.bind(text.as_str()),
            Bound::Number(n) => query.bind(*n),
        };
    }
    query
}

/// How many finished games match, and the page `offset`..`offset + limit` of them, newest
/// first.
pub async fn search_games(
    conn: &mut AnyConnection,
    search: &GameSearch,
) -> Result<(i64, Vec<GameRow>)> {
    let (clause, values) = conditions(search);
    let count = format!("SELECT COUNT(*) AS n FROM games WHERE {clause}");
    let total: i64 = bind(sqlx::query(&count), &values)
        .fetch_one(&mut *conn)
        .await?
        .try_get("n")?;
    let next = values.len() + 1;
    let page = format!(
        "SELECT {GAME_COLUMNS} FROM games WHERE {clause} \
         ORDER BY finished_ms DESC, board DESC LIMIT ${next} OFFSET ${}",
        next + 1
    );
    let rows = bind(sqlx::query(&page), &values)
        .bind(search.limit)
        .bind(search.offset)
        .fetch_all(&mut *conn)
        .await?;
    Ok((total, games_with_seats(conn, rows).await?))
}
