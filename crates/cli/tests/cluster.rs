//! Two `ataxx serve` nodes on one PostgreSQL database, driven through real sockets: players on
//! different nodes, concurrent commands on one board, concurrent challenges, and a leader killed
//! with SIGKILL. Needs `ATAXX_TEST_POSTGRES` (scripts/test.sh starts a cluster and sets it);
//! without it each test prints a notice and returns.

use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use ataxx::Position;
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

mod database;

/// The database URL for this test, or None (and a notice) without PostgreSQL.
fn cluster_database(dir: &Path, test: &str) -> Option<String> {
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

/// One running node, killed when dropped.
struct Node {
    child: Child,
    http: String,
    text: String,
}

impl Node {
    fn start(db: &str) -> Node {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ataxx"))
            .args(["serve", "--http", "127.0.0.1:0", "--text", "127.0.0.1:0"])
            .args(["--log", "warn", "--db", db])
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("ataxx serve starts");
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let mut addr = |door: &str| {
            let line = lines
                .next()
                .expect("the node prints its addresses")
                .unwrap();
            line.strip_prefix(door)
                .unwrap_or_else(|| panic!("expected {door:?}, got {line:?}"))
                .to_string()
        };
        let http = addr("http ");
        let text = addr("text ");
        Node { child, http, text }
    }

    fn door(&self) -> Door {
        let stream = TcpStream::connect(&self.text).expect("text port accepts");
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .unwrap();
        let reader = BufReader::new(stream.try_clone().unwrap());
        let mut door = Door { stream, reader };
        door.reply();
        door
    }

    fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.http)
    }

    fn ws(&self, path: &str) -> String {
        format!("ws://{}{path}", self.http)
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A text-door connection.
struct Door {
    stream: TcpStream,
    reader: BufReader<TcpStream>,
}

impl Door {
    fn reply(&mut self) -> String {
        let mut lines = vec![];
        loop {
            let mut line = String::new();
            assert!(self.reader.read_line(&mut line).unwrap() > 0, "closed");
            if line.trim_end() == "." {
                return ataxx_server::text::unframe(lines.iter().map(String::as_str).chain(["."]))
                    .unwrap();
            }
            lines.push(line);
        }
    }

    fn send(&mut self, line: &str) -> String {
        self.stream
            .write_all(format!("{line}\r\n").as_bytes())
            .unwrap();
        self.reply()
    }

    fn ok(&mut self, line: &str) -> String {
        let reply = self.send(line);
        assert!(!reply.starts_with("error"), "{line}: {reply}");
        reply
    }

    fn board(&mut self, board: i64) -> Value {
        let reply = self.send(&format!("ataxx show {board} --json"));
        serde_json::from_str::<Value>(&reply).unwrap()["data"][0].clone()
    }

    /// Polls a board until `done` holds.
    fn wait_for(&mut self, board: i64, done: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let game = self.board(board);
            if done(&game) {
                return game;
            }
            assert!(Instant::now() < deadline, "board never got there: {game}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

fn post(url: &str, token: Option<&str>, body: Value) -> (u16, Value) {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into();
    let mut request = agent.post(url).header("Content-Type", "application/json");
    if let Some(token) = token {
        request = request.header("Authorization", format!("Bearer {token}"));
    }
    let mut response = request.send(body.to_string()).unwrap();
    let status = response.status().as_u16();
    let text = response.body_mut().read_to_string().unwrap();
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

fn login(node: &Node, userid: &str, password: &str) -> String {
    let (status, body) = post(
        &node.url("/api/login"),
        None,
        json!({"userid": userid, "password": password}),
    );
    assert_eq!(status, 200, "{body}");
    body["token"].as_str().unwrap().to_string()
}

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn socket(url: &str) -> Socket {
    tokio_tungstenite::connect_async(url)
        .await
        .expect("websocket opens")
        .0
}

async fn next_where(ws: &mut Socket, want: impl Fn(&Value) -> bool) -> Value {
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let message = tokio::time::timeout(left, ws.next())
            .await
            .expect("an awaited message arrives")
            .expect("socket open")
            .unwrap();
        if let Message::Text(text) = message {
            let value: Value = serde_json::from_str(&text).unwrap();
            if want(&value) {
                return value;
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_on_two_nodes_follow_each_other_over_websocket_and_the_text_door() {
    let dir = tempfile::tempdir().unwrap();
    let Some(db) = cluster_database(dir.path(), "two_nodes_game") else {
        return;
    };
    let (a, b) = (Node::start(&db), Node::start(&db));
    let mut door_a = a.door();
    let mut door_b = b.door();
    door_a.ok("signup alice secret1");
    door_b.ok("signup bob secret2");
    door_b.ok("signup carol secret3");
    let alice = login(&a, "alice", "secret1");
    let bob = login(&b, "bob", "secret2");
    // Carol subscribes on node A and watches on node B.
    let carol = login(&b, "carol", "secret3");

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
    door_a.ok(&format!("ataxx subscribe {board} carol secret3"));

    // Bob accepts by text on node B; Alice hears it on node A.
    door_b.ok(&format!("ataxx accept {board} bob secret2"));
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
            door_b.ok(&format!("ataxx move {board} bob secret2 {mv}#{ply}"));
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
    door_a.ok("change password alice secret1 secret9");
    let refused = door_b.send(&format!("ataxx resign {board} alice secret1"));
    assert!(refused.starts_with("error"), "{refused}");
    door_b.ok(&format!("ataxx resign {board} alice secret9"));
}

#[test]
fn fifty_concurrent_commands_on_one_board_over_two_nodes_play_exactly_once() {
    let dir = tempfile::tempdir().unwrap();
    let Some(db) = cluster_database(dir.path(), "fifty_commands") else {
        return;
    };
    let nodes = [Node::start(&db), Node::start(&db)];
    let mut door = nodes[0].door();
    door.ok("signup alice secret1");
    door.ok("signup bob secret2");
    door.ok("ataxx challenge alice bob");
    door.ok("ataxx accept 101 alice secret1");
    door.ok("ataxx accept 101 bob secret2");

    // 50 commands, each a legal move for the player to move as its sender last saw the board,
    // without a move number: every one races the others, half through each node.
    let accepted: Vec<String> = std::thread::scope(|scope| {
        let senders: Vec<_> = (0..10)
            .map(|i| {
                let node = &nodes[i % 2];
                scope.spawn(move || {
                    let mut door = node.door();
                    let mut played = vec![];
                    for _ in 0..5 {
                        let game = door.board(101);
                        let Some(to_move) = game["to_move"].as_str().map(str::to_string) else {
                            break;
                        };
                        let password = if to_move == "alice" {
                            "secret1"
                        } else {
                            "secret2"
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
    let record = nodes[1].url("/api/games/101");
    let agent: ureq::Agent = ureq::Agent::config_builder().build().into();
    let view: Value = serde_json::from_str(
        &agent
            .get(&record)
            .call()
            .unwrap()
            .body_mut()
            .read_to_string()
            .unwrap(),
    )
    .unwrap();
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
    let nodes = [Node::start(&db), Node::start(&db)];
    let mut door = nodes[0].door();
    door.ok("signup alice secret1");
    door.ok("signup bob secret2");
    let boards: Vec<i64> = std::thread::scope(|scope| {
        let challengers: Vec<_> = (0..8)
            .map(|i| {
                let node = &nodes[i % 2];
                scope.spawn(move || {
                    let mut door = node.door();
                    (0..5)
                        .map(|_| {
                            let reply = door.send("ataxx challenge alice bob --json");
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
fn bots_still_move_after_the_leader_is_killed_with_sigkill() {
    let dir = tempfile::tempdir().unwrap();
    let Some(db) = cluster_database(dir.path(), "leader_killed") else {
        return;
    };
    // The first node wins the election (the second starts once the first serves).
    let mut leader = Node::start(&db);
    let survivor = Node::start(&db);
    let mut door = survivor.door();
    door.ok("signup alice secret1");
    door.ok("ataxx challenge alice bot-very-easy");
    door.ok("ataxx accept 101 alice secret1");
    let mut ply = 0;
    for round in 0..4 {
        if round == 2 {
            // SIGKILL: no goodbye to the database; its lock goes with its connection.
            leader.child.kill().unwrap();
            leader.child.wait().unwrap();
        }
        let game = door.wait_for(101, |g| {
            g["to_move"] == "alice" && g["ply"].as_i64() == Some(ply)
        });
        let pos: Position = game["fen"].as_str().unwrap().parse().unwrap();
        door.ok(&format!(
            "ataxx move 101 alice secret1 {}#{}",
            pos.legal_moves()[0],
            ply + 1
        ));
        // The bot answers, from whichever node leads.
        door.wait_for(101, |g| g["ply"].as_i64() == Some(ply + 2));
        ply += 2;
    }
}
