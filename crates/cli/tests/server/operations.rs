//! What an operator leans on (issue #35), through a real `ataxx serve` process: `/healthz` and
//! `/readyz`, the Prometheus metrics on their own address moving by exactly what a scripted game
//! does, and JSON log lines that carry each request's id. (Readiness flipping with the database
//! is in cluster.rs, which owns a PostgreSQL to stop.)

use std::process::Command;
use std::time::Duration;

use serde_json::Value;

use crate::common::ataxx_command;
use crate::common::served::Served;
use crate::common::text_setup::{ALICE, BOB};

/// The body of `GET url`, with the answer's status and `X-Request-Id`.
fn get(url: &str) -> (u16, Option<String>, String) {
    let agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .new_agent();
    let mut answer = agent.get(url).call().unwrap();
    let id = answer
        .headers()
        .get("x-request-id")
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    let status = answer.status().as_u16();
    (status, id, answer.body_mut().read_to_string().unwrap())
}

/// The value of the sample `name` (with its labels, as the text format writes them); 0 when
/// absent (a labelled counter appears once it is first counted).
fn sample(text: &str, name: &str) -> f64 {
    text.lines()
        .filter(|line| !line.starts_with('#'))
        .find_map(|line| {
            let (key, value) = line.rsplit_once(' ')?;
            (key == name).then(|| value.parse().unwrap())
        })
        .unwrap_or(0.0)
}

#[test]
fn metrics_move_by_exactly_what_a_scripted_game_does_and_logs_carry_request_ids() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("log.jsonl");
    let db = dir.path().join("ataxx.db");
    let mut command = ataxx_command();
    command.stderr(std::fs::File::create(&log).unwrap());
    let extra = [
        "--log",
        "info",
        "--log-format",
        "json",
        "--metrics",
        "127.0.0.1:0",
        // No worker here: a requested analysis stays in its queue for the gauge to count.
        "--analysis-workers",
        "0",
    ];
    let server = Served::launch(command, &db, "127.0.0.1:0", &extra);
    let metrics_addr = server.metrics.clone().unwrap();
    let scrape = || {
        let (status, _, body) = get(&format!("http://{metrics_addr}/metrics"));
        assert_eq!(status, 200);
        body
    };
    // Not on the public door.
    assert_eq!(get(&server.url("/metrics")).0, 404);
    assert_eq!(get(&server.url("/healthz")).0, 200);
    let (status, _, body) = get(&server.url("/readyz"));
    assert_eq!((status, body.contains("ready")), (200, true), "{body}");
    assert!(body.contains(r#""leader":"this node""#), "{body}");

    let before = scrape();
    let mut door = server.text();
    door.signup(&[ALICE, BOB]);
    door.start("ataxx challenge alice bob", 101, &[ALICE, BOB]);
    let players = [ALICE, BOB];
    let moves = 6;
    for ply in 0..moves {
        let game = door.board(101);
        let mv = game["legal_moves"][0].as_str().unwrap().to_string();
        let (user, password) = players[ply % 2];
        door.ok(&format!(
            "ataxx move 101 {user} {password} {mv}#{}",
            ply + 1
        ));
    }
    let during = scrape();
    assert_eq!(sample(&during, "ataxx_active_games"), 1.0);
    // One node on SQLite: it leads, and so some node does.
    assert_eq!(sample(&during, "ataxx_leader{node=\"this\"}"), 1.0);
    assert_eq!(sample(&during, "ataxx_leader{node=\"any\"}"), 1.0);
    assert!(sample(&during, "ataxx_connections{door=\"text\"}") >= 1.0);
    let reply = door.send("ataxx resign 101 alice wrong-password");
    assert!(reply.starts_with("error"), "{reply}");
    door.ok("ataxx resign 101 alice secret-1");
    let after = scrape();
    let moved = |name: &str| sample(&after, name) - sample(&before, name);
    assert_eq!(moved("ataxx_moves_total{kind=\"ataxx\"}"), moves as f64);
    assert_eq!(
        moved("ataxx_move_seconds_count{kind=\"ataxx\"}"),
        moves as f64
    );
    assert_eq!(moved("ataxx_games_started_total{kind=\"ataxx\"}"), 1.0);
    assert_eq!(moved("ataxx_games_finished_total{kind=\"ataxx\"}"), 1.0);
    assert_eq!(moved("ataxx_failed_logins_total"), 1.0);
    assert_eq!(sample(&after, "ataxx_active_games"), 0.0);
    assert!(moved("ataxx_db_commit_seconds_count{database=\"sqlite\"}") >= moves as f64);

    // The analysis queue: empty, then one job once the finished game's analysis is asked for.
    let analysis_queue = "ataxx_queue_length{queue=\"analysis\"}";
    assert_eq!(sample(&after, analysis_queue), 0.0);
    door.ok("ataxx analysis 101 alice secret-1");
    assert_eq!(sample(&scrape(), analysis_queue), 1.0);

    // A failed login by HTTP: its log line carries the id the answer named.
    let agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .new_agent();
    let answer = agent
        .post(&server.url("/api/login"))
        .header("Content-Type", "application/json")
        .send(r#"{"userid": "bob", "password": "wrong"}"#)
        .unwrap();
    assert_eq!(answer.status().as_u16(), 401);
    let id = answer.headers()["x-request-id"]
        .to_str()
        .unwrap()
        .to_string();
    std::thread::sleep(Duration::from_millis(300));
    let lines: Vec<Value> = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|_| panic!("not JSON: {line}")))
        .collect();
    let failed = lines
        .iter()
        .find(|line| {
            line["fields"]["message"] == "authentication failed" && line["span"]["door"] == "http"
        })
        .expect("the failed login is logged");
    assert_eq!(failed["span"]["id"], id.as_str(), "{failed}");
    assert!(!std::fs::read_to_string(&log)
        .unwrap()
        .contains("wrong-password"));
}

