//! Issue #33: the computer analysis of finished games, through real `ataxx serve` processes: a
//! scripted game where one side throws away a won position is flagged at that move, the job
//! survives a restart of its server without being finished twice, and two nodes on one
//! PostgreSQL database share the queue without doing a job twice.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use games::GameKind;
use serde_json::Value;

use crate::common::database;
use crate::common::served::{api, command, login, poll, socket, Served, Socket};
use crate::common::text_setup::{ALICE, BOB};

/// A square Ataxx game both sides played with the engine and its embedded net6 (20,000 nodes a
/// move, `go nodes`) until x, at ply 87, stood more than 8.64 pieces up (+10.00) and then played
/// its worst move (the move after which o's 20,000-node search scored highest, +27.49 for o); o
/// took the gift at ply 88. x resigns after it. (Made again for issue #48, when the analysis
/// moved to the net: the earlier game was the hand-written evaluation's, whose own moves the
/// net judges otherwise.)
const THROWN_AWAY: &str = "f2 f6 b6 e5 c6 d5 b6d6 e6 c5 f6d4 d6f6 d6 b6 d4b5 f5 b2 e5c4 b6b4 d5b6 \
    b4d5 e5 c4e3 d5c3 d5 d4 f2e4 f2 g6 f4 d6f7 e5e7 e5 c3b1 f3 e7g5 g4 e7 g3 d6 c4 b2d3 b5c3 e3c2 \
    d5b7 d5 b7d7 e4g2 c6b4 d4c6 e3 f1 b4b2 d5b3 a2 c6e4 e6d4 e6 e4c6 f4d5 d3f4 c4e4 d7b5 e3c4 \
    b6d7 b6 a2b4 c2a2 c3e2 e3 f1d3 f1 a3 b6a4 b6 d5c7 e3d5 e3 a2c3 a2 c2 d2 b7 a4a6 b3a5 c3a4 \
    d4b3 c3 d4";

/// The ply of x's blunder.
const BLUNDER_PLY: usize = 87;

/// Nodes per analysed position: small, so that an 88-ply game takes seconds.
const NODES: &str = "20000";

/// Plays the first `plies` moves of [`THROWN_AWAY`] on a new board between alice (x) and bob,
/// then alice resigns; returns the board.
fn play_thrown_away(server: &Served, plies: usize) -> i64 {
    let mut door = server.text();
    let board = command(server, "ataxx challenge alice bob")["data"]["board"]
        .as_i64()
        .expect("the challenge names its board");
    door.accept(board, &[ALICE, BOB]);
    for (index, mv) in THROWN_AWAY.split_whitespace().take(plies).enumerate() {
        let (user, password) = if index % 2 == 0 { ALICE } else { BOB };
        door.ok(&format!("ataxx move {board} {user} {password} {mv}"));
    }
    door.ok(&format!("ataxx resign {board} alice secret-1"));
    board
}

fn signed_up(server: &Served) {
    server.text().signup(&[ALICE, BOB]);
}

fn analysis_path(board: i64) -> String {
    format!("/api/games/{board}/analysis")
}

/// Polls the board's analysis until it is done.
fn done(server: &Served, board: i64, secs: u64) -> Value {
    poll(server, &analysis_path(board), secs, |body| {
        body["status"] == "done"
    })
}

