//! The cookie that carries a browser's session token, shared by the two doors a browser uses:
//! the JSON API ([`super::http`]) and the pages' helpers (`web`).

use axum::http::{header, HeaderMap};

/// The cookie's name.
pub const SESSION_COOKIE: &str = "ataxx_session";

/// The session token of a request's cookies, if it has one.
pub fn session_token(headers: &HeaderMap) -> Option<&str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .find_map(|pair| pair.trim().strip_prefix(SESSION_COOKIE)?.strip_prefix('='))
}