/// Runs `ataxx ARGS`; (success, stdout and stderr).
fn ataxx(args: &[&str]) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_ataxx"))
        .args(args)
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    (out.status.success(), text)
}

#[test]
fn a_backup_taken_under_load_restores_with_every_answered_move() {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    use std::time::Instant;

    let dir = tempfile::tempdir().unwrap();
    let live = dir.path().join("live.db");
    let live = live.to_str().unwrap();
    let server = Served::on_database(live, &["--no-rate-limits"]);
    // Three players' doors, each with six boards to play one after the other: a game of
    // first legal moves can end within a quarter of a second, so one board each would be over
    // before the backup begins.
    let boards: Vec<i64> = (101..119).collect();
    let mut door = server.text();
    door.signup(&[ALICE, BOB]);
    for &board in &boards {
        door.start("ataxx challenge alice bob", board, &[ALICE, BOB]);
    }
    // Each door's players move as fast as the server answers; each answered move's board, ply
    // and the moment its answer came are recorded.
    let stop = Arc::new(AtomicBool::new(false));
    let players: Vec<_> = boards
        .chunks(6)
        .map(|mine| {
            let mine = mine.to_vec();
            let mut door = server.text();
            let stop = stop.clone();
            std::thread::spawn(move || {
                let mut answered = vec![];
                for board in mine {
                    while !stop.load(Ordering::Relaxed) {
                        let game = door.board(board);
                        if game["status"] != "active" {
                            break;
                        }
                        let ply = game["ply"].as_i64().unwrap();
                        let mv = game["legal_moves"][0].as_str().unwrap().to_string();
                        let (user, password) = match game["to_move"] == "alice" {
                            true => ALICE,
                            false => BOB,
                        };
                        let line = format!("ataxx move {board} {user} {password} {mv}#{}", ply + 1);
                        if !door.send(&line).starts_with("error") {
                            answered.push((board, ply + 1, Instant::now()));
                        }
                    }
                }
                answered
            })
        })
        .collect();
    std::thread::sleep(Duration::from_millis(150));
    let backup_began = Instant::now();
    let backup = dir.path().join("backup.db");
    let (ok, said) = ataxx(&["backup", "--db", live, "--output", backup.to_str().unwrap()]);
    assert!(ok, "{said}");
    std::thread::sleep(Duration::from_millis(300));
    stop.store(true, Ordering::Relaxed);
    let answered: Vec<(i64, i64, Instant)> = players
        .into_iter()
        .flat_map(|p| p.join().unwrap())
        .collect();
    let during = answered
        .iter()
        .filter(|(_, _, at)| *at > backup_began)
        .count();
    assert!(during > 0, "moves went on while the backup ran");
    // Not over the running server's database (issue #50: it was accepted and broke the server).
    let (ok, said) = ataxx(&["restore", "--input", backup.to_str().unwrap(), "--db", live]);
    assert!(!ok, "{said}");
    assert!(said.contains("open in a running server"), "{said}");
    assert_eq!(
        server.text().board(101)["board"],
        101,
        "the server still serves"
    );

    let restored = dir.path().join("restored.db");
    let restored = restored.to_str().unwrap();
    let (ok, said) = ataxx(&[
        "restore",
        "--input",
        backup.to_str().unwrap(),
        "--db",
        restored,
    ]);
    assert!(ok, "{said}");
    let copy = Served::on_database(restored, &[]);
    let mut copy_door = copy.text();
    let mut checked = 0;
    for board in &boards {
        let before = answered
            .iter()
            .filter(|(b, _, at)| b == board && *at < backup_began)
            .map(|(_, ply, _)| *ply)
            .max();
        // A board whose first move came after the backup began has nothing to keep.
        let Some(before) = before else { continue };
        let kept = copy_door.board(*board)["ply"].as_i64().unwrap();
        assert!(
            kept >= before,
            "board {board}: {before} moves answered before the backup, {kept} restored"
        );
        checked += 1;
    }
    assert!(checked > 0, "no board had moves before the backup");

    // A PostgreSQL URL is refused with the way to back it up; a file that is no backup too.
    let (ok, said) = ataxx(&[
        "backup",
        "--db",
        "postgres://ataxx@127.0.0.1:1/ataxx",
        "--output",
        "x.db",
    ]);
    assert!(!ok && said.contains("pg_dump"), "{said}");
    let junk = dir.path().join("junk.db");
    std::fs::write(&junk, b"not a database").unwrap();
    let (ok, said) = ataxx(&["restore", "--check", "--input", junk.to_str().unwrap()]);
    assert!(!ok && said.contains("not a usable backup"), "{said}");
}
