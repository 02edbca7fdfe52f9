//! The site's server side (issue 17): leaderboards and the defects found in use (flagged
//! clocks, games a side never moved in, illegal moves in words, rejected offers, results from
//! the reader's side), through a real `ataxx serve`.

#[path = "common/served.rs"]
mod served;

use serde_json::{json, Value};
use served::{api, command, next_where, signup_and_login, socket, Served};

/// Starts a game between `x` and `o` (tokens) and returns its board.
fn start_game(server: &Served, x: &str, o: &str, o_name: &str, clock: Option<&str>) -> i64 {
    let mut options = json!({});
    if let Some(clock) = clock {
        options["clock"] = json!(clock);
    }
    let (status, game) = api(
        "POST",
        &server.url("/api/games"),
        Some(x),
        Some(json!({"opponent": o_name, "options": options})),
    );
    assert_eq!(status, 201, "{game}");
    let board = game["board"].as_i64().unwrap();
    let (status, game) = api(
        "POST",
        &server.url(&format!("/api/games/{board}/accept")),
        Some(o),
        None,
    );
    assert_eq!(status, 200, "{game}");
    assert_eq!(game["status"], "active");
    board
}

/// The board as anyone reads it.
fn game_of(server: &Served, board: i64) -> Value {
    api(
        "GET",
        &server.url(&format!("/api/games/{board}")),
        None,
        None,
    )
    .1
}

fn act(server: &Served, board: i64, token: &str, mv: &str) -> (u16, Value) {
    api(
        "POST",
        &server.url(&format!("/api/games/{board}/move")),
        Some(token),
        Some(json!({"move": mv})),
    )
}

fn rating(server: &Served, user: &str) -> f64 {
    let (_, user) = api(
        "GET",
        &server.url(&format!("/api/users/{user}")),
        None,
        None,
    );
    user["rating"].as_f64().unwrap()
}

/// A server whose clock the test moves (its sweeper looking every 50 ms), with alice and bob
/// signed in: the server and their tokens.
fn with_test_clock(dir: &tempfile::TempDir) -> (Served, String, String) {
    let server = Served::start_on(
        &dir.path().join("ataxx.db"),
        "127.0.0.1:0",
        &["--test-clock", "--sweep-ms", "50"],
    );
    let alice = signup_and_login(&server, "alice", "secret1");
    let bob = signup_and_login(&server, "bob", "secret2");
    (server, alice, bob)
}

#[test]
fn a_live_clock_starts_with_each_first_move_and_a_game_without_one_is_aborted_unrated() {
    let dir = tempfile::tempdir().unwrap();
    let (server, alice, bob) = with_test_clock(&dir);
    let board = start_game(&server, &alice, &bob, "bob", Some("1+0"));
    command(&server, "clock advance 20");
    let game = game_of(&server, board);
    assert_eq!(
        game["clock"]["x_ms"], 60_000,
        "no clock runs before the first move: {game}"
    );
    assert_eq!(game["clock"]["running"], Value::Null, "{game}");
    assert!(game["clock"]["first_move_by_ms"].is_i64(), "{game}");
    let (status, game) = act(&server, board, &alice, "b6");
    assert_eq!(status, 200, "{game}");
    assert_eq!(
        game["clock"]["x_ms"], 60_000,
        "the 20 s before it were not alice's: {game}"
    );
    // Bob has 30 s for his first move, counted from alice's.
    command(&server, "clock advance 25");
    let game = game_of(&server, board);
    assert_eq!(
        (&game["status"], &game["clock"]["o_ms"]),
        (&json!("active"), &json!(60_000))
    );
    command(&server, "clock advance 10");
    let game = served::poll(&server, &format!("/api/games/{board}"), 10, |g| {
        g["status"] != "active"
    });
    assert_eq!(
        (&game["status"], &game["termination"], &game["rated"]),
        (&json!("withdrawn"), &json!("aborted"), &json!(false)),
        "{game}"
    );
    assert!(
        game["unrated_reason"]
            .as_str()
            .unwrap()
            .starts_with("bob did not make a first move within 30 seconds"),
        "{game}"
    );
    assert_eq!(
        (rating(&server, "alice"), rating(&server, "bob")),
        (1500.0, 1500.0)
    );
    // The first mover too: without alice's first move the game is aborted, naming her.
    let board = start_game(&server, &alice, &bob, "bob", Some("3+2"));
    command(&server, "clock advance 31");
    let game = served::poll(&server, &format!("/api/games/{board}"), 10, |g| {
        g["status"] != "active"
    });
    assert_eq!(game["termination"], "aborted", "{game}");
    assert!(game["unrated_reason"]
        .as_str()
        .unwrap()
        .starts_with("alice did not"));
    // Once both have moved the clocks run as before (a correspondence game has no such rule).
    let board = start_game(&server, &alice, &bob, "bob", Some("1+0"));
    assert_eq!(act(&server, board, &alice, "b6").0, 200);
    assert_eq!(act(&server, board, &bob, "f6").0, 200);
    command(&server, "clock advance 40");
    let game = game_of(&server, board);
    assert_eq!(
        (&game["status"], &game["clock"]["running"]),
        (&json!("active"), &json!("x"))
    );
    assert!(game["clock"]["x_ms"].as_i64().unwrap() <= 20_000, "{game}");
}

