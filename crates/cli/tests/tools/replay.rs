//! `ataxx replay` on the 1995 sample game (spec section 5, seed 001) and on bad files.

use std::path::PathBuf;
use std::process::{Command, Output};

const SEED_DIAGRAM: &str = "\
7 - - X X X O -
6 O O X X X X X
5 O O X O O X X
4 X X O O O X X
3 O O O O O X X
2 O O O X O O O
1 - O O X O O O
  a b c d e f g
";

fn data(name: &str) -> PathBuf {
    [
        env!("CARGO_MANIFEST_DIR"),
        "..",
        "ataxx",
        "tests",
        "data",
        name,
    ]
    .iter()
    .collect()
}

fn replay(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ataxx"))
        .arg("replay")
        .args(args)
        .output()
        .expect("the ataxx binary runs")
}

fn stdout(output: &Output) -> String {
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout.clone()).unwrap()
}

#[test]
fn replaying_the_1995_game_prints_the_article_diagram_and_the_spec_facts() {
    for file in ["keller-cobbs-1995.txt", "keller-cobbs-1995.pgn"] {
        let path = data(file);
        let out = stdout(&replay(&[path.to_str().unwrap(), "--labels", "OX"]));
        assert!(
            out.ends_with(&format!("\n\n{SEED_DIAGRAM}")),
            "{file}:\n{out}"
        );
        assert!(out
            .contains("\nFEN     2ooox1/xxooooo/xxoxxoo/ooxxxoo/xxxxxoo/xxxoxxx/1xxoxxx o 0 31\n"));
        assert!(out.contains("\nplies   61 (20 jumps, 0 passes), 149 flips\n"));
        assert!(out.contains("\npieces  x 26, o 19\n"));
        assert!(out.contains("\nresult  1-0 (resignation)\n"));
        assert!(out.contains("\n 4 e1       d2(1)\n"));
        assert!(out.contains("\n31 a6(2)    Resigns\n"));
    }
}

#[test]
fn the_default_diagram_uses_fen_letters() {
    let path = data("keller-cobbs-1995.txt");
    let out = stdout(&replay(&[path.to_str().unwrap()]));
    assert!(out.contains("\n7 . . o o o x .\n"), "{out}");
}

#[test]
fn converts_between_the_two_formats() {
    let record = std::fs::read_to_string(data("keller-cobbs-1995.txt")).unwrap();
    let pgn = std::fs::read_to_string(data("keller-cobbs-1995.pgn")).unwrap();
    let pgn_path = data("keller-cobbs-1995.pgn");
    let as_record = stdout(&replay(&[
        pgn_path.to_str().unwrap(),
        "--record",
        "--labels",
        "OX",
    ]));
    // The writer names x "Black" as the PGN does (the article called its first player "White").
    assert_eq!(
        as_record,
        record.replacen("White    Black", "Black    White", 1)
    );
    let record_path = data("keller-cobbs-1995.txt");
    let as_pgn = stdout(&replay(&[record_path.to_str().unwrap(), "--pgn"]));
    let movetext = |text: &str| text.split("\n\n").nth(1).unwrap().to_string();
    assert_eq!(movetext(&as_pgn), movetext(&pgn));
    assert!(as_pgn.contains("[Black \"Cobbs\"]\n[White \"Keller\"]\n[Result \"1-0\"]\n"));
}

#[test]
fn bad_files_exit_2_with_the_reason() {
    let record = std::fs::read_to_string(data("keller-cobbs-1995.txt")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad-flips.txt");
    std::fs::write(&path, record.replace("d2(1)", "d2(2)")).unwrap();
    let output = replay(&[path.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.starts_with("error: ")
            && stderr.contains("line 7: move 4... \"d2(2)\" states 2 flips, but the move flips 1"),
        "{stderr}"
    );

    let missing = replay(&["/nonexistent/game.pgn"]);
    assert_eq!(missing.status.code(), Some(2));
    let bad_labels = replay(&[
        data("keller-cobbs-1995.txt").to_str().unwrap(),
        "--labels",
        "OO",
    ]);
    assert_eq!(bad_labels.status.code(), Some(2));
}
