//! The server admins' acts over HTTP (`serve --admin` only): `POST /api/admin/users/{name}/ban`,
//! `/unban`, `/close`, `/cheater`, `/uncheater`, `/reset` (mails a password reset token),
//! `POST /api/admin/games/{board}/abort` (each with
//! `{"reason": …}`) and `GET /api/admin/log`. Each is one call of [`crate::domain::admin`].

use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::Json;
use serde::Deserialize;
use serde_json::json;

use super::{authenticated, ApiResult, Body, HttpState};

#[derive(Deserialize)]
pub(super) struct ReasonBody {
    #[serde(default)]
    reason: String,
}

pub(super) async fn ban(
    State(state): State<HttpState>,
    headers: HeaderMap,
    Path(name): Path<String>,
    Body(body): Body<ReasonBody>,
) -> ApiResult {
    let me = authenticated(&state, &headers, None).await?;
    Ok(Json(json!(
        state.app.admin.ban(&me, &name, &body.reason).await?
    )))
}

pub(super) async fn unban(
    State(state): State<HttpState>,
    headers: HeaderMap,
    Path(name): Path<String>,
    Body(body): Body<ReasonBody>,
) -> ApiResult {
    let me = authenticated(&state, &headers, None).await?;
    let user = state.app.admin.unban(&me, &name, &body.reason).await?;
    Ok(Json(json!({"user": user})))
}

pub(super) async fn close(
    State(state): State<HttpState>,
    headers: HeaderMap,
    Path(name): Path<String>,
    Body(body): Body<ReasonBody>,
) -> ApiResult {
    let me = authenticated(&state, &headers, None).await?;
    Ok(Json(json!(
        state.app.admin.close(&me, &name, &body.reason).await?
    )))
}

async fn mark_cheater(
    state: HttpState,
    headers: HeaderMap,
    name: String,
    on: bool,
    reason: String,
) -> ApiResult {
    let me = authenticated(&state, &headers, None).await?;
    let user = state.app.admin.cheater(&me, &name, on, &reason).await?;
    Ok(Json(json!({"user": user, "cheater": on})))
}

pub(super) async fn cheater(
    State(state): State<HttpState>,
    headers: HeaderMap,
    Path(name): Path<String>,
    Body(body): Body<ReasonBody>,
) -> ApiResult {
    mark_cheater(state, headers, name, true, body.reason).await
}

pub(super) async fn uncheater(
    State(state): State<HttpState>,
    headers: HeaderMap,
    Path(name): Path<String>,
    Body(body): Body<ReasonBody>,
) -> ApiResult {
    mark_cheater(state, headers, name, false, body.reason).await
}

pub(super) async fn reset(
    State(state): State<HttpState>,
    headers: HeaderMap,
    Path(name): Path<String>,
    Body(body): Body<ReasonBody>,
) -> ApiResult {
    let me = authenticated(&state, &headers, None).await?;
    let app = &state.app;
    let mailed = app
        .messages
        .send_reset(&app.admin, &me, &name, &body.reason)
        .await?;
    Ok(Json(json!(mailed)))
}

pub(super) async fn abort(
    State(state): State<HttpState>,
    headers: HeaderMap,
    Path(board): Path<i64>,
    Body(body): Body<ReasonBody>,
) -> ApiResult {
    let me = authenticated(&state, &headers, None).await?;
    Ok(Json(json!(
        state.app.admin.abort(&me, board, &body.reason).await?
    )))
}

pub(super) async fn log(State(state): State<HttpState>, headers: HeaderMap) -> ApiResult {
    let me = authenticated(&state, &headers, None).await?;
    Ok(Json(json!({"acts": state.app.admin.log(&me).await?})))
}
