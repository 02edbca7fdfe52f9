//! `ataxx play` driven through its standard input: a whole game, played by taking hints.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

#[test]
fn a_scripted_game_runs_to_its_end_and_saves_a_readable_pgn() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("game.pgn");
    let mut child = Command::new(env!("CARGO_BIN_EXE_ataxx"))
        .args([
            "play",
            "--level",
            "easy",
            "--color",
            "o",
            "--fen",
            "x3o/5/5/5/o3x x 0 1",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let mut output = BufReader::new(child.stdout.take().unwrap());

    // Ask for a hint, play it, until the game is over; also try a bad move once.
    writeln!(input, "e5e9").unwrap();
    writeln!(input, "hint").unwrap();
    let (mut saw_error, mut moves, mut over) = (false, 0, false);
    let mut line = String::new();
    while output.read_line(&mut line).unwrap() > 0 {
        if line.contains("invalid move \"e5e9\"") {
            saw_error = true;
        }
        if let Some(hint) = line.split("hint: ").nth(1) {
            writeln!(input, "{}", hint.trim()).unwrap();
            writeln!(input, "hint").unwrap();
            moves += 1;
        }
        if line.starts_with("Game over:") || line.contains("> Game over:") {
            over = true;
            writeln!(input, "save {}", pgn.display()).unwrap();
            writeln!(input, "quit").unwrap();
        }
        line.clear();
        assert!(moves < 200, "the game does not end");
    }
    assert!(child.wait().unwrap().success());
    assert!(saw_error, "a bad move is reported");
    assert!(over && moves > 0);
    let text = std::fs::read_to_string(&pgn).unwrap();
    let game: ataxx::Game = text.parse().unwrap();
    assert!(game.final_position().is_game_over());
    assert_eq!(game.tag("White"), Some("you"));
    assert_ne!(game.result(), ataxx::GameResult::Unfinished);
}
