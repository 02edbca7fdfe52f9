//! Players over HTTP: `GET /api/me`, `/api/users/{name}`, `/api/standings?game=` and
//! `/api/bots`, each a profile view of [`crate::domain::profiles`] as JSON.

use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::Json;
use games::GameKind;
use serde::Deserialize;
use serde_json::json;

use super::{authenticated, bad, ApiResult, HttpState};

pub(super) async fn me(State(state): State<HttpState>, headers: HeaderMap) -> ApiResult {
    let name = authenticated(&state, &headers, None).await?;
    let mut me = json!(state.app.profiles.user(&name).await?);
    // The browser shows its admin page to the server's admins.
    me["admin"] = json!(state.app.admin.is_admin(&name));
    // Its security page offers to turn the second factor on or off.
    me["second_factor"] = json!(state.app.accounts.has_second_factor(&name).await?);
    Ok(Json(me))
}

pub(super) async fn user(State(state): State<HttpState>, Path(name): Path<String>) -> ApiResult {
    let name = name.to_ascii_lowercase();
    Ok(Json(json!(state.app.profiles.user(&name).await?)))
}

#[derive(Deserialize)]
pub(super) struct StandingsQuery {
    /// A game's name; `ataxx` if left out.
    game: Option<String>,
}

pub(super) async fn standings(
    State(state): State<HttpState>,
    Query(query): Query<StandingsQuery>,
) -> ApiResult {
    let game = match &query.game {
        Some(name) => name.parse::<GameKind>().map_err(|e| bad(e.to_string()))?,
        None => GameKind::Ataxx,
    };
    Ok(Json(json!(state.app.profiles.standings(game).await?)))
}

pub(super) async fn bots(State(state): State<HttpState>) -> ApiResult {
    Ok(Json(json!(state.app.profiles.bots().await?)))
}
