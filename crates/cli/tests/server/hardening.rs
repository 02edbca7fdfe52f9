//! Regression tests of issue #15 (hardening), each through a real `ataxx serve` process and real
//! sockets: login throttling per (address, account), closed accounts, revoked WebSocket
//! sessions, JSON errors, the database password, `limit`, text-door limits and the smaller
//! replies.

use std::io::{Read, Write};
use std::process::Command;
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::Message;

use crate::common::served::{
    api, close_code, command, connect_from, http, login, signup_and_login, socket, Served, TextDoor,
};
use crate::common::table::Table;
use crate::common::text_setup::{ALICE, BOB, CAROL};

/// `POST /api/login` from the source address `from`, by hand over a bound socket.
fn login_from(server: &Served, from: &str, userid: &str, password: &str) -> (u16, Value) {
    let body = json!({"userid": userid, "password": password}).to_string();
    let mut stream = connect_from(&server.http, Some(from));
    write!(
        stream,
        "POST /api/login HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        server.http,
        body.len()
    )
    .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    let status = response[9..12].parse().unwrap();
    let body = response.split("\r\n\r\n").nth(1).unwrap_or("");
    (status, serde_json::from_str(body).unwrap_or(Value::Null))
}

// ---------------------------------------------------------------------------------------------
// 1. Failed logins

#[test]
fn a_strangers_failed_logins_never_lock_the_owner_out_from_another_address() {
    let dir = tempfile::tempdir().unwrap();
    let server = Served::fresh(&dir, &[]);
    server.text().ok("signup zed secret-1");

    // A stranger at 127.0.0.66 tries ten passwords by the text door, then ten by /api/login.
    let mut stranger = server.text_from("127.0.0.66");
    for _ in 0..10 {
        let reply = stranger.send("ataxx accept zed guess");
        assert!(reply.starts_with("error: authentication failed"), "{reply}");
    }
    let reply = stranger.send("ataxx accept zed secret-1");
    assert!(
        reply.starts_with("error: too many attempts"),
        "the stranger's address waits: {reply}"
    );
    for _ in 0..10 {
        let (status, _) = login_from(&server, "127.0.0.77", "zed", "guess");
        assert!(status == 401 || status == 429, "{status}");
    }
    let (status, body) = login_from(&server, "127.0.0.77", "zed", "secret-1");
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (429, Some("rate_limited"))
    );

    // zed, from home, is never held back by them: by the text door and by /api/login.
    let mut zed = server.text_from("127.0.0.5");
    zed.ok("ataxx accept zed secret-1");
    let (status, body) = login_from(&server, "127.0.0.5", "zed", "secret-1");
    assert_eq!(status, 200, "{body}");
    login(&server, "zed", "secret-1");
}

// ---------------------------------------------------------------------------------------------
// 2. Closing an account

#[test]
fn closing_an_account_resigns_cancels_withdraws_and_refuses_new_challenges() {
    // 101: alice (x) has moved; 102: accepted, no move yet; 103: a challenge bob made to alice.
    let (_server, mut door) =
        Table::by_text(&[], &[ALICE, BOB, CAROL], "ataxx challenge alice bob");
    door.ok("ataxx move 101 alice secret-1 b6#1");
    door.start("ataxx challenge carol alice", 102, &[ALICE, CAROL]);
    door.start("ataxx challenge bob alice", 103, &[BOB]);

    let reply = door.ok("signoff alice secret-1");
    assert!(reply.contains("resigned board(s) 101"), "{reply}");
    assert!(reply.contains("102, 103"), "{reply}");

    let game = door.board(101);
    assert_eq!(
        (
            game["status"].as_str(),
            game["result"].as_str(),
            game["termination"].as_str()
        ),
        (Some("finished"), Some("0-1"), Some("resignation"))
    );
    assert_eq!(game["winner"], "bob");
    assert_eq!(door.board(102)["status"], "withdrawn");
    assert_eq!(door.board(103)["status"], "withdrawn");

    let reply = door.send("ataxx challenge bob alice");
    assert!(
        reply.starts_with("error: invalid challenge: alice's account is closed"),
        "{reply}"
    );
    let reply = door.send("ataxx challenge alice carol");
    assert!(reply.contains("alice's account is closed"), "{reply}");
}

