//! `GET /api/explorer?game=&fen=&speed=&min_rating=` (readable without an account): the moves
//! played from a position in the site's finished games (domain/explorer.rs).

use axum::extract::{Query, State};
use axum::Json;
use games::GameKind;
use serde::Deserialize;
use serde_json::json;

use super::{bad, ApiResult, HttpState};
use crate::domain::explorer::Filter;
use crate::domain::standings::Speed;
use crate::error::Error;

#[derive(Deserialize)]
pub(super) struct ExplorerQuery {
    /// A game's name; `ataxx` if left out.
    game: Option<String>,
    /// The position; the game's start position (its default size) if left out.
    fen: Option<String>,
    /// `live`, `correspondence` or `all` (the default).
    speed: Option<String>,
    /// Only games whose players' average rating was at least this.
    min_rating: Option<f64>,
}

pub(super) async fn get(
    State(state): State<HttpState>,
    Query(query): Query<ExplorerQuery>,
) -> ApiResult {
    let kind = match &query.game {
        Some(name) => name.parse::<GameKind>().map_err(|e| bad(e.to_string()))?,
        None => GameKind::Ataxx,
    };
    let fen = match query.fen {
        Some(fen) => fen,
        None => kind.start(&Default::default()).map_err(Error::from)?.fen(),
    };
    if query.min_rating.is_some_and(|r| !r.is_finite()) {
        return Err(bad("min_rating must be a number".to_string()));
    }
    let filter = Filter {
        speed: Speed::parse(query.speed.as_deref().unwrap_or("all"))?,
        min_rating: query.min_rating,
    };
    let explored = state.app.explorer.explore(kind, &fen, filter).await?;
    Ok(Json(json!(explored)))
}
