//! `GET /healthz` (the process answers) and `GET /readyz` (the node can serve: its database
//! answers with every migration applied, and on a shared PostgreSQL its event listener
//! listens; it names who leads), for load balancers and orchestrators; and the request id of every HTTP request
//! (doors/request_id.rs).

use axum::extract::{Request, State};
use axum::http::{HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;
use tracing::Instrument;

use super::HttpState;
use crate::doors::request_id;

pub(super) async fn healthz() -> impl IntoResponse {
    Json(json!({"status": "ok"}))
}

pub(super) async fn readyz(State(state): State<HttpState>) -> Response {
    match state.app.health.readiness().await {
        Ok(leader) => Json(json!({"status": "ready", "leader": leader.as_str()})).into_response(),
        Err(reason) => (
            StatusCode::SERVICE_UNAVAILABLE,
            Json(json!({"status": "not ready", "reason": reason})),
        )
            .into_response(),
    }
}

/// The middleware: runs the request in a span with a new id, and answers the id.
pub(super) async fn with_request_id(request: Request, next: Next) -> Response {
    let id = request_id::new_id();
    let span = request_id::span("http", &id);
    let mut response = next.run(request).instrument(span).await;
    if let Ok(value) = HeaderValue::from_str(&id) {
        response.headers_mut().insert("x-request-id", value);
    }
    response
}
