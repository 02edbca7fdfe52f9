//! Every `/api` error in the documented shape `{"error": {"code", "message"}}`.
//!
//! The handlers answer their own errors that way; what they never see is answered by axum
//! itself in plain text or with an empty body: a path that does not parse (`/api/games/abc`),
//! a body over the limit or not UTF-8 before a handler reads it, a method or route that does not
//! exist, a WebSocket route called without an upgrade. This layer rewrites those answers, keeping
//! their status and their words. `POST /api/command`'s own refusals are the command language's
//! text (`error: ...`, as the text door answers) unless JSON was asked for: they carry
//! [`CommandText`] and are left alone.

use axum::body::Body;
use axum::extract::Request;
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::Response;
use serde_json::json;

/// The longest error body carried over into the JSON message.
const MAX_MESSAGE: usize = 1024;

/// Marks an answer in the command language's text, which this layer leaves as it is.
#[derive(Clone, Copy)]
pub(super) struct CommandText;

/// The middleware: leaves non-`/api` paths, successes, JSON answers and command replies alone.
pub async fn json_errors(request: Request, next: Next) -> Response {
    let api = request.uri().path().starts_with("/api");
    let path = request.uri().path().to_string();
    let method = request.method().clone();
    let response = next.run(request).await;
    let status = response.status();
    if !api || !(status.is_client_error() || status.is_server_error()) {
        return response;
    }
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if is_json || response.extensions().get::<CommandText>().is_some() {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let text = match axum::body::to_bytes(body, MAX_MESSAGE * 4).await {
        Ok(bytes) => String::from_utf8_lossy(&bytes).trim().to_string(),
        Err(_) => String::new(),
    };
    let (code, message) = describe(status, &method, &path, &text);
    let body = json!({"error": {"code": code, "message": message}}).to_string();
    parts.headers.remove(header::CONTENT_LENGTH);
    parts.headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    Response::from_parts(parts, Body::from(body))
}

/// The code and message of an error axum answered itself.
fn describe(
    status: StatusCode,
    method: &axum::http::Method,
    path: &str,
    text: &str,
) -> (&'static str, String) {
    let text: String = text.chars().take(MAX_MESSAGE).collect();
    match status {
        StatusCode::NOT_FOUND => ("not_found", format!("no API endpoint {method} {path}")),
        StatusCode::METHOD_NOT_ALLOWED => (
            "method_not_allowed",
            format!("{path} does not answer {method}"),
        ),
        StatusCode::PAYLOAD_TOO_LARGE => (
            "too_long",
            format!(
                "a request body is too long (at most {} bytes)",
                crate::doors::http::MAX_BODY
            ),
        ),
        StatusCode::UNSUPPORTED_MEDIA_TYPE => ("bad_request", non_empty(text, status)),
        s if s.is_server_error() => ("internal", "internal server error".to_string()),
        _ if text.contains("valid UTF-8") => (
            "bad_request",
            "the request body is not UTF-8 text".to_string(),
        ),
        _ if text.starts_with("Invalid URL") || text.contains("Cannot parse") => (
            "bad_request",
            format!("bad path {path}: {}", path_message(&text)),
        ),
        _ => ("bad_request", non_empty(text, status)),
    }
}

fn non_empty(text: String, status: StatusCode) -> String {
    match text.is_empty() {
        true => status
            .canonical_reason()
            .unwrap_or("bad request")
            .to_string(),
        false => text,
    }
}

/// "Invalid URL: Cannot parse `abc` to a `i64`" -> "\"abc\" is not a number".
fn path_message(text: &str) -> String {
    let value = text.split('`').nth(1);
    match (value, text.contains("i64") || text.contains("u64")) {
        (Some(value), true) => format!("{value:?} is not a number"),
        _ => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axums_own_words_become_clear_messages() {
        let get = axum::http::Method::GET;
        let (code, message) = describe(
            StatusCode::BAD_REQUEST,
            &get,
            "/api/games/abc",
            "Invalid URL: Cannot parse `abc` to a `i64`",
        );
        assert_eq!(code, "bad_request");
        assert_eq!(message, "bad path /api/games/abc: \"abc\" is not a number");
        let (code, message) = describe(StatusCode::NOT_FOUND, &get, "/api/nosuch", "");
        assert_eq!(code, "not_found");
        assert_eq!(message, "no API endpoint GET /api/nosuch");
    }
}
