//! The browser door: the pages of `web/` ([`assets`]), board images for sharing positions
//! (`/board/{game}.svg` and `.png`), the few JSON helpers the pages need beyond the game API (a
//! blocked-layout preview, position analysis, the rules pages' positions, and a game read from PGN
//! or a 1995 record), and a page in words for addresses that lead nowhere.

use ataxx::{Color, Layout, Position};
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use engine::score::is_decisive;
use games::{GameKind, StartOptions};
use serde::Deserialize;
use serde_json::{json, Value};

use crate::domain::analysis::{self, ANALYSIS_TIME};
use crate::error::Error;
use crate::App;

mod assets;
mod rules;

#[derive(Clone)]
struct WebState {
    app: App,
}

/// The browser door's routes, to merge into the HTTP router.
pub fn routes<S: Clone + Send + Sync + 'static>(app: App) -> Router<S> {
    let state = WebState { app };
    Router::new()
        .merge(assets::routes())
        .route("/board/{image}", get(board_image))
        .route("/api/layout/{text}", get(layout))
        .route("/api/analysis", get(analysis))
        .route("/api/rules/{game}", get(rules::position))
        .route("/api/rules/ataxx/import", post(rules::import))
        .fallback(not_found)
        .with_state(state)
}

/// Any other address. `/game/N` and `/user/NAME`, the addresses people type after using other
/// game sites, lead to those pages; an unknown page is said in words, with the way back. Under
/// `/api` the answer stays a bare 404, which `http::errors` words as JSON.
async fn not_found(uri: axum::http::Uri) -> Response {
    let path = uri.path();
    if path.starts_with("/api") {
        return StatusCode::NOT_FOUND.into_response();
    }
    let mut parts = path.trim_matches('/').split('/');
    if let (Some(page @ ("game" | "user")), Some(arg), None) =
        (parts.next(), parts.next(), parts.next())
    {
        if !arg.is_empty() {
            return axum::response::Redirect::to(&format!("/#/{page}/{arg}")).into_response();
        }
    }
    let shown: String = path
        .chars()
        .take(200)
        .map(|c| match c {
            '<' => "&lt;".to_string(),
            '>' => "&gt;".to_string(),
            '&' => "&amp;".to_string(),
            '"' => "&quot;".to_string(),
            c => c.to_string(),
        })
        .collect();
    let page = format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>No such page</title><link rel=\"stylesheet\" href=\"/static/style.css\"></head>\
         <body><main><section class=\"card no-such-page\"><h1>No such page</h1>\
         <p>This server has no page at <code>{shown}</code>.</p>\
         <p><a href=\"/\">Go to the front page</a></p></section></main></body></html>"
    );
    (
        StatusCode::NOT_FOUND,
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        page,
    )
        .into_response()
}

fn error_response(status: StatusCode, err: &Error) -> Response {
    let body = json!({"error": {"code": err.code(), "message": err.to_string()}});
    let mut response = (status, Json(body)).into_response();
    if let Some(seconds) = err.retry_after_s() {
        response
            .headers_mut()
            .insert(header::RETRY_AFTER, seconds.into());
    }
    response
}

fn bad_request(message: String) -> Response {
    error_response(StatusCode::BAD_REQUEST, &Error::Command(message))
}

// ---------------------------------------------------------------------------------------------
// Board images

#[derive(Deserialize)]
struct ImageQuery {
    /// The position after this many moves (default: the current one).
    ply: Option<usize>,
}

