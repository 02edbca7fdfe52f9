//! `ataxx match` and `ataxx openings` end to end, with the arena crate's Python test engine.

use std::process::Command;

const MOVER: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../arena/tests/engines/mover.py"
);

fn ataxx(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_ataxx"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn match_writes_summary_pgn_json_and_plot() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    std::fs::write(
        path("book.txt"),
        "# test book\nx5o/7/7/7/7/7/o5x x 0 1\nx5o/7/2-1-2/7/2-1-2/7/o5x x 0 1\n",
    )
    .unwrap();
    let (ok, stdout, stderr) = ataxx(&[
        "match",
        "-e",
        &format!("python3 {MOVER} --seed 1"),
        "-e",
        &format!("python3 {MOVER} --random"),
        "--name",
        "greedy",
        "--tc",
        "depth=1",
        "--games",
        "6",
        "--book",
        &path("book.txt"),
        "--seed",
        "9",
        "--concurrency",
        "2",
        "--pgn",
        &path("games.pgn"),
        "--json",
        &path("summary.json"),
        "--plot",
        &path("elo.svg"),
    ]);
    assert!(ok, "{stderr}");
    assert!(stdout.starts_with("head-to-head match, 6 games played of 6 scheduled, tc depth=1"));
    assert!(stdout.contains("greedy vs mover: +"), "{stdout}");
    assert!(stdout.contains("pairs 3 ["), "{stdout}");
    let pgn = std::fs::read_to_string(path("games.pgn")).unwrap();
    assert_eq!(pgn.matches("[Event \"ataxx match\"]").count(), 6);
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path("summary.json")).unwrap()).unwrap();
    assert_eq!(json["games_played"], 6);
    assert_eq!(json["seed"], 9);
    assert_eq!(json["names"][0], "greedy");
    let svg = std::fs::read_to_string(path("elo.svg")).unwrap();
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
}

#[test]
fn match_rejects_bad_input_clearly() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("bad.txt");
    std::fs::write(&book, "x5o/7/7/7/7/7/o5x x 0 1\n# fine so far\nx5o/7/7 x\n").unwrap();
    let engine = format!("python3 {MOVER}");
    let book_arg = book.to_str().unwrap();
    let (ok, _, stderr) = ataxx(&["match", "-e", &engine, "-e", &engine, "--book", book_arg]);
    assert!(!ok);
    assert!(stderr.contains("line 3"), "{stderr}");
    let (ok, _, stderr) = ataxx(&["match", "-e", &engine, "-e", "/no/such/engine"]);
    assert!(!ok);
    assert!(stderr.contains("engine 2 (/no/such/engine)"), "{stderr}");
    let (ok, _, stderr) = ataxx(&["match", "-e", &engine, "-e", &engine, "--tc", "8+x"]);
    assert!(!ok);
    assert!(stderr.contains("8+x"), "{stderr}");
}

#[test]
fn openings_writes_a_readable_book() {
    let (ok, stdout, stderr) = ataxx(&[
        "openings", "--plies", "3", "--count", "5", "--start", "startpos", "--blocks", "h",
    ]);
    assert!(ok, "{stderr}");
    let book = arena::book::parse(&stdout).unwrap();
    assert_eq!(book.len(), 10);
    assert!(book.iter().all(|p| p.turn() == ataxx::Color::O));
    assert!(book[5..].iter().all(|p| p.blocked().count() == 4));
}

/// `A vs B: +W =D -L (S%)` from a summary: the three counts and the score.
fn score_line(stdout: &str, names: &str) -> (u32, u32, u32, f64) {
    let line = stdout
        .lines()
        .find(|l| l.starts_with(&format!("{names}: +")))
        .unwrap_or_else(|| panic!("no score line for {names} in {stdout}"));
    let rest = line.split(": ").nth(1).unwrap();
    let fields: Vec<&str> = rest.split([' ', '(', ')', '%']).collect();
    let count = |prefix: char| -> u32 {
        fields
            .iter()
            .find_map(|f| f.strip_prefix(prefix))
            .unwrap()
            .parse()
            .unwrap()
    };
    let score = fields
        .iter()
        .filter(|f| f.contains('.'))
        .find_map(|f| f.parse::<f64>().ok())
        .unwrap();
    (count('+'), count('='), count('-'), score)
}

#[test]
fn variant_match_plays_ankor_levels_and_reports_a_score() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("ankor.json");
    let (ok, stdout, stderr) = ataxx(&[
        "match",
        "--variant",
        "ankor",
        "--level",
        "easy",
        "--level",
        "very-easy",
        "--games",
        "4",
        "--seed",
        "3",
        "--concurrency",
        "2",
        "--json",
        json.to_str().unwrap(),
    ]);
    assert!(ok, "{stderr}");
    assert!(
        stdout.starts_with("ankor match, 4 games played of 4 scheduled"),
        "{stdout}"
    );
    let (w, d, l, score) = score_line(&stdout, "easy vs very-easy");
    assert_eq!(w + d + l, 4, "{stdout}");
    // Two seats: every game is won, drawn or lost whole.
    let points = f64::from(w) + f64::from(d) / 2.0;
    assert!((score - 100.0 * points / 4.0).abs() < 0.05, "{stdout}");
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(summary["variant"], "ankor");
    assert_eq!(summary["games"], 4);
    assert_eq!(summary["wins"], w);
    assert!((summary["points"].as_f64().unwrap() - points).abs() < 1e-9);
}

#[test]
fn variant_match_scores_four_player_games_by_pairs() {
    let (ok, stdout, stderr) = ataxx(&[
        "match",
        "--variant",
        "ataxx4",
        "--level",
        "easy",
        "--level",
        "very-easy",
        "--games",
        "2",
        "--seed",
        "1",
        "--concurrency",
        "1",
    ]);
    assert!(ok, "{stderr}");
    let (w, d, l, score) = score_line(&stdout, "easy vs very-easy");
    assert_eq!(w + d + l, 2, "{stdout}");
    // A four-seat game is worth 0, ¼, ½, ¾ or 1: two games make a multiple of 12.5%.
    assert!(
        (score / 12.5 - (score / 12.5).round()).abs() < 1e-6,
        "{stdout}"
    );
}

#[test]
fn variant_match_rejects_bad_levels_clearly() {
    let (ok, _, stderr) = ataxx(&[
        "match",
        "--variant",
        "ankor",
        "--level",
        "master",
        "--level",
        "easy",
    ]);
    assert!(!ok);
    assert!(
        stderr.contains("no such ankor level") && stderr.contains("very-easy, easy, medium, hard"),
        "{stderr}"
    );
    let (ok, _, stderr) = ataxx(&["match", "--variant", "hexxagon", "--level", "easy"]);
    assert!(!ok);
    assert!(
        stderr.contains("needs two --level options, got 1"),
        "{stderr}"
    );
    let (ok, _, stderr) = ataxx(&[
        "match",
        "--variant",
        "ankor",
        "--level",
        "easy",
        "--level",
        "easy",
        "--book",
        "b.txt",
    ]);
    assert!(!ok);
    assert!(
        stderr.contains("--book applies to engine matches"),
        "{stderr}"
    );
}
