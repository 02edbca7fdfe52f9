//! Two `ataxx serve` nodes on one PostgreSQL database, driven through real sockets: players on
//! different nodes, concurrent commands on one board, concurrent challenges, a leader killed
//! with SIGKILL, rate limits and the lobby across nodes, a node whose event listener drops, a
//! load test that kills a node, a PostgreSQL restart that leaves the listeners' connections
//! silent, sessions ended on one node closing sockets on the other (by a password reset too),
//! a Swiss whose leader is killed mid-round, and a leader killed after a PostgreSQL restart. Needs `ATAXX_TEST_POSTGRES` (scripts/test.sh starts a cluster
//! and sets it); without it each test prints a notice and returns.

use std::collections::BTreeSet;
use std::process::Command;

use ataxx::Position;
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::Message;

use crate::common::served::{
    api, close_code, login, next_where_within, socket, wait_for, Served, Socket,
};
use crate::common::text_setup::{ALICE, BOB, CAROL};
use crate::common::{database, served};

/// The database URL for this test, or None (and a notice) without PostgreSQL.
fn cluster_database(dir: &std::path::Path, test: &str) -> Option<String> {
    match database::postgres_server() {
        Some(server) => Some(database::postgres_database(&server, &dir.join(test))),
        None => {
            eprintln!(
                "NOTICE: {test} skipped: ATAXX_TEST_POSTGRES is not set (scripts/test.sh sets it)"
            );
            None
        }
    }
}

fn node(db: &str) -> Served {
    Served::on_database(db, &[])
}

/// Runs SQL on the PostgreSQL server of `db` (connected to its `postgres` database, so that
/// `db` itself can be closed to new connections), through `psql`.
fn psql(db: &str, sql: &str) -> String {
    let (server, _) = db.rsplit_once('/').expect("a database URL");
    psql_at(&format!("{server}/postgres"), sql)
}

