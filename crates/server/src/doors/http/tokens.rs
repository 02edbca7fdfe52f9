//! `/api/account/tokens`: a signed-in user's personal API tokens (create, list, revoke). Only a
//! session may come here (`scopes.rs` refuses API tokens), so a leaked token cannot make more.

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::Json;
use serde::Deserialize;
use serde_json::json;

use super::{authenticated, ApiResult, Body, HttpState};
use crate::model::Scope;

#[derive(Deserialize)]
pub(super) struct NewToken {
    /// The owner's name for the token.
    label: String,
    scopes: Vec<Scope>,
}

/// `GET /api/account/tokens`: the user's tokens, without their secrets.
pub(super) async fn list(State(state): State<HttpState>, headers: HeaderMap) -> ApiResult {
    let user = authenticated(&state, &headers, None).await?;
    Ok(Json(json!(state.app.accounts.api_tokens(&user).await?)))
}

/// `POST /api/account/tokens`: a new token, its secret in `token` this once.
pub(super) async fn create(
    State(state): State<HttpState>,
    headers: HeaderMap,
    Body(new): Body<NewToken>,
) -> ApiResult<(StatusCode, Json<serde_json::Value>)> {
    let user = authenticated(&state, &headers, None).await?;
    let accounts = &state.app.accounts;
    let (made, secret) = accounts
        .create_api_token(&user, &new.label, &new.scopes)
        .await?;
    let mut body = json!(made);
    body["token"] = json!(secret);
    Ok((StatusCode::CREATED, Json(body)))
}

/// `DELETE /api/account/tokens/{id}`: revokes the token at once.
pub(super) async fn revoke(
    State(state): State<HttpState>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> ApiResult<StatusCode> {
    let user = authenticated(&state, &headers, None).await?;
    state.app.accounts.revoke_api_token(&user, &id).await?;
    Ok(StatusCode::NO_CONTENT)
}
