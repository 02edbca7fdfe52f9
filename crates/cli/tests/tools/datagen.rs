//! `ataxx datagen`: a small run writes whole files of replayable games into a corpus directory,
//! and a second run resumes it.

use std::path::Path;

use ataxx::{Color, Position};
use engine::data::{self, Chunk, Ply};

use crate::common::{ataxx, stdout_of};

/// `ataxx datagen` with `args`, which must succeed.
fn datagen(args: &[&str]) {
    stdout_of(&[&["datagen"], args].concat());
}

fn chunk(path: &Path) -> Chunk {
    Chunk::from_bytes(&std::fs::read(path).unwrap()).unwrap()
}

/// The data files of `dir`, by name.
fn files(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn datagen_writes_files_of_scored_games_and_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("corpus");
    let path = corpus.to_str().unwrap();
    let common = [
        "--nodes",
        "300",
        "--random-plies",
        "8-12",
        "--opening-nodes",
        "200",
        "--chunk-games",
        "2",
        "--threads",
        "2",
        "--seed",
        "4",
    ];
    datagen(&[&["--output", path, "--games", "3"], &common[..]].concat());
    // Three games round up to two files of two.
    assert_eq!(
        files(&corpus),
        ["seed4-00000.games.zst", "seed4-00001.games.zst"]
    );
    let first = chunk(&corpus.join("seed4-00000.games.zst"));
    assert!(first.settings.contains("nodes 300 random-plies 8-12"));
    assert_eq!(first.games.len(), 2);
    let start = Position::startpos();
    for game in &first.games {
        // The engine took over after 8 to 12 random plies of the standard start.
        let plies = game.start.fullmove_number() * 2 - 2 + u32::from(game.start.turn() == Color::O);
        assert!((8..=12).contains(&plies), "{}", game.start);
        assert_eq!(game.start.blocked(), start.blocked());
        assert!(game.plies.len() > 4);
    }
    // Every searched position replays to a record whose result agrees with the game's winner.
    let records = first.records().unwrap();
    assert_eq!(data::count_games(&records), 2);
    let searched = first.games[0]
        .plies
        .iter()
        .filter(|p| **p != Ply::Pass)
        .count();
    let winner = first.games[0].winner;
    for r in &records[..searched] {
        let expected = match winner {
            None => 0,
            Some(side) if side == r.turn => 1,
            Some(_) => -1,
        };
        assert_eq!(r.result, expected);
    }

    // A second run with a larger count adds a file and leaves the others untouched.
    let before = std::fs::read(corpus.join("seed4-00001.games.zst")).unwrap();
    datagen(&[&["--output", path, "--games", "6"], &common[..]].concat());
    assert_eq!(files(&corpus).len(), 3);
    assert_eq!(
        std::fs::read(corpus.join("seed4-00001.games.zst")).unwrap(),
        before
    );
    // Same seed, same games: a fresh corpus of six games holds the same files.
    let fresh = dir.path().join("fresh");
    datagen(
        &[
            &["--output", fresh.to_str().unwrap(), "--games", "6"],
            &common[..],
        ]
        .concat(),
    );
    for name in files(&corpus) {
        assert_eq!(
            chunk(&fresh.join(&name)),
            chunk(&corpus.join(&name)),
            "{name}"
        );
    }
    // Other settings under the same seed are refused.
    let out = ataxx(&[
        "datagen",
        "--output",
        path,
        "--games",
        "8",
        "--chunk-games",
        "2",
        "--seed",
        "4",
    ]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("other settings"));
}

#[test]
fn datagen_plays_with_the_evaluation_asked_for_and_refuses_a_bad_one() {
    let dir = tempfile::tempdir().unwrap();
    let common = [
        "--nodes",
        "300",
        "--games",
        "2",
        "--chunk-games",
        "2",
        "--opening-nodes",
        "0",
    ];
    let scores = |name: &str, eval: &str| {
        let out = dir.path().join(name);
        datagen(
            &[
                &["--output", out.to_str().unwrap(), "--eval-file", eval],
                &common[..],
            ]
            .concat(),
        );
        let chunk = chunk(&out.join("seed1-00000.games.zst"));
        chunk
            .records()
            .unwrap()
            .iter()
            .map(|r| r.score)
            .collect::<Vec<_>>()
    };
    // The same openings (same seed) scored by the embedded net and the hand-crafted evaluation.
    assert_ne!(scores("net", "default"), scores("hce", "hce"));

    let bad = dir.path().join("bad.nnue");
    std::fs::write(&bad, b"nonsense").unwrap();
    let out = ataxx(&[
        "datagen",
        "--output",
        dir.path().join("x").to_str().unwrap(),
        "--eval-file",
        bad.to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a net file"));
    // A book of another board size is refused: the data holds 7×7 games.
    let book = dir.path().join("book.txt");
    std::fs::write(&book, "x3o/5/5/5/o3x x 0 1\n").unwrap();
    let out = ataxx(&[
        "datagen",
        "--output",
        dir.path().join("y").to_str().unwrap(),
        "--book",
        book.to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("7x7"));
}

#[test]
fn a_share_of_the_games_starts_from_canonical_blocked_layouts() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().to_str().unwrap();
    datagen(&[
        "--output",
        path,
        "--games",
        "12",
        "--chunk-games",
        "12",
        "--nodes",
        "200",
        "--random-plies",
        "2",
        "--opening-nodes",
        "100",
        "--blocked-share",
        "50",
        "--max-blocks",
        "8",
        "--threads",
        "2",
        "--seed",
        "9",
    ]);
    let chunk = chunk(&dir.path().join("seed9-00000.games.zst"));
    assert!(
        chunk.settings.ends_with("blocked-share 50% max-blocks 8"),
        "{}",
        chunk.settings
    );
    let mut blocked_games = 0;
    for game in &chunk.games {
        let blocked = game.start.blocked();
        if blocked.is_empty() {
            continue;
        }
        blocked_games += 1;
        // Every blocked start is a canonical code's layout with at most 8 blocked cells.
        let layout = ataxx::Layout::from_position(&game.start).unwrap();
        assert!(layout.is_canonical(), "{layout}");
        assert!(layout.blocks() <= 8, "{layout}");
    }
    // 12 draws at one half: all-or-nothing has odds of 1 in 2,048.
    assert!((1..12).contains(&blocked_games), "{blocked_games} of 12");
    // The games still replay into training positions.
    assert!(!chunk.records().unwrap().is_empty());
}
