//! The move a test's person plays: a legal move of a game's full view (`GET /api/games/{board}`)
//! picked by the ply number, never the pass (the server plays forced passes itself).

use serde_json::Value;

/// A legal non-pass move of `game`, varied with its ply so that games do not repeat.
pub fn persons_move(game: &Value) -> String {
    let legal: Vec<&str> = game["legal_moves"]
        .as_array()
        .expect("a game view lists its legal moves")
        .iter()
        .filter_map(Value::as_str)
        .filter(|m| *m != "0000")
        .collect();
    let ply = game["ply"].as_u64().expect("a game view has its ply") as usize;
    legal[(ply * 7) % legal.len()].to_string()
}
