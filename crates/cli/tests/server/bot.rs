//! `ataxx bot` end to end through real processes: a server, the bot, and an engine (`ataxx uai`,
//! or the tests' random mover in Python, tests/python/random_mover.py, that shares no code with
//! the project), with a person's moves made by the test over HTTP.

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::common::persons_move::persons_move;
use crate::common::random_mover;
use crate::common::served::{
    api, free_port, next_where, poll, send, signup_and_login, socket, Served,
};

/// A running `ataxx bot`, killed when dropped; its log goes to `log`.
struct BotProcess {
    child: Child,
    log: PathBuf,
}

impl BotProcess {
    fn start(server: &Served, user: &str, extra: &[&str], engine: &[&str], log: PathBuf) -> Self {
        let signing_in = [&["--user", user, "--password", "botpass1"], extra].concat();
        Self::spawn(server, &signing_in, None, engine, log)
    }

    /// A bot signed in with an API token, given as ATAXX_TOKEN (no secret on its command line).
    fn with_token(server: &Served, token: &str, engine: &[&str], log: PathBuf) -> Self {
        Self::spawn(server, &[], Some(token), engine, log)
    }

    fn spawn(
        server: &Served,
        args: &[&str],
        token: Option<&str>,
        engine: &[&str],
        log: PathBuf,
    ) -> Self {
        let mut command = Command::new(env!("CARGO_BIN_EXE_ataxx"));
        command.env_remove("ATAXX_TOKEN");
        if let Some(token) = token {
            command.env("ATAXX_TOKEN", token);
        }
        let child = command
            .args(["bot", "--server", &server.url(""), "--movetime", "20"])
            .args(args)
            .arg("--")
            .args(engine)
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .expect("ataxx bot starts");
        BotProcess { child, log }
    }

    fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }
}

impl Drop for BotProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Waits until the account is labelled a bot (the bot signed in and upgraded it).
fn wait_for_bot(server: &Served, user: &str) {
    poll(server, &format!("/api/users/{user}"), 30, |u| {
        u["bot"] == "uai"
    });
}

fn challenge(server: &Served, token: &str, bot: &str, options: Value) -> i64 {
    let (status, game) = api(
        "POST",
        &server.url("/api/games"),
        Some(token),
        Some(json!({"opponent": bot, "options": options})),
    );
    assert_eq!(status, 201, "{game}");
    game["board"].as_i64().unwrap()
}

/// Plays the person's side of `boards` until every one is over; `between` runs after each
/// round with the plies recorded so far (the test restarts the server there).
fn play_out(
    server: &mut Served,
    token: &str,
    me: &str,
    boards: &[i64],
    mut between: impl FnMut(&mut Served, i64),
) -> Vec<Value> {
    let deadline = Instant::now() + Duration::from_secs(240);
    loop {
        let mut games = vec![];
        for board in boards {
            let (_, game) = api(
                "GET",
                &server.url(&format!("/api/games/{board}")),
                None,
                None,
            );
            if game["status"] == "active" && game["to_move"] == me {
                let (status, reply) = api(
                    "POST",
                    &server.url(&format!("/api/games/{board}/move")),
                    Some(token),
                    Some(
                        json!({"move": persons_move(&game), "guard": game["ply"].as_i64().unwrap() + 1}),
                    ),
                );
                assert!(status == 200 || status == 409, "{reply}");
            }
            games.push(game);
        }
        if games.iter().all(|g| g["status"] == "finished") {
            return games;
        }
        let plies = games.iter().map(|g| g["ply"].as_i64().unwrap_or(0)).sum();
        between(server, plies);
        assert!(
            Instant::now() < deadline,
            "the games did not end: {games:?}"
        );
        std::thread::sleep(Duration::from_millis(30));
    }
}

