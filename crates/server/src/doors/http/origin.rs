//! The session cookie is for this site's own pages: a request that carries it and changes
//! something (any method but GET, HEAD and OPTIONS), or opens a WebSocket, is refused with 403
//! when its `Origin` names another site. Browsers send `Origin` with those requests; the
//! server's own origin is the one its `Host` header names (http or https), or the configured
//! public URL's (`ataxx serve --public-url`, for a server behind a proxy that rewrites `Host`).
//!
//! Requests without the cookie are left alone: an API client's bearer token, or a `?token=` in a
//! WebSocket URL, is not sent by a browser on another site's behalf. The cookie is also
//! `SameSite=Strict`; this check covers what that does not (a sibling subdomain is the same
//! "site"), and old browsers.

use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, Method};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::{ApiError, HttpState};
use crate::doors::session_cookie::session_token;
use crate::error::Error;

/// The command language's route, refused from a foreign origin with or without the cookie.
const COMMAND_PATH: &str = "/api/command";

/// Where the site is seen from outside, when that is known.
#[derive(Clone, Debug, Default)]
pub struct Site {
    /// `scheme://host[:port]` of the public URL.
    public_origin: Option<String>,
}

impl Site {
    /// The site at `url` (`https://ataxx.example.org/` or `http://...`; a path is ignored).
    pub fn at(url: &str) -> Result<Site, String> {
        let (scheme, rest) = url
            .split_once("://")
            .filter(|(scheme, _)| matches!(*scheme, "http" | "https"))
            .ok_or_else(|| format!("public URL {url:?}: give http://host or https://host"))?;
        let host = rest.split('/').next().unwrap_or_default();
        if host.is_empty() {
            return Err(format!("public URL {url:?} names no host"));
        }
        Ok(Site {
            public_origin: Some(format!("{scheme}://{}", host.to_ascii_lowercase())),
        })
    }

    /// Whether browsers reach the site over https: its cookie is then `Secure`.
    pub fn is_https(&self) -> bool {
        self.public_origin
            .as_deref()
            .is_some_and(|origin| origin.starts_with("https://"))
    }

    /// The session cookie's attributes after its value.
    pub(super) fn cookie_attributes(&self) -> &'static str {
        match self.is_https() {
            true => "Path=/; HttpOnly; SameSite=Strict; Secure",
            false => "Path=/; HttpOnly; SameSite=Strict",
        }
    }

    /// Whether `origin` is this site's: the public URL's, or the one `Host` names.
    fn owns(&self, origin: &str, host: Option<&str>) -> bool {
        let origin = origin.to_ascii_lowercase();
        if self.public_origin.as_deref() == Some(origin.as_str()) {
            return true;
        }
        let Some(host) = host.map(str::to_ascii_lowercase) else {
            return false;
        };
        origin
            .strip_prefix("http://")
            .or_else(|| origin.strip_prefix("https://"))
            == Some(host.as_str())
    }

    /// The origin to refuse a request for `path` from, if it is one.
    fn foreign_origin<'a>(
        &self,
        method: &Method,
        path: &str,
        headers: &'a HeaderMap,
    ) -> Option<&'a str> {
        let origin = headers.get(header::ORIGIN)?;
        let cookie_used =
            session_token(headers).is_some() && !headers.contains_key(header::AUTHORIZATION);
        let changes = !matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS);
        let opens_socket = headers.contains_key(header::UPGRADE);
        // `/api/command` reads any body as text, so a page elsewhere may POST to it with no
        // preflight, and its passwords travel in the body: without this, any site could make
        // its visitors' browsers sign up addresses and spend login attempts from their
        // addresses (issue #50). The JSON routes refuse what a page can send without a
        // preflight (their content type must be `application/json`).
        let command_line = path == COMMAND_PATH;
        if !(cookie_used || command_line) || !(changes || opens_socket) {
            return None;
        }
        let origin = origin.to_str().unwrap_or("(not text)");
        let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
        (!self.owns(origin, host)).then_some(origin)
    }
}

/// The middleware: refuses a foreign origin's use of the cookie.
pub(super) async fn same_origin(
    State(state): State<HttpState>,
    request: Request,
    next: Next,
) -> Response {
    if let Some(origin) =
        state
            .site
            .foreign_origin(request.method(), request.uri().path(), request.headers())
    {
        tracing::info!(%origin, path = %request.uri().path(), "refused: foreign origin with the session cookie");
        return ApiError(Error::ForeignOrigin(origin.chars().take(200).collect())).into_response();
    }
    next.run(request).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(pairs: &[(header::HeaderName, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.insert(name.clone(), HeaderValue::from_str(value).unwrap());
        }
        map
    }

    #[test]
    fn only_a_cookie_used_from_another_origin_is_refused() {
        let site = Site::at("https://ataxx.example.org/play").unwrap();
        let cookie = (header::COOKIE, "ataxx_session=abc");
        let from = |origin| (header::ORIGIN, origin);
        let host = (header::HOST, "127.0.0.1:8080");
        let post = Method::POST;
        let evil = headers(&[cookie.clone(), from("https://evil.example"), host.clone()]);
        assert_eq!(
            site.foreign_origin(&post, "/api/games/1/move", &evil),
            Some("https://evil.example")
        );
        assert_eq!(
            site.foreign_origin(&Method::GET, "/api/games/1/move", &evil),
            None
        );
        let own = |origin| headers(&[cookie.clone(), from(origin), host.clone()]);
        assert_eq!(
            site.foreign_origin(&post, "/api/games/1/move", &own("http://127.0.0.1:8080")),
            None
        );
        assert_eq!(
            site.foreign_origin(
                &post,
                "/api/games/1/move",
                &own("https://ATAXX.example.org")
            ),
            None
        );
        let bearer = headers(&[
            cookie.clone(),
            from("https://evil.example"),
            (header::AUTHORIZATION, "Bearer t"),
        ]);
        assert_eq!(
            site.foreign_origin(&post, "/api/games/1/move", &bearer),
            None
        );
        let no_cookie = headers(&[from("https://evil.example")]);
        assert_eq!(
            site.foreign_origin(&post, "/api/games/1/move", &no_cookie),
            None
        );
        assert!(site.is_https());
        assert!(Site::at("ftp://x").is_err());
    }
}
