//! `GET /api/layout/{code or mask}?game=…`: a blocked layout as the challenge form previews it
//! (readable without an account).

use ataxx::Layout;
use axum::extract::{Path, Query};
use axum::Json;
use games::{GameKind, StartOptions};
use serde::Deserialize;
use serde_json::json;

use super::{bad, ApiResult};

#[derive(Deserialize)]
pub(super) struct LayoutQuery {
    /// The game whose start the preview shows (`ataxx4`: four players in the corners); Ataxx
    /// when absent.
    game: Option<String>,
}

pub(super) async fn get(Path(text): Path<String>, Query(query): Query<LayoutQuery>) -> ApiResult {
    let text = text.trim();
    let kind = match query.game.as_deref() {
        Some(name) => name
            .parse::<GameKind>()
            .map_err(|err| bad(format!("game: {err}")))?,
        None => GameKind::Ataxx,
    };
    let layout = if text.starts_with("0x") || text.starts_with("0X") {
        Layout::parse_mask(text).map_err(|err| bad(err.to_string()))?
    } else {
        text.parse::<Layout>().map_err(|err| bad(err.to_string()))?
    };
    let options = StartOptions {
        size: Some(7),
        blocks: Some(layout.mask_text()),
        ..StartOptions::default()
    };
    let start = kind
        .start(&options)
        .map_err(|err| bad(err.to_string()))?
        .fen();
    let blocked: Vec<String> = layout
        .blocked()
        .into_iter()
        .map(|sq| sq.to_string())
        .collect();
    Ok(Json(json!({
        "code": layout.to_string(),
        "canonical": layout.canonical().to_string(),
        "mask": layout.mask_text(),
        "blocks": layout.blocks(),
        "blocked": blocked,
        "fen": start,
    })))
}