// ---------------------------------------------------------------------------------------------
// 3. WebSocket sessions end with their rights

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn websocket_sessions_end_with_logout_password_change_and_signoff() {
    let (server, mut door) = Table::by_text(&[], &[ALICE, BOB], "ataxx challenge alice bob");
    let ws = format!("ws://{}", server.http);

    // Logout: the socket opened with that token is closed (1008), another session stays.
    let alice1 = login(&server, "alice", "secret-1");
    let alice2 = login(&server, "alice", "secret-1");
    let mut one = socket(&format!("{ws}/api/games/101/ws?token={alice1}")).await;
    let mut two = socket(&format!("{ws}/api/ws?token={alice2}")).await;
    let (status, _) = api("POST", &server.url("/api/logout"), Some(&alice1), None);
    assert_eq!(status, 200);
    assert_eq!(close_code(&mut one).await, Some(CloseCode::Policy));
    two.send(Message::Text(
        json!({"type": "ping", "id": 1}).to_string().into(),
    ))
    .await
    .unwrap();
    loop {
        match two.next().await.unwrap().unwrap() {
            Message::Text(text) if text.contains("pong") => break,
            Message::Text(_) => continue,
            other => panic!("the other session was closed too: {other:?}"),
        }
    }

    // Password change: every socket of bob's closes, and none can move any more.
    let bob = login(&server, "bob", "secret-2");
    let mut bob_ws = socket(&format!("{ws}/api/games/101/ws?token={bob}")).await;
    door.ok("change password bob secret-2 secret-9");
    assert_eq!(close_code(&mut bob_ws).await, Some(CloseCode::Policy));

    // Signoff: alice's remaining socket closes.
    door.ok("signoff alice secret-1");
    assert_eq!(close_code(&mut two).await, Some(CloseCode::Policy));
    let game = door.board(101);
    assert_eq!(game["ply"], 0, "{game}");
}

// ---------------------------------------------------------------------------------------------
// 4. Every /api error is the documented JSON object

#[test]
fn every_api_error_is_the_documented_json_object() {
    let dir = tempfile::tempdir().unwrap();
    let server = Served::fresh(&dir, &[]);
    let expect_error = |(status, kind, body): (u16, String, Value), want: u16, code: &str| {
        assert_eq!(status, want, "{body}");
        assert!(kind.starts_with("application/json"), "{kind}: {body}");
        assert_eq!(body["error"]["code"], code, "{body}");
        assert!(
            !body["error"]["message"].as_str().unwrap().is_empty(),
            "{body}"
        );
    };
    let r = http("GET", &server.url("/api/games/abc"), None, None);
    assert!(
        r.2["error"]["message"]
            .as_str()
            .unwrap_or("")
            .contains("\"abc\" is not a number"),
        "{}",
        r.2
    );
    expect_error(r, 400, "bad_request");
    expect_error(
        http("GET", &server.url("/api/nosuch"), None, None),
        404,
        "not_found",
    );
    expect_error(
        http("GET", &server.url("/api/games/101/nosuch"), None, None),
        404,
        "not_found",
    );
    expect_error(
        http("DELETE", &server.url("/api/games"), None, None),
        405,
        "method_not_allowed",
    );
    expect_error(
        http(
            "POST",
            &server.url("/api/command"),
            None,
            Some(vec![b'x'; 100_000]),
        ),
        413,
        "too_long",
    );
    let r = http(
        "POST",
        &server.url("/api/command"),
        None,
        Some(b"help \xff\xfe".to_vec()),
    );
    assert!(
        r.2["error"]["message"]
            .as_str()
            .unwrap_or("")
            .contains("UTF-8"),
        "{}",
        r.2
    );
    expect_error(r, 400, "bad_request");
    expect_error(
        http(
            "POST",
            &server.url("/api/login"),
            None,
            Some(b"{\"userid\": \"\xff\"}".to_vec()),
        ),
        400,
        "bad_command",
    );
    expect_error(
        http("GET", &server.url("/api/ws"), None, None),
        400,
        "bad_request",
    );
    // Outside /api the pages keep their own answers.
    let (status, _, _) = http("GET", &server.url("/nosuch"), None, None);
    assert_eq!(status, 404);
}

// ---------------------------------------------------------------------------------------------
// 5. The database password

