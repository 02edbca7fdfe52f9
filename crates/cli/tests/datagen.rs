//! `ataxx datagen`: a small run writes readable records, and a second run resumes it.

mod common;

use ataxx::Color;
use common::{ataxx, stdout_of};
use engine::data::{self, Record};

/// `ataxx datagen` with `args`, which must succeed.
fn datagen(args: &[&str]) {
    stdout_of(&[&["datagen"], args].concat());
}

fn records(path: &std::path::Path) -> Vec<Record> {
    data::read_all(std::fs::File::open(path).unwrap()).unwrap()
}

#[test]
fn datagen_writes_games_of_scored_positions_and_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("games.bin");
    let path = file.to_str().unwrap();
    let common = ["--nodes", "300", "--random-plies", "4", "--threads", "2"];
    datagen(&[&["--output", path, "--games", "2"], &common[..]].concat());
    let first = records(&file);
    assert_eq!(data::count_games(&first), 2);
    assert!(first[0].first_of_game && first.len() > 2);
    for r in &first {
        let pos = r.position();
        assert!(!pos.is_game_over() && !pos.must_pass(), "{pos}");
    }
    // Within a game, both sides' results agree: a win for one is a loss for the other.
    let x_result = |r: &Record| {
        if r.turn == Color::X {
            r.result
        } else {
            -r.result
        }
    };
    let end = 1 + first[1..].iter().position(|r| r.first_of_game).unwrap();
    assert!(first[..end]
        .iter()
        .all(|r| x_result(r) == x_result(&first[0])));

    // A second run with a larger count appends games and keeps the first ones as they were.
    datagen(&[&["--output", path, "--games", "3"], &common[..]].concat());
    let second = records(&file);
    assert_eq!(data::count_games(&second), 3);
    assert_eq!(&second[..first.len()], &first[..]);
    // Same seed, same games: a fresh file of three games is the resumed one.
    let fresh = dir.path().join("fresh.bin");
    datagen(
        &[
            &["--output", fresh.to_str().unwrap(), "--games", "3"],
            &common[..],
        ]
        .concat(),
    );
    assert_eq!(records(&fresh), second);
}

#[test]
fn datagen_plays_with_a_net_file_and_refuses_a_bad_one() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("net_games.bin");
    let path = file.to_str().unwrap();
    let common = ["--nodes", "300", "--random-plies", "4", "--games", "2"];
    datagen(&[&["--output", path, "--eval-file", "default"], &common[..]].concat());
    let with_net = records(&file);
    assert_eq!(data::count_games(&with_net), 2);
    // The same games with the hand-crafted evaluation score their positions differently.
    let hand = dir.path().join("hand_games.bin");
    datagen(&[&["--output", hand.to_str().unwrap()], &common[..]].concat());
    let scores = |rs: &[Record]| rs.iter().map(|r| r.score).collect::<Vec<_>>();
    assert_ne!(scores(&with_net), scores(&records(&hand)));

    let bad = dir.path().join("bad.nnue");
    std::fs::write(&bad, b"nonsense").unwrap();
    let out = ataxx(&[
        "datagen",
        "--output",
        path,
        "--eval-file",
        bad.to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a net file"));
}
