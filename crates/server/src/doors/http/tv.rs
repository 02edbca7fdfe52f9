//! `GET /api/tv?game=&limit=`: the games in play, best-rated players first (readable without
//! an account; see [`crate::domain::tv`]).

use axum::extract::{Query, State};
use axum::Json;
use games::GameKind;
use serde::Deserialize;
use serde_json::json;

use super::{bad, ApiResult, HttpState};

/// The most games one answer lists.
const MAX_LIMIT: usize = 50;

#[derive(Deserialize)]
pub(super) struct TvQuery {
    /// A game's name: only games of that game; every game if left out.
    game: Option<String>,
    /// At most this many games (1 to 50); 1 if left out: the featured game.
    limit: Option<usize>,
}

pub(super) async fn get(State(state): State<HttpState>, Query(query): Query<TvQuery>) -> ApiResult {
    let game = match &query.game {
        Some(name) => Some(name.parse::<GameKind>().map_err(|e| bad(e.to_string()))?),
        None => None,
    };
    let limit = match query.limit {
        None => 1,
        Some(limit @ 1..=MAX_LIMIT) => limit,
        Some(limit) => return Err(bad(format!("limit {limit}: from 1 to {MAX_LIMIT}"))),
    };
    let games = state.app.tv.featured(game.map(|g| g.name()), limit).await?;
    Ok(Json(json!(games)))
}