/// The moves each player made on a board.
fn moves_by(game: &Value, seat: u64) -> usize {
    game["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["seat"] == seat && m["auto"] == false)
        .count()
}

#[test]
fn a_bot_running_ataxx_uai_plays_a_live_and_a_correspondence_game_to_the_end() {
    let dir = tempfile::tempdir().unwrap();
    let mut server = Served::fresh(&dir, &[]);
    signup_and_login(&server, "engine", "botpass1");
    let alice = signup_and_login(&server, "alice", "secret-1");
    let bot = BotProcess::start(
        &server,
        "engine",
        &["--games", "2"],
        &[env!("CARGO_BIN_EXE_ataxx"), "uai"],
        dir.path().join("bot.log"),
    );
    wait_for_bot(&server, "engine");
    let live = challenge(
        &server,
        &alice,
        "engine",
        json!({"size": "5", "clock": "0.5+0"}),
    );
    let correspondence = challenge(&server, &alice, "engine", json!({"size": "5"}));
    for board in [live, correspondence] {
        poll(&server, &format!("/api/games/{board}"), 30, |g| {
            g["status"] == "active"
        });
    }
    // A third game is over the bot's two at once: declined, with the reason in the chat.
    let third = challenge(&server, &alice, "engine", json!({}));
    let declined = poll(&server, &format!("/api/games/{third}"), 30, |g| {
        g["status"] == "declined"
    });
    let reason = declined["chat"][0]["body"].as_str().unwrap();
    assert!(reason.contains("playing 2 games"), "{reason}");
    // Declined once (its chat line brought the challenge back to the bot, which declined again).
    std::thread::sleep(Duration::from_millis(1500));
    let (_, declined) = api(
        "GET",
        &server.url(&format!("/api/games/{third}")),
        None,
        None,
    );
    assert_eq!(declined["chat"].as_array().unwrap().len(), 1, "{declined}");
    assert!(
        !bot.log().contains("not an open challenge"),
        "{}",
        bot.log()
    );

    let games = play_out(
        &mut server,
        &alice,
        "alice",
        &[live, correspondence],
        |_, _| {},
    );
    for game in &games {
        // Played out by the rules: nobody resigned or lost on time.
        assert_eq!(game["termination"], "rules", "{game}\n{}", bot.log());
        assert!(moves_by(game, 0) > 2 && moves_by(game, 1) > 2, "{game}");
    }
    let log = bot.log();
    assert!(log.contains("challenge accepted"), "{log}");
    assert!(log.contains("game over"), "{log}");
    // The account is labelled a bot, and a person's account with games cannot become one.
    let (_, user) = api("GET", &server.url("/api/users/engine"), None, None);
    assert_eq!(user["bot"], "uai");
    let (status, err) = api("POST", &server.url("/api/bot/upgrade"), Some(&alice), None);
    assert_eq!(status, 400);
    assert!(
        err["error"]["message"]
            .as_str()
            .unwrap()
            .contains("without games"),
        "{err}"
    );
}

#[test]
fn a_bot_survives_an_engine_crash_an_illegal_answer_and_a_server_restart() {
    let dir = tempfile::tempdir().unwrap();
    let marks = dir.path().join("marks");
    std::fs::create_dir(&marks).unwrap();
    // A fixed port, so that the restarted server is where the bot left it.
    let address = format!("127.0.0.1:{}", free_port());
    let db = dir.path().join("ataxx.db");
    let mut server = Served::start_on(&db, &address, &[]);
    signup_and_login(&server, "randombot", "botpass1");
    let alice = signup_and_login(&server, "alice", "secret-1");
    let [python, script] = random_mover();
    let bot = BotProcess::start(
        &server,
        "randombot",
        &[],
        &[&python, &script, marks.to_str().unwrap()],
        dir.path().join("bot.log"),
    );
    wait_for_bot(&server, "randombot");
    // 7×7: a 5×5 game between two weak players can end inside the ten plies before the restart.
    let board = challenge(&server, &alice, "randombot", json!({"size": "7"}));
    poll(&server, &format!("/api/games/{board}"), 30, |g| {
        g["status"] == "active"
    });
    let mut restarted = false;
    let games = play_out(&mut server, &alice, "alice", &[board], |server, plies| {
        if plies >= 10 && !restarted {
            server.kill();
            *server = Served::start_on(&db, &address, &[]);
            restarted = true;
        }
    });
    assert!(restarted, "the game ended before the server restart");
    let game = &games[0];
    assert_eq!(game["termination"], "rules", "{game}\n{}", bot.log());
    assert!(moves_by(game, 0) > 5 && moves_by(game, 1) > 5, "{game}");
    assert!(marks.join("crashed").exists() && marks.join("illegal").exists());
    let log = bot.log();
    assert!(log.contains("engine failed; restarting it"), "{log}");
    assert!(
        log.contains("illegal move \\\"a1a1\\\"") || log.contains("a1a1"),
        "{log}"
    );
    assert!(log.contains("reconnecting"), "{log}");
}

/// Makes an API token through the session `session`; returns its id and secret.
fn make_token(server: &Served, session: &str, label: &str, scopes: &[&str]) -> (String, String) {
    let (status, made) = api(
        "POST",
        &server.url("/api/account/tokens"),
        Some(session),
        Some(json!({"label": label, "scopes": scopes})),
    );
    assert_eq!(status, 201, "{made}");
    let secret = made["token"].as_str().unwrap().to_string();
    (made["id"].as_str().unwrap().to_string(), secret)
}

#[test]
fn a_bot_plays_with_a_scoped_api_token_a_read_token_cannot_move_and_revoked_tokens_stop() {
    let dir = tempfile::tempdir().unwrap();
    let mut server = Served::fresh(&dir, &[]);
    let engine_session = signup_and_login(&server, "engine", "botpass1");
    let alice = signup_and_login(&server, "alice", "secret-1");
    let (bot_token_id, bot_token) =
        make_token(&server, &engine_session, "laptop bot", &["bot:play"]);
    assert!(
        bot_token.starts_with("ataxx_") && bot_token.len() > 60,
        "{bot_token}"
    );

    // Listed without the secret, which was shown once.
    let (status, listed) = api(
        "GET",
        &server.url("/api/account/tokens"),
        Some(&engine_session),
        None,
    );
    assert_eq!(status, 200, "{listed}");
    assert_eq!(listed.as_array().unwrap().len(), 1, "{listed}");
    assert_eq!(listed[0]["id"], bot_token_id.as_str());
    assert_eq!(listed[0]["label"], "laptop bot");
    assert_eq!(listed[0]["scopes"], json!(["bot:play"]));
    assert!(!listed.to_string().contains(&bot_token), "{listed}");
    // A token cannot make tokens, nor change the password: only a signed-in session may.
    let (status, refused) = api(
        "POST",
        &server.url("/api/account/tokens"),
        Some(&bot_token),
        Some(json!({"label": "more", "scopes": ["read"]})),
    );
    assert_eq!(status, 403, "{refused}");
    assert_eq!(refused["error"]["code"], "session_only", "{refused}");
    // A name over 64 bytes is bad input (400), not an oversized body (413).
    let (status, refused) = api(
        "POST",
        &server.url("/api/account/tokens"),
        Some(&engine_session),
        Some(json!({"label": "x".repeat(65), "scopes": ["read"]})),
    );
    assert_eq!(
        (status, refused["error"]["code"].as_str()),
        (400, Some("too_long")),
        "{refused}"
    );

    // The bot signs in with the token alone (ATAXX_TOKEN) and plays a game to its end.
    let bot = BotProcess::with_token(
        &server,
        &bot_token,
        &[env!("CARGO_BIN_EXE_ataxx"), "uai"],
        dir.path().join("bot.log"),
    );
    wait_for_bot(&server, "engine");
    let board = challenge(&server, &alice, "engine", json!({"size": "5"}));
    poll(&server, &format!("/api/games/{board}"), 30, |g| {
        g["status"] == "active"
    });

    // alice's `read` token reads her board but may not move on it: 403 naming the scope.
    let (read_id, read_token) = make_token(&server, &alice, "watcher", &["read"]);
    let (status, game) = api(
        "GET",
        &server.url(&format!("/api/games/{board}")),
        Some(&read_token),
        None,
    );
    assert_eq!(status, 200, "{game}");
    let (status, refused) = api(
        "POST",
        &server.url(&format!("/api/games/{board}/move")),
        Some(&read_token),
        Some(json!({"move": persons_move(&game)})),
    );
    assert_eq!(status, 403, "{refused}");
    assert_eq!(refused["error"]["code"], "missing_scope", "{refused}");
    assert!(
        refused["error"]["message"]
            .as_str()
            .unwrap()
            .contains("board:play"),
        "{refused}"
    );
    // Nor over a socket it opens: the `move` message is refused the same way.
    let socket_url = server.ws(&format!("/api/games/{board}/ws?token={read_token}"));
    let refused = tokio::runtime::Runtime::new().unwrap().block_on(async {
        let mut ws = socket(&socket_url).await;
        let mv = persons_move(&game);
        send(&mut ws, json!({"type": "move", "id": 1, "move": mv})).await;
        next_where(&mut ws, |m| m["type"] == "error" || m["type"] == "ack").await
    });
    assert_eq!(refused["code"], "missing_scope", "{refused}");
    let (_, unmoved) = api(
        "GET",
        &server.url(&format!("/api/games/{board}")),
        None,
        None,
    );
    assert_eq!(
        unmoved["ply"], game["ply"],
        "the refused move was not played"
    );

    let games = play_out(&mut server, &alice, "alice", &[board], |_, _| {});
    assert_eq!(
        games[0]["termination"],
        "rules",
        "{}\n{}",
        games[0],
        bot.log()
    );
    assert!(moves_by(&games[0], 1) > 2, "{}", games[0]);

    // Revoked: refused at once (401), and the bot's open socket is closed.
    for (owner, id, token) in [
        (&alice, &read_id, &read_token),
        (&engine_session, &bot_token_id, &bot_token),
    ] {
        let (status, _) = api(
            "DELETE",
            &server.url(&format!("/api/account/tokens/{id}")),
            Some(owner),
            None,
        );
        assert_eq!(status, 204);
        let (status, refused) = api("GET", &server.url("/api/me"), Some(token), None);
        assert_eq!(status, 401, "{refused}");
    }
    let deadline = Instant::now() + Duration::from_secs(10);
    while !bot.log().contains("connection lost") {
        assert!(
            Instant::now() < deadline,
            "the revoked token's socket stayed open:\n{}",
            bot.log()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let (status, _) = api(
        "DELETE",
        &server.url(&format!("/api/account/tokens/{read_id}")),
        Some(&alice),
        None,
    );
    assert_eq!(status, 404, "a revoked token is gone");
}