/// `/board/{game}.svg` and `/board/{game}.png`: the board of a game, for sharing.
async fn board_image(
    State(state): State<WebState>,
    Path(image): Path<String>,
    query: Result<Query<ImageQuery>, QueryRejection>,
) -> Response {
    // Refused in the JSON the API's errors take, as the document says (axum's own is text).
    let query = match query {
        Ok(Query(query)) => query,
        Err(rejection) => return bad_request(rejection.body_text()),
    };
    let (number, png) = match (image.strip_suffix(".svg"), image.strip_suffix(".png")) {
        (Some(number), _) => (number, false),
        (_, Some(number)) => (number, true),
        _ => {
            return bad_request(format!(
                "{image}: board images are <board>.svg or <board>.png"
            ))
        }
    };
    let Ok(board) = number.parse::<i64>() else {
        return bad_request(format!("{image}: {number:?} is not a board number"));
    };
    let view = match state.app.games.view(board).await {
        Ok(view) => view,
        Err(err) => return error_response(StatusCode::NOT_FOUND, &err),
    };
    let plies = query.ply.unwrap_or(view.moves.len()).min(view.moves.len());
    let pos = crate::doors::render::board::position_at(&view.summary, &view.moves, plies);
    let last = plies
        .checked_sub(1)
        .map(|i| view.moves[i].mv.as_str())
        .filter(|mv| *mv != "0000");
    let svg = pos.svg(last);
    let (content_type, body) = match png {
        false => ("image/svg+xml", svg.into_bytes()),
        true => match svg_to_png(&svg) {
            Ok(bytes) => ("image/png", bytes),
            Err(message) => {
                return error_response(StatusCode::INTERNAL_SERVER_ERROR, &Error::Command(message))
            }
        },
    };
    (
        [
            (header::CONTENT_TYPE, content_type),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
        .into_response()
}

/// Renders an SVG picture (without text: no fonts are needed) to PNG.
fn svg_to_png(svg: &str) -> Result<Vec<u8>, String> {
    use resvg::{tiny_skia, usvg};
    let tree = usvg::Tree::from_str(svg, &usvg::Options::default())
        .map_err(|err| format!("board image: {err}"))?;
    let size = tree.size().to_int_size();
    let mut pixmap =
        tiny_skia::Pixmap::new(size.width(), size.height()).ok_or("board image: empty picture")?;
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
    pixmap
        .encode_png()
        .map_err(|err| format!("board image: {err}"))
}

// ---------------------------------------------------------------------------------------------
// JSON helpers

#[derive(Deserialize)]
struct LayoutQuery {
    /// The game whose start the preview shows (`ataxx4`: four players in the corners); Ataxx
    /// when absent.
    game: Option<String>,
}

/// `/api/layout/{code or mask}?game=…`: a blocked layout as the challenge form previews it.
async fn layout(Path(text): Path<String>, Query(query): Query<LayoutQuery>) -> Response {
    let text = text.trim();
    let kind = match query
        .game
        .as_deref()
        .map(str::parse::<GameKind>)
        .transpose()
    {
        Ok(kind) => kind.unwrap_or(GameKind::Ataxx),
        Err(err) => return bad_request(format!("game: {err}")),
    };
    let parsed = if text.starts_with("0x") || text.starts_with("0X") {
        Layout::parse_mask(text).map_err(|e| e.to_string())
    } else {
        text.parse::<Layout>().map_err(|e| e.to_string())
    };
    match parsed {
        Ok(layout) => {
            let options = StartOptions {
                size: Some(7),
                blocks: Some(layout.mask_text()),
                ..StartOptions::default()
            };
            let start = match kind.start(&options) {
                Ok(start) => start.fen(),
                Err(err) => return bad_request(err.to_string()),
            };
            let blocked: Vec<String> = layout
                .blocked()
                .into_iter()
                .map(|sq| sq.to_string())
                .collect();
            Json(json!({
                "code": layout.to_string(),
                "canonical": layout.canonical().to_string(),
                "mask": layout.mask_text(),
                "blocks": layout.blocks(),
                "blocked": blocked,
                "fen": start,
            }))
            .into_response()
        }
        Err(message) => bad_request(message),
    }
}

#[derive(Deserialize)]
struct AnalysisQuery {
    fen: String,
}

/// `/api/analysis?fen=...`: the best move for the side to move and its score in pieces.
async fn analysis(State(state): State<WebState>, Query(query): Query<AnalysisQuery>) -> Response {
    let pos = match query.fen.parse::<Position>() {
        Ok(pos) => pos,
        Err(err) => return bad_request(format!("fen {:?}: {err}", query.fen)),
    };
    match analysis::refuse_positions_in_play(&state.app.storage, &pos).await {
        Ok(()) => {}
        Err(err @ Error::AnalysisOfGameInPlay) => {
            return error_response(StatusCode::FORBIDDEN, &err)
        }
        Err(err) => return error_response(StatusCode::INTERNAL_SERVER_ERROR, &err),
    }
    let report = match analysis::analyse(pos).await {
        Ok(report) => report,
        Err(err @ Error::Busy { .. }) => {
            return error_response(StatusCode::SERVICE_UNAVAILABLE, &err)
        }
        Err(err) => return error_response(StatusCode::INTERNAL_SERVER_ERROR, &err),
    };
    let (score, outcome) = match report.score {
        s if is_decisive(s) && s > 0 => (Value::Null, Some("win")),
        s if is_decisive(s) => (Value::Null, Some("loss")),
        s => (json!(f64::from(s) / 100.0), None),
    };
    Json(json!({
        "fen": pos.to_string(),
        "turn": match pos.turn() { Color::X => "x", Color::O => "o" },
        "best": report.pv.first().map(|mv| mv.to_string()),
        "pv": report.pv.iter().map(|mv| mv.to_string()).collect::<Vec<_>>(),
        "score": score,
        "outcome": outcome,
        "depth": report.depth,
        "nodes": report.nodes,
        "analyser": format!("engine, {} ms, depth {}", ANALYSIS_TIME.as_millis(), report.depth),
    }))
    .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn board_image_draws_pieces_blocks_and_the_last_move() {
        let mut pos = "6bch".parse::<Layout>().unwrap().start_position();
        let single: ataxx::Move = "b6".parse().unwrap();
        pos.play(single).unwrap();
        let svg = games::Rules::svg(&pos, Some(single));
        assert_eq!(svg.matches("<circle").count(), 5);
        assert_eq!(
            svg.matches("#5b4636").count(),
            14,
            "6bch blocks two whole ranks"
        );
        assert_eq!(
            svg.matches("#f2b134").count(),
            1,
            "a single marks its destination only"
        );
        assert_eq!(svg.matches("#d1343e").count(), 3);

        let jump: ataxx::Move = "g7e7".parse().unwrap();
        pos.play(jump).unwrap();
        let svg = games::Rules::svg(&pos, Some(jump));
        assert_eq!(
            svg.matches("#f2b134").count(),
            2,
            "a jump marks where it left and landed"
        );
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>"));

        let png = svg_to_png(&svg).unwrap();
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
        let side: u32 = 7 * 60; // 60 pixels a square
        assert_eq!(
            &png[16..24],
            [side.to_be_bytes(), side.to_be_bytes()].concat()
        );
    }
}
