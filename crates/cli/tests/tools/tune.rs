//! `ataxx tune` on a few engine games (crates/cli/tests/data/engine-games.pgn, played by
//! `ataxx match` between two engine builds).

use std::process::Command;

fn tune(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_ataxx"))
        .arg("tune")
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn tune_reads_pgn_lowers_the_error_and_prints_every_weight() {
    let pgn = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/engine-games.pgn");
    let out = tune(&[pgn, "--epochs", "300", "--learning-rate", "2"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let number_after = |label: &str| -> f64 {
        let rest = &text[text.find(label).unwrap() + label.len()..];
        rest.split_whitespace().next().unwrap().parse().unwrap()
    };
    assert!(text.contains("from 6 games"), "{text}");
    let (start, end) = (number_after("starting error"), number_after("final error"));
    assert!(end < start, "error {start} -> {end}");
    assert_eq!(text.matches("pieces on class").count(), 10);
    assert!(text.contains("Weights(["));
}

#[test]
fn tune_reports_unreadable_input() {
    let out = tune(&["/nonexistent.pgn"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read /nonexistent.pgn"));
}
