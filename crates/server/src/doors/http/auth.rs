//! Who a request comes from: the session token of `Authorization: Bearer`, the session cookie,
//! or `?token=`, and the user it belongs to.

use axum::http::{header, HeaderMap};

use super::{ApiError, HttpState};
use crate::doors::session_cookie::session_token;
use crate::error::Error;

/// The token of a request: `Authorization: Bearer`, the session cookie, or `?token=`.
pub(super) fn token<'a>(headers: &'a HeaderMap, query: Option<&'a str>) -> Option<&'a str> {
    if let Some(value) = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
    {
        return value.strip_prefix("Bearer ").map(str::trim);
    }
    session_token(headers).or(query)
}

pub(super) async fn authenticated(
    state: &HttpState,
    headers: &HeaderMap,
    query: Option<&str>,
) -> Result<String, ApiError> {
    let token = token(headers, query).ok_or(ApiError(Error::Auth))?;
    Ok(state.app.accounts.token_user(token).await?)
}
