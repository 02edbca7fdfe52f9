//! `GET /api/rules/{game}?fen=…&move=…`: a position of any game and, with `move`, the position
//! after it, as the rules pages' small boards need them: the pages draw and click, the server's
//! one implementation of the rules says what is legal and what a move does.

use axum::extract::{Path, Query};
use axum::response::{IntoResponse, Response};
use axum::Json;
use games::{GameKind, Seat};
use serde::Deserialize;
use serde_json::json;

use super::bad_request;
use crate::domain::games::result_text;

#[derive(Deserialize)]
pub(super) struct RulesQuery {
    /// The position; the game's usual start when absent.
    fen: Option<String>,
    /// A move to play from it, in the game's notation.
    #[serde(rename = "move")]
    mv: Option<String>,
}

pub(super) async fn position(
    Path(game): Path<String>,
    Query(query): Query<RulesQuery>,
) -> Response {
    let kind = match game.parse::<GameKind>() {
        Ok(kind) => kind,
        Err(err) => return bad_request(err.to_string()),
    };
    let parsed = match &query.fen {
        Some(fen) => kind.parse_position(fen),
        None => kind.start(&Default::default()),
    };
    let mut pos = match parsed {
        Ok(pos) => pos,
        Err(err) => return bad_request(format!("fen: {err}")),
    };
    let played = match &query.mv {
        Some(text) => match pos.play(text) {
            Ok(played) => Some(json!({"move": played.text, "flips": played.flips})),
            Err(err) => return bad_request(format!("{text}: {err}")),
        },
        None => None,
    };
    let letters: Vec<String> = (0..pos.seats())
        .map(|i| pos.seat_letter(Seat(i as u8)).to_string())
        .collect();
    let outcome = pos.outcome();
    Json(json!({
        "game": kind.name(),
        "fen": pos.fen(),
        "played": played,
        "turn": outcome.is_none().then(|| pos.seat_letter(pos.turn()).to_string()),
        "legal_moves": pos.legal_moves(),
        "seats": letters,
        "pieces": pos.piece_counts(),
        "result": outcome.as_ref().map(result_text),
        "winning_path": pos.winning_cells(),
    }))
    .into_response()
}
