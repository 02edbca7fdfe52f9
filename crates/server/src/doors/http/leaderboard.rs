//! `GET /api/leaderboard?game=&speed=` (readable without an account) and `POST
//! /api/bot/upgrade` (an account becomes a bot).

use axum::extract::{Query, State};
use axum::Json;
use games::GameKind;
use serde::Deserialize;
use serde_json::json;

use axum::http::HeaderMap;

use super::{authenticated, bad, ApiResult, HttpState};
use crate::domain::standings::Speed;

#[derive(Deserialize)]
pub(super) struct LeaderboardQuery {
    /// A game's name; `ataxx` if left out.
    game: Option<String>,
    /// `live`, `correspondence` or `all` (the default).
    speed: Option<String>,
}

pub(super) async fn get(
    State(state): State<HttpState>,
    Query(query): Query<LeaderboardQuery>,
) -> ApiResult {
    let game = match &query.game {
        Some(name) => name.parse::<GameKind>().map_err(|e| bad(e.to_string()))?,
        None => GameKind::Ataxx,
    };
    let speed = Speed::parse(query.speed.as_deref().unwrap_or("all"))?;
    let board = state.app.standings.leaderboard(game.name(), speed).await?;
    Ok(Json(json!(board)))
}

/// `POST /api/bot/upgrade`: the signed-in account becomes a bot (see [`crate::domain::accounts::Accounts::become_bot`]).
pub(super) async fn upgrade_to_bot(
    State(state): State<HttpState>,
    headers: HeaderMap,
) -> ApiResult {
    let me = authenticated(&state, &headers, None).await?;
    state.app.accounts.become_bot(&me).await?;
    Ok(Json(
        json!({"userid": me, "bot": crate::domain::accounts::ENGINE_BOT}),
    ))
}
