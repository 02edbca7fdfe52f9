//! Admin without SQL (issue #35) through a real `ataxx serve --admin root`: a ban shuts every
//! door (sign-in, moves, chat, seeks, the command language that mail runs) and withdraws the
//! banned user's challenges and seeks, the admin log records it, a non-admin is refused, an unban
//! restores; a cheater's next game is unrated, an aborted game ends unrated, a closed account
//! resigns its games.

use serde_json::{json, Value};

use crate::common::served::{api, login, signup_and_login, Served};
use crate::common::table::start_game;

struct Site {
    server: Served,
    _dir: tempfile::TempDir,
}

impl Site {
    fn start() -> Site {
        let dir = tempfile::tempdir().unwrap();
        let server = Served::start(&dir.path().join("ataxx.db"), &["--admin", "root"]);
        Site { server, _dir: dir }
    }

    fn post(&self, path: &str, token: &str, body: Value) -> (u16, Value) {
        api("POST", &self.server.url(path), Some(token), Some(body))
    }

    fn get(&self, path: &str, token: Option<&str>) -> (u16, Value) {
        api("GET", &self.server.url(path), token, None)
    }

    /// A challenge from `x` to `o_name`: its board, not yet accepted.
    fn challenge(&self, x: &str, o_name: &str) -> i64 {
        let (status, game) = self.post("/api/games", x, json!({"opponent": o_name, "options": {}}));
        assert_eq!(status, 201, "{game}");
        game["board"].as_i64().unwrap()
    }

    /// A game between `x` and `o` (accepted): its board.
    fn game(&self, x: &str, o: &str, o_name: &str) -> i64 {
        start_game(&self.server, x, &[(o_name, o)], json!({"options": {}})).0
    }

    fn board(&self, board: i64) -> Value {
        self.get(&format!("/api/games/{board}"), None).1
    }

    /// Plays the first legal move on `board` as `token`.
    fn first_move(&self, board: i64, token: &str) -> (u16, Value) {
        let game = self.board(board);
        let mv = game["legal_moves"][0].as_str().unwrap().to_string();
        self.post(
            &format!("/api/games/{board}/move"),
            token,
            json!({"move": mv}),
        )
    }
}

fn code(answer: &(u16, Value)) -> (u16, Option<&str>) {
    (answer.0, answer.1["error"]["code"].as_str())
}

