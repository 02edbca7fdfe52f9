//! `GET`, `POST` and `DELETE /api/account/vacation`: the signed-in player's vacation (away for
//! `{"days"}`, or back), each one call of [`crate::domain::games::Games`]'s vacation acts.

use axum::extract::State;
use axum::http::HeaderMap;
use axum::Json;
use serde::Deserialize;
use serde_json::json;

use super::{authenticated, ApiResult, Body, HttpState};

pub(super) async fn get(State(state): State<HttpState>, headers: HeaderMap) -> ApiResult {
    let me = authenticated(&state, &headers, None).await?;
    Ok(Json(json!(state.app.games.vacation(&me).await?)))
}

#[derive(Deserialize)]
pub(super) struct VacationBody {
    days: i64,
}

pub(super) async fn start(
    State(state): State<HttpState>,
    headers: HeaderMap,
    Body(body): Body<VacationBody>,
) -> ApiResult {
    let me = authenticated(&state, &headers, None).await?;
    let vacation = state.app.games.start_vacation(&me, body.days).await?;
    Ok(Json(json!(vacation)))
}

pub(super) async fn end(State(state): State<HttpState>, headers: HeaderMap) -> ApiResult {
    let me = authenticated(&state, &headers, None).await?;
    Ok(Json(json!(state.app.games.end_vacation(&me).await?)))
}
