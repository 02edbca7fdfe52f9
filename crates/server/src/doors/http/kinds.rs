//! `GET /api/kinds`: the games the server plays, as the browser needs them to offer and draw
//! each one (readable without an account). Everything in it is asked of the games crate, so a
//! game added there is offered by the pages without a list of games to keep in step.

use std::sync::OnceLock;

use axum::Json;
use games::{GameKind, Seat, StartOptions};
use serde_json::{json, Value};

/// Board sizes asked of each game's start: beyond every game's largest.
const SIZES_ASKED: std::ops::RangeInclusive<u8> = 1..=16;

pub(super) async fn get() -> Json<Value> {
    static KINDS: OnceLock<Value> = OnceLock::new();
    Json(
        KINDS
            .get_or_init(|| GameKind::ALL.iter().map(|&kind| describe(kind)).collect())
            .clone(),
    )
}

/// One game: its name in the API and for people, its seats' piece letters in turn order, the
/// board sizes its start takes and the one it takes when none is given.
fn describe(kind: GameKind) -> Value {
    let start = |size| {
        kind.start(&StartOptions {
            size,
            ..StartOptions::default()
        })
    };
    let default = start(None).expect("every game starts with its default options");
    let seats: Vec<String> = (0..default.seats())
        .map(|seat| default.seat_letter(Seat(seat as u8)).to_string())
        .collect();
    let started: Vec<(u8, String)> = SIZES_ASKED
        .filter_map(|size| Some((size, start(Some(size)).ok()?.fen())))
        .collect();
    let default_size = started
        .iter()
        .find(|(_, fen)| *fen == default.fen())
        .map(|&(size, _)| size)
        .expect("the default board is one of the sizes the game takes");
    json!({
        "id": kind.name(),
        "name": kind.title(),
        "seats": seats,
        "sizes": started.iter().map(|&(size, _)| size).collect::<Vec<_>>(),
        "default_size": default_size,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_is_described_from_its_rules() {
        let kinds: Vec<Value> = GameKind::ALL.iter().map(|&kind| describe(kind)).collect();
        assert_eq!(
            kinds[0],
            json!({"id": "ataxx", "name": "Ataxx", "seats": ["x", "o"],
                   "sizes": [3, 4, 5, 6, 7, 8], "default_size": 7})
        );
        assert_eq!(kinds[1]["sizes"], json!([3, 4, 5]));
        assert_eq!(kinds[1]["default_size"], 5);
        assert_eq!(kinds[2]["seats"], json!(["r", "b", "g", "y"]));
        assert_eq!(kinds[2]["sizes"], json!([5, 6, 7, 8]));
        assert_eq!(kinds[3]["name"], "Ankor");
        assert_eq!(kinds[3]["seats"], json!(["o", "x"]));
        assert_eq!(kinds[3]["default_size"], 6);
    }
}
