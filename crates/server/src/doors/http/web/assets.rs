//! The pages of `web/`, embedded in the binary: `index.html` at `/`, the others at
//! `/static/<file>`. Each answer carries an ETag (a digest of the file), so that a reload asks
//! `If-None-Match` and gets an empty 304 for what it has; answers are gzip-compressed for
//! browsers that take it.
//!
//! Setting `ATAXX_WEB_DIR` to the `web/` folder serves the pages from disk instead of the
//! embedded copy, so that they can be edited without rebuilding the server.

use axum::extract::Path;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use sha2::{Digest, Sha256};
use tower_http::compression::CompressionLayer;

/// A page file of `web/`, embedded.
struct Asset {
    file: &'static str,
    content_type: &'static str,
    body: &'static str,
}

macro_rules! asset {
    ($file:literal, $content_type:expr) => {
        Asset {
            file: $file,
            content_type: $content_type,
            body: include_str!(concat!("../../../../../../web/", $file)),
        }
    };
}

const JS: &str = "text/javascript; charset=utf-8";

/// `index.html` is served at `/`, the others at `/static/<file>`.
const ASSETS: &[Asset] = &[
    asset!("index.html", "text/html; charset=utf-8"),
    asset!("style.css", "text/css; charset=utf-8"),
    asset!("favicon.svg", "image/svg+xml"),
    asset!("app.js", JS),
    asset!("api.js", JS),
    asset!("position.js", JS),
    asset!("board.js", JS),
    asset!("hexboard.js", JS),
    asset!("ankorboard.js", JS),
    asset!("lobby.js", JS),
    asset!("lobby-layout.js", JS),
    asset!("lobby-form.js", JS),
    asset!("lobby-blocks.js", JS),
    asset!("lobby-lists.js", JS),
    asset!("lobby-people.js", JS),
    asset!("game.js", JS),
    asset!("game-layout.js", JS),
    asset!("game-players.js", JS),
    asset!("game-status.js", JS),
    asset!("game-moves.js", JS),
    asset!("game-review.js", JS),
    asset!("game-chat.js", JS),
    asset!("game-input.js", JS),
    asset!("game-actions.js", JS),
    asset!("game-live.js", JS),
    asset!("profile.js", JS),
    asset!("password-reset.js", JS),
    asset!("leaderboard.js", JS),
    asset!("games.js", JS),
    asset!("rules.js", JS),
    asset!("analysis-board.js", JS),
    asset!("analysis-position.js", JS),
    asset!("analysis-engine.js", JS),
    asset!("analysis-explorer.js", JS),
    asset!("rematch.js", JS),
    asset!("premove.js", JS),
    asset!("notify.js", JS),
    asset!("sound.js", JS),
    asset!("keyboard.js", JS),
    asset!("announce.js", JS),
    asset!("front.js", JS),
    asset!("tv.js", JS),
    asset!("seeks.js", JS),
    asset!("tournaments.js", JS),
    asset!("admin.js", JS),
    asset!("tokens.js", JS),
    asset!("security.js", JS),
    asset!("kinds.js", JS),
    asset!("kind-ataxx.js", JS),
    asset!("kind-hexxagon.js", JS),
    asset!("kind-ataxx4.js", JS),
    asset!("kind-ankor.js", JS),
];

/// `/` and `/static/{file}`, compressed.
pub(super) fn routes<S: Clone + Send + Sync + 'static>() -> Router<S> {
    Router::new()
        .route(
            "/",
            get(|headers: HeaderMap| asset(Path("index.html".to_string()), headers)),
        )
        .route("/static/{file}", get(asset))
        .layer(CompressionLayer::new())
}

async fn asset(Path(file): Path<String>, headers: HeaderMap) -> Response {
    let Some(asset) = ASSETS.iter().find(|a| a.file == file) else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let body = match std::env::var_os("ATAXX_WEB_DIR") {
        Some(dir) => match std::fs::read_to_string(std::path::Path::new(&dir).join(asset.file)) {
            Ok(text) => text,
            Err(err) => return (StatusCode::NOT_FOUND, format!("{file}: {err}")).into_response(),
        },
        None => asset.body.to_string(),
    };
    let etag = etag(&body);
    // no-cache: the browser keeps the file but asks each time whether it is still current.
    let cached = [
        (header::ETAG, etag.clone()),
        (header::CACHE_CONTROL, "no-cache".to_string()),
    ];
    let current = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|tags| tags.split(',').any(|tag| tag.trim() == etag));
    if current {
        return (StatusCode::NOT_MODIFIED, cached).into_response();
    }
    (cached, [(header::CONTENT_TYPE, asset.content_type)], body).into_response()
}

/// A validator of a file's text: the first 16 hex digits of its SHA-256. Weak (`W/`), since
/// the gzip and plain answers share it and are not the same bytes.
fn etag(body: &str) -> String {
    let digest = Sha256::digest(body.as_bytes());
    let hex: String = digest[..8].iter().map(|b| format!("{b:02x}")).collect();
    format!("W/\"{hex}\"")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_page_file_is_embedded_once() {
        for asset in ASSETS {
            assert!(!asset.body.is_empty(), "{} is empty", asset.file);
            assert_eq!(ASSETS.iter().filter(|a| a.file == asset.file).count(), 1);
        }
        let index = ASSETS.iter().find(|a| a.file == "index.html").unwrap();
        for asset in ASSETS.iter().filter(|a| a.file.ends_with(".js")) {
            let linked = index.body.contains(asset.file)
                || ASSETS
                    .iter()
                    .any(|a| a.body.contains(&format!("'./{}'", asset.file)));
            assert!(linked, "{} is embedded but nothing loads it", asset.file);
        }
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web");
        for entry in std::fs::read_dir(dir).unwrap() {
            let name = entry.unwrap().file_name().into_string().unwrap();
            assert!(
                ASSETS.iter().any(|a| a.file == name),
                "web/{name} is not embedded: add it to ASSETS"
            );
        }
    }
}
