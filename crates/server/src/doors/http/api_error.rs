//! The API's answers to refused requests: an [`Error`] as a status and
//! `{"error": {"code", "message"}}`, and the JSON body reader that refuses malformed bodies the
//! same way.

use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::{json, Value};

use super::MAX_BODY;
use crate::error::Error;

/// An error as the API answers it: a status and `{"error": {"code", "message"}}`.
pub(super) struct ApiError(pub(super) Error);

impl From<Error> for ApiError {
    fn from(err: Error) -> Self {
        ApiError(err)
    }
}

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
        Error::Config(_) | Error::Database(_) => StatusCode::INTERNAL_SERVER_ERROR,
        _ => StatusCode::BAD_REQUEST,
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        if let Error::Database(err) = &self.0 {
            tracing::error!(%err, "database");
        }
        let body = json!({"error": {"code": self.0.code(), "message": self.0.to_string()}});
        let mut response = (status_of(&self.0), Json(body)).into_response();
        if let Some(seconds) = self.0.retry_after_s() {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, seconds.into());
        }
        response
    }
}

pub(super) type ApiResult<T = Json<Value>> = Result<T, ApiError>;

pub(super) fn bad(message: impl Into<String>) -> ApiError {
    ApiError(Error::Command(message.into()))
}

/// Reads a JSON body, answering malformed bodies with the API's error shape.
pub(super) struct Body<T>(pub(super) T);

impl<S: Send + Sync, T: serde::de::DeserializeOwned> axum::extract::FromRequest<S> for Body<T> {
    type Rejection = ApiError;

    async fn from_request(req: axum::extract::Request, state: &S) -> Result<Self, ApiError> {
        match Json::<T>::from_request(req, state).await {
            Ok(Json(value)) => Ok(Body(value)),
            Err(rejection) if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE => {
                Err(ApiError(Error::BodyTooLarge { max: MAX_BODY }))
            }
            Err(rejection) => Err(bad(format!("bad request body: {}", rejection.body_text()))),
        }
    }
}
