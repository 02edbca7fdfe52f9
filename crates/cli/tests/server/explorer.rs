//! Issue #33: the opening explorer (`GET /api/explorer`) through a real `ataxx serve`: a few
//! scripted games are counted exactly, move by move and seat by seat, from the start and from a
//! later position, and the speed and rating filters leave out what they should. Also the
//! analysis board's import (`POST /api/rules/ataxx/import`): the seed's 1995 game, read from its
//! record and from its PGN, is one game whose moves lead to the PGN's final position.

use games::GameKind;
use serde_json::{json, Value};

use crate::common::served::{api, command, http, Served};
use crate::common::text_setup::{ALICE, BOB};

/// Plays `moves` on a new board between alice (x) and bob, then `resigner` resigns; returns
/// the board.
fn play(server: &Served, moves: &[&str], resigner: (&str, &str)) -> i64 {
    let mut door = server.text();
    let board = command(server, "ataxx challenge alice bob")["data"]["board"]
        .as_i64()
        .expect("the challenge names its board");
    door.accept(board, &[ALICE, BOB]);
    for (index, mv) in moves.iter().enumerate() {
        let (user, password) = if index % 2 == 0 { ALICE } else { BOB };
        door.ok(&format!("ataxx move {board} {user} {password} {mv}"));
    }
    let (user, password) = resigner;
    door.ok(&format!("ataxx resign {board} {user} {password}"));
    board
}

fn explore(server: &Served, query: &str) -> Value {
    let (status, body) = api(
        "GET",
        &server.url(&format!("/api/explorer?{query}")),
        None,
        None,
    );
    assert_eq!(status, 200, "{query}: {body}");
    body
}

fn fen_after(moves: &[&str]) -> String {
    let mut position = GameKind::Ataxx.start(&Default::default()).unwrap();
    for mv in moves {
        position.play(mv).unwrap();
    }
    position.fen()
}

/// `{move: [games, x wins, x draws, x losses, o wins, o draws, o losses]}` of an answer.
fn counts(body: &Value) -> Value {
    let mut out = serde_json::Map::new();
    for entry in body["moves"].as_array().unwrap() {
        let seat = |letter: &str, field: &str| entry["results"][letter][field].clone();
        out.insert(
            entry["move"].as_str().unwrap().to_string(),
            json!([
                entry["games"],
                seat("x", "wins"),
                seat("x", "draws"),
                seat("x", "losses"),
                seat("o", "wins"),
                seat("o", "draws"),
                seat("o", "losses")
            ]),
        );
    }
    Value::Object(out)
}