#[test]
fn the_database_password_never_appears_in_errors() {
    let out = Command::new(env!("CARGO_BIN_EXE_ataxx"))
        .args([
            "serve",
            "--http",
            "127.0.0.1:0",
            "--text",
            "127.0.0.1:0",
            "--db",
        ])
        .arg("postgres://ann:hunter2@127.0.0.1:1/ataxx")
        .output()
        .unwrap();
    assert!(!out.status.success());
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!all.contains("hunter2"), "{all}");
    assert!(all.contains("ann:***@127.0.0.1"), "{all}");
}

// ---------------------------------------------------------------------------------------------
// 6. limit

#[test]
fn challenges_made_by_others_do_not_count_against_the_limit() {
    let dir = tempfile::tempdir().unwrap();
    let server = Served::fresh(&dir, &[]);
    let mut door = server.text();
    door.signup(&[ALICE, BOB, ("mallory", "secret-3")]);
    door.ok("ataxx limit bob secret-2 1");
    // Mallory fills bob's inbox without any password...
    door.ok("ataxx challenge mallory bob");
    door.ok("ataxx challenge mallory bob");
    // ...and alice can still challenge bob.
    let reply = door.send("ataxx challenge alice bob");
    assert!(reply.contains("Ataxx Board 103"), "{reply}");
    // What bob takes on counts: one game, then the limit says no.
    door.ok("ataxx accept 103 bob secret-2");
    let reply = door.send("ataxx accept 101 bob secret-2");
    assert!(
        reply.starts_with("error: invalid challenge: bob has reached their limit of 1 games"),
        "{reply}"
    );
}

/// Issue #50, finding 9: what one account may set going is capped: challenges waiting for one
/// player's answer (each mails them), tournaments not finished, analyses waiting.
#[test]
fn challenges_tournaments_and_analyses_are_capped_per_account() {
    let dir = tempfile::tempdir().unwrap();
    let server = Served::fresh(&dir, &["--analysis-workers", "0"]);
    let mut door = server.text();
    door.signup(&[ALICE, BOB, ("mallory", "secret-3")]);
    // Twenty challenges may wait for a player's answer (a challenge made without a password
    // waits for both); the next is refused, and says why.
    for _ in 0..20 {
        door.ok("ataxx challenge mallory bob");
    }
    let reply = door.send("ataxx challenge mallory bob");
    assert!(
        reply.contains("mallory has 20 challenges waiting for an answer"),
        "{reply}"
    );
    // Bob declines one: one more may come to him, and then no more.
    door.ok("ataxx decline 101 bob secret-2");
    door.ok("ataxx challenge alice bob");
    let reply = door.send("ataxx challenge alice bob");
    assert!(
        reply.contains("bob has 20 challenges waiting for an answer"),
        "{reply}"
    );

    // Five tournaments not finished at once.
    for n in 0..5 {
        let created = door.json(&format!(
            "tournament create swiss Cup{n} alice secret-1 rounds=1"
        ));
        assert_eq!(created["ok"], true, "{created}");
    }
    let refused = door.json("tournament create swiss Cup5 alice secret-1 rounds=1");
    assert_eq!(refused["ok"], false, "{refused}");
    assert!(
        refused.to_string().contains("at most 5 at once"),
        "{refused}"
    );

    // Ten analyses waiting (no worker runs them here).
    let carol = signup_and_login(&server, "carol", "secret-3");
    let finished: Vec<i64> = (0..11)
        .map(|_| {
            let board = command(&server, "ataxx challenge carol alice")["data"]["board"]
                .as_i64()
                .expect("the challenge names its board");
            door.accept(board, &[CAROL, ALICE]);
            door.ok(&format!("ataxx resign {board} alice secret-1"));
            board
        })
        .collect();
    for board in &finished[..10] {
        let (status, body) = api(
            "POST",
            &server.url(&format!("/api/games/{board}/analysis")),
            Some(&carol),
            None,
        );
        assert_eq!(status, 201, "{body}");
    }
    let (status, body) = api(
        "POST",
        &server.url(&format!("/api/games/{}/analysis", finished[10])),
        Some(&carol),
        None,
    );
    assert_ne!(status, 201, "{body}");
    assert!(
        body.to_string()
            .contains("10 analyses asked for by carol are waiting already"),
        "{body}"
    );
}

