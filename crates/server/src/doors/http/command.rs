//! `POST /api/command`: the command language over HTTP, answered in text or, when asked for,
//! in JSON.

use std::net::SocketAddr;

use axum::extract::{ConnectInfo, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Extension;

use super::errors::CommandText;
use super::HttpState;
use crate::doors::command::{self, Request};

/// `POST /api/command`: the first line is the command, the rest the body (a chat message).
pub(super) async fn run(
    State(state): State<HttpState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    text: String,
) -> Response {
    let (line, body) = match text.split_once('\n') {
        Some((line, body)) => (line.trim().to_string(), Some(body.to_string())),
        None => (text.trim().to_string(), None),
    };
    let json = command::wants_json(&line)
        || headers
            .get(header::ACCEPT)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.contains("application/json"));
    let request = Request {
        line,
        body,
        peer: Some(peer.ip()),
    };
    let reply = command::execute(&state.app, &request).await;
    let status = if reply.ok {
        StatusCode::OK
    } else {
        StatusCode::BAD_REQUEST
    };
    match json {
        true => (
            status,
            [(header::CONTENT_TYPE, "application/json")],
            reply.to_json(),
        )
            .into_response(),
        false => (
            status,
            [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
            Extension(CommandText),
            reply.text,
        )
            .into_response(),
    }
}
