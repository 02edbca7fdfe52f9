//! Issue #29: what one move costs the database, counted, so that the server's throughput cannot
//! slide back unseen. Between builds 119af2a and 23dca5b a move went from about 7 SQL statements
//! to 15 and a node lost a third of its moves per second. On SQLite each statement is a round
//! trip to a connection's worker thread, and the writer's statements are one at a time.
//!
//! The server runs with `--log debug`, where sqlx logs each request it sends (target
//! `sqlx::query`): one statement, or on SQLite several sent together in one request, which costs
//! one round trip. The test counts those lines while moves are played by each door, and compares
//! the counts with the budgets below. A test that needs more requests than the budget fails with
//! the list of them, so a change that adds one has to say why in the budget.

use std::io::{BufRead, BufReader};
use std::process::Stdio;
use std::sync::{Arc, Mutex};

use serde_json::json;

use crate::common::ataxx_command;
use crate::common::persons_move::persons_move;
use crate::common::served::{api, signup_and_login, Served};
use crate::common::table::start_game;

/// `POST /api/games/{board}/move`, 3 requests:
/// - the session of the bearer token (1);
/// - BEGIN IMMEDIATE with the board, its seats and its count of queued moves, in one request (1);
///   no queued move is looked for when the count is 0;
/// - the move inserted, the board row and the mover's seat (its clock) updated, and the COMMIT,
///   in one request (1).
const HTTP_MOVE: usize = 3;

/// A move by the text door, 4 requests:
/// - the password's stored hash (1), so that a password changed on another node is noticed;
/// - the transaction above without the session (2);
/// - the reply's board: the board with its seats, its moves, its chat and its subscribers, in
///   one request (1).
const TEXT_MOVE: usize = 4;

/// A server whose debug log is collected.
struct Logged {
    server: Served,
    lines: Arc<Mutex<Vec<String>>>,
}

impl Logged {
    fn start(db: &std::path::Path) -> Logged {
        let mut command = ataxx_command();
        command.stderr(Stdio::piped());
        // No deadline sweep in the counted windows: the sweeper reads the open boards every
        // second.
        let extra = [
            "--log",
            "debug",
            "--no-rate-limits",
            "--sweep-ms",
            "3600000",
        ];
        let mut server = Served::launch(command, db, "127.0.0.1:0", &extra);
        let lines = Arc::new(Mutex::new(vec![]));
        let stderr = BufReader::new(server.child.stderr.take().unwrap());
        let collected = lines.clone();
        std::thread::spawn(move || {
            for line in stderr.lines().map_while(Result::ok) {
                if line.contains("sqlx::query") {
                    collected.lock().unwrap().push(line);
                }
            }
        });
        Logged { server, lines }
    }

    /// The requests logged since `mark` (a count of lines), after giving the log a moment;
    /// the background checkpoint (a PRAGMA once a second) is not a move's.
    fn requests_since(&self, mark: usize) -> Vec<String> {
        std::thread::sleep(std::time::Duration::from_millis(300));
        self.lines.lock().unwrap()[mark..]
            .iter()
            .map(|line| {
                let summary = line.split("summary=\"").nth(1).unwrap_or(line);
                summary.split('"').next().unwrap_or(summary).to_string()
            })
            .filter(|statement| !statement.starts_with("PRAGMA"))
            .collect()
    }

    fn mark(&self) -> usize {
        std::thread::sleep(std::time::Duration::from_millis(300));
        self.lines.lock().unwrap().len()
    }
}

/// Asserts that `moves` moves ran at most `budget` requests each.
fn assert_within(door: &str, requests: &[String], moves: usize, budget: usize) {
    eprintln!(
        "{door}: {} requests for {moves} moves ({:.2} each)",
        requests.len(),
        requests.len() as f64 / moves as f64
    );
    assert!(
        requests.len() <= budget * moves,
        "{door}: {} requests for {moves} moves, over the budget of {budget} a move:\n{}",
        requests.len(),
        requests.join("\n")
    );
}

#[test]
fn a_move_costs_the_database_no_more_requests_than_its_budget() {
    let dir = tempfile::tempdir().unwrap();
    let logged = Logged::start(&dir.path().join("ataxx.db"));
    let server = &logged.server;
    let tokens = [
        signup_and_login(server, "alice", "secret-1"),
        signup_and_login(server, "bob", "secret-2"),
    ];
    let (board, mut game) = start_game(
        server,
        &tokens[0],
        &[("bob", &tokens[1])],
        json!({"color": "x"}),
    );

    // Twenty moves over HTTP.
    let mark = logged.mark();
    for _ in 0..20 {
        let token = &tokens[usize::from(game["to_move"] == "bob")];
        let body = json!({"move": persons_move(&game), "guard": game["ply"].as_i64().unwrap() + 1});
        let (status, reply) = api(
            "POST",
            &server.url(&format!("/api/games/{board}/move")),
            Some(token),
            Some(body),
        );
        assert_eq!(status, 200, "{reply}");
        game = reply;
    }
    assert_within("HTTP", &logged.requests_since(mark), 20, HTTP_MOVE);

    // Twenty moves by the text door, each answered with the board.
    let mut door = server.text();
    let mark = logged.mark();
    for _ in 0..20 {
        let (player, password) = match game["to_move"].as_str() {
            Some("alice") => ("alice", "secret-1"),
            _ => ("bob", "secret-2"),
        };
        let ply = game["ply"].as_i64().unwrap() + 1;
        let mv = persons_move(&game);
        let reply = door.json(&format!(
            "ataxx move {board} {player} {password} {mv}#{ply}"
        ));
        game = reply["data"].clone();
        assert_eq!(game["ply"], ply, "{reply}");
    }
    assert_within("text door", &logged.requests_since(mark), 20, TEXT_MOVE);
}
