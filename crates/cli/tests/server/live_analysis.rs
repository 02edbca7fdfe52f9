//! Issue #33: the analysis board's live lines over the WebSocket, through a real `ataxx serve`:
//! `analyse` brings the best three lines depth after depth, for square Ataxx (the engine) and
//! Hexxagon and Ankor (their strongest level's search), each a distinct legal move whose line
//! plays out legally; a new position replaces the socket's search and its owner's on another
//! socket; positions on a board in play, bad positions and unknown games are refused in words;
//! the node's cap refuses one search too many, and a closed socket's search ends and frees its
//! place.

use std::time::{Duration, Instant};

use games::GameKind;
use serde_json::{json, Value};

use crate::common::served::{login, next_where, send, socket, Served, Socket};
use crate::common::text_setup::{ALICE, BOB};

/// The answer to an `analyse` (its `analysis_started` or its `error`).
async fn analyse(ws: &mut Socket, id: i64, game: &str, fen: &str) -> Value {
    send(
        ws,
        json!({"type": "analyse", "id": id, "game": game, "fen": fen}),
    )
    .await;
    next_where(ws, |v| {
        matches!(v["type"].as_str(), Some("analysis_started" | "error")) && v["id"] == id
    })
    .await
}

/// Reads `analysis_lines` of `fen` until one is `depth` deep, checking each on the way against
/// the games crate: depths grow, three lines of distinct legal moves best first, each line
/// legal from the position, scores and chances as documented. Any other position's lines fail.
async fn lines_until(ws: &mut Socket, kind: GameKind, fen: &str, depth: u64) -> Value {
    let position = kind.parse_position(fen).unwrap();
    let legal = position.legal_moves();
    let mut last_depth = 0;
    loop {
        let found = next_where(ws, |v| v["type"] == "analysis_lines").await;
        assert_eq!(
            (found["game"].as_str(), found["fen"].as_str()),
            (Some(kind.name()), Some(fen))
        );
        let at = found["depth"].as_u64().unwrap();
        assert!(at > last_depth, "depths grow: {at} after {last_depth}");
        last_depth = at;
        let lines = found["lines"].as_array().unwrap();
        assert_eq!(lines.len(), 3, "{found}");
        let mut moves: Vec<&str> = lines.iter().map(|l| l["move"].as_str().unwrap()).collect();
        assert!(
            moves.iter().all(|mv| legal.iter().any(|l| l == mv)),
            "{moves:?} of {legal:?}"
        );
        moves.sort();
        moves.dedup();
        assert_eq!(moves.len(), 3, "distinct moves: {found}");
        let scores: Vec<f64> = lines.iter().map(|l| l["score"].as_f64().unwrap()).collect();
        assert!(
            scores.windows(2).all(|w| w[0] >= w[1]),
            "best first: {scores:?}"
        );
        for line in lines {
            let chance = line["win_chance"].as_f64().unwrap();
            assert!((0.0..=1.0).contains(&chance), "{line}");
            let played = line["line"].as_array().unwrap();
            assert_eq!(played[0], line["move"]);
            let mut after = position.clone_box();
            for mv in played {
                after.play(mv.as_str().unwrap()).unwrap();
            }
        }
        if at >= depth {
            return found;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn live_lines_deepen_for_every_engine_and_one_search_is_kept_per_owner() {
    let dir = tempfile::tempdir().unwrap();
    let server = Served::fresh(&dir, &["--analysis-workers", "0", "--live-analyses", "4"]);
    let mut door = server.text();
    door.signup(&[ALICE, BOB]);
    let alice = login(&server, ALICE.0, ALICE.1);
    let mut page = socket(&server.ws(&format!("/api/ws?token={alice}"))).await;
    next_where(&mut page, |v| v["type"] == "hello").await;

    // Square Ataxx, the engine: a position after two moves, given with other move counters.
    let ataxx = "x5o/1x5/7/7/7/5o1/o5x x 3 2";
    let started = analyse(&mut page, 1, "ataxx", ataxx).await;
    assert_eq!(started["type"], "analysis_started", "{started}");
    assert_eq!(started["fen"], ataxx);
    lines_until(&mut page, GameKind::Ataxx, ataxx, 5).await;

    // A new position replaces the search: from its answer on, only its lines come.
    let hexxagon = GameKind::Hexxagon.start(&Default::default()).unwrap().fen();
    let started = analyse(&mut page, 2, "hexxagon", &hexxagon).await;
    assert_eq!(started["fen"], hexxagon, "{started}");
    lines_until(&mut page, GameKind::Hexxagon, &hexxagon, 3).await;

    // The same owner on another socket (another tab): the first socket's search is replaced.
    let mut tab = socket(&server.ws(&format!("/api/ws?token={alice}"))).await;
    let ankor = GameKind::Ankor.start(&Default::default()).unwrap().fen();
    assert_eq!(
        analyse(&mut tab, 3, "ankor", &ankor).await["type"],
        "analysis_started"
    );
    let ended = next_where(&mut page, |v| v["type"] == "analysis_end").await;
    assert_eq!(
        (&ended["fen"], &ended["reason"]),
        (&json!(hexxagon), &json!("replaced"))
    );
    lines_until(&mut tab, GameKind::Ankor, &ankor, 2).await;
    send(&mut tab, json!({"type": "analyse_stop", "id": "stop"})).await;
    let stopped = next_where(&mut tab, |v| v["type"] == "analysis_end").await;
    assert_eq!(
        (&stopped["id"], &stopped["fen"], &stopped["reason"]),
        (&json!("stop"), &json!(ankor), &json!("stopped"))
    );

    // A finished position has nothing to search.
    let over = "x5o/7/7/7/7/7/o5x x 100 60";
    assert_eq!(
        analyse(&mut page, 4, "ataxx", over).await["type"],
        "analysis_started"
    );
    let ended = next_where(&mut page, |v| v["type"] == "analysis_end").await;
    assert_eq!(
        (&ended["reason"], &ended["depth"]),
        (&json!("game_over"), &json!(0))
    );

    // Refusals in words, each with its code.
    let refused = analyse(&mut page, 5, "chess", ataxx).await;
    assert_eq!(refused["code"], "unknown_game", "{refused}");
    let refused = analyse(&mut page, 6, "hexxagon", "x5o/7/7/7/7/7/o5x x 0 1").await;
    assert_eq!(refused["code"], "bad_position", "{refused}");
    assert!(
        refused["message"].as_str().unwrap().contains("hexxagon"),
        "{refused}"
    );

    // No engine output about a board in play (issue #32), whatever the game, whatever the
    // move counters, to its players and to anyone else.
    door.start("ataxx challenge alice bob", 101, &[ALICE, BOB]);
    door.ok("ataxx move 101 alice secret-1 b6");
    door.start("hexxagon challenge alice bob", 102, &[ALICE, BOB]);
    let mut visitor = socket(&server.ws("/api/ws")).await;
    assert_eq!(
        next_where(&mut visitor, |v| v["type"] == "hello").await["user"],
        Value::Null
    );
    for board in [101, 102] {
        let game = door.board(board);
        let fen = game["fen"].as_str().unwrap();
        let recounted = fen.rsplitn(3, ' ').nth(2).unwrap().to_string() + " 7 40";
        for (ws, asked) in [(&mut page, fen.to_string()), (&mut visitor, recounted)] {
            let refused = analyse(ws, 7, game["game"].as_str().unwrap(), &asked).await;
            assert_eq!(refused["code"], "in_play", "{asked}: {refused}");
        }
    }
    // Once the game is over, its position may be analysed.
    door.ok("ataxx resign 101 bob secret-2");
    let fen = door.board(101)["fen"].as_str().unwrap().to_string();
    assert_eq!(
        analyse(&mut visitor, 8, "ataxx", &fen).await["type"],
        "analysis_started"
    );
    lines_until(&mut visitor, GameKind::Ataxx, &fen, 2).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_node_caps_its_searches_and_a_closed_socket_frees_its_place() {
    let dir = tempfile::tempdir().unwrap();
    let server = Served::fresh(&dir, &["--analysis-workers", "0", "--live-analyses", "1"]);
    server.text().signup(&[ALICE, BOB]);
    let alice = login(&server, ALICE.0, ALICE.1);
    let bob = login(&server, BOB.0, BOB.1);
    let start = GameKind::Ataxx.start(&Default::default()).unwrap().fen();
    let mut alices = socket(&server.ws(&format!("/api/ws?token={alice}"))).await;
    assert_eq!(
        analyse(&mut alices, 1, "ataxx", &start).await["type"],
        "analysis_started"
    );
    lines_until(&mut alices, GameKind::Ataxx, &start, 2).await;

    // One search on this node, alice's: bob is refused at once, in words.
    let mut bobs = socket(&server.ws(&format!("/api/ws?token={bob}"))).await;
    let refused = analyse(&mut bobs, 1, "ataxx", &start).await;
    assert_eq!(refused["code"], "busy", "{refused}");
    assert!(
        refused["message"]
            .as_str()
            .unwrap()
            .contains("live analyses"),
        "{refused}"
    );
    // Alice asking about another position replaces her own search: no refusal.
    let hexxagon = GameKind::Hexxagon.start(&Default::default()).unwrap().fen();
    assert_eq!(
        analyse(&mut alices, 2, "hexxagon", &hexxagon).await["type"],
        "analysis_started"
    );

    // Alice's page goes: her search ends and its place is bob's. Her search would run 30 s;
    // its place comes free when its thread ends, which a stopped search does in well under one.
    drop(alices);
    let closed = Instant::now();
    let mut id = 2;
    loop {
        let answer = analyse(&mut bobs, id, "ataxx", &start).await;
        if answer["type"] == "analysis_started" {
            break;
        }
        assert_eq!(answer["code"], "busy", "{answer}");
        assert!(
            closed.elapsed() < Duration::from_secs(3),
            "alice's search still runs"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
        id += 1;
    }
    lines_until(&mut bobs, GameKind::Ataxx, &start, 2).await;
}
