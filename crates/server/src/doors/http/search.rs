//! `GET /api/games/search` (finished games by player, game, speed, result, rated and date, a
//! page at a time) and `GET /api/games/search/pgn` (every game it matches as one PGN file).
//! Readable without an account, as finished games are.

use axum::extract::{Query, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::Json;
use games::GameKind;
use serde::Deserialize;
use serde_json::json;
use time::macros::format_description;

use super::ApiError;
use super::{bad, ApiResult, HttpState};
use crate::domain::standings::Speed;
use crate::doors::render::export;
use crate::model::{GameSearch, Outcome};

/// The last page number asked for (the document's maximum).
const MAX_PAGE: i64 = 1_000_000;

/// The most games one page shows.
const MAX_PER_PAGE: i64 = 100;
const DAY_MS: i64 = 24 * 3600 * 1000;

#[derive(Deserialize)]
pub(super) struct SearchQuery {
    player: Option<String>,
    game: Option<String>,
    /// `live`, `correspondence` or `all`.
    speed: Option<String>,
    /// The player's `win`, `loss` or `draw` (a draw needs no player).
    result: Option<String>,
    /// `true` or `false`.
    rated: Option<String>,
    /// Finished on or after this day (`YYYY-MM-DD`, UTC).
    from: Option<String>,
    /// Finished on or before this day.
    to: Option<String>,
    /// 1 for the newest games.
    page: Option<i64>,
    per_page: Option<i64>,
}

/// Midnight (UTC) that starts `day`, in ms since the epoch.
fn day_start_ms(name: &str, day: &str) -> Result<i64, ApiError> {
    let date = time::Date::parse(day, format_description!("[year]-[month]-[day]"))
        .map_err(|_| bad(format!("{name} {day:?}: give a day as YYYY-MM-DD")))?;
    Ok(date.midnight().assume_utc().unix_timestamp() * 1000)
}

/// Reads the query into a search of page `page` of `per_page` games.
fn search_of(query: &SearchQuery) -> Result<(GameSearch, i64, i64), ApiError> {
    let player = query
        .player
        .as_deref()
        .map(str::trim)
        .filter(|p| !p.is_empty());
    let outcome = match query.result.as_deref().filter(|r| !r.is_empty()) {
        None => None,
        Some("win") => Some(Outcome::Win),
        Some("loss") => Some(Outcome::Loss),
        Some("draw") => Some(Outcome::Draw),
        Some(other) => return Err(bad(format!("result {other:?}: give win, loss or draw"))),
    };
    if player.is_none() && matches!(outcome, Some(Outcome::Win | Outcome::Loss)) {
        return Err(bad("result win or loss is a player's: name the player"));
    }
    let game = match query.game.as_deref().filter(|g| !g.is_empty()) {
        Some(name) => Some(name.parse::<GameKind>().map_err(|e| bad(e.to_string()))?),
        None => None,
    };
    let speed = Speed::parse(
        query
            .speed
            .as_deref()
            .filter(|s| !s.is_empty())
            .unwrap_or("all"),
    )?;
    let rated = match query.rated.as_deref().filter(|r| !r.is_empty()) {
        None => None,
        Some("true") => Some(true),
        Some("false") => Some(false),
        Some(other) => return Err(bad(format!("rated {other:?}: give true or false"))),
    };
    let day = |name: &str, text: &Option<String>| {
        text.as_deref()
            .filter(|d| !d.is_empty())
            .map(|d| day_start_ms(name, d))
            .transpose()
    };
    let from_ms = day("from", &query.from)?;
    let until_ms = day("to", &query.to)?.map(|start| start + DAY_MS);
    let page = query.page.unwrap_or(1);
    if !(1..=MAX_PAGE).contains(&page) {
        return Err(bad(format!("page {page}: from 1 to {MAX_PAGE}")));
    }
    let per_page = query.per_page.unwrap_or(20);
    if !(1..=MAX_PER_PAGE).contains(&per_page) {
        return Err(bad(format!(
            "per_page {per_page}: from 1 to {MAX_PER_PAGE}"
        )));
    }
    let search = GameSearch {
        player: player.map(str::to_ascii_lowercase),
        game: game.map(|g| g.name().to_string()),
        clocked: speed.clocked(),
        outcome,
        rated,
        from_ms,
        until_ms,
        offset: (page - 1).saturating_mul(per_page),
        limit: per_page,
    };
    Ok((search, page, per_page))
}

pub(super) async fn search(
    State(state): State<HttpState>,
    Query(query): Query<SearchQuery>,
) -> ApiResult {
    let (search, page, per_page) = search_of(&query)?;
    let found = state.app.games.search(&search).await?;
    let pages = (found.total + per_page - 1) / per_page;
    Ok(Json(json!({
        "total": found.total,
        "page": page,
        "per_page": per_page,
        "pages": pages,
        "games": found.games,
    })))
}

/// Every matching game (the newest [`crate::domain::games::MAX_EXPORT`]) as one PGN file,
/// offered for download.
pub(super) async fn pgn(
    State(state): State<HttpState>,
    Query(query): Query<SearchQuery>,
) -> ApiResult<Response> {
    let (search, _, _) = search_of(&query)?;
    let views = state.app.games.search_views(&search).await?;
    let text: String = views.iter().map(|view| export::pgn(view, None)).collect();
    // What a userid may hold (letters, digits, `_ . -`) and no other character of the query.
    let name: String = match &search.player {
        Some(player) => player
            .chars()
            .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'))
            .collect(),
        None => "all".into(),
    };
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "application/x-chess-pgn; charset=utf-8".to_string(),
            ),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"ataxx-games-{name}.pgn\""),
            ),
        ],
        text,
    )
        .into_response())
}