#[test]
fn a_thrown_away_win_is_a_blunder_and_costs_its_player_accuracy() {
    let dir = tempfile::tempdir().unwrap();
    let server = Served::fresh(&dir, &["--analysis-nodes", NODES]);
    signed_up(&server);
    // Not while the game is in play (issue #32), for anyone.
    let open = command(&server, "ataxx challenge alice bob")["data"]["board"]
        .as_i64()
        .unwrap();
    server.text().accept(open, &[ALICE, BOB]);
    let bob = login(&server, "bob", "secret-2");
    let (status, body) = api("POST", &server.url(&analysis_path(open)), Some(&bob), None);
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (403, Some("in_play")),
        "{body}"
    );

    let board = play_thrown_away(&server, BLUNDER_PLY + 1);
    let (status, body) = api("GET", &server.url(&analysis_path(board)), None, None);
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (404, Some("no_analysis")),
        "{body}"
    );
    let (status, body) = api("POST", &server.url(&analysis_path(board)), None, None);
    assert_eq!(status, 401, "{body}");
    let (status, body) = api("POST", &server.url(&analysis_path(board)), Some(&bob), None);
    assert_eq!(status, 201, "{body}");
    let (status, body) = api("POST", &server.url(&analysis_path(board)), Some(&bob), None);
    assert_eq!(status, 200, "asked twice, made once: {body}");

    let report = done(&server, board, 120);
    let plies = report["plies"].as_array().unwrap();
    assert_eq!(plies.len(), BLUNDER_PLY + 1, "{report}");
    assert_eq!(report["progress"]["done"], report["progress"]["total"]);
    // Every best move is legal in its ply's position, and every ply is the move played.
    let mut position = GameKind::Ataxx.start(&Default::default()).unwrap();
    for (ply, mv) in plies.iter().zip(THROWN_AWAY.split_whitespace()) {
        let best = ply["best"].as_str().unwrap();
        assert!(position.legal_moves().contains(&best.to_string()), "{ply}");
        assert_eq!(ply["line"][0].as_str(), Some(best), "{ply}");
        assert_eq!(ply["move"].as_str(), Some(mv), "{ply}");
        position.play(mv).unwrap();
    }
    let blunder = &plies[BLUNDER_PLY - 1];
    assert_eq!(blunder["class"], "blunder", "{blunder}");
    assert_eq!(blunder["seat"], "x", "{blunder}");
    let x = &report["players"]["x"];
    assert!(x["blunders"].as_u64() >= Some(1), "{report}");
    // x's accuracy is lichess's formula on each of x's moves, averaged (computed here from the
    // reported losses); the blunder alone takes more than two points off it.
    let move_accuracy =
        |loss: f64| (103.1668 * (-0.04354 * loss * 50.0).exp() - 3.1669 + 1.0).clamp(0.0, 100.0);
    let x_moves: Vec<&Value> = plies.iter().filter(|p| p["seat"] == "x").collect();
    let mean = |moves: &[&Value]| {
        moves
            .iter()
            .map(|p| move_accuracy(p["loss"].as_f64().unwrap()))
            .sum::<f64>()
            / moves.len() as f64
    };
    let x_accuracy = x["accuracy"].as_f64().unwrap();
    // (The losses are reported to two decimals, so the mean is recomputed within half a point.)
    assert!(
        (x_accuracy - mean(&x_moves)).abs() < 0.5,
        "{x_accuracy} against {}",
        mean(&x_moves)
    );
    let without_blunder: Vec<&Value> = x_moves
        .iter()
        .copied()
        .filter(|p| p["ply"] != BLUNDER_PLY as i64)
        .collect();
    assert!(
        mean(&without_blunder) - x_accuracy > 2.0,
        "x {x_accuracy} against {} without the blunder",
        mean(&without_blunder)
    );
    // And it is the game's largest loss of winning chances, by far.
    let largest_other = plies
        .iter()
        .filter(|p| p["ply"] != BLUNDER_PLY as i64)
        .map(|p| p["loss"].as_f64().unwrap())
        .fold(0.0, f64::max);
    assert!(
        blunder["loss"].as_f64().unwrap() > largest_other + 0.5,
        "{blunder} against {largest_other}"
    );

    // The PGN carries it: the blunder's NAG and an evaluation after every move.
    let (_, pgn) = api(
        "GET",
        &server.url(&format!("/api/games/{board}/pgn")),
        None,
        None,
    );
    let pgn = pgn.as_str().unwrap().to_string();
    assert_eq!(pgn.matches("[%eval ").count(), BLUNDER_PLY + 1, "{pgn}");
    assert!(
        pgn.contains("f5d7 $4 {[%eval") || pgn.contains(" $4 {[%eval"),
        "{pgn}"
    );
    // The command language prints the summary and the flagged moves (text door, mail).
    let reply = server.text().ok(&format!("ataxx analysis {board}"));
    assert!(
        reply.contains("accuracy") && reply.contains("??"),
        "{reply}"
    );
    assert!(reply.contains(&format!("{BLUNDER_PLY:>3}. x ")), "{reply}");
}

