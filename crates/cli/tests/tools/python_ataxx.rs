//! Interoperability with python-ataxx, the reference Python implementation: its UAI client plays
//! the engine and the levels, and its PGN reader replays what `ataxx match` writes.
//!
//! The interpreter is `ATAXX_PYTHON` or the repository's `.venv` that `scripts/test.sh` creates;
//! without python-ataxx these tests fail rather than pass vacuously.

use std::ffi::OsStr;
use std::path::PathBuf;

use crate::common::python;

/// `python tests/python/<script> args...`, which must succeed; its standard output.
fn run_python(script: &str, args: &[&OsStr]) -> String {
    let out = python::script(script)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{}", python::cannot_run(e)));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn uai_game(depth: &str, extra: &[&str]) -> serde_json::Value {
    let args = [depth, env!("CARGO_BIN_EXE_ataxx"), "uai"];
    let args: Vec<&OsStr> = args.iter().chain(extra).map(OsStr::new).collect();
    serde_json::from_str(run_python("uai_client.py", &args).trim()).unwrap()
}

#[test]
fn python_ataxx_uai_client_plays_the_engine_to_a_finished_game() {
    let summary = uai_game("2", &[]);
    // Ended by the rules (the script stops at python-ataxx's game over, or gives up at 400
    // plies), after a real game: net2 at depth 2 wipes itself out in 15 plies from the start.
    let plies = summary["plies"].as_u64().unwrap();
    assert!((10..400).contains(&plies), "{summary}");
    assert_ne!(summary["result"], "*", "{summary}");
    assert!(summary["name"].as_str().unwrap().starts_with("ataxx"));
}

#[test]
fn python_ataxx_uai_client_plays_a_level_and_a_classic_player() {
    for extra in [
        &["--level", "medium"][..],
        &["--player", "alphabeta:depth=2,moves=reduced"],
    ] {
        let summary = uai_game("1", extra);
        assert_ne!(summary["result"], "*", "{extra:?}: {summary}");
    }
}

#[test]
fn python_ataxx_replays_the_pgn_of_an_engine_match() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("games.pgn");
    let exe = env!("CARGO_BIN_EXE_ataxx");
    let engine = format!("{exe} uai");
    let book = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../books/standard.txt");
    crate::common::stdout_of(&[
        "match",
        "-e",
        &engine,
        "-e",
        &engine,
        "--tc",
        "depth=1",
        "--games",
        "6",
        "--concurrency",
        "2",
        "--seed",
        "3",
        "--book",
        book.to_str().unwrap(),
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    let ours = ataxx::pgn::parse_games(&std::fs::read_to_string(&pgn).unwrap()).unwrap();
    assert_eq!(ours.len(), 6);
    let lines = run_python("read_pgn.py", &[pgn.as_os_str()]);
    let theirs: Vec<serde_json::Value> = lines
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(
        theirs.len(),
        6,
        "python-ataxx read {} of 6 games",
        theirs.len()
    );
    for (game, read) in ours.iter().zip(&theirs) {
        assert_eq!(read["plies"].as_u64().unwrap() as usize, game.moves().len());
        assert_eq!(
            read["fen"].as_str().unwrap(),
            game.final_position().to_string()
        );
        assert_eq!(
            read["result_tag"].as_str().unwrap(),
            game.result().to_string()
        );
        if game.termination().is_none() {
            // Ended by the rules: python-ataxx computes the same result.
            assert_eq!(read["result"], read["result_tag"], "{read}");
        }
    }
}