/// `POST /api/command` as a page on `origin` would send it (a simple request: `text/plain`,
/// no cookie, no preflight); the status and the reply.
fn command_from_page(server: &Served, origin: Option<&str>, line: &str) -> (u16, String) {
    let mut stream = connect_from(&server.http, None);
    let origin = origin.map_or(String::new(), |o| format!("Origin: {o}\r\n"));
    write!(
        stream,
        "POST /api/command HTTP/1.1\r\nHost: {}\r\n{origin}Content-Type: text/plain\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{line}",
        server.http,
        line.len()
    )
    .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    let status = response[9..12].parse().unwrap();
    (
        status,
        response.split("\r\n\r\n").nth(1).unwrap_or("").to_string(),
    )
}

/// Issue #50, finding 11: another site's page cannot make its visitors' browsers run commands
/// (sign up, spend login attempts from their addresses); the site's own pages and clients that
/// send no `Origin` (scripts, curl) can.
#[test]
fn the_command_line_refuses_a_page_on_another_site() {
    let dir = tempfile::tempdir().unwrap();
    let server = Served::fresh(&dir, &[]);
    let (status, reply) = command_from_page(
        &server,
        Some("https://evil.example"),
        "signup mallory secret-99",
    );
    assert_eq!(status, 403, "{reply}");
    assert!(
        reply.contains("foreign_origin") || reply.contains("origin"),
        "{reply}"
    );
    // It signed nobody up: the name is free.
    server.text().ok("signup mallory secret-97");
    let (status, reply) = command_from_page(&server, None, "signup nina secret-99");
    assert_eq!(status, 200, "{reply}");
    let own = format!("http://{}", server.http);
    let (status, reply) = command_from_page(&server, Some(&own), "signup amy secret-98");
    assert_eq!(status, 200, "{reply}");
}

/// Issue #50, finding 12: a chat line reaches others without the bytes a terminal obeys (a
/// text-door user's screen cleared, a bell) or a bidirectional override; an all-control line
/// is refused as empty.
#[test]
fn chat_reaches_others_without_terminal_commands_or_overrides() {
    let (table, mut door) = Table::by_text(&[], &[ALICE, BOB], "ataxx challenge alice bob");
    let alice = login(&table, "alice", "secret-1");
    let chat = |text: &str| {
        api(
            "POST",
            &table.url("/api/games/101/chat"),
            Some(&alice),
            Some(json!({ "text": text })),
        )
    };
    let (status, line) = chat("\u{1b}[2J\u{7}good\u{0} game\u{8}\u{202e}ssap");
    assert_eq!(status, 200, "{line}");
    let shown = door.board(101)["chat"][0]["body"].clone();
    assert_eq!(shown, "[2Jgood gamessap", "{shown}");
    let (status, refused) = chat("\u{1b}\u{7}\u{0}");
    assert_eq!(status, 400, "{refused}");
}

// ---------------------------------------------------------------------------------------------
// 7. Text connections

#[test]
fn text_connections_time_out_when_idle_and_are_capped_per_address() {
    let dir = tempfile::tempdir().unwrap();
    let server = Served::fresh(
        &dir,
        &["--text-idle-secs", "2", "--text-max-per-address", "2"],
    );
    let mut first = server.text();
    let _second = server.text();
    let mut third = TextDoor::raw(&server.text, None);
    let reply = third.reply();
    assert!(
        reply.starts_with("error: too many connections from 127.0.0.1 (at most 2 at once)"),
        "{reply}"
    );
    assert!(third.closed());
    // Another address is not counted with these.
    server.text_from("127.0.0.9").ok("help");

    // An idle connection is told why it is closed; an active one is not.
    let started = Instant::now();
    first.ok("help");
    let reply = first.reply();
    assert!(
        reply.starts_with("closing the connection: no command for 2 s"),
        "{reply}"
    );
    assert!(started.elapsed() >= Duration::from_millis(1900));
    assert!(first.closed());
    // Their places are free again.
    std::thread::sleep(Duration::from_millis(300));
    server.text().ok("help");
}

// ---------------------------------------------------------------------------------------------
// 8. Smaller replies

