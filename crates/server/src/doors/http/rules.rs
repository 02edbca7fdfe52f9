//! `GET /api/rules/{game}?fen=…&move=…`: a position of any game and, with `move`, the position
//! after it, as the rules pages' small boards need them: the pages draw and click, the server's
//! one implementation of the rules says what is legal and what a move does.

use axum::extract::{Path, Query};
use axum::Json;
use games::{GameKind, Seat};
use serde::Deserialize;
use serde_json::json;

use super::{bad, ApiResult};
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
) -> ApiResult {
    let kind = game
        .parse::<GameKind>()
        .map_err(|err| bad(err.to_string()))?;
    let parsed = match &query.fen {
        Some(fen) => kind.parse_position(fen),
        None => kind.start(&Default::default()),
    };
    let mut pos = parsed.map_err(|err| bad(format!("fen: {err}")))?;
    let played = match &query.mv {
        Some(text) => {
            let played = pos
                .play(text)
                .map_err(|err| bad(format!("{text}: {err}")))?;
            Some(json!({"move": played.text, "flips": played.flips}))
        }
        None => None,
    };
    let letters: Vec<String> = (0..pos.seats())
        .map(|i| pos.seat_letter(Seat(i as u8)).to_string())
        .collect();
    let outcome = pos.outcome();
    Ok(Json(json!({
        "game": kind.name(),
        "fen": pos.fen(),
        "played": played,
        "turn": outcome.is_none().then(|| pos.seat_letter(pos.turn()).to_string()),
        "legal_moves": pos.legal_moves(),
        "seats": letters,
        "pieces": pos.piece_counts(),
        "result": outcome.as_ref().map(result_text),
        "winning_path": pos.winning_cells(),
    })))
}

/// `POST /api/rules/ataxx/import` with a square Ataxx game as text, in PGN (its first game) or
/// as a 1995 record: its start position and moves, so that the analysis board can replay it.
/// Both readers' complaints are given when neither reads it.
pub(super) async fn import(text: String) -> ApiResult {
    let (format, game) = match ataxx::pgn::parse_games(&text) {
        Ok(mut games) if !games.is_empty() => ("pgn", games.swap_remove(0)),
        pgn => match ataxx::record::parse_record(&text) {
            Ok(game) => ("record", game),
            Err(record) => {
                let pgn = match pgn {
                    Ok(_) => "no game in it".to_string(),
                    Err(err) => err.to_string(),
                };
                return Err(bad(format!(
                    "neither PGN ({pgn}) nor a 1995 record ({record})"
                )));
            }
        },
    };
    let tags: serde_json::Map<String, serde_json::Value> = game
        .tags()
        .iter()
        .map(|(name, value)| (name.clone(), json!(value)))
        .collect();
    Ok(Json(json!({
        "game": GameKind::Ataxx.name(),
        "format": format,
        "start_fen": game.start().to_string(),
        "moves": game.moves().iter().map(|m| m.mv().to_string()).collect::<Vec<_>>(),
        "tags": tags,
        "result": game.result().to_string(),
    })))
}