/// Runs SQL on the database at `url`, through `psql`.
fn psql_at(url: &str, sql: &str) -> String {
    let out = Command::new("psql")
        .args([url, "-XAtq", "-c", sql])
        .output()
        .expect("psql runs (scripts/postgres.sh installs PostgreSQL)");
    assert!(
        out.status.success(),
        "{sql}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn post(url: &str, token: Option<&str>, body: Value) -> (u16, Value) {
    api("POST", url, token, Some(body))
}

async fn next_where(ws: &mut Socket, want: impl Fn(&Value) -> bool) -> Value {
    next_where_within(ws, 15, want).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_on_two_nodes_follow_each_other_over_websocket_and_the_text_door() {
    let dir = tempfile::tempdir().unwrap();
    let Some(db) = cluster_database(dir.path(), "two_nodes_game") else {
        return;
    };
    let (a, b) = (node(&db), node(&db));
    let mut door_a = a.text();
    let mut door_b = b.text();
    door_a.signup(&[ALICE]);
    door_b.signup(&[BOB, CAROL]);
    let alice = login(&a, "alice", "secret-1");
    let bob = login(&b, "bob", "secret-2");
    // Carol subscribes on node A and watches on node B.
    let carol = login(&b, "carol", "secret-3");

    let mut alice_ws = socket(&a.ws(&format!("/api/ws?token={alice}"))).await;
    let mut bob_ws = socket(&b.ws(&format!("/api/ws?token={bob}"))).await;
    let mut carol_ws = socket(&b.ws(&format!("/api/ws?token={carol}"))).await;
    for ws in [&mut alice_ws, &mut bob_ws, &mut carol_ws] {
        next_where(ws, |v| v["type"] == "hello").await;
    }
    let (status, game) = post(
        &a.url("/api/games"),
        Some(&alice),
        json!({"opponent": "bob", "color": "x"}),
    );
    assert_eq!(status, 201, "{game}");
    let board = game["board"].as_i64().unwrap();
    let challenge = next_where(&mut bob_ws, |v| v["type"] == "challenge").await;
    assert_eq!(challenge["board"], board);
    door_a.ok(&format!("ataxx subscribe {board} carol secret-3"));

    // Bob accepts by text on node B; Alice hears it on node A.
    door_b.ok(&format!("ataxx accept {board} bob secret-2"));
    let started = next_where(&mut alice_ws, |v| v["type"] == "started").await;
    let mut pos: Position = started["game"]["fen"].as_str().unwrap().parse().unwrap();
    let mut versions = vec![];
    for ply in 1..=8i64 {
        let mv = pos.legal_moves()[0];
        let waiter = if ply % 2 == 1 {
            // Alice moves over her WebSocket on A.
            alice_ws
                .send(Message::Text(
                    json!({"type": "move", "board": board, "move": mv.to_string(), "guard": ply})
                        .to_string()
                        .into(),
                ))
                .await
                .unwrap();
            &mut bob_ws
        } else {
            // Bob moves by text on B.
            door_b.ok(&format!("ataxx move {board} bob secret-2 {mv}#{ply}"));
            &mut alice_ws
        };
        let event = next_where(waiter, |v| v["type"] == "moves" && v["ply"] == ply).await;
        assert_eq!(event["moves"][0]["move"], mv.to_string());
        pos.play(mv).unwrap();
        assert_eq!(event["game"]["fen"], pos.to_string());
        versions.push(event["version"].as_i64().unwrap());
    }
    // Versions rise one by one on the other node too, and the follower saw every ply in order.
    assert!(versions.windows(2).all(|w| w[1] > w[0]), "{versions:?}");
    for ply in 1..=8i64 {
        let event = next_where(&mut carol_ws, |v| v["type"] == "moves").await;
        assert_eq!(event["ply"], ply);
    }
    // A client that reconnects to the other node since ply 4 gets a snapshot of everything.
    let since = versions[3];
    let mut watcher = socket(&b.ws(&format!("/api/games/{board}/ws?since={since}"))).await;
    let snapshot = next_where(&mut watcher, |_| true).await;
    assert_eq!(snapshot["type"], "snapshot");
    assert_eq!(snapshot["ply"], 8);
    assert_eq!(snapshot["game"]["fen"], pos.to_string());

    // A password changed on one node is the only one the other accepts.
    door_a.ok("change password alice secret-1 secret-9");
    let refused = door_b.send(&format!("ataxx resign {board} alice secret-1"));
    assert!(refused.starts_with("error"), "{refused}");
    door_b.ok(&format!("ataxx resign {board} alice secret-9"));
}

#[test]
fn fifty_concurrent_commands_on_one_board_over_two_nodes_play_exactly_once() {
    let dir = tempfile::tempdir().unwrap();
    let Some(db) = cluster_database(dir.path(), "fifty_commands") else {
        return;
    };
    let nodes = [node(&db), node(&db)];
    let mut door = nodes[0].text();
    door.signup(&[ALICE, BOB]);
    door.start("ataxx challenge alice bob", 101, &[ALICE, BOB]);

    // 50 commands, each a legal move for the player to move as its sender last saw the board,
    // without a move number: every one races the others, half through each node.
    let accepted: Vec<String> = std::thread::scope(|scope| {
        let senders: Vec<_> = (0..10)
            .map(|i| {
                let node = &nodes[i % 2];
                scope.spawn(move || {
                    let mut door = node.text();
                    let mut played = vec![];
                    for _ in 0..5 {
                        let game = door.board(101);
                        let Some(to_move) = game["to_move"].as_str().map(str::to_string) else {
                            break;
                        };
                        let password = if to_move == "alice" {
                            "secret-1"
                        } else {
                            "secret-2"
                        };
                        let pos: Position = game["fen"].as_str().unwrap().parse().unwrap();
                        let moves = pos.legal_moves();
                        let mv = moves[i % moves.len()].to_string();
                        let reply = door.send(&format!("ataxx move 101 {to_move} {password} {mv}"));
                        if !reply.starts_with("error") {
                            played.push(mv);
                        }
                    }
                    played
                })
            })
            .collect();
        senders
            .into_iter()
            .flat_map(|s| s.join().unwrap())
            .collect()
    });
    assert!(!accepted.is_empty());

    // The record holds exactly the accepted moves (and forced passes), and replaying it gives
    // the position the server stores.
    let reply = door.send("ataxx show 101 --json");
    let game = &serde_json::from_str::<Value>(&reply).unwrap()["data"][0];
    let fen = game["fen"].as_str().unwrap();
    let (_, view) = api("GET", &nodes[1].url("/api/games/101"), None, None);
    let moves: Vec<&Value> = view["moves"].as_array().unwrap().iter().collect();
    let played: Vec<String> = moves
        .iter()
        .filter(|m| m["auto"] == false)
        .map(|m| m["move"].as_str().unwrap().to_string())
        .collect();
    let mut sorted_played = played.clone();
    let mut sorted_accepted = accepted.clone();
    sorted_played.sort();
    sorted_accepted.sort();
    assert_eq!(
        sorted_played, sorted_accepted,
        "each accepted move exactly once"
    );
    let mut pos: Position = game["start_fen"].as_str().unwrap().parse().unwrap();
    for m in &moves {
        pos.play(m["move"].as_str().unwrap().parse().unwrap())
            .unwrap();
    }
    assert_eq!(pos.to_string(), fen);
    assert_eq!(game["ply"].as_u64(), Some(moves.len() as u64));
}

#[test]
fn board_numbers_stay_unique_under_concurrent_challenges_on_two_nodes() {
    let dir = tempfile::tempdir().unwrap();
    let Some(db) = cluster_database(dir.path(), "unique_boards") else {
        return;
    };
    // Sixteen signups from one address: past the signup rate limit.
    let nodes = [
        Served::on_database(&db, &["--no-rate-limits"]),
        Served::on_database(&db, &["--no-rate-limits"]),
    ];
    let mut door = nodes[0].text();
    // A pair of players for each challenger: at most 20 challenges may wait for one player.
    for i in 0..8 {
        door.ok(&format!("signup x{i} secret-x{i}"));
        door.ok(&format!("signup o{i} secret-o{i}"));
    }
    let boards: Vec<i64> = std::thread::scope(|scope| {
        let challengers: Vec<_> = (0..8)
            .map(|i| {
                let node = &nodes[i % 2];
                scope.spawn(move || {
                    let mut door = node.text();
                    (0..5)
                        .map(|_| {
                            let reply = door.send(&format!("ataxx challenge x{i} o{i} --json"));
                            let value: Value =
                                serde_json::from_str(&reply).unwrap_or_else(|_| panic!("{reply}"));
                            value["data"]["board"]
                                .as_i64()
                                .unwrap_or_else(|| panic!("no board number: {value}"))
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        challengers
            .into_iter()
            .flat_map(|c| c.join().unwrap())
            .collect()
    });
    let mut unique = boards.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(unique.len(), 40, "{boards:?}");
    assert_eq!(unique, (101..141).collect::<Vec<_>>());
}

#[test]
fn seek_ids_stay_unique_under_concurrent_seeks_on_two_nodes() {
    let dir = tempfile::tempdir().unwrap();
    let Some(db) = cluster_database(dir.path(), "unique_seeks") else {
        return;
    };
    let nodes = [node(&db), node(&db)];
    let tokens: Vec<String> = (0..8)
        .map(|i| {
            let (name, password) = (format!("seeker{i}"), format!("secret-{i}"));
            nodes[0].text().ok(&format!("signup {name} {password}"));
            login(&nodes[i % 2], &name, &password)
        })
        .collect();
    let ids: Vec<i64> = std::thread::scope(|scope| {
        let seekers: Vec<_> = tokens
            .iter()
            .enumerate()
            .map(|(i, token)| {
                let node = &nodes[i % 2];
                scope.spawn(move || {
                    (0..3)
                        .map(|_| {
                            let body = json!({"game": "ataxx", "rated": false});
                            let (status, seek) = post(&node.url("/api/seeks"), Some(token), body);
                            assert_eq!(status, 201, "{seek}");
                            seek["id"].as_i64().unwrap()
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        seekers
            .into_iter()
            .flat_map(|s| s.join().unwrap())
            .collect()
    });
    let mut unique = ids.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(unique.len(), 24, "{ids:?}");
}

#[test]
fn bots_still_move_after_the_leader_is_killed_with_sigkill() {
    let dir = tempfile::tempdir().unwrap();
    let Some(db) = cluster_database(dir.path(), "leader_killed") else {
        return;
    };
    // The first node wins the election (the second starts once the first serves).
    let mut leader = node(&db);
    let survivor = node(&db);
    let mut door = survivor.text();
    door.signup(&[ALICE]);
    door.start("ataxx challenge alice bot-very-easy", 101, &[ALICE]);
    let mut ply = 0;
    for round in 0..4 {
        if round == 2 {
            // SIGKILL: no goodbye to the database; its lock goes with its connection.
            leader.kill();
        }
        let game = wait_for(&mut door, 101, |g| {
            g["to_move"] == "alice" && g["ply"].as_i64() == Some(ply)
        });
        let pos: Position = game["fen"].as_str().unwrap().parse().unwrap();
        door.ok(&format!(
            "ataxx move 101 alice secret-1 {}#{}",
            pos.legal_moves()[0],
            ply + 1
        ));
        // The bot answers, from whichever node leads.
        wait_for(&mut door, 101, |g| g["ply"].as_i64() == Some(ply + 2));
        ply += 2;
    }
}

/// Who leads, as `/readyz` on `server` names it ("this node", "another node", "none"); None
/// while the node is not ready.
fn leader_seen_by(server: &Served) -> Option<String> {
    let (status, body) = api("GET", &server.url("/readyz"), None, None);
    (status == 200).then(|| body["leader"].as_str().unwrap_or_default().to_string())
}

/// Polls until exactly one of `nodes` says it leads and every other names another node (at
/// most `secs` seconds); the leader's index.
fn the_one_leader(nodes: &[&Served], secs: u64) -> usize {
    let until = std::time::Instant::now() + std::time::Duration::from_secs(secs);
    loop {
        let seen: Vec<Option<String>> = nodes.iter().map(|n| leader_seen_by(n)).collect();
        let leaders: Vec<usize> = (0..nodes.len())
            .filter(|&i| seen[i].as_deref() == Some("this node"))
            .collect();
        let others_agree = (0..nodes.len())
            .all(|i| leaders.contains(&i) || seen[i].as_deref() == Some("another node"));
        if leaders.len() == 1 && others_agree {
            return leaders[0];
        }
        assert!(
            std::time::Instant::now() < until,
            "no single leader within {secs} s: {seen:?}"
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
}

#[test]
fn after_a_postgres_restart_a_killed_leader_is_replaced_within_seconds() {
    let test = "after_a_postgres_restart_a_killed_leader_is_replaced_within_seconds";
    let Some(postgres) = OwnPostgres::start(test) else {
        return;
    };
    let db = postgres.database("leader_after_restart");
    // The first node wins the election (the second starts once the first serves).
    let mut nodes = [node(&db), node(&db)];
    assert_eq!(the_one_leader(&[&nodes[0], &nodes[1]], 10), 0);
    // Every connection ends; both nodes live through it, and one leads again.
    postgres.restart();
    let leader = the_one_leader(&[&nodes[0], &nodes[1]], 30);
    // SIGKILL: the lock goes with the leader's connection, and the follower, which lived through
    // the restart too, takes over.
    nodes[leader].kill();
    let survivor = &nodes[1 - leader];
    let killed = std::time::Instant::now();
    assert_eq!(the_one_leader(&[survivor], 10), 0);
    eprintln!("a new leader {:?} after the kill", killed.elapsed());
    // And it runs the singletons: a computer player answers.
    let mut door = survivor.text();
    door.signup(&[ALICE]);
    door.start("ataxx challenge alice bot-very-easy", 101, &[ALICE]);
    let game = wait_for(&mut door, 101, |g| g["to_move"] == "alice");
    let pos: Position = game["fen"].as_str().unwrap().parse().unwrap();
    let ply = game["ply"].as_i64().unwrap();
    door.ok(&format!(
        "ataxx move 101 alice secret-1 {}#{}",
        pos.legal_moves()[0],
        ply + 1
    ));
    wait_for(&mut door, 101, |g| g["ply"].as_i64() == Some(ply + 2));
}

/// The tournament `id` as `server` shows it, once `done` holds (at most 30 seconds).
fn tournament_when(server: &Served, id: i64, done: impl Fn(&Value) -> bool) -> Value {
    served::poll(server, &format!("/api/tournaments/{id}"), 30, done)
}

#[test]
fn a_swiss_whose_leader_is_killed_mid_round_loses_no_result_and_pairs_each_round_once() {
    let dir = tempfile::tempdir().unwrap();
    let Some(db) = cluster_database(dir.path(), "tournament_leader_killed") else {
        return;
    };
    // The first node wins the election (the second starts once the first serves); both direct
    // tournaments every 100 ms while they lead.
    let mut leader = Served::on_database(&db, &["--sweep-ms", "100"]);
    let survivor = Served::on_database(&db, &["--sweep-ms", "100"]);
    let mut door = survivor.text();
    let names = ["anna", "boris", "clara", "dmitri"];
    for name in names {
        door.ok(&format!("signup {name} secret-{name}"));
    }
    let created = door.json("tournament create swiss Killed anna secret-anna rounds=2 rated=no");
    assert_eq!(created["ok"], true, "{created}");
    let id = created["data"]["id"].as_i64().unwrap();
    for name in names {
        door.ok(&format!("tournament join {id} {name} secret-{name}"));
    }
    door.ok(&format!("tournament start {id} anna secret-anna"));
    // Whoever loses resigns on the survivor; the result must reach its pairing whichever node
    // leads.
    let resign = |door: &mut served::TextDoor, pairing: &Value| -> (String, String) {
        let (board, o) = (
            pairing["game"].as_i64().unwrap(),
            pairing["o"].as_str().unwrap(),
        );
        door.ok(&format!("ataxx move {board} {o} secret-{o} resign"));
        (pairing["x"].as_str().unwrap().to_string(), o.to_string())
    };
    let shown = tournament_when(&survivor, id, |t| {
        t["rounds"].as_array().map(Vec::len) == Some(1)
    });
    let first_round = shown["rounds"][0]["pairings"].as_array().unwrap().clone();
    assert_eq!(first_round.len(), 2, "{shown}");
    let mut winners = vec![resign(&mut door, &first_round[0]).0];
    tournament_when(&survivor, id, |t| {
        t["rounds"][0]["pairings"][0]["result"] == "1-0"
    });
    // Mid-round: one result in, one game in play. SIGKILL: no goodbye to the database; the
    // leader lock goes with its connection and the survivor takes over.
    leader.kill();
    winners.push(resign(&mut door, &first_round[1]).0);
    let shown = tournament_when(&survivor, id, |t| {
        t["rounds"].as_array().map(Vec::len) == Some(2)
    });
    let rounds = shown["rounds"].as_array().unwrap();
    let results: Vec<&Value> = rounds[0]["pairings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| &p["result"])
        .collect();
    assert_eq!(results, ["1-0", "1-0"], "{shown}");
    // Round two paired once: two boards, everyone on one, nobody meeting their round-one
    // opponent again, on boards no other pairing has.
    let second_round = rounds[1]["pairings"].as_array().unwrap().clone();
    assert_eq!(second_round.len(), 2, "{shown}");
    let pair_of = |p: &Value| {
        let mut pair = [
            p["x"].as_str().unwrap().to_string(),
            p["o"].as_str().unwrap().to_string(),
        ];
        pair.sort();
        pair
    };
    let met: BTreeSet<[String; 2]> = first_round.iter().map(pair_of).collect();
    let seated: BTreeSet<String> = second_round.iter().flat_map(pair_of).collect();
    assert_eq!(seated.len(), 4, "{shown}");
    assert!(
        second_round.iter().all(|p| !met.contains(&pair_of(p))),
        "{shown}"
    );
    let boards: BTreeSet<i64> = first_round
        .iter()
        .chain(&second_round)
        .map(|p| p["game"].as_i64().unwrap())
        .collect();
    assert_eq!(boards.len(), 4, "{shown}");
    for pairing in &second_round {
        winners.push(resign(&mut door, pairing).0);
    }
    let finished = tournament_when(&survivor, id, |t| t["status"] == "finished");
    assert_eq!(finished["round"], 2, "{finished}");
    assert_eq!(
        finished["rounds"].as_array().unwrap().len(),
        2,
        "{finished}"
    );
    // The standings are the four results, each counted once: a point a win.
    for line in finished["standings"].as_array().unwrap() {
        let name = line["name"].as_str().unwrap();
        let wins = winners.iter().filter(|w| *w == name).count();
        assert_eq!(line["points"].as_f64().unwrap(), wins as f64, "{finished}");
        assert_eq!(line["games"], 2, "{finished}");
    }
}

#[test]
fn failed_logins_and_signups_on_one_node_count_on_the_other() {
    let dir = tempfile::tempdir().unwrap();
    let Some(db) = cluster_database(dir.path(), "rate_limits") else {
        return;
    };
    let (a, b) = (node(&db), node(&db));
    let mut door_a = a.text();
    let mut door_b = b.text();
    // Ten signups from one address a minute, wherever they land.
    for i in 0..10 {
        let door = if i % 2 == 0 { &mut door_a } else { &mut door_b };
        door.ok(&format!("signup user{i} secret-{i}"));
    }
    let refused = door_b.send("signup user10 secret10");
    assert!(refused.contains("too many attempts"), "{refused}");

    // Ten wrong passwords for user0 on node A lock this address out of user0 on node B too,
    // even with the right password; another account is not held back.
    for _ in 0..10 {
        let (status, _) = post(
            &a.url("/api/login"),
            None,
            json!({"userid": "user0", "password": "wrong"}),
        );
        assert_eq!(status, 401);
    }
    let (status, body) = post(
        &b.url("/api/login"),
        None,
        json!({"userid": "user0", "password": "secret-0"}),
    );
    assert_eq!(status, 429, "{body}");
    assert_eq!(body["error"]["code"], "rate_limited", "{body}");
    login(&b, "user1", "secret-1");
}

/// Issue #51: who is online is the same list on every node, and a user whose page stopped
/// beating leaves it on every node after the window (90 s).
#[test]
fn presence_agrees_on_two_nodes() {
    let dir = tempfile::tempdir().unwrap();
    let Some(db) = cluster_database(dir.path(), "presence") else {
        return;
    };
    let (a, b) = (
        Served::on_database(&db, &["--test-clock"]),
        Served::on_database(&db, &["--test-clock"]),
    );
    let (mut door_a, mut door_b) = (a.text(), b.text());
    door_a.ok("signup ann secret-1");
    door_b.ok("signup ben secret-2");
    let ann = login(&a, "ann", "secret-1");
    let ben = login(&b, "ben", "secret-2");
    let beat = |node: &Served, session: Option<&str>| {
        let (status, body) = post(&node.url("/api/presence"), session, json!({}));
        assert_eq!(status, 200, "{body}");
        body["online"].clone()
    };
    assert_eq!(beat(&a, Some(&ann)), json!(["ann"]));
    assert_eq!(beat(&b, Some(&ben)), json!(["ann", "ben"]));
    assert_eq!(
        beat(&a, None),
        json!(["ann", "ben"]),
        "a visitor sees the list"
    );
    // A minute on, ann beats again; ben's page has stopped. At 91 s ben is gone on both nodes.
    door_a.ok("clock advance 60");
    door_b.ok("clock advance 60");
    assert_eq!(beat(&b, Some(&ann)), json!(["ann", "ben"]));
    door_a.ok("clock advance 31");
    door_b.ok("clock advance 31");
    assert_eq!(beat(&a, None), json!(["ann"]));
    assert_eq!(beat(&b, Some(&ann)), json!(["ann"]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seek_posted_on_one_node_reaches_the_lobby_on_the_other_and_back() {
    let dir = tempfile::tempdir().unwrap();
    let Some(db) = cluster_database(dir.path(), "lobby") else {
        return;
    };
    let (a, b) = (node(&db), node(&db));
    a.text().signup(&[ALICE]);
    b.text().signup(&[BOB]);
    let alice = login(&a, "alice", "secret-1");
    let bob = login(&b, "bob", "secret-2");
    let mut lobby_a = socket(&a.ws("/api/lobby/ws")).await;
    let mut lobby_b = socket(&b.ws("/api/lobby/ws")).await;
    for lobby in [&mut lobby_a, &mut lobby_b] {
        next_where(lobby, |v| v["type"] == "lobby").await;
    }

    // A correspondence seek (no clock: it does not depend on an open page).
    let (status, seek) = post(
        &a.url("/api/seeks"),
        Some(&alice),
        json!({"game": "ataxx", "rated": false}),
    );
    assert_eq!(status, 201, "{seek}");
    let id = seek["id"].as_i64().unwrap();
    let added = next_where(&mut lobby_b, |v| v["type"] == "seek_added").await;
    assert_eq!(added["seek"]["id"], id);
    assert_eq!(added["seek"]["owner"], "alice");

    // Bob takes it on node B: node A's lobby hears the game start and the seek go.
    let (status, game) = post(
        &b.url(&format!("/api/seeks/{id}/accept")),
        Some(&bob),
        json!({}),
    );
    assert!(status == 200 || status == 201, "{status} {game}");
    let started = next_where(&mut lobby_a, |v| v["type"] == "game_started").await;
    assert_eq!(started["game"]["board"], game["board"]);
    let removed = next_where(&mut lobby_a, |v| v["type"] == "seek_removed").await;
    assert_eq!(removed["id"], id);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_whose_event_listener_dropped_catches_up_on_moves_made_meanwhile() {
    let dir = tempfile::tempdir().unwrap();
    let Some(db) = cluster_database(dir.path(), "listener_gap") else {
        return;
    };
    let (a, b) = (node(&db), node(&db));
    let mut door_b = b.text();
    door_b.signup(&[ALICE, BOB]);
    door_b.start("ataxx challenge alice bob", 101, &[ALICE, BOB]);
    let alice = login(&a, "alice", "secret-1");
    let mut alice_ws = socket(&a.ws(&format!("/api/ws?token={alice}"))).await;
    next_where(&mut alice_ws, |v| v["type"] == "hello").await;
    // Carol follows the board from node A until she unsubscribes on B while A is not listening.
    door_b.signup(&[CAROL]);
    door_b.ok("ataxx subscribe 101 carol secret-3");
    let carol = login(&a, "carol", "secret-3");
    let mut carol_ws = socket(&a.ws(&format!("/api/ws?token={carol}"))).await;
    next_where(&mut carol_ws, |v| v["type"] == "hello").await;

    let mut pos = Position::startpos();
    let mut play = |door: &mut served::TextDoor, ply: i64| play_first_move(door, &mut pos, ply);
    play(&mut door_b, 1);
    next_where(&mut alice_ws, |v| v["type"] == "moves" && v["ply"] == 1).await;
    next_where(&mut carol_ws, |v| v["type"] == "moves" && v["ply"] == 1).await;

    // Node A's listener is cut off, and cannot reconnect while the database refuses new
    // connections; node B (its pool already connected) records three moves meanwhile.
    let name = db.rsplit('/').next().unwrap();
    psql(
        &db,
        &format!("ALTER DATABASE \"{name}\" WITH ALLOW_CONNECTIONS false"),
    );
    let listener = ataxx_server::listener_name(a.child.id());
    let terminated = psql(
        &db,
        &format!(
            "SELECT count(*) FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
             WHERE application_name = '{listener}') AS t"
        ),
    );
    assert_eq!(terminated.trim(), "1", "node A's listener is found by name");
    let mut fen = String::new();
    for ply in 2..=4 {
        fen = play(&mut door_b, ply);
    }
    let reply = stored(&mut door_b, "ataxx unsubscribe 101 carol secret-3");
    assert!(
        reply.contains("carol no longer follows board 101"),
        "{reply}"
    );
    psql(
        &db,
        &format!("ALTER DATABASE \"{name}\" WITH ALLOW_CONNECTIONS true"),
    );

    // Once listening again, node A pushes what it missed: Alice's socket reaches ply 4.
    let caught_up = next_where_within(&mut alice_ws, 60, |v| v["ply"] == 4).await;
    assert_eq!(caught_up["game"]["fen"], fen);
    let mut door_a = a.text();
    assert_eq!(door_a.board(101)["ply"], 4);
    // Node A also dropped the subscription it was not told of: the next move reaches Alice
    // but not Carol, and A's board no longer lists her.
    play(&mut door_b, 5);
    next_where(&mut alice_ws, |v| v["type"] == "moves" && v["ply"] == 5).await;
    let after_gap = tokio::time::timeout(
        std::time::Duration::from_secs(2),
        next_where(&mut carol_ws, |v| v["ply"] == 5),
    )
    .await;
    assert!(after_gap.is_err(), "carol still follows: {after_gap:?}");
    assert!(!door_a.ok("ataxx show 101").contains("Subscribers"));
}

#[test]
fn a_load_run_that_kills_a_node_loses_no_acknowledged_move() {
    let dir = tempfile::tempdir().unwrap();
    let Some(db) = cluster_database(dir.path(), "kill_node") else {
        return;
    };
    let out = Command::new(env!("CARGO_BIN_EXE_ataxx"))
        .args(["loadtest", "--db", &db, "--nodes", "2", "--games", "20"])
        .args(["--players", "20", "--rate", "40", "--seconds", "6"])
        .args(["--kill-node-after", "2"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let figure = |name: &str| -> u64 {
        let line = stdout
            .lines()
            .find(|l| l.starts_with(name))
            .unwrap_or_else(|| panic!("no {name:?} line in {stdout}"));
        line[name.len()..]
            .split_whitespace()
            .next()
            .unwrap()
            .parse()
            .unwrap()
    };
    assert_eq!(figure("lost"), 0, "{stdout}");
    assert!(figure("acknowledged") > 0, "{stdout}");
    assert!(figure("reconnected") > 0, "{stdout}");
    assert!(stdout.contains("killed node 2"), "{stdout}");
}

/// A PostgreSQL cluster of a test's own (scripts/postgres.sh), which the test may restart
/// without disturbing the other tests' databases; stopped and removed when dropped.
struct OwnPostgres {
    /// The server URL (`postgres://user:password@host:port`).
    server: String,
    /// The cluster's directory.
    dir: String,
}

impl OwnPostgres {
    /// Starts one, or None (and a notice) where the tests have no PostgreSQL.
    fn start(test: &str) -> Option<OwnPostgres> {
        if database::postgres_server().is_none() {
            eprintln!("NOTICE: {test} skipped: ATAXX_TEST_POSTGRES is not set");
            return None;
        }
        let out = postgres_script(&["start"]);
        let export = |name: &str| {
            out.lines()
                .find_map(|l| l.strip_prefix(&format!("export {name}='")))
                .and_then(|l| l.strip_suffix('\''))
                .unwrap_or_else(|| panic!("no {name} in {out}"))
                .to_string()
        };
        Some(OwnPostgres {
            server: export("ATAXX_TEST_POSTGRES"),
            dir: export("ATAXX_TEST_PGDATA"),
        })
    }

    fn database(&self, name: &str) -> String {
        format!("{}/{name}", self.server)
    }

    /// A fast shutdown (every connection ended) and a start.
    fn restart(&self) {
        postgres_script(&["restart", &self.dir]);
    }

    /// A fast shutdown: the database is away until [`OwnPostgres::resume`].
    fn halt(&self) {
        postgres_script(&["halt", &self.dir]);
    }

    fn resume(&self) {
        postgres_script(&["resume", &self.dir]);
    }
}

impl Drop for OwnPostgres {
    fn drop(&mut self) {
        postgres_script(&["stop", &self.dir]);
    }
}

/// Runs scripts/postgres.sh; its standard output.
fn postgres_script(args: &[&str]) -> String {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scripts/postgres.sh");
    let out = Command::new(script).args(args).output().unwrap();
    assert!(
        out.status.success(),
        "postgres.sh {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Sends `command` until it is stored. While the database refuses new connections, a node
/// answers "error: internal database error" when its pool has no idle connection at hand; such a
/// command changes nothing (and the #ply guard refuses a repeated move), so it is sent again. A
/// command that was stored but whose board could not be read back is answered "Done." with the
/// same words further down, and must not be sent again.
fn stored(door: &mut served::TextDoor, command: &str) -> String {
    let mut reply = door.send(command);
    for _ in 0..50 {
        if !(reply.starts_with("error") && reply.contains("internal database error")) {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
        reply = door.send(command);
    }
    assert!(!reply.starts_with("error"), "{command}: {reply}");
    reply
}

/// Plays the first legal move of `pos` on board 101 (alice's at odd plies, bob's at even ones)
/// through `door` until it is stored; returns the position after it.
fn play_first_move(door: &mut served::TextDoor, pos: &mut Position, ply: i64) -> String {
    let mv = pos.legal_moves()[0];
    let player = if ply % 2 == 1 {
        "alice secret-1"
    } else {
        "bob secret-2"
    };
    stored(door, &format!("ataxx move 101 {player} {mv}#{ply}"));
    pos.play(mv).unwrap();
    pos.to_string()
}

/// A TCP relay between the nodes and PostgreSQL that can cut every connection the way a
/// database host that restarts (a container, a virtual machine) does: nothing more arrives, and
/// nothing says so, until the client sends something and finds the connection gone. A client
/// that only listens never finds out by itself.
struct Relay {
    /// Where the nodes connect: the relay's address.
    addr: String,
    cut: tokio::sync::watch::Sender<u64>,
    /// While set, a new connection is closed as soon as it is accepted.
    refusing: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

impl Relay {
    async fn start(upstream: &str) -> Relay {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap().to_string();
        let (cut, cuts) = tokio::sync::watch::channel(0u64);
        let upstream = upstream.to_string();
        let refusing = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let refuse = refusing.clone();
        tokio::spawn(async move {
            while let Ok((client, _)) = listener.accept().await {
                if !refuse.load(std::sync::atomic::Ordering::SeqCst) {
                    tokio::spawn(relay(client, upstream.clone(), cuts.clone()));
                }
            }
        });
        Relay {
            addr,
            cut,
            refusing,
        }
    }

    /// Closes new connections at once (`true`), as a database host that is going down does,
    /// or relays them again (`false`).
    fn refuse(&self, refusing: bool) {
        self.refusing
            .store(refusing, std::sync::atomic::Ordering::SeqCst);
    }

    /// Cuts every connection open now; later ones are relayed as before.
    fn cut(&self) {
        self.cut.send_modify(|cuts| *cuts += 1);
    }
}

async fn relay(
    client: tokio::net::TcpStream,
    upstream: String,
    mut cuts: tokio::sync::watch::Receiver<u64>,
) {
    use tokio::io::AsyncReadExt;
    let Ok(server) = tokio::net::TcpStream::connect(&upstream).await else {
        return;
    };
    cuts.borrow_and_update();
    let (mut client_read, mut client_write) = client.into_split();
    let (mut server_read, mut server_write) = server.into_split();
    let cut = tokio::select! {
        _ = tokio::io::copy(&mut client_read, &mut server_write) => false,
        _ = tokio::io::copy(&mut server_read, &mut client_write) => false,
        _ = cuts.changed() => true,
    };
    if cut {
        // PostgreSQL's side ends; the client's stays open and silent until it sends.
        drop((server_read, server_write));
        let _ = client_read.read(&mut [0u8; 64]).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_a_silent_postgres_restart_every_node_s_sockets_resync() {
    let Some(postgres) = OwnPostgres::start("postgres_restart") else {
        return;
    };
    let upstream = postgres.server.rsplit('@').next().unwrap();
    let relay = Relay::start(upstream).await;
    let db = postgres
        .database("ataxx_restart")
        .replace(upstream, &relay.addr);
    let (a, b) = (node(&db), node(&db));
    let mut door_b = b.text();
    door_b.signup(&[ALICE, BOB]);
    door_b.start("ataxx challenge alice bob", 101, &[ALICE, BOB]);
    // A player's stream and a watcher's board stream on each node, and node A's lobby.
    let alice = login(&a, "alice", "secret-1");
    let bob = login(&b, "bob", "secret-2");
    let mut streams = vec![
        socket(&a.ws(&format!("/api/ws?token={alice}"))).await,
        socket(&b.ws(&format!("/api/ws?token={bob}"))).await,
        socket(&a.ws("/api/games/101/ws")).await,
        socket(&b.ws("/api/games/101/ws")).await,
    ];
    let mut lobby = socket(&a.ws("/api/lobby/ws")).await;
    let mut pos = Position::startpos();
    let mut play = |door: &mut served::TextDoor, ply: i64| play_first_move(door, &mut pos, ply);
    play(&mut door_b, 1);
    for ws in &mut streams {
        next_where(ws, |v| v["ply"] == 1).await;
    }

    // PostgreSQL restarts behind connections that go silent: the nodes' pools find out when
    // they next send a query, the listeners only by asking.
    relay.cut();
    postgres.restart();
    let mut fen = String::new();
    for ply in 2..=4 {
        fen = play(&mut door_b, ply);
    }
    // Every stream reaches ply 4 (by the events caught up, or a snapshot), and the lobby is
    // told to reload.
    for ws in &mut streams {
        let reached = next_where_within(ws, 20, |v| v["ply"] == 4).await;
        assert_eq!(reached["game"]["fen"], fen);
    }
    next_where(&mut lobby, |v| v["type"] == "resync").await;
    // And events flow again as they happen.
    play(&mut door_b, 5);
    for ws in &mut streams {
        next_where(ws, |v| v["type"] == "moves" && v["ply"] == 5).await;
    }
}

/// Whether a socket still answers a ping (the session it was opened with still open).
async fn answers_ping(ws: &mut Socket) -> bool {
    served::send(ws, json!({"type": "ping", "id": 1})).await;
    loop {
        match tokio::time::timeout(std::time::Duration::from_secs(10), ws.next()).await {
            Ok(Some(Ok(Message::Text(text)))) if text.contains("pong") => return true,
            Ok(Some(Ok(Message::Text(_)))) => continue,
            _ => return false,
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_logout_password_change_or_signoff_on_one_node_closes_the_sockets_on_the_other() {
    let dir = tempfile::tempdir().unwrap();
    let Some(db) = cluster_database(dir.path(), "revocations") else {
        return;
    };
    let (a, b) = (node(&db), node(&db));
    let mut door_a = a.text();
    door_a.signup(&[ALICE, BOB, CAROL]);
    door_a.ok("ataxx challenge alice bob");
    // Every socket is on node B; every session ends on node A.
    let alice1 = login(&b, "alice", "secret-1");
    let alice2 = login(&b, "alice", "secret-1");
    let bob = login(&b, "bob", "secret-2");
    let carol = login(&b, "carol", "secret-3");
    let mut alice1_board = socket(&b.ws(&format!("/api/games/101/ws?token={alice1}"))).await;
    let mut alice1_user = socket(&b.ws(&format!("/api/ws?token={alice1}"))).await;
    let mut alice2_user = socket(&b.ws(&format!("/api/ws?token={alice2}"))).await;
    let mut bob_board = socket(&b.ws(&format!("/api/games/101/ws?token={bob}"))).await;
    let mut carol_user = socket(&b.ws(&format!("/api/ws?token={carol}"))).await;

    // A logout ends the sockets of that session, not another session's.
    let (status, _) = api("POST", &a.url("/api/logout"), Some(&alice1), None);
    assert_eq!(status, 200);
    assert_eq!(close_code(&mut alice1_board).await, Some(CloseCode::Policy));
    assert_eq!(close_code(&mut alice1_user).await, Some(CloseCode::Policy));
    assert!(
        answers_ping(&mut alice2_user).await,
        "alice's other session"
    );

    // A password change ends every session of its account.
    door_a.ok("change password bob secret-2 secret-9");
    assert_eq!(close_code(&mut bob_board).await, Some(CloseCode::Policy));

    // So does closing the account; another account's socket stays open.
    door_a.ok("signoff alice secret-1");
    assert_eq!(close_code(&mut alice2_user).await, Some(CloseCode::Policy));
    assert!(answers_ping(&mut carol_user).await, "carol's session");
}

/// Issue #49: a password reset made on node A ends the sessions of the account on node B, its
/// socket there closed and its token refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_password_reset_on_one_node_ends_the_sessions_on_the_other() {
    let dir = tempfile::tempdir().unwrap();
    let Some(db) = cluster_database(dir.path(), "password_reset") else {
        return;
    };
    // A mail door without a transport: the mails wait in the outbox, where the test reads them.
    let (a, b) = (
        Served::on_database(&db, &["--mail"]),
        Served::on_database(&db, &["--mail"]),
    );
    let mut door_a = a.text();
    door_a.ok("signup alice secret-1 alice@a.test");
    let confirm = psql_at(
        &db,
        "SELECT subject FROM mail_outbox WHERE kind = 'confirm'",
    );
    door_a.ok(confirm.trim());
    let session = login(&b, "alice", "secret-1");
    let mut alice_user = socket(&b.ws(&format!("/api/ws?token={session}"))).await;

    door_a.ok("reset alice");
    let mail = psql_at(&db, "SELECT body FROM mail_outbox WHERE kind = 'reset'");
    let token = mail
        .lines()
        .find_map(|line| line.trim().strip_prefix("reset "))
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("no reset command in {mail}"));
    door_a.ok(&format!("reset {token} secret-2"));
    assert_eq!(close_code(&mut alice_user).await, Some(CloseCode::Policy));
    let (status, _) = api("GET", &b.url("/api/me"), Some(&session), None);
    assert_eq!(
        status, 401,
        "node B still takes the session from before the reset"
    );
    login(&b, "alice", "secret-2");
}

/// A socket message that arrives while the database is away is answered with an error, and the
/// socket stays open: it used to be closed as "session ended" (the session could not be
/// checked), which signed pages out for a database restart and left the soak's streams behind.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_socket_message_while_the_database_is_away_is_refused_and_the_socket_stays_open() {
    let Some(postgres) = OwnPostgres::start("database_away") else {
        return;
    };
    let upstream = postgres.server.rsplit('@').next().unwrap();
    let relay = Relay::start(upstream).await;
    let db = postgres
        .database("ataxx_away")
        .replace(upstream, &relay.addr);
    let a = node(&db);
    a.text().ok("signup alice alice-password");
    let alice = login(&a, "alice", "alice-password");
    let mut ws = socket(&a.ws(&format!("/api/ws?token={alice}"))).await;
    assert!(answers_ping(&mut ws).await);

    // The database goes away: open connections are cut, new ones closed at once.
    relay.refuse(true);
    relay.cut();
    served::send(&mut ws, json!({"type": "ping", "id": 2})).await;
    let answer = loop {
        match tokio::time::timeout(std::time::Duration::from_secs(20), ws.next()).await {
            Ok(Some(Ok(Message::Text(text)))) => {
                let value: Value = serde_json::from_str(&text).unwrap();
                // A resync (the node's listener lost its connection too) may come first.
                if value["type"] == "error" || value["type"] == "pong" {
                    break value;
                }
            }
            other => panic!("the socket ended while the database was away: {other:?}"),
        }
    };
    assert_eq!(answer["type"], "error", "{answer}");
    assert_ne!(answer["code"], "auth", "{answer}");

    // Back: the same socket answers again.
    relay.refuse(false);
    assert!(answers_ping(&mut ws).await);
}

/// `GET path` on `server`: the status, or 0 when no answer came within 10 s.
fn status_of(server: &Served, path: &str) -> u16 {
    let agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(std::time::Duration::from_secs(10)))
        .build()
        .new_agent();
    agent
        .get(&server.url(path))
        .call()
        .map_or(0, |answer| answer.status().as_u16())
}

/// Polls `path` until it answers `want` (at most `secs` seconds); the last status.
fn status_becomes(server: &Served, path: &str, want: u16, secs: u64) -> u16 {
    let until = std::time::Instant::now() + std::time::Duration::from_secs(secs);
    loop {
        let status = status_of(server, path);
        if status == want || std::time::Instant::now() > until {
            return status;
        }
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
}

#[test]
fn readiness_follows_the_database_away_and_back_while_health_stays() {
    let test = "readiness_follows_the_database_away_and_back_while_health_stays";
    let Some(postgres) = OwnPostgres::start(test) else {
        return;
    };
    let server = Served::on_database(&postgres.database("ready"), &[]);
    assert_eq!(status_of(&server, "/healthz"), 200);
    assert_eq!(status_of(&server, "/readyz"), 200);
    postgres.halt();
    assert_eq!(status_becomes(&server, "/readyz", 503, 20), 503);
    assert_eq!(
        status_of(&server, "/healthz"),
        200,
        "the process still answers"
    );
    postgres.resume();
    assert_eq!(status_becomes(&server, "/readyz", 200, 30), 200);
}
