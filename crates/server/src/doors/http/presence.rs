//! `POST /api/presence`: the lobby's heartbeat. Marks the signed-in user (if any) online and
//! lists who is, one call of [`crate::domain::online::Online::beat`].

use axum::extract::State;
use axum::http::HeaderMap;
use axum::Json;
use serde_json::json;

use super::{authenticated, ApiResult, HttpState};

pub(super) async fn beat(State(state): State<HttpState>, headers: HeaderMap) -> ApiResult {
    // A visitor without a valid session still sees the list; only the signed-in are listed.
    let user = authenticated(&state, &headers, None).await.ok();
    let online = state.app.online.beat(user.as_deref()).await?;
    Ok(Json(json!({ "online": online })))
}
