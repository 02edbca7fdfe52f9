//! The second factor over HTTP (issue #49), for the signed-in user: `POST /api/totp` makes a
//! secret (`{secret, uri}`), `POST /api/totp/confirm` `{code}` turns it on and answers the ten
//! recovery codes, `POST /api/totp/disable` `{code}` turns it off. `POST /api/login` then takes
//! `{"code"}` beside the password.

use axum::extract::State;
use axum::http::HeaderMap;
use axum::Json;
use serde::Deserialize;
use serde_json::json;

use super::{authenticated, ApiResult, Body, HttpState};

pub(super) async fn begin(State(state): State<HttpState>, headers: HeaderMap) -> ApiResult {
    let me = authenticated(&state, &headers, None).await?;
    Ok(Json(json!(state.app.accounts.begin_totp(&me).await?)))
}

#[derive(Deserialize)]
pub(super) struct CodeBody {
    code: String,
}

pub(super) async fn confirm(
    State(state): State<HttpState>,
    headers: HeaderMap,
    Body(body): Body<CodeBody>,
) -> ApiResult {
    let me = authenticated(&state, &headers, None).await?;
    let codes = state.app.accounts.confirm_totp(&me, &body.code).await?;
    Ok(Json(json!({"userid": me, "recovery_codes": codes})))
}

pub(super) async fn disable(
    State(state): State<HttpState>,
    headers: HeaderMap,
    Body(body): Body<CodeBody>,
) -> ApiResult {
    let me = authenticated(&state, &headers, None).await?;
    state.app.accounts.disable_totp(&me, &body.code).await?;
    Ok(Json(json!({"userid": me})))
}
