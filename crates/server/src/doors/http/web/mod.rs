//! The browser door: the pages of `web/` ([`assets`]), board images for sharing positions
//! (`/board/{game}.svg` and `.png`), and a page in words for addresses that lead nowhere. The
//! JSON the pages read, `/api/...` all of it, is the HTTP door's.

use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use serde::Deserialize;

use crate::doors::http::errors::{bad, ApiResult};
use crate::error::Error;
use crate::App;

mod assets;

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

// ---------------------------------------------------------------------------------------------
// Board images

#[derive(Deserialize)]
struct ImageQuery {
    /// The position after this many moves (default: the current one).
    ply: Option<usize>,
}

/// `/board/{game}.svg` and `/board/{game}.png`: the board of a game, for sharing. Refused in
/// the JSON the API's errors take, as the document says (axum's own is text).
async fn board_image(
    State(state): State<WebState>,
    Path(image): Path<String>,
    query: Result<Query<ImageQuery>, QueryRejection>,
) -> ApiResult<Response> {
    let Query(query) = query.map_err(|rejection| bad(rejection.body_text()))?;
    let (number, png) = match (image.strip_suffix(".svg"), image.strip_suffix(".png")) {
        (Some(number), _) => (number, false),
        (_, Some(number)) => (number, true),
        _ => {
            return Err(bad(format!(
                "{image}: board images are <board>.svg or <board>.png"
            )))
        }
    };
    let board = number
        .parse::<i64>()
        .map_err(|_| bad(format!("{image}: {number:?} is not a board number")))?;
    let view = state.app.games.view(board).await?;
    let plies = query.ply.unwrap_or(view.moves.len()).min(view.moves.len());
    let pos = crate::doors::render::board::position_at(&view.summary, &view.moves, plies);
    let last = plies
        .checked_sub(1)
        .map(|i| view.moves[i].mv.as_str())
        .filter(|mv| *mv != "0000");
    let svg = pos.svg(last);
    let (content_type, body) = match png {
        false => ("image/svg+xml", svg.into_bytes()),
        true => ("image/png", svg_to_png(&svg).map_err(Error::Internal)?),
    };
    Ok((
        [
            (header::CONTENT_TYPE, content_type),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
        .into_response())
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

#[cfg(test)]
mod tests {
    use super::*;
    use ataxx::Layout;

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
