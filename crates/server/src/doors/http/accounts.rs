//! Accounts over HTTP: `POST /api/signup`, `/api/login`, `/api/logout`, `/api/password`.

use std::net::SocketAddr;

use axum::extract::{ConnectInfo, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};

use super::{authenticated, token, ApiError, ApiResult, Body, HttpState};
use crate::doors::command::mail;
use crate::doors::session_cookie::SESSION_COOKIE;
use crate::error::Error;

#[derive(Deserialize)]
pub(super) struct SignupBody {
    userid: String,
    password: String,
    #[serde(default)]
    addresses: Vec<String>,
}

pub(super) async fn signup(
    State(state): State<HttpState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Body(body): Body<SignupBody>,
) -> ApiResult<(StatusCode, Json<Value>)> {
    let app = &state.app;
    let (userid, password, peer) = (&body.userid, &body.password, Some(peer.ip()));
    // With mail, addresses wait for their confirmation mail (domain/messages/account_mail.rs).
    if app.messages.sends_mail() && !body.addresses.is_empty() {
        let accounts = app.accounts.for_peer(peer);
        let reply = mail::signup(app, &accounts, userid, password, &body.addresses, peer).await?;
        return Ok((StatusCode::CREATED, Json(reply.data)));
    }
    let user = app
        .accounts
        .signup(userid, password, &body.addresses, peer)
        .await?;
    Ok((StatusCode::CREATED, Json(json!({"userid": user.name}))))
}

#[derive(Deserialize)]
pub(super) struct LoginBody {
    userid: String,
    password: String,
    /// The second factor's code, for a user who has one on.
    #[serde(default)]
    code: Option<String>,
}

pub(super) async fn login(
    State(state): State<HttpState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Body(body): Body<LoginBody>,
) -> ApiResult<Response> {
    let (name, token) = state
        .app
        .accounts
        .for_peer(Some(peer.ip()))
        .login(&body.userid, &body.password, body.code.as_deref())
        .await?;
    let attributes = state.site.cookie_attributes();
    let cookie = format!("{SESSION_COOKIE}={token}; {attributes}; Max-Age=2592000");
    // `admin` spares the page a second request to learn whether to show the admin page.
    let admin = state.app.admin.is_admin(&name);
    let mut response =
        Json(json!({"userid": name, "token": token, "admin": admin})).into_response();
    response.headers_mut().insert(
        header::SET_COOKIE,
        HeaderValue::from_str(&cookie).expect("hex token is a valid header"),
    );
    Ok(response)
}

pub(super) async fn logout(
    State(state): State<HttpState>,
    headers: HeaderMap,
) -> ApiResult<Response> {
    let token = token(&headers, None).ok_or(ApiError(Error::Auth))?;
    state.app.accounts.logout(token).await?;
    let attributes = state.site.cookie_attributes();
    let cookie = format!("{SESSION_COOKIE}=; {attributes}; Max-Age=0");
    let mut response = Json(json!({})).into_response();
    response.headers_mut().insert(
        header::SET_COOKIE,
        HeaderValue::from_str(&cookie).expect("the cookie's attributes are valid in a header"),
    );
    Ok(response)
}

#[derive(Deserialize)]
pub(super) struct PasswordBody {
    current: String,
    new: String,
}

pub(super) async fn change_password(
    State(state): State<HttpState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    Body(body): Body<PasswordBody>,
) -> ApiResult {
    let name = authenticated(&state, &headers, None).await?;
    state
        .app
        .accounts
        .for_peer(Some(peer.ip()))
        .change_password(&name, &body.current, &body.new)
        .await?;
    Ok(Json(json!({"userid": name})))
}
