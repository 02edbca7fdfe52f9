//! Blocks, reports and mutes over HTTP: `GET/POST /api/blocks`, `DELETE /api/blocks/{user}`,
//! `GET/POST /api/reports` (listing: moderators), `POST /api/users/{name}/mute` (moderators) and
//! `POST /api/users/{name}/moderator` (the server's admins). Each is one call of
//! [`crate::domain::moderation`].

use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::Json;
use serde::Deserialize;
use serde_json::json;

use super::{authenticated, ApiResult, Body, HttpState};

pub(super) async fn blocks(State(state): State<HttpState>, headers: HeaderMap) -> ApiResult {
    let me = authenticated(&state, &headers, None).await?;
    Ok(Json(
        json!({"blocked": state.app.moderation.blocks(&me).await?}),
    ))
}

#[derive(Deserialize)]
pub(super) struct BlockBody {
    user: String,
}

pub(super) async fn block(
    State(state): State<HttpState>,
    headers: HeaderMap,
    Body(body): Body<BlockBody>,
) -> ApiResult {
    let me = authenticated(&state, &headers, None).await?;
    let blocked = state.app.moderation.block(&me, &body.user).await?;
    Ok(Json(json!({"blocked": blocked})))
}

pub(super) async fn unblock(
    State(state): State<HttpState>,
    headers: HeaderMap,
    Path(user): Path<String>,
) -> ApiResult {
    let me = authenticated(&state, &headers, None).await?;
    state.app.moderation.unblock(&me, &user).await?;
    Ok(Json(json!({"unblocked": user.to_ascii_lowercase()})))
}

#[derive(Deserialize)]
pub(super) struct ReportBody {
    user: String,
    #[serde(default)]
    board: Option<i64>,
    reason: String,
}

pub(super) async fn report(
    State(state): State<HttpState>,
    headers: HeaderMap,
    Body(body): Body<ReportBody>,
) -> ApiResult {
    let me = authenticated(&state, &headers, None).await?;
    let report = state
        .app
        .moderation
        .report(&me, &body.user, body.board, &body.reason)
        .await?;
    Ok(Json(json!(report)))
}

pub(super) async fn reports(State(state): State<HttpState>, headers: HeaderMap) -> ApiResult {
    let me = authenticated(&state, &headers, None).await?;
    Ok(Json(json!(state.app.moderation.reports(&me).await?)))
}

#[derive(Deserialize)]
pub(super) struct MuteBody {
    minutes: i64,
    #[serde(default)]
    reason: String,
}

pub(super) async fn mute(
    State(state): State<HttpState>,
    headers: HeaderMap,
    Path(name): Path<String>,
    Body(body): Body<MuteBody>,
) -> ApiResult {
    let me = authenticated(&state, &headers, None).await?;
    let until_ms = state
        .app
        .moderation
        .mute(&me, &name, body.minutes, &body.reason)
        .await?;
    Ok(Json(
        json!({"user": name.to_ascii_lowercase(), "until_ms": until_ms}),
    ))
}

pub(super) async fn grant(
    State(state): State<HttpState>,
    headers: HeaderMap,
    Path(name): Path<String>,
) -> ApiResult {
    let me = authenticated(&state, &headers, None).await?;
    let moderator = state.app.moderation.grant(&me, &name).await?;
    Ok(Json(json!({"moderator": moderator})))
}