#[test]
fn a_ban_shuts_every_door_withdraws_challenges_and_seeks_and_is_logged_until_unbanned() {
    let site = Site::start();
    let [root, alice, bob] = ["root", "alice", "bob"]
        .map(|name| signup_and_login(&site.server, name, &format!("secret-{name}")));
    let carol = signup_and_login(&site.server, "carol", "secret-carol");
    // Mallory is in a game with alice, has challenged carol and posted a seek.
    let mallory = signup_and_login(&site.server, "mallory", "secret-mallory");
    let playing = site.game(&alice, &mallory, "mallory");
    let challenge = site.challenge(&mallory, "carol");
    let (status, seek) = site.post("/api/seeks", &mallory, json!({"game": "ataxx"}));
    assert_eq!(status, 201, "{seek}");

    // Only the server's admins may ban, or read the log.
    let refused = site.post(
        "/api/admin/users/mallory/ban",
        &bob,
        json!({"reason": "spite"}),
    );
    assert_eq!(
        code(&refused),
        (403, Some("not_an_admin")),
        "{:?}",
        refused.1
    );
    assert_eq!(
        code(&site.get("/api/admin/log", Some(&bob))),
        (403, Some("not_an_admin"))
    );
    let reply = site
        .server
        .text()
        .send("admin ban bob secret-bob mallory spite");
    assert!(
        reply.starts_with("error: bob is not one of the server's admins"),
        "{reply}"
    );

    let (status, banned) = site.post(
        "/api/admin/users/Mallory/ban",
        &root,
        json!({"reason": "abuse in chat"}),
    );
    assert_eq!(status, 200, "{banned}");
    assert_eq!(banned["user"], "mallory");
    assert_eq!(banned["boards"]["cancelled"], json!([challenge]));
    assert_eq!(banned["seeks"], json!([seek["id"]]));
    assert_eq!(site.board(challenge)["status"], "withdrawn");
    assert_eq!(site.get("/api/seeks", None).1, json!([]));
    // The game in play goes on (the banned player's clock runs), so alice may move in it.
    assert_eq!(site.board(playing)["status"], "active");

    // Mallory's session ended, and no door lets them back in.
    assert_eq!(
        code(&site.get("/api/me", Some(&mallory))),
        (401, Some("auth"))
    );
    let signin = api(
        "POST",
        &site.server.url("/api/login"),
        None,
        Some(json!({"userid": "mallory", "password": "secret-mallory"})),
    );
    assert_eq!(code(&signin), (403, Some("banned")), "{:?}", signin.1);
    assert!(signin.1["error"]["message"]
        .as_str()
        .unwrap()
        .contains("mallory is banned"));
    // A wrong password is the usual failure: a ban is told only to whoever knows the password.
    let wrong = api(
        "POST",
        &site.server.url("/api/login"),
        None,
        Some(json!({"userid": "mallory", "password": "not-the-password"})),
    );
    assert_eq!(code(&wrong), (401, Some("auth")));
    assert_eq!(
        code(&site.post(
            &format!("/api/games/{playing}/chat"),
            &mallory,
            json!({"text": "hi"})
        )),
        (401, Some("auth"))
    );
    let mut door = site.server.text();
    // The command language (text door, POST /api/command and mail alike) checks the password
    // of every command, and refuses a banned user's: moves, chat, seeks, challenges, mail.
    for line in [
        format!("ataxx move {playing} mallory secret-mallory a1"),
        format!("ataxx chat {playing} mallory secret-mallory hello"),
        "ataxx seek mallory secret-mallory 1".to_string(),
        "ataxx challenge -password=secret-mallory mallory bob".to_string(),
        "message mallory secret-mallory alice".to_string(),
    ] {
        let reply = door.send(&line);
        assert!(
            reply.starts_with("error: mallory is banned by the server's admins"),
            "{line}: {reply}"
        );
    }
    // Nobody can challenge a banned user either.
    let (status, refused) = site.post(
        "/api/games",
        &bob,
        json!({"opponent": "mallory", "options": {}}),
    );
    assert_eq!(status, 400, "{refused}");
    assert!(refused["error"]["message"]
        .as_str()
        .unwrap()
        .contains("mallory is banned"));

    // The log records the ban, on the API and in the command language.
    let (status, log) = site.get("/api/admin/log", Some(&root));
    assert_eq!(status, 200, "{log}");
    let acts = log["acts"].as_array().unwrap();
    assert_eq!(acts.len(), 1, "{log}");
    assert_eq!(
        (
            &acts[0]["admin"],
            &acts[0]["act"],
            &acts[0]["target"],
            &acts[0]["reason"]
        ),
        (
            &json!("root"),
            &json!("ban"),
            &json!("mallory"),
            &json!("abuse in chat")
        )
    );
    let reply = door.ok("admin log root secret-root");
    assert!(reply.contains("root ban mallory abuse in chat"), "{reply}");

    // An unban (here by the command language) lets mallory in again.
    let reply = door.ok("admin unban root secret-root mallory appealed");
    assert!(reply.contains("mallory is no longer banned"), "{reply}");
    let mallory = login(&site.server, "mallory", "secret-mallory");
    let (status, moved) = site.first_move(playing, &alice);
    assert_eq!(status, 200, "{moved}");
    let (status, moved) = site.first_move(playing, &mallory);
    assert_eq!(status, 200, "{moved}");
    let acts = site.get("/api/admin/log", Some(&root)).1["acts"].clone();
    assert_eq!(acts[0]["act"], "unban");
    assert_eq!(acts.as_array().unwrap().len(), 2);

    // The test's game ends (an admin's abort: no result, unrated), and is logged.
    let (status, aborted) = site.post(
        &format!("/api/admin/games/{playing}/abort"),
        &root,
        json!({"reason": "test over"}),
    );
    assert_eq!(status, 200, "{aborted}");
    let ended = site.board(playing);
    assert_eq!(
        (&ended["status"], &ended["rated"], &ended["termination"]),
        (&json!("withdrawn"), &json!(false), &json!("aborted")),
        "{ended}"
    );
    assert!(ended["unrated_reason"]
        .as_str()
        .unwrap()
        .contains("aborted by root: test over"));
    // An ended board is not aborted again.
    let again = site.post(
        &format!("/api/admin/games/{playing}/abort"),
        &root,
        json!({}),
    );
    assert_eq!(code(&again), (409, Some("not_in_play")));
    // Carol's challenge from mallory was withdrawn with the ban: nothing left to accept.
    let (status, _) = site.post(&format!("/api/games/{challenge}/accept"), &carol, json!({}));
    assert_eq!(status, 409);
}

#[test]
fn a_cheaters_next_game_is_unrated_and_a_closed_account_resigns_its_games() {
    let site = Site::start();
    let [root, alice, bob, carol] = ["root", "alice", "bob", "carol"]
        .map(|name| signup_and_login(&site.server, name, &format!("secret-{name}")));
    let reply = site
        .server
        .text()
        .ok("admin cheater root secret-root bob engine use");
    assert!(reply.contains("bob is marked as a cheater"), "{reply}");
    let board = site.game(&alice, &bob, "bob");
    let game = site.board(board);
    assert_eq!(game["rated"], false, "{game}");
    assert!(game["unrated_reason"]
        .as_str()
        .unwrap()
        .contains("bob is marked as a cheater"));
    // Without the mark, the next game is rated again.
    let (status, _) = site.post("/api/admin/users/bob/uncheater", &root, json!({}));
    assert_eq!(status, 200);
    let rated = site.game(&carol, &bob, "bob");
    assert_eq!(site.board(rated)["rated"], true);

    // Closing bob's account: the game with a move in it is resigned, the other cancelled.
    assert_eq!(site.first_move(board, &alice).0, 200);
    assert_eq!(site.first_move(board, &bob).0, 200);
    let (status, closed) = site.post(
        "/api/admin/users/bob/close",
        &root,
        json!({"reason": "asked to leave"}),
    );
    assert_eq!(status, 200, "{closed}");
    assert_eq!(closed["boards"]["resigned"], json!([board]));
    assert_eq!(closed["boards"]["cancelled"], json!([rated]));
    assert_eq!(site.board(board)["result"], "1-0");
    let signin = api(
        "POST",
        &site.server.url("/api/login"),
        None,
        Some(json!({"userid": "bob", "password": "secret-bob"})),
    );
    assert_eq!(signin.0, 401);
    let acts: Vec<Value> = site.get("/api/admin/log", Some(&root)).1["acts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|act| act["act"].clone())
        .collect();
    assert_eq!(acts, [json!("close"), json!("uncheater"), json!("cheater")]);
    // An admin is not banned or closed by mistake.
    let refused = site.post("/api/admin/users/root/ban", &root, json!({}));
    assert_eq!(refused.0, 400, "{:?}", refused.1);
}