#[test]
fn the_explorer_counts_finished_games_by_position_move_and_seat() {
    let dir = tempfile::tempdir().unwrap();
    let server = Served::fresh(&dir, &["--analysis-workers", "0"]);
    server.text().signup(&[ALICE, BOB]);
    let fresh = explore(&server, "game=ataxx");
    assert_eq!(
        (
            fresh["games"].as_i64(),
            fresh["moves"].as_array().map(Vec::len)
        ),
        (Some(0), Some(0))
    );

    // x: a7 g1, o: g7 a1. Three games, and one in play that must not count.
    let first = play(&server, &["b6", "f6"], ALICE); // o wins
    play(&server, &["b6", "b2"], BOB); // x wins
    play(&server, &["f2", "f6"], BOB); // x wins
    let open = command(&server, "ataxx challenge alice bob")["data"]["board"]
        .as_i64()
        .unwrap();
    server.text().accept(open, &[ALICE, BOB]);
    server
        .text()
        .ok(&format!("ataxx move {open} alice secret-1 b6"));

    let start = explore(&server, "game=ataxx");
    assert_eq!(start["games"], 3, "{start}");
    assert_eq!(start["fen"], fen_after(&[]));
    assert_eq!(
        counts(&start),
        json!({"b6": [2, 1, 0, 1, 1, 0, 1], "f2": [1, 1, 0, 0, 0, 0, 1]}),
        "{start}"
    );
    // The most played first.
    assert_eq!(start["moves"][0]["move"], "b6");

    // After b6 (the move counters of the FEN given do not matter).
    let fen = fen_after(&["b6"]);
    let mut fields: Vec<&str> = fen.split(' ').collect();
    let last = fields.len() - 1;
    fields[last] = "40";
    let later = explore(&server, &format!("fen={}", urlencode(&fields.join(" "))));
    assert_eq!(later["games"], 2, "{later}");
    assert_eq!(
        counts(&later),
        json!({"b2": [1, 1, 0, 0, 0, 0, 1], "f6": [1, 0, 0, 1, 1, 0, 0]}),
        "{later}"
    );

    // Filters: these games have no clock; a rating nobody has leaves every game out.
    let live = explore(&server, "game=ataxx&speed=live");
    assert_eq!(
        (
            live["games"].as_i64(),
            live["moves"].as_array().map(Vec::len)
        ),
        (Some(0), Some(0))
    );
    let correspondence = explore(&server, "game=ataxx&speed=correspondence");
    assert_eq!(correspondence["games"], 3);
    let strong = explore(&server, "game=ataxx&min_rating=100000");
    assert_eq!(strong["games"], 0, "{strong}");
    // A rated game's players have a rating; a low minimum keeps exactly the rated games.
    let rated = api(
        "GET",
        &server.url(&format!("/api/games/{first}")),
        None,
        None,
    )
    .1["rated"]
        .as_bool()
        .unwrap();
    let any = explore(&server, "game=ataxx&min_rating=0");
    assert_eq!(any["games"], if rated { 3 } else { 0 }, "{any}");
    if rated {
        assert!(
            start["moves"][0]["average_rating"].as_f64().is_some(),
            "{start}"
        );
    }

    // Bad input is refused with the API's error, never a crash.
    for query in ["game=chess", "fen=nonsense", "speed=fast"] {
        let (status, body) = api(
            "GET",
            &server.url(&format!("/api/explorer?{query}")),
            None,
            None,
        );
        assert_eq!(status, 400, "{query}: {body}");
        assert!(body["error"]["message"].is_string(), "{body}");
    }
}

fn urlencode(text: &str) -> String {
    text.replace('/', "%2F").replace(' ', "%20")
}

#[test]
fn the_analysis_board_imports_the_1995_game_from_its_record_and_from_its_pgn() {
    let dir = tempfile::tempdir().unwrap();
    let server = Served::fresh(&dir, &[]);
    let data = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../ataxx/tests/data/keller-cobbs-1995"
    );
    let import = |text: String| {
        let (status, _, body) = http(
            "POST",
            &server.url("/api/rules/ataxx/import"),
            None,
            Some(text.into_bytes()),
        );
        (status, body)
    };
    let pgn = std::fs::read_to_string(format!("{data}.pgn")).unwrap();
    let (status, from_pgn) = import(pgn.clone());
    assert_eq!(status, 200, "{from_pgn}");
    let (status, from_record) = import(std::fs::read_to_string(format!("{data}.txt")).unwrap());
    assert_eq!(status, 200, "{from_record}");
    assert_eq!(
        (&from_pgn["format"], &from_record["format"]),
        (&json!("pgn"), &json!("record"))
    );
    assert_eq!(from_pgn["moves"], from_record["moves"]);
    assert_eq!(from_pgn["start_fen"], from_record["start_fen"]);
    assert_eq!(from_pgn["tags"]["Black"], "Cobbs", "{from_pgn}");
    // The PGN's own tags are the truth: 61 plies, to its final diagram.
    let tag = |name: &str| {
        let line = pgn
            .lines()
            .find(|l| l.starts_with(&format!("[{name} ")))
            .unwrap();
        line.split('"').nth(1).unwrap().to_string()
    };
    let moves = from_pgn["moves"].as_array().unwrap();
    assert_eq!(moves.len().to_string(), tag("PlyCount"));
    let mut fen = from_pgn["start_fen"].as_str().unwrap().to_string();
    for mv in moves {
        let (status, after) = api(
            "GET",
            &server.url(&format!(
                "/api/rules/ataxx?fen={}&move={}",
                fen.replace(' ', "%20"),
                mv.as_str().unwrap()
            )),
            None,
            None,
        );
        assert_eq!(status, 200, "{mv}: {after}");
        fen = after["fen"].as_str().unwrap().to_string();
    }
    assert_eq!(fen, tag("FinalFEN"));

    // Neither format: both readers say why.
    let (status, refused) = import("1. zz9 b2".into());
    assert_eq!(status, 400, "{refused}");
    let message = refused["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("neither PGN") && message.contains("1995 record"),
        "{message}"
    );
}