/// Reads the analysis events of a board socket for `secs` seconds (or until `stop` holds for
/// one): the `done` counts of its `running` events and how many `done` events came.
async fn analysis_events(
    ws: &mut Socket,
    secs: u64,
    stop: impl Fn(&Value) -> bool,
) -> (Vec<i64>, usize) {
    use futures_util::StreamExt;
    let deadline = Instant::now() + Duration::from_secs(secs);
    let (mut running, mut finished) = (vec![], 0);
    while let Ok(Some(Ok(message))) = tokio::time::timeout(
        deadline.saturating_duration_since(Instant::now()),
        ws.next(),
    )
    .await
    {
        let Ok(event) = serde_json::from_str::<Value>(message.to_text().unwrap_or("")) else {
            continue;
        };
        if event["type"] != "analysis" {
            continue;
        }
        match event["status"].as_str() {
            Some("running") => running.push(event["done"].as_i64().unwrap()),
            Some("done") => finished += 1,
            _ => {}
        }
        if stop(&event) {
            break;
        }
    }
    (running, finished)
}

#[tokio::test(flavor = "multi_thread")]
async fn an_analysis_survives_a_restart_mid_job_and_is_finished_once() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("ataxx.db");
    let options = ["--analysis-nodes", NODES, "--analysis-lease-secs", "2"];
    let mut server = Served::start(&db, &options);
    signed_up(&server);
    let board = play_thrown_away(&server, BLUNDER_PLY + 1);
    let mut ws = socket(&server.ws(&format!("/api/games/{board}/ws"))).await;
    let token = login(&server, "alice", "secret-1");
    let (status, _) = api(
        "POST",
        &server.url(&analysis_path(board)),
        Some(&token),
        None,
    );
    assert_eq!(status, 201);
    let (before, _) = analysis_events(&mut ws, 60, |e| e["done"].as_i64() >= Some(10)).await;
    assert!(before.last() >= Some(&10), "{before:?}");
    server.kill();

    let server = Served::start(&db, &options);
    let mut ws = socket(&server.ws(&format!("/api/games/{board}/ws"))).await;
    let (after, finished) = analysis_events(&mut ws, 120, |e| e["status"] == "done").await;
    // Taken again once the dead node's lease passed, from where it stopped.
    let stored_before = *before.last().unwrap();
    assert!(
        after.first() > Some(&stored_before),
        "{after:?} after {before:?}"
    );
    assert!(after.windows(2).all(|w| w[1] == w[0] + 1), "{after:?}");
    // Watch a while longer: nobody finishes it again.
    let (again, finished_again) = analysis_events(&mut ws, 3, |_| false).await;
    assert_eq!((finished, finished_again, again.len()), (1, 0, 0));
    let report = done(&server, board, 5);
    assert_eq!(report["plies"].as_array().unwrap().len(), BLUNDER_PLY + 1);
    assert_eq!(report["plies"][BLUNDER_PLY - 1]["class"], "blunder");
}

#[tokio::test(flavor = "multi_thread")]
async fn two_nodes_share_the_queue_and_do_no_job_twice() {
    let Some(server) = database::postgres_server() else {
        eprintln!(
            "NOTICE: the two-node analysis test needs ATAXX_TEST_POSTGRES (scripts/postgres.sh)"
        );
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let url = database::postgres_database(&server, &dir.path().join("two-nodes"));
    let options = ["--analysis-nodes", "5000", "--analysis-lease-secs", "5"];
    let first = Served::on_database(&url, &options);
    let second = Served::on_database(&url, &options);
    signed_up(&first);
    let boards: Vec<i64> = [30, 41, 52, 63]
        .into_iter()
        .map(|plies| play_thrown_away(&first, plies))
        .collect();
    let mut sockets = HashMap::new();
    for &board in &boards {
        sockets.insert(
            board,
            socket(&first.ws(&format!("/api/games/{board}/ws"))).await,
        );
    }
    let token = login(&second, "bob", "secret-2");
    for (index, &board) in boards.iter().enumerate() {
        let node = if index % 2 == 0 { &first } else { &second };
        let (status, body) = api("POST", &node.url(&analysis_path(board)), Some(&token), None);
        assert_eq!(status, 201, "{body}");
    }
    for &board in &boards {
        let ws = sockets.get_mut(&board).unwrap();
        let (running, finished) = analysis_events(ws, 120, |e| e["status"] == "done").await;
        let (more, finished_again) = analysis_events(ws, 2, |_| false).await;
        let report = done(&second, board, 5);
        let total = report["progress"]["total"].as_i64().unwrap();
        // Every position stored once, in order, and the job finished once.
        assert_eq!(running, (1..=total).collect::<Vec<_>>(), "board {board}");
        assert_eq!(
            (finished, finished_again, more.len()),
            (1, 0, 0),
            "board {board}"
        );
    }
}
