//! Every `/api` refusal, written once in the documented shape `{"error": {"code", "message"}}`
//! ([`answer`]): a domain [`Error`] as its status and code ([`ApiError`]), a malformed JSON body
//! ([`Body`]), and what axum answers itself ([`json_errors`]).
//!
//! Handlers return [`ApiResult`]; what they never see is answered by axum in plain text or with
//! an empty body: a path that does not parse (`/api/games/abc`), a body over the limit or not
//! UTF-8 before a handler reads it, a method or route that does not exist, a WebSocket route
//! called without an upgrade. The [`json_errors`] layer rewrites those answers, keeping their
//! status and their words. `POST /api/command`'s own refusals are the command language's text
//! (`error: ...`, as the text door answers) unless JSON was asked for: they carry
//! [`CommandText`] and are left alone.

use axum::extract::Request;
use axum::http::{header, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::{json, Value};

use super::MAX_BODY;
use crate::error::Error;

/// The longest error body carried over into the JSON message.
const MAX_MESSAGE: usize = 1024;

/// A refusal as the API answers it: `status`, and `{"error": {"code", "message"}}`.
fn answer(status: StatusCode, code: &str, message: &str) -> Response {
    let body = json!({"error": {"code": code, "message": message}});
    (status, Json(body)).into_response()
}

/// An error as the API answers it: a status and `{"error": {"code", "message"}}`.
pub(crate) struct ApiError(pub(crate) Error);

impl From<Error> for ApiError {
    fn from(err: Error) -> Self {
        ApiError(err)
    }
}

/// The status an error is answered with.
fn status_of(err: &Error) -> StatusCode {
    match err {
        Error::Auth | Error::SecondFactor(_) => StatusCode::UNAUTHORIZED,
        Error::RateLimited { .. } => StatusCode::TOO_MANY_REQUESTS,
        Error::UnknownUser(_) | Error::UnknownBoard(_) => StatusCode::NOT_FOUND,
        Error::UnknownSeek(_) | Error::UnknownTournament(_) | Error::NoAnalysis(_) => {
            StatusCode::NOT_FOUND
        }
        Error::NotAPlayer { .. }
        | Error::NotYourSeek { .. }
        | Error::ForeignOrigin(_)
        | Error::AnalysisOfGameInPlay => StatusCode::FORBIDDEN,
        Error::Muted { .. } | Error::NotAModerator(_) | Error::NotAnAdmin(_) | Error::Banned(_) => {
            StatusCode::FORBIDDEN
        }
        Error::MissingScope(_) | Error::SessionOnly(_) => StatusCode::FORBIDDEN,
        Error::UnknownToken(_) => StatusCode::NOT_FOUND,
        Error::UserExists(_)
        | Error::NotYourTurn { .. }
        | Error::NotInPlay { .. }
        | Error::NotAChallenge { .. }
        | Error::Guard { .. }
        | Error::Proposal(_)
        | Error::NotOnVacation(_) => StatusCode::CONFLICT,
        Error::BodyTooLarge { .. } => StatusCode::PAYLOAD_TOO_LARGE,
        Error::Busy { .. } => StatusCode::SERVICE_UNAVAILABLE,
        Error::Config(_) | Error::Database(_) | Error::Internal(_) => {
            StatusCode::INTERNAL_SERVER_ERROR
        }
        _ => StatusCode::BAD_REQUEST,
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        if let Error::Database(err) = &self.0 {
            tracing::error!(%err, "database");
        }
        let mut response = answer(status_of(&self.0), self.0.code(), &self.0.to_string());
        if let Some(seconds) = self.0.retry_after_s() {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, seconds.into());
        }
        response
    }
}

/// A handler's answer: JSON, or the refusal in the API's shape.
pub(crate) type ApiResult<T = Json<Value>> = Result<T, ApiError>;

/// A bad request (400, `bad_command`) in words.
pub(crate) fn bad(message: impl Into<String>) -> ApiError {
    ApiError(Error::Command(message.into()))
}

/// Reads a JSON body, answering malformed bodies with the API's error shape.
pub(super) struct Body<T>(pub(super) T);

impl<S: Send + Sync, T: serde::de::DeserializeOwned> axum::extract::FromRequest<S> for Body<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        match Json::<T>::from_request(req, state).await {
            Ok(Json(value)) => Ok(Body(value)),
            Err(rejection) if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE => {
                Err(ApiError(Error::BodyTooLarge { max: MAX_BODY }))
            }
            Err(rejection) => Err(bad(format!("bad request body: {}", rejection.body_text()))),
        }
    }
}

/// Marks an answer in the command language's text, which [`json_errors`] leaves as it is.
#[derive(Clone, Copy)]
pub(super) struct CommandText;

/// The middleware: leaves non-`/api` paths, successes, JSON answers and command replies alone,
/// and answers the rest as [`answer`] does, with the status and words axum gave.
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
    // The body and its type become the API's; axum's other headers (`Allow` on a 405) stay.
    let (answered, body) = answer(status, code, &message).into_parts();
    parts.headers.remove(header::CONTENT_LENGTH);
    parts.headers.extend(answered.headers);
    Response::from_parts(parts, body)
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
        StatusCode::PAYLOAD_TOO_LARGE => {
            let err = Error::BodyTooLarge { max: MAX_BODY };
            (err.code(), err.to_string())
        }
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