#[test]
fn smaller_replies_say_what_happened() {
    let dir = tempfile::tempdir().unwrap();
    let server = Served::fresh(&dir, &[]);
    let mut door = server.text();
    door.signup(&[ALICE, BOB]);
    door.ok("ataxx challenge alice bob");
    let reply = door.send("ataxx move 101 alice secret-1 b6#1");
    assert!(
        reply.starts_with("error: board 101 is a challenge, not in play"),
        "{reply}"
    );
    door.accept(101, &[ALICE, BOB]);
    door.ok("ataxx move 101 alice secret-1 b6#1");

    let reply = door.ok("ataxx show 101#9");
    assert!(
        reply.starts_with(
            "Board 101 has 1 moves: #9 is beyond the end; this is the current position."
        ),
        "{reply}"
    );
    assert!(!door.ok("ataxx show 101#1").contains("beyond the end"));

    door.ok("ataxx queue 101 alice secret-1 b5#3");
    let reply = door.ok("ataxx queue 101 alice secret-1 c6#3");
    assert!(
        reply.starts_with(
            "Queued c6 for alice: played when it is alice's turn. It replaces the move queued before, b5."
        ),
        "{reply}"
    );

    let reply = door.send("help nosuch");
    assert!(
        reply
            .starts_with("error: unknown help topic \"nosuch\"; topics: commands, tutorial, ataxx"),
        "{reply}"
    );
    assert!(door.ok("help").contains("signup <userid> <password>"));

    door.ok("ataxx resign 101 bob secret-2");
    let history = door.ok("ataxx history");
    let row = history
        .lines()
        .find(|line| line.contains("  101  "))
        .unwrap_or_else(|| panic!("{history}"));
    // "YYYY-MM-DD HH:MM  101  alice ..."
    assert_eq!(&row[10..11], " ", "{history}");
    assert_eq!(&row[13..14], ":", "{history}");

    // The record and the PGN agree on who is x: the PGN names x (alice) Black, and the
    // server's record names each player by their pieces, never x as White.
    let pgn = door.ok("ataxx pgn 101");
    assert!(pgn.contains("[Black \"alice\"]\n[White \"bob\"]"), "{pgn}");
    let record = door.ok("ataxx record 101");
    assert!(record.contains("alice (x)  bob (o)"), "{record}");
    assert!(!record.contains("White"), "{record}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_oversized_websocket_message_gets_close_code_1009() {
    let dir = tempfile::tempdir().unwrap();
    let server = Served::fresh(&dir, &[]);
    let mut door = server.text();
    door.signup(&[ALICE, BOB]);
    door.ok("ataxx challenge alice bob");
    // Over the 64 KiB limit but within what the server reads whole: always answered with 1009.
    for size in [70 * 1024, 200 * 1024] {
        let mut ws = socket(&format!("ws://{}/api/games/101/ws", server.http)).await;
        let text = json!({"type": "ping", "id": "x".repeat(size)}).to_string();
        ws.send(Message::Text(text.into())).await.unwrap();
        assert_eq!(
            close_code(&mut ws).await,
            Some(CloseCode::Size),
            "{size} bytes"
        );
    }
    // Past the read limit the server stops reading mid-frame: it still sends 1009, but the
    // unread bytes make the kernel reset the connection, which may destroy that frame before
    // the client reads it. What must hold is that the socket ends and the server goes on.
    let mut ws = socket(&format!("ws://{}/api/games/101/ws", server.http)).await;
    let text = json!({"type": "ping", "id": "x".repeat(1024 * 1024)}).to_string();
    if ws.send(Message::Text(text.into())).await.is_ok() {
        let end = tokio::time::timeout(Duration::from_secs(10), async {
            loop {
                match ws.next().await {
                    Some(Ok(Message::Close(frame))) => return frame.map(|f| f.code),
                    Some(Ok(_)) => continue,
                    Some(Err(_)) | None => return None,
                }
            }
        })
        .await
        .expect("the server ends an oversized socket within 10 s");
        assert!(matches!(end, None | Some(CloseCode::Size)), "{end:?}");
    }
    let mut ws = socket(&format!("ws://{}/api/games/101/ws", server.http)).await;
    ws.send(Message::Text(r#"{"type":"ping","id":"after"}"#.into()))
        .await
        .unwrap();
    let pong = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            if let Some(Ok(Message::Text(text))) = ws.next().await {
                if text.contains("pong") {
                    return text.to_string();
                }
            }
        }
    })
    .await
    .expect("a fresh socket is served after an oversized one");
    assert!(pong.contains("after"), "{pong}");
}

