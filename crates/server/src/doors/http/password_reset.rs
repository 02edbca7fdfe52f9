//! Password resets over HTTP (issue #49): `POST /api/password-reset` `{"user"}` (a userid or an
//! address) mails a reset token, answered 202 with the same message whatever the account;
//! `POST /api/password-reset/confirm` `{"token", "password"}` sets the password.

use std::net::SocketAddr;

use axum::extract::{ConnectInfo, State};
use axum::http::StatusCode;
use axum::Json;
use serde::Deserialize;
use serde_json::Value;

use super::{ApiResult, Body, HttpState};
use crate::doors::command::mail;

#[derive(Deserialize)]
pub(super) struct RequestBody {
    user: String,
}

pub(super) async fn request(
    State(state): State<HttpState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Body(body): Body<RequestBody>,
) -> ApiResult<(StatusCode, Json<Value>)> {
    let accounts = state.app.accounts.for_peer(Some(peer.ip()));
    let reply = mail::reset_request(&state.app, &accounts, &body.user).await?;
    Ok((StatusCode::ACCEPTED, Json(reply.data)))
}

#[derive(Deserialize)]
pub(super) struct ConfirmBody {
    token: String,
    password: String,
}

pub(super) async fn confirm(
    State(state): State<HttpState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Body(body): Body<ConfirmBody>,
) -> ApiResult {
    let accounts = state.app.accounts.for_peer(Some(peer.ip()));
    let reply = mail::reset(&accounts, &body.token, &body.password).await?;
    Ok(Json(reply.data))
}