#[test]
fn a_flag_keeps_the_time_left_and_a_game_one_side_never_moved_in_is_unrated() {
    let dir = tempfile::tempdir().unwrap();
    let (server, alice, bob) = with_test_clock(&dir);
    // The flag falls in a game of two others, so that alice's and bob's ratings stay 1500 for
    // the games below. Each clock starts with its player's first move (issue #32): the 20 s
    // carol waits before it are not hers.
    let carol = signup_and_login(&server, "carol", "secret3");
    let dave = signup_and_login(&server, "dave", "secret4");
    let board = start_game(&server, &carol, &dave, "dave", Some("1+0"));
    command(&server, "clock advance 20");
    assert_eq!(act(&server, board, &carol, "b6").0, 200);
    assert_eq!(act(&server, board, &dave, "f6").0, 200);
    command(&server, "clock advance 20");
    assert_eq!(act(&server, board, &carol, "c5").0, 200);
    // Dave never moves again: his minute runs out.
    command(&server, "clock advance 61");
    let game = served::poll(&server, &format!("/api/games/{board}"), 10, |g| {
        g["status"] == "finished"
    });
    assert_eq!(
        (&game["result"], &game["termination"]),
        (&json!("1-0"), &json!("time forfeit"))
    );
    // Carol used 20 s of her minute (and the real milliseconds the requests took); dave's is
    // spent, not back at 1:00.
    let carol_left = game["clock"]["x_ms"].as_i64().unwrap();
    assert!((39_000..=40_000).contains(&carol_left), "{game}");
    assert_eq!(game["clock"]["o_ms"], 0, "{game}");
    assert_eq!(game["seats"][1]["clock_ms"], 0);

    // A draw agreed after one move is unrated too.
    let board = start_game(&server, &alice, &bob, "bob", None);
    assert_eq!(act(&server, board, &alice, "b6").0, 200);
    assert_eq!(act(&server, board, &alice, "propose").0, 200);
    let (_, game) = act(&server, board, &bob, "accept");
    assert_eq!(
        (&game["result"], &game["rated"]),
        (&json!("1/2-1/2"), &json!(false))
    );
    assert!(game["unrated_reason"]
        .as_str()
        .unwrap()
        .starts_with("bob never moved"));
    assert_eq!(
        (rating(&server, "alice"), rating(&server, "bob")),
        (1500.0, 1500.0)
    );

    // Once both have moved, a resignation is rated; each seat reads the result from its side.
    let board = start_game(&server, &alice, &bob, "bob", None);
    assert_eq!(act(&server, board, &alice, "b6").0, 200);
    assert_eq!(act(&server, board, &bob, "f6").0, 200);
    let (_, game) = act(&server, board, &alice, "resign");
    assert_eq!(game["rated"], true);
    assert!(game.get("unrated_reason").is_none(), "{game}");
    assert_eq!(game["seats"][0]["outcome"], "loss");
    assert_eq!(game["seats"][1]["outcome"], "win");
    assert!(rating(&server, "alice") < 1500.0);
    assert!(rating(&server, "bob") > 1500.0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn illegal_moves_answer_in_words_and_a_rejected_offer_reaches_the_offerer() {
    let dir = tempfile::tempdir().unwrap();
    let server = Served::fresh(&dir, &[]);
    let alice = signup_and_login(&server, "alice", "secret1");
    let bob = signup_and_login(&server, "bob", "secret2");
    let board = start_game(&server, &alice, &bob, "bob", None);
    let (status, err) = act(&server, board, &alice, "d4");
    assert_eq!(status, 400);
    let message = err["error"]["message"].as_str().unwrap();
    assert!(message.contains("illegal move d4"), "{message}");
    assert!(message.contains("no own piece"), "{message}");
    // No position text: a FEN has slashes.
    assert!(!message.contains('/'), "{message}");

    let mut alices_page = socket(&server.ws(&format!("/api/ws?token={alice}"))).await;
    next_where(&mut alices_page, |v| v["type"] == "hello").await;
    assert_eq!(act(&server, board, &alice, "b6").0, 200);
    assert_eq!(act(&server, board, &bob, "f6").0, 200);
    for proposal in ["draw", "undo"] {
        let word = if proposal == "draw" {
            "propose"
        } else {
            "undo"
        };
        assert_eq!(act(&server, board, &alice, word).0, 200);
        let (status, game) = act(&server, board, &bob, "reject");
        assert_eq!(status, 200, "{game}");
        let heard = next_where(&mut alices_page, |v| v["type"] == "rejected").await;
        assert_eq!(
            (&heard["proposal"], &heard["by"]),
            (&json!(proposal), &json!("bob"))
        );
        assert_eq!(heard["board"], board);
    }
}

#[test]
fn leaderboards_rank_established_players_apart_from_provisional_ones_with_trends() {
    let dir = tempfile::tempdir().unwrap();
    let server = Served::fresh(&dir, &[]);
    let alice = signup_and_login(&server, "alice", "secret1");
    let bob = signup_and_login(&server, "bob", "secret2");
    let carol = signup_and_login(&server, "carol", "secret3");
    // 20 live games: alice wins 15, bob 5; both reach 20 rated games (established).
    for i in 0..20 {
        let board = start_game(&server, &alice, &bob, "bob", Some("5+0"));
        assert_eq!(act(&server, board, &alice, "b6").0, 200);
        assert_eq!(act(&server, board, &bob, "f6").0, 200);
        let loser = if i % 4 == 3 { &alice } else { &bob };
        assert_eq!(act(&server, board, loser, "resign").0, 200);
    }
    // Two correspondence games: carol beats alice twice (provisional: 2 games).
    for _ in 0..2 {
        let board = start_game(&server, &carol, &alice, "alice", None);
        assert_eq!(act(&server, board, &carol, "b6").0, 200);
        assert_eq!(act(&server, board, &alice, "f6").0, 200);
        assert_eq!(act(&server, board, &alice, "resign").0, 200);
    }
    let board = |speed: &str| {
        let (status, board) = api(
            "GET",
            &server.url(&format!("/api/leaderboard?game=ataxx&speed={speed}")),
            None,
            None,
        );
        assert_eq!(status, 200, "{board}");
        board
    };
    let live = board("live");
    let names = |list: &Value| -> Vec<String> {
        list.as_array()
            .unwrap()
            .iter()
            .map(|e| e["userid"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(names(&live["players"]), ["alice", "bob"], "{live}");
    assert_eq!(live["players"][0]["rank"], 1);
    assert_eq!(live["players"][0]["games"], 20);
    assert_eq!(names(&live["provisional"]), Vec::<String>::new());
    let correspondence = board("correspondence");
    // Alice has 22 rated games (established); carol's two make her provisional.
    assert_eq!(names(&correspondence["players"]), ["alice"]);
    assert_eq!(correspondence["players"][0]["games"], 2);
    assert_eq!(names(&correspondence["provisional"]), ["carol"]);
    assert_eq!(correspondence["provisional"][0]["rank"], Value::Null);
    // Carol's trend spans both her games: from the initial 1500.
    let carol_rating = correspondence["provisional"][0]["rating"].as_f64().unwrap();
    assert_eq!(
        correspondence["provisional"][0]["trend"],
        (carol_rating - 1500.0).round() as i64
    );
    // Alice's trend: her rating now against her rating five games ago, from her history.
    let (_, user) = api("GET", &server.url("/api/users/alice"), None, None);
    let history = user["rating_history"].as_array().unwrap();
    let five_ago = history[history.len() - 6]["rating"].as_f64().unwrap();
    let now = user["rating"].as_f64().unwrap();
    assert_eq!(
        correspondence["players"][0]["trend"],
        (now - five_ago).round() as i64
    );
    let (status, err) = api(
        "GET",
        &server.url("/api/leaderboard?speed=blitz"),
        None,
        None,
    );
    assert_eq!(status, 400);
    assert!(err["error"]["message"]
        .as_str()
        .unwrap()
        .contains("live, correspondence"));
}

#[test]
fn no_engine_analysis_of_a_position_on_a_board_in_play_until_the_game_ends() {
    let dir = tempfile::tempdir().unwrap();
    let server = Served::start_on(&dir.path().join("ataxx.db"), "127.0.0.1:0", &[]);
    let alice = signup_and_login(&server, "alice", "secret1");
    let bob = signup_and_login(&server, "bob", "secret2");
    let board = start_game(&server, &alice, &bob, "bob", Some("3+2"));
    assert_eq!(act(&server, board, &alice, "b6").0, 200);
    let game = game_of(&server, board);
    let fen = game["fen"].as_str().unwrap().to_string();
    let analysis = |fen: &str, token: Option<&str>| {
        let query: String = url_escape(fen);
        api(
            "GET",
            &server.url(&format!("/api/analysis?fen={query}")),
            token,
            None,
        )
    };
    // Nobody gets it: not a player, not a spectator; other move counters change nothing.
    let fields: Vec<&str> = fen.split(' ').collect();
    let recounted = format!("{} {} 37 90", fields[0], fields[1]);
    for (fen, token) in [
        (&fen, Some(alice.as_str())),
        (&fen, None),
        (&recounted, Some(bob.as_str())),
    ] {
        let (status, err) = analysis(fen, token);
        assert_eq!(status, 403, "{fen}: {err}");
        assert_eq!(err["error"]["code"], "in_play", "{err}");
    }
    // A position on no board is analysed; so is this one once the game is over.
    let (status, report) = analysis("x5o/7/7/7/7/7/o5x x 0 1", None);
    assert_eq!(status, 200, "{report}");
    assert_eq!(act(&server, board, &bob, "resign").0, 200);
    let (status, report) = analysis(&fen, None);
    assert_eq!(status, 200, "{report}");
    assert!(report["best"].is_string(), "{report}");
}

/// A FEN as a query value.
fn url_escape(text: &str) -> String {
    text.replace('/', "%2F").replace(' ', "+")
}

/// A GET over a socket of its own, with extra request headers; the status line and headers
/// (as sent) and the body's bytes.
fn raw_get(server: &Served, path: &str, extra: &str) -> (String, Vec<u8>) {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(&server.http).unwrap();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {}\r\n{extra}Connection: close\r\n\r\n",
        server.http
    )
    .unwrap();
    let mut bytes = vec![];
    stream.read_to_end(&mut bytes).unwrap();
    let split = bytes.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
    let head = String::from_utf8_lossy(&bytes[..split]).to_string();
    (head, bytes[split + 4..].to_vec())
}

#[test]
fn pages_come_gzipped_with_an_etag_and_a_reload_gets_304_for_what_it_has() {
    let dir = tempfile::tempdir().unwrap();
    let server = Served::start_on(&dir.path().join("ataxx.db"), "127.0.0.1:0", &[]);
    let (head, body) = raw_get(&server, "/static/lobby.js", "Accept-Encoding: gzip\r\n");
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    assert!(head.contains("content-encoding: gzip"), "{head}");
    let etag = head
        .lines()
        .find_map(|line| line.strip_prefix("etag: "))
        .expect("an etag")
        .to_string();
    // Chunked: the gzip stream starts after the first chunk's size line.
    let start = body.windows(2).position(|w| w == b"\r\n").unwrap() + 2;
    assert_eq!(&body[start..start + 2], [0x1f, 0x8b], "a gzip stream");
    let (plain, _) = raw_get(&server, "/static/lobby.js", "");
    assert!(!plain.contains("content-encoding"), "{plain}");
    let (again, body) = raw_get(
        &server,
        "/static/lobby.js",
        &format!("If-None-Match: {etag}\r\n"),
    );
    assert!(again.starts_with("HTTP/1.1 304"), "{again}");
    assert!(body.is_empty());
    let (front, _) = raw_get(&server, "/", &format!("If-None-Match: {etag}\r\n"));
    assert!(
        front.starts_with("HTTP/1.1 200"),
        "another file, another tag: {front}"
    );
}