// ---------------------------------------------------------------------------------------------
// Findings of schemathesis (tests/api/schemathesis.sh) where the server, not the document, was
// wrong.

#[test]
fn logout_refuses_a_token_that_opens_no_session() {
    let dir = tempfile::tempdir().unwrap();
    let server = Served::fresh(&dir, &[]);
    server.text().ok("signup zed secret-1");
    let (status, body) = api("POST", &server.url("/api/logout"), Some("nosuch"), None);
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (401, Some("auth")),
        "{body}"
    );
    let token = login(&server, "zed", "secret-1");
    let (status, body) = api("POST", &server.url("/api/logout"), Some(&token), None);
    assert_eq!(status, 200, "{body}");
    // The same token a second time opens nothing any more.
    let (status, body) = api("POST", &server.url("/api/logout"), Some(&token), None);
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (401, Some("auth")),
        "{body}"
    );
}

#[test]
fn a_game_list_limit_outside_1_to_500_is_refused_not_clamped() {
    let dir = tempfile::tempdir().unwrap();
    let server = Served::fresh(&dir, &[]);
    for limit in ["0", "-3", "501"] {
        let (status, body) = api(
            "GET",
            &server.url(&format!("/api/games?limit={limit}")),
            None,
            None,
        );
        assert_eq!(status, 400, "limit {limit}: {body}");
        let message = body["error"]["message"].as_str().unwrap_or("");
        assert!(message.contains("from 1 to 500"), "{body}");
    }
    for limit in ["1", "500"] {
        let (status, body) = api(
            "GET",
            &server.url(&format!("/api/games?limit={limit}")),
            None,
            None,
        );
        assert_eq!(status, 200, "limit {limit}: {body}");
        assert!(body.is_array(), "{body}");
    }
}

#[test]
fn a_new_password_needs_8_characters_on_the_api_and_the_text_door() {
    let dir = tempfile::tempdir().unwrap();
    let server = Served::fresh(&dir, &[]);
    let refused = |status: u16, body: &Value| {
        assert_eq!(status, 400, "{body}");
        assert_eq!(body["error"]["code"], "invalid_password", "{body}");
        let message = body["error"]["message"].as_str().unwrap_or("");
        assert!(message.contains("at least 8 characters"), "{body}");
    };
    let (status, body) = api(
        "POST",
        &server.url("/api/signup"),
        None,
        Some(json!({"userid": "amy", "password": "7-chars"})),
    );
    refused(status, &body);
    let mut door = server.text();
    let reply = door.send("signup amy 7-chars");
    assert!(
        reply.starts_with("error: invalid password: a password has at least 8 characters"),
        "{reply}"
    );
    // Eight characters are enough, on both doors; a change to seven is refused on both.
    door.ok("signup amy 8-chars!");
    let token = login(&server, "amy", "8-chars!");
    let (status, body) = api(
        "POST",
        &server.url("/api/password"),
        Some(&token),
        Some(json!({"current": "8-chars!", "new": "7-chars"})),
    );
    refused(status, &body);
    let reply = door.send("change password amy 8-chars! 7-chars");
    assert!(reply.contains("at least 8 characters"), "{reply}");
    assert!(!login(&server, "amy", "8-chars!").is_empty());
}

#[test]
fn a_password_of_128_characters_is_accepted_however_many_bytes_they_take() {
    let dir = tempfile::tempdir().unwrap();
    let server = Served::fresh(&dir, &[]);
    let signup = |userid: &str, password: &str| {
        api(
            "POST",
            &server.url("/api/signup"),
            None,
            Some(json!({"userid": userid, "password": password})),
        )
    };
    // 128 characters of two bytes each: 256 bytes.
    let long = "é".repeat(128);
    let (status, body) = signup("zed", &long);
    assert_eq!(status, 201, "{body}");
    assert!(!login(&server, "zed", &long).is_empty());
    let (status, body) = signup("amy", &"é".repeat(129));
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (400, Some("invalid_password")),
        "{body}"
    );
}
