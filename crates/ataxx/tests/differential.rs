//! Differential test against python-ataxx, a second, independent implementation of the rules.
//!
//! `python/differential.py` plays seeded random games with python-ataxx (start position, random
//! blocked layouts, and starts close to the 100-ply rule) and reports every ply; this test replays
//! them with this crate and compares the FEN, the set of legal moves, game over and the result.
//!
//! The Python interpreter comes from `ATAXX_PYTHON`, else the repository's `.venv` that
//! `scripts/test.sh` creates. Without python-ataxx the test fails: it must not pass vacuously.

use std::path::PathBuf;
use std::process::Command;

use ataxx::{Move, Position};

const GAMES: u32 = 1000;
const SEED: u32 = 20261122;

fn python() -> PathBuf {
    if let Some(p) = std::env::var_os("ATAXX_PYTHON") {
        return PathBuf::from(p);
    }
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    manifest.join("../../.venv/bin/python")
}

#[derive(serde::Deserialize)]
struct Ply {
    game: u32,
    fen: String,
    moves: Vec<String>,
    over: bool,
    result: String,
    played: Option<String>,
}

#[test]
fn random_games_agree_with_python_ataxx() {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/python/differential.py");
    let python = python();
    let output = Command::new(&python)
        .arg(&script)
        .arg(GAMES.to_string())
        .arg(SEED.to_string())
        .output()
        .unwrap_or_else(|e| {
            panic!(
                "cannot run {} ({e}); run scripts/test.sh, which installs python-ataxx",
                python.display()
            )
        });
    assert!(
        output.status.success(),
        "python-ataxx run failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );

    let mut pos = Position::startpos();
    let mut current_game = None;
    let (mut games, mut plies) = (0, 0);
    for line in String::from_utf8(output.stdout).unwrap().lines() {
        let ply: Ply = serde_json::from_str(line).unwrap();
        if current_game != Some(ply.game) {
            current_game = Some(ply.game);
            games += 1;
            pos = ply
                .fen
                .parse()
                .unwrap_or_else(|e| panic!("{}: {e}", ply.fen));
        }
        plies += 1;
        let context = format!("game {} at {}", ply.game, ply.fen);
        assert_eq!(pos.to_string(), ply.fen, "FEN differs: {context}");

        let mut ours: Vec<String> = pos.legal_moves().iter().map(Move::to_string).collect();
        ours.sort();
        assert_eq!(ours, ply.moves, "legal moves differ: {context}");
        assert_eq!(pos.is_game_over(), ply.over, "game over differs: {context}");
        let result = pos.outcome().map_or("*", |o| o.pgn());
        assert_eq!(result, ply.result, "result differs: {context}");

        if let Some(text) = ply.played {
            let mv: Move = text.parse().unwrap();
            pos.play(mv)
                .unwrap_or_else(|e| panic!("{context}: move {text}: {e}"));
        }
    }
    assert_eq!(games, GAMES, "python-ataxx reported {games} games");
    assert!(plies > 50 * GAMES as usize, "only {plies} plies compared");
}
